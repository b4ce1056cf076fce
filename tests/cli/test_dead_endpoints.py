"""A command that calls a model says at once when its endpoint is down, names the role and the
URL, exits non-zero, and leaves nothing half-made; a session whose model fails is not a clean exit."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from medsim.testing.openai_server import Fault, OpenAIServer
from tests.cli.conftest import run_medsim

CLOSED = "http://127.0.0.1:9/v1"  # the discard port: nothing listens there


def test_patient_ask_with_an_unreachable_llm_patient_says_so_and_exits_75() -> None:
    result = run_medsim("patient", "ask", "triage", "--case", "tri-001", "-q", "哪里不舒服？",
                        "--patient", "llm:qwen", "--base-url", CLOSED)
    assert result.returncode == 75, result.stderr
    assert "patient model qwen: cannot reach http://127.0.0.1:9/v1" in result.stderr
    assert "bug in medsim" not in result.stderr and "Traceback" not in result.stderr


def test_judge_calibrate_checks_the_judge_endpoint_before_grading(tmp_path: Path) -> None:
    result = run_medsim("judge", "calibrate", "--judge", "qwen", "--base-url", CLOSED,
                        "--db", str(tmp_path / "r.sqlite"))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "judge model qwen: cannot reach http://127.0.0.1:9/v1" in result.stderr
    assert "grading" not in result.stdout  # nothing was attempted


def test_play_against_a_dead_endpoint_stores_no_run(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    result = run_medsim("play", "consultation", "--model", "qwen", "--base-url", CLOSED, "--db", str(db))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "clinician model qwen: cannot reach" in result.stderr
    if db.exists():
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0


def test_a_session_whose_model_fails_exits_1_and_plans_its_one_case(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with OpenAIServer(faults=[Fault("500")]) as srv:  # /models answers, every chat call fails
        models = tmp_path / "models.yaml"
        models.write_text(f"models:\n  M:\n    base_url: {srv.base_url}\n    max_attempts: 1\n", encoding="utf-8")
        result = run_medsim("play", "triage", "--model", "M", "--case", "tri-003", "--models-file", str(models),
                            "--db", str(db))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "the episode ended with an error" in result.stdout
    shown = run_medsim("show-run", "--db", str(db))
    assert shown.returncode == 0 and "0/1" in shown.stdout, shown.stdout
    unknown = run_medsim("show-run", "--db", str(db), "--scenario", "nosuch", "--items")
    assert unknown.returncode == 2 and "has no scenario 'nosuch'" in unknown.stderr and "its scenarios: triage" in unknown.stderr
