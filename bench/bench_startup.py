"""Start-up time of `medsim --help` and `medsim list` against a bare `python -c pass`, as ratios.

Run: python bench/bench_startup.py [--repeat 7]
Each command is timed REPEAT times in one run, interleaved, and the medians compared, so the
ratio holds on a noisy shared machine even when the absolute times do not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "medsim --help": [sys.executable, "-m", "cli.app", "--help"],
    "medsim list": [sys.executable, "-m", "cli.app", "list"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.repeat):
        for name, cmd in COMMANDS.items():
            started = time.perf_counter()
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            times[name].append(time.perf_counter() - started)
    base = statistics.median(times["python -c pass"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<16} median {median * 1000:7.1f} ms   ratio to bare python {median / base:5.1f}×")


if __name__ == "__main__":
    main()
