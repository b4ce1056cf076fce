"""diagnosis_match: the primary diagnosis against gold alternatives ``主诊断|同义``.

Rules (medsim.text.match.match_term): same normalized text or canonical term; bounded
containment (急性心肌梗死 in 急性前壁心肌梗死（Killip I级）, but a string naming many diseases
names none); a more specific gold read in order (右肺上叶癌 for 右肺上叶中央型肺癌); fuzzy ratio ≥
``threshold`` (default 85). Conflicting modifiers never match: 急性 vs 陈旧性, 1型 vs 2型; the side
is checked against the gold and the case's primary diagnosis whichever alternative matched, so
左侧基底节区脑出血 is wrong for a right-sided bleed even where the gold also lists 脑出血. The side,
the gold's excluded qualifiers (``not``) and the record's site or type are read in the whole first
item, brackets included: 带状疱疹（右侧胸背部）, 腰椎间盘突出症（L5-S1）, and 右侧丘脑出血 where the
record's primary diagnosis is 脑出血（右侧基底节区） are each wrong.

Credit: the first diagnosis the answer names is the one scored → 1.0 when it matches, else 0
(a gold named further down a list of differentials is reported, not credited: a list of every
plausible disease is not a diagnosis). No "disease family" credit: families such as 心肌梗死 hold
opposites (acute vs old), so partial credit there would reward errors.
"""

from __future__ import annotations

import re

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_field, no_gold, unparsed
from medsim.text.match import (
    FUZZY_THRESHOLD,
    Match,
    alternatives,
    case_side,
    content_chars,
    excluded_by,
    match_term,
    modifier_conflict,
    normalize,
    ruled_out,
    side_conflict,
    strip_quoted,
)

NAME = "diagnosis_match"
ECHO_MIN_CHARS = 8  # a diagnosis that is 8+ characters of the patient's words, word for word, is an echo
_HEDGE = re.compile(r"^(?:初步诊断|主要诊断|诊断|考虑|疑似|可能为|可能是|可能|拟诊|首先考虑|倾向于?)[:：为是]?")
BRACKETED = re.compile(r"[（(]([^（()）]*)[)）]")  # a bracketed qualifier: 脑出血（右侧基底节区）


def diagnosis_items(raw: object) -> list[str]:
    """'1. 急性心肌梗死（前壁） 2. 高血压3级' → ['急性心肌梗死', '高血压3级']."""
    if isinstance(raw, list):
        texts = [str(r) for r in raw]
    else:
        text = BRACKETED.sub("", str(raw or ""))
        text = re.sub(r"(?<=\S)\s*(?=\d+[.、)）]\s*\S)", "\n", text)
        texts = re.split(r"[\n、;；,，]|以及|合并|伴", text)
    items = []
    for t in texts:
        t = re.sub(r"^\s*(?:\d+[.、)）]|[-*•])\s*", "", t).strip(" 。.")
        t = _HEDGE.sub("", t).strip()
        if t:
            items.append(t)
    return items


_SEPARATORS = "\n、;；,，"


def first_item_span(raw: object, item: str) -> str:
    """The first item as written, with its brackets: 社区获得性肺炎（左下肺） for 社区获得性肺炎.

    The brackets are dropped to name the disease, but they carry its side (带状疱疹（右侧胸背部）)."""
    text = str(raw or "")
    start = text.find(item)
    if start < 0:
        return item
    depth, end = 0, start + len(item)
    while end < len(text):
        ch = text[end]
        if ch in "（(":
            depth += 1
        elif ch in ")）":
            depth = max(0, depth - 1)
        elif depth == 0 and (ch in _SEPARATORS or text.startswith(("合并", "伴", "以及"), end)):
            break
        end += 1
    return text[start:end]


_CHOICE = re.compile(r"或者|或|还是|[？?]")
_PENDING = re.compile(r"待查|待定|待鉴别|待排|待进一步\S*|待手术\S*|可能|考虑|原因")


def undecided(item: str) -> bool:
    """The item offers a choice of diagnoses (急性胆管炎或急性胆囊炎; 上消化道穿孔？急性胰腺炎？待查):
    no diagnosis is made. One suspected diagnosis (急性阑尾炎？) is a diagnosis."""
    core = BRACKETED.sub("", item)
    named = [p for p in _CHOICE.split(core) if content_chars(_PENDING.sub("", p)) >= 2]
    return len(named) >= 2


def _denied_elsewhere(raw: str, item: str) -> bool:
    """可能是X，也可能不是X / X？不考虑X: the answer commits to nothing."""
    norm, g = normalize(raw), normalize(item)
    return any(cue + g in norm for cue in _DENIALS)


_DENIALS = ("不是", "不考虑", "不像", "排除", "除外", "并非", "非", "不")


@scorer(NAME, config=("field", "threshold"))
def score_diagnosis(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = inp.config.get("field", "diagnosis")
    gold = inp.case.gold.get(field) or (inp.case.diagnosis[0] if inp.case.diagnosis else None)
    if not gold:
        return no_gold(NAME, f"gold.{field}")
    threshold = float(inp.config.get("threshold", FUZZY_THRESHOLD))
    named = diagnosis_items(answer_field(inp, field))
    # what the answer rules out is not its diagnosis: 排除胆囊结石，考虑胆囊癌 diagnoses 胆囊癌
    items = [it for it in named if not ruled_out(it)]
    if not items:
        why = "answer only rules diagnoses out: " + "、".join(named) if named else "answer names no diagnosis"
        return Score(NAME, 0.0, [why], {"items": [], "ruled_out": named, "gold": alternatives(gold)})
    side = case_side(gold, inp.case.diagnosis[0] if inp.case.diagnosis else "")
    details = {"items": items, "gold": alternatives(gold), "side": "".join(sorted(side)) or None}
    said = [t.text for t in inp.transcript.turns if t.speaker == "patient"]
    own, copied = strip_quoted(items[0], said, min_chars=ECHO_MIN_CHARS)
    if copied and not content_chars(own):
        # the patient's own words handed back (体检发现血压高2个月): a complaint, not a diagnosis
        return Score(NAME, 0.0, [f"诊断 {items[0]} 照抄患者原话，不是诊断"], {**details, "echo": True})
    raw = answer_field(inp, field)
    written = first_item_span(raw, items[0]) if isinstance(raw, str) else items[0]
    first = match_term(items[0], gold, fuzzy=threshold, side=side)
    record_primary = inp.case.diagnosis[0] if inp.case.diagnosis else ""
    nots = gold.get("not") if isinstance(gold, dict) else None
    if first.ok and side_conflict(written, side | case_side(gold)):
        first = Match(False, note=f"wrong side: {written} for {''.join(sorted(side | case_side(gold)))}")
    elif first.ok and nots and (clash := excluded_by(normalize(written), nots)):
        first = Match(False, note=f"names {clash}, which the gold excludes")
    elif first.ok and record_primary and modifier_conflict(normalize(written), normalize(record_primary)):
        # a side-less or site-less alternative matched, but the answer names another site or type
        # than the record's primary diagnosis (右侧丘脑出血 for 脑出血（右侧基底节区）)
        first = Match(False, note=f"conflicts with the record's {record_primary}")
    if first.ok and undecided(written):
        return Score(NAME, 0.0, [f"诊断未作决定：{written} 列出几个可能而未下结论"], {**details, "undecided": written})
    if first.ok and isinstance(raw, str) and _denied_elsewhere(raw, items[0]):
        return Score(NAME, 0.0, [f"诊断自相矛盾：既写 {items[0]} 又否定它"], {**details, "contradicted": items[0]})
    if first.ok:
        why = f"诊断 {items[0]} 与 {first.gold} 一致（{first.how}）" + (f"；{first.note}" if first.note else "")
        return Score(NAME, 1.0, [why], {**details, "matched": items[0], "matched_gold": first.gold,
                                        "how": first.how, "ratio": round(first.ratio, 1), "rank": 0})
    reasons = [f"诊断 {items[0]} 与标准 {'|'.join(alternatives(gold))} 不符" + (f"（{first.note}）" if first.note else "")]
    later = next(((k, it) for k, it in enumerate(items[1:], 1) if match_term(it, gold, fuzzy=threshold, side=side).ok),
                 None)
    if later:
        reasons.append(f"标准诊断列在第 {later[0] + 1} 位（{later[1]}），未作为主要诊断，不计分")
        details["gold_rank"] = later[0]
    return Score(NAME, 0.0, reasons, details)
