"""The correctness property of issue 11: on every bundled scenario, no clinician that knows no medicine
scores above max(0.15, the baseline), and the reference still reaches 0.95.

It runs every adversary over every bundled case (a few minutes on two cores); it is a property of
the scorers and the cases, not a timing."""

import pytest

from medsim.scenario.registry import get_scenario, scenario_ids
from medsim.validity import REFERENCE_MIN, check_validity


@pytest.fixture(scope="module")
def report():
    loaded = [get_scenario(sid, check_scorers=True) for sid in scenario_ids()]
    return check_validity(loaded, workers=2)


def test_no_adversary_beats_the_bar_in_any_bundled_scenario(report):
    flagged = [(c.strategy, c.scenario, round(c.score, 3), round(report.bar(c.scenario), 3)) for c in report.flagged()]
    assert not flagged, flagged


def test_the_reference_still_scores(report):
    short = [(c.scenario, round(c.score, 3)) for c in report.reference_short()]
    assert not short, f"reference below {REFERENCE_MIN}: {short}"


def test_every_scenario_and_class_is_in_the_table(report):
    assert set(report.scenarios) == set(scenario_ids())
    assert {"refuse", "alarm", "dump", "parrot", "hedge", "ask_all", "constant", "random", "abstain"} <= set(
        report.classes())


def test_shipped_floors_are_current(report):
    """scenarios/floors.json (shown beside every score, and in the README) is what the scorers give today;
    regenerate with `medsim validity --floors-out scenarios/floors.json`."""
    from medsim.validity import bundled_floors, floors_of

    loaded = [get_scenario(sid, check_scorers=True) for sid in scenario_ids()]
    fresh, shipped = floors_of(report, loaded), bundled_floors()
    stale = {sid: (shipped.get(sid, {}).get("best_adversary"), f["best_adversary"]) for sid, f in fresh.items()
             if {k: v for k, v in shipped.get(sid, {}).items() if k != "files"} != {k: v for k, v in f.items()
                                                                                  if k != "files"}}
    assert not stale, f"scenarios/floors.json is stale (shipped, now): {stale}"
