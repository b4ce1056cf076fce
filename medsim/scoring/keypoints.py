"""keypoints: how many gold points (``gold.key_points``, each ``alt1|alt2``) the answer states.

A point is met when an alternative is stated and affirmed (medsim.text.match.find_point): by
meaning within the rules — equivalent instructions and times (明早 = 明天早上, 马上 = 立即),
quantities in base units (4g == 4000mg), prohibitions of speech (别, 千万别, 不要); not where the
answer negates it ("不要饭后服" does not meet 饭后), and not where one sentence both affirms and
denies it ("可能需要复查，也可能不需要复查" is a self-contradiction). A prohibition point (避免饮酒)
is met by the act denied (不要喝酒). Optional points (``{any: …, optional: true}``) add nothing
when absent.

Padding is charged: an answer far longer than the task needs, or naming far more clinical terms
than the reference (a dump of every drug and test), has its score shrunk in proportion
(medsim.text.match.answer_budget). So is systematic self-contradiction: when most of the points it
mentions are also denied, the answer commits to nothing.

Points are weighted by how specific they are to the case (``specificity_weights``: a point half the
scenario's cases share, such as 定期复查, weighs about a quarter of one only this case has), so an
answer made of the commonest advice earns little and a complete answer still earns 1.

With ``engage: true`` (medication consults) an answer that names none of the drugs of the case's
question and record, nor any clinical term of the question, nor meets an alternative only this case
and at most one other hold (180mg, 1.8袋), is charged (×0.25): it answers some other question. With ``engage: case`` (discharge) one that meets none of the case's specific points
(shared by at most 3 cases of the pool) and names nothing of the case's own diagnosis, treatment or
points that few cases share (胆总管结石, T管, ERCP) — only the commonest advice — is charged the same.
A regimen point (每日一次, 连用3天, 最多3片, 间隔4小时, 每周一次) that the answer states with another
number of the same kind (一天两次; 连吃7–10天; 每天吃) is a wrong regimen: ×0.25
(medsim.text.regimen). Points are met by what the answer says itself: stretches it copies word for word from the case
(the question, the record, what the patient or the oracle said; 16+ characters) do not count.

value = Σ weight of met required points / Σ weight of required points × budget factor.
"""

from __future__ import annotations

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import (
    answer_text,
    case_sources,
    case_specific_concepts,
    elements,
    no_gold,
    specificity_weights,
    unique_alternatives,
    unparsed,
)
from medsim.text.adherence import stops_on_own
from medsim.text.match import (
    alternatives,
    answer_budget,
    case_terms_in,
    concepts_in,
    drugs_in,
    find_point,
    names_a_drug_of,
    says_otherwise,
    strip_quoted,
)
from medsim.text.regimen import regimen_conflict

NAME = "keypoints"
REGIMEN_CHARGE = 0.25


def check_points(text: str, points: list[str]) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """(met, missed, negated-only mentions by point)."""
    met, missed, negated = [], [], {}
    for point in points:
        hit = find_point(text, point)
        if hit.met:
            met.append(point)
        else:
            missed.append(point)
            if hit.negated:
                negated[point] = hit.negated
    return met, missed, negated


@scorer(NAME, config=("answer_field", "field", "max_chars", "engage"))
def score_keypoints(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = inp.config.get("field", "key_points")
    els = elements(inp.case.gold.get(field))
    required = [e.text for e in els if not e.optional]
    optional = [e.text for e in els if e.optional]
    if not required:
        return no_gold(NAME, f"gold.{field}")
    full_text = answer_text(inp, inp.config.get("answer_field", field))
    # points are met by what the answer says, not by what it copies back from the case
    text, quoted = strip_quoted(full_text, case_sources(inp))
    met, missed, negated = [], [], {}
    contradicted = []
    for point in required + optional:
        hit = find_point(text, point)
        if hit.met:
            met.append(point)
        else:
            if point in required:
                missed.append(point)
            if hit.negated:
                negated[point] = hit.negated
            if hit.contradicted:
                contradicted.append(point)
    # a regimen point said with another number (一天两次 for 每日一次, 连吃7–10天 for 3天, 每天吃 for 每周一次)
    # is a wrong regimen, not a missing one
    otherwise = {p: kind for p in missed if (kind := regimen_conflict(text, alternatives(p)))}
    # or said the other way round: 无需复查头颅CT for 复查头颅CT; 可立即恢复剧烈运动 for 避免剧烈运动
    otherwise |= {p: f"opposite: {alt}" for p in missed if p not in otherwise and (alt := says_otherwise(text, p))}
    # a point met by one alternative while the act another forbids is allowed (泼尼松… 瘀斑消退后可自行停药
    # for 泼尼松|不要自行停药): the instruction is given the wrong way round
    # (not when the prohibition itself is said too: 方可考虑停药…切勿自行停药 forbids it on one's own)
    otherwise |= {p: f"opposite: {alt}" for p in met if p in required
                  and (alt := says_otherwise(text, p, acts_only=True)) and not find_point(text, alt).met}
    # an adherence point (降压药|按时服药|坚持服药) met while the answer lets the patient stop on their own
    # (血压降到正常后可以自行停用): the instruction is given the wrong way round
    otherwise |= {p: f"opposite: {alt}" for p in met if p in required and p not in otherwise
                  and (alt := stops_on_own(text, p))}
    met_required = [p for p in met if p in required]
    weights = dict(zip(required, specificity_weights(inp, field, [e for e in els if not e.optional]), strict=True))
    rate = sum(weights[p] for p in met_required) / sum(weights.values())
    budget = answer_budget(full_text, inp.case.reference_answer, max_chars=inp.config.get("max_chars"))
    value = rate * budget.factor
    engaged = True
    if inp.config.get("engage") == "case":
        # a discharge instruction says at least one thing only a few patients get (this operation's
        # restriction, this drug's monitoring): one that meets only the points most cases share (a
        # fixed paragraph of the commonest advice) is written for anyone
        # — or, in its own words, names something of this patient's own illness and care that few
        # cases share (the diagnosis, the operation, a drug of the plan: 胆总管结石, T管, ERCP).
        # What a point was met by is what counts (the alternative written only in this case's gold:
        # 避免提重物, 胆道造影), not the point: 复查 meets 复查肝功能|胆道造影|复查 in every case.
        own_terms = case_specific_concepts(inp)
        own_drugs = {t for t in own_terms if t in drugs_in(t)}
        own_alts = unique_alternatives(inp, field, els)
        engaged = (any(find_point(text, a).met for a in own_alts) or bool(own_terms & set(case_terms_in(text)))
                   or bool(own_drugs and names_a_drug_of(text, own_drugs)) or not (own_alts or own_terms))
    elif inp.config.get("engage"):
        # the answer must be about this patient's medicines: one naming none of the drugs of the
        # question and record, nor anything the question names (a fixed paragraph of the commonest
        # advice), answers another question
        asked = drugs_in(" ".join(filter(None, [inp.case.question, inp.case.medications, inp.case.hpi])))
        topics = set(concepts_in(inp.case.question or ""))  # or what the question is about (支原体肺炎, 黑便)
        # or it says, in its own words, what only this case's gold says (180mg, 1.8袋, 每周一次 for
        # methotrexate): an answer that calls the drug 这个药 is still about it
        engaged = (not asked or names_a_drug_of(text, asked) or bool(topics & set(concepts_in(text)))
                   or any(find_point(text, a).met for a in unique_alternatives(inp, field, els)))
    if not engaged:
        value *= 0.25
    if otherwise:
        value *= REGIMEN_CHARGE
    reasons = [f"要点 {len(met_required)}/{len(required)}" + (f"（另有可选要点 {len(met) - len(met_required)}/"
                                                              f"{len(optional)}）" if optional else "")]
    if missed:
        reasons.append("未提及：" + "；".join(p.split("|")[0] for p in missed))
    if negated:
        reasons.append("被否定：" + "；".join(negated))
    if contradicted:
        reasons.append("自相矛盾（同一句既肯定又否定）：" + "；".join(p.split("|")[0] for p in contradicted))
    if not engaged:
        reasons.append("只含多数病例共有的通用要点，无本例特有要点：×0.25" if inp.config.get("engage") == "case"
                       else "未提及本例问到的任何药物：×0.25")
    if otherwise:
        reasons.append("与本例要点相反或用法说成了别的数：" + "；".join(p.split("|")[0] for p in otherwise)
                       + f"，×{REGIMEN_CHARGE}")
    if quoted:
        reasons.append(f"照抄病例/提问 {quoted} 字：不计入要点")
    if budget.factor < 1:
        reasons.append(f"冗长/堆砌扣分 ×{budget.factor:.2f}：" + "；".join(budget.reasons))
    return Score(NAME, value, reasons, {
        "met": met, "missed": missed, "negated": negated, "contradicted": contradicted, "rate": rate,
        "budget_factor": round(budget.factor, 4), "chars": budget.chars, "terms": budget.terms,
        "optional": optional, "regimen_otherwise": otherwise, "weights": {p: round(w, 3) for p, w in weights.items()}, "quoted_chars": quoted,
    })
