"""Normalization: one spelling for matching, offsets back to the original."""

import pytest

from medsim.text import normalize


def _back(n, sub):
    i = n.text.index(sub)
    s, e = n.to_orig(i, i + len(sub))
    return n.orig[s:e]


def test_fullwidth_ascii_and_digits_become_halfwidth():
    n = normalize("ＷＢＣ　１２．３，ＣＴ（－）")
    assert "WBC 12.3" in n.text
    assert "CT(-)" in n.text


def test_length_preserving_normalization_maps_offsets_one_to_one():
    text = "体温３８．５℃，ＳｐＯ２　９５％"
    n = normalize(text)
    assert len(n.text) == len(text)
    assert n.to_orig(3, 7) == (3, 7)


@pytest.mark.parametrize(
    ("raw", "unit"),
    [
        ("WBC 5.0×109／L", "×10^9/L"),
        ("WBC 5.0×10^9/L", "×10^9/L"),
        ("WBC 5.0*10^9/L", "×10^9/L"),
        ("WBC 5.0x10*9/L", "×10^9/L"),
        ("RBC 4.5×1012/L", "×10^12/L"),
        ("肌酐156umol/L", "μmol/L"),
        ("肌酐156µmol/L", "μmol/L"),
        ("钾3.2mmol/l", "mmol/L"),
        ("阿司匹林100毫克", "mg"),
        ("BP 120/80mmhg", "mmHg"),
        ("体温38.5°C", "℃"),
        ("体温39度", "℃"),
        ("心率 88次／分", "次/分"),
    ],
)
def test_unit_spellings_unified(raw, unit):
    assert unit in normalize(raw).text


def test_rewritten_unit_maps_back_to_its_original_spelling():
    n = normalize("血常规：WBC 5.0×109／L，N 78％。")
    assert _back(n, "×10^9/L") == "×109／L"
    # text after the rewrite is shifted back correctly
    assert _back(n, "N 78%") == "N 78％"


def test_degree_only_for_body_temperatures():
    assert "Ⅱ度烧伤" in normalize("Ⅱ度烧伤").text
    assert "30度角" in normalize("屈曲30度角").text
    assert "39℃" in normalize("最高体温39度").text


def test_clause_punctuation_made_chinese_but_numbers_kept():
    n = normalize("发热,咳嗽;无胸痛:1,000 10:30")
    assert n.text.startswith("发热，咳嗽；无胸痛：")
    assert "1,000" in n.text and "10:30" in n.text


def test_empty_and_plain_text():
    assert normalize("").text == ""
    n = normalize("患者无发热")
    assert n.text == "患者无发热" and n.to_orig(2, 5) == (2, 5)


def test_normalizing_twice_changes_nothing():
    # the fact checker analyzes text it has already normalized: offsets must not move
    for text in ("WBC 12.3×109/L，体温39度，血压120/80 mmHg；肌酐156 umol/L", "T：36.7︒C, P 78次/min"):
        once = normalize(text).text
        assert normalize(once).text == once


@pytest.mark.parametrize("text", ["T：36.7︒C", "T 36.7°C", "T36.7º C", "36.7摄氏度", "T 36.7oC"])
def test_every_degree_sign_records_use_becomes_celsius(text):
    assert normalize(text).text.endswith("36.7℃")


def test_degrees_of_an_angle_stay_degrees():
    assert normalize("直腿抬高试验30度阳性").text == "直腿抬高试验30度阳性"


def test_each_unit_rule_follows_a_digit_so_the_shared_lookbehind_drops_none():
    # _UNIT_RE tests (?<=\d) once before trying the rules: a rule that did not need a digit
    # before it would silently stop matching
    from medsim.text.normalize import _UNIT_RULES

    assert all(pat.startswith(r"(?<=\d)") for _, pat in _UNIT_RULES)


@pytest.mark.parametrize(("raw", "want"), [
    ("血钾3.5毫摩尔/升，尿量1500毫升", "血钾3.5mmol/L，尿量1500mL"),
    ("每毫升含10毫克", "每毫升含10mg"),  # a unit word not after a number stays as written
    ("HR 88 bpm，WBC 12×10*9/L", "HR 88次/分，WBC 12×10^9/L"),
])
def test_units_rewritten_only_after_a_number(raw, want):
    assert normalize(raw).text == want
