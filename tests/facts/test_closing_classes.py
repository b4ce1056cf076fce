"""The classes of miss closed for issue 13.4 (branch facts8): a value restated in another unit, a
fetal weight, drugs given by a route the lexicon does not list, a regimen described."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics
from medsim.scenario.schema import TestResult as Result


@pytest.fixture
def dka() -> Case:
    return Case(id="t-dka", source="synthetic", demographics=Demographics(sex="男", age=24),
                hpi="口干多饮2周。予利福平抗结核治疗1月。",
                tests=[Result(name="指尖血糖", result="28.6mmol/L"),
                       Result(name="肝功能", result="TBil 86.4μmol/L，DBil 52.1μmol/L"),
                       Result(name="产科超声", result="双顶径8.3cm，估计胎儿体重约2100g")],
                physical_exam="体重 76kg")


@pytest.mark.parametrize("text", ["血糖28.6mmol/L（约515mg/dL）。", "血糖28.6mmol/L，折合约515mg/dL。",
                                  "TBil 86.4μmol/L（约5.1mg/dL）。"])
def test_a_value_restated_in_another_unit_is_the_same_analyte(dka, text):
    report = check(dka, text, key_facts=[])
    assert report.problems() == [] and len(report.findings) == 2


@pytest.mark.parametrize("text", ["血糖28.6mmol/L（约360mg/dL）。", "TBil 86.4μmol/L（约8.1mg/dL）。"])
def test_a_wrong_conversion_is_a_value_mismatch(dka, text):
    assert "value_mismatch" in check(dka, text, key_facts=[]).statuses()


def test_a_fetal_weight_is_not_the_mothers_and_converts_from_grams(dka):
    assert check(dka, "超声估计胎儿体重约2.1kg。", key_facts=[]).problems() == []
    assert "value_mismatch" in check(dka, "估计胎儿体重约3.1kg。", key_facts=[]).statuses()
    assert check(dka, "体重76kg。", key_facts=[]).problems() == []


def test_a_dose_in_grams_is_no_weight(dka):
    assert not any(f.kind == "measurement" for f in check(dka, "予利福平0.45g口服。", key_facts=[]).findings)


@pytest.mark.parametrize("text", ["已予达那唑口服。", "给予甲泼尼龙静滴。"])
def test_a_drug_given_by_a_route_is_a_claim_whatever_its_ending(dka, text):
    assert "unsupported" in check(dka, text, key_facts=[]).statuses()


def test_a_regimen_described_names_drugs_given():
    case = Case(id="t-tb", source="synthetic", demographics=Demographics(sex="女", age=50),
                hpi="抗结核治疗（含利福平）1月余后出现黄疸。")
    report = check(case, "抗结核方案中除利福平外还包括吡嗪酰胺。", key_facts=[])
    drugs = {f.text: f.status for f in report.findings if f.kind == "drug"}
    assert drugs == {"利福平": "supported", "吡嗪酰胺": "unsupported"}
    # a plan stays a plan
    assert check(case, "建议抗结核方案中加用吡嗪酰胺。", key_facts=[]).problems() == []


@pytest.fixture
def ectopic() -> Case:
    return Case(id="t-ectopic", source="synthetic", demographics=Demographics(sex="女", age=29),
                hpi="6小时前出现左下腹撕裂样疼痛，伴阴道少量暗红色流血，无尿频、尿急、尿痛。",
                physical_exam="双眼球结膜非化脓性充血。腋窝淋巴结未扪及肿大。",
                tests=[Result(name="腹部CT", result="阑尾增粗，腔内见粪石。"),
                       Result(name="胸腔超声", result="左侧胸腔可见液性暗区，距体表最近约3cm。")],
                diagnosis=["左侧胸腔积液"])


@pytest.mark.parametrize("text", ["左下腹撕裂样痛。", "伴暗红色阴道流血。", "无尿频尿急尿痛。", "腋窝未扪及肿大淋巴结。",
                                  "双眼结膜充血。"])
def test_a_finding_worded_with_words_between_is_the_records(ectopic, text):
    report = check(ectopic, text, key_facts=[])
    assert report.problems() == [] and "supported" in report.statuses()


@pytest.mark.parametrize("text", ["有尿频。", "腋窝扪及肿大淋巴结。"])
def test_the_gapped_wording_keeps_its_negation(ectopic, text):
    assert "contradicted" in check(ectopic, text, key_facts=[]).statuses()


def test_a_results_content_stops_at_the_writers_reading(ectopic):
    report = check(ectopic, "CT提示阑尾增粗伴粪石，考虑急性化脓性阑尾炎。", key_facts=[])
    assert [f.text for f in report.findings if f.kind == "result"] == ["CT提示阑尾增粗伴粪石"]
    assert not [f for f in report.problems() if f.kind == "result"]


def test_a_results_valued_clause_is_left_to_the_measurement(ectopic):
    report = check(ectopic, "超声见左侧胸腔积液，最浅处离体表约30mm。", key_facts=[])
    assert report.problems() == [] and "supported" in report.statuses()
    # still a result the report lacks when its words are not the report's
    assert "unsupported" in check(ectopic, "超声见左侧胸膜增厚钙化，最浅处离体表约30mm。", key_facts=[]).statuses()


def test_a_duration_after_a_bracketed_aside_qualifies_the_words_before_it():
    case = Case(id="t-dili", source="synthetic", demographics=Demographics(sex="女", age=50),
                chief_complaint="皮肤黄染、乏力2周余", hpi="近2周出现皮肤黄染。抗结核治疗（含利福平）1月余。")
    assert check(case, "抗结核治疗（含利福平）1月余后出现黄疸2周余。", key_facts=[]).problems() == []


@pytest.fixture
def hepatitis() -> Case:
    return Case(id="t-hev", source="synthetic", demographics=Demographics(sex="男", age=45),
                hpi="当地医院头颅CTA提示左侧大脑中动脉分叉处动脉瘤。",
                tests=[Result(name="肝炎病毒标志物", result="抗HEV-IgM阳性；HBsAg阴性"),
                       Result(name="血培养", result="2套均培养出肺炎克雷伯菌"),
                       Result(name="诊断性胸腔穿刺", result="已送涂片、细菌培养及药敏。")],
                diagnosis=["肺炎"])


@pytest.mark.parametrize("text", ["HEV RNA检测阳性。", "血小板相关抗体（GPⅡb/Ⅲa）阳性。", "穿刺标本免疫组化：ER阳性、HER2阴性。",
                                  "DSA证实左侧大脑中动脉分叉部动脉瘤。", "胸水细菌培养回报肺炎链球菌。"])
def test_a_result_the_record_lacks_is_unsupported_however_phrased(hepatitis, text):
    assert "unsupported" in check(hepatitis, text, key_facts=[]).statuses()


@pytest.mark.parametrize("text", ["抗HEV-IgM检测阳性。", "CTA证实左侧大脑中动脉分叉部动脉瘤。", "血培养两套均为肺炎克雷伯菌。"])
def test_the_records_own_results_in_those_phrasings_hold(hepatitis, text):
    report = check(hepatitis, text, key_facts=[])
    assert report.problems() == [] and "supported" in report.statuses()


def test_a_panel_called_normal_needs_the_panel_in_the_record():
    case = Case(id="t-sdh", source="synthetic", demographics=Demographics(sex="男", age=70),
                tests=[Result(name="血常规", result="WBC 8.1×10^9/L，Hb 132g/L"), Result(name="肾功能", result="正常")])
    for text in ("凝血功能正常。", "凝血功能：PT、APTT均在正常范围。"):
        assert "unsupported" in check(case, text, key_facts=[]).statuses()
    for text in ("血常规未见异常。", "肾功能正常。"):
        report = check(case, text, key_facts=[])
        assert report.problems() == [] and "supported" in report.statuses()
