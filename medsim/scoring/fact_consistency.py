"""fact_consistency: every statement the clinician made, held against the case record.

What the patient said in the dialogue counts as record (a clinician repeating the patient's words
invents nothing). All clinician turns are checked (a hallucinated lab value in turn 2 counts as much as one in the
final answer); questions are skipped (``你发烧吗？`` asserts nothing), and so are advice, plans
and the clinician's own diagnoses (see ``medsim.facts.check``). A turn that is only structured
JSON has no prose to check and is skipped; if nothing is left the item is not scored.

Errors are counted, not averaged away among trivially true statements: value = max(0, 1 −
``per_contradiction`` × (contradicted + value_mismatch) − ``per_error`` × unsupported). A statement
the record contradicts (the wrong side, a wrong dose or value, a denied finding asserted) is what
a physician would not sign: 0.7 each by default, so one leaves 0.3. One the record does not
support (an invention, or the checker's rare false alarm) costs 0.2, so five take everything. Used as a gate (``gate: true`` in the bundled scenarios) it
can only take away: a faithful copy of the record earns nothing here, an invented lab value costs.
None (not scored, reason "nothing checkable") when the clinician asserted nothing checkable about
the record; ``details`` are kept either way (counts, the claims not checked and why). Config:
``per_contradiction``, ``per_error``, ``max_listed`` (problems listed in reasons, default 5),
``prescribing`` (the answer prescribes — discharge, treatment: a drug the record lacks is a new
prescription, not an invention; the record's own drugs are still held to their doses).
"""

from __future__ import annotations

import json
import re

from medsim.facts import check
from medsim.scoring.base import Score, ScoreInput, scorer

NAME = "fact_consistency"
_SENTENCE = re.compile(r"[^。！？!?\n；;]+[。！？!?\n；;]?")
_QUESTION = re.compile(r"[？?]|吗[。\s]*$|呢[。\s]*$|有没有|是不是|是否|能否|请问")
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)


def is_structured(text: str) -> bool:
    """The whole turn is a JSON value (optionally fenced): nothing to fact-check as prose."""
    body = text.strip()
    m = _FENCE.match(body)
    if m:
        body = m.group(1)
    if not body or body[0] not in "{[":
        return False
    try:
        json.loads(body)
    except ValueError:
        return False
    return True


def statements(text: str) -> str:
    """The text without its questions."""
    return "".join(s for s in _SENTENCE.findall(text) if not _QUESTION.search(s))


def clinician_prose(inp: ScoreInput) -> str:
    turns = [t.text for t in inp.transcript.by("clinician") if t.text and not is_structured(t.text)]
    if not turns and inp.transcript.final_text and not is_structured(inp.transcript.final_text):
        turns = [inp.transcript.final_text]
    return "\n".join(statements(t) for t in turns)


def case_with_what_was_said(inp: ScoreInput):
    """The record and what the patient said in this dialogue: a clinician who repeats the patient's
    own words (嘴歪、说话不清 from the probe) invents nothing, even where the record predates them."""
    said = [t.text for t in inp.transcript.by("patient") if t.text and t.text.strip()]
    if not said:
        return inp.case
    told = "\n".join(f"患者诉：{s}" for s in said)
    return inp.case.model_copy(update={"hpi": f"{inp.case.hpi or ''}\n{told}".strip()})


@scorer(NAME, config=("max_listed", "per_error", "per_contradiction", "prescribing"))
def score_fact_consistency(inp: ScoreInput) -> Score:
    text = clinician_prose(inp)
    if not text.strip():
        # Not applicable (a JSON-only answer), which is not an error: the item is scored on the rest.
        return Score(NAME, None, ["无可核查的陈述（仅结构化答案或只有提问） / no prose to check"],
                     {"skipped": "no clinician prose to check"})
    report = check(case_with_what_was_said(inp), text, key_facts=[], prescribing=bool(inp.config.get("prescribing")))
    problems = report.problems()
    limit = int(inp.config.get("max_listed", 5))
    total = report.checked
    reasons = [f"与病历一致 {report.counts['supported']}/{total}"]
    reasons += [f"{f.status}：{f.text} — {f.reason_zh}" for f in problems[:limit]]
    details = {
        "counts": report.counts,
        "skipped": report.skipped,
        "not_checked": [{"kind": n.kind, "text": n.text, "span": list(n.span), "reason_zh": n.reason_zh,
                         "reason_en": n.reason_en} for n in report.not_checked],
        "problems": [
            {"status": f.status, "kind": f.kind, "text": f.text, "span": list(f.span),
             "evidence": f.evidence_text, "reason_zh": f.reason_zh, "reason_en": f.reason_en}
            for f in problems
        ],
    }
    if total == 0:
        # 0/0 is not full marks: nothing the clinician said could be held against the record
        return Score(NAME, None, ["无可核查的陈述 / nothing checkable", *reasons[1:]], details)
    errors = total - report.counts["supported"]
    contradictions = report.counts["contradicted"] + report.counts["value_mismatch"]
    per_error = float(inp.config.get("per_error", 0.2))
    per_contradiction = float(inp.config.get("per_contradiction", 0.7))
    details["errors"] = errors
    details["contradictions"] = contradictions
    if contradictions:
        reasons.insert(1, f"与病历矛盾 {contradictions} 处，每处扣 {per_contradiction:g}")
    if errors - contradictions:
        reasons.insert(1, f"病历不支持 {errors - contradictions} 处，每处扣 {per_error:g}")
    value = 1.0 - per_contradiction * contradictions - per_error * (errors - contradictions)
    return Score(NAME, max(0.0, value), reasons, details)
