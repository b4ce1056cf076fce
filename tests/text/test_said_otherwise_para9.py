"""Meanings read by medsim.text that the paraphrase sets' misses showed missing (para9): waivers with
words between, permitted stops, restrictions lifted, an allowed act that only looked denied, a
prohibition's examples in the next clause, oxygen dosed by flow, a frequency said before its dose,
signs set as an instruction's measure, a hedged reading of a measured finding."""

import pytest

from medsim.facts.claims import extract_claims
from medsim.text.doses import drug_doses
from medsim.text.keyfacts import states_fact
from medsim.text.match import acts_in_order, find_point, says_otherwise


@pytest.mark.parametrize(("text", "point", "opposite"), [
    ("吸烟量需减少，不必强求完全戒烟。", "戒烟", "戒烟"),
    ("体温正常，出院后可停用抗生素。", "完成疗程|抗生素", "抗生素"),
    ("弯腰搬重物不受限制。", "避免弯腰|避免搬重物", "避免弯腰"),
    ("抗生素遵医嘱可停用。", "抗生素", None),  # the physician's decision, not a permission
    ("彻底戒烟，不要吸烟。", "戒烟", None),
    ("避免弯腰搬重物。", "避免弯腰|避免搬重物", None),
    ("不要托运（货舱温度过低可能冻结、行李也可能丢失）", "防止冻结", None),  # 可能 and 行李 permit nothing
])
def test_said_otherwise(text, point, opposite):
    assert says_otherwise(text, point) == opposite


def test_an_allowed_stop_does_not_meet_its_prohibition():
    assert not find_point("出血停止、瘀斑消退后可自行停药。", "不要自行停药").met
    assert find_point("按医嘱减量，不要自行停药。", "不要自行停药").met


def test_examples_after_a_prohibition_stay_in_its_scope():
    text = "家里的止痛药、感冒药先别乱吃，特别是阿司匹林、布洛芬这类，会让出血更厉害。"
    assert find_point(text, "避免阿司匹林|不要吃阿司匹林").met
    assert not find_point("可以吃药，特别是阿司匹林。", "避免阿司匹林|不要吃阿司匹林").met


@pytest.mark.parametrize(("text", "point"), [
    ("要吃满医生说的时间，一共4到6周", "完成疗程|足疗程"),
    ("两周后回来抽血、做个肝脏B超", "复查超声"),
    ("每个星期来抽一次血看血小板。", "复查血常规|复查血小板"),
    ("吸的方法按护士教您的来", "吸入技术|吸入方法"),
    ("这个药到奶里的量特别少", "少量|很少"),
    ("用手指轻轻按住鼻子根那边的眼角", "按压|内眦"),
])
def test_lay_wordings_meet_points(text, point):
    assert find_point(text, point).met


def test_a_symptom_with_a_negation_character_denies_nothing_after_it():
    assert find_point("出现以下情况马上就诊：6小时以上无尿、精神差或嗜睡", "精神差").met


def test_oxygen_by_flow():
    assert "高浓度吸氧" in acts_in_order("憋气明显时把氧流量调大到5～6升/分")
    for text in ("低流量吸氧1～2L/min", "经鼻高流量氧疗40L/min", "氧流量不超过5升/分", "吸氧流量在5L/min以下"):
        assert "高浓度吸氧" not in acts_in_order(text), text


def test_frequency_said_before_its_dose():
    (d,) = drug_doses("坦索罗辛每天2次，每次0.2mg，饭后整粒吞服")
    assert d.per_day == 2.0 and d.low == 0.2


def test_a_sign_as_an_instructions_measure_is_no_claim():
    for text in ("从少到多，不痛为度。", "不喘也要吸。"):
        (claim,) = [c for c in extract_claims(text) if c.kind == "finding"]
        assert not claim.checkable, text
    assert any(c.checkable for c in extract_claims("患者不痛，也要注意") if c.kind == "finding")


def test_a_hedged_reading_of_a_measured_finding_states_it():
    fact = "右侧肾上腺2.5cm腺瘤"
    assert states_fact("CT示右侧肾上腺约2.5cm结节，考虑腺瘤", fact)
    assert not states_fact("右侧肾上腺无2.5cm腺瘤", fact)


def test_hours_between_doses_are_not_times_a_day():
    (d,) = drug_doses("阿莫西林0.5g每8小时一次")
    assert d.per_day == 3.0


def test_a_storage_range_or_ceiling_is_no_result():
    claims = [c for c in extract_claims("未开封笔芯2℃～8℃冷藏；使用中的笔芯室温≤30℃保存。入院T 39.4℃。")
              if c.kind == "measurement"]
    assert [c.text for c in claims if c.checkable] == ["T 39.4℃"]
