"""coverage: which of the case's key facts the answer states (a summary's or a history's omissions).

Key facts come from ``config.key_facts``, else ``case.key_facts``, else ``gold[config.field]``.
A key fact is covered when its words are in the answer or every claim it makes is supported by
the answer (so 血肌酐 263 umol/L covers 肌酐263μmol/L; see ``medsim.facts.omissions``), or each of
its parts is said in other words (``medsim.text.keyfacts``: T2DM 8年 for 2型糖尿病8年) — and the
answer does not deny it, hedge it or contradict itself on it (medsim.text.match.find_point):
"否认右下腹痛" does not cover 右下腹痛, "可能有发热" does not state the fever.

A summary is a summary: beyond ``max_chars`` (default 3× the reference, at least 1,200 characters)
the score shrinks in proportion, so a copy of the whole record is not full coverage.
value = covered / total × budget factor. The answer is the final answer's text.
"""

from __future__ import annotations

from medsim.facts import omissions
from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_text, no_gold
from medsim.text.keyfacts import contradicts_fact, states_fact
from medsim.text.match import answer_budget, content_chars, find_point, normalize, strip_quoted

NAME = "coverage"
REPRODUCED_FREE, REPRODUCED_NONE = 0.3, 0.6  # share of the record a summary may reproduce verbatim
CONTRADICTED_CHARGE = 0.3  # a key fact said the other way round, as fact_consistency charges a contradiction (×(1−0.7))


def _denied(text: str, fact: str) -> bool:
    hit = find_point(text, fact)
    return not hit.met and bool(hit.negated or hit.contradicted) or hit.met and hit.hedged


@scorer(NAME, config=("field", "key_facts", "max_chars"))
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
    # a fact the claim checker finds left out may be stated in other words (T2DM 8年, 未见血栓)
    missing = [m for m in omissions(inp.case, text, key_facts=facts) if not states_fact(text, m.key_fact)]
    missed = [m.key_fact for m in missing if not contradicts_fact(text, m.key_fact)]
    # a key fact stated the other way round (尿蛋白阴性 for 24小时尿蛋白3.2g) is a false statement on a
    # point the summary exists to carry, not an omission: each one charged as a contradiction is
    contradicted = [f for f in facts if contradicts_fact(text, f)]
    denied = [f for f in facts if f not in missed and f not in contradicted and _denied(text, f)]
    covered = [f for f in facts if f not in missed and f not in denied and f not in contradicted]
    budget = answer_budget(text, inp.case.reference_answer, max_chars=inp.config.get("max_chars"))
    record = len(normalize(inp.case.full_record_text()))  # counted as the budget counts the answer
    share_limit = max(0.6 * record, 300)  # a summary is shorter than what it summarizes (short records: 300)
    if budget.chars > share_limit and record:
        budget.factor *= (share_limit / budget.chars) ** 2
        budget.reasons.append(f"{budget.chars} chars of a {record}-char record: not a summary")
    # a summary is written, not cut out of the record: beyond half of it copied word for word
    # (stretches of 16+ characters; the references copy 13% on average, 27% at most) it is charged
    # down to nothing for a verbatim copy
    record_text = inp.case.full_record_text()
    _, quoted = strip_quoted(text, [record_text])
    share = quoted / max(1, content_chars(text))
    if share > 0.5:
        budget.factor *= max(0.0, (1 - share) / 0.5)
        budget.reasons.append(f"{share:.0%} copied from the record word for word")
    # ... and a summary selects: one that reproduces most of the record, cut into fragments and
    # rejoined, has selected nothing (the references reproduce 5% of it on average, 15% at most;
    # a fragment dump 40–70%): beyond 30% it is charged down to nothing at 60%
    reproduced = quoted / max(1, content_chars(record_text))
    if reproduced > REPRODUCED_FREE:
        budget.factor *= max(0.0, (REPRODUCED_NONE - reproduced) / (REPRODUCED_NONE - REPRODUCED_FREE))
        budget.reasons.append(f"reproduces {reproduced:.0%} of the record word for word")
    reasons = [f"关键事实 {len(covered)}/{len(facts)}"]
    if missed:
        reasons.append("遗漏：" + "；".join(missed))
    if denied:
        reasons.append("被否定或含糊其辞：" + "；".join(denied))
    if budget.factor < 1:
        reasons.append(f"篇幅超出 ×{budget.factor:.2f}：" + "；".join(budget.reasons))
    charge = CONTRADICTED_CHARGE ** len(contradicted)
    if contradicted:
        reasons.append(f"与关键事实相反（每处 ×{CONTRADICTED_CHARGE}）：" + "；".join(contradicted))
    return Score(NAME, len(covered) / len(facts) * budget.factor * charge, reasons,
                 {"covered": covered, "missed": missed, "denied": denied, "contradicted": contradicted,
                  "budget_factor": round(budget.factor, 4),
                  "missing_claims": {m.key_fact: m.missing for m in missing}})
