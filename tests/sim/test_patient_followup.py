"""Follow-up and by-name questions: the rule patient tells the whole record statement and any
new detail, strips narrator notes, answers compound key-fact questions — and still keeps the
disclosure policy, names no diagnosis or result, and denies what the record nowhere shows."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import (  # noqa: E402
    asthma_case,
    cap_case,
    conjunctivitis_case,
    hfmd_child_case,
    spec,
    spec_with,
    stemi_case,
)

from medsim.scenario.schema import Disclosure  # noqa: E402
from medsim.sim import leak  # noqa: E402
from medsim.sim.patient_rule import RulePatient  # noqa: E402


def patient(case, **persona) -> RulePatient:
    p = RulePatient(spec(**persona), case, seed=0)
    p.opening_sync()
    return p


def test_follow_up_on_a_touched_topic_gets_the_new_detail():
    p = patient(cap_case())
    first = p.reply_sync("什么原因引起的发烧？")
    assert "着凉" in first.text
    follow = p.reply_sync("请问：受凉后发热3天最高39.2℃；咳黄色黏痰？")
    assert not follow.text.startswith("刚才说过了")
    assert "39.2度" in follow.text and "黄色黏痰" in follow.text
    assert "体温最高39.2℃" in follow.disclosed and "咳少量黄色黏痰" in follow.disclosed
    again = p.reply_sync("什么原因引起的发烧？")  # nothing new left to tell
    assert again.text.startswith("刚才说过了")


def test_a_symptom_asked_by_name_gets_its_whole_statement_in_lay_words():
    p = patient(cap_case())
    fever = p.reply_sync("有没有发烧？")
    assert "发烧" in fever.text and "最高39.2度" in fever.text and "℃" not in fever.text
    cough = p.reply_sync("咳嗽吗？")
    assert "黄色黏痰" in cough.text
    for reply in (fever, cough):
        assert "患者" not in reply.text and "发热" not in reply.text  # lay words, first person


def test_narrator_notes_never_reach_speech():
    p = patient(hfmd_child_case())
    replies = [p.reply_sync(q) for q in ("什么时候开始发烧的？", "有没有发烧？", "请问：发热1天最高38.5℃；因嘴疼不愿吃饭？")]
    for reply in replies:
        assert "代述" not in reply.text and "母亲" not in reply.text and "（" not in reply.text
    assert "孩子" in replies[0].text and "38.5度" in replies[2].text and "嘴疼" in replies[2].text


def test_compound_key_fact_questions_are_understood():
    p = patient(conjunctivitis_case())
    for question, said in (("请问：左眼红伴分泌物2天；视力无下降？", "视力"), ("请问：无明显眼痛畏光；无外伤或化学物溅入？", "畏光"),
                           ("请问：不戴隐形眼镜？", "隐形眼镜")):
        reply = p.reply_sync(question)
        assert "没太听明白" not in reply.text and said in reply.text, (question, reply.text)
    assert p.stats["not_understood"] == 0


def test_named_questions_keep_the_disclosure_policy_results_and_diagnosis_out():
    p = patient(cap_case())
    reply = p.reply_sync("请问：外院血常规WBC 13.8×10^9/L？是不是社区获得性肺炎？")
    assert "13.8" not in reply.text and "社区获得性肺炎" not in reply.text
    assert not any("WBC" in d for d in reply.disclosed)
    hidden = RulePatient(spec_with(Disclosure(volunteered=["chief_complaint"], on_ask=["past_history"],
                                              on_exam=["hpi"])), cap_case(), seed=0)
    reply = hidden.reply_sync("请问：受凉后发热3天最高39.2℃；咳黄色黏痰？")
    assert "39.2" not in reply.text and not any(d.startswith("患者") for d in reply.disclosed)


def test_what_the_record_lacks_is_denied_unless_the_record_shows_it_elsewhere():
    # nowhere in the record: no (a standardized patient's answer to an unscripted symptom), nothing disclosed
    p = patient(cap_case())
    reply = p.reply_sync("有没有拉肚子？")
    assert reply.text.startswith("没有拉肚子") and reply.disclosed == []
    # the examination found it: the patient cannot deny it, only has not noticed
    case = cap_case().model_copy(update={"physical_exam": "神志清，巩膜黄染，右下肺可闻及湿啰音。"})
    reply = patient(case).reply_sync("眼睛有没有发黄？")
    assert "没太注意" in reply.text and reply.disclosed == []


def test_known_disease_and_exposure_may_be_named_the_visit_s_diagnosis_not():
    p = patient(asthma_case())
    history = p.reply_sync("以前得过什么病吗？")
    assert "哮喘10年" in history.text and "查出过敏性鼻炎" in history.text
    assert "支气管哮喘10年" in history.disclosed
    assert "急性发作" not in history.text
    family = p.reply_sync("请问：母亲哮喘？")
    assert "母亲有哮喘" in family.disclosed
    terms = leak.leak_terms(asthma_case(), known_text=asthma_case().past_history)
    assert "哮喘急性发作" in terms and "哮喘" not in terms
    # a contact's illness and a vaccine's name are not the patient's diagnosis
    assert leak.find_leaks("班里有两个小朋友得了手足口病。", ["手足口病"]) == []
    assert leak.find_leaks("今冬没打流感疫苗。", ["流感"]) == []
    assert leak.find_leaks("我得了流感。", ["流感"]) == ["流感"]


def test_scrubbed_words_are_not_counted_as_disclosed():
    case = stemi_case().model_copy(update={"hpi": stemi_case().hpi + "自己担心是心梗，未告知家人。"})
    p = patient(case)
    reply = p.reply_sync("请问：自己担心是心梗？")
    assert "心梗" not in reply.text and "自己担心是心梗" not in reply.disclosed


def test_follow_ups_are_deterministic_for_a_seed():
    questions = ["您好，哪里不舒服？", "请问：受凉后发热3天最高39.2℃；咳黄色黏痰？", "有没有发烧？", "抽烟吗？"]
    runs = []
    for _ in range(2):
        p = RulePatient(spec(mood="anxious", style="talkative"), cap_case(), seed=7)
        runs.append([(r.text, r.disclosed) for r in (p.opening_sync(), *[p.reply_sync(q) for q in questions])])
    assert runs[0] == runs[1]
