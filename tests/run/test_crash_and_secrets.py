"""SIGKILL at random points, then resume: same scores, no repeated calls. Keys never written."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from medsim.testing.openai_server import OpenAIServer, last_user_message
from tests.run.conftest import MCQ, correct_reply

REPO = Path(__file__).resolve().parents[2]


def medsim_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.app", *args]


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "160", **extra}


def final_scores(db: Path) -> dict[str, tuple[str, float | None]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT case_id, status, item_score FROM episodes").fetchall()
    return {case: (status, score) for case, status, score in rows}


def test_killed_runs_resume_to_the_same_scores(tmp_path: Path) -> None:
    rng = random.Random(7)
    with OpenAIServer(reply=correct_reply, latency=0.15) as server:
        base = ["run", str(MCQ), "--model", "medsim-test", "--base-url", server.base_url, "--no-cache",
                "--concurrency", "2"]
        clean_db = tmp_path / "clean.sqlite"
        done = subprocess.run(medsim_cmd(*base, "--db", str(clean_db)), env=env(), capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        expected = final_scores(clean_db)
        assert len(expected) == 8

        for attempt in range(3):
            db = tmp_path / f"killed{attempt}.sqlite"
            server.reset_counts()
            proc = subprocess.Popen(medsim_cmd(*base, "--db", str(db)), env=env(), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            wait_for = rng.randint(1, 6)  # kill after a random number of model calls have arrived
            deadline = time.monotonic() + 60
            while server.counts["/v1/chat/completions"] < wait_for and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 0.15))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            with sqlite3.connect(db) as conn:
                assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                run_id = conn.execute("SELECT id FROM runs").fetchone()[0]
                finished = {row[0] for row in conn.execute(
                    "SELECT case_id FROM episodes WHERE status = 'done'")}
            finished_stems = {q for q in _stems() if _stem_case(q) in finished}
            server.reset_counts()
            resumed = subprocess.run(medsim_cmd("run", "--resume", run_id, "--db", str(db)), env=env(),
                                     capture_output=True, text=True, timeout=120)
            assert resumed.returncode == 0, resumed.stderr
            assert final_scores(db) == expected
            asked = [last_user_message(r) for r in server.requests]
            assert not any(stem in prompt for stem in finished_stems for prompt in asked), \
                "a finished episode was called again"
            assert server.counts["/v1/chat/completions"] == 8 - len(finished)


def _stems() -> dict[str, str]:
    from medsim.scenario.load import load_scenario

    return {c.question: c.id for c in load_scenario(MCQ).cases}


def _stem_case(stem: str) -> str:
    return _stems()[stem]


def test_api_key_is_written_nowhere(tmp_path: Path) -> None:
    secret = "sk-medsim-SECRET-0123456789abcdef"
    with OpenAIServer(reply=correct_reply, api_key=secret) as server:
        result = subprocess.run(
            medsim_cmd("run", str(MCQ), "--model", "medsim-test", "--base-url", server.base_url,
                       "--db", str(tmp_path / "runs.sqlite")),
            env=env(MEDSIM_API_KEY=secret), capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert result.returncode == 0, result.stderr
        assert server.counts["/v1/chat/completions"] == 8
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "runs.sqlite" for p in written)
    for path in written:
        assert secret.encode() not in path.read_bytes(), path
    assert secret not in result.stdout + result.stderr
