"""Run the `medsim` command in this process: the same entry point (``cli.app.main``), the same
argument parsing, error handling and exit codes as the installed script, without paying
for a fresh interpreter and its imports each time. Tests that need a process of their own
(Ctrl-C, kill -9, two processes at once, a private mount namespace) still start one."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def medsim(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
           timeout: float | None = None) -> Result:
    """``timeout`` is accepted for the same call shape as the subprocess helper; unused here."""
    from cli.app import main

    out, err = io.StringIO(), io.StringIO()
    old_argv, old_cwd, old_env = sys.argv, os.getcwd(), dict(os.environ)
    sys.argv = ["medsim", *args]
    os.environ.update(env or {})
    code = 0
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = old_argv
        os.chdir(old_cwd)
        os.environ.clear()
        os.environ.update(old_env)
    return Result(code, out.getvalue(), err.getvalue())
