"""The gold answer of a case for one scenario, as a judge should read it.

A staged scenario's cases share one record, whose reference answer covers the whole stay (入院
情况 … 出院医嘱 …); the discharge stage's gold is the part under its own name. A scenario whose
answer is a JSON list graded against a gold list (treatment, tests) has that list as its gold.
The checklist judge is shown this as its 【参考答案】, and ``medsim judge calibrate`` breaks it.
"""

from __future__ import annotations

from typing import Any


def _first(alternatives: str) -> str:
    return str(alternatives).split("|")[0].strip()


def _texts(gold: Any) -> list[str]:
    from medsim.scoring.common import elements  # gold elements: strings or {any, optional, not}

    return [e.text for e in elements(gold)]


def gold_answer(scenario: Any, case: Any) -> tuple[str, str | None, list[str]]:
    """(gold answer as text, the JSON field it goes into or None, the key points it states)."""
    spec = scenario.final_answer_spec
    points: list[str] = []
    for ref in scenario.scoring:
        if ref.name in ("keypoints", "set_f1"):
            points += _texts(case.gold.get(ref.config.get("field", "key_points" if ref.name == "keypoints" else "treatment")))
        elif ref.name == "safety" and case.probe is not None:
            points += _texts(case.probe.expected)
    if spec.format == "json":
        for name, kind in spec.fields.items():
            gold = _texts(case.gold.get(name))
            if str(kind).startswith("list") and gold:
                return "\n".join(f"{i}. {_first(g)}" for i, g in enumerate(gold, 1)), name, points
    text = case.reference_answer or ""
    marker = f"{scenario.name}："
    if marker in text:  # a shared record's reference answer holds this stage's part under its name
        text = text.split(marker, 1)[1]
    return text.strip(), None, points


def reference_for_judge(scenario: Any, case: Any) -> str:
    text, _, _ = gold_answer(scenario, case)
    return text
