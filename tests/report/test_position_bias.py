"""Options are shuffled by default; the reports show where a model's picks fell against where the
gold sat, by the letter shown, so a model that favours a position is seen."""

from __future__ import annotations

import json
from pathlib import Path

from tests.inproc import medsim as run_medsim


def test_a_clinician_that_always_picks_the_last_letter_shows_it_in_every_report(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    ran = run_medsim("run", "knowledge_exam", "--model", "adversary:constant/last", "--limit", "20",
                     "--db", str(db))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    summary = json.loads(run_medsim("report", "--format", "json", "--db", str(db)).stdout)
    bias = next(s for s in summary["scenarios"] if s["id"] == "knowledge_exam")["position_bias"]
    shares = bias["shares"]
    last = max(shares)  # the last letter shown (options E when five are shown)
    assert shares[last]["picked_share"] == 1.0  # every pick on it
    assert shares[last]["gold_share"] < 0.5  # shuffled: the gold is not mostly there
    assert abs(sum(v["gold_share"] for v in shares.values()) - 1) < 1e-9
    md = run_medsim("report", "--format", "md", "--db", str(db)).stdout
    assert "**Position bias — knowledge_exam**" in md and "| model picked |" in md and "100%" in md
    shown = run_medsim("show-run", "--db", str(db)).stdout
    assert "position bias knowledge_exam" in shown and f"{last} 100%/" in shown
    page = tmp_path / "r.html"
    assert run_medsim("report", "--format", "html", "--out", str(page), "--db", str(db)).returncode == 0
    html = page.read_text(encoding="utf-8")
    assert "Position bias — knowledge_exam" in html and "floor (best constant · chance)" in html
