"""extraction: field-level precision / recall / F1 of structured fields pulled from a record.

Per field a credit in [0, 1]: 1 when the normalized values agree (sex 男/男性/M; age 58岁 ==
58; booleans 是/有/true; quantities 4g == 4000mg; "无"/"否认"/"没有" alike; terms by synonym,
containment or fuzzy ratio, with every number in the gold present alike — 胸痛3小时 never
matches 胸痛2小时), the set F1 for list fields. Then
precision = Σcredit / fields the model filled, recall = Σcredit / fields the gold fills,
value = F1.
"""

from __future__ import annotations

import re
from typing import Any

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import unparsed
from medsim.scoring.set_f1 import prf
from medsim.sim.answer import coerce_bool, coerce_list
from medsim.text.match import dedupe, match_sets, match_term, normalize, normalize_units

NAME = "extraction"
_SEX = {"男": "男", "男性": "男", "m": "男", "male": "男", "man": "男", "女": "女", "女性": "女", "f": "女",
        "female": "女", "woman": "女"}
_NONE = {"无", "否认", "没有", "none", "null", "未提及", "不详", "n/a", "na", "阴性", "否"}
_NUMS = re.compile(r"\d+(?:\.\d+)?")
_AGE = re.compile(r"^(\d+(?:\.\d+)?)(岁|周岁|个月|月|天|日)?$")


def _empty(v: Any) -> bool:
    return v is None or v == "" or v == [] or v == {}


def _age(v: Any) -> tuple[float, str] | None:
    m = _AGE.match(normalize(v))
    if not m:
        return None
    unit = {"周岁": "岁", "个月": "月", "日": "天"}.get(m.group(2) or "岁", m.group(2) or "岁")
    return float(m.group(1)), unit


def field_credit(pred: Any, gold: Any, kind: str | None = None) -> tuple[float, str]:
    """Credit for one field and how it was judged."""
    if kind == "list[str]" or isinstance(gold, list):
        p, g = dedupe(coerce_list(pred)), coerce_list(gold)
        pairs, _, _ = match_sets(p, g)
        return prf(len(pairs), len(p), len(g))[2], "set_f1"
    if isinstance(gold, dict):  # {any: …, not: […]}: a term with its excluded qualifiers
        m = match_term(pred, gold)
        return float(m.ok), m.how or "term"
    if isinstance(gold, bool) or kind == "bool":
        return float(coerce_bool(pred) == coerce_bool(gold) and coerce_bool(gold) is not None), "bool"
    pn, gn = normalize(pred), normalize(gold)
    if gn in _SEX:
        return float(_SEX.get(pn) == _SEX[gn]), "sex"
    if gn in _NONE or pn in _NONE:
        return float(gn in _NONE and pn in _NONE), "none"
    if isinstance(gold, int | float) or _age(gold):
        pa, ga = _age(pred), _age(gold)
        if pa and ga:
            return float(abs(pa[0] - ga[0]) < 1e-6 and pa[1] == ga[1]), "number"
    pu, gu = normalize_units(pn), normalize_units(gn)
    if pu == gu:
        return 1.0, "exact"
    if sorted(_NUMS.findall(pu)) != sorted(_NUMS.findall(gu)):  # 156 vs 165: never fuzzy
        return 0.0, "value"
    m = match_term(pred, gold)
    return float(m.ok), m.how or "term"


@scorer(NAME, config=("fields",))
def score_extraction(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    answer = inp.transcript.answer if isinstance(inp.transcript.answer, dict) else {}
    types = inp.scenario.final_answer_spec.fields
    names = inp.config.get("fields") or list(types) or list(inp.case.gold)
    credits: dict[str, float] = {}
    how: dict[str, str] = {}
    n_pred = n_gold = 0
    for name in names:
        gold, pred = inp.case.gold.get(name), answer.get(name)
        if _empty(gold) and _empty(pred):
            continue
        n_gold += not _empty(gold)
        n_pred += not _empty(pred)
        if _empty(gold) or _empty(pred):
            credits[name], how[name] = 0.0, "missing" if _empty(pred) else "not in gold"
            continue
        credits[name], how[name] = field_credit(pred, gold, types.get(name))
    total = sum(credits.values())
    p, r, f = prf(total, n_pred, n_gold)
    wrong = [k for k, v in credits.items() if v < 1]
    reasons = [f"字段 P {p:.2f} R {r:.2f} F1 {f:.2f}"] + ([f"不符或缺失：{'、'.join(wrong)}"] if wrong else [])
    return Score(NAME, f, reasons, {
        "precision": p, "recall": r, "f1": f, "fields": credits, "how": how,
        "n_predicted": n_pred, "n_gold": n_gold,
    })
