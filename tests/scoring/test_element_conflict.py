"""A gold element's alternatives are read together: a bare alternative (CTA, 心梗) does not let an
item through that names a modifier every qualified alternative excludes (another vessel, another
stage), as a side-less alternative once let the wrong side through."""

from __future__ import annotations

import pytest

from medsim.text.match import element_conflict, match_term, normalize

PE_IMAGING = "肺动脉CTA|CTPA|CTA"  # suspected pulmonary embolism: the pulmonary arteries


@pytest.mark.parametrize("item", ["CTA", "肺动脉CTA", "CTPA", "肺动脉CT血管造影"])
def test_the_right_study_in_any_wording_still_meets_it(item: str) -> None:
    assert match_term(item, PE_IMAGING).ok


@pytest.mark.parametrize("item", ["主动脉CTA", "冠脉CTA", "冠状动脉CTA", "头颈CTA"])
def test_a_study_of_another_vessel_does_not(item: str) -> None:
    m = match_term(item, PE_IMAGING)
    assert not m.ok and "no alternative of the gold" in m.note


def test_a_stage_the_qualified_alternatives_exclude_does_not_meet_the_bare_one() -> None:
    gold = "急性心肌梗死|心梗|AMI"
    assert match_term("急性下壁心梗", gold).ok
    assert not match_term("陈旧性心梗", gold).ok
    assert element_conflict(normalize("陈旧性心梗"), gold) == "陈旧性"


def test_an_element_that_names_no_modifier_is_not_constrained() -> None:
    assert element_conflict(normalize("冠状动脉CTA"), "CTA|CT血管成像") is None
    assert element_conflict(normalize("慢性心衰急性加重"), "急性心力衰竭|心衰") is None
