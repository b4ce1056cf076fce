"""Imaging and other examination results held against the record."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case
from medsim.scenario.schema import TestResult as Result


@pytest.fixture
def stemi() -> Case:
    return Case(id="t-stemi", source="synthetic", chief_complaint="胸痛3小时",
                tests=[Result(name="心电图", result="V1～V5导联ST段弓背向上抬高。"),
                       Result(name="超声心动图", result="左室前壁及心尖部运动减弱，LVEF 48%，未见室壁瘤及心包积液。"),
                       Result(name="CT肺动脉造影", result="未见充盈缺损。")])


@pytest.mark.parametrize("text", ["冠脉造影示前降支近段完全闭塞。", "头颅CT未见异常。", "胸部X线示双肺纹理增多。"])
def test_an_examination_the_record_lacks(stemi, text):
    assert "unsupported" in check(stemi, text, key_facts=[]).statuses()


def test_a_finding_the_recorded_examination_did_not_show(stemi):
    report = check(stemi, "超声心动图示左室心尖部附壁血栓形成。", key_facts=[])
    assert "unsupported" in report.statuses()


@pytest.mark.parametrize("text", ["超声心动图示左室前壁及心尖部运动减弱。", "心电图示V1～V5导联ST段抬高。",
                                  "心超未见心包积液。", "建议行冠脉造影。"])
def test_a_recorded_result_in_other_words(stemi, text):
    assert check(stemi, text, key_facts=[]).problems() == []


@pytest.fixture
def aldosteronism() -> Case:
    return Case(id="t-pa", source="synthetic", chief_complaint="高血压2年，乏力1周",
                tests=[Result(name="电解质", result="K 2.4mmol/L"),
                       Result(name="肾上腺CT", result="左侧肾上腺结节，直径约1.8cm，考虑腺瘤。")])


@pytest.mark.parametrize("text", ["心电图可见明显U波，伴ST段压低。", "肾上腺静脉采血提示左侧醛固酮优势分泌。",
                                  "AVS示左侧优势分泌。", "心电图表现为T波低平。"])
def test_a_result_of_an_examination_the_record_lacks_whatever_the_verb(aldosteronism, text):
    report = check(aldosteronism, text, key_facts=[])
    assert [f.kind for f in report.findings if f.status == "unsupported"] == ["result"]


def test_a_recorded_result_after_kejian(aldosteronism, stemi):
    assert check(aldosteronism, "肾上腺CT可见左侧肾上腺结节，考虑腺瘤。", key_facts=[]).problems() == []
    assert check(stemi, "心电图可见V1～V5导联ST段弓背向上抬高。", key_facts=[]).problems() == []
    assert "unsupported" in check(stemi, "心电图可见明显U波。", key_facts=[]).statuses()


def test_venous_sampling_the_record_holds():
    case = Case(id="t-avs", source="synthetic", chief_complaint="高血压伴低血钾3年",
                tests=[Result(name="肾上腺静脉采血", result="右侧醛固酮优势分泌，偏侧化指数4.2。")])
    assert check(case, "肾上腺静脉采血提示右侧醛固酮优势分泌。", key_facts=[]).problems() == []
    assert check(case, "AVS示右侧醛固酮优势分泌。", key_facts=[]).problems() == []


def test_an_analyte_raised_with_no_test_in_the_record_is_unsupported():
    record = "现病史：胸骨后压榨样疼痛2小时。\n辅助检查：心电图：窦性心律，V1–V4导联ST段抬高0.3mV。"
    report = check(record, "肌钙蛋白I明显升高。", key_facts=[])
    assert [f.status for f in report.findings] == ["unsupported"]


def test_an_analyte_raised_that_the_record_measured_is_not_called_invented():
    record = "辅助检查：肌钙蛋白I 2.35ng/mL（参考值<0.04ng/mL），CK-MB 48U/L。"
    report = check(record, "肌钙蛋白I明显升高。", key_facts=[])
    assert "unsupported" not in report.statuses()


FISHBONE = ("主诉：吃鱼卡刺后咽痛2小时。\n现病史：吃鲫鱼时感咽部被鱼刺卡住，自行吞饭团、喝醋未缓解。\n"
            "体格检查：口咽部右侧扁桃体下极似见细小白色异物。")


def test_an_endoscopy_the_record_never_did_is_unsupported():
    report = check(FISHBONE, "间接喉镜见鱼刺刺入右侧扁桃体下极。", key_facts=[])
    assert [f.status for f in report.findings if f.kind == "result"] == ["unsupported"]


def test_a_plain_film_with_the_place_before_its_cue_is_read_as_a_result():
    record = "辅助检查：泌尿系CT平扫：左输尿管上段结石，大小约0.9cm×0.7cm，左肾中度积水。"
    report = check(record, "KUB平片于左输尿管走行区见致密结石影。", key_facts=[])
    assert [f.status for f in report.findings if f.kind == "result"] == ["unsupported"]
    same = check(record, "泌尿系CT平扫于左输尿管上段见结石。", key_facts=[])
    assert [f.status for f in same.findings if f.kind == "result"] == ["supported"]


def test_a_nucleic_acid_test_named_with_its_method_is_a_result():
    record = "体格检查：左侧胸背部带状分布成簇水疱，未过中线。\n辅助检查：血常规：WBC 6.8×10^9/L。"
    assert "unsupported" in check(record, "疱液VZV-DNA PCR阳性。", key_facts=[]).statuses()


def test_a_lozenge_the_patient_sucked_is_a_drug_the_record_must_hold():
    report = check(FISHBONE, "还含了西地碘含片，都不管用。", key_facts=[])
    assert [f.status for f in report.findings if f.kind == "drug"] == ["unsupported"]
    assert "unsupported" not in check(FISHBONE, "自行吞饭团、喝醋未缓解。", key_facts=[]).statuses()  # food, not drugs


def test_a_direction_after_a_value_is_not_a_test_named_by_the_units_letter():
    record = "辅助检查：肝功能：ALT 88U/L，ALP 210U/L，GGT 168U/L，Alb 31g/L。"
    report = check(record, "肝功能提示ALP 210U/L、GGT 168U/L升高。", key_facts=[])
    assert report.statuses() == {"supported"}


LIVER_ABSCESS = ("辅助检查：血培养：2套均培养出肺炎克雷伯菌，对氨苄西林耐药。\n"
                 "腹部增强CT：肝右后叶6.8cm×6.0cm低密度灶，边缘环形强化，考虑肝脓肿。")


def test_an_organism_grown_from_a_specimen_the_record_never_cultured_is_unsupported():
    report = check(LIVER_ABSCESS, "穿刺脓液培养同样为肺炎克雷伯菌。", key_facts=[])
    assert [f.status for f in report.findings if f.text == "肺炎克雷伯菌"] == ["unsupported"]
    same = check(LIVER_ABSCESS, "血培养2套均培养出肺炎克雷伯菌。", key_facts=[])
    assert [f.status for f in same.findings if f.text == "肺炎克雷伯菌"] == ["supported"]
