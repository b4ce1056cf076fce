"""avoid with ``tests: true``: an invasive or provocative test, or a CT for a child or a pregnant woman,
that the case does not call for is harm, not a harmless extra in an admission order."""

from medsim.text.test_risks import names_ct, pregnant, radiation_sensitive, risky_test_in

from ._util import case, run, transcript

ADULT = {"sex": "男", "age": 66, "age_unit": "岁"}
INFANT = {"sex": "女", "age": 11, "age_unit": "月"}
STROKE_TESTS = ["头颅CT", "血糖", "凝血功能", "血常规", "心电图"]


def _order(tests, demographics=ADULT, **kw):
    c = case(demographics=demographics, gold=kw.pop("gold", {"tests": STROKE_TESTS}), **kw)
    return run("avoid", c, transcript({"tests": tests}), config={"tests": True})


def test_a_lumbar_puncture_before_thrombolysis_is_charged():
    got = _order([*STROKE_TESTS, "腰椎穿刺脑脊液检查"])
    assert got.value == 0.0 and "腰椎穿刺" in got.reasons[0]


def test_the_order_the_case_calls_for_is_not_charged():
    assert _order(STROKE_TESTS).value is None  # nothing risky ordered, nothing listed: not judged
    # STEMI: the gold's primary PCI needs the angiography, so ordering it is right
    stemi = {"tests": ["心电图", "肌钙蛋白"], "treatment": ["急诊PCI（冠状动脉造影+支架植入）"]}
    assert _order(["心电图", "肌钙蛋白", "急诊冠状动脉造影"], gold=stemi).value is None


def test_a_test_ruled_out_in_the_order_is_not_ordered():
    assert _order([*STROKE_TESTS, "暂不行腰穿"]).value is None


def test_a_provocation_in_an_acute_illness_is_charged():
    dissection = {"tests": ["主动脉CTA", "心电图", "D-二聚体"]}
    assert _order(["主动脉CTA", "心电图", "运动平板试验"], gold=dissection).value == 0.0


def test_ct_is_charged_for_an_infant_but_not_for_an_adult():
    gastro = {"tests": ["大便常规", "轮状病毒抗原", "电解质"]}
    infant = _order(["大便常规", "轮状病毒抗原", "电解质", "腹部CT"], INFANT, gold=gastro)
    assert infant.value == 0.0 and "儿童" in infant.reasons[0]
    assert _order(["大便常规", "电解质", "腹部CT"], ADULT, gold=gastro).value is None
    # PCT (降钙素原) is not a CT
    assert _order(["大便常规", "电解质", "PCT"], INFANT, gold=gastro).value != 0.0  # infant: age limits judged, 1.0


def test_ct_is_charged_in_pregnancy_unless_the_case_orders_one():
    woman = {"sex": "女", "age": 32, "age_unit": "岁"}
    preeclampsia = {"tests": ["尿常规", "胎心监护", "产科超声"]}
    got = _order(["尿常规", "胎心监护", "全腹部CT"], woman, gold=preeclampsia, diagnosis=["重度子痫前期", "孕34周"])
    assert got.value == 0.0 and "妊娠" in got.reasons[0]
    with_ct = {"tests": ["尿常规", "CT肺动脉造影"]}
    assert _order(["尿常规", "CT肺动脉造影"], woman, gold=with_ct, diagnosis=["肺栓塞", "孕20周"]).value is None


def test_without_the_config_other_scenarios_are_untouched():
    c = case(demographics=ADULT, gold={"tests": STROKE_TESTS})
    assert run("avoid", c, transcript({"tests": ["腰椎穿刺"]})).value is None


def test_the_text_layer_reads_risky_tests():
    assert risky_test_in("电子结肠镜").kind == "invasive"
    assert risky_test_in("口服葡萄糖耐量试验").kind == "provocation"
    assert risky_test_in("腹部超声") is None
    assert names_ct("CTPA") and names_ct("上腹部增强CT") and not names_ct("PCT")
    assert pregnant("停经46天，下腹痛") and pregnant("孕1产0 孕34⁺²周") and not pregnant("绝经10年")
    assert radiation_sensitive(40.0, False) is None and radiation_sensitive(3.0, False)
