"""One call for the whole pipeline: normalize → tokenize → entities → findings."""

from __future__ import annotations

from dataclasses import dataclass

from medsim.text.entities import Entity, entities_from
from medsim.text.lexicon import get_lexicon
from medsim.text.negation import FINDING_TYPES, Finding, FindingContext
from medsim.text.normalize import Normalized, normalize
from medsim.text.tokenize import Token, tokenize_normalized


@dataclass(slots=True)
class Analysis:
    normalized: Normalized
    tokens: list[Token]
    entities: list[Entity]
    findings: list[Finding]
    # cues, clause bounds and sections behind the findings: judges any other stretch of the text
    context: FindingContext


def analyze(text: str, backend: str = "jieba") -> Analysis:
    norm = normalize(text)
    tokens = tokenize_normalized(norm, backend)
    ents = entities_from(norm, tokens)
    ctx = FindingContext(norm, ents)
    return Analysis(norm, tokens, ents, [ctx.judge(e) for e in ctx.findings_ents], ctx)


def judge_spans(text: str, spans: list[tuple[int, int]], type_: str = "symptom", backend: str = "jieba") -> list[Finding]:
    """Polarity, owner and history of stretches someone else marked (original-text offsets),
    read in the context of the whole text: what the entity pass found elsewhere still joins
    or ends a list, but a marked stretch replaces any entity it overlaps."""
    norm = normalize(text)
    ents = entities_from(norm, tokenize_normalized(norm, backend))
    lex = get_lexicon()
    marked = []
    for s, e in spans:
        ns, ne = norm.to_norm(s, e)
        # the kind of thing marked, as the entity pass or the lexicon knows it (a diagnosis asked
        # about is hedged, a symptom is not): else ``type_``
        over = [x for x in ents if x.nstart < ne and ns < x.nend and x.type in FINDING_TYPES]
        surface = norm.text[ns:ne]
        typ = over[0].type if over else lex.type_of(surface) or type_
        canon = lex.canonical(surface) or (over[0].norm if len(over) == 1 else surface)
        marked.append(Entity(typ if typ in FINDING_TYPES else type_, text[s:e], s, e, canon, nstart=ns, nend=ne))
    kept = [x for x in ents if not any(x.nstart < m.nend and m.nstart < x.nend for m in marked)]
    merged = sorted(kept + marked, key=lambda x: (x.nstart, -(x.nend - x.nstart)))
    ctx = FindingContext(norm, merged)
    return [ctx.judge(m) for m in marked]


def findings(text: str, backend: str = "jieba") -> list[Finding]:
    return analyze(text, backend).findings
