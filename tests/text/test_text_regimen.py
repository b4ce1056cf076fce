"""medsim.text.regimen: how often, how long and how many, as said in advice."""

from medsim.text.regimen import regimen_conflict, regimen_numbers


def test_numbers_of_a_regimen_by_kind():
    said = regimen_numbers("一天两次，早晚各一次，连吃3天，最多含3片，间隔4～6小时")
    assert said["per_day"] == [(2.0, 2.0), (2.0, 2.0)]
    assert said["course_days"] == [(3.0, 3.0)]
    assert said["ceiling"] == [(3.0, 3.0)]
    assert said["interval_h"] == [(4.0, 6.0)]
    assert regimen_numbers("每周一次")["per_day"] == [(1 / 7, 1 / 7)]
    assert regimen_numbers("3天后复诊") == {}  # a follow-up date is not a course


def test_a_regimen_said_with_another_number_conflicts():
    once = ["每日一次", "每天一次", "qd"]
    assert regimen_conflict("一次吃180mg，一天两次，连吃3天。", once) == "per_day"
    assert regimen_conflict("一天只吃一次，连吃3天就停。", once) is None
    course = ["连用3天", "共3天", "连用5天", "五天"]
    assert regimen_conflict("每天一次，需要连续吃7–10天。", course) == "course_days"
    assert regimen_conflict("每天一次，连吃5天。", course) is None
    assert regimen_conflict("可以先改成每天吃一次试两周。", ["每周一次", "一周一次"]) == "per_day"
    assert regimen_conflict("多喝水，注意休息。", once) is None  # nothing said: a missing point, not a wrong one
