"""What the session against a real model served by llama.cpp found (bench/data/real_model_check.md),
each reproduced over real HTTP with the stub server."""

from __future__ import annotations

from pathlib import Path

from medsim.testing.openai_server import Fault, OpenAIServer
from tests.cli.conftest import run_medsim


def _models_yaml(tmp_path: Path, base_url: str) -> Path:
    # one attempt per call, and a breaker that opens after its minimum number of failures
    path = tmp_path / "models.yaml"
    path.write_text(f"models:\n  busy:\n    base_url: {base_url}\n    model: qwen\n    max_attempts: 1\n"
                    f"    stop_after_s: 0.001\n", encoding="utf-8")
    return path


def test_patient_calibrate_says_the_endpoint_failed_not_that_medsim_has_a_bug(tmp_path: Path) -> None:
    """Seen: a patient call queued behind another client's request on a one-slot server hit the
    idle timeout, and the command ended in 'internal error (EndpointDown) … this is a bug in medsim'."""
    with OpenAIServer(reply=lambda req: "我胸口疼。", faults=[Fault("500")]) as srv:
        models = _models_yaml(tmp_path, srv.base_url)
        result = run_medsim("patient", "calibrate", "--patient", "llm:busy", "--models-file", str(models),
                            "--case", "triage:tri-001")
    assert result.returncode == 75, result.stderr + result.stdout
    assert "the patient model could not be reached, nothing was calibrated" in result.stderr
    assert "idle_timeout_s" in result.stderr  # how to fix it for a slow or busy server
    assert "bug in medsim" not in result.stderr and "Traceback" not in result.stderr


def test_judge_calibrate_stops_on_a_down_endpoint_instead_of_calling_the_judge_unfit(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    with OpenAIServer(reply=lambda req: '{"判断依据": "好", "得分": "[5]"}', faults=[Fault("500")]) as srv:
        models = _models_yaml(tmp_path, srv.base_url)
        result = run_medsim("judge", "calibrate", "medication_consult", "--judge", "busy", "--models-file", str(models),
                            "--limit", "1", "--repeats", "1", "--runs", "1", "--db", str(db))
        calls = len(srv.requests)
    assert result.returncode == 75, result.stderr + result.stdout
    assert "the judge could not be reached, nothing was calibrated" in result.stderr
    assert "not fit" not in result.stdout and "Traceback" not in result.stderr
    assert calls < 9  # stopped when the breaker opened, not after grading every answer
    if db.exists():  # nothing stored as this judge's verdict
        import sqlite3

        with sqlite3.connect(db) as conn:
            tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
            assert "judge_calibrations" not in tables or not conn.execute(
                "select count(*) from judge_calibrations").fetchone()[0]
