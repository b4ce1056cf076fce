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


def test_unreachable_endpoint_is_reported_once_before_the_run(tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    db = tmp_path / "runs.sqlite"
    result = run_medsim("run", str(MCQ), "--model", "m", "--base-url", f"http://127.0.0.1:{port}/v1", "--db", str(db))
    assert result.returncode == 2
    assert f"cannot reach http://127.0.0.1:{port}/v1" in result.stderr and "Traceback" not in result.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0


def test_rejected_key_is_reported_before_the_run(tmp_path: Path) -> None:
    with OpenAIServer(reply=correct_reply, api_key="sk-right") as server:
        result = run_medsim("run", str(MCQ), "--model", "m", "--base-url", server.base_url,
                            "--db", str(tmp_path / "r.sqlite"), env={"MEDSIM_API_KEY": "sk-wrong"})
        assert server.counts["/v1/chat/completions"] == 0
    assert result.returncode == 2 and "refused the API key (HTTP 401)" in result.stderr
