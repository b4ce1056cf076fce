import pytest

from medsim.scenario.schema import ScorerRef, Taxonomy
from medsim.scoring.aggregate import Item, bootstrap_ci, dimension_scores, item_score, scenario_score
from medsim.scoring.base import Score, scorer_names
from medsim.scoring.builtin import OPTIONAL

REFS = [ScorerRef(name="triage_level", weight=2), ScorerRef(name="department"), ScorerRef(name="info_gathering")]


def _scores(tri, dept, info=None):
    return [Score("triage_level", tri), Score("department", dept), Score("info_gathering", info)]


def test_item_score_weighted_mean_of_non_none():
    assert item_score(_scores(1.0, 0.0), REFS) == pytest.approx(2 / 3)  # (2·1 + 1·0) / 3
    assert item_score(_scores(1.0, 0.0, 1.0), REFS) == pytest.approx(3 / 4)
    assert item_score(_scores(None, None), REFS) is None


def test_item_score_pairs_by_position_when_a_scorer_repeats():
    refs = [ScorerRef(name="keypoints", weight=3), ScorerRef(name="keypoints", weight=1)]
    assert item_score([Score("keypoints", 1.0), Score("keypoints", 0.0)], refs) == 0.75


def test_scenario_score_excludes_errors_and_unscorable_items():
    items = [Item("a", _scores(1, 1)), Item("b", _scores(0, 0)), Item("c", _scores(0.5, 0.5)),
             Item("d", _scores(1, 1)), Item("e", [], error="model call failed"), Item("f", _scores(None, None))]
    agg = scenario_score(items, REFS, scenario_id="triage")
    assert agg.score == 0.625 and agg.n_items == 6 and agg.n_scored == 4 and agg.n_excluded == 2
    assert agg.excluded == ["e", "f"]
    lo, hi = agg.ci
    assert 0.0 <= lo <= 0.625 <= hi <= 1.0
    assert scenario_score(items, REFS, scenario_id="triage").ci == agg.ci  # seeded
    assert agg.by_scorer == {"triage_level": 0.625, "department": 0.625}


def test_bootstrap_edge_cases():
    assert bootstrap_ci([]) is None
    assert bootstrap_ci([0.4]) == (0.4, 0.4)
    assert bootstrap_ci([0.7, 0.7, 0.7]) == (pytest.approx(0.7), pytest.approx(0.7))


def test_scenario_score_accepts_dict_items():
    agg = scenario_score([{"case_id": "x", "scores": [Score("choice", 1.0)]}])
    assert agg.score == 1.0 and agg.ci == (1.0, 1.0)


def test_dimension_scores_mean_of_scenarios_with_stratified_ci():
    tax = Taxonomy(id="t", name="测试", source="test", dimensions=[
        {"id": "d1", "name": "一", "name_en": "one", "scenarios": ["s1", "s2"]},
        {"id": "d2", "name": "二", "name_en": "two", "scenarios": ["s3"]},
    ])
    s1 = scenario_score([Item("a", [Score("choice", 0.0)]), Item("b", [Score("choice", 1.0)])], scenario_id="s1")
    s2 = scenario_score([Item("a", [Score("choice", 1.0)]), Item("b", [Score("choice", 1.0)])], scenario_id="s2")
    d1, d2 = dimension_scores([s1, s2], tax)
    assert d1.score == 0.75 and d1.scenarios == ["s1", "s2"]
    # s1 resamples to a mean of 0, 0.5 or 1 (p = ¼, ½, ¼), s2 is always 1: the dimension is 0.5, 0.75 or 1
    assert d1.ci == (0.5, 1.0)
    assert d2.score is None and d2.missing == ["s3"]


def test_builtin_registers_every_scorer_and_tolerates_missing_ones():
    names = set(scorer_names())
    assert {"choice", "triage_level", "department", "diagnosis_match", "set_f1", "ordering", "extraction",
            "rouge", "similarity", "keypoints", "safety"} <= names
    assert set(OPTIONAL) == {"fact_consistency", "coverage", "info_gathering", "checklist"}
