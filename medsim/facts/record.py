"""A text's claims indexed for look-up: built once per record (and cached), queried per claim."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from medsim.facts import textlayer
from medsim.facts.claims import Claim, extract_claims
from medsim.facts.textlayer import SpanMap
from medsim.text.negation import FindingContext


@dataclass
class ClaimIndex:
    original: str
    text: str  # normalized
    span_map: SpanMap
    claims: list[Claim]
    context: FindingContext  # the text layer's cues, for stretches no claim covers
    by_kind: dict[str, list[Claim]] = field(default_factory=lambda: defaultdict(list))
    by_key: dict[tuple[str, str], list[Claim]] = field(default_factory=lambda: defaultdict(list))
    exams: list[tuple[str, str, int, int, str]] | None = None  # the checker's examination index, built on first use
    kinds: dict[str, list[Claim]] = field(default_factory=dict)  # the checker's memo: findings that are kinds of a key

    def of(self, kind: str, key: str | None = None) -> list[Claim]:
        if key is None:
            return self.by_kind.get(kind, [])
        return self.by_key.get((kind, key), [])

    def orig_span(self, start: int, end: int) -> tuple[int, int]:
        return self.span_map(start, end)

    def orig_text(self, start: int, end: int) -> str:
        s, e = self.span_map(start, end)
        return self.original[s:e]


def _build(original: str) -> ClaimIndex:
    text, span_map = textlayer.normalize(original)
    claims = extract_claims(text)
    idx = ClaimIndex(original, text, span_map, claims, textlayer.context(text))
    for c in claims:
        idx.by_kind[c.kind].append(c)
        idx.by_key[(c.kind, c.key)].append(c)
    return idx


@lru_cache(maxsize=1024)
def index_record(original: str) -> ClaimIndex:
    """A record's index, cached: one record is checked against many outputs in a run."""
    return _build(original)


@lru_cache(maxsize=64)
def index_text(original: str) -> ClaimIndex:
    """An output's (or a key fact's) index; a small cache, so outputs never evict records."""
    return _build(original)
