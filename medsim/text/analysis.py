"""One call for the whole pipeline: normalize → tokenize → entities → findings."""

from __future__ import annotations

from dataclasses import dataclass

from medsim.text.entities import Entity, entities_from
from medsim.text.negation import Finding, FindingContext
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


def findings(text: str, backend: str = "jieba") -> list[Finding]:
    return analyze(text, backend).findings
