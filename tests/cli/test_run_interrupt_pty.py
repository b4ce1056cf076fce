"""Ctrl-C in a terminal stops any run at once, says what was saved and how to resume (exit 130)."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from medsim.testing.openai_server import Fault, OpenAIServer
from tests.cli.test_play_pty import Terminal as _Terminal
from tests.cli.test_play_pty import default_sigint
from tests.run.conftest import MCQ

BOUND_S = 30  # an offline run of every bundled item fifty times would take many minutes


class Terminal(_Terminal):
    """A child on a pty that is its controlling terminal, so ^C typed there is a SIGINT."""

    def __init__(self, args: list[str], cwd: Path):
        import os
        import pty
        import subprocess

        from tests.cli.conftest import REPO

        self.master, slave = pty.openpty()
        env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "160", "LINES": "50", "TERM": "xterm"}

        def controlling_tty() -> None:
            import fcntl
            import termios

            default_sigint()
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                                     close_fds=True, preexec_fn=controlling_tty)
        os.close(slave)
        self.screen = ""


def saved(db: Path) -> int:
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0]
    except sqlite3.Error:
        return 0


def wait_reading(term: Terminal, done, timeout: float = 60) -> None:
    """Wait for ``done()`` while reading the screen (a child whose output nobody reads blocks)."""
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        try:
            term.read_until("\x00never\x00", timeout=0.1)
        except AssertionError:
            pass


def interrupt(term: Terminal) -> float:
    """Ctrl-C as the terminal sends it (the line discipline turns ^C into SIGINT)."""
    import os

    sent = time.monotonic()
    os.write(term.master, b"\x03")
    term.read_until("medsim run --resume", timeout=BOUND_S)
    code = term.close()
    assert code == 130, (code, term.screen[-2000:])
    return time.monotonic() - sent


@pytest.mark.parametrize("model", ["baseline", "reference"])
def test_ctrl_c_stops_an_offline_run_at_once(tmp_path: Path, model: str) -> None:
    db = tmp_path / "r.sqlite"
    term = Terminal([sys.executable, "-m", "cli.app", "run", "all", "--model", model, "--repeats", "50",
                     "--db", str(db)], tmp_path)
    wait_reading(term, lambda: saved(db) >= 5)
    assert saved(db) >= 5, term.screen[-2000:]
    assert interrupt(term) < BOUND_S
    with sqlite3.connect(db) as conn:
        status = conn.execute("SELECT status FROM runs").fetchone()[0]
        done = conn.execute("SELECT COUNT(*) FROM episodes WHERE status = 'done'").fetchone()[0]
        planned = sum(json.loads(conn.execute("SELECT config FROM runs").fetchone()[0])["planned"].values())
    assert status == "interrupted"
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", term.screen).replace("\r", "").replace("\n", "")
    assert planned > 20_000  # every bundled item fifty times: many minutes if Ctrl-C waited for them
    assert f"{done} of {planned} item(s) of this run are finished and saved" in screen, screen[-1500:]
    assert "Traceback" not in term.screen


def test_ctrl_c_stops_a_run_waiting_on_a_hung_endpoint(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with OpenAIServer(faults=[Fault("hang")]) as stuck:
        term = Terminal([sys.executable, "-m", "cli.app", "run", str(MCQ), "--model", "medsim-test",
                         "--base-url", stuck.base_url, "--db", str(db)], tmp_path)
        wait_reading(term, lambda: stuck.counts["/v1/chat/completions"] >= 1)
        assert interrupt(term) < BOUND_S
        assert "0 of 8 item(s)" in term.screen
        deadline = time.monotonic() + 10
        while stuck.cancelled < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert stuck.cancelled >= 1, "the abandoned request was closed on its connection"
