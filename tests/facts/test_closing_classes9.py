"""The classes of miss closed for issue 13.4 (branch facts9): clinical scales and bedside signs by
abbreviation (GCS, 疼痛评分, CRT), antibodies and tests the lexicons lacked (TRAb, FeNO, 摄碘率), a
finding the record writes with a degree word inside (精神较差), an age at a life event, a term inside
a longer symptom (流感 in 鼻后滴流感), drugs given in lay words (喂了X, 开过X)."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics
from medsim.scenario.schema import TestResult as Result


@pytest.fixture
def er() -> Case:
    return Case(id="t-er9", source="synthetic", demographics=Demographics(sex="女", age=62),
                hpi="患者2天前出现咳嗽，痰量增多，今日精神较差，食欲稍差。无鼻后滴流感。49岁绝经。",
                medications="口服氨氯地平。",
                physical_exam="神志嗜睡，GCS=E3V4M6=13分，疼痛评分 4分，毛细血管再充盈时间约2秒。",
                tests=[Result(name="促甲状腺激素受体抗体", result="TRAb 8.4IU/L"),
                       Result(name="呼出气一氧化氮", result="FeNO 36ppb")])


@pytest.mark.parametrize("text", ["GCS 13分。", "GCS评分13分（E3V4M6）。", "疼痛评分4分。", "NRS 4分。",
                                  "CRT约2秒。", "TRAb 8.4IU/L。", "促甲状腺激素受体抗体8.4IU/L。", "FeNO 36ppb。"])
def test_a_scale_sign_or_antibody_by_any_name_matches_the_record(er, text):
    report = check(er, text, key_facts=[])
    assert report.problems() == [] and any(f.kind == "measurement" for f in report.findings)


@pytest.mark.parametrize("text", ["GCS 10分。", "疼痛评分7分。", "CRT约4秒。", "TRAb 18.4IU/L。", "FeNO 63ppb。"])
def test_a_changed_scale_sign_or_antibody_value_is_a_mismatch(er, text):
    assert "value_mismatch" in check(er, text, key_facts=[]).statuses()


def test_an_antibody_is_not_the_hormone_it_is_named_after(er):
    # 促甲状腺激素受体抗体 begins with 促甲状腺激素 (TSH): the longer name wins
    report = check(er, "促甲状腺激素受体抗体8.4IU/L", key_facts=[])
    assert [f.key for f in report.findings] == ["trab"]


@pytest.mark.parametrize("text", ["精神差。", "精神萎靡。", "食欲差。", "痰多。"])
def test_a_finding_the_record_words_with_a_degree_word_inside_is_supported(er, text):
    report = check(er, text, key_facts=[])
    assert report.problems() == [] and report.findings


def test_an_age_at_a_life_event_is_not_the_patients_age(er):
    assert check(er, "49岁绝经。", key_facts=[]).problems() == []
    assert "contradicted" in check(er, "患者49岁。", key_facts=[]).statuses()


def test_a_short_term_inside_a_longer_symptom_is_not_read_alone(er):
    report = check(er, "咳嗽，无鼻后滴流感。", key_facts=[])
    assert report.problems() == [] and not any("流行性感冒" in f.key for f in report.findings)


@pytest.mark.parametrize("text", ["家属给喂了布洛芬退烧。", "之前诊所开过阿奇霉素，吃了3天。", "在外院打过头孢曲松。"])
def test_a_drug_given_in_lay_words_is_a_claim(er, text):
    assert "unsupported" in check(er, text, key_facts=[]).statuses()


def test_a_test_result_given_as_a_direction_needs_the_test_in_the_record(er):
    assert "unsupported" in check(er, "甲状腺摄碘率明显升高。", key_facts=[]).statuses()
    assert check(er, "血沉增快。", key_facts=[]).findings == []  # an analyte: values may stand for it


@pytest.fixture
def clinic() -> Case:
    return Case(id="t-clinic9", source="synthetic", demographics=Demographics(sex="女", age=41),
                hpi="患者1周来每次大便后滴鲜血，无黏液脓血便。右侧面部麻木2天。",
                past_history="否认既往面瘫史。", personal_history="已婚，与丈夫及12岁儿子同住。月经初潮14岁。",
                diagnosis=["特发性面神经麻痹"])


@pytest.mark.parametrize("text", ["月经初潮14岁。", "与丈夫和12岁儿子同住。", "育有1子（12岁）。"])
def test_another_persons_age_or_an_age_at_an_event_is_no_age_claim(clinic, text):
    assert not any(f.kind == "age" for f in check(clinic, text, key_facts=[]).findings)


def test_the_patients_own_age_is_still_read(clinic):
    assert "contradicted" in check(clinic, "女，14岁。", key_facts=[]).statuses()


def test_a_denied_form_the_record_denies_in_the_same_words_is_supported(clinic):
    # the record denies this form and gives another (便后滴鲜血): the narrower denial still holds
    assert check(clinic, "无黏液脓血便。", key_facts=[]).problems() == []
    assert check(clinic, "否认既往面瘫史。", key_facts=[]).problems() == []
    # a bare 无便血 is denied by the recorded form
    assert "contradicted" in check(clinic, "无便血。", key_facts=[]).statuses()


@pytest.fixture
def imaging() -> Case:
    return Case(id="t-imaging9", source="synthetic", demographics=Demographics(sex="男", age=66),
                physical_exam="气管右偏。心界向左下扩大。",
                tests=[Result(name="头颅CT", result="左侧颞部颅板下弧形高密度影，中线右移。"),
                       Result(name="胸部X线", result="右侧胸腔积液，纵隔向左侧移位。"),
                       Result(name="腹部超声", result="阑尾增粗，直径约1.2cm。")])


@pytest.mark.parametrize("text", ["中线向右移位。", "纵隔左移。", "气管向右偏。", "心界向左扩大。", "心界向左下扩大。"])
def test_a_shift_toward_the_recorded_side_is_supported(imaging, text):
    report = check(imaging, text, key_facts=[])
    assert report.problems() == [] and any(f.kind == "laterality" for f in report.findings)


@pytest.mark.parametrize("text", ["中线左移。", "纵隔向右侧移位。", "气管左偏。", "心界向右下扩大。"])
def test_a_shift_toward_the_other_side_is_contradicted(imaging, text):
    assert "contradicted" in check(imaging, text, key_facts=[]).statuses()


def test_a_size_named_after_the_test_that_measured_it_is_compared(imaging):
    assert check(imaging, "超声测阑尾直径约1.2cm。", key_facts=[]).problems() == []
    assert "value_mismatch" in check(imaging, "超声测阑尾直径约1.8cm。", key_facts=[]).statuses()


@pytest.fixture
def vitals() -> Case:
    return Case(id="t-vitals9", source="synthetic", demographics=Demographics(sex="男", age=30),
                physical_exam="T 37.2℃，P 96次/分，R 20次/分，BP 132/84mmHg，SpO2 97%。心尖部P2亢进。")


@pytest.mark.parametrize("text", ["BP 132/84，HR 96，T 37.2，RR 20，SpO2 97。", "生命体征：T37.2，P96，R20，BP132/84。"])
def test_vitals_written_without_units_are_read_in_their_charted_units(vitals, text):
    report = check(vitals, text, key_facts=[])
    assert report.problems() == [] and sum(f.kind == "measurement" for f in report.findings) >= 4


@pytest.mark.parametrize("text", ["BP 152/84。", "HR 116。", "T 38.2。", "SpO2 92。"])
def test_a_changed_vital_without_its_unit_is_a_mismatch(vitals, text):
    assert "value_mismatch" in check(vitals, text, key_facts=[]).statuses()


@pytest.mark.parametrize("text", ["P2亢进。", "正常心率60-100次。", "T12椎体压缩。"])
def test_a_number_outside_a_vitals_range_or_in_a_range_is_no_vital(vitals, text):
    assert not any(f.kind == "measurement" for f in check(vitals, text, key_facts=[]).findings)
