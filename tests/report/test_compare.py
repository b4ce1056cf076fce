"""`medsim compare`: leaderboard and paired differences on the items two runs share."""

from __future__ import annotations

from pathlib import Path

from medsim.report.compare import compare_runs, paired_difference
from medsim.store.db import EpisodeRecord, Store


def make_run(store: Store, run_id: str, model: str, scores: dict[str, float]) -> None:
    store.create_run(run_id, model, {"scenario_dimensions": {"knowledge_exam": "knowledge_application"}}, "0", {})
    for case_id, value in scores.items():
        store.save_episode(EpisodeRecord(run_id, "knowledge_exam", case_id, 0, "done", {"turns": []},
                                         [{"scorer": "choice", "value": value, "weight": 1.0}], [], item_score=value))


def test_leaderboard_order_and_a_consistent_gain_is_significant(tmp_path: Path) -> None:
    store = Store(tmp_path / "r.sqlite")
    cases = [f"q{i}" for i in range(30)]
    make_run(store, "weak", "a", {c: 0.0 for c in cases})
    make_run(store, "strong", "b", {c: (1.0 if i % 10 else 0.0) for i, c in enumerate(cases)})  # 27 of 30 right
    make_run(store, "noisy", "c", {c: (1.0 if i % 2 else 0.0) for i, c in enumerate(cases)})
    result = compare_runs(store, ["weak", "strong", "noisy"])
    assert [row["run"] for row in result["leaderboard"]] == ["strong", "noisy", "weak"]
    overall = {(d["a"], d["b"]): d for d in result["pairs"] if d["scenario"] == "(all shared items)"}
    assert overall[("weak", "strong")]["diff"] == 0.9 and overall[("weak", "strong")]["significant"]
    assert overall[("weak", "strong")]["n"] == 30


def test_runs_sharing_no_items_have_no_interval() -> None:
    result = paired_difference({("s", "a", 0): 1.0}, {("s", "b", 0): 0.0})
    assert result == {"n": 0, "diff": None, "ci": None, "significant": False}
