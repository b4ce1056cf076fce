"""Does the judge agree with the rule scorers on the same item?

A judge that gives 5/5 where the gold key points say 0.1 has either seen something the rules
missed or been talked into it; either way a reader must see it. The rules that grade the same
content as the judge (key points, coverage, treatment and test sets, diagnosis, safety probes)
are averaged by their weights; when the judge's value is ``threshold`` (default 0.5) or more
away, the judge's score row says so (``details["agreement"]``) and a reason names both values.
Nothing is changed: the disagreement is surfaced, counted in reports, and left to the reader.
"""

from __future__ import annotations

from typing import Any

JUDGE = "checklist"
# scorers that grade what the answer says, as the judge does (not dialogue or faithfulness)
CONTENT_RULES = ("keypoints", "coverage", "set_f1", "diagnosis_match", "safety", "avoid", "extraction", "similarity")
THRESHOLD = 0.5


def annotate(rows: list[dict[str, Any]], threshold: float = THRESHOLD) -> dict[str, Any] | None:
    """Add the agreement check to the judge's row among an item's score rows (in place);
    returns it, or None when there is no judge value or no rule to compare with."""
    judge = next((r for r in rows if r.get("scorer") == JUDGE and r.get("value") is not None), None)
    if judge is None:
        return None
    rules = [r for r in rows if r.get("scorer") in CONTENT_RULES and r.get("value") is not None]
    if not rules:
        return None
    weights = [float(r.get("weight", 1.0) or 0.0) for r in rules]
    total = sum(weights) or len(rules)
    rule_value = sum(r["value"] * (w or 1.0) for r, w in zip(rules, weights, strict=True)) / total
    gap = judge["value"] - rule_value
    check = {"rules": {r["scorer"]: round(r["value"], 4) for r in rules}, "rule_value": round(rule_value, 4),
             "judge_value": round(judge["value"], 4), "gap": round(gap, 4), "threshold": threshold,
             "disagrees": abs(gap) >= threshold,
             "direction": "judge_higher" if gap > 0 else "judge_lower"}
    judge.setdefault("details", {})["agreement"] = check
    if check["disagrees"]:
        names = ", ".join(f"{k} {v:.2f}" for k, v in check["rules"].items())
        judge.setdefault("reasons", []).append(
            f"评审与规则评分不一致：评审 {judge['value']:.2f}，规则 {names} / judge disagrees with the rules")
    return check
