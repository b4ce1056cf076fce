"""The narrow adapter between the checker and ``medsim.text``.

Everything the checker asks of the text layer goes through here: normalization with offsets,
findings with polarity and owner, canonical terms. When a piece of the text layer is missing
(it is optional at import time, and was written alongside this package) a small fallback keeps the
checker working; ``text_layer_status()`` says which path is in use.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from medsim.facts import vocab

CLAUSE_BREAK = re.compile(r"[，,。；;！!？?\n：:（）()]|但|然而|可是|而是")
_FULLWIDTH = {i: i - 0xFEE0 for i in range(0xFF01, 0xFF5F)}
_FULLWIDTH.update({0x3000: 0x20, 0xB5: 0x3BC})  # ideographic space, micro sign -> Greek mu


@dataclass(frozen=True)
class FindingMention:
    norm: str  # canonical term
    text: str  # surface text
    start: int
    end: int
    polarity: str  # present | absent | uncertain
    owner: str  # patient | family
    kind: str = "symptom"  # symptom | disease | other


@lru_cache(maxsize=1)
def _text_api() -> dict[str, object]:
    """The text layer's functions that are importable now (it is written alongside this package)."""
    api: dict[str, object] = {}
    try:
        import medsim.text as text
    except Exception:  # noqa: BLE001
        return api
    for name in ("normalize", "analyze", "get_lexicon", "extract_entities"):
        fn = getattr(text, name, None)
        if fn is not None:
            api[name] = fn
    return api


def text_layer_status() -> dict[str, bool]:
    api = _text_api()
    return {name: name in api for name in ("normalize", "analyze", "get_lexicon")}


SpanMap = Callable[[int, int], tuple[int, int]]


def _identity(start: int, end: int) -> tuple[int, int]:
    return start, end


def normalize(text: str) -> tuple[str, SpanMap]:
    """Normalized text and a function mapping a normalized span back to the original text.

    The fallback maps character for character, so its spans are the original ones.
    """
    fn = _text_api().get("normalize")
    if fn is not None:
        try:
            got = fn(text)
            return got.text, got.to_orig
        except Exception:  # noqa: BLE001 - fall back rather than fail a check
            pass
    return text.translate(_FULLWIDTH).replace("︒", "°"), _identity


@lru_cache(maxsize=4096)
def canonical(term: str) -> str:
    term = term.strip()
    fn = _text_api().get("get_lexicon")
    if fn is not None:
        try:
            got = fn().canonical(term)
            if got:
                return str(got)
        except Exception:  # noqa: BLE001
            pass
    return vocab.FALLBACK_SYNONYMS.get(term, term)


@lru_cache(maxsize=4096)
def is_drug(term: str) -> bool:
    """The lexicon knows ``term`` as a drug (brand names included)."""
    fn = _text_api().get("get_lexicon")
    if fn is None:
        return False
    try:
        return fn().type_of(term) == "drug"
    except Exception:  # noqa: BLE001
        return False


@lru_cache(maxsize=256)
def _breaks(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends of the clause breaks in text, computed once per text (bisected per query)."""
    found = [(m.start(), m.end()) for m in CLAUSE_BREAK.finditer(text)]
    return [a for a, _ in found], [b for _, b in found]


def clause_start(text: str, pos: int) -> int:
    starts, ends = _breaks(text)
    # the last break that ends at or before pos
    i = bisect_right(ends, pos) - 1
    while i >= 0 and starts[i] >= pos:
        i -= 1
    return ends[i] if i >= 0 else 0


def clause_end(text: str, pos: int) -> int:
    starts, _ = _breaks(text)
    i = bisect_left(starts, pos)
    return starts[i] if i < len(starts) else len(text)


def strip_pseudo(prefix: str) -> str:
    for cue in vocab.PSEUDO_NEGATIONS:
        prefix = prefix.replace(cue, "　" * len(cue))
    return prefix


def polarity_at(text: str, start: int, end: int) -> tuple[str, str]:
    """(polarity, owner) of a mention by the cues in its clause: the fallback for the text layer's negation."""
    cs = clause_start(text, start)
    prefix = strip_pseudo(text[cs:start])
    # a list under one cue runs across 、 but a later 伴/有 re-asserts presence: 无发热，伴恶心 / 伴恶心无呕吐.
    # Compare where the last cue of each kind *ends*: 不伴, 未诉, 没有 end where 伴, 诉, 有 end.
    pos_end = max((prefix.rfind(c) + len(c) for c in ("伴有", "伴", "有", "出现", "诉") if c in prefix), default=-1)
    neg_end = max((prefix.rfind(c) + len(c) for c in vocab.NEGATION_CUES if c in prefix), default=-1)
    polarity = "absent" if neg_end >= 0 and neg_end >= pos_end else "present"
    after = text[end:clause_end(text, end)]
    if re.match(r"^[（(]?[-－]", after) or after.startswith(("阴性", "(-)", "（-）")):
        polarity = "absent"
    if polarity == "present" and any(c in text[cs:start] or c in after[:4] for c in vocab.UNCERTAIN_CUES):
        polarity = "uncertain"
    sentence_start = max(text.rfind("。", 0, start), text.rfind("\n", 0, start), 0)
    owner = "family" if any(c in text[sentence_start:start] for c in vocab.FAMILY_CUES) else "patient"
    return polarity, owner


def _fallback_findings(text: str) -> list[FindingMention]:
    out: list[FindingMention] = []
    terms = sorted({*vocab.FALLBACK_FINDINGS, *vocab.FALLBACK_SYNONYMS}, key=len, reverse=True)
    taken = [False] * len(text)
    for term in terms:
        for m in re.finditer(re.escape(term), text):
            if any(taken[m.start():m.end()]):
                continue
            for i in range(m.start(), m.end()):
                taken[i] = True
            polarity, owner = polarity_at(text, m.start(), m.end())
            kind = "disease" if term in ("高血压", "糖尿病", "冠心病", "肝炎", "结核") else "symptom"
            out.append(FindingMention(canonical(term), term, m.start(), m.end(), polarity, owner, kind))
    return sorted(out, key=lambda f: f.start)


_FINDING_TYPES = {"symptom": "symptom", "disease": "disease"}
_INFORMANT = re.compile(r"(母亲|父亲|家属|家人|其母|其父|妻子|丈夫|女儿|儿子)(代述|代诉|代为|陪同|诉|述|发现|回忆)")


def findings(text: str) -> list[FindingMention]:
    """Symptom and disease mentions with polarity and owner, from the text layer when it is there."""
    fn = _text_api().get("analyze")
    if fn is None:
        return _fallback_findings(text)
    try:
        analysis = fn(text)
    except Exception:  # noqa: BLE001
        return _fallback_findings(text)
    out = []
    for f in analysis.findings:
        e = f.entity
        kind = _FINDING_TYPES.get(getattr(e, "type", ""), None)
        if kind is None:
            continue
        polarity = str(getattr(f, "polarity", "present"))
        owner = str(getattr(f, "owner", "patient"))
        sentence = text[max(text.rfind("。", 0, e.start), text.rfind("\n", 0, e.start), 0):e.start]
        if owner == "family" and _INFORMANT.search(sentence):
            owner = "patient"  # （母亲代述）患儿呕吐: the mother tells, the child has it
        if polarity == "present" and text[max(0, e.start - 1):e.start] in ("非", "无", "未", "不"):
            polarity = "absent"  # 育龄非妊娠女性
        norm = getattr(e, "norm", None) or canonical(e.text)
        out.append(FindingMention(norm, e.text, e.start, e.end, polarity, owner, kind))
    return sorted(out, key=lambda f: f.start)
