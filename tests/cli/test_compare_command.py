"""`medsim compare` refuses a run set against itself (its "no difference" would read like a finding); a
missing scenario file is said to be missing."""

from __future__ import annotations

from pathlib import Path


def test_the_same_run_twice_is_an_error_not_a_null_result(medsim, tmp_path: Path) -> None:
    result = medsim("compare", "r1", "r2", "r1", "--db", str(tmp_path / "runs.sqlite"))
    assert result.returncode != 0
    assert "same run more than once: r1" in result.stderr
    assert "Traceback" not in result.stderr and "no difference" not in result.stdout


def test_a_missing_scenario_file_is_said_to_be_missing(medsim, tmp_path: Path) -> None:
    result = medsim("run", str(tmp_path / "chest_pain.yaml"), "--model", "baseline", "--db", str(tmp_path / "r.sqlite"))
    assert result.returncode == 2
    assert "scenario file not found:" in result.stderr and "known:" not in result.stderr
