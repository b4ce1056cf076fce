"""A record's key fact stated in a summary's own words is stated; negated, changed or half told it is not."""

import pytest

from medsim.text.keyfacts import states_fact


@pytest.mark.parametrize("text, fact", [
    ("Hb 118g/L，下肢静脉未见血栓；骨密度T值-3.2。", "下肢静脉无血栓"),  # 未见 = 无
    ("下肢静脉超声无DVT；BMD腰椎T -3.2。", "下肢静脉无血栓"),  # DVT is a thrombus, in the lexicon
    ("下肢静脉超声无DVT；BMD腰椎T -3.2。", "骨密度T值-3.2"),
    ("T2DM 8年。T 39.4℃", "2型糖尿病8年"),  # an abbreviation read as its concept
    ("HTN 10年，吸烟35年", "高血压10年"),
    ("胸片示左侧胸腔大片浓密阴影，纵隔向右侧移位；", "胸片左侧大片浓密阴影、纵隔右移"),  # words inserted
    ("CT示胰腺弥漫肿大伴胰周渗出，未见坏死及积液。", "CT胰腺肿大伴胰周渗出、无坏死"),
    ("经阴道B超宫内未见孕囊、左附件区混合性包块", "宫内无孕囊"),
    ("生后第3日出现黄疸，大便渐呈陶土色", "大便陶土色"),
    ("入院情况：6个月男婴", "男婴6月龄"),  # an age in months or in years
    ("4小时前突然胸背部像撕裂一样剧痛入院", "突发胸背部撕裂样疼痛4小时"),
    ("CXR：左侧大片致密影，纵隔右移", "胸片左侧大片致密影、纵隔右移"),  # chest X-ray abbreviated
    ("24h UTP 6.8g，ALB 22g/L", "24小时尿蛋白6.8g"),  # urine total protein abbreviated
])
def test_a_key_fact_in_other_words_is_stated(text, fact):
    assert states_fact(text, fact)


@pytest.mark.parametrize("text, fact", [
    ("下肢静脉超声见血栓形成", "下肢静脉无血栓"),  # the absence not said
    ("尿蛋白阴性，PLT 96×10^9/L", "24小时尿蛋白3.2g"),  # negated, and no number
    ("24小时尿蛋白2.3g", "24小时尿蛋白3.2g"),  # another number
    ("24h UTP 2.3g", "24小时尿蛋白3.2g"),  # abbreviated, with another number
    ("1型糖尿病8年", "2型糖尿病8年"),  # another concept
    ("T2DM 3年", "2型糖尿病8年"),
    ("胸片示左侧胸腔大片浓密阴影", "胸片左侧大片浓密阴影、纵隔右移"),  # half told
    ("胸片示右侧胸腔大片浓密阴影，纵隔向右侧移位", "胸片左侧大片浓密阴影、纵隔右移"),  # the other side
    ("否认头部外伤史", "1个月前头部碰撞史"),
    ("入院情况：6岁男童", "男婴6月龄"),
])
def test_a_key_fact_negated_changed_or_half_told_is_not(text, fact):
    assert not states_fact(text, fact)
