"""The rule patient answers from the right record content, in the first person and lay words,
says 不清楚 when the record is silent, respects the disclosure policy, never names the
diagnosis, and is deterministic for a seed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # works with or without a tests/sim/__init__.py
from patient_cases import pid_case, spec, spec_with, stemi_case  # noqa: E402

from medsim.scenario.schema import Disclosure, PatientSpec
from medsim.sim.patient import PatientReply, make_patient
from medsim.sim.patient_rule import RulePatient


def ask(patient: RulePatient, *questions: str) -> list[PatientReply]:
    return [asyncio.run(patient.reply(q, [])) for q in questions]


def diagnosis_free(text: str) -> bool:
    return not any(t in text for t in ("心肌梗死", "心梗", "ST段", "异位妊娠", "宫外孕"))


def test_factory_and_protocol():
    patient = make_patient("rule", None, stemi_case(), seed=3)
    assert patient.name == "rule"
    opening = asyncio.run(patient.opening())
    assert opening.text.startswith("医生") and "胸口疼" in opening.text
    assert "胸痛3小时" in opening.disclosed
    with pytest.raises(ValueError):
        make_patient("llm:x", None, stemi_case(), seed=0)  # no model resolver
    with pytest.raises(ValueError):
        make_patient("robot", None, stemi_case(), seed=0)


def test_answers_come_from_the_right_record_content_in_lay_words():
    p = RulePatient(spec(), stemi_case(), seed=1)
    onset, site, radiation, smoke, allergy, family = ask(
        p, "什么时候开始疼的？", "哪里疼？", "疼的时候往别处窜吗？", "抽烟吗？", "对什么药过敏吗？", "家里人有类似的病吗？")
    assert "3小时前" in onset.text and onset.fields == ["hpi"]
    assert "胸口" in site.text and "胸骨后" not in site.text  # lay, not the record's anatomy
    assert "像被东西压着" in site.text  # 压榨样 in plain words
    assert "左肩膀" in radiation.text and "窜" in radiation.text and "放射" not in radiation.text
    assert "抽烟30年" in smoke.text and smoke.fields == ["personal_history"]
    assert allergy.text.startswith("没有") and "过敏" in allergy.text
    assert "父亲" in family.text and "冠心病" in family.text
    assert any("放射" in d for d in radiation.disclosed)  # disclosed keeps the record's wording


def test_first_person_no_jargon_no_test_results():
    p = RulePatient(spec(), stemi_case(), seed=1)
    replies = ask(p, "您好，哪里不舒服？", "什么时候开始的？", "还有别的不舒服吗？", "休息能缓解吗？",
                  "做过什么检查没有？", "以前有什么病吗？")
    joined = "".join(r.text for r in replies)
    for word in ("患者", "ST段", "导联", "V1", "否认", "无明显诱因", "既往"):
        assert word not in joined, word
    assert "心电图" in replies[4].text and "结果我看不太懂" in replies[4].text  # the test done elsewhere, not its result
    assert "我" in replies[1].text


@pytest.mark.parametrize("question,expected", [
    ("有没有发烧？", "没有发烧"),  # 无发热 in the record → 没有
    ("有没有出汗？", "有"),  # 伴大汗 → yes, in lay words
    ("恶心吗？", "有"),
    ("有没有呕吐？", "没有吐"),
    ("头晕吗？", "没有头晕"),  # nowhere in the record: a standardized patient says no
])
def test_specific_symptoms_answered_with_negation(question, expected):
    (reply,) = ask(RulePatient(spec(), stemi_case(), seed=0), question)
    assert expected in reply.text, reply.text
    assert reply.topics == ["associated"]


def test_conditions_asked_by_name():
    (reply,) = ask(RulePatient(spec(), stemi_case(), seed=0), "以前有没有高血压、糖尿病？")
    assert "高血压" in reply.text and "没有糖尿病" in reply.text
    (reply,) = ask(RulePatient(spec(), pid_case(), seed=0), "有没有做过手术？")
    assert reply.text.startswith("没做过手术")  # 既往体健


def test_unknown_when_the_record_is_silent():
    case = stemi_case().model_copy(update={"personal_history": None, "demographics": None})
    p = RulePatient(PatientSpec(unknown_reply="这个我不清楚。"), case, seed=0)
    (smoke, age, sev) = ask(p, "平时抽烟吗？", "多大年纪了？", "疼得厉害吗？")
    assert "不清楚" in smoke.text and not smoke.disclosed
    assert "不清楚" in age.text
    assert ("说不好" in sev.text or "说不上来" in sev.text) and not sev.fields


def test_disclosure_policy_respected():
    # past history only on examination (an odd policy, but the patient must honour it);
    # allergies never; vitals and tests are the oracle's
    disclose = Disclosure(volunteered=["chief_complaint"], on_ask=["hpi", "personal_history"],
                          on_exam=["past_history", "vitals", "physical_exam", "tests"],
                          never=["allergies", "diagnosis", "medications"])
    p = RulePatient(spec_with(disclose), stemi_case(), seed=0)
    past, allergy, meds, bp = ask(p, "以前身体怎么样？", "对什么药过敏吗？", "平时吃什么药？", "平时血压控制在多少？")
    assert "高血压" not in past.text and not past.disclosed
    assert "过敏" not in allergy.text.replace("过敏吗", "") or "不" in allergy.text
    assert not allergy.disclosed and not meds.disclosed and "氨氯地平" not in meds.text
    assert "150" not in bp.text and not bp.disclosed


def test_volunteered_fields_join_the_opening_and_on_ask_fields_do_not():
    disclose = Disclosure(volunteered=["chief_complaint", "allergies"], on_ask=["hpi"])
    opening = asyncio.run(RulePatient(spec_with(disclose), stemi_case(), seed=0).opening())
    assert "过敏" in opening.text and "高血压" not in opening.text and "3小时前" not in opening.text


def test_never_names_the_diagnosis():
    case = stemi_case().model_copy(update={
        "hpi": "患者3小时前突发胸骨后压榨样疼痛，外院诊断为急性心肌梗死，伴大汗。当地医生说是心梗。",
        "chief_complaint": "胸痛3小时",
    })
    p = RulePatient(spec(), case, seed=0)
    replies = ask(p, "什么时候开始的？", "还有别的不舒服吗？", "以前看过医生吗？", "你觉得自己是什么病？",
                  "有没有出汗？", "你是心梗吗？")
    for r in replies:
        assert diagnosis_free(r.text), r.text
    # a secondary diagnosis the patient knows from the history is not a leak
    (past,) = ask(p, "有高血压吗？")
    assert "高血压" in past.text


def test_women_only_topics():
    (male,) = ask(RulePatient(spec(), stemi_case(), seed=0), "月经规律吗？")
    assert "男" in male.text and not male.disclosed
    men, ob = ask(RulePatient(spec(), pid_case(), seed=0), "月经规律吗？末次月经什么时候？", "生过几个孩子？")
    assert "7周前" in men.text and men.fields == ["menstrual_obstetric_history"]
    assert "生过1次" in ob.text


@pytest.mark.parametrize("persona,check", [
    ({"mood": "anxious"}, lambda t: "严重" in t or "要紧" in t or "大事" in t),
    ({"style": "vague_elderly"}, lambda t: "记" in t or "好像" in t or "想想" in t),
    ({"style": "terse"}, lambda t: t.count("，") == 0),
    ({"literacy": "low"}, lambda t: "救心的药" in t),
])
def test_persona_shapes_the_answer(persona, check):
    p = RulePatient(spec(**persona), stemi_case(), seed=2)
    texts = [r.text for r in ask(p, "休息或者含药能缓解吗？", "什么时候开始的？", "以前身体怎么样？")]
    opening = asyncio.run(p.opening()).text
    assert any(check(t) for t in texts + [opening]), texts + [opening]


def test_repeat_question_is_noticed():
    p = RulePatient(spec(), stemi_case(), seed=0)
    first, second = ask(p, "疼了多久了？", "疼了多长时间了？")
    assert "刚才说过了" in second.text and "刚才" not in first.text
    assert second.meta["repeats"] == ["duration"]


def test_deterministic_for_a_seed():
    questions = ["您好，哪里不舒服？", "什么时候开始的？", "有没有发烧？", "以前身体怎么样？", "抽烟吗？"]

    def run(seed):
        p = RulePatient(spec(mood="anxious", style="vague_elderly"), stemi_case(), seed=seed)
        return [asyncio.run(p.opening()).text] + [r.text for r in ask(p, *questions)]

    assert run(7) == run(7)
    assert any(run(s) != run(7) for s in range(8, 14))  # the seed does change the wording


def test_a_parent_speaks_for_a_young_child():
    from medsim.scenario.schema import Case, Demographics

    case = Case(
        id="child-1", source="synthetic", demographics=Demographics(sex="男", age=2),
        chief_complaint="发热半天，抽搐1次",
        hpi="（母亲代述）患儿半天前出现发热，在家自测体温39.5℃，流清涕、轻咳。10分钟前突然双眼上翻、四肢抖动，持续约2分钟自行停止。无呕吐、腹泻。",
        family_history="父亲幼时有高热惊厥史。",
        diagnosis=["单纯型热性惊厥"],
    )
    p = RulePatient(spec(mood="anxious"), case, seed=0)
    opening = asyncio.run(p.opening()).text
    onset, family, vomit, age = ask(p, "什么时候开始的？", "家里人有类似的病吗？", "有没有吐？", "孩子多大了？")
    assert opening.startswith("医生，孩子发烧半天了") and "我这是" not in opening
    assert onset.text.startswith("孩子半天前开始发烧") and "代述" not in onset.text
    assert "孩子爸爸" in family.text and "我父亲" not in family.text
    assert "没有吐" in vomit.text
    assert age.text.startswith("孩子2岁了")
