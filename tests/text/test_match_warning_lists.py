"""find_point: warning signs named with a negative predicate, and list items that prohibit their own object."""

import pytest

from medsim.text.match import find_point

DEHYDRATION = "尿少|精神差|眼窝凹陷|哭时无泪|不能进食"


@pytest.mark.parametrize("text", [
    "出现尿明显减少（6小时没尿）、精神差、眼窝凹陷，马上来医院。",  # 没尿 is anuria, a sign to come back for
    "出现哭时没眼泪、精神差，马上来医院。",
    "孩子没精神、不吃奶，要及时就诊。",
])
def test_signs_named_with_a_negative_word_are_stated(text):
    assert find_point(text, DEHYDRATION).met


def test_a_denial_of_the_signs_is_still_a_denial():
    assert not find_point("孩子没有尿少、精神差的情况", "尿少|精神差").met


def test_a_later_item_prohibiting_its_own_object_is_new_advice():
    assert find_point("少吃盐、少吃内脏海鲜，少喝啤酒。", "低盐").met
    assert find_point("低盐、不要吃腌制食品。", "低盐").met


def test_a_prohibition_after_the_items_still_reaches_them():
    assert not find_point("布洛芬、双氯芬酸这类止痛药都别吃了。", "布洛芬").met
    assert not find_point("布洛芬、对乙酰氨基酚都不要吃。", "对乙酰氨基酚").met
