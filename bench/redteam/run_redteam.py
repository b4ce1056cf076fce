"""Run the independent red team's rules (bench/redteam/server.py, written by a reviewer who saw
medsim only as a user: its prompts and its scores, never the scorers, adversaries or golds) over
the bundled scenarios, beside the offline baseline, and flag every cell above max(0.15, baseline).

    python bench/redteam/run_redteam.py [--rules refuse,dump,...] [--json OUT]

The server speaks the OpenAI API on 127.0.0.1; each model id is one fixed rule that knows no
medicine. Exit 1 when any cell is flagged.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES = ("refuse", "abstain", "alarm", "dump", "parrot", "hedge", "askall", "const", "first", "last", "contrarian",
         "boiler", "sink", "askloop")
FLOOR = 0.15


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def medsim(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.app", *args], capture_output=True, text=True,
                          cwd=HERE.parents[1], timeout=1800)


def scores(db: Path) -> dict[str, float]:
    out = json.loads(medsim("report", "--format", "json", "--db", str(db)).stdout)
    return {s["id"]: s["score"] for s in out["scenarios"]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default=",".join(RULES))
    ap.add_argument("--json")
    args = ap.parse_args()
    port = free_port()
    server = subprocess.Popen([sys.executable, str(HERE / "server.py"), str(port)])
    table: dict[str, dict[str, float]] = {}
    try:
        time.sleep(1)
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "base.sqlite"
            medsim("run", "all", "--model", "baseline", "--db", str(db))
            table["baseline"] = scores(db)
            for rule in args.rules.split(","):
                db = Path(tmp) / f"{rule}.sqlite"
                ran = medsim("run", "all", "--model", rule, "--base-url", f"http://127.0.0.1:{port}/v1",
                             "--concurrency", "2", "--no-cache", "--db", str(db))
                if ran.returncode not in (0, 1):
                    print(f"{rule}: run failed ({ran.returncode}): {ran.stderr[-500:]}", file=sys.stderr)
                    continue
                table[rule] = scores(db)
                print(f"{rule} done", file=sys.stderr)
    finally:
        server.terminate()
    base = table["baseline"]
    sids = sorted(base)
    flagged = []
    print("| rule | " + " | ".join(sids) + " |")
    print("|---|" + "---|" * len(sids))
    for rule, row in table.items():
        cells = []
        for sid in sids:
            v = row.get(sid)
            bar = max(FLOOR, base[sid] or 0.0)
            hit = rule != "baseline" and v is not None and v > bar + 1e-9
            if hit:
                flagged.append((rule, sid, v, bar))
            cells.append("—" if v is None else (f"**{v:.3f}**" if hit else f"{v:.3f}"))
        print(f"| {rule} | " + " | ".join(cells) + " |")
    print(f"\n{len(flagged)} cell(s) above max({FLOOR}, baseline)")
    for rule, sid, v, bar in flagged:
        print(f"  {rule} on {sid}: {v:.3f} > {bar:.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"scores": table, "flagged": flagged}, ensure_ascii=False, indent=1))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
