"""A run's results as plain data: scenario and dimension scores with CIs, errors, usage.

Every figure is computed from the stored episodes and scores, so a report can always be
traced back to transcripts. Every score carries its coverage — items scored of items the run
planned — because a mean over the items that happened to succeed is not a mean over the
benchmark: items lost to endpoint errors stay out of the mean, and the coverage says so. A
dimension or overall score over missing scenarios or dimensions is marked incomplete.
"""

from __future__ import annotations

from typing import Any

from medsim.judge.integrity import integrity
from medsim.scenario.registry import get_taxonomy
from medsim.scenario.schema import ScorerRef, Taxonomy
from medsim.scoring.aggregate import Item, dimension_scores, scenario_score
from medsim.scoring.base import Score
from medsim.store.db import Store

MIN_ITEMS_FOR_CI = 10  # below this, a bootstrap interval is shown but said to be unreliable


def coverage_text(scored: int, planned: int | None) -> str:
    """"37/40 (92%)": how much of what was planned a score stands on."""
    if not planned:
        return f"{scored}/?"
    return f"{scored}/{planned}" + ("" if scored == planned else f" ({100 * scored / planned:.0f}%)")


def _items(store: Store, run_id: str, episodes: list[dict[str, Any]]
           ) -> tuple[dict[str, list[Item]], dict[str, list[ScorerRef]]]:
    """Items per scenario, and each scenario's scorer weights as stored with the scores (a
    user's or an imported scenario is weighted as it was run, not as a bundled file says)."""
    by_episode: dict[tuple[str, str, int], list[Score]] = {}
    weights: dict[tuple[str, str, int], list[ScorerRef]] = {}
    for row in store.scores(run_id):
        key = (row["scenario_id"], row["case_id"], row["repeat"])
        by_episode.setdefault(key, []).append(
            Score(row["scorer"], row["value"], row["reasons"], row["details"], row["error"]))
        weights.setdefault(key, []).append(ScorerRef(name=row["scorer"], weight=row["weight"]))
    refs: dict[str, list[ScorerRef]] = {}
    for key, scenario_refs in weights.items():
        refs.setdefault(key[0], scenario_refs)
    items: dict[str, list[Item]] = {}
    for episode in episodes:
        key = (episode["scenario_id"], episode["case_id"], episode["repeat"])
        items.setdefault(episode["scenario_id"], []).append(
            Item(case_id=f"{episode['case_id']}#{episode['repeat']}", scores=by_episode.get(key, []),
                 error=episode["error"], value=episode.get("item_score")))
    return items, refs


def simulator_stats(episodes: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per patient simulator: turns, and how many were regenerated or kept flagged by the fact
    guard — the figures that say how far a dialogue score can be trusted."""
    out: dict[str, dict[str, int]] = {}
    for episode in episodes:
        info = episode["transcript"].get("info") or {}
        name = info.get("patient")
        if not name:
            continue
        entry = out.setdefault(name, {"episodes": 0, "turns": 0, "regenerations": 0, "flagged_turns": 0,
                                      "role_breaks": 0})
        entry["episodes"] += 1
        stats = info.get("patient_stats") or {}
        for key in ("turns", "regenerations", "flagged_turns", "role_breaks"):
            entry[key] += int(stats.get(key, 0) or 0)
    for entry in out.values():  # rates per patient turn: how far a dialogue score can be trusted
        turns = entry["turns"] or 1
        entry["break_rate"] = entry["role_breaks"] / turns
        entry["regeneration_rate"] = entry["regenerations"] / turns
        entry["flagged_rate"] = entry["flagged_turns"] / turns
    return out


def scorer_errors(store: Store, run_id: str) -> dict[str, dict[str, dict[str, Any]]]:
    """Per scenario and scorer: how many items a scorer could not score (a judge that gave no
    readable verdict, an embedder that failed) and the first reason — never hidden as a zero."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for row in store.scores(run_id):
        if row["error"]:
            entry = out.setdefault(row["scenario_id"], {}).setdefault(row["scorer"], {"count": 0, "reason": row["error"]})
            entry["count"] += 1
    return out


def with_declared_dimensions(taxonomy: Taxonomy, declared: dict[str, str]) -> Taxonomy:
    """A scenario the taxonomy does not list (a user's own, an imported MCQ set) counts under
    the dimension its file declares, when this taxonomy has a dimension of that id."""
    listed = {sid for dim in taxonomy.dimensions for sid in dim.scenarios}
    extra = {sid: dim for sid, dim in declared.items() if sid not in listed}
    if not extra:
        return taxonomy
    dimensions = [d.model_copy(update={"scenarios": [*d.scenarios, *(s for s, dim in extra.items() if dim == d.id)]})
                  for d in taxonomy.dimensions]
    return taxonomy.model_copy(update={"dimensions": dimensions})


def answer_formats(episodes: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per scenario, how many final answers were read only after repair, by the way they were read."""
    out: dict[str, dict[str, int]] = {}
    for episode in episodes:
        note = (episode.get("transcript") or {}).get("parse_note")
        if note:
            counts = out.setdefault(episode["scenario_id"], {})
            counts[note] = counts.get(note, 0) + 1
    return out


def build_summary(store: Store, run_id: str, taxonomy: str = "climedbench") -> dict[str, Any]:
    run = store.get_run(run_id)
    episodes = store.episodes(run["id"])  # read once: transcripts are the bulk of the store
    items, refs = _items(store, run["id"], episodes)
    usage: dict[str, dict[str, float]] = {}
    formats = answer_formats(episodes)
    for episode in episodes:
        entry = usage.setdefault(episode["scenario_id"], {"tokens": 0, "cost": 0.0, "latency_s": 0.0, "n": 0})
        entry["tokens"] += episode["tokens_in"] + episode["tokens_out"]
        entry["cost"] += episode["cost"]
        entry["latency_s"] += episode["latency_s"]
        entry["n"] += 1
    scenario_scores = []
    scenarios = []
    unscored = scorer_errors(store, run["id"])
    all_scores = store.scores(run["id"])
    checks = integrity(episodes, all_scores, store.path)
    bias = _position_bias(all_scores)
    planned: dict[str, int] = dict(run["config"].get("planned") or {})
    for scenario_id in planned:  # planned but not one item stored yet (a run stopped early)
        items.setdefault(scenario_id, [])
    for scenario_id, scenario_items in sorted(items.items()):
        result = scenario_score(scenario_items, refs.get(scenario_id), scenario_id=scenario_id)
        scenario_scores.append(result)
        use = usage.get(scenario_id, {})
        errors = sorted({item.error for item in scenario_items if item.error})
        n_planned = planned.get(scenario_id) or result.n_items
        scenarios.append({
            "id": scenario_id, "score": result.score, "ci": result.ci, "n": result.n_items,
            "scored": result.n_scored, "planned": n_planned,
            "coverage": (result.n_scored / n_planned) if n_planned else None,
            "ci_reliable": result.n_scored >= MIN_ITEMS_FOR_CI,
            "errors": sum(1 for item in scenario_items if item.error),
            "error_reasons": errors[:5], "by_scorer": result.by_scorer, "rates": result.rates,
            "scorer_errors": unscored.get(scenario_id, {}),
            # how far above trivial: the best constant answer's and chance's score on these cases
            "floors": _floors(scenario_id, run.get("file_hashes") or {}),
            "position_bias": bias.get(scenario_id),  # choice scenarios: picks by displayed letter
            "injections": checks["by_scenario"].get(scenario_id, {}).get("injections", 0),
            "judge_disagreements": checks["by_scenario"].get(scenario_id, {}).get("judge_disagreements", 0),
            # answers scored although not in the asked format as written (repaired JSON, key: value lines)
            "answer_format": formats.get(scenario_id, {}),
            "tokens": use.get("tokens", 0), "cost": use.get("cost", 0.0),
            "mean_latency_s": (use["latency_s"] / use["n"]) if use.get("n") else None,
        })
    by_id = {s["id"]: s for s in scenarios}
    tax = with_declared_dimensions(get_taxonomy(taxonomy), run["config"].get("scenario_dimensions", {}))
    dimensions = []
    for d in dimension_scores(scenario_scores, tax):
        listed = [sid for dim in tax.dimensions if dim.id == d.dimension_id for sid in dim.scenarios]
        scored = sum(by_id[sid]["scored"] for sid in d.scenarios)
        wanted = sum(by_id[sid]["planned"] for sid in d.scenarios)
        complete = d.score is not None and not d.missing and scored == wanted
        dimensions.append({
            "id": d.dimension_id, "name": d.name, "score": d.score, "ci": d.ci, "scenarios": d.scenarios,
            "missing": d.missing, "listed": listed, "complete": complete,
            "coverage_text": (f"{len(d.scenarios)}/{len(listed)} scenarios, {coverage_text(scored, wanted)} items"
                              if d.score is not None else f"0/{len(listed)} scenarios"),
        })
    present = [d for d in dimensions if d["score"] is not None]
    overall = {
        "score": (sum(d["score"] for d in present) / len(present)) if present else None,
        "dimensions": len(present), "of": len(dimensions),
        "complete": bool(present) and len(present) == len(dimensions) and all(d["complete"] for d in present),
    }
    return {
        "simulators": simulator_stats(episodes),
        "run": {k: run[k] for k in ("id", "model", "status", "created", "finished", "medsim_version")},
        "config": run["config"], "taxonomy": tax.id, "scenarios": scenarios, "dimensions": dimensions,
        "overall": overall, "calls": store.call_stats(run["id"]), "integrity": checks,
    }


def _position_bias(scores: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per choice-scored scenario: accuracy by the gold's position and the share of picks per
    displayed letter against the share of golds there (a model that favours a letter shows it)."""
    from medsim.scoring.choice import position_bias

    by_scenario: dict[str, list[dict[str, Any]]] = {}
    for row in scores:
        if row["scorer"] == "choice" and row.get("details"):
            by_scenario.setdefault(row["scenario_id"], []).append(row["details"])
    return {sid: position_bias(details) for sid, details in by_scenario.items() if details}


def _floors(scenario_id: str, hashes: dict[str, str]) -> dict[str, Any] | None:
    from medsim.validity import floors_for

    entry = floors_for(scenario_id, hashes)
    if entry is None:
        return None
    return {k: entry[k] for k in ("best_constant", "best_constant_strategy", "chance", "best_adversary",
                                  "best_adversary_strategy")}


def floor_text(floors: dict[str, Any] | None, digits: int = 3, *, named: bool = False) -> str:
    """A scenario's floors as one cell: best constant · chance (— when not known)."""
    floors = floors or {}
    if floors.get("best_constant") is None or floors.get("chance") is None:
        return "—"
    const, chance = f"{floors['best_constant']:.{digits}f}", f"{floors['chance']:.{digits}f}"
    return f"const {const} · chance {chance}" if named else f"{const} · {chance}"


def position_bias_rows(bias: dict[str, Any]) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The letters shown and the table rows of a position-bias entry: where the gold sat, where
    the model's picks fell, accuracy when the gold was there."""
    shares, by_disp = bias["shares"], bias.get("by_display", {})
    letters = list(shares)
    return letters, [
        ("gold there", [f"{shares[k]['gold_share']:.0%}" for k in letters]),
        ("model picked", [f"{shares[k]['picked_share']:.0%}" for k in letters]),
        ("accuracy when gold there", [f"{by_disp[k]['accuracy']:.2f}" if k in by_disp else "—" for k in letters]),
    ]
