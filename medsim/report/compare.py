"""Compare runs: a leaderboard by dimension, and paired differences on the items runs share.

Honest about n: a difference is called only with at least ``MIN_PAIRED`` paired items, and
only when the paired bootstrap 95% CI of the mean item-score difference excludes zero; an
interval wider than ``TOO_WIDE`` that includes zero is "too wide to call", not "no
difference". Pairing on (scenario, case, repeat) removes the between-case variance that
would otherwise drown small differences between models.

Honest about coverage: runs that scored different items (other scenarios, other cases, items
lost to endpoint errors) are not ranked against each other unless asked (``force``), and a
score over missing dimensions says over how many it stands.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from medsim.report.summary import build_summary
from medsim.scoring.aggregate import bootstrap_ci
from medsim.store.db import Store

MIN_PAIRED = 10  # fewer paired items than this: no significance claim at all
TOO_WIDE = 0.4  # a 95% interval wider than this (±0.2) that includes 0 cannot tell anything


def paired_bootstrap(diffs: list[float], *, seed: int = 0) -> tuple[float, float] | None:
    """95% CI of the mean paired difference; None with fewer than two pairs (no interval)."""
    return bootstrap_ci(diffs, seed=seed) if len(diffs) >= 2 else None


def verdict(n: int, diff: float | None, ci: tuple[float, float] | None) -> str:
    """What the pairs allow one to say, in words a report can print."""
    if n == 0 or diff is None:
        return "no shared items"
    if n < MIN_PAIRED:
        return f"too few pairs to call (n={n} < {MIN_PAIRED})"
    if ci is None:
        return "no interval"
    if ci[0] > 0:
        return "B better"
    if ci[1] < 0:
        return "A better"
    if ci[1] - ci[0] > TOO_WIDE:
        return f"too wide to call (±{(ci[1] - ci[0]) / 2:.2f})"
    return "no difference shown"


def paired_difference(a: dict, b: dict, scenario: str | None = None, seed: int = 0) -> dict[str, Any]:
    keys = sorted(k for k in a.keys() & b.keys() if scenario is None or k[0] == scenario)
    diffs = [b[k] - a[k] for k in keys]
    ci = paired_bootstrap(diffs, seed=seed)
    diff = (sum(diffs) / len(diffs)) if diffs else None
    said = verdict(len(keys), diff, ci)
    return {"n": len(keys), "diff": diff, "ci": ci, "significant": said in ("A better", "B better"), "verdict": said}


def coverage_differences(scores: dict[str, dict], names: dict[str, str]) -> list[str]:
    """How the runs' scored items differ, in sentences; empty when they scored the same items."""
    runs = list(scores)
    out = []
    for a, b in combinations(runs, 2):
        only_a = scores[a].keys() - scores[b].keys()
        only_b = scores[b].keys() - scores[a].keys()
        if not only_a and not only_b:
            continue
        parts = []
        for run, only in ((a, only_a), (b, only_b)):
            if only:
                scenarios = sorted({k[0] for k in only})
                shown = ", ".join(scenarios[:4]) + ("…" if len(scenarios) > 4 else "")
                parts.append(f"{names[run]} scored {len(only)} item(s) the other did not ({shown})")
        out.append(f"{names[a]} vs {names[b]}: " + "; ".join(parts))
    return out


def compare_runs(store: Store, run_ids: list[str], taxonomy: str = "climedbench", *,
                 force: bool = False) -> dict[str, Any]:
    runs = [store.get_run(r) for r in run_ids]
    summaries = {run["id"]: build_summary(store, run["id"], taxonomy) for run in runs}
    dimensions = [d["id"] for d in next(iter(summaries.values()))["dimensions"]]
    scores = {run["id"]: store.item_scores(run["id"]) for run in runs}
    differences = coverage_differences(scores, {run["id"]: run["id"] for run in runs})
    board = []
    for run in runs:
        summary = summaries[run["id"]]
        dims = {d["id"]: d["score"] for d in summary["dimensions"]}
        overall = summary["overall"]
        scored = sum(s["scored"] for s in summary["scenarios"])
        planned = sum(s["planned"] or 0 for s in summary["scenarios"])
        board.append({"run": run["id"], "model": run["model"], "dimensions": dims,
                      "complete": {d["id"]: d["complete"] for d in summary["dimensions"]},
                      "overall": overall["score"], "overall_dimensions": f"{overall['dimensions']}/{overall['of']}",
                      "overall_complete": overall["complete"], "scored": scored, "planned": planned})
    ranked = force or not differences
    if ranked:
        board.sort(key=lambda row: -1 if row["overall"] is None else row["overall"], reverse=True)
    for rank, row in enumerate(board, 1):
        row["rank"] = rank if ranked else None
    pairs = []
    for a, b in combinations([run["id"] for run in runs], 2):
        scenarios = sorted({k[0] for k in scores[a].keys() & scores[b].keys()})
        for scenario in [*scenarios, None]:
            result = paired_difference(scores[a], scores[b], scenario)
            pairs.append({"scenario": scenario or "(all shared items)", "a": a, "b": b, **result})
    why = ("" if not differences else
           "the runs scored different items, so their overall and dimension scores measure different things"
           + ("; ranked anyway (--force)" if force else "; not ranked (--force ranks them anyway). The paired "
              "differences below compare the items both runs scored"))
    return {"taxonomy": taxonomy, "dimensions": dimensions, "leaderboard": board, "pairs": pairs,
            "ranked": ranked, "coverage_differences": differences, "ranking_note": why,
            "min_paired": MIN_PAIRED}
