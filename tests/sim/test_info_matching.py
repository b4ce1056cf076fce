"""Key-fact matching and the information-gathering account: tolerant of rewording, strict on
substance; a follow-up that draws out something new is not a repeat; a fact no turn could
convey leaves the fraction."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import cap_case, spec  # noqa: E402

from medsim.sim.info import fact_matches, info_gathering, reachable  # noqa: E402
from medsim.sim.patient_rule import RulePatient  # noqa: E402
from medsim.sim.transcript import Transcript  # noqa: E402


def test_tolerant_of_rewording():
    assert fact_matches("无乙肝病史", "否认乙肝、丙肝病史")  # 否认 ~ 无
    assert fact_matches("无甲状腺手术或放射碘史", "否认甲状腺手术及放射性碘治疗史")  # joining words, 史
    assert fact_matches("哮喘病史10年", "支气管哮喘10年")  # a name at least as specific
    assert fact_matches("伴恶心食欲差", "伴食欲下降、恶心")  # lexicon synonyms, any order
    assert fact_matches("既往类似发作2次", "既往曾有2次类似发作")
    assert fact_matches("透析漏透2次", "透析漏了两次")  # a count written in characters
    assert fact_matches("晨僵超过1小时", "晨僵，持续1个多小时")  # 1个多小时 is 1小时
    assert fact_matches("一侧搏动性头痛", "反复发作头痛\n多位于一侧额颞部\n呈搏动性")  # a compound told in parts


def test_strict_on_substance():
    assert not fact_matches("无结直肠癌家族史", "无")  # a bare denial conveys no particular fact
    assert not fact_matches("胎动正常", "足背动脉搏动正常")  # one character off is another finding
    assert not fact_matches("咳嗽2天", "咳嗽2个月")  # a number with another unit
    assert not fact_matches("发热3天最高39.5℃", "发热3天，最高39.2℃")
    assert not fact_matches("父亲过敏性鼻炎", "母亲有过敏性鼻炎")  # another relative
    assert not fact_matches("糖尿病史", "母亲患糖尿病")  # a relative's illness is not the patient's
    assert not fact_matches("无喘息胸闷", "出现胸闷、喘息")  # the other polarity
    assert not fact_matches("一侧搏动性头痛", "头痛")  # a general word does not say the specific one
    assert not fact_matches("突发下腹撕裂样痛", "突然胸背部撕裂样痛")  # another site
    assert not fact_matches("排除妊娠", "尿妊娠试验：阳性")  # a denied fact needs a denial


@pytest.mark.xfail(reason="text layer: 无异常阴道流血 is read as 阴道流血 present (medsim.text negation; "
                          "reported to the lead, the simulator keeps no negation pass of its own)", strict=False)
def test_denial_with_a_modifier_between():
    assert not fact_matches("少量阴道流血", "无异常阴道流血")


def play(case, questions: list[str]) -> Transcript:
    """A transcript as the episode loop writes it, the patient's meta included."""
    patient = RulePatient(spec(), case, seed=0)
    t = Transcript("consultation", case.id)
    opening = patient.opening_sync()
    t.add("patient", opening.text, disclosed=opening.disclosed, sim=opening.meta)
    for q in questions:
        t.add("clinician", q)
        r = patient.reply_sync(q)
        t.add("patient", r.text, topics=r.topics, disclosed=r.disclosed, sim=r.meta)
    t.add("clinician", '{"diagnosis": "社区获得性肺炎"}')
    t.final_text = t.turns[-1].text
    return t


def test_a_fact_told_over_two_turns_counts_once_both_halves_are_told():
    case = cap_case()
    t = play(case, ["有没有发烧？", "发烧最高多少度？"])
    info = info_gathering(case, t)
    assert "受凉后发热3天最高39.2℃" in info["elicited"]
    # never asked, never told: not elicited, however close the topic
    assert "咳黄色黏痰" in info["missed"] and "吸烟5年" in info["missed"]


def test_a_follow_up_that_draws_out_more_is_not_a_repeat_and_the_answer_is_not_a_question():
    case = cap_case()
    t = play(case, ["有什么诱因吗？", "请问：受凉后发热3天最高39.2℃？", "有什么诱因吗？"])
    info = info_gathering(case, t)
    assert "体温最高39.2℃" in t.turns[4].meta["disclosed"]  # the follow-up drew out the maximum
    assert [r["key"] for r in info["repeated"]] == ["triggers"]  # only the last, which told nothing new
    assert info["repeated"][0]["turn"] == 5
    assert len(info["questions_per_turn"]) == 3  # the final answer is not counted as a question


def test_a_fact_no_turn_could_convey_leaves_the_fraction():
    case = cap_case().model_copy(update={"key_facts": ["受凉后发热3天最高39.2℃", "外院WBC 13.8×10^9/L"]})
    assert not reachable(case, "外院WBC 13.8×10^9/L")  # a result in the hpi, and no test returns it
    assert reachable(case, "右下肺湿啰音")  # the examination reveals it
    info = info_gathering(case, play(case, ["有没有发烧？"]))
    assert info["unreachable"] == ["外院WBC 13.8×10^9/L"]
    assert info["elicited"] == ["受凉后发热3天最高39.2℃"] and info["fraction"] == 1.0
