"""A test's name holds finding words (妊娠 in 尿妊娠试验) and a result may follow a colon
(尿妊娠试验：阴性): neither makes the record report the finding."""

from __future__ import annotations

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics
from medsim.scenario.schema import TestResult as Result


def _cystitis() -> Case:
    return Case(id="t-cystitis", source="synthetic", demographics=Demographics(sex="女", age=28),
                chief_complaint="尿频、尿急、尿痛1天",
                hpi="1天前无明显诱因出现尿频、尿急、尿痛，伴终末血尿，无发热、腰痛。",
                tests=[Result(name="尿妊娠试验", result="阴性")])


def test_not_pregnant_is_not_contradicted_by_the_pregnancy_test_name():
    found = check(_cystitis(), "育龄非妊娠女性，尿妊娠试验阴性。", key_facts=[])
    assert "contradicted" not in found.statuses()


def test_a_positive_pregnancy_test_is_contradicted_by_a_negative_one():
    found = check(_cystitis(), "尿妊娠试验阳性。", key_facts=[])
    assert "contradicted" in found.statuses()


def _anticoagulated() -> Case:
    return Case(id="t-af", source="synthetic", demographics=Demographics(sex="男", age=72),
                chief_complaint="心悸3天", hpi="3天前出现心悸，无胸痛，无肢体无力，无言语不清，无出血。",
                medications="二甲双胍0.5g 每日两次")


def test_danger_signs_of_an_instruction_are_not_claims_about_the_patient():
    advice = ("出现口角歪斜、一侧肢体无力、言语不清，立即拨打120。\n"
              "· 刷牙出血、流鼻血不止、大便发黑，要来医院看看。\n"
              "· 要是伤口红肿、流脓，赶紧回来看。")
    assert check(_anticoagulated(), advice, key_facts=[]).problems() == []


def test_a_new_prescription_is_not_an_invented_history_when_the_text_prescribes():
    plan = "1. 抗凝：利伐沙班20mg每日一次，晚餐时服。2. 原有药物：二甲双胍0.5g每日两次。"
    assert [f.status for f in check(_anticoagulated(), plan, key_facts=[]).problems()] == ["unsupported"]
    prescribed = check(_anticoagulated(), plan, key_facts=[], prescribing=True)
    assert prescribed.problems() == [] and prescribed.counts["supported"] == 1
    wrong_dose = check(_anticoagulated(), "继续二甲双胍1.0g每日两次。", key_facts=[], prescribing=True)
    assert [f.status for f in wrong_dose.problems()] == ["value_mismatch"]  # the record's own drug keeps its dose


def test_stopping_a_drug_is_an_action_not_a_denial_that_it_is_taken():
    found = check(_anticoagulated(), "任何情况下都不能自行停用二甲双胍。", key_facts=[])
    assert "contradicted" not in found.statuses()
