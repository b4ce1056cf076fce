"""Medication-consult replies in other words (issue 12): a bracketed reason after a prohibition, a wish
to die named, a narrower time for a general one, a prohibition whose verb stands bare at the clause's
end, stopping on one's own forbidden in other words, a harm in lay words — and what must stay unmet."""

import pytest

from medsim.text.match import find_point, says_otherwise


@pytest.mark.parametrize("text, point", [
    # a bracket that gives the reason explains the prohibition, it is not what is prohibited
    ("避免与奥美拉唑合用（CYP2C19抑制使活性代谢物减少约45%）。", "CYP2C19|降低疗效"),
    ("ACEI/ARB妊娠期禁用（胎儿肾发育不良、羊水过少、胎儿死亡风险）。", "致畸|羊水过少"),
    # a wish to die is named, not denied
    ("要是有不想活、想伤害自己的念头，一定马上去医院。", "自伤|自杀|伤害自己"),
    # a narrower time meets the general one
    ("现在就补一片，明天早上还是照常吃一片。", "明天|次日|第二天"),
    ("今天晚上先别洗澡。", "今天"),
    # the verb of a prohibition bare at the clause's end, its object said before it
    ("eGFR只有28，二甲双胍就不能用了。", "禁用|不能使用"),
    ("这个想法很好，但低钠盐您不能用。", "不宜|不建议|不适合"),
    ("千万别加了！感冒药里本身就有这个成分。", "不要再加|不要加服"),
    # stopping on one's own forbidden in other words
    ("换药得医生来，不能自己说停就停。", "不要自行停药|不能自行停药"),
    ("禁止自行骤停抗癫痫药。", "不要自行停药"),
    # harms in lay words
    ("利福平会让避孕药“失灵”，吃着也可能怀孕。", "避孕失败|避孕效果降低"),
    ("剂量错了会伤骨髓，严重的会要命。", "致命|死亡"),
    ("克拉霉素会让辛伐他汀越积越多，严重时会肌肉溶解。", "横纹肌溶解|肌溶解"),
])
def test_said_in_other_words_is_met(text, point):
    assert find_point(text, point).met, (text, point)


@pytest.mark.parametrize("text, point", [
    # a bracket listing what is prohibited stays in the prohibition's scope
    ("避免止痛药（如布洛芬、双氯芬酸）。", "布洛芬"),
    # the drug named after a prohibition of stopping on one's own is not stopped
    ("不可自行停用华法林（房颤卒中风险）。", "停用华法林|暂停华法林"),
    # a bare verb prohibited mid-clause, with more after it, is not a bare prohibition
    ("您可以用，不能用太多。", "禁用|不能使用"),
    # a verb allowed is no prohibition
    ("二甲双胍可以接着用。", "禁用|不能使用"),
    # the general time does not meet a narrower point
    ("明天再来复查。", "明早"),
    # 不要再加 is about adding; another verb prohibited bare does not meet it
    ("千万别停了！", "不要再加"),
    # a harm denied stays denied
    ("按说明书吃不会要命。", "致命"),
])
def test_other_statements_are_not(text, point):
    assert not find_point(text, point).met, (text, point)


DOUBLE = "不要加倍|不要一次吃两片|不要吃两片|只吃一片"


@pytest.mark.parametrize("text, opposite", [
    ("明天早上吃两片把昨天的补上。", True),  # the prohibited act set for a time as the plan
    ("补吃也可以，明早吃两片也可以。", True),  # the prohibited act allowed after it
    ("明早照常吃一片，千万别一次吃两片。", False),
    ("明早千万别吃两片。", False),
])
def test_a_prohibited_act_planned_or_allowed_is_the_opposite(text, opposite):
    assert bool(says_otherwise(text, DOUBLE)) == opposite, text


@pytest.mark.parametrize("text", ["戒酒以后明天喝酒也不行。", "明天喝酒会加重肝损伤。"])
def test_a_prohibited_act_denied_or_warned_about_is_not(text):
    assert says_otherwise(text, "避免饮酒") is None, text
