"""Clinical entities: lexicon terms (disease, symptom, drug, …), measurements with value and
unit (lab values, vitals, doses), frequencies, durations, demographics; laterality attached."""

from __future__ import annotations

import re
from dataclasses import dataclass

from medsim.text.lexicon import Lexicon, get_lexicon
from medsim.text.measures import (
    LABEL_FILLERS,
    VITAL_LABELS,
    duration,
    frequency,
    numbers,
    unit_of,
)
from medsim.text.normalize import Normalized, normalize
from medsim.text.tokenize import Token, tokenize_normalized

MAX_NGRAM = 5
_LATERAL_PREFIX = ("双侧", "两侧", "左侧", "右侧", "双", "左", "右")
_LATERAL_NORM = {"双侧": "双侧", "两侧": "双侧", "双": "双侧", "左侧": "左", "左": "左", "右侧": "右", "右": "右"}
_LATERAL_BEFORE = re.compile(r"(双侧|两侧|左侧|右侧|双|左|右)$")
_LATERAL_TYPES = {"body_part", "disease", "symptom", "procedure"}
_SEX_RE = re.compile(
    r"(?:(?<=性别：)|(?<=[，。；：\s(]))(男|女)(?:性)?(?=[，。；\s)\d]|患|病|婴|孩|童|$)|(男|女)(?:孩|婴|童|性)"
)
_VALUE_PART = re.compile(r"\d+(?:\.\d+)?(?:\s*(?:/|[-~～至])\s*\d+(?:\.\d+)?)?")
# a patient puts an adverb between the body part and the pain (头还是疼, 膝盖一直疼, 肚子有点痛): the part
# and 疼/痛 together must still be a lexicon or lay term (头疼, 膝盖疼, 肚子痛) for the stretch to be one
_PAIN_ADVERB = re.compile(r"(?:一直|还是|仍然|依然|总是|老是|经常|时常|偶尔|有点儿|有点|有些|特别|非常|挺|很|还|仍|也|又)(?=[疼痛])")
_AGE_RE = re.compile(r"(\d+(?:\.\d+)?)岁(?:(\d+)个?月)?|(\d+)个?月龄")


@dataclass(slots=True)
class Entity:
    type: str
    text: str  # as written in the original text
    start: int  # original-text offsets
    end: int
    norm: str  # canonical form
    value: float | None = None
    unit: str | None = None
    name: str | None = None  # canonical test or vital name for measurements, drug for doses
    laterality: str | None = None  # "左" | "右" | "双侧"
    value2: float | None = None  # diastolic pressure, or the upper end of a range
    nstart: int = 0  # normalized-text offsets (for the clause logic)
    nend: int = 0


def _entity(norm: Normalized, ns: int, ne: int, type_: str, canon: str, **kw) -> Entity:
    s, e = norm.to_orig(ns, ne)
    return Entity(type_, norm.orig[s:e], s, e, canon, nstart=ns, nend=ne, **kw)


def _lookup(lex: Lexicon, s: str) -> tuple[str, tuple[str, ...]] | None:
    hit = lex.lookup(s)
    if hit:
        return hit
    std = lex.lay_synonyms.get(s)
    if std is not None:
        return lex.lookup(std)
    return None


def _followed_by_value(tokens: list[Token], j: int) -> bool:
    for k in range(j, min(j + 3, len(tokens))):
        t = tokens[k]
        if t.kind in ("lab_value", "vital", "dose"):
            return True
        if t.kind == "number":
            # a unit, a % or a decimal is needed: "N 78%", "K 3.5" are values, "L4、5" is a vertebra
            return not t.norm[-1].isdigit() or "." in t.norm
        if t.norm not in LABEL_FILLERS:
            return False
    return False


def _term_entities(norm: Normalized, tokens: list[Token], lex: Lexicon) -> list[Entity]:
    out: list[Entity] = []
    n = len(tokens)
    i = 0
    while i < n:
        tok = tokens[i]
        if tok.kind != "word":
            i += 1
            continue
        # longest run of adjacent word tokens first
        j_max = i + 1
        while j_max < n and j_max - i < MAX_NGRAM and tokens[j_max].kind == "word" and tokens[j_max].nstart == tokens[j_max - 1].nend:
            j_max += 1
        matched = False
        heads = lex.heads
        for j in range(j_max, i, -1):
            s = tok.norm if j == i + 1 else "".join(t.norm for t in tokens[i:j])
            if len(s) > lex.max_term_len + 2:
                continue
            hs = s[:2].upper() if s.isascii() else s[:2]
            if hs not in heads and s[0] not in "双两左右":
                continue
            hit = _lookup(lex, s)
            prefix = ""
            if hit is None and len(s) > 1 and s[0] in "双两左右":
                for p in _LATERAL_PREFIX:
                    if s.startswith(p) and len(s) > len(p):
                        hit = _lookup(lex, s[len(p):])
                        if hit:
                            prefix = p
                            break
            if hit is None:
                continue
            key = s.upper() if s.isascii() else s
            if key in lex.label_only and not _followed_by_value(tokens, j):
                continue
            ns, ne = tok.nstart, tokens[j - 1].nend
            types = hit[1]
            type_ = types[0]
            if len(types) > 1 and j < n:
                nxt = tokens[j].kind
                if nxt == "dose" and "drug" in types:
                    type_ = "drug"
                elif nxt in ("lab_value", "number") and "exam" in types:
                    type_ = "exam"
            ent = _entity(norm, ns, ne, type_, hit[0])
            if prefix:
                ent.laterality = _LATERAL_NORM[prefix]
            out.append(ent)
            i = j
            matched = True
            break
        if matched:
            continue
        # a long token the segmenter glued together: look for terms inside it
        if len(tok.norm) >= 3:
            out.extend(_inner_terms(norm, tok, lex))
        i += 1
    return out


def _inner_terms(norm: Normalized, tok: Token, lex: Lexicon) -> list[Entity]:
    out = []
    s = tok.norm
    if s.isascii():
        return out
    heads = lex.heads
    p = 0
    while p < len(s) - 1:
        if s[p : p + 2] not in heads:
            p += 1
            continue
        for L in range(min(lex.max_term_len, len(s) - p), 1, -1):
            sub = s[p : p + L]
            hit = _lookup(lex, sub)
            if hit and (sub.upper() if sub.isascii() else sub) not in lex.label_only:
                out.append(_entity(norm, tok.nstart + p, tok.nstart + p + L, hit[1][0], hit[0]))
                p += L
                break
        else:
            p += 1
    return out


def _adverb_pain(norm: Normalized, lex: Lexicon) -> list[Entity]:
    out = []
    text = norm.text
    for m in _PAIN_ADVERB.finditer(text):
        pain = text[m.end()]
        if text[m.end() : m.end() + 2] in ("疼爱", "痛快", "痛苦"):
            continue
        for n in (3, 2, 1):
            start = m.start() - n
            part = text[max(0, start) : m.start()]
            if start < 0 or not all("\u4e00" <= c <= "\u9fa5" for c in part):
                continue
            hit = _lookup(lex, part + pain)
            if hit and "symptom" in hit[1]:
                out.append(_entity(norm, start, m.end() + 1, "symptom", hit[0]))
                break
    return out


def _label_before(tokens: list[Token], i: int) -> tuple[str | None, int]:
    """The word printed before a value (skipping 为/：), and its token index."""
    k = i - 1
    hops = 0
    while k >= 0 and hops < 3:
        t = tokens[k]
        if t.norm in LABEL_FILLERS:
            k -= 1
            hops += 1
            continue
        if t.kind == "word":
            return t.norm, k
        return None, -1
    return None, -1


def _measurement(norm: Normalized, tokens: list[Token], i: int, lex: Lexicon, drugs: list[Entity]) -> Entity | None:
    tok = tokens[i]
    kind = tok.kind
    text = tok.norm
    if kind == "freq":
        abbr, per_day = frequency(text)
        return _entity(norm, tok.nstart, tok.nend, "frequency", abbr, value=per_day)
    if kind == "duration":
        value, unit = duration(text)
        return _entity(norm, tok.nstart, tok.nend, "duration", text, value=value, unit=unit)
    if kind not in ("lab_value", "vital", "dose", "number"):
        return None
    nums = numbers(_VALUE_PART.match(text).group(0)) if _VALUE_PART.match(text) else []
    if not nums:
        return None
    unit = unit_of(text)
    label, li = _label_before(tokens, i)
    start = tokens[li].nstart if li >= 0 else tok.nstart
    vital_name = VITAL_LABELS.get(label.upper()) if label else None
    lab_hit = lex.lookup(label) if label else None
    lab_name = lab_hit[0] if lab_hit and "exam" in lab_hit[1] else None
    value2 = nums[1] if len(nums) > 1 else None

    if kind == "vital" or (kind == "number" and unit == "%" and vital_name == "血氧饱和度"):
        if lab_name and not vital_name:  # PaO2 55mmHg is a blood-gas value, not a vital sign
            return _entity(norm, start, tok.nend, "lab_value", lab_name, value=nums[0], unit=unit, name=lab_name, value2=value2)
        name = vital_name
        if name is None:
            name = {"℃": "体温", "mmHg": "血压" if value2 is not None else None}.get(unit or "")
        if name is None and unit == "次/分":
            name = "心率"
        ns = start if vital_name else tok.nstart
        return _entity(norm, ns, tok.nend, "vital", name or text, value=nums[0], unit=unit, name=name, value2=value2)
    bare_decimal = kind == "number" and unit is None and "." in text  # K 3.5 printed without its unit
    if kind == "lab_value" or (kind == "number" and (unit == "%" or bare_decimal) and lab_name):
        ns = start if lab_name else tok.nstart
        return _entity(norm, ns, tok.nend, "lab_value", lab_name or text, value=nums[0], unit=unit, name=lab_name, value2=value2)
    if kind == "dose":
        drug = None
        for d in reversed(drugs):
            if d.nend <= tok.nstart and tok.nstart - d.nend <= 12:
                drug = d.norm
                break
            if d.nend <= tok.nstart:
                break
        return _entity(norm, tok.nstart, tok.nend, "dose", text, value=nums[0], unit=unit, name=drug, value2=value2)
    return None


def _demographics(norm: Normalized) -> list[Entity]:
    out = []
    text = norm.text
    for m in _SEX_RE.finditer(text):
        sex = m.group(1) or m.group(2)
        out.append(_entity(norm, m.start(), m.end(), "demographic", sex, name="性别"))
    for m in _AGE_RE.finditer(text):
        if m.group(3):
            value = float(m.group(3)) / 12
        else:
            value = float(m.group(1)) + (float(m.group(2)) / 12 if m.group(2) else 0.0)
        out.append(_entity(norm, m.start(), m.end(), "demographic", m.group(0), value=value, unit="岁", name="年龄"))
    return out


def _attach_laterality(norm: Normalized, ents: list[Entity]) -> None:
    text = norm.text
    prev_side: tuple[str, int] | None = None  # (side, normalized end) of the last lateral body part
    for e in ents:
        if e.type not in _LATERAL_TYPES:
            continue
        if e.laterality is None:
            if e.text[:1] in "左右双" or e.text[:2] == "两侧":
                for p in _LATERAL_PREFIX:
                    if e.text.startswith(p):
                        e.laterality = _LATERAL_NORM[p]
                        break
            else:
                m = _LATERAL_BEFORE.search(text, max(0, e.nstart - 2), e.nstart)
                if m:
                    e.laterality = _LATERAL_NORM[m.group(1)]
        # a finding right after a sided body part takes its side: 左下肢 水肿
        if e.laterality is None and e.type in ("symptom", "disease") and prev_side:
            side, pend = prev_side
            gap = text[pend : e.nstart]
            if len(gap) <= 6 and not any(c in gap for c in "，。；"):
                e.laterality = side
        if e.type == "body_part" and e.laterality:
            prev_side = (e.laterality, e.nend)


def entities_from(norm: Normalized, tokens: list[Token]) -> list[Entity]:
    """Entities of an already normalized and tokenized text."""
    lex = get_lexicon()
    terms = _term_entities(norm, tokens, lex)
    drugs = [e for e in terms if e.type == "drug"]
    out = list(terms)
    for i, tok in enumerate(tokens):
        if tok.kind != "word" and tok.kind != "punct":
            m = _measurement(norm, tokens, i, lex, drugs)
            if m is not None:
                out.append(m)
    out.extend(_demographics(norm))
    out.extend(_adverb_pain(norm, lex))
    out.sort(key=lambda e: (e.nstart, -(e.nend - e.nstart)))
    # a measurement swallows the exam term that labels it (WBC 5.0×10^9/L is one lab value)
    kept: list[Entity] = []
    for e in out:
        if kept and e.nstart < kept[-1].nend and e.nend <= kept[-1].nend:
            continue
        kept.append(e)
    _attach_laterality(norm, kept)
    return kept


def extract_entities(text: str, backend: str = "jieba") -> list[Entity]:
    """All entities in ``text`` with original-text offsets."""
    norm = normalize(text)
    return entities_from(norm, tokenize_normalized(norm, backend))
