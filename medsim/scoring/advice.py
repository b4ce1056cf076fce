"""advice: the answer's management does not refuse, or leave out entirely, what the case's gold
advice (``gold.advice``, free text) recommends.

A consultation answer with the right diagnosis and wrong advice is a wrong answer: 暂不需要他汀 for
a patient whose gold starts atorvastatin, 无需抗菌药物 for a cystitis the gold treats with
fosfomycin, 暂不需要处理 where the gold corrects anaemia and plans an operation. Read offline, by
meaning (medsim.text.match):

- the gold's *anchors* are the drugs, procedures and tests its advice recommends outright — not
  those it names only under a condition (必要时, 如…无效…考虑, 若出现…) nor those it refuses
  (停用氨茶碱, 活检前不宜使用激素, 无需常规尿培养);
- an anchor the answer refuses (不需要, 暂不, 无需, 不用 …) in any of its written forms, its drug
  class included (他汀 for 阿托伐他汀, 抗菌药物 for 磷霉素), and nowhere recommends, is refused advice;
- an answer whose advice recommends none of the gold's drugs or procedures at any grain (the drug,
  its class, a synonym) leaves out the treatment the case turns on. Another drug of the same class
  still counts (a different but acceptable option), and so does another drug the case does not
  name at all only when the gold itself has no drug (then the procedures decide).

Meant as a gate (``gate: true, weight: 0``): either finding charges ×0.25; otherwise 1. A case
without gold advice is not scored. Keyword stuffing gains nothing here: a gate only takes away.
"""

from __future__ import annotations

import re

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_text, gold_value, no_gold, unparsed
from medsim.text.match import case_terms_in, concept_forms, find_point, names_a_drug_of

NAME = "advice"
WRONG_ADVICE_CHARGE = 0.25
ANCHOR_TYPES = ("drug", "procedure", "exam")
TREATMENT_TYPES = ("drug", "procedure")
_SENTENCE = re.compile(r"[；;。\n！!]")
# a recommendation under a condition: the answer may leave it out or put it off
_CONDITION = (r"必要时|若|如果|如出现|出现|时[，,]|时|者|无效|不佳|不能耐受|复发|反复|考虑|可(?!能)|需进一步|择一|按需|"
              r"视情况|酌情|注意|警惕|告知|缓解后|之后|阴性后|禁忌|同用|合用|联用|同时使用")
_CONDITIONAL = re.compile(_CONDITION + (
    # a switch or a stop: the drug named first is the one given up (将氢氯噻嗪换为氯沙坦)
    r"|换为|换成|改为|改用|停用|停止|减停|不宜|不要|避免|无需|不用"))
_CONDITIONED = re.compile(_CONDITION)

_PRESCRIBED = re.compile(r"[\u4e00-\u9fff]{2,}(?:片|栓|胶囊|颗粒|乳膏|软膏|注射液|喷雾剂|滴眼液)?\s*\d+(?:\.\d+)?\s*(?:mg|g|μg|ug|毫克|克|IU|U)(?![a-z])", re.I)


def gold_anchors(advice: str, types: tuple[str, ...] = ANCHOR_TYPES) -> list[str]:
    """The terms the gold advice recommends outright (affirmed in a sentence without a condition)."""
    out: list[str] = []
    for sentence in _SENTENCE.split(advice or ""):
        if not sentence.strip() or _CONDITIONAL.search(sentence):
            continue
        for term in case_terms_in(sentence, types):
            if term not in out and find_point(sentence, "|".join(sorted(concept_forms(term)) or [term])).met:
                out.append(term)
    return out


_CLAUSE = re.compile(r"[；;。\n！!，,（）()]")
_SWITCH = re.compile(r"(?:将|把)?(?P<old>[^，,；;。]{2,20}?)(?:换为|换成|改为|改用|替换为)")


# a stop said of what the clause names (自行服用的氨茶碱先停掉, 停用布洛芬): the drug is given up, not advised
_STOPPED = re.compile(r"停掉|停了|停用|停服|停止(?:使用|服用)?|先停|暂停|不再(?:吃|用|服)|别再(?:吃|用)")


def _refused_in(text: str) -> set[str]:
    """The drugs and procedures a text itself refuses, stops or switches away from, wherever it says so."""
    out: set[str] = set()
    for clause in _CLAUSE.split(text or ""):
        m = _SWITCH.search(clause)
        stopped = _STOPPED.search(clause) is not None
        for term in case_terms_in(clause, TREATMENT_TYPES):
            hit = find_point(clause, _forms(term))
            if (m is not None and term in case_terms_in(m.group("old"), TREATMENT_TYPES) or stopped
                    or not hit.met and hit.negated):
                out.add(term)
    return out


def gold_refusals(advice: str) -> list[str]:
    """The drugs and procedures the gold advice refuses or gives up (停用自行服用的氨茶碱, 不用抗生素,
    将氢氯噻嗪换为氯沙坦) and nowhere recommends: an answer that recommends one does what the case
    says not to. A class refused while a member is recommended (不要两种NSAID合用 beside 塞来昔布) is
    not a refusal of the member."""
    out: list[str] = []
    for clause in _CLAUSE.split(advice or ""):
        if _CONDITIONED.search(clause):
            continue  # refused only under a condition, or refused in combination (不与X同用)
        for term in case_terms_in(clause, TREATMENT_TYPES):
            hit = find_point(clause, term)
            switched = (m := _SWITCH.search(clause)) is not None and term in case_terms_in(m.group("old"), TREATMENT_TYPES)
            if (switched or not hit.met and hit.negated) and term not in out:
                out.append(term)
    recommended = gold_anchors(advice, TREATMENT_TYPES)
    return [t for t in out if t not in recommended
            and not any(find_point(t, _forms(r)).met or find_point(r, _forms(t)).met for r in recommended)]


def _forms(term: str) -> str:
    return "|".join(sorted(concept_forms(term), key=len, reverse=True) or [term])


def refused(text: str, anchors: list[str]) -> list[str]:
    """The anchors the text refuses in one of their forms and nowhere recommends."""
    out = []
    for term in anchors:
        hit = find_point(text, _forms(term))
        if not hit.met and hit.negated:
            out.append(term)
    return out


def recommends_any(text: str, advice: str, common: frozenset[str] = frozenset()) -> bool:
    """Whether the text recommends one of the gold's drugs or procedures at any grain — the drug,
    its class, a synonym; another drug of one of the gold drugs' classes counts too. ``common``:
    terms so many cases' advice holds (随访, 复查) that they are nobody's treatment."""
    terms = [t for t in case_terms_in(advice, TREATMENT_TYPES) if t not in common]
    if not terms:
        return True
    if any(find_point(text, _forms(t)).met for t in terms):
        return True
    if any(t in case_terms_in(t, ("procedure",)) for t in terms) and find_point(text, _OPERATION).met:
        return True  # an operation named another way (Lichtenstein修补, TAPP, 得做手术补上) is the gold's operation
    drugs = {t for t in terms if t in case_terms_in(t, ("drug",))}
    return bool(drugs) and names_a_drug_of(text, drugs) and not refused(text, sorted(drugs))


# an operation advised in any words: the case's gold names one technique, a surgeon's answer may name another
_OPERATION = "手术|修补|切除术|腹腔镜|微创|术式|开刀"

_COMMON: dict[tuple[int, str], frozenset[str]] = {}


def _common_terms(inp: ScoreInput, field: str) -> frozenset[str]:
    """Treatment terms a quarter or more of the scenario's cases name in their gold advice."""
    pool = inp.services.get("case_pool") or []
    if len(pool) < 8:
        return frozenset()
    key = (id(pool), field)
    if key not in _COMMON:
        df: dict[str, int] = {}
        for case in pool:
            for t in set(case_terms_in(str(case.gold.get(field) or ""), TREATMENT_TYPES)):
                df[t] = df.get(t, 0) + 1
        if len(_COMMON) > 16:
            _COMMON.clear()
        _COMMON[key] = frozenset(t for t, n in df.items() if n * 4 >= len(pool))
    return _COMMON[key]


@scorer(NAME, config=("field", "answer_field"))
def score_advice(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = inp.config.get("field", "advice")
    advice = gold_value(inp, field)
    if not isinstance(advice, str):
        return no_gold(NAME, f"gold.{field}")
    text = answer_text(inp, inp.config.get("answer_field", field))
    anchors = gold_anchors(advice)
    denied = refused(text, anchors)
    own_refusals = _refused_in(text)
    against = [t for t in gold_refusals(advice) if t not in own_refusals and find_point(text, _forms(t)).met]
    # a prescription the lexicon does not know (a drug with a dose) is still a treatment given
    missing = not recommends_any(text, advice, _common_terms(inp, field)) and not _PRESCRIBED.search(text)
    reasons = []
    if denied:
        reasons.append("拒绝了本例应做的处理：" + "；".join(denied) + f"，×{WRONG_ADVICE_CHARGE}")
    if against:
        reasons.append("建议了本例明确不应做的处理：" + "；".join(against) + f"，×{WRONG_ADVICE_CHARGE}")
    if missing:
        reasons.append(f"建议中没有本例的任何药物或处置（{'、'.join(case_terms_in(advice, TREATMENT_TYPES)[:6])}）"
                       f"，×{WRONG_ADVICE_CHARGE}")
    value = WRONG_ADVICE_CHARGE if denied or missing or against else 1.0
    return Score(NAME, value, reasons or ["建议未拒绝或遗漏本例的处理"],
                 {"anchors": anchors, "refused": denied, "no_treatment": missing,
                                                          "against_gold": against})
