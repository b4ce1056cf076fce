"""doses: the right drug at another dose or frequency than the case's own gold is charged."""

from medsim.scenario.registry import get_scenario
from medsim.scoring.fixed import score_fixed

from ._util import case, run, transcript


def test_wrong_frequency_of_a_gold_drug_is_charged_and_the_right_one_is_not():
    c = case(gold={"treatment": ["阿司匹林100mg每日一次", "替格瑞洛180mg负荷后90mg每日两次"]})
    wrong = run("doses", c, transcript({"treatment": ["替格瑞洛90mg每日一次", "阿司匹林100mg qd"]}))
    assert wrong.value == 0.25 and "替格瑞洛" in wrong.reasons[0]
    right = run("doses", c, transcript({"treatment": ["替格瑞洛 90mg bid", "阿司匹林 100mg qd"]}))
    assert right.value == 1.0
    undosed = run("doses", c, transcript({"treatment": ["双联抗血小板治疗"]}))
    assert undosed.value == 1.0


def test_a_case_without_doses_is_not_scored():
    assert run("doses", case(gold={}), transcript({"treatment": ["替格瑞洛90mg qd"]})).value is None


def test_bundled_treatment_item_with_a_wrong_frequency_scores_low():
    from medsim.scoring.fixed import reference_answer

    loaded = get_scenario("treatment")
    c = next(x for x in loaded.cases if x.id == "inp-21")
    assert "替格瑞洛" in (c.reference_answer or "") and "每日两次" in c.reference_answer
    plan = ["急诊PCI（冠脉造影+支架）", "阿司匹林300mg嚼服，之后100mg每日一次", "替格瑞洛180mg负荷，之后90mg每日两次",
            "阿托伐他汀40mg每晚一次", "普通肝素抗凝", "美托洛尔口服"]
    right = score_fixed(loaded.scenario, c, {"treatment": plan}, case_pool=loaded.cases).item_score
    once = [p.replace("90mg每日两次", "90mg每日一次") for p in plan]
    wrong = score_fixed(loaded.scenario, c, {"treatment": once}, case_pool=loaded.cases).item_score
    reference = score_fixed(loaded.scenario, c, reference_answer(loaded.scenario, c), case_pool=loaded.cases).item_score
    assert right >= 0.9 * reference and wrong <= 0.3 * reference
