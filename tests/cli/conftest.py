from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run_medsim(*args: str, cwd: Path | None = None, input: str | None = None,
               env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the CLI in a subprocess as a user would (python -m cli.app == the medsim script)."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200", "NO_COLOR": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "cli.app", *args], cwd=cwd or REPO, input=input,
                          capture_output=True, text=True, env=full_env, timeout=timeout)


@pytest.fixture()
def medsim():
    return run_medsim
