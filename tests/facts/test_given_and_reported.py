"""A drug given in any wording, and a result as its report gives it: the classes the checker missed on
statements written by people who never saw it (issue 13.4)."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics
from medsim.scenario.schema import TestResult as Report  # not a pytest class


@pytest.fixture
def abscess() -> Case:
    # a pyogenic liver abscess in a diabetic, with a culture's susceptibilities and a normal fundus
    return Case(
        id="t-abscess", source="synthetic", demographics=Demographics(sex="男", age=56),
        hpi="发热、寒战5天，右上腹痛3天。外院口服头孢克肟2天无效。",
        past_history="2型糖尿病8年。", allergies="否认药物过敏史。",
        medications="二甲双胍 0.5g 口服 每日三次；格列美脲 2mg 口服 每日一次。",
        physical_exam="右上腹压痛，肝肋下2cm，肝区叩击痛阳性。",
        tests=[
            Report(name="血培养", result="2套均培养出肺炎克雷伯菌，对氨苄西林耐药，对头孢曲松、左氧氟沙星、亚胺培南敏感。"),
            Report(name="腹部增强CT", result="肝右后叶6.8cm×6.0cm低密度灶，边缘环形强化，考虑肝脓肿；未见胆囊结石。",
                       category="imaging"),
            Report(name="眼底检查", result="双眼底未见异常，未见眼内炎表现。", category="other"),
            Report(name="自身抗体", result="ANA、抗dsDNA、抗心磷脂抗体阴性"),
        ],
        diagnosis=["细菌性肝脓肿", "2型糖尿病"],
    )


@pytest.mark.parametrize("text", [
    "予美罗培南抗感染。", "加用莫西沙星。", "口服奥美拉唑护胃。", "已行化疗（吉西他滨+顺铂）。", "急诊已肌注双氯芬酸钠止痛。",
    "入院前已静滴左氧氟沙星。",  # the record names it only as a susceptibility: not as given
])
def test_a_drug_given_in_any_wording_that_the_record_lacks_is_unsupported(abscess, text):
    report = check(abscess, text, key_facts=[])
    assert "unsupported" in report.statuses()
    assert all(f.kind == "drug" for f in report.problems())


@pytest.mark.parametrize("text", [
    "外院口服头孢克肟两天无效。", "平时吃二甲双胍和格列美脲控制血糖。",
    "肺炎克雷伯菌对头孢曲松敏感，对氨苄西林耐药。",  # a susceptibility is not a drug given
    "建议停用二甲双胍。", "拟予头孢曲松抗感染。",  # advice and a plan
])
def test_drugs_the_record_holds_or_that_are_not_given_raise_nothing(abscess, text):
    assert check(abscess, text, key_facts=[]).problems() == []


def test_a_drug_the_record_misspells_by_one_character_is_still_the_records():
    case = Case(id="t-typo", source="synthetic", hpi="转入我院后抽取血培养，亚安培南+伏立康唑抗感染。")
    report = check(case, "予亚胺培南及伏立康唑抗感染。", key_facts=[])
    assert report.problems() == [] and "supported" in report.statuses()
    assert "unsupported" in check(case, "予阿莫西林抗感染。", key_facts=[]).statuses()


@pytest.mark.parametrize("text", [
    "CT示脾脓肿。",  # the organ: the record's abscess is in the liver
    "心电图未见异常。",  # no ECG in the record
    "头颅MRI平扫+增强：未见异常。",
    "行胃镜检查，见胃窦溃疡。",
])
def test_a_result_the_record_does_not_report_is_unsupported(abscess, text):
    statuses = {f.status for f in check(abscess, text, key_facts=[]).findings if f.kind == "result"}
    assert statuses == {"unsupported"}


@pytest.mark.parametrize("text", [
    "CT提示胆囊结石。",  # the report names it only to deny it
    "眼底检查见眼内炎。",
])
def test_a_result_the_report_denies_is_contradicted(abscess, text):
    statuses = {f.status for f in check(abscess, text, key_facts=[]).findings if f.kind == "result"}
    assert statuses == {"contradicted"}


def test_a_negative_culture_against_a_grown_organism_is_contradicted(abscess):
    assert "contradicted" in check(abscess, "入院血培养阴性。", key_facts=[]).statuses()


@pytest.fixture
def cholecystitis() -> Case:
    return Case(
        id="t-gb", source="synthetic", demographics=Demographics(sex="女", age=61), hpi="右上腹痛2天伴发热。",
        tests=[Report(name="腹部CT", category="imaging",
                      result="胆囊增大，壁增厚约5mm，腔内见多发结石，周围脂肪间隙模糊，未见积液及穿孔征象。")],
    )


@pytest.mark.parametrize(("text", "status"), [
    # one finding of several, denied in the report under its head noun (未见积液 for 胆囊周围积液)
    ("CT示胆囊增大、壁增厚伴多发结石，可见胆囊周围积液。", "contradicted"),
    # the same findings as the report gives them, the denial reaching the whole list
    ("CT：胆囊大、壁厚，多发结石，周围无积液及穿孔。", "supported"),
    ("CT示胆囊增大伴壁增厚、多发结石，周围脂肪间隙模糊。", "supported"),
])
def test_a_listed_finding_the_report_denies(cholecystitis, text, status):
    statuses = {f.status for f in check(cholecystitis, text, key_facts=[]).findings if f.kind == "result"}
    assert statuses == {status}


@pytest.mark.parametrize("text", [
    "增强CT考虑肝脓肿，边缘环形强化。", "CT：肝右后叶低密度灶，约68mm×60mm。", "双眼底正常，没有眼内炎。",
    "自身抗体：ANA阴性。", "抗dsDNA阴性。",
])
def test_a_result_in_other_words_is_supported(abscess, text):
    report = check(abscess, text, key_facts=[])
    assert report.problems() == [] and "supported" in report.statuses()


def test_a_positive_result_of_a_test_the_record_lists_as_negative_is_not_supported(abscess):
    assert "contradicted" in check(abscess, "抗dsDNA阳性。", key_facts=[]).statuses()
    assert "unsupported" in check(abscess, "抗血小板抗体阳性。", key_facts=[]).statuses()


def test_a_segment_of_a_sided_organ_is_compared():
    case = Case(id="t-stone", source="synthetic", demographics=Demographics(sex="男", age=42),
                tests=[Report(name="泌尿系CT平扫", category="imaging",
                                  result="左输尿管上段结石，大小约0.9cm×0.7cm；左肾中度积水；右肾下极小结石0.3cm。")])
    assert check(case, "右肾下极小结石3mm，左输尿管上段结石伴左肾积水。", key_facts=[]).problems() == []
    assert "contradicted" in check(case, "右肾上极小结石0.3cm。", key_facts=[]).statuses()
    assert "contradicted" in check(case, "左输尿管下段结石。", key_facts=[]).statuses()


def test_a_weight_given_with_the_age_is_a_weight():
    case = Case(id="t-child", source="synthetic", demographics=Demographics(sex="女", age=3),
                hpi="发热1天。", physical_exam="体重14kg，T 38.9℃。")
    assert check(case, "女童，3岁（14kg），发热。", key_facts=[]).problems() == []
    assert "value_mismatch" in check(case, "3岁女孩，18kg。", key_facts=[]).statuses()
    # a limit in advice is not the weight
    assert check(case, "避免提超过5kg的重物。", key_facts=[]).problems() == []


def test_a_normal_report_read_as_negative(abscess):
    case = Case(id="t-urine", source="synthetic", tests=[Report(name="尿常规", result="未见明显异常")])
    assert check(case, "尿常规（-）。", key_facts=[]).problems() == []
    assert check(case, "尿常规阴性。", key_facts=[]).problems() == []


def test_guarding_written_as_the_surgeons_word():
    case = Case(id="t-guard", source="synthetic", physical_exam="右下腹压痛、反跳痛，局部肌紧张。")
    assert check(case, "右下腹压痛反跳痛，局部肌卫。", key_facts=[]).problems() == []
