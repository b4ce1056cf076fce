"""A report's scenario score is the mean of the item scores the run computed with the scenario's
whole scoring list — gates included (a wrong triage level is not redeemed by the right
department in the report either)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.inproc import medsim as run_medsim


def test_the_reported_score_keeps_the_gates(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    ran = run_medsim("run", "triage", "--model", "baseline", "--db", str(db))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    with sqlite3.connect(db) as conn:
        stored = [v for (v,) in conn.execute("SELECT item_score FROM episodes WHERE item_score IS NOT NULL")]
        # the same scores averaged without the gate (triage_level joins the mean, weight 2)
        rows = conn.execute("SELECT episode_id, scorer, value, weight FROM scores WHERE value IS NOT NULL").fetchall()
    ungated: dict[int, list[tuple[float, float]]] = {}
    for episode, _scorer, value, weight in rows:
        if weight > 0:
            ungated.setdefault(episode, []).append((value, weight))
    plain = [sum(v * w for v, w in p) / sum(w for _, w in p) for p in ungated.values()]
    summary = json.loads(run_medsim("report", "--format", "json", "--db", str(db)).stdout)
    reported = next(s for s in summary["scenarios"] if s["id"] == "triage")["score"]
    assert abs(reported - sum(stored) / len(stored)) < 1e-9
    assert sum(plain) / len(plain) > reported + 0.05  # without the gate it would read much higher
