"""What a physician's correct answer says that is not a claim about the patient (danger signs to
come back for, risks, what a named reaction looks like, thresholds, times of an instruction), what
it says in the record's own terms (a negative test, a diagnosis with its qualifiers first, lay
words), and the close errors that must still be caught (an opposite segment, an opposite diagnosis,
a wrong illness duration)."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics
from medsim.scenario.schema import TestResult as Result
from medsim.text import analyze


def _problems(case: Case, text: str) -> list[tuple[str, str]]:
    return [(f.status, f.text) for f in check(case, text).problems()]


@pytest.fixture
def febrile_child() -> Case:
    return Case(
        id="t-fever-child", source="synthetic", demographics=Demographics(sex="男", age=2),
        chief_complaint="发热1天",
        hpi="患儿1天前出现发热，体温最高38.9℃，精神好，进食减少，无咳嗽、呕吐、腹泻。",
        diagnosis=["急性上呼吸道感染"],
    )


@pytest.fixture
def lower_gi_bleed() -> Case:
    return Case(
        id="t-lgib", source="synthetic", demographics=Demographics(sex="男", age=65),
        chief_complaint="反复排血便1周，加重伴少尿半天",
        hpi="患者近1周反复排暗红色血便。半天前再次排血便，量约600ml，12小时尿量约200ml。",
        physical_exam="皮肤及睑结膜苍白，四肢偏凉。",
        tests=[Result(name="结肠镜", result="降结肠及直肠可见弥漫出血点。")],
        diagnosis=["下消化道出血", "失血性贫血（中度）"],
    )


@pytest.fixture
def stone_with_sterile_urine() -> Case:
    return Case(
        id="t-stone", source="synthetic", demographics=Demographics(sex="男", age=42),
        chief_complaint="左侧腰腹部绞痛6小时",
        hpi="患者6小时前突发左侧腰腹部绞痛，伴呕吐、肉眼血尿，无发热。",
        tests=[Result(name="尿培养", result="无菌生长。")],
        diagnosis=["左输尿管上段结石", "急性胰腺炎（胆源性，轻症）"],
    )


@pytest.mark.parametrize("advice", [
    "高热持续超过3天、精神萎靡、抽搐、呼吸急促或尿少，请到儿科就诊。",
    "吃了3天还发高烧、喘得快或者没精神，带孩子回来复诊。",
    "伤口发红、肿、流水或者发烧要来看。",
    "3片都含了还疼，或者出大汗、喘不上气，马上打120。",
    "出现吞咽困难、胸骨后痛应停药就诊。",
])
def test_danger_signs_of_an_instruction_are_not_claims(febrile_child, advice):
    assert _problems(febrile_child, advice) == []


def test_a_sign_the_patient_has_is_still_held_against_the_record(febrile_child):
    # the urging word is required: reporting why the patient came is a claim
    assert ("unsupported", "抽搐") in _problems(febrile_child, "患儿今日抽搐2次。")
    assert ("unsupported", "胸痛") in _problems(febrile_child, "患儿因胸痛来我院就诊。")


@pytest.mark.parametrize("text", [
    "瘢痕子宫再次终止妊娠，出血、子宫破裂风险显著增加。",
    "饮酒后可出现双硫仑样反应（潮红、心悸、胸闷、呼吸困难、低血压）。",
    "此类患者使用头孢菌素也需医生评估。",
    "血糖高于13.9mmol/L就测一下尿酮。",
    "每天称体重，三天长了2公斤（4斤）以上就来医院。",
])
def test_risks_reaction_features_and_thresholds_are_not_claims(febrile_child, text):
    assert _problems(febrile_child, text) == []


@pytest.mark.parametrize("text", [
    "呕吐时停10分钟后再慢慢喂。",
    "需再巩固治疗至少3年方可考虑停药。",
    "半天前血便约600ml伴神志淡漠，12小时尿量约200ml。",
])
def test_times_of_another_event_are_not_the_illness_duration(lower_gi_bleed, text):
    assert not [p for p in check(lower_gi_bleed, text).problems() if p.kind == "duration"]


def test_a_wrong_illness_duration_is_still_caught(lower_gi_bleed):
    assert ("contradicted", "3周") in _problems(lower_gi_bleed, "患者反复排血便3周。")


def test_a_negative_test_the_record_reports_negative_is_supported(stone_with_sterile_urine):
    for text in ("尿培养阴性。", "尿培养（-）。"):
        assert _problems(stone_with_sterile_urine, text) == []


def test_a_negative_test_the_record_reports_positive_is_contradicted(stone_with_sterile_urine):
    case = stone_with_sterile_urine.model_copy(update={"tests": [Result(name="尿培养", result="检出大肠埃希菌。")]})
    assert [s for s, _ in _problems(case, "尿培养阴性。")] == ["contradicted"]


def test_a_diagnosis_is_read_with_its_bracketed_qualifiers_first(stone_with_sterile_urine):
    assert _problems(stone_with_sterile_urine, "出院诊断：急性胆源性胰腺炎（轻症）。") == []


def test_the_opposite_diagnosis_is_not_the_recorded_one(lower_gi_bleed):
    assert ("unsupported", "上消化道出血") in _problems(
        lower_gi_bleed, "诊治经过：补液、输血、止血。出院诊断：上消化道出血。")
    assert _problems(lower_gi_bleed, "诊治经过：补液、输血、止血。出院诊断：下消化道出血。") == []


def test_a_result_at_the_opposite_segment_is_contradicted(lower_gi_bleed):
    assert [s for s, _ in _problems(lower_gi_bleed, "结肠镜示升结肠及盲肠弥漫出血点。")] == ["contradicted"]
    assert _problems(lower_gi_bleed, "结肠镜示降结肠及直肠弥漫出血点。") == []


@pytest.mark.parametrize(("lay", "term"), [
    ("说话不利索", "言语不清"), ("说话含糊不清", "言语不清"), ("说话不清", "言语不清"),
    ("嘴角流口水", "流涎"), ("进食减少", "食欲不振"), ("四肢偏凉", "四肢发凉"),
])
def test_lay_and_record_wordings_name_one_finding(lay, term):
    assert term in {f.norm for f in analyze(f"患者{lay}。").findings if f.polarity == "present"}


def test_lps_is_lipase(lower_gi_bleed):
    case = lower_gi_bleed.model_copy(update={"tests": [Result(name="生化", result="脂肪酶 2860U/L")]})
    assert _problems(case, "LPS 2860U/L。") == []


@pytest.mark.parametrize(("text", "term"), [
    ("阿司匹林不是膝关节痛的合适止痛药。", "疼痛"),
    ("阿司匹林也不是骨关节炎止痛的推荐药物。", "骨关节炎"),
    ("合并未抗凝房颤，栓塞风险高。", "心房颤动"),
    ("未规律治疗高血压。", "高血压"),
])
def test_a_negation_of_what_the_finding_qualifies_leaves_it_affirmed(text, term):
    assert [f.polarity for f in analyze(text).findings if f.norm == term] == ["present"]


@pytest.mark.parametrize(("text", "term"), [
    ("患者不是腹痛，是胸痛。", "腹痛"),
    ("否认高血压的病史。", "高血压"),
])
def test_a_denied_finding_stays_denied(text, term):
    assert [f.polarity for f in analyze(text).findings if f.norm == term] == ["absent"]


@pytest.fixture
def membranous_nephropathy() -> Case:
    return Case(
        id="t-mn", source="synthetic", demographics=Demographics(sex="男", age=47),
        chief_complaint="双下肢水肿1个月", hpi="患者1个月前出现双下肢水肿，否认肾病史。",
        tests=[Result(name="肾活检", result="膜性肾病（Ⅱ期），PLA2R染色阳性。"),
               Result(name="胃镜活检", result="腺癌，中分化。")],
        diagnosis=["肾病综合征（特发性膜性肾病Ⅱ期）"],
    )


def test_a_bare_head_in_the_record_does_not_support_another_kind(membranous_nephropathy):
    assert ("unsupported", "微小病变型肾病") in _problems(membranous_nephropathy, "肾活检为微小病变型肾病。")
    # the record gives the kind's qualifier beside the head: it names it
    assert _problems(membranous_nephropathy, "胃镜活检为中分化腺癌。") == []
