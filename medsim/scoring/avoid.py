"""avoid: the answer recommends nothing the case lists as unsafe for this patient.

``case.avoid`` names treatments, drugs or advice that are contraindicated or dangerous for this
patient (布洛芬|非甾体抗炎药 for a perforated ulcer; 青霉素类 for a penicillin-allergic patient).
An answer that recommends one — affirmatively, by meaning (medsim.text.match): "不要用布洛芬" and
"避免非甾体抗炎药" are the right advice and do not count — scores 0; otherwise 1. Meant as a gate
(``gate: true, weight: 0``): the right plan plus a dangerous extra is not a right plan. Items of a
list answer are judged one by one, so a prohibition in one item does not reach the next. Cases
without an ``avoid`` list are not scored by it.
"""

from __future__ import annotations

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import elements
from medsim.text.match import alternatives, find_point, match_term

NAME = "avoid"


def _texts(inp: ScoreInput) -> list[str]:
    """The answer's statements: list items one by one, other fields and prose as text."""
    ans = inp.transcript.answer
    out: list[str] = []
    if isinstance(ans, dict):
        for value in ans.values():
            out += [str(v) for v in value] if isinstance(value, list) else [str(value or "")]
    elif isinstance(ans, list):
        out += [str(v) for v in ans]
    elif ans is not None:
        out.append(str(ans))
    if not any(t.strip() for t in out):
        out = [inp.transcript.final_text or ""]
    return [t for t in out if t.strip()]


@scorer(NAME, config=())
def score_avoid(inp: ScoreInput) -> Score:
    els = elements(inp.case.avoid)
    if not els:
        return Score(NAME, None, ["本例未列出禁忌处置"], {"skipped": "case has no avoid list"})
    said = []
    for text in _texts(inp):
        for e in els:
            if e.text in said:
                continue
            if find_point(text, e.text).met or match_term(text, e.text).ok and any(
                    a.lower() in text.lower() for a in alternatives(e.text)):
                said.append(e.text)
    if said:
        return Score(NAME, 0.0, ["推荐了对本例不安全的处置：" + "；".join(s.split("|")[0] for s in said)],
                     {"said": said})
    return Score(NAME, 1.0, ["未推荐禁忌处置"], {"said": []})
