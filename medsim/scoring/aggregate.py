"""Aggregation: item → scenario (weighted, bootstrap CI) → dimension under any taxonomy.

- item score: weighted mean of the item's non-None scorer values (weights from the
  scenario's ScorerRefs; a scorer that errored drops out of that item's mean).
- scenario score: mean of item scores with a seeded percentile-bootstrap 95% CI. Items whose
  model call failed (``error``) or that no scorer could score are excluded and counted.
- dimension score: mean of its scenarios' scores; the CI resamples items within each
  scenario (stratified), so a dimension's uncertainty reflects its items.

Pure Python: numpy is not a dependency.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from medsim.scenario.schema import ScorerRef, Taxonomy
from medsim.scoring.base import Score

N_BOOT = 2000
RATE_KEYS = ("under_triage", "over_triage", "critical_under_triage")  # boolean details aggregated as rates


@dataclass
class Item:
    case_id: str
    scores: list[Score] = field(default_factory=list)
    error: str | None = None  # the model call failed: excluded, never a zero
    # the item score as the run computed it with the scenario's full scoring list (weights, gates,
    # configs); when given it is used as is, since scores read back alone do not carry their gates
    value: float | None = None


@dataclass
class ScenarioScore:
    scenario_id: str
    score: float | None
    ci: tuple[float, float] | None
    n_items: int
    n_scored: int
    n_excluded: int
    item_scores: list[float]
    by_scorer: dict[str, float]
    rates: dict[str, float]
    excluded: list[str] = field(default_factory=list)


@dataclass
class DimensionScore:
    dimension_id: str
    name: str
    score: float | None
    ci: tuple[float, float] | None
    scenarios: list[str]
    missing: list[str]  # scenarios the taxonomy lists that have no score in this run


def _get(obj: Any, name: str, default: Any = None) -> Any:
    return obj.get(name, default) if isinstance(obj, dict) else getattr(obj, name, default)


def item_score(scores: Sequence[Score], refs: Sequence[ScorerRef] | None = None) -> float | None:
    """Weighted mean of the non-None values, times the value of every gate scorer (``gate: true``):
    a gate can only take away (fact consistency, weight 0, charges errors and earns nothing; a wrong
    triage level is not redeemed by the right department). Scores pair with refs by position when
    the lists line up (one scorer may appear twice with different configs), else by name."""
    mean, gates = item_parts(scores, refs)
    if mean is None:
        return None
    value = mean
    for _, gate in gates:
        value *= gate
    return value


def item_parts(scores: Sequence[Score], refs: Sequence[ScorerRef] | None = None
               ) -> tuple[float | None, list[tuple[str, float]]]:
    """The two factors of ``item_score``: the weighted mean, and each applied gate as (scorer, value),
    so a score card can show its arithmetic."""
    if refs and len(refs) == len(scores) and all(r.name == s.scorer for r, s in zip(refs, scores, strict=True)):
        pairs_refs = list(zip(scores, refs, strict=True))
    else:
        by_name = {r.name: r for r in refs or []}
        pairs_refs = [(s, by_name.get(s.scorer)) for s in scores]
    pairs = [(s.value, r.weight if r else 1.0) for s, r in pairs_refs
             if s.value is not None and (r is None or r.weight > 0)]
    total = sum(w for _, w in pairs)
    if not total:
        return None, []
    gates = [(s.scorer, s.value) for s, r in pairs_refs if r is not None and r.gate and s.value is not None]
    return sum(v * w for v, w in pairs) / total, gates


def _quantile(sorted_vals: list[float], q: float) -> float:
    pos = q * (len(sorted_vals) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def bootstrap_ci(values: Sequence[float], *, n_boot: int = N_BOOT, seed: int = 0,
                 level: float = 0.95) -> tuple[float, float] | None:
    """Percentile bootstrap CI of the mean."""
    if not values:
        return None
    if len(values) == 1:
        return (values[0], values[0])
    rng = random.Random(seed)
    n = len(values)
    means = sorted(_mean([values[rng.randrange(n)] for _ in range(n)]) for _ in range(n_boot))
    a = (1 - level) / 2
    return (_quantile(means, a), _quantile(means, 1 - a))


def scenario_score(items: Iterable[Item | dict[str, Any]], refs: Sequence[ScorerRef] | None = None, *,
                   scenario_id: str = "", n_boot: int = N_BOOT, seed: int = 0) -> ScenarioScore:
    values: list[float] = []
    excluded: list[str] = []
    per_scorer: dict[str, list[float]] = {}
    flags: dict[str, list[bool]] = {}
    n_items = 0
    for it in items:
        n_items += 1
        scores: list[Score] = list(_get(it, "scores", []) or [])
        case_id = str(_get(it, "case_id", n_items))
        if _get(it, "error"):
            excluded.append(case_id)
            continue
        stored = _get(it, "value", None)
        v = stored if stored is not None else item_score(scores, refs)
        if v is None:
            excluded.append(case_id)
            continue
        values.append(v)
        for s in scores:
            if s.value is None:
                continue
            per_scorer.setdefault(s.scorer, []).append(s.value)
            for key in RATE_KEYS:
                if key in s.details:
                    flags.setdefault(key, []).append(bool(s.details[key]))
    return ScenarioScore(
        scenario_id=scenario_id,
        score=_mean(values) if values else None,
        ci=bootstrap_ci(values, n_boot=n_boot, seed=seed),
        n_items=n_items, n_scored=len(values), n_excluded=len(excluded),
        item_scores=values,
        by_scorer={k: _mean(v) for k, v in per_scorer.items()},
        rates={f"{k}_rate": sum(v) / len(v) for k, v in flags.items() if v},
        excluded=excluded,
    )


def dimension_scores(scenario_scores: Iterable[ScenarioScore], taxonomy: Taxonomy, *,
                     n_boot: int = N_BOOT, seed: int = 0) -> list[DimensionScore]:
    """One DimensionScore per taxonomy dimension, in the taxonomy's order."""
    by_id = {s.scenario_id: s for s in scenario_scores if s.score is not None}
    out = []
    for dim in taxonomy.dimensions:
        present = [by_id[sid] for sid in dim.scenarios if sid in by_id]
        missing = [sid for sid in dim.scenarios if sid not in by_id]
        if not present:
            out.append(DimensionScore(dim.id, dim.name, None, None, [], missing))
            continue
        score = _mean([s.score for s in present if s.score is not None])
        if len(present) == 1:  # one scenario: its own interval, not a second resample of it
            out.append(DimensionScore(dim.id, dim.name, score, present[0].ci, [present[0].scenario_id], missing))
            continue
        rng = random.Random(f"{seed}:{dim.id}")
        means = []
        for _ in range(n_boot):
            per = []
            for s in present:
                vals, n = s.item_scores, len(s.item_scores)
                per.append(_mean([vals[rng.randrange(n)] for _ in range(n)]))
            means.append(_mean(per))
        means.sort()
        ci = (_quantile(means, 0.025), _quantile(means, 0.975))
        out.append(DimensionScore(dim.id, dim.name, score, ci, [s.scenario_id for s in present], missing))
    return out
