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
