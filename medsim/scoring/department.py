"""department: synonym-aware match of the department (心内/心内科/心血管内科 are one)."""

from __future__ import annotations

import re

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_field, gold_value, no_gold, unparsed
from medsim.scoring.matching import alternatives, canonical_forms, lexicon_source, normalize

NAME = "department"


def _keys(term: str) -> set[str]:
    # 心内 and 心内科: the lexicon (or fallback) decides; a trailing 科/门诊 never matters
    key = normalize(term)
    for suffix in ("门诊", "病房", "病区"):
        key = key.removesuffix(suffix)
    return {k.removesuffix("科") for k in canonical_forms(key) | canonical_forms(key + "科")} - {""}


def same_department(pred: str, gold: str) -> str | None:
    """The gold alternative ``pred`` names, or None. No fuzzy matching: 神经内科 ≠ 神经外科."""
    for alt in alternatives(gold):
        if normalize(pred) == normalize(alt) or _keys(pred) & _keys(alt):
            return alt
    return None


@scorer(NAME)
def score_department(inp: ScoreInput) -> Score:
    """1 when the department matches; an answer naming several (心内科或急诊科) is judged by its first."""
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = inp.config.get("field", "department")
    gold = gold_value(inp, field)
    if gold is None:
        return no_gold(NAME, f"gold.{field}")
    raw = answer_field(inp, field)
    if isinstance(raw, list):
        raw = raw[0] if raw else ""
    pred = str(raw or "").strip()
    if not pred:
        return Score(NAME, 0.0, [f"answer has no {field}"], {"predicted": None, "gold": gold})
    judged, hit = pred, same_department(pred, gold)
    if hit is None:
        judged = re.split(r"或者|或|/|、|,|，|;|；|\s+", pred)[0]
        hit = same_department(judged, gold)
    details = {"predicted": pred, "judged": judged, "gold": gold, "matched": hit, "synonyms": lexicon_source()}
    if hit:
        return Score(NAME, 1.0, [f"科室 {pred} 与 {hit} 一致"], details)
    return Score(NAME, 0.0, [f"科室 {pred} ≠ {gold}"], details)
