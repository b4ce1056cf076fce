"""The record is the truth, each part asked is answered (reply check sets 2-3 classes, new cases and words)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from patient_cases import spec  # noqa: E402

from medsim.scenario.schema import Case, Demographics  # noqa: E402
from medsim.sim.lay import clause_to_lay, duration_of  # noqa: E402
from medsim.sim.patient_rule import RulePatient  # noqa: E402


def stroke_case() -> Case:
    """Acute ischaemic stroke in a diabetic woman: right-sided weakness, the mouth drawn to the left."""
    return Case(
        id="stroke-r", source="synthetic", department="神经内科",
        demographics=Demographics(sex="女", age=72, occupation="退休"),
        chief_complaint="突发右侧肢体无力伴言语不清2小时",
        hpi="患者2小时前看电视时突然出现右侧上下肢无力，不能行走，伴言语含糊、口角向左歪斜，无头痛、呕吐，无抽搐。",
        past_history="糖尿病8年，口服二甲双胍；否认心房颤动史。",
        personal_history="不吸烟，不饮酒。",
        family_history="无特殊。",
        allergies="否认药物过敏史。",
        diagnosis=["急性脑梗死"],
    )


def pregnancy_case() -> Case:
    """A first pregnancy near term with swelling: fetal movements as usual, G1P0."""
    return Case(
        id="preg-36", source="synthetic", department="产科",
        demographics=Demographics(sex="女", age=29, occupation="会计"),
        chief_complaint="停经36⁺³周，双下肢水肿1周",
        hpi="患者孕期规律产检，1周前出现双下肢水肿，晨轻暮重，无头痛、视物模糊，自觉胎动正常，无阴道流血流液。",
        past_history="既往体健。",
        menstrual_obstetric_history="平素月经规律，G1P0。",
        family_history="无特殊。",
        allergies="否认药物过敏史。",
        diagnosis=["妊娠水肿"],
    )


def lipid_case() -> Case:
    """Known hyperlipidaemia and an outside ultrasound: tests the patient knows were done."""
    return Case(
        id="gall-1", source="synthetic", department="普外科",
        demographics=Demographics(sex="男", age=52, occupation="司机"),
        chief_complaint="反复右上腹隐痛半年",
        hpi="患者半年来反复饱餐后右上腹隐痛，每次持续1小时左右，可自行缓解，外院腹部B超提示胆囊结石。夜尿0～1次。",
        past_history="高脂血症3年，未服药；否认甲状腺疾病史。",
        personal_history="吸烟20年，每日10支。",
        family_history="无特殊。",
        allergies="否认药物过敏史。",
        diagnosis=["胆囊结石伴慢性胆囊炎"],
    )


def ask(case: Case, question: str) -> str:
    patient = RulePatient(spec(), case)
    patient.opening_sync()
    return patient.reply_sync(question).text


# -- 1. never contradict the record

def test_a_side_written_inside_a_sign_does_not_turn_it_into_a_denial():
    said = ask(stroke_case(), "嘴角有没有歪？")
    assert "歪" in said and "左" in said and not said.startswith("没有"), said


def test_fetal_movements_as_usual_are_not_denied():
    said = ask(pregnancy_case(), "宝宝在肚子里动得怎么样？")
    assert "跟平时" in said and "没有" not in said, said


def test_how_far_the_pregnancy_is_is_not_how_long_the_complaint_lasted():
    assert duration_of("怀孕28周，阴道流血2天") == "2天"
    said = ask(pregnancy_case(), "腿肿了多长时间了？")
    assert "1周" in said and "36" not in said, said


@pytest.mark.parametrize("question, named", [
    ("血脂以前查过没有？", "血脂"),
    ("在别的地方做过B超吗？", "B超"),
])
def test_a_test_the_record_knows_is_never_said_not_done(question, named):
    said = ask(lipid_case(), question)
    assert "没做过" not in said and ("查过" in said or "做过" in said), said
    assert named in said or "血脂高" in said, said


def test_a_named_organ_is_denied_as_its_illness():
    said = ask(lipid_case(), "甲状腺有没有毛病？")
    assert "甲状腺的病" in said and not said.rstrip("。").endswith("没有甲状腺"), said


def test_a_night_count_of_one_is_not_more_night_urination():
    said = ask(lipid_case(), "晚上起夜多不多？")
    assert not said.startswith("有") and "不怎么起夜" in said, said


def test_the_complaint_s_side_is_kept_when_the_site_is_asked():
    said = ask(stroke_case(), "哪边没劲？")
    assert "浑身" not in said and "右" in said, said


# -- 2. the question asked, each part of it

def test_sudden_or_gradual_is_answered_from_the_record():
    said = ask(stroke_case(), "是突然没劲的，还是一点点加重的？")
    assert said.startswith("是一下子来的"), said


def test_walking_asked_is_answered_by_what_the_record_says_of_it():
    said = ask(stroke_case(), "现在还能走路吗？")
    assert "走不了" in said, said


def test_each_sign_of_a_seizure_question_is_answered():
    said = ask(stroke_case(), "当时抽没抽？尿裤子没有？")
    assert "抽" in said and "尿裤子" in said, said


def test_first_pregnancy_and_births_from_g_and_p():
    said = ask(pregnancy_case(), "这是怀的第几胎？以前生过吗，流过产吗？")
    assert "头一回怀孕" in said and "没生过" in said and "流过产" in said, said


def test_an_earlier_pregnancy_asked_of_a_first_pregnancy():
    said = ask(pregnancy_case(), "上一胎的时候血压高过没有？")
    assert "头一回怀孕" in said, said


def test_due_date_and_last_period_while_pregnant():
    said = ask(pregnancy_case(), "末次月经哪天来的？预产期是什么时候？")
    assert "怀孕36周" in said and "预产期还有" in said, said


# -- 4. plain words for chart notation

@pytest.mark.parametrize("clause, must, must_not", [
    ("尿蛋白（±）", "一点点蛋白", "±"),
    ("口服氨氯地平片（络活喜）控制血压", "氨氯地平片", "络活喜"),
    ("右手持筷掉落", "筷子", "持筷"),
])
def test_chart_notation_said_plainly(clause, must, must_not):
    said = clause_to_lay(clause)
    assert must in said and must_not not in said, said


def test_medicines_named_but_not_taken_are_said_not_taken():
    # on one statin-free antihypertensive list: a named anticoagulant is not taken, the class word is left alone
    case = stroke_case()
    said = ask(case, "平时吃不吃达比加群、二甲双胍或者降压药？")
    assert "没吃过达比加群" in said and "二甲双胍" in said.replace("没吃过达比加群", ""), said
    assert "没吃过降压药" not in said, said


def test_an_earlier_pregnancy_question_whatever_it_names():
    said = ask(pregnancy_case(), "以前怀孕的时候腿也肿吗？")
    assert said.startswith("这是头一回怀孕"), said


def test_how_often_one_vomits_is_told_from_the_record():
    case = Case(
        id="hg-1", source="synthetic", department="产科",
        demographics=Demographics(sex="女", age=25, occupation="店员"),
        chief_complaint="怀孕9周，呕吐加重5天",
        hpi="患者孕5周起恶心呕吐，近5天加重，每日呕吐8～9次，进食即吐，伴乏力，无发热、腹痛。",
        menstrual_obstetric_history="平素月经规律，G1P0。",
        past_history="既往体健。",
        diagnosis=["妊娠剧吐"],
    )
    said = ask(case, "一天要吐几次？")
    assert "8" in said and "9" in said, said
    assert duration_of(case.chief_complaint) == "5天"


def angina_case() -> Case:
    return Case(
        id="sa-1", source="synthetic", department="心内科",
        demographics=Demographics(sex="男", age=63, occupation="保安"),
        chief_complaint="劳累后胸痛2个月",
        hpi="患者2个月前起上坡或提重物时出现胸骨后压迫样疼痛，每次持续2–3分钟，休息后可缓解，无夜间发作。",
        past_history="高血压10年。",
        family_history="母亲55岁时患心肌梗死。",
        allergies="否认药物过敏史。",
        diagnosis=["稳定型心绞痛"],
    )


def test_relief_by_rest_and_episode_length_answer_a_rest_question():
    said = ask(angina_case(), "歇一歇能不能好？大概几分钟能缓过来？")
    assert "2" in said and "3" in said and "分钟" in said and "个月" not in said, said


def test_a_relative_s_age_is_not_answered_with_the_patient_s_own():
    said = ask(angina_case(), "家里有没有人得过心梗？多大岁数得的？")
    assert "55" in said and "63" not in said, said


def test_height_and_weight_asked_get_no_blood_pressure():
    said = ask(angina_case(), "您身高体重多少？")
    assert "/" not in said and "血压" not in said, said


def test_an_earlier_episode_asked_is_not_the_duration():
    said = ask(stroke_case(), "以前有没有过这样半边没劲、一会儿就好了的时候？")
    assert "以前没这样过" in said, said


def test_a_symptom_that_led_to_a_finding_is_not_a_yes_now():
    case = Case(
        id="pa-1", source="synthetic", department="内分泌科",
        demographics=Demographics(sex="女", age=38, occupation="教师"),
        chief_complaint="发现血压高半年",
        hpi="患者半年前因头晕测血压升高，最高165/105mmHg，口服氨氯地平5mg qd，血压控制不佳。无心悸、多汗。",
        diagnosis=["原发性醛固酮增多症"],
    )
    said = ask(case, "平时有没有一阵一阵的头晕、心慌？")
    assert not said.startswith("有") and "头晕" in said and "没有心慌" in said, said


def test_a_job_is_not_told_for_what_one_was_doing():
    said = ask(angina_case(), "一般干什么的时候疼？")
    assert "保安" not in said and "上坡" in said, said


def test_last_known_well_is_told_from_the_record():
    case = stroke_case()
    case = case.model_copy(update={"hpi": case.hpi + "发病前一切正常，生活自理。"})
    said = ask(case, "犯病前生活都能自理吧？")
    assert "好好的" in said or "自理" in said, said
