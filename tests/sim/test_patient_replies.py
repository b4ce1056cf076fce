"""Replies a physician accepts, on the bundled cases the issue found wanting (tri-001 chest pain,
con-031 hepatitis B, inp-26 pancreatitis after menopause, tri-016 fever after chemotherapy): the
record is told, never contradicted; what a patient knows about themselves is never 不清楚."""

from __future__ import annotations

import re

import pytest

from medsim.scenario.registry import get_scenario
from medsim.sim import lay, textlink, vocab
from medsim.sim.patient_rule import RulePatient

UNSURE = re.compile(r"不清楚|不知道|没注意|说不好|记不清|说不准")


def patient(scenario: str, case_id: str, **persona) -> RulePatient:
    loaded = get_scenario(scenario)
    spec = loaded.scenario.patient
    if persona:
        spec = spec.model_copy(update={"persona": spec.persona.model_copy(update=persona)})
    p = RulePatient(spec, loaded.case(case_id), seed=0)
    p.opening_sync()
    return p


def ask(scenario: str, case_id: str, question: str) -> str:
    return patient(scenario, case_id).reply_sync(question).text


def test_family_history_matched_by_meaning():
    # his father died of 心梗: 心脏病 covers it, and the answer names it
    reply = ask("triage", "tri-001", "家里有人有心脏病吗？")
    assert reply.startswith("有") and "心梗" in reply and "父亲" in reply
    # nobody in con-031's family had heart disease: not claimed, and named as asked
    reply = ask("consultation", "con-031", "家里有人有心脏病吗？")
    assert "心脏病" in reply and not reply.startswith("有")


def test_the_record_is_told_not_contradicted():
    assert "胃口有点差" in ask("consultation", "con-031", "吃饭咋样？胃口好不？")  # 食欲稍差
    assert "速效救心丸" in ask("triage", "tri-001", "来之前吃过啥药没？管用不？")  # a medicine before coming
    assert "乳腺癌" in ask("triage", "tri-016", "做过手术没？") and "手术" in ask("triage", "tri-016", "做过手术没？")
    smoke = ask("triage", "tri-001", "抽烟不？一天抽几包？")
    assert "40年" in smoke and "20根" in smoke  # 吸烟40年，每日20支: the amount asked is told


def test_pain_severity_is_the_patients_to_tell():
    reply = ask("triage", "tri-001", "疼得厉害不？要是满分10分，您打几分？")
    assert "8分" in reply and not UNSURE.search(reply)  # pain_score 8 lives in the vitals


def test_own_history_is_never_unknown():
    for case_id in ("tri-001", "tri-016"):
        for question in ("干啥工作的？", "睡觉怎么样？", "大便小便都正常不？", "做过手术没？住过院没？", "喝酒不？"):
            reply = ask("triage", case_id, question)
            assert not UNSURE.search(reply), (case_id, question, reply)
    assert "退休" in ask("triage", "tri-001", "干啥工作的？") and "工人" in ask("triage", "tri-001", "干啥工作的？")
    # two years after menopause, pregnancy is out of the question, and she says why
    for scenario, case_id in (("diagnosis", "inp-26"), ("triage", "tri-016")):
        reply = ask(scenario, case_id, "有没有怀孕的可能？")
        assert "不可能" in reply and "绝经" in reply


def test_cause_and_aggravating_factor_are_told_apart():
    cause = ask("triage", "tri-001", "当时在干啥？有啥诱因没？")
    worse = ask("triage", "tri-001", "啥情况下会更厉害？")
    assert "搬重物" in cause
    assert "搬重物" not in worse  # what brought it on is not what makes it worse


def test_record_jargon_is_said_in_lay_words():
    for question in ("恶心吐了没？吐的啥？", "怎么着能好受点？", "还有别的想跟我说的没？"):
        reply = ask("diagnosis", "inp-26", question)
        assert not re.search(r"胃内容物|抱膝位", reply), reply
    reply = ask("consultation", "con-031", "还有别的不舒服吗？皮肤眼睛黄不黄？")
    assert not re.search(r"巩膜|黄染", reply), reply
    assert "吐" in ask("diagnosis", "inp-26", "吐了几次？")


def test_how_long_is_not_how_old():
    reply = patient("triage", "tri-001").reply_sync("疼了有多大一会儿了？")
    assert reply.topics == ["duration"] and "2小时" in reply.text and "62岁" not in reply.text


def test_compound_questions_are_answered_part_by_part():
    reply = patient("triage", "tri-016").reply_sync("嗓子眼疼不疼？咳不咳？有痰没？")
    assert set(reply.meta["symptoms"]) == {"咽痛", "咳嗽", "咳痰"}
    assert "嗓子疼" in reply.text and "咳嗽" in reply.text and "痰" in reply.text and "没太听明白" not in reply.text


def test_persona_tails_are_rare_and_never_the_answer():
    p = patient("triage", "tri-001")  # the triage persona is anxious
    questions = ["哪里不舒服？", "什么时候开始的？", "哪里疼？", "怎么个疼法？", "往别处窜吗？", "有没有出汗？", "恶心吗？",
                 "吐了没有？", "以前有这样过吗？", "有高血压吗？", "有糖尿病吗？", "吃什么药？", "过敏吗？", "抽烟吗？",
                 "喝酒吗？", "家里人有什么病？", "做什么工作的？", "多大年纪？", "来之前吃药了吗？", "现在还疼吗？"]
    replies = [p.reply_sync(q).text for q in questions]
    tails = [r for r in replies if lay.has_tail(r)]
    assert len(tails) <= len(replies) // 10
    for reply in tails:
        assert not any(reply == t for t in lay.PERSONA_TAILS)  # a tail follows an answer


def _dialogue_cases():
    for scenario in ("triage", "consultation"):
        loaded = get_scenario(scenario)
        for case in loaded.cases:
            yield loaded.scenario, case


@pytest.mark.parametrize("scenario,case", list(_dialogue_cases()), ids=lambda x: getattr(x, "id", ""))
def test_a_symptom_the_record_affirms_is_never_denied(scenario, case):
    """Every symptom the hpi records as present, asked by name (有没有X？), is not answered 没有X."""
    hpi = case.hpi or ""
    for clause in textlink.clauses(hpi):
        for finding in textlink.findings(clause):
            if finding.polarity != "present" or finding.family or finding.term not in vocab.SYMPTOMS:
                continue
            name = vocab.SYMPTOMS[finding.term][0]
            p = RulePatient(scenario.patient, case, seed=0)
            reply = p.reply_sync(f"有没有{name}？")
            if finding.term in reply.meta["symptoms"]:
                assert not reply.text.startswith(("没有" + name, "没" + name)), (case.id, finding.term, reply.text)
