"""Is a record's key fact stated in a text, in other words?

A key fact (``下肢静脉无血栓``, ``2型糖尿病8年``, ``胸片左侧大片浓密阴影、纵隔右移``) is a short
compound phrase; a summary states it in its own words: ``下肢静脉超声未见血栓``, ``T2DM 8年``,
``胸片示左侧胸腔大片浓密阴影，纵隔向右侧移位``. The fact is cut into parts (at 、，；伴并); each part
is stated when one clause of the text (or two adjacent ones) holds

- every entity the part names, as the text layer reads it: the same concept (T2DM = 2型糖尿病),
  the same quantity (28.6mmol/L, 8年; a number is never approximate);
- the part's remaining words in order, a few words inserted between them (示, 胸腔, 向);
- the same polarity: a part that states an absence (无血栓, 未见坏死) needs an absence cue in the
  clause (无 = 未见 = 未触及 = 阴性), and a part that states a finding is not met by a clause that
  negates it (否认外伤 for 外伤史, 尿蛋白阴性 for 尿蛋白3.2g).

Every part must be stated: a fact half told is not told.
"""

from __future__ import annotations

import re
from functools import lru_cache

from medsim.text.analysis import analyze

# where a key fact divides into parts that a summary may write apart
_PART_SPLIT = re.compile(r"[、，,；;]|(?<=[\u4e00-\u9fff])(?:伴|并)(?=[\u4e00-\u9fff])")
_CLAUSE_SPLIT = re.compile(r"[，,；;。！!？?\n]")
# an absence written next to what is absent; not the 无 of 无力, 无效, 无痛性, 无回声, 无明显诱因
_CUE = r"(?:无|未见|未触及|未及|未扪及|未闻及|未发现|没有|否认)(?!力|效|痛|菌|回声|明显诱因|诱因|法)"
_CUE_AT = re.compile(_CUE)
_ABSENT_ANY = re.compile(_CUE + r"|阴性|\(-\)|（-）|不大|正常")
_ABSENT_AFTER = re.compile(r"^[^，,；;。]{0,2}(?:阴性|\(-\)|（-）|正常|不大|" + _CUE + ")")
# words that carry no fact of their own in a key fact's wording
_FILLER = re.compile(r"[的约为示见及和与了值史、，,；;：:\s]|出现|可见|提示")
# how much or how many of a finding: an absence does not repeat it
_DEGREE = re.compile(r"多发|单发|少量|大量|大片|散在|轻度|中度|重度|明显|弥漫")
# one onset said two ways
_ONSET = re.compile(r"突然|骤然|忽然")
# a duration or an age in any unit: compared in days (6月龄 = 6个月 = 0.5岁)
_DAYS = {"年": 365.0, "岁": 365.0, "月": 30.4, "周": 7.0, "天": 1.0, "日": 1.0, "小时": 1 / 24, "h": 1 / 24}
_NAMED = {"disease", "symptom", "exam", "drug", "procedure", "body_part", "test"}
_INSERTED = 3  # words a summary may insert inside a part's remaining words (左侧[胸腔]大片, 纵隔[向]右[侧]移)


def _key(e) -> tuple | None:
    if e.value is not None:
        unit = (e.unit or "").lower()
        if unit in _DAYS:
            return ("t", float(e.value) * _DAYS[unit])
        return ("q", round(float(e.value), 4), unit)
    if e.type in _NAMED and e.norm:
        return ("c", e.norm)
    return None


def _entity_keys(text: str) -> tuple[list[tuple], list[tuple[int, int]]]:
    """What each entity of ``text`` says (concept or quantity) and where it lies (normalized offsets)."""
    keys, spans = [], []
    for e in analyze(text).entities:
        if (k := _key(e)) is not None:
            keys.append(k)
            spans.append((e.nstart, e.nend))
    return keys, spans


def _has(have: list[tuple], k: tuple) -> bool:
    """A key the clause states: the same quantity (a time within 3%: 6月龄 = 0.5岁), the same
    concept or a more specific one (2型糖尿病 for 糖尿病; the 2型 is then a word to find)."""
    if k[0] == "t":
        return any(h[0] == "t" and abs(h[1] - k[1]) <= 0.03 * max(k[1], h[1]) for h in have)
    if k[0] == "c":
        return any(h[0] == "c" and k[1] in h[1] for h in have)
    return k in have


def _residual(text: str, spans: list[tuple[int, int]]) -> str:
    norm = analyze(text).normalized.text
    keep = [ch for i, ch in enumerate(norm) if not any(s <= i < e for s, e in spans)]
    rest = _ABSENT_ANY.sub("", "".join(keep))
    return _FILLER.sub("", rest)


def _in_order(chars: str, text: str) -> bool:
    """``chars`` in order within ``text``, at most _INSERTED characters between neighbours."""
    if not chars:
        return True
    for start in (i for i, ch in enumerate(text) if ch == chars[0]):
        pos, ok = start, True
        for ch in chars[1:]:
            nxt = text.find(ch, pos + 1)
            if nxt < 0 or nxt - pos - 1 > _INSERTED:
                ok = False
                break
            pos = nxt
        if ok:
            return True
    return False


def _canonical_text(a) -> str:
    """The clause with each named entity written as its concept (T2DM → 2型糖尿病), so that a
    part's remaining words (2型) are found in an abbreviation's meaning."""
    text, out, at = a.normalized.text, [], 0
    for e in sorted((e for e in a.entities if e.type in _NAMED and e.norm), key=lambda e: e.nstart):
        if e.nstart < at:
            continue
        out += [text[at:e.nstart], e.norm]
        at = e.nend
    return _ONSET.sub("突发", re.sub(r"\s+", "", "".join(out) + text[at:]))


@lru_cache(maxsize=2048)
def _part(part: str) -> tuple[tuple, str, bool]:
    keys, spans = _entity_keys(part)
    return tuple(keys), _ONSET.sub("突发", _residual(part, spans)), bool(_ABSENT_ANY.search(part))


def _words_met(a, keys, residual: str) -> bool:
    """The analysed clause holds every key (a concept or a number) and the part's other words in order."""
    have = [k for e in a.entities if (k := _key(e)) is not None]
    if not all(_has(have, k) for k in keys):
        return False
    written = _ONSET.sub("突发", re.sub(r"\s+", "", a.normalized.text))
    return _in_order(residual, written) or _in_order(residual, _canonical_text(a))


def _clause_states(clause: str, part: str) -> bool:
    keys, residual, absent = _part(part)
    if not keys and len(residual) < 2:
        return False  # nothing to recognise the part by
    a = analyze(clause)
    if not _words_met(a, keys, residual):
        return False
    said_absent = bool(_ABSENT_ANY.search(clause))
    if absent:
        return said_absent
    # a finding stated: no entity it names read as absent, no absence cue before its words
    # (a measured finding read with a hedge — 2.5cm结节，考虑腺瘤; 结节（腺瘤可能）— is the imaging report's
    # own wording of it: the hedge denies nothing when the part carries more than the concept)
    hedge_ok = bool(residual) or any(k[0] != "c" for k in keys)
    denied = {f.entity.norm for f in a.findings
              if f.polarity == "absent" or f.polarity != "present" and not (hedge_ok and f.polarity == "uncertain")}
    if any(k[0] == "c" and k[1] in denied for k in keys):
        return False
    return not (said_absent and not keys)


def parts(fact: str) -> list[str]:
    return [p.strip() for p in _PART_SPLIT.split(fact or "") if p.strip()]


def states_fact(text: str, fact: str) -> bool:
    """Every part of ``fact`` is stated by one clause of ``text`` or two adjacent ones."""
    clauses = [c for c in _CLAUSE_SPLIT.split(text or "") if c.strip()]
    windows = clauses + [a + "，" + b for a, b in zip(clauses, clauses[1:], strict=False)]
    fact_parts = parts(fact)
    return bool(fact_parts) and all(any(_clause_states(w, p) for w in windows) for p in fact_parts)


# a warning sign or an instruction (出现头痛加重…立即就诊) names a finding without finding it
_ADVICE = re.compile(r"就诊|就医|随诊|复诊|来院|立即|及时|复查|随访|避免|注意|如|若|一旦")


def _part_contradicted(clause: str, part: str) -> bool:
    """One clause says the opposite of ``part``: what the part finds, the clause finds absent
    (尿蛋白阴性 for 24小时尿蛋白3.2g; its numbers need not be repeated), or what the part finds
    absent, the clause finds (腋窝触及肿大淋巴结 for 腋窝未触及肿大淋巴结). Instructions and warning
    signs find nothing."""
    if _ADVICE.search(clause):
        return False
    keys, residual, _ = _part(part)
    absent = bool(_ABSENT_ANY.search(part))
    residual = _DEGREE.sub("", residual)  # 膈下未见游离气体 denies 膈下多发游离气体
    concepts = [k for k in keys if k[0] == "c"]
    a = analyze(clause)
    named = {e.norm for e in a.entities if e.type in _NAMED and e.type != "body_part"}
    # recognisable by more than a place: a finding, a test or words of its own
    if not (any(k[1] in named for k in concepts) or len(residual) >= 2):
        return False
    if not _words_met(a, concepts, residual):
        return False
    # where the part's words are in the clause: an absence must stand next to them
    text = a.normalized.text
    spots = [e.nstart for e in a.entities if ("c", e.norm) in concepts and e.type != "body_part"]
    if residual and (at := text.find(residual[:2])) >= 0:
        spots.append(at)
    # the cue beside the words, not the text layer's scope (which reads 非化脓性充血 and 无痛性血尿 as denied)
    cues = [m.end() for m in _CUE_AT.finditer(text)]
    said_absent = any(any(0 <= at - end <= 3 and not _CLAUSE_SPLIT.search(text[end:at]) for end in cues)
                      or _ABSENT_AFTER.match(text[at + 2:]) for at in spots)
    if absent:  # an absence is contradicted only by a clause that says no absence at all (凝血功能及D-二聚体正常)
        return not _ABSENT_ANY.search(clause)
    return bool(said_absent)


def contradicts_fact(text: str, fact: str) -> bool:
    """Some clause of ``text`` says the opposite of a part of ``fact``."""
    clauses = [c for c in _CLAUSE_SPLIT.split(text or "") if c.strip()]
    return any(_part_contradicted(c, p) for p in parts(fact) for c in clauses)
