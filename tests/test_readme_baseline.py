"""The README's baseline table is what `medsim run all --model baseline` gives today."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from medsim.models.config import resolve_model
from medsim.runner import RunConfig, Services, load_scenarios, run_item
from medsim.scoring.aggregate import Item, scenario_score
from medsim.scoring.base import Score

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_table() -> dict[str, float]:
    text = README.read_text(encoding="utf-8")
    block = text.split("<!-- baseline-table:start -->", 1)[1].split("<!-- baseline-table:end -->", 1)[0]
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^\| (\w+) \| (\d\.\d{3}) \|", block, re.M)}


def test_readme_baseline_table_matches_a_fresh_run() -> None:
    expected = readme_table()
    config = RunConfig(scenarios=["all"], model="baseline")
    services = Services(clinician=resolve_model("baseline"))

    async def run() -> dict[str, float]:
        scores = {}
        for loaded in load_scenarios(config):
            items = []
            for case in loaded.cases:
                record = await run_item("readme", loaded, case, 0, config, services, None)
                items.append(Item(case.id, [Score(r["scorer"], r["value"]) for r in record.scores], record.error))
            scores[loaded.scenario.id] = scenario_score(items, loaded.scenario.scoring).score
        return scores

    got = asyncio.run(run())
    assert set(got) == set(expected), "every bundled scenario has a README row"
    stale = {sid: (expected[sid], round(got[sid], 3)) for sid in got if abs(got[sid] - expected[sid]) > 0.0005}
    assert not stale, f"README baseline table is stale (README, now): {stale}; rerun and update it"


def test_readme_main_job_succeeds(tmp_path: Path) -> None:
    """`medsim run all --model baseline` (the README's main job) ends cleanly: exit 0, no errors."""
    from tests.cli.conftest import run_medsim

    result = run_medsim("run", "all", "--model", "baseline", "--db", str(tmp_path / "runs.sqlite"), timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "finished in" in result.stdout and "error" not in result.stderr.lower()
