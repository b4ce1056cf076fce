"""Sizes and dimensions compared with the record's after unit conversion."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case
from medsim.scenario.schema import TestResult as Result


@pytest.fixture
def abscess() -> Case:
    return Case(id="t-size", source="synthetic", physical_exam="腹软，肝肋下2cm。",
                tests=[Result(name="腹部超声", result="肝右叶见6.5cm×5.8cm混合回声区；胆总管扩张，直径1.5cm。")])


@pytest.mark.parametrize("text", ["肝右叶见6.5cm×5.8cm混合回声区。", "肝右叶65mm×58mm混合回声区。", "胆总管直径15mm。",
                                  "肝肋下2cm。"])
def test_same_size_in_other_units_is_supported(abscess, text):
    report = check(abscess, text, key_facts=[])
    assert report.problems() == [] and "supported" in report.statuses()


@pytest.mark.parametrize("text", ["肝右叶见8.5cm×5.8cm混合回声区。", "胆总管扩张，直径2.5cm。", "肝肋下4cm。"])
def test_a_changed_size_is_a_value_mismatch(abscess, text):
    assert "value_mismatch" in check(abscess, text, key_facts=[]).statuses()


@pytest.fixture
def small_kidneys() -> Case:
    # end-stage diabetic kidney disease: both kidneys small, the sides given in brackets
    return Case(id="t-ckd", source="synthetic",
                tests=[Result(name="泌尿系超声", result="双肾缩小（左8.6cm，右8.4cm），皮质变薄，无肾积水。")])


@pytest.mark.parametrize("text", ["左肾86mm，右肾长径84mm。", "右肾长径约8.4cm。", "双肾超声：左肾8.6cm，右肾84mm。"])
def test_a_sided_size_matches_the_same_side(small_kidneys, text):
    report = check(small_kidneys, text, key_facts=[])
    assert [f.status for f in report.findings if f.kind == "measurement"] and \
        {f.status for f in report.findings if f.kind == "measurement"} == {"supported"}


@pytest.mark.parametrize("text", ["右肾长径约48mm。", "右肾8.6cm。", "左肾长径6.8cm。"])
def test_a_sided_size_changed_or_taken_from_the_other_side(small_kidneys, text):
    # 右肾8.6cm is the left kidney's length given to the right one: not a match
    report = check(small_kidneys, text, key_facts=[])
    assert [f.status for f in report.findings if f.kind == "measurement"] == ["value_mismatch"]
    assert "8." in report.findings[-1].evidence_text
