"""summary_diagnosis: the diagnosis a written summary states is the record's.

A discharge summary that copies the record faithfully but writes 出院诊断：阿米巴肝脓肿 for a
Klebsiella abscess, 急性单纯性阑尾炎 for a suppurative one, or the wrong side, carries most of the
reference's words and facts and one error a physician would not sign. Meant as a gate
(``gate: true, weight: 0``): when the summary's diagnosis section names no diagnosis that is the
record's primary diagnosis (its disease, side and qualifiers, read as the extraction scorer reads a
primary diagnosis) and its first diagnosis is another disease the lexicon knows, or the primary one
with another side or qualifier, the answer is charged ×0.25. A summary with no diagnosis section,
or whose first diagnosis is written in a form the lexicon does not know (右乳IDC), is not judged
here: an unread abbreviation is no evidence of an error. A secondary diagnosis listed beside the
right primary one is the fact checker's to judge.
"""

from __future__ import annotations

import re
from typing import Any

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_text
from medsim.scoring.diagnosis_match import BRACKETED
from medsim.scoring.extraction import diagnosis_credit
from medsim.text.lexicon import get_lexicon
from medsim.text.match import concepts_in, normalize

NAME = "summary_diagnosis"
WRONG_DIAGNOSIS_CHARGE = 0.25

# the section a summary states its diagnoses in, up to the next section heading
_SECTION = re.compile(r"(?:出院诊断|最终诊断|诊断)\s*(?:[】\]]\s*[：:]?|[：:])\s*(.+?)(?=【|\n\s*\n|(?:出院医嘱|医嘱|出院情况|诊治经过|诊疗经过|"
                      r"入院情况|随访|出院带药)\s*[】\]]?\s*[：:]|$)", re.S)
_ENUMERATOR = re.compile(r"^\s*(?:\d+|[一二三四五六七八九十])\s*[.、．)）]\s*")


def _top_level_parts(text: str) -> list[str]:
    """The section split at separators outside brackets: 急性胰腺炎（胆源性，轻症）；胆囊结石 → two."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "（(":
            depth += 1
        elif ch in "）)":
            depth = max(0, depth - 1)
        if depth == 0 and ch in "；;，,、。\n":
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p for p in (_ENUMERATOR.sub("", x).strip() for x in parts) if normalize(p)]


def stated_diagnoses(text: str) -> list[str]:
    """The diagnoses listed in the first diagnosis section of ``text``, in order."""
    m = _SECTION.search(text or "")
    return _top_level_parts(m.group(1)) if m else []


# reasons of diagnosis_credit that say the primary diagnosis was written with an error
_STATED_WRONG = ("wrong side", "conflicting qualifier", "excluded qualifier", "qualifier")


def _names_a_disease(diagnosis: str) -> bool:
    lex = get_lexicon()
    return any(lex.type_of(c) == "disease" for c in concepts_in(BRACKETED.sub("", diagnosis)))


def _gold(case: Any) -> tuple[str | None, Any]:
    gold = case.gold if isinstance(case.gold, dict) else {}
    return gold.get("primary_diagnosis"), gold.get("diagnosis")


@scorer(NAME, config=())
def score_summary_diagnosis(inp: ScoreInput) -> Score:
    primary, alternatives = _gold(inp.case)
    if not primary:
        return Score(NAME, None, ["本例未给出主要诊断"], {"skipped": "case gives no primary diagnosis"})
    listed = stated_diagnoses(answer_text(inp))
    if not listed:
        return Score(NAME, None, ["小结未写诊断部分：不在此判"], {"skipped": "no diagnosis section"})
    judged = [(d, *diagnosis_credit(d, primary, alternatives, inp.case.full_record_text())) for d in listed]
    if any(credit >= 1.0 for _, credit, _ in judged):
        return Score(NAME, 1.0, [f"诊断与病历一致：{primary}"], {"listed": listed})
    first, _, why = judged[0]
    if not (why.startswith(_STATED_WRONG) or _names_a_disease(first)):
        return Score(NAME, None, [f"小结诊断“{first}”未能读出：不在此判"], {"listed": listed, "unread": first})
    return Score(NAME, WRONG_DIAGNOSIS_CHARGE,
                 [f"小结诊断“{first}”不是病历的主要诊断“{primary}”（{why}），×{WRONG_DIAGNOSIS_CHARGE}"],
                 {"listed": listed, "why": why})
