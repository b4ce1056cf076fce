"""Token counts the model did not report are marked as estimates wherever a run's tokens are shown."""

from __future__ import annotations

from pathlib import Path

from cli.report_view import estimated_calls_note


def test_an_offline_run_marks_its_tokens_as_estimated(medsim, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.sqlite")
    run = medsim("run", "triage", "--model", "baseline", "--limit", "2", "--db", db)
    assert run.returncode == 0, run.stderr
    listed = medsim("runs", "--db", db)
    assert listed.returncode == 0, listed.stderr
    assert "│ ~" in listed.stdout and "~ tokens: estimated from text length" in listed.stdout
    assert "not the overall score" in listed.stdout
    run_id = next(line.split()[1] for line in listed.stdout.splitlines() if line.startswith("│ r"))
    shown = medsim("show-run", run_id, "--db", db)
    assert "tokens of model calls estimated from text length" in shown.stdout
    assert "clinician" in shown.stdout.split("estimated from text length", 1)[1].split("\n")[0]


def test_reported_usage_gets_no_estimate_note() -> None:
    assert estimated_calls_note({"clinician": {"calls": 12, "estimated": 0}}) is None
    note = estimated_calls_note({"clinician": {"calls": 12, "estimated": 0}, "judge": {"calls": 4, "estimated": 3}})
    assert note is not None and note.endswith("(judge 3/4 calls)")
