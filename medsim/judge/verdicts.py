"""Read what judges return: JSON, "[4]", prose around it, full-width digits, code fences."""

from __future__ import annotations

import re

from medsim.sim.answer import json_objects

_BRACKET = re.compile(r"\[\s*([1-5１-５])\s*\]")
_LABELLED = re.compile(r"(?:得分|评分|分数|score)\s*[\"'“”]?\s*[:：]?\s*[\"'“”]?\s*\[?\s*([1-5１-５])(?:\s*分)?",
                       re.IGNORECASE)
_FULL = str.maketrans("１２３４５", "12345")


def parse_score(text: str) -> int | None:
    """A 1–5 score from a judge's reply, or None when it cannot be read unambiguously."""
    text = (text or "").translate(_FULL)
    for obj in json_objects(text):
        if isinstance(obj, dict):
            for key in ("得分", "score", "评分", "分数"):
                if key in obj:
                    value = str(obj[key])
                    match = re.search(r"[1-5]", value)
                    if match and len(set(re.findall(r"[1-5]", value))) == 1:
                        return int(match.group())
    brackets = {int(m) for m in _BRACKET.findall(text)}
    if len(brackets) == 1:
        return brackets.pop()
    labelled = [int(m) for m in _LABELLED.findall(text)]
    if labelled:
        return labelled[-1]
    return None


def parse_criteria(text: str, n: int) -> list[bool] | None:
    """Per-criterion verdicts (1-based ids) from a judge's reply; None unless all n are given."""
    met = _criteria_verdicts(text)
    return [met[i] for i in range(1, n + 1)] if all(i in met for i in range(1, n + 1)) else None


def missing_criteria(text: str, n: int) -> list[int]:
    """The criterion ids (1..n) a judge's reply gives no verdict for: small models drop the last ones."""
    met = _criteria_verdicts(text)
    return [i for i in range(1, n + 1) if i not in met]


def _criteria_verdicts(text: str) -> dict[int, bool]:
    """{id: met} from a reply: its fullest JSON ``results`` list, or its "1. … 满足" lines if they give more."""
    text = (text or "").translate(_FULL)
    best: dict[int, bool] = {}
    for obj in json_objects(text):
        results = obj.get("results") if isinstance(obj, dict) else None
        if isinstance(results, list):
            met: dict[int, bool] = {}
            for entry in results:
                if isinstance(entry, dict) and "id" in entry and "met" in entry:
                    try:
                        met[int(entry["id"])] = entry["met"] in (True, "true", "True", "是", "满足", 1)
                    except (TypeError, ValueError):
                        continue
            if len(met) > len(best):
                best = met
    lines: dict[int, bool] = {}
    for match in re.finditer(r"(\d+)\s*[.、:：)）]\s*[^\n]*?(未满足|不满足|满足|met|not met)", text, re.IGNORECASE):
        verdict = match.group(2).lower()
        lines[int(match.group(1))] = verdict in ("满足", "met")
    return best if len(best) >= len(lines) else lines
