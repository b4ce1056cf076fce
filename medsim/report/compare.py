"""Compare runs: a leaderboard by dimension, and paired differences on the items runs share.

A difference is called significant when the paired bootstrap 95% CI of the mean item-score
difference excludes zero. Pairing on (scenario, case, repeat) removes the between-case
variance that would otherwise drown small differences between models.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from medsim.report.summary import build_summary
from medsim.scoring.aggregate import bootstrap_ci
from medsim.store.db import Store


def paired_bootstrap(diffs: list[float], *, seed: int = 0) -> tuple[float, float] | None:
    """95% CI of the mean paired difference; None with fewer than two pairs (no interval)."""
    return bootstrap_ci(diffs, seed=seed) if len(diffs) >= 2 else None


def paired_difference(a: dict, b: dict, scenario: str | None = None, seed: int = 0) -> dict[str, Any]:
    keys = sorted(k for k in a.keys() & b.keys() if scenario is None or k[0] == scenario)
    diffs = [b[k] - a[k] for k in keys]
    ci = paired_bootstrap(diffs, seed=seed)
    return {"n": len(keys), "diff": (sum(diffs) / len(diffs)) if diffs else None, "ci": ci,
            "significant": bool(ci and (ci[0] > 0 or ci[1] < 0))}


def compare_runs(store: Store, run_ids: list[str], taxonomy: str = "climedbench") -> dict[str, Any]:
    runs = [store.get_run(r) for r in run_ids]
    summaries = {run["id"]: build_summary(store, run["id"], taxonomy) for run in runs}
    dimensions = [d["id"] for d in next(iter(summaries.values()))["dimensions"]]
    board = []
    for run in runs:
        dims = {d["id"]: d["score"] for d in summaries[run["id"]]["dimensions"]}
        present = [v for v in dims.values() if v is not None]
        board.append({"run": run["id"], "model": run["model"], "dimensions": dims,
                      "overall": sum(present) / len(present) if present else None})
    board.sort(key=lambda row: -1 if row["overall"] is None else row["overall"], reverse=True)
    scores = {run["id"]: store.item_scores(run["id"]) for run in runs}
    pairs = []
    for a, b in combinations([run["id"] for run in runs], 2):
        scenarios = sorted({k[0] for k in scores[a].keys() & scores[b].keys()})
        for scenario in [*scenarios, None]:
            result = paired_difference(scores[a], scores[b], scenario)
            pairs.append({"scenario": scenario or "(all shared items)", "a": a, "b": b, **result})
    return {"taxonomy": taxonomy, "dimensions": dimensions, "leaderboard": board, "pairs": pairs}
