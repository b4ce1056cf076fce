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


def test_a_dose_past_the_label_ceiling_is_charged_though_the_case_gives_no_dose():
    # 利伐沙班 at most 30mg a day (15mg bid for the first 21 days of VTE), whatever the case
    c = case(gold={"treatment": ["利伐沙班抗凝至少3个月"]})
    over = run("doses", c, transcript({"treatment": ["利伐沙班20mg每日两次，21天后20mg每日一次"]}))
    assert over.value == 0.25 and "30mg" in over.reasons[0]
    label = run("doses", c, transcript({"treatment": ["利伐沙班15mg每日两次，21天后20mg每日一次"]}))
    assert label.value == 1.0
    # 阿仑膦酸钠70mg is the weekly tablet: taken daily it is seven times the dose
    c = case(gold={"treatment": ["抗骨质疏松治疗"]})
    assert run("doses", c, transcript({"treatment": ["阿仑膦酸钠70mg每日一次"]})).value == 0.25
    assert run("doses", c, transcript({"treatment": ["阿仑膦酸钠70mg每周一次，晨起空腹"]})).value == 1.0


def test_a_child_is_held_to_per_kg_ceilings_from_the_recorded_weight():
    from medsim.scenario.schema import Demographics, Vitals

    child = case(gold={"advice": "对乙酰氨基酚退热"}).model_copy(update={
        "demographics": Demographics(sex="男", age=4), "vitals": Vitals(temperature=38.6, weight_kg=16)})
    adult_tablet = run("doses", child, transcript({"advice": "对乙酰氨基酚500mg，必要时口服"}))
    assert adult_tablet.value == 0.25 and "mg/kg" in adult_tablet.reasons[0]  # 31mg/kg, the most is 15
    too_often = run("doses", child, transcript({"advice": "对乙酰氨基酚200mg，每4小时一次"}))
    assert too_often.value == 0.25 and "4次" in too_often.reasons[0]  # 6 times a day, a child's most is 4
    right = run("doses", child, transcript({"advice": "对乙酰氨基酚每次200mg，间隔4–6小时，24小时不超过4次"}))
    assert right.value == 1.0


def test_a_case_that_itself_doses_past_a_ceiling_is_trusted_for_that_drug():
    c = case(gold={"treatment": ["左氧氟沙星0.5g每日两次"]})  # a case author's deliberate dose
    assert run("doses", c, transcript({"treatment": ["左氧氟沙星0.5g每日两次"]})).value == 1.0


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


def test_the_right_dose_for_the_wrong_length_of_time_is_charged():
    # ITP: high-dose dexamethasone is a 4-day pulse, not a month of daily doses
    c = case(gold={"advice": "大剂量地塞米松40mg/d×4天"})
    month = run("doses", c, transcript({"advice": "地塞米松40mg，每日1次口服，连续服用1个月后复诊再定"}))
    assert month.value == 0.25 and "疗程" in month.reasons[0]
    assert run("doses", c, transcript({"advice": "已完成地塞米松40mg/日×4天疗程，出院暂不需口服激素"})).value == 1.0
