"""The asked detail is answered, and the record is never contradicted: the classes an independent
reviewer found on reply check set 2 (tri-011 placental bleeding at 34 weeks, tri-018 an 81-year-old's
abdominal pain, con-005 chronic cough and breathlessness, con-008 irritable bowel, inp-11 cough with
blood-streaked sputum, inp-13 painless haematuria). The questions here are worded differently from
the set's, so they test the class, not the pair."""

from __future__ import annotations

import re

from medsim.scenario.registry import get_scenario
from medsim.sim.patient_rule import RulePatient

NOT_UNDERSTOOD = "没太听明白"


def ask(scenario: str, case_id: str, question: str) -> str:
    loaded = get_scenario(scenario)
    patient = RulePatient(loaded.scenario.patient, loaded.case(case_id), seed=0)
    patient.opening_sync()
    return patient.reply_sync(question).text


def test_a_named_detail_is_told_from_its_clause():
    # 色暗红: a choice between colours is answered by the one the record gives
    reply = ask("triage", "tri-011", "出的血什么颜色，鲜红的还是暗红的？")
    assert "暗红" in reply and NOT_UNDERSTOOD not in reply
    # 无阴道流液: no leaking fluid, said as a patient says it, never affirmed
    reply = ask("triage", "tri-011", "羊水破了没有，下面有没有流水？")
    assert "没流水" in reply and not reply.startswith("有")
    # 自觉胎动较前减少: the baby moves less
    reply = ask("triage", "tri-011", "胎动怎么样？")
    assert "动得比以前少" in reply
    # 无外伤: no fall, no blow
    reply = ask("triage", "tri-011", "最近摔倒过没有？")
    assert re.search(r"没有外伤|没受过|没摔着", reply) and "药" not in reply
    # 有排气 (an old man's abdominal pain: flatus is the obstruction question)
    assert "放屁" in ask("triage", "tri-018", "还放屁吗？")
    # 偶有颗粒状血凝块排出
    reply = ask("diagnosis", "inp-13", "尿里见过血块没有？")
    assert "血块" in reply and not reply.startswith("没")


def test_the_whole_stream_is_recognised_in_lay_words():
    # 为全程血尿 asked as 整泡尿都是红的吗: the lay form of the clause is what the question shares
    reply = ask("diagnosis", "inp-13", "是不是整泡尿都是红的？")
    assert "整泡尿" in reply


def test_a_symptom_named_only_as_when_is_not_what_is_asked():
    # 尿血的时候腰疼不疼: the haematuria is the frame; the answer is about the back (无痛性)
    reply = ask("diagnosis", "inp-13", "尿血的时候腰疼不疼？")
    assert "腰" in reply and not reply.startswith("有")
    # 喘的时候嗓子里响不响: a wheeze not in the record is denied, the breathlessness is not re-told
    reply = ask("consultation", "con-005", "喘的时候嗓子里有没有呼噜呼噜的声音？")
    assert reply.startswith("没有") and "呼噜" in reply


def test_no_stock_answer_to_what_was_not_asked():
    reply = ask("triage", "tri-011", "这两天有没有被撞到过肚子？")
    assert "没吃什么药" not in reply and "没去别的地方看过" not in reply
    reply = ask("triage", "tri-011", "下面出血有多少？")
    assert "比月经量还多" in reply and "没吃什么药" not in reply


def test_care_the_record_tells_is_never_denied():
    # 本次妊娠规律产检，孕早期B超确认宫内单胎
    for question in ("做过什么检查没有？", "怀孕以后去医院看过没有？"):
        reply = ask("triage", "tri-011", question)
        assert "还没做过" not in reply and "还没去医院" not in reply and "产检" in reply, (question, reply)
    # medicines taken when the complaint comes are what was taken before coming
    assert "氨茶碱" in ask("consultation", "con-005", "喘得厉害的时候一般怎么处理？")
    reply = ask("consultation", "con-008", "拉肚子吃过什么药没有？")
    assert "蒙脱石散" in reply and "没吃什么药" not in reply


def test_no_invented_symptom_about_eating():
    # tri-011 has abdominal pain but no nausea in the record
    assert "恶心" not in ask("triage", "tri-011", "这两天吃饭怎么样？")


def test_obstetric_history_from_the_record():
    births = ask("triage", "tri-011", "以前生过孩子吗？顺产还是剖的？")
    assert "顺产" in births and "生过1" in births
    # G2P1 and pregnant now: the other pregnancy is this one, so no abortion
    assert "没流过产" in ask("triage", "tri-011", "做过人流没有？")
    # 孕34周: six weeks to term
    assert "6周" in ask("triage", "tri-011", "预产期什么时候？")


def test_history_answered_as_asked():
    # several illnesses asked of a family history that denies them all: one plain no
    reply = ask("consultation", "con-005", "父母有没有哮喘、肺气肿这些病？")
    assert reply.startswith("没有") and "慢性支气管炎" not in reply
    # the patient's own story does not answer a question about the people around him
    reply = ask("diagnosis", "inp-11", "周围有没有人得过肺结核？")
    assert "身边" in reply and "咳嗽" not in reply
    # 煤烟 at work is an exposure, not smoking: 曾在纺织厂工作20年
    reply = ask("consultation", "con-005", "工作的时候接触过粉尘、煤烟没有？")
    assert "纺织厂" in reply and "抽烟" not in reply
    # 近1年无急诊或住院, asked under another topic
    reply = ask("consultation", "con-005", "这几年住过几次院？")
    assert "住院" in reply and "没有" in reply
    # a vaccine's name is no illness asked about (肺炎疫苗 is not 肺炎)
    assert "没有肺炎" not in ask("consultation", "con-005", "打没打过肺炎疫苗？")
    # a list of illnesses: the record's clause covering them, so none is left out (否认高血压、糖尿病史)
    reply = ask("diagnosis", "inp-13", "有高血压、糖尿病、心脏病吗？")
    assert all(name in reply for name in ("高血压", "糖尿病", "心脏病")) and not reply.startswith("有")


def test_record_wording_is_said_in_lay_words():
    replies = [ask("triage", "tri-011", "下面出血有多少？"),
               ask("consultation", "con-005", "抽烟抽多少？"), ask("consultation", "con-005", "走多远会喘？"),
               ask("consultation", "con-008", "大便什么样？"), ask("consultation", "con-008", "睡觉怎么样？"),
               ask("diagnosis", "inp-13", "抽烟吗？"), ask("diagnosis", "inp-13", "喝酒吗？"),
               ask("diagnosis", "inp-13", "哪里不舒服？"), ask("diagnosis", "inp-11", "咳嗽开始是什么样的？")]
    for reply in replies:
        assert not re.search(r"量多月经量|即感|包年|指数|酗酒|^为|，为|欠佳|无痛性|肉眼|初为|刺激性", reply), reply


def test_an_illness_named_under_another_topic_is_answered():
    # 肛瘘 asked beside 肛门疼、流脓: not a trigger of her abdominal pain, a no from 既往体健
    reply = ask("consultation", "con-008", "肛门那儿长过肛瘘没有？")
    assert reply.startswith("没有") and "压力" not in reply


def test_mood_habits_and_blood_group_as_a_patient_knows_them():
    # 近1年工作压力大: mood from the personal history, not the story's trigger clause
    reply = ask("consultation", "con-008", "最近心情怎么样？")
    assert "压力大" in reply and "生冷" not in reply
    # bowel habits asked: not today's stool (今晨解黄色成形便1次)
    reply = ask("triage", "tri-018", "平时大便习惯怎么样？")
    assert "今天早上" not in reply and "正常" in reply
    # a blood group the record does not give is not made up
    reply = ask("triage", "tri-011", "什么血型？")
    assert not re.search(r"[ABO]型", reply)


def test_the_complaint_named_in_a_question_about_its_care_is_not_the_answer():
    # 止血药用了尿血好没好: no treatment in the record, so none is told — not the haematuria's story again
    reply = ask("diagnosis", "inp-13", "用过止血药没有，尿血好点没？")
    assert "没吃什么药" in reply and "1个月前" not in reply
    # where the pain is: the site, not what relieves it (排便后腹痛可缓解)
    reply = ask("consultation", "con-008", "肚子哪个地方疼？")
    assert "小肚子" in reply and "解完大便" not in reply


def test_a_clause_listing_findings_is_told_by_the_part_asked():
    # 出现低热（37.2～37.8℃）、乏力、痰中带血丝，7～8口/天: the temperature asked is the fever's part
    reply = ask("diagnosis", "inp-11", "体温最高到过多少？")
    assert "37.8" in reply and "没劲" not in reply and "血丝" not in reply
    # the blood in the sputum is told with its amount (7～8口/天 is that part's detail), not the fever
    reply = ask("diagnosis", "inp-11", "痰里有血吗？")
    assert "血丝" in reply and "7到8口" in reply and "低烧" not in reply
    # the fever asked: its amount stays with the blood, never with the fever
    reply = ask("diagnosis", "inp-11", "发烧烧到多少度？")
    assert "37.2" in reply and "口" not in reply
    # the phlegm asked: the listing clause that names no phlegm is left out beside 偶有黄痰
    reply = ask("diagnosis", "inp-11", "有痰吗？什么颜色？")
    assert "黄痰" in reply and "低烧" not in reply


def test_a_denied_list_is_denied_whole():
    # 无明显胸闷、胸痛: the denial holds for both parts, so cutting the list must never drop it
    reply = ask("diagnosis", "inp-11", "胸口疼吗？")
    assert "没有" in reply and not re.search(r"(^|[，。])胸口疼", reply)
    # 无尿频、尿急、尿痛 asked about one: still denied
    reply = ask("diagnosis", "inp-13", "解小便疼不疼？")
    assert not reply.startswith("有") and re.search(r"没有|不疼", reply)


def test_a_finding_asked_under_a_circumstance_is_answered_from_that_clause():
    # 无夜间腹泻或被便意痛醒 in a record whose diarrhoea is otherwise present: the night asked is denied,
    # never opened with 有 from the daytime clauses (a nocturnal diarrhoea would point away from IBS)
    reply = ask("consultation", "con-008", "夜里睡着了会不会因为拉肚子起来？")
    assert reply.startswith("没有") and "3–4次" not in reply and "蒙脱石" not in reply
    # the same finding asked without the circumstance is still told as present
    assert ask("consultation", "con-008", "拉肚子吗？").startswith("有")


def test_a_body_site_beside_the_finding_asked_picks_no_clause():
    # 无外伤 asked as 肚子被撞过: the belly named is where, so 腹部发硬不放松 / 下腹痛 are not the answer
    reply = ask("triage", "tri-011", "肚子有没有被撞到过，或者摔倒过？")
    assert re.search(r"没摔着|没撞着|没有外伤", reply) and "发硬" not in reply and "疼" not in reply
    # the site asked as the finding itself still draws its clause
    assert "发硬" in ask("triage", "tri-011", "肚子硬不硬？")


def test_the_last_meal_is_not_answered_with_the_appetite():
    # the record says nothing of the last meal: no time is made up, no 胃口 stock answer stands in
    # for it, and 不清楚 is not said about something the patient would know
    reply = ask("triage", "tri-011", "上一顿吃东西是什么时候？")
    assert "胃口" not in reply and "不清楚" not in reply and not re.search(r"\d", reply)
    assert "一顿" in reply
