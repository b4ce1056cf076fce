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
