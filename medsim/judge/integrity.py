"""How far a run's scores can be trusted, as counts every report shows.

- answers that spoke to their grader (``transcript.info["injection"]``, set when the item was
  scored: the spans were removed, or the judge's value capped, per the policy);
- items where the judge and the rule scorers disagree (``details["agreement"]`` of the judge's
  score, from ``medsim.judge.crosscheck``);
- the judges the run used and whether each was calibrated fit (``medsim.judge.qualification``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from medsim.judge.qualification import describe_status, run_judges


def integrity(episodes: list[dict[str, Any]], score_rows: list[dict[str, Any]], store_path: Path | str) -> dict[str, Any]:
    per: dict[str, dict[str, Any]] = {}

    def entry(scenario_id: str) -> dict[str, Any]:
        return per.setdefault(scenario_id, {"injections": 0, "injection_kinds": Counter(), "judged": 0,
                                            "judge_disagreements": 0, "judge_higher": 0})

    for episode in episodes:
        info = (episode.get("transcript") or {}).get("info") or {}
        found = info.get("injection")
        if found:
            e = entry(episode["scenario_id"])
            e["injections"] += 1
            e["injection_kinds"].update(found.get("kinds") or [])
    for row in score_rows:
        if row.get("scorer") != "checklist" or row.get("value") is None:
            continue
        e = entry(row["scenario_id"])
        e["judged"] += 1
        check = (row.get("details") or {}).get("agreement") or {}
        if check.get("disagrees"):
            e["judge_disagreements"] += 1
            e["judge_higher"] += check.get("direction") == "judge_higher"
    for e in per.values():
        e["injection_kinds"] = dict(e["injection_kinds"])
    judges = run_judges(store_path, score_rows)
    return {
        "injections": sum(e["injections"] for e in per.values()),
        "judge_disagreements": sum(e["judge_disagreements"] for e in per.values()),
        "judged": sum(e["judged"] for e in per.values()),
        "by_scenario": per,
        "judges": judges,
        "unqualified_judges": [j for j in judges if not j["fit"]],
    }


def integrity_lines(summary: dict[str, Any]) -> list[str]:
    """Plain sentences for a report: what a reader must know before trusting the scores."""
    data = summary.get("integrity") or {}
    lines = [describe_status(j) for j in data.get("judges", [])]
    if data.get("injections"):
        kinds = Counter()
        for e in data["by_scenario"].values():
            kinds.update(e["injection_kinds"])
        where = ", ".join(f"{sid} {e['injections']}" for sid, e in sorted(data["by_scenario"].items()) if e["injections"])
        lines.append(f"{data['injections']} answer(s) spoke to the grader ({', '.join(sorted(kinds))}): "
                     f"scored without those words, flagged — {where}")
    if data.get("judge_disagreements"):
        higher = sum(e["judge_higher"] for e in data["by_scenario"].values())
        lines.append(f"judge and rule scorers disagree on {data['judge_disagreements']} of {data['judged']} judged "
                     f"item(s) ({higher} with the judge higher): see `medsim show-run RUN --items`")
    for name, sim in (summary.get("simulators") or {}).items():
        if name != "rule" and sim.get("turns"):
            lines.append(f"LLM patient {name}: {sim.get('role_breaks', 0)} role break(s) "
                         f"({sim.get('break_rate', 0.0):.0%} of turns), {sim['regenerations']} regeneration(s) "
                         f"({sim.get('regeneration_rate', 0.0):.0%}), {sim['flagged_turns']} turn(s) kept flagged")
    return lines
