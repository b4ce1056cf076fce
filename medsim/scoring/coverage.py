"""coverage: which of the case's key facts the answer states (a summary's or a history's omissions).

Key facts come from ``config.key_facts``, else ``case.key_facts``, else ``gold[config.field]``.
A key fact is covered when its words are in the answer or every claim it makes is supported by
the answer (so 血肌酐 263 umol/L covers 肌酐263μmol/L); see ``medsim.facts.omissions``.
value = covered / total. The answer is the final answer's text (all values of a JSON answer).
"""

from __future__ import annotations

from medsim.facts import omissions
from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_text, no_gold

NAME = "coverage"


@scorer(NAME, config=("field", "key_facts"))
def score_coverage(inp: ScoreInput) -> Score:
    facts = inp.config.get("key_facts") or inp.case.key_facts
    if not facts:
        gold = inp.case.gold.get(inp.config.get("field", "key_facts"))
        facts = [gold] if isinstance(gold, str) else list(gold or [])
    facts = [str(f) for f in facts if str(f).strip()]
    if not facts:
        return no_gold(NAME, "key_facts")
    text = answer_text(inp) if inp.transcript.answer is not None else ""
    text = text or inp.transcript.final_text or inp.transcript.clinician_text()
    missing = omissions(inp.case, text, key_facts=facts)
    missed = [m.key_fact for m in missing]
    covered = [f for f in facts if f not in missed]
    reasons = [f"关键事实 {len(covered)}/{len(facts)}"]
    if missed:
        reasons.append("遗漏：" + "；".join(missed))
    return Score(NAME, len(covered) / len(facts), reasons,
                 {"covered": covered, "missed": missed, "missing_claims": {m.key_fact: m.missing for m in missing}})
