"""said_in: a qualifier is said by a text in any form of its concepts, the rest as written."""

from medsim.text.match import said_in


def test_an_abbreviation_is_said_by_its_full_name_and_a_stage_must_be_the_same():
    gold = "肾病综合征（特发性膜性肾病Ⅱ期）"
    assert said_in("IMN Ⅱ期", gold)
    assert not said_in("IMN Ⅲ期", gold)  # the stage is the record's or it is invented
    assert said_in("CSDH", "右侧额顶部慢性硬膜下血肿")
    assert said_in("左侧MCA供血区", "急性缺血性脑卒中（左侧大脑中动脉供血区）")


def test_what_the_text_does_not_say_is_not_said():
    assert not said_in("急性", "慢性硬膜下血肿")
    assert not said_in("右侧MCA供血区", "左侧大脑中动脉供血区")
    assert not said_in("KP", "细菌性肝脓肿（肺炎克雷伯菌）")  # an abbreviation the lexicon lacks is looked for as written
    assert not said_in("IMN", "")
