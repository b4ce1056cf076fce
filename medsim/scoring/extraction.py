"""extraction: field-level precision / recall / F1 of structured fields pulled from a record.

Per field a credit in [0, 1]: 1 when the normalized values agree (sex 男/男性/M; age 58岁 ==
58; booleans 是/有/true; quantities 4g == 4000mg; "无"/"否认"/"没有" alike; terms by synonym,
containment or fuzzy ratio, with every number in the gold present alike — 胸痛3小时 never
matches 胸痛2小时), the set F1 for list fields. Then
precision = Σcredit / fields the model filled, recall = Σcredit / fields the gold fills,
value = F1.

A field stated wrong is worse than a field left empty: a record extraction that gives the wrong
side of the diagnosis, an allergy the patient does not have or a non-smoker as a smoker feeds
every later decision a falsehood. Fields listed under ``critical`` that are filled but contradict
the record charge the item ×0.25 (a missing field only loses its credit).

The primary diagnosis is read as a diagnosis: the disease against the case's diagnosis
alternatives (gold ``diagnosis``, with its excluded qualifiers), the side against the case's side
wherever it is written (brackets included), the bracketed qualifiers against the record's (病毒性
vs 细菌性, 低级别 vs 高级别), and a value naming several diseases (胆道闭锁？婴儿肝炎综合征？) names
none. An allergy is read by meaning: 否认药物过敏史 is 无, 磺胺 is 磺胺类药物.
"""

from __future__ import annotations

import re
from typing import Any

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import unparsed
from medsim.scoring.diagnosis_match import BRACKETED
from medsim.scoring.set_f1 import prf
from medsim.sim.answer import coerce_bool, coerce_list
from medsim.text.match import (
    case_side,
    conflicting,
    dedupe,
    excluded_by,
    match_sets,
    match_term,
    normalize,
    normalize_units,
    said_in,
    side_conflict,
)

NAME = "extraction"
_SEX = {"男": "男", "男性": "男", "m": "男", "male": "男", "man": "男", "女": "女", "女性": "女", "f": "女",
        "female": "女", "woman": "女"}
_NONE = {"无", "否认", "没有", "none", "null", "未提及", "不详", "n/a", "na", "阴性", "否"}
_NUMS = re.compile(r"\d+(?:\.\d+)?")
_AGE = re.compile(r"^(\d+(?:\.\d+)?)(岁|周岁|个月|月|天|日)?$")


CRITICAL_CHARGE = 0.25
_SEVERAL = re.compile(r"[？?/／]|或者?|还是")
_HEDGES = re.compile(r"待病理证实|待证实|待排除?|可能性大|可能|考虑|疑似|倾向|所致|引起|[？?]")
_NONE_STATEMENT = re.compile(r"^(?:无|否认|没有|未发现|未诉|未见|不详)(?:已知|明确|明显)?(?:的)?"
                             r"(?:药物|食物|药物及食物|药物和食物|药物、食物|药物或食物|其他)*(?:及)?(?:过敏史?)?$")
_ALLERGEN_TAIL = re.compile(r"(?:类抗生素|类抗菌药物?|类药物|类药|抗生素|药物|过敏史?|类)+$")


def _empty(v: Any) -> bool:
    return v is None or v == "" or v == [] or v == {}


def _age(v: Any) -> tuple[float, str] | None:
    m = _AGE.match(normalize(v))
    if not m:
        return None
    unit = {"周岁": "岁", "个月": "月", "日": "天"}.get(m.group(2) or "岁", m.group(2) or "岁")
    return float(m.group(1)), unit


def _is_none(text: str) -> bool:
    t = normalize(text)
    return t in _NONE or bool(_NONE_STATEMENT.match(t))


def _allergens(text: str) -> list[str]:
    return [a for part in re.split(r"[、，,;；/和及与\s]", str(text)) if (a := _ALLERGEN_TAIL.sub("", normalize(part)))]


def allergy_credit(pred: Any, gold: Any) -> tuple[float, str]:
    """无 / 否认药物过敏史 alike; allergens by name with their class words dropped (磺胺 = 磺胺类药物,
    头孢 = 头孢菌素类 = 头孢类抗生素), every one the record holds and none it lacks."""
    pn, gn = str(pred), str(gold)
    if _is_none(gn) or _is_none(pn):
        return float(_is_none(gn) and _is_none(pn)), "none"
    p, g = _allergens(pn), _allergens(gn)
    same = lambda a, b: a == b or a.startswith(b) or b.startswith(a) or match_term(a, b).ok  # noqa: E731
    ok = bool(p) and all(any(same(a, b) for b in g) for a in p) and all(any(same(a, b) for a in p) for b in g)
    return float(ok), "allergen"


def diagnosis_credit(pred: Any, gold: Any, alternatives_gold: Any = None, record: str = "") -> tuple[float, str]:
    """The record's primary diagnosis named, its side and qualifiers kept (see the module doc)."""
    full = str(pred or "").strip()
    side = case_side(gold, alternatives_gold or "")
    if side_conflict(full, side):
        return 0.0, "wrong side"
    core = BRACKETED.sub("", full).strip()
    if len([x for x in _SEVERAL.split(core) if normalize(x)]) > 1:
        return 0.0, "several diagnoses"
    nots = alternatives_gold.get("not") if isinstance(alternatives_gold, dict) else None
    if nots and excluded_by(normalize(full), nots):
        return 0.0, "excluded qualifier"
    if match_term(full, gold, side=side).ok:
        return 1.0, "term"
    if conflicting(normalize(full), normalize(gold)):
        return 0.0, "conflicting qualifier"
    if not any(match_term(core, g, side=side).ok for g in (gold, BRACKETED.sub("", str(gold)), alternatives_gold) if g):
        return 0.0, "other disease"
    gold_text = normalize(gold)
    for q in BRACKETED.findall(full):
        for part in re.split(r"[，,、;；]", q):
            bare = normalize(_HEDGES.sub("", part)).rstrip("级型期")
            # a qualifier is kept when the gold or the record says it, or it names the diagnosis
            # itself in other words (慢性硬膜下血肿（CSDH）)
            if bare and bare not in gold_text and not match_term(part, gold).ok \
                    and not said_in(_HEDGES.sub("", part), gold, core, record):
                return 0.0, f"qualifier {part} not in the record"
    return 1.0, "diagnosis"


def field_credit(pred: Any, gold: Any, kind: str | None = None, *, name: str = "",
                 alternatives_gold: Any = None, record: str = "") -> tuple[float, str]:
    """Credit for one field and how it was judged."""
    if name == "allergy" and isinstance(gold, str):
        return allergy_credit(pred, gold)
    if name == "primary_diagnosis" and isinstance(gold, str):
        return diagnosis_credit(pred, gold, alternatives_gold, record)
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


@scorer(NAME, config=("fields", "critical"))
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
        credits[name], how[name] = field_credit(pred, gold, types.get(name), name=name,
                                                alternatives_gold=inp.case.gold.get("diagnosis"),
                                                record=inp.case.full_record_text())
    total = sum(credits.values())
    p, r, f = prf(total, n_pred, n_gold)
    wrong = [k for k, v in credits.items() if v < 1]
    reasons = [f"字段 P {p:.2f} R {r:.2f} F1 {f:.2f}"] + ([f"不符或缺失：{'、'.join(wrong)}"] if wrong else [])
    stated_wrong = [k for k in inp.config.get("critical") or [] if credits.get(k, 1.0) == 0
                    and how.get(k) not in ("missing", "not in gold")]
    if stated_wrong:
        f *= CRITICAL_CHARGE
        reasons.append(f"关键字段与病历矛盾（{'、'.join(stated_wrong)}）：×{CRITICAL_CHARGE}")
    return Score(NAME, f, reasons, {"stated_wrong": stated_wrong,
        "precision": p, "recall": r, "f1": f, "fields": credits, "how": how,
        "n_predicted": n_pred, "n_gold": n_gold,
    })
