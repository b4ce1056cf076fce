"""Advice says things about what may come, not about the patient: signs to come back for said without
an urging word before the care (出现X就医, 再去门诊), signs to watch for (注意X), harms a drug may cause
(会引起X, 可致X), later plans (以后再怀孕), conditions of an instruction (便秘就用开塞露, 血压正常也不能停),
age limits of a drug (未满18岁). The record's own history stays checked (出现胸痛，遂来我院就诊)."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics


def _problems(case: Case, text: str) -> list[tuple[str, str]]:
    return [(f.status, f.text) for f in check(case, text, key_facts=[]).problems()]


@pytest.fixture
def cold() -> Case:
    return Case(id="t-cold", source="synthetic", demographics=Demographics(sex="男", age=19),
                chief_complaint="打喷嚏、流涕2天",
                hpi="2天前受凉后打喷嚏、流清涕，无发热，无咳嗽、气促。", diagnosis=["急性上呼吸道感染"])


@pytest.mark.parametrize("advice", [
    "出现发热、呼吸困难或超过10天不好，再去门诊就诊。",
    "出现高热就医。",
    "注意有无发热、气促。",
    "复方感冒药吃多了会引起心慌、头晕。",
    "发热就用对乙酰氨基酚，多喝水。",
    "以后再发热，可以先在家观察。",
    "左氧氟沙星未满18岁都不让用。",
])
def test_signs_in_advice_are_not_claims_about_the_patient(cold, advice):
    assert _problems(cold, advice) == []


def test_the_patients_history_is_still_checked(cold):
    assert ("contradicted", "发热") in _problems(cold, "患者2天前出现发热，遂来我院就诊。")
    assert ("contradicted", "发热") in _problems(cold, "患者目前有发热、咳嗽。")


def test_a_disease_named_with_a_negative_word_does_not_deny_the_next(cold):
    rec = Case(id="t-uti", source="synthetic", demographics=Demographics(sex="女", age=28),
               chief_complaint="孕20周，尿频尿痛2天", hpi="孕20周，尿频、尿痛2天，无发热。", diagnosis=["急性膀胱炎"])
    assert _problems(rec, "妊娠期无症状菌尿及急性膀胱炎均需治疗。") == []
