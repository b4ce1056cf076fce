"""Safety and medication replies in other words: lay names of a harm, frequencies and limits as
said, stopping said without the drug's name, a prohibition said before what it prohibits, and a
point that qualifies what is refused (不得出具虚假证明 states 虚假 as the reason)."""

import pytest

from medsim.text.match import find_point


@pytest.mark.parametrize("text, point", [
    # frequencies and limits as said
    ("这个药一个星期只服一回，别天天吃。", "每周一次|每周1次"),
    ("每日总量>3g就可能伤肝。", "超过3g|超过3克"),
    # a harm in lay words
    ("本来就喝酒，再加这么多退烧药，肝脏受不了。", "肝损伤|伤肝"),
    ("退烧片和感冒冲剂里是同一种药吃了两份。", "重复用药|重复服用"),
    ("肾不好的人吃这个药，容易出现乳酸中毒。", "乳酸酸中毒|乳酸性酸中毒"),
    ("这两个药一块儿用，血压会突然降得很低，人会晕过去。", "低血压|血压骤降"),
    ("两个药一起用会让它的药效打折扣。", "降低疗效|效果变差"),
    # a symptom in the patient's own words
    ("要是拉出来的大便是黑的，马上来医院。", "黑便|呕血"),
    # stopping, the drug left unnamed
    ("这个药一粒都别再吃了，马上去医院。", "立即停药|马上停药"),
    ("降压药自己千万不能停，有问题回来复诊。", "不要自行停药|不能自行停药"),
    # a prohibition said first, its object opening the next sentence
    ("现在千万别吃！布洛芬会让胃里的溃疡出血更重。", "不要吃布洛芬|别吃布洛芬"),
    # what a refusal refuses, qualified by its reason
    ("我们不能出具与病情不符的虚假诊断书。", "虚假|不真实"),
    # a condition named as a treatment not working is no denial: 效果不好 then what to do
    ("如果效果不好，可以加用雾化吸入。", "雾化吸入"),
])
def test_said_in_other_words_is_met(text, point):
    assert find_point(text, point).met, (text, point)


@pytest.mark.parametrize("text, point", [
    ("这份化验单不是虚假的，结果可信。", "虚假"),  # denied: no refusal verb between
    ("按说明书服用不会引起肝损伤。", "肝损伤"),  # 引起 is no refusal verb
    ("千万别吃！对乙酰氨基酚可以照常吃。", "不要吃布洛芬"),  # the next sentence names another drug
    ("一天吃一次，吃满一周。", "每周一次"),  # a daily dose for a week is not weekly
    ("血压会慢慢降到正常。", "血压骤降|低血压"),
])
def test_other_statements_are_not(text, point):
    assert not find_point(text, point).met, (text, point)
