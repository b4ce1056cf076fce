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
    assert result == {"n": 0, "diff": None, "ci": None, "significant": False, "verdict": "no shared items"}


def test_two_paired_items_never_make_a_significance_claim(tmp_path: Path) -> None:
    store = Store(tmp_path / "r.sqlite")
    make_run(store, "a", "m1", {"q1": 0.0, "q2": 0.0})
    make_run(store, "b", "m2", {"q1": 1.0, "q2": 1.0})  # a perfect gain on n=2: the interval is a point
    pair = next(d for d in compare_runs(store, ["a", "b"])["pairs"] if d["scenario"] == "(all shared items)")
    assert pair["n"] == 2 and pair["diff"] == 1.0
    assert not pair["significant"] and pair["verdict"] == "too few pairs to call (n=2 < 10)"


def test_an_interval_too_wide_to_call_is_said_so(tmp_path: Path) -> None:
    store = Store(tmp_path / "r.sqlite")
    cases = [f"q{i}" for i in range(12)]
    make_run(store, "a", "m1", {c: 0.5 for c in cases})
    make_run(store, "b", "m2", {c: (1.0 if i % 2 else 0.0) for i, c in enumerate(cases)})  # ±0.5 each
    pair = next(d for d in compare_runs(store, ["a", "b"])["pairs"] if d["scenario"] == "(all shared items)")
    assert pair["ci"][0] < 0 < pair["ci"][1] and pair["ci"][1] - pair["ci"][0] > 0.4
    assert pair["verdict"].startswith("too wide to call") and not pair["significant"]


def test_runs_of_different_coverage_are_not_ranked_unless_forced(tmp_path: Path) -> None:
    store = Store(tmp_path / "r.sqlite")
    cases = [f"q{i}" for i in range(20)]
    make_run(store, "full", "m1", {c: 0.6 for c in cases})
    make_run(store, "part", "m2", {c: 0.9 for c in cases[:12]})  # the 8 it lost are out of its mean
    result = compare_runs(store, ["full", "part"])
    assert not result["ranked"] and all(row["rank"] is None for row in result["leaderboard"])
    assert "part" in result["coverage_differences"][0] or "full" in result["coverage_differences"][0]
    assert "--force" in result["ranking_note"]
    forced = compare_runs(store, ["full", "part"], force=True)
    assert forced["ranked"] and [r["run"] for r in forced["leaderboard"]] == ["part", "full"]
    pair = next(d for d in forced["pairs"] if d["scenario"] == "(all shared items)")
    assert pair["n"] == 12  # paired on what both scored
