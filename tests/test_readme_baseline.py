"""The README's baseline table is what `medsim run all --model baseline` gives today."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from medsim.models.config import resolve_model
from medsim.runner import RunConfig, Services, load_scenarios, run_item

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_rows() -> dict[str, list[str]]:
    text = README.read_text(encoding="utf-8")
    block = text.split("<!-- baseline-table:start -->", 1)[1].split("<!-- baseline-table:end -->", 1)[0]
    rows = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 2 and re.fullmatch(r"[a-z_]+", cells[0]) and cells[0] != "scenario":
            rows[cells[0]] = cells
    return rows


def readme_table() -> dict[str, float]:
    return {sid: float(cells[1]) for sid, cells in readme_rows().items()}


def test_readme_baseline_table_matches_a_fresh_run() -> None:
    expected = readme_table()
    config = RunConfig(scenarios=["all"], model="baseline")
    services = Services(clinician=resolve_model("baseline"))

    async def run() -> dict[str, float]:
        scores = {}
        for loaded in load_scenarios(config):
            values = []
            for case in loaded.cases:
                record = await run_item("readme", loaded, case, 0, config, services, None)
                if record.item_score is not None:
                    values.append(record.item_score)
            scores[loaded.scenario.id] = sum(values) / len(values)
        return scores

    got = asyncio.run(run())
    assert set(got) == set(expected), "every bundled scenario has a README row"
    stale = {sid: (expected[sid], round(got[sid], 3)) for sid in got if abs(got[sid] - expected[sid]) > 0.0005}
    assert not stale, f"README baseline table is stale (README, now): {stale}; rerun and update it"


def test_readme_floor_columns_are_the_shipped_floors() -> None:
    """The best-constant, chance and best-adversary columns are scenarios/floors.json (which the
    bundled validity test keeps current)."""
    from medsim.validity import bundled_floors

    floors = bundled_floors()
    for sid, cells in readme_rows().items():
        f = floors[sid]
        assert cells[2] == f"{f['best_constant']:.3f}", (sid, cells)
        assert cells[3] == f"{f['chance']:.3f}", (sid, cells)
        assert cells[4].startswith(f"{f['best_adversary']:.3f}"), (sid, cells)


def test_readme_main_job_succeeds(tmp_path: Path) -> None:
    """`medsim run all --model baseline` (the README's main job) ends cleanly: exit 0, no errors."""
    from tests.cli.conftest import run_medsim

    result = run_medsim("run", "all", "--model", "baseline", "--db", str(tmp_path / "runs.sqlite"), timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "finished in" in result.stdout and "error" not in result.stderr.lower()
