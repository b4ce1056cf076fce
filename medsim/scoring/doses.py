"""doses: the answer doses a drug the way the case's own gold and reference answer dose it.

An answer that names the right drug at another dose or frequency (替格瑞洛90mg每日一次 where the
gold says 90mg每日两次; 阿莫西林0.5g每日1次 for 0.5–1g q8h) carries the right name and a wrong
order. Meant as a gate (``gate: true, weight: 0``): such an answer is charged ×0.25. A drug the
case gives no dose for is not judged, a dose inside a range the case gives agrees with it, and a
weight-based dose or a tablet count is not compared (medsim.text.doses says why). With
``medications: true`` (medication consults) the record's prescriptions are a standard too.

A dose past a label ceiling that holds for every patient (medsim.text.dose_limits: 利伐沙班
40mg/d; 对乙酰氨基酚500mg for a 16kg child) is charged the same, for drugs the case does not dose
too, unless the case's own gold or reference writes such a dose for that drug (it knows its
indication better than a general ceiling).

So is a course the case gives a drug said another length (medsim.text.courses: 替格瑞洛吃满1个月 for
至少12个月; 补锌吃3天 for 10～14天; 他汀服用3个月 for 长期服用): the right drug for the wrong time.
"""

from __future__ import annotations

from typing import Any

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.text.courses import course_conflicts
from medsim.text.dose_limits import dose_breaches
from medsim.text.doses import dose_conflicts

NAME = "doses"
WRONG_DOSE_CHARGE = 0.25


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def case_dosing(case: Any) -> list[str]:
    """Where the case says how its drugs are dosed: the gold and the reference answer."""
    return _strings(case.gold) + ([case.reference_answer] if case.reference_answer else [])


def _answer_text(inp: ScoreInput) -> str:
    ans = inp.transcript.answer
    texts = _strings(ans) if ans is not None else []
    return "\n".join(texts) or (inp.transcript.final_text or "")


def _patient(case: Any) -> dict[str, float | None]:
    vitals, demo = getattr(case, "vitals", None), getattr(case, "demographics", None)
    return {"weight_kg": vitals.weight_kg if vitals else None, "age_years": demo.age_years if demo else None}


def ceiling_breaches(answer: str, case: Any, reference: list[str]) -> list[str]:
    """What the answer doses past a general ceiling, for drugs the case's own texts keep under it."""
    patient = _patient(case)
    case_breaks = {b.dose.drug for text in reference for b in dose_breaches(text, **patient)}
    return [f"{b.dose.drug} {b.dose.text}（{b.why}）" for b in dose_breaches(answer, **patient)
            if b.dose.drug not in case_breaks]


@scorer(NAME, config=("medications",))
def score_doses(inp: ScoreInput) -> Score:
    reference = case_dosing(inp.case)
    if inp.config.get("medications") and inp.case.medications:
        # a medication consult asks about the prescription the record gives (今日开阿莫西林0.5g每8小时1次):
        # it is the standard. Not a discharge, where the medicines before admission may rightly change.
        reference.append(inp.case.medications)
    answer = _answer_text(inp)
    said = [f"{d.drug} {d.text}（本例：{'、'.join(r.text for r in refs)}）"
            for d, refs in (dose_conflicts(answer, reference, _patient(inp.case)["weight_kg"]) if reference else [])]
    said += [s for s in ceiling_breaches(answer, inp.case, reference) if s.split(" ")[0] not in
             {c.split(" ")[0] for c in said}]
    # the right dose for the wrong length of time is a wrong order too
    said += [f"{c.drug} {c.text}（本例：{'、'.join(r.text for r in refs)}）"
             for c, refs in (course_conflicts(answer, reference) if reference else [])
             if c.drug not in {s.split(" ")[0] for s in said}]
    if not said:
        if not reference:
            return Score(NAME, None, ["本例未给出剂量；未见超过说明书上限的剂量"], {"skipped": "case gives no dosing"})
        return Score(NAME, 1.0, ["剂量与频次未与本例标准矛盾"], {"conflicts": []})
    return Score(NAME, WRONG_DOSE_CHARGE, ["剂量、频次或疗程与本例标准不符：" + "；".join(said) + f"，×{WRONG_DOSE_CHARGE}"],
                 {"conflicts": said})
