import pytest

from medsim.scoring.aggregate import Item, scenario_score
from medsim.scoring.choice import position_bias

from ._util import case, run, transcript

OPTS = {"A": "稳定型心绞痛", "B": "急性心肌梗死", "C": "主动脉夹层", "D": "肺栓塞"}


# ---------------------------------------------------------------------- choice

def test_choice_single_correct_and_prose():
    c = case(options=OPTS, gold={"choice": "B"})
    assert run("choice", c, transcript(["B"])).value == 1.0
    s = run("choice", c, transcript("我认为答案是B，因为A选项描述的是稳定型心绞痛"))
    assert s.value == 1.0 and s.details["predicted"] == ["B"]


def test_choice_model_that_lists_every_option_scores_zero():
    c = case(options=OPTS, gold={"choice": "B"})
    s = run("choice", c, transcript(["A", "B", "C", "D"]))
    assert s.value == 0.0 and "chose every option" in s.reasons


def test_choice_multiple_exact_by_default_jaccard_when_partial():
    c = case(options=OPTS, gold={"choice": "BD"})
    assert run("choice", c, transcript(["D", "B"])).value == 1.0
    assert run("choice", c, transcript(["B"])).value == 0.0
    assert run("choice", c, transcript(["B"]), {"partial": True}).value == 0.5  # |{B}| / |{B,D}|
    assert run("choice", c, transcript(["B", "C", "D"]), {"partial": True}).value == pytest.approx(2 / 3)


def test_choice_maps_shuffled_display_letters_back():
    c = case(options=OPTS, gold={"choice": "C"})
    shown = {"A": "C", "B": "A", "C": "B", "D": "D"}  # display A shows original C
    s = run("choice", c, transcript(["A"], info={"options_shown": shown}))
    assert s.value == 1.0 and s.details["gold_display"] == ["A"] and s.details["predicted"] == ["C"]
    assert run("choice", c, transcript(["C"], info={"options_shown": shown})).value == 0.0


def test_choice_reason_names_the_letters_the_model_saw():
    # the model saw 主动脉夹层 (the file's C) as A and chose B (the file's A): the reason a reader checks
    # against the transcript must say B and A, with the file's letters only beside them
    c = case(options=OPTS, gold={"choice": "C"})
    shown = {"A": "C", "B": "A", "C": "B", "D": "D"}
    s = run("choice", c, transcript(["B"], info={"options_shown": shown}))
    assert s.reasons[0].startswith("选择 B，标准答案 A（") and "题库原序为选择 A，标准答案 C" in s.reasons[0]
    unshuffled = run("choice", c, transcript(["C"]))
    assert unshuffled.reasons[0] == "选择 C，标准答案 C，正确"


def test_choice_unparsed_answer_is_zero_with_reason():
    c = case(options=OPTS, gold={"choice": "B"})
    s = run("choice", c, transcript(None, parse_error="no option letter found"))
    assert s.value == 0.0 and s.reasons == ["answer not parsed: no option letter found"]


def test_choice_empty_answer_is_zero():
    c = case(options=OPTS, gold={"choice": "B"})
    assert run("choice", c, transcript("", parse_error="empty answer")).value == 0.0


def test_position_bias_by_original_and_display_letter():
    c = case(options=OPTS, gold={"choice": "B"})
    results = [
        run("choice", c, transcript(["A"], info={"options_shown": {"A": "B", "B": "A", "C": "C", "D": "D"}})),  # right
        run("choice", c, transcript(["B"])),  # right, gold shown at B
        run("choice", c, transcript(["A"])),  # wrong, gold shown at B
    ]
    pb = position_bias(results)
    assert pb["by_original"] == {"B": {"n": 3, "accuracy": pytest.approx(2 / 3)}}
    assert pb["by_display"] == {"A": {"n": 1, "accuracy": 1.0}, "B": {"n": 2, "accuracy": 0.5}}
    assert pb["spread_display"] == 0.5


# ---------------------------------------------------------------------- triage



def _tri(level, gold=2, **config):
    return run("triage_level", case(gold={"level": gold, "department": "心血管内科"}),
               transcript({"level": level, "department": "心内科"}), config)


def test_triage_scored_by_distance_and_direction():
    assert _tri(2).value == 1.0
    over = _tri(1)
    assert over.value == 0.3 and over.details["over_triage"] and not over.details["under_triage"]
    assert _tri(1, gold=3).value == 0.0  # two levels too urgent earns nothing
    under = _tri(3)  # a level-Ⅱ patient sent to wait: the error that kills
    assert under.value == 0.0 and under.details["under_triage"] and under.details["critical_under_triage"]
    mild = _tri(4, gold=3)
    assert mild.value == 0.0 and mild.details["under_triage"] and not mild.details["critical_under_triage"]
    assert _tri(4, gold=3, under_credit=0.2).value == 0.2
    assert _tri(3, under_credit=0.2).value == 0.0  # never for a Ⅰ–Ⅱ patient
    assert _tri(1, over_credit=0.5).value == 0.5


def test_constant_level_two_earns_about_the_share_of_level_two_patients():
    golds = [1] * 6 + [2] * 10 + [3] * 10 + [4] * 8  # the bundled mix
    mean = sum(_tri(2, gold=g).value for g in golds) / len(golds)
    assert mean == pytest.approx((10 + 10 * 0.3) / 34)


def test_triage_reads_roman_and_chinese_levels_left_as_text():
    assert _tri("Ⅱ级").value == 1.0
    assert _tri("二级（危重）").value == 1.0


def test_triage_invalid_level_is_zero():
    s = _tri(5)
    assert s.value == 0.0 and s.details["valid"] is False


def test_triage_rates_aggregate():
    items = [Item(f"c{i}", [_tri(level)]) for i, level in enumerate([2, 3, 1, 2])]
    agg = scenario_score(items)
    assert agg.rates == {"under_triage_rate": 0.25, "over_triage_rate": 0.25, "critical_under_triage_rate": 0.25}
    assert agg.score == pytest.approx((1 + 0 + 0.3 + 1) / 4)


# ------------------------------------------------------------------ department

def _dept(pred, gold="心血管内科"):
    return run("department", case(gold={"department": gold}), transcript({"department": pred}))


@pytest.mark.parametrize("pred", ["心内科", "心内", "心血管内科", "心血管内科门诊", "心内科 "])
def test_department_synonyms(pred):
    assert _dept(pred).value == 1.0


def test_department_emergency_aliases_and_gold_alternatives():
    assert _dept("急诊", "急诊科").value == 1.0
    assert _dept("急诊内科", "急诊科").value == 1.0
    assert _dept("急诊内科", "急诊科|心血管内科").value == 1.0


def test_a_specialty_emergency_unit_is_not_the_emergency_department():
    # a constant 急诊科 must not match every gold that lists a 某科急诊 alternative
    assert _dept("急诊科", "儿科|儿科急诊").value == 0.0
    assert _dept("儿科急诊", "儿科").value == 1.0
    assert _dept("抢救室", "急诊科").value == 1.0  # the resuscitation room is the emergency department


def test_department_near_misses_do_not_match():
    assert _dept("神经外科", "神经内科").value == 0.0
    assert _dept("心胸外科").value == 0.0


def test_gynaecology_and_obstetrics_are_two_departments():
    assert _dept("产科", "妇科").value == 0.0  # an ectopic pregnancy is gynaecology's
    assert _dept("妇科", "产科").value == 0.0
    assert _dept("妇产科", "妇科|妇产科").value == 1.0
    assert _dept("产科急诊", "产科").value == 1.0


def test_triage_a_wrong_department_charges_the_right_level():
    from medsim.scenario.registry import get_scenario
    from medsim.scoring.fixed import score_fixed

    loaded = get_scenario("triage")
    c = next(x for x in loaded.cases if x.id == "tri-001")  # STEMI with cardiogenic shock, level 1
    right = score_fixed(loaded.scenario, c, {"level": 1, "department": "胸痛中心"}, case_pool=loaded.cases)
    surgery = score_fixed(loaded.scenario, c, {"level": 1, "department": "心胸外科"}, case_pool=loaded.cases)
    assert right.item_score == 1.0
    assert surgery.item_score <= 0.3
    dept = next(s for s in surgery.scores if s.scorer == "department")
    assert dept.value == 0.25 and "×0.25" in dept.reasons[0]


def test_department_hedged_answer_earns_nothing_in_either_order():
    s = _dept("心内科或急诊科", "急诊科")
    assert s.value == 0.0 and s.details["judged"] == "心内科"
    # a choice of two places is no decision, even with the right one first
    undecided = _dept("急诊科/心内科", "急诊科")
    assert undecided.value == 0.0 and undecided.details.get("undecided")
    # the same place said twice in other words is one decision
    assert _dept("心内科/心血管内科", "心血管内科").value == 1.0
    assert _dept("急诊科/急诊医学科", "急诊科").value == 1.0


def test_triage_level_offered_as_a_choice_is_no_level():
    from medsim.sim.answer import coerce_int

    assert coerce_int("1或2") is None and coerce_int("2-3级") is None and coerce_int("Ⅱ-Ⅲ级") is None
    assert coerce_int("2级（10-30分钟内就诊）") == 2 and coerce_int("Ⅱ级") == 2


def test_department_missing_field():
    s = run("department", case(gold={"department": "骨科"}), transcript({"level": 3, "department": None}))
    assert s.value == 0.0


def test_a_diagnosis_offered_as_a_choice_is_no_diagnosis():
    gold = {"diagnosis": "急性胆管炎|急性梗阻性化脓性胆管炎"}
    hedge = run("diagnosis_match", case(gold=gold), transcript({"diagnosis": "急性胆管炎或急性胆囊炎，待进一步检查"}))
    assert hedge.value == 0.0 and hedge.details.get("undecided")
    several = run("diagnosis_match", case(gold=gold), transcript({"diagnosis": "急性胆管炎？肝脓肿？待查"}))
    assert several.value == 0.0
    # one suspected diagnosis is a diagnosis; a bracketed either-or about its type is not a choice of diseases
    assert run("diagnosis_match", case(gold=gold), transcript({"diagnosis": "急性胆管炎？"})).value == 1.0
    assert run("diagnosis_match", case(gold=gold), transcript({"diagnosis": "急性胆管炎（结石或狭窄所致）"})).value == 1.0
