"""diagnosis_match: the primary diagnosis against gold alternatives ``主诊断|同义``.

Rules (matching.match_term): same normalized text or canonical term; containment either way
(急性心肌梗死 in 急性前壁心肌梗死（Killip I级）); fuzzy ratio ≥ ``threshold`` (default 85).
Conflicting modifiers never match: 急性 vs 陈旧性 心肌梗死, 1型 vs 2型, 左 vs 右.

Credit: the first diagnosis the answer names matches → 1.0; the gold is named but not first
(e.g. in a list of differentials) → 0.5; otherwise 0. No "disease family" credit: families
such as 心肌梗死 hold opposites (acute vs old), so partial credit there would reward errors.
"""

from __future__ import annotations

import re

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_field, no_gold, unparsed
from medsim.text.match import FUZZY_THRESHOLD, alternatives, match_term

NAME = "diagnosis_match"
_HEDGE = re.compile(r"^(?:初步诊断|主要诊断|诊断|考虑|疑似|可能为|可能是|可能|拟诊|首先考虑|倾向于?)[:：为是]?")
_BRACKETS = re.compile(r"[（(][^（()）]*[)）]")


def diagnosis_items(raw: object) -> list[str]:
    """'1. 急性心肌梗死（前壁） 2. 高血压3级' → ['急性心肌梗死', '高血压3级']."""
    if isinstance(raw, list):
        texts = [str(r) for r in raw]
    else:
        text = _BRACKETS.sub("", str(raw or ""))
        text = re.sub(r"(?<=\S)\s*(?=\d+[.、)）]\s*\S)", "\n", text)
        texts = re.split(r"[\n、;；,，]|以及|合并|伴", text)
    items = []
    for t in texts:
        t = re.sub(r"^\s*(?:\d+[.、)）]|[-*•])\s*", "", t).strip(" 。.")
        t = _HEDGE.sub("", t).strip()
        if t:
            items.append(t)
    return items


@scorer(NAME, config=("field", "threshold"))
def score_diagnosis(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = inp.config.get("field", "diagnosis")
    gold = inp.case.gold.get(field) or (inp.case.diagnosis[0] if inp.case.diagnosis else None)
    if not gold:
        return no_gold(NAME, f"gold.{field}")
    threshold = float(inp.config.get("threshold", FUZZY_THRESHOLD))
    items = diagnosis_items(answer_field(inp, field))
    if not items:
        return Score(NAME, 0.0, ["answer names no diagnosis"], {"items": [], "gold": alternatives(gold)})
    for rank, item in enumerate(items):
        m = match_term(item, gold, fuzzy=threshold)
        if m.ok:
            value = 1.0 if rank == 0 else 0.5
            why = f"诊断 {item} 与 {m.gold} 一致（{m.how}）" + ("" if rank == 0 else "，但未列为主要诊断")
            return Score(NAME, value, [why], {
                "items": items, "gold": alternatives(gold), "matched": item, "matched_gold": m.gold,
                "how": m.how, "ratio": round(m.ratio, 1), "rank": rank,
            })
    return Score(NAME, 0.0, [f"诊断 {items[0]} 与标准 {gold} 不符"], {"items": items, "gold": alternatives(gold)})
