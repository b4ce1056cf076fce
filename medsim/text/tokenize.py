"""Tokenize clinical Chinese: protected spans whole, segmenter for the rest.

Offsets always point into the ORIGINAL text; ``Token.norm`` is the normalized form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from medsim.text.normalize import Normalized, normalize
from medsim.text.patterns import protected_spans
from medsim.text.segmenters import get_segmenter

TOKEN_KINDS = ("word", "dose", "lab_value", "vital", "freq", "duration", "date", "number", "punct")

_PUNCT = set("，。；：！？、,.;:!?()（）[]【】{}<>《》“”‘’\"'~-—…·/\\|+*=#@%&^_`$")


@dataclass(slots=True)
class Token:
    text: str  # as written in the original text
    start: int  # offsets into the original text
    end: int
    kind: str
    norm: str = ""  # normalized spelling (units unified, half-width)
    nstart: int = 0  # offsets into the normalized text
    nend: int = 0


_PUNCT_RE = re.compile("[" + re.escape("".join(sorted(_PUNCT))) + "]+")


def _is_punct(s: str) -> bool:
    return _PUNCT_RE.fullmatch(s) is not None


def tokenize_normalized(norm: Normalized, backend: str = "jieba") -> list[Token]:
    """Tokens of an already normalized text (the analysis pipeline shares one normalize)."""
    seg = get_segmenter(backend)
    text, orig = norm.text, norm.orig
    tokens: list[Token] = []
    append = tokens.append
    to_orig = norm.sequential_mapper()

    def emit(ns: int, ne: int, kind: str) -> None:
        s, e = to_orig(ns, ne)
        append(Token(orig[s:e], s, e, kind, text[ns:ne], ns, ne))

    def segment(gs: int, ge: int) -> None:
        if gs >= ge:
            return
        pos = gs
        gap = text[gs:ge]
        for w in seg.cut(gap):
            # backends may drop whitespace: find each word where it really is
            at = text.find(w, pos, ge) if text.startswith(w, pos) is False else pos
            if at < 0:
                continue
            pos = at + len(w)
            if w.isspace():
                continue
            stripped = w.strip()
            if stripped != w:
                lead = len(w) - len(w.lstrip())
                at += lead
                w = stripped
            emit(at, at + len(w), "punct" if _is_punct(w) else "word")

    prev = 0
    for s, e, kind in protected_spans(text):
        segment(prev, s)
        emit(s, e, kind)
        prev = e
    segment(prev, len(text))
    return tokens


def tokenize(text: str, backend: str = "jieba") -> list[Token]:
    """Split ``text`` into tokens; doses, lab values, vitals, dates and durations stay whole."""
    return tokenize_normalized(normalize(text), backend)


def words(text: str, backend: str = "jieba") -> list[str]:
    """Normalized word strings without punctuation (for ROUGE and other overlap scores)."""
    return [t.norm for t in tokenize(text, backend) if t.kind != "punct"]
