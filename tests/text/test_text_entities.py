"""Entities as physicians write them: terms, measurements with values, laterality."""

import pytest

from medsim.text import extract_entities


def _by_type(text, type_):
    return [e for e in extract_entities(text) if e.type == type_]


def test_vital_signs_with_names_values_and_units():
    text = "体温： T 37.8℃，P 101次／分，呼吸22次/分，BP 100/60mmHg，SpO2 95%"
    vitals = {e.name: e for e in _by_type(text, "vital")}
    assert vitals["体温"].value == 37.8 and vitals["体温"].unit == "℃"
    assert vitals["脉搏"].value == 101 and vitals["脉搏"].unit == "次/分"
    assert vitals["呼吸"].value == 22
    assert vitals["血压"].value == 100 and vitals["血压"].value2 == 60 and vitals["血压"].unit == "mmHg"
    assert vitals["血氧饱和度"].value == 95
    bp = vitals["血压"]
    assert text[bp.start : bp.end] == "BP 100/60mmHg"


def test_lab_values_as_real_records_print_them():
    text = "血常规：WBC 5.0×109／L，N 78％，Hb 112g/L；肌酐156umol/L，K 3.2mmol/L，CRP 86mg/L"
    labs = {e.name: e for e in _by_type(text, "lab_value")}
    assert labs["白细胞计数"].value == 5.0 and labs["白细胞计数"].unit == "×10^9/L"
    assert labs["白细胞计数"].text == "WBC 5.0×109／L"
    assert labs["中性粒细胞百分比"].value == 78 and labs["中性粒细胞百分比"].unit == "%"
    assert labs["血红蛋白"].unit == "g/L"
    assert labs["肌酐"].value == 156 and labs["肌酐"].unit == "μmol/L"
    assert labs["钾"].value == 3.2
    assert labs["C反应蛋白"].unit == "mg/L"


def test_blood_gas_mmhg_is_a_lab_value_not_a_vital():
    (e,) = _by_type("PaO2 55mmHg", "lab_value")
    assert e.name == "动脉血氧分压" and e.value == 55


def test_doses_know_their_drug_and_frequency():
    text = "予拜阿司匹林100mg qd，波立维75mg qd，阿托伐他汀20mg qn"
    drugs = [e.norm for e in _by_type(text, "drug")]
    assert drugs == ["阿司匹林", "氯吡格雷", "阿托伐他汀"]
    doses = _by_type(text, "dose")
    assert [(d.value, d.unit, d.name) for d in doses] == [
        (100, "mg", "阿司匹林"), (75, "mg", "氯吡格雷"), (20, "mg", "阿托伐他汀")]
    freqs = _by_type(text, "frequency")
    assert [f.norm for f in freqs] == ["qd", "qd", "qn"]
    assert freqs[0].value == 1


def test_frequency_normalization():
    freqs = {e.text: e for e in _by_type("q8h，每日3次，bid，prn，每12小时1次", "frequency")}
    assert freqs["q8h"].norm == "q8h" and freqs["q8h"].value == 3
    assert freqs["每日3次"].norm == "tid"
    assert freqs["bid"].value == 2
    assert freqs["prn"].value is None
    assert freqs["每12小时1次"].norm == "q12h"


def test_durations_have_values():
    d = {e.text: e for e in _by_type("咳嗽3月余，发热2天，高血压十余年，腹痛半天", "duration")}
    assert (d["3月余"].value, d["3月余"].unit) == (3, "月")
    assert (d["2天"].value, d["2天"].unit) == (2, "天")
    assert d["十余年"].value == 10
    assert d["半天"].value == 0.5


def test_terms_with_canonical_forms():
    ents = extract_entities("行冠脉造影，诊断冠心病，转心内")
    norms = {(e.type, e.norm) for e in ents}
    assert ("exam", "冠状动脉造影") in norms
    assert ("disease", "冠状动脉粥样硬化性心脏病") in norms
    assert ("department", "心血管内科") in norms


def test_lay_phrases_are_recognised_as_their_standard_term():
    ents = extract_entities("大夫，我心口疼，还拉肚子")
    assert [(e.type, e.norm) for e in ents] == [("symptom", "胸痛"), ("symptom", "腹泻")]


def test_laterality_attached():
    ents = extract_entities("右侧腹股沟区可扪及一肿块，左下肢水肿，双肺呼吸音粗，右下腹痛")
    side = {e.text: e.laterality for e in ents}
    assert side["右侧腹股沟区"] == "右"
    assert side["肿块"] == "右"  # the finding takes the side of the body part it sits on
    assert side["左下肢水肿"] == "左"
    assert side["双肺"] == "双侧"
    assert side["右下腹痛"] == "右"


def test_no_laterality_across_a_clause():
    ents = extract_entities("左手示指扎伤，发热")
    fever = next(e for e in ents if e.norm == "发热")
    assert fever.laterality is None


def test_demographics():
    demo = {e.name: e for e in _by_type("患者，男，49岁，因腹痛入院", "demographic")}
    assert demo["性别"].norm == "男"
    assert demo["年龄"].value == 49


def test_short_latin_labels_need_a_value():
    # "N" and "P" are lab/vital labels, not findings on their own
    assert not [e for e in extract_entities("N端和P点") if e.type == "exam"]


def test_offsets_point_into_the_original():
    text = "血常规：ＷＢＣ　１２．３×１０＾９／Ｌ，右下腹痛３天"
    for e in extract_entities(text):
        assert text[e.start : e.end] == e.text


def test_vertebra_levels_are_not_lab_values_but_bare_decimals_are():
    ents = extract_entities("L4、5椎旁压痛，K 3.5")
    assert [(e.type, e.name, e.value) for e in ents if e.type == "lab_value"] == [("lab_value", "钾", 3.5)]
    assert not [e for e in ents if e.norm == "淋巴细胞百分比"]


def test_body_parts_keep_their_own_name():
    norms = {e.text: e.norm for e in extract_entities("双侧足背及小腿外侧感觉减退，右手拇指肿胀")}
    assert norms["双侧足背"] == "足背"
    assert norms["小腿"] == "小腿"
    assert norms["拇指"] == "拇指"


@pytest.mark.parametrize(
    ("text", "name", "value"),
    [
        ("血气分析：pH 7.25，PaCO2 60mmHg。", "pH", 7.25),
        ("血气分析示PH7.30。", "pH", 7.30),
        ("凝血功能：PT 15.2秒，INR 1.8。", "国际标准化比值", 1.8),
        ("尿常规：比重1.020，尿蛋白(+)。", "尿比重", 1.020),
        ("尿比重 1.005", "尿比重", 1.005),
    ],
)
def test_unitless_lab_values(text, name, value):
    labs = [e for e in extract_entities(text) if e.type == "lab_value" and e.name == name]
    assert labs and labs[0].value == pytest.approx(value) and labs[0].unit is None



@pytest.mark.parametrize(
    ("text", "norm", "per_day"),
    [("阿莫西林0.5g 每日两次口服", "bid", 2), ("奥美拉唑20mg qm", "qm", 1), ("氨氯地平5mg 一天两次", "bid", 2),
     ("头孢呋辛0.25g 一日二次", "bid", 2)],
)
def test_frequencies_as_orders_write_them(text, norm, per_day):
    (f,) = _by_type(text, "frequency")
    assert (f.norm, f.value) == (norm, per_day)


@pytest.mark.parametrize(("text", "value"), [("三", 3), ("十二", 12), ("二十", 20), ("一百二十", 120), ("半", 0.5),
                                             ("2.5", 2.5), ("几", None), ("数", None)])
def test_chinese_numerals(text, value):
    from medsim.text.measures import cn_number

    assert cn_number(text) == value


@pytest.mark.parametrize("text,norm,surface", [
    ("感冒药吃着，可头还是疼。", "头痛", "头还是疼"),
    ("膝盖一直疼，上下楼明显。", "关节痛", "膝盖一直疼"),
    ("这两天肚子有点痛。", None, "肚子有点痛"),
])
def test_lay_pain_with_an_adverb_inside_is_one_symptom(text, norm, surface):
    # patients put 一直 / 还是 / 有点 between the body part and 疼: still the lay term for the symptom
    [s] = _by_type(text, "symptom")
    assert s.text == surface
    if norm:
        assert s.norm == norm


def test_negated_lay_pain_is_the_symptom_denied_and_non_terms_stay_out():
    # 头不疼 names a headache the patient denies: one symptom, read absent (it was left out before)
    from medsim.text import analyze

    found = {f.norm: f.polarity for f in analyze("头不疼，膝盖也不疼。").findings}
    assert found == {"头痛": "absent", "关节痛": "absent"}
    assert _by_type("他一直疼爱孩子。", "symptom") == []


@pytest.mark.parametrize(("text", "surface", "type_"), [
    ("吃了感冒灵颗粒，好多了", "感冒灵颗粒", "drug"),
    ("医生让我术后涂药膏", "药膏", "drug"),
    ("一直吃头孢和益生菌", "头孢", "drug"),
    ("开了点消炎药", "消炎药", "drug"),
    ("抗生素用了三天", "抗生素", "drug"),
    ("十一天前做了额肌悬吊术", "额肌悬吊术", "procedure"),
    ("建议做基因检测", "基因检测", "exam"),
    ("确诊为睾丸炎", "睾丸炎", "disease"),
])
def test_names_told_by_their_ending_and_drug_classes(text, surface, type_):
    assert any(e.text == surface and e.type == type_ for e in extract_entities(text)), extract_entities(text)


@pytest.mark.parametrize("text", ["用药后好转，吃药三天", "建议进一步检查", "今为进一步治疗入院", "血栓形成"])
def test_endings_after_verbs_or_generic_words_name_nothing_new(text):
    got = {e.text for e in extract_entities(text)}
    assert not got & {"用药", "吃药", "进一步检查", "今为进一步治疗", "进一步治疗"}
    assert "血栓" not in {e.text for e in extract_entities(text) if e.type == "drug"}


def test_one_character_symptom_verbs_only_in_context():
    assert {e.norm for e in extract_entities("昨天没吐，又烧了")} >= {"呕吐", "发热"}
    assert not [e for e in extract_entities("他说话吐字不清") if e.norm == "呕吐"]


def test_external_names_never_override_medsim_terms():
    from medsim.text import get_lexicon

    lex = get_lexicon()
    assert lex.external, "chineseblue_terms.tsv loaded"
    assert lex.own_type_of("阿司匹林") == "drug"
    some = next(iter(lex.external))
    assert lex.own_type_of(some) is None and lex.lookup(some) is not None


def test_mixed_script_names_match_in_any_case():
    assert any(e.type == "exam" for e in extract_entities("头颅MRI未见异常")) or \
        any(e.type == "exam" for e in extract_entities("头颅mri未见异常"))
    assert [e.norm for e in extract_entities("查B超")] == [e.norm for e in extract_entities("查b超")]


def test_a_direction_written_inside_a_term_is_read_as_the_term():
    from medsim.text import analyze

    # 向左 is where the mouth is pulled (a right facial palsy), not the side of the finding
    found = {(f.norm, f.entity.laterality, f.polarity) for f in analyze("晨起发现口角向左歪斜，饮水漏水").findings}
    assert ("口角歪斜", None, "present") in found
    assert all(f.polarity == "absent" for f in analyze("无口角向右歪斜").findings if f.norm == "口角歪斜")
