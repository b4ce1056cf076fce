"""fact_consistency reads every clinician turn; coverage reads the answer."""

from __future__ import annotations

from medsim.scenario.schema import Scenario
from medsim.scoring.base import ScoreInput, get_scorer
from medsim.sim.transcript import Transcript


def _inp(case, turns: list[str], answer=None, config=None) -> ScoreInput:
    scenario = Scenario(id="record_summary", name="病历摘要", name_en="summary", dimension="summary",
                        kind="single_turn", cases=[case], clinician={"instructions": "写摘要"},
                        scoring=["fact_consistency"])
    t = Transcript(scenario_id="record_summary", case_id=case.id)
    for text in turns:
        t.add("clinician", text)
    t.final_text = turns[-1] if turns else None
    t.answer = answer if answer is not None else t.final_text
    return ScoreInput(scenario=scenario, case=case, transcript=t, config=config or {})


def test_fact_consistency_checks_all_turns_and_skips_questions(appendicitis):
    score = get_scorer("fact_consistency")(_inp(appendicitis, [
        "您好，请问有没有恶心、呕吐？",  # a question asserts nothing
        "您的白细胞是21.3×10^9/L，有点高。",  # a wrong value in an early turn still counts
        "最终答案：58岁男性，右下腹痛3天，伴发热，考虑急性阑尾炎。",
    ]))
    assert 0 < score.value < 1
    assert [p["status"] for p in score.details["problems"]] == ["value_mismatch"]


def test_fact_consistency_skips_structured_answers(appendicitis):
    score = get_scorer("fact_consistency")(_inp(appendicitis, ['{"level": 3, "department": "普外科"}'],
                                                answer={"level": 3, "department": "普外科"}))
    assert score.value is None and score.error is None and score.details["skipped"]  # not applicable, not an error


def test_coverage(appendicitis):
    score = get_scorer("coverage")(_inp(appendicitis, ["58岁男性，右下腹痛3天，否认高血压。"]))
    assert score.value == 2 / 3
    assert score.details["missed"] == ["WBC 12.3×10^9/L"]


def test_fact_consistency_nothing_checkable_is_not_scored(appendicitis):
    # prose with no checkable claim (0/0) must not earn full marks: a model that says nothing is not faithful
    score = get_scorer("fact_consistency")(_inp(appendicitis, ["您好，我是今天的接诊医生。建议您完善相关检查。"]))
    assert score.value is None
    assert any("nothing checkable" in r for r in score.reasons)
    assert score.details["counts"]["supported"] == 0
    assert "not_checked" in score.details and "skipped" in score.details


def test_fact_consistency_lists_an_invented_diagnosis(appendicitis):
    score = get_scorer("fact_consistency")(_inp(appendicitis, ["58岁男性，右下腹痛3天。诊断：急性胆囊炎。"]))
    assert 0 < score.value < 1
    assert [(p["status"], p["kind"]) for p in score.details["problems"]] == [("unsupported", "diagnosis")]


def test_what_the_patient_said_in_the_dialogue_is_evidence(appendicitis):
    """A clinician repeating the patient's own words invents nothing, even where the record lacks them."""
    claim = "您说今天开始有腰痛，这个要注意。"
    alone = get_scorer("fact_consistency")(_inp(appendicitis, [claim]))
    inp = _inp(appendicitis, [claim])
    inp.transcript.add("patient", "医生，我今天开始有点腰痛。")
    told = get_scorer("fact_consistency")(inp)
    assert alone.value < 1 and told.value == 1.0
