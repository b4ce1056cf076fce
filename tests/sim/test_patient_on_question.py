"""The reply answers what was asked: the fault classes physicians found on reply check set 4
(the stock line of a topic answering another question, parts of compound questions and asked
details dropped, chart wording in lay speech, a spread pain denied, a drug class denied beside
its member). The cases and questions are written here, worded unlike the set's."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import cap_case, spec, stemi_case  # noqa: E402

from medsim.scenario.schema import Case, Demographics  # noqa: E402
from medsim.sim.patient_rule import RulePatient  # noqa: E402
from medsim.text import gist  # noqa: E402


def _ulcer() -> Case:
    """A perforated peptic ulcer after two weeks of a self-bought NSAID for knee pain."""
    return Case(
        id="pu-1", source="synthetic", department="急诊科",
        demographics=Demographics(sex="男", age=52, occupation="司机"),
        chief_complaint="突发上腹剧痛2小时",
        hpi="患者2小时前午饭后突发上腹部剧痛，很快蔓延至全腹，伴恶心。近2周因膝关节痛自服双氯芬酸钠。",
        past_history="既往体健，否认手术史。",
        personal_history="吸烟15年；饮酒。",
        family_history="无特殊。",
        allergies="否认药物过敏史。",
        medications="双氯芬酸钠缓释片 75mg qd，已服2周。",
        diagnosis=["消化性溃疡穿孔"],
    )


def _heart_failure() -> Case:
    return Case(
        id="hf-1", source="synthetic", department="心内科",
        demographics=Demographics(sex="女", age=70, occupation="退休工人"),
        chief_complaint="活动后气促1年，加重3天",
        hpi="患者1年前起活动后气促，近3天轻微活动即喘，夜间需端坐，伴双下肢水肿。",
        past_history="高血压10年。",
        personal_history="不吸烟，不饮酒。",
        diagnosis=["慢性心力衰竭急性加重"],
    )


def _migraine() -> Case:
    return Case(
        id="mig-1", source="synthetic", department="神经内科",
        demographics=Demographics(sex="女", age=30, occupation="会计"),
        chief_complaint="反复头痛2年",
        hpi="患者2年来反复发作头痛，多位于右侧颞部，呈搏动性，每次持续4小时左右，伴恶心。",
        past_history="既往体健。",
        diagnosis=["偏头痛"],
    )


def ask(case: Case, question: str) -> str:
    patient = RulePatient(spec(literacy="low"), case, seed=0)
    patient.opening_sync()
    return patient.reply_sync(question).text


def test_gist_meets_lay_and_chart_words():
    # a patient's word and a chart's meet (吃饭 / 饱餐, 摔 / 跌倒, 小便 / 尿); asking words carry nothing
    assert gist.shared("疼之前吃饭了没", "饱餐后突发上腹痛")
    assert gist.shared("怎么摔的", "在卫生间滑倒")
    assert gist.shared("小便颜色深不深", "尿色加深")
    assert not gist.shared("有没有什么", "是不是呢")
    assert not gist.shared("大便怎么样", "尿色加深")


def test_a_spread_pain_is_never_denied():
    reply = ask(_ulcer(), "疼有没有跑到别的地方去？")
    assert "整个肚子" in reply and "没往别的地方" not in reply


def test_where_it_hurts_is_not_told_with_another_pains_medicine():
    reply = ask(_ulcer(), "哪个地方疼得最厉害？")
    assert "上腹" in reply and "双氯芬酸" not in reply and "膝" not in reply


def test_where_a_headache_is_told_from_the_clause_that_places_it():
    # the 头 of 头痛 places nothing: the record's 右侧颞部 does
    reply = ask(_migraine(), "头哪个地方疼？")
    assert "右" in reply and "太阳穴" in reply


def test_a_drug_class_is_not_denied_beside_its_member_taken():
    reply = ask(_ulcer(), "平常吃止疼片吗，比如双氯芬酸、对乙酰氨基酚？")
    assert "双氯芬酸" in reply
    assert "没吃过对乙酰氨基酚" in reply
    assert not re.search(r"没吃过[^。]*止疼片", reply)


def test_a_habit_amount_the_record_lacks_is_said_not_counted():
    reply = ask(_ulcer(), "烟一天抽几根？抽多少年了？")
    assert "15年" in reply and "没细数" in reply
    assert "没细数" in ask(_ulcer(), "喝酒吗？一回喝多少？")
    # a recorded amount is told, not said unknown
    reply = ask(stemi_case(), "一天抽几支烟？")
    assert "20" in reply and "没细数" not in reply
    # no habit, nothing to count
    assert "没细数" not in ask(_heart_failure(), "抽烟吗？一天几根？")


def test_every_part_of_a_compound_habit_question_is_answered():
    # 酒呢 heard by itself: the drinking answer follows the smoking one
    reply = ask(stemi_case(), "烟抽吗？每天几支？酒呢？")
    assert "抽烟" in reply and "喝酒" in reply
    assert reply.index("抽烟") < reply.index("喝酒")


def test_a_stock_line_about_something_else_is_dropped_beside_the_answer():
    # 下午更明显 heard as an aggravating factor: its stock 也没发现怎么着会更厉害 does not answer 脚肿
    reply = ask(cap_case(), "有没有脚肿？是不是下午更明显？")
    assert "肿" in reply and "怎么着" not in reply


def test_chart_wording_does_not_reach_a_low_literacy_patient():
    reply = ask(_heart_failure(), "现在走几步就喘？")
    assert "喘" in reply and not re.search(r"即喘|轻微活动|端坐", reply)
    reply = ask(_migraine(), "疼起来是什么样的？")
    assert "一跳一跳" in reply and "搏动" not in reply


def _hip_fall() -> Case:
    """An old woman's fall on the hip: her menopause and births are hers to tell."""
    return Case(
        id="hip-1", source="synthetic", department="骨科",
        demographics=Demographics(sex="女", age=78, occupation="退休"),
        chief_complaint="跌倒后右髋部疼痛3小时",
        hpi="患者3小时前在家中浴室滑倒，右髋部着地，当即右髋部疼痛，不能站立。",
        past_history="高血压8年。",
        menstrual_obstetric_history="50岁绝经，孕3产2。",
        diagnosis=["右股骨颈骨折"],
    )


def _palpitation() -> Case:
    return Case(
        id="pal-1", source="synthetic", department="急诊科",
        demographics=Demographics(sex="女", age=60, occupation="退休"),
        chief_complaint="阵发心悸3小时",
        hpi="患者3小时前无明显诱因出现心悸，既往曾有3次类似发作，数分钟自行缓解，未诊治。",
        past_history="既往体健。",
        diagnosis=["阵发性室上性心动过速"],
    )


def test_a_guessed_topic_whose_answer_shares_nothing_asked_is_not_said():
    # 谁照顾您的生活, heard by guess as general history: no stock 饮食睡觉还行, an honest not-noticed instead
    reply = ask(_hip_fall(), "平时谁照顾您的生活？")
    assert "没太注意" in reply and not re.search(r"吃饭|睡觉|胃口", reply)


def test_a_record_clause_sharing_the_question_answers_it_over_the_topic_line():
    # 得坐着: the record's 夜间需端坐, not the exertional onset the topic drew
    reply = ask(_heart_failure(), "晚上睡觉是不是得坐着？")
    assert "坐" in reply and "端坐" not in reply


def test_the_age_of_an_event_is_not_the_patients_age():
    reply = ask(_hip_fall(), "多大岁数绝经的？生过几个？")
    assert "50岁" in reply and "78岁" not in reply
    # the births in words, never 孕3产2
    assert "生过2次" in reply and "孕3产2" not in reply


def test_earlier_episodes_and_no_care_are_told_in_plain_words():
    reply = ask(_palpitation(), "以前这样犯过吗？后来怎么好的？")
    assert "3次" in reply and "以前以前" not in reply and "类似发作" not in reply
    # 未诊治 answers a question about doctors and medicines: neither
    reply = ask(_palpitation(), "以前看过没有？吃过药吗？")
    assert "没去看" in reply and "没治过" in reply
