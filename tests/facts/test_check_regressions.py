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
