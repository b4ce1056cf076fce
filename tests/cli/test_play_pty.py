"""Drive `medsim play --model human` in a pseudo-terminal, as a user would."""

from __future__ import annotations

import json
import os
import pty
import select
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.cli.conftest import REPO


def default_sigint() -> None:
    """^C typed on the pty must reach the child as a user's would, even when the tests themselves run
    in the background (a shell starts background jobs with SIGINT ignored, and a child inherits that)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """A child process on a pty: type lines, wait for text on the screen."""

    def __init__(self, args: list[str], cwd: Path):
        self.master, slave = pty.openpty()
        env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "160", "LINES": "50", "TERM": "xterm"}
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                                     close_fds=True, preexec_fn=default_sigint)
        os.close(slave)
        self.screen = ""

    def read_until(self, text: str, timeout: float = 60, since: int = 0) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.screen[since:]:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], min(remaining, 0.5))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.screen += chunk.decode("utf-8", "replace")
        return self.screen

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode("utf-8"))

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


def test_human_clinician_session(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite"
    term = Terminal([sys.executable, "-m", "cli.app", "play", "triage", "--model", "human", "--case", "tri-001",
                     "--db", str(db)], tmp_path)
    term.read_until("医生>")
    assert "患者" in term.screen
    term.type("/help")
    term.read_until("/order")
    term.type("哪里不舒服？什么时候开始的？")
    term.read_until("医生>", timeout=60)
    before = len(term.screen)
    term.type("/exam")
    term.read_until("生命体征")
    term.type("/order 心电图")
    term.read_until("心电图：")
    assert len(term.screen) > before
    term.type("/answer 1 心血管内科")
    term.read_until("saved as run")
    assert term.close() == 0
    screen = term.screen
    assert "score card" in screen and "triage_level" in screen
    with sqlite3.connect(db) as conn:
        speakers = [row[0] for row in conn.execute("SELECT speaker FROM turns ORDER BY idx")]
        transcript = json.loads(conn.execute("SELECT transcript FROM episodes").fetchone()[0])
    assert speakers[0] == "patient" and "oracle" in speakers and speakers.count("clinician") == 4
    assert transcript["answer"] == {"level": 1, "department": "心血管内科"}
    assert transcript["stop_reason"] == "answered"


def test_quit_leaves_cleanly(tmp_path: Path) -> None:
    term = Terminal([sys.executable, "-m", "cli.app", "play", "triage", "--model", "human",
                     "--db", str(tmp_path / "p.sqlite")], tmp_path)
    term.read_until("医生>")
    term.type("/quit")
    term.read_until("left the session")
    assert term.close() == 0
    assert "Traceback" not in term.screen


def test_model_text_cannot_drive_the_terminal(tmp_path: Path) -> None:
    replies = tmp_path / "replies.yaml"
    replies.write_text('- "\\e]8;;http://evil\\a点我\\e]8;;\\a\\e[2J[bold red]假[/] 请问哪里不舒服？"\n'
                       '- \'{"level": 3, "department": "急诊科"}\'\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "cli.app", "play", "triage", "--model", f"scripted:{replies}",
                             "--case", "tri-001", "--db", str(tmp_path / "p.sqlite")], capture_output=True,
                            text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "160"},
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert "\x1b]8" not in result.stdout and "\x1b[2J" not in result.stdout
    assert "[bold red]假[/]" in result.stdout and "点我" in result.stdout and "␛" in result.stdout


def test_ctrl_c_at_the_prompt_leaves_at_once(tmp_path: Path) -> None:
    import signal

    term = Terminal([sys.executable, "-m", "cli.app", "play", "triage", "--model", "human",
                     "--db", str(tmp_path / "p.sqlite")], tmp_path)
    term.read_until("医生>")
    term.proc.send_signal(signal.SIGINT)
    term.read_until("interrupted", timeout=15)
    assert term.close() == 130
    assert "Traceback" not in term.screen


def test_orders_and_exams_do_not_use_the_question_budget(tmp_path: Path) -> None:
    """/exam and /order are free: the status line says so and the session goes on past them."""
    db = tmp_path / "budget.sqlite"
    term = Terminal([sys.executable, "-m", "cli.app", "play", "triage", "--model", "human", "--case", "tri-001",
                     "--db", str(db)], tmp_path)
    term.read_until("医生>")
    assert "不占提问轮数" in term.screen
    term.type("哪里不舒服？")
    term.read_until("问诊还剩 7/8 轮")
    # more orders than would have been left had they counted against 8 turns
    for order in ("/exam", "/order 心电图", "/order 指尖血糖", "/order 血常规", "/exam", "/order 肌钙蛋白", "/exam", "/exam"):
        mark = len(term.screen)
        term.type(order)
        term.read_until("检查结果", since=mark)
        term.read_until("问诊还剩 7/8 轮", since=mark)
    term.type("疼了多久了？")
    term.read_until("问诊还剩 6/8 轮")
    term.type("/answer 1 心血管内科")
    term.read_until("saved as run")
    assert term.close() == 0
    with sqlite3.connect(db) as conn:
        transcript = json.loads(conn.execute("SELECT transcript FROM episodes").fetchone()[0])
    assert transcript["stop_reason"] == "answered" and transcript["answer"]["level"] == 1
