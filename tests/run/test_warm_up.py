"""The text layer is loaded before a run's event loop starts (where Ctrl-C acts at once), and a
Ctrl-C during that load leaves no run behind."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.inproc import medsim as medsim_cli


def test_warm_up_loads_what_the_first_items_need() -> None:
    from medsim.runner import RunConfig, load_scenarios, warm_up
    from medsim.text.match import _concept_pattern

    warm_up(load_scenarios(RunConfig(scenarios=["triage"], model="baseline")))
    assert _concept_pattern.cache_info().currsize == 1


def test_ctrl_c_while_loading_creates_no_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import medsim.runner

    def interrupted(loaded) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(medsim.runner, "warm_up", interrupted)
    db = tmp_path / "r.sqlite"
    result = medsim_cli("run", "triage", "--model", "baseline", "--db", str(db))
    assert result.returncode == 130, result.stdout + result.stderr
    assert "interrupted before the run started: nothing was created or saved" in result.stderr
    if db.exists():
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0
