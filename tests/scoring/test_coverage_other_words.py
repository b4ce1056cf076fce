"""coverage: a key fact in the summary's own words is covered; said the other way round it is charged."""

from ._util import case, run, transcript

FACTS = ["2型糖尿病8年", "下肢静脉无血栓", "24小时尿蛋白3.2g"]


def _coverage(summary):
    return run("coverage", case(key_facts=FACTS), transcript(summary, final_text=summary))


def test_key_facts_in_other_words_are_covered():
    got = _coverage("入院情况：T2DM 8年。下肢静脉超声未见血栓。24h尿蛋白3.2g。")
    assert got.value == 1.0, got.reasons


def test_a_key_fact_said_the_other_way_round_is_charged_not_just_missed():
    omitted = _coverage("入院情况：T2DM 8年。下肢静脉超声未见血栓。")
    reversed_ = _coverage("入院情况：T2DM 8年。下肢静脉超声未见血栓。尿蛋白阴性。")
    assert abs(omitted.value - 2 / 3) < 1e-9
    assert reversed_.value <= 0.3 * omitted.value + 1e-9, reversed_.reasons
    assert "24小时尿蛋白3.2g" in reversed_.details["contradicted"]


def test_a_warning_sign_is_not_a_finding_denied():
    # 出现头痛…及时就诊 names a finding to watch for; it does not say the record's finding is absent
    summary = "T2DM 8年，下肢静脉未见血栓，24小时尿蛋白3.2g。出院医嘱：如无尿或尿中泡沫增多及时就诊。"
    assert _coverage(summary).value == 1.0
