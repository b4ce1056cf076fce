"""medsim.text.adherence: an adherence point answered with leave to stop on one's own is said otherwise."""

from medsim.text.adherence import asks_adherence, stops_on_own

POINT = "降压药|按时服药|坚持服药"


def test_adherence_points_are_recognised():
    assert asks_adherence(POINT)
    assert asks_adherence("不要自行停用胰岛素|坚持注射胰岛素")
    assert not asks_adherence("低盐|限盐")


def test_leave_to_stop_on_ones_own_is_the_opposite_of_adherence():
    # after a hypertensive haemorrhage the antihypertensive is for life: normal readings are its effect
    assert stops_on_own("降压药：氨氯地平5mg每日一次，血压降到正常后可以自行停用。", POINT)
    assert stops_on_own("降压药按时吃，血压好了就可以自己停掉。", POINT)
    assert not stops_on_own("降压药按时服用，血压正常也不能自行停药。", POINT)
    # the physician's stop is not the patient's own
    assert not stops_on_own("阿司匹林服用6～8周，复查心脏彩超正常后由医生决定停药。", "阿司匹林|按时服药")
    assert not stops_on_own("血压正常后可以自行停用。", "低盐|限盐")  # not an adherence point
