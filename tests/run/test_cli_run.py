"""`medsim run` as scripts and CI see it: exit codes and messages."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from medsim.testing.openai_server import Fault, OpenAIServer
from tests.cli.conftest import run_medsim
from tests.run.conftest import MCQ, correct_reply


def test_failed_items_make_the_run_exit_non_zero(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    models = tmp_path / "models.yaml"
    with OpenAIServer(reply=correct_reply, faults=[Fault("500", marker="血清钾")]) as server:
        models.write_text(f"models:\n  flaky:\n    base_url: {server.base_url}\n    model: medsim-test\n"
                          f"    max_attempts: 2\n    timeout_s: 5\n", encoding="utf-8")
        result = run_medsim("run", str(MCQ), "--model", "flaky", "--models-file", str(models), "--db", str(db))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 of 8 item(s) failed" in result.stderr and "--resume" in result.stderr
    assert "HTTP 500 after 2 attempts" in result.stdout + result.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM episodes WHERE status = 'done'").fetchone()[0] == 7


def test_unknown_taxonomy_is_refused_before_the_run(tmp_path: Path) -> None:
    result = run_medsim("run", str(MCQ), "--model", "reference", "--taxonomy", "who", "--db",
                        str(tmp_path / "r.sqlite"))
    assert result.returncode == 2 and "unknown taxonomy 'who'" in result.stderr
    assert not (tmp_path / "r.sqlite").exists()
