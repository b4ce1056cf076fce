"""Advice given both ways commits to nothing; a differential and wanting something are not that."""

from medsim.text.match import both_ways, find_point


def test_both_ways_finds_the_same_thing_affirmed_and_denied():
    text = "可能需要用药，也可能不需要用药；可能严重，也可能不严重。"
    assert both_ways(text) == ["用药", "严重"]
    assert both_ways("您的情况可能是胃炎，也可能不是胃炎") == ["胃炎"]


def test_a_differential_or_a_single_hedge_is_not_both_ways():
    assert both_ways("可能是胃炎，也可能是胆囊炎，需要做腹部超声区分。") == []
    assert both_ways("这个药可能有效，先吃三天看看。") == []


def test_cannot_help_wanting_is_not_a_negation():
    # 控制不住想伤害自己 says the wish; 千万别 still prohibits
    assert find_point("如果此刻控制不住想伤害自己，请立即拨打120。", "伤害自己").met
    assert not find_point("千万别伤害自己。", "伤害自己").met
