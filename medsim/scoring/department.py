"""department: synonym-aware match of the department (心内/心内科/心血管内科 are one).

``wrong`` (default 0) is the value of a wrong department. Triage uses it as a gate (``gate: true,
wrong: 0.25``): the right level sent to the wrong department (a STEMI to 心胸外科, an ectopic
pregnancy to 普通外科) is a triage that delays the care the patient needs, not two thirds of one."""

from __future__ import annotations

import re

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_field, gold_value, no_gold, unparsed
from medsim.text.match import alternatives, canonical_forms, lexicon_source, normalize

NAME = "department"


# Centres the emergency triage consensus names as destinations, and the department behind each.
CENTRES = {"胸痛中心": "心血管内科", "卒中中心": "神经内科", "脑卒中中心": "神经内科"}
EMERGENCY = "急诊科"
_HEDGE = re.compile(r"或|和|及|/|、|,|，|;|；")
_NOT_A_SPECIALTY = ("医学", "抢救", "留观", "观察", "中心")  # 急诊医学科, 急诊抢救室 are the emergency department


def _base_keys(key: str) -> set[str]:
    # 心内 and 心内科: the lexicon (or fallback) decides; a trailing 科 never matters
    return {k.removesuffix("科") for k in canonical_forms(key) | canonical_forms(key + "科")} - {""}


def _keys(term: str) -> set[str]:
    """Every name the department goes by. A centre is its department (胸痛中心 → 心血管内科); an
    emergency unit of a specialty (儿科急诊, 急诊外科) is that specialty's unit: it keys the
    specialty, never the whole emergency department, so a constant 急诊科 does not match every
    gold that lists a 某科急诊."""
    key = normalize(term)
    for suffix in ("门诊", "病房", "病区"):
        key = key.removesuffix(suffix)
    keys = _base_keys(key)
    if key in CENTRES:
        keys |= _base_keys(normalize(CENTRES[key]))
    if keys & _base_keys(EMERGENCY):
        return keys  # a name the lexicon gives the emergency department itself (急诊医学科, 抢救室)
    for part in ("急诊科", "急诊"):
        rest = key.removeprefix(part) if key.startswith(part) else key.removesuffix(part)
        if rest != key and rest and rest != "科" and not _HEDGE.search(rest) and not rest.startswith(_NOT_A_SPECIALTY):
            return _base_keys(rest)
    return keys


def _is_department(name: str) -> bool:
    """A place a patient is sent (消化内科, 急诊, 胸痛中心), not a note beside one (先, 必要时)."""
    from medsim.text.lexicon import get_lexicon

    norm = normalize(name)
    return get_lexicon().type_of(norm) == "department" or norm.endswith(("科", "门诊", "中心", "病房", "急诊"))


def same_department(pred: str, gold: str) -> str | None:
    """The gold alternative ``pred`` names, or None. No fuzzy matching: 神经内科 ≠ 神经外科."""
    for alt in alternatives(gold):
        if normalize(pred) == normalize(alt) or _keys(pred) & _keys(alt):
            return alt
    return None


@scorer(NAME, config=("field", "wrong"))
def score_department(inp: ScoreInput) -> Score:
    """1 when the department matches. An answer naming several is judged by its first when the
    rest say the same place in other words or are no department; a choice between two departments
    (心内科或消化内科) earns nothing."""
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
        named = [p for p in re.split(r"或者|或|还是|/|、|,|，|;|；|\s+", pred) if p.strip()]
        judged = named[0] if named else pred
        hit = same_department(judged, gold)
        others = [p for p in named[1:] if same_department(p, gold) is None and _is_department(p)]
        if hit and others:
            # 心血管内科或消化内科: the patient is sent to one place; a choice of two is no decision
            return Score(NAME, 0.0, [f"科室未作决定（{pred}）：须给出一个科室"],
                         {"predicted": pred, "judged": None, "gold": gold, "matched": None, "undecided": True})
    details = {"predicted": pred, "judged": judged, "gold": gold, "matched": hit, "synonyms": lexicon_source()}
    if hit:
        return Score(NAME, 1.0, [f"科室 {pred} 与 {hit} 一致"], details)
    wrong = float(inp.config.get("wrong", 0.0))
    return Score(NAME, wrong, [f"科室 {pred} ≠ {gold}" + (f"：×{wrong:g}" if wrong else "")], details)
