"""medsim.text.courses: how long a named drug is taken, and a course said another length."""

import math

from medsim.text.courses import course_conflicts, drug_courses


def _spans(text: str) -> list[tuple[str, float, float]]:
    return [(c.drug, c.low, c.high) for c in drug_courses(text)]


def test_course_lengths_in_days_weeks_months_and_years():
    assert _spans("替格瑞洛90mg每日两次至少12个月") == [("替格瑞洛", 360.0, math.inf)]
    assert _spans("小剂量阿司匹林继续服用至6～8周") == [("阿司匹林", 42.0, 56.0)]
    assert _spans("地塞米松40mg/d×4天") == [("地塞米松", 4.0, 4.0)]
    assert _spans("替格瑞洛每天两次，吃满一年") == [("替格瑞洛", 360.0, 360.0)]  # 一年 agrees with 12个月
    assert _spans("长期服用阿司匹林和他汀") == [("阿司匹林", math.inf, math.inf), ("他汀", math.inf, math.inf)]


def test_time_points_history_onset_and_phases_are_not_courses():
    assert _spans("左氧氟沙星0.5g每日1次，3天后复查") == []  # a follow-up date
    assert _spans("舍曲林50mg每日1次，已服5天") == []  # what was taken so far
    assert _spans("舍曲林一般要吃2～4周才开始改善情绪") == []  # the time it takes to work
    # the first phase of a VTE course, not its length
    assert _spans("利伐沙班15mg每日两次，共21天；之后改为20mg每日一次") == []


def test_a_course_of_another_length_conflicts_and_an_overlapping_one_does_not():
    dapt = ["阿司匹林100mg每日一次及替格瑞洛90mg每日两次至少12个月"]
    assert course_conflicts("替格瑞洛90mg每天两次，吃满1个月", dapt)
    assert not course_conflicts("替格瑞洛90mg每天两次，至少吃满一年，千万别自己停", dapt)
    kawasaki = ["小剂量阿司匹林继续服用至6～8周，复查超声心动图正常后停药"]
    assert course_conflicts("阿司匹林50mg每日一次，热退后服一周即可停药", kawasaki)
    assert not course_conflicts("阿司匹林每日约50mg，疗程6～8周", kawasaki)
    # a class's course holds for its members: a statin after a stroke is for life, not three months
    stroke = ["长期服用阿司匹林和他汀"]
    assert course_conflicts("阿托伐他汀20mg每晚1次，服用3个月，血脂正常后即可停药", stroke)
    assert not course_conflicts("阿托伐他汀20mg每晚1次，长期服用", stroke)
    assert not course_conflicts("阿托伐他汀20mg每晚1次", stroke)  # no length said: nothing to compare
