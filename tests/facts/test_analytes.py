"""The analyte lexicon: every name of an analyte reads as the same key, through the text layer."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics
from medsim.scenario.schema import TestResult as Result
from medsim.text import analytes


@pytest.mark.parametrize(("run", "unit", "key"), [
    ("动脉血二氧化碳分压", "mmHg", "paco2"), ("二氧化碳分压", "mmHg", "paco2"), ("PaCO2", "mmHg", "paco2"),
    ("丙氨酸氨基转移酶", "U/L", "alt"), ("谷丙转氨酶", "U/L", "alt"), ("ALT", "U/L", "alt"),
    ("血红蛋白", "g/L", "hb"), ("HGB", "g/L", "hb"), ("活化部分凝血活酶时间", "s", "aptt"),
    ("N末端B型利钠肽原", "pg/mL", "ntprobnp"), ("国际标准化比值", "", "inr"), ("尿比重", "", "sg"),
    ("肝功能：天门冬氨酸氨基转移酶", "U/L", "ast"), ("空腹血糖", "mmol/L", "glu"), ("餐后2小时血糖", "mmol/L", "ppg"),
])
def test_names_of_one_analyte(run, unit, key):
    found = analytes.analyte_in(run, unit)
    assert found is not None and found[0] == key


def test_a_shared_name_goes_by_the_unit():
    assert analytes.analyte_in("P", "次/分")[0] == "heart_rate"
    assert analytes.analyte_in("P", "mmol/L")[0] == "phos"


def test_latin_name_inside_a_longer_word_is_not_it():
    assert analytes.analyte_in("HbA1c", "%")[0] == "hba1c"
    assert analytes.analyte_in("APTT", "s")[0] == "aptt"


def test_every_name_maps_back_to_its_key():
    for key in analytes.keys():
        for name in analytes.names(key):
            assert key in analytes.keys_of(name), (key, name)


@pytest.fixture
def copd() -> Case:
    return Case(id="t-copd", source="synthetic", demographics=Demographics(sex="男", age=71),
                tests=[Result(name="血气分析", result="pH 7.31，PaO2 52mmHg，PaCO2 68mmHg，HCO3- 33mmol/L"),
                       Result(name="肝功能", result="ALT 210U/L，AST 416U/L")])


def test_blood_gas_by_full_chinese_name(copd):
    ok = check(copd, "动脉血二氧化碳分压68mmHg，动脉血氧分压52mmHg。", key_facts=[])
    assert ok.statuses() == {"supported"} and ok.checked == 2
    wrong = check(copd, "动脉血二氧化碳分压48mmHg。", key_facts=[])
    assert wrong.statuses() == {"value_mismatch"}
    assert "68" in wrong.findings[0].evidence_text


def test_unitless_value_under_a_chinese_name(copd):
    assert check(copd, "动脉血酸碱度7.31。", key_facts=[]).statuses() == {"supported"}
    assert check(copd, "血气示酸碱度7.41。", key_facts=[]).statuses() == {"value_mismatch"}


def test_enzyme_by_its_full_name(copd):
    assert check(copd, "丙氨酸氨基转移酶210U/L，天门冬氨酸氨基转移酶416U/L。", key_facts=[]).statuses() == {"supported"}
    assert check(copd, "谷丙转氨酶120U/L。", key_facts=[]).statuses() == {"value_mismatch"}


def test_respectively_assigns_values_in_order():
    case = Case(id="t-glu", source="synthetic", hpi="空腹静脉血糖及餐后2小时血糖分别为2.63mmol/L和4.45mmol/L。")
    assert check(case, "空腹血糖2.63mmol/L，餐后2小时血糖4.45mmol/L。", key_facts=[]).statuses() == {"supported"}
    assert check(case, "餐后2小时血糖2.63mmol/L。", key_facts=[]).statuses() == {"value_mismatch"}


@pytest.mark.parametrize(("run", "unit", "key"), [
    ("neutrophils", "%", "neut_pct"), ("neutrophils", "×10^9/L", "neut_abs"), ("platelets", "×10^9/L", "plt"),
    ("white blood cell count", "×10^9/L", "wbc"), ("Hemoglobin", "g/L", "hb"), ("serum potassium", "mmol/L", "k"),
    ("blood urea nitrogen", "mmol/L", "bun"), ("creatinine", "μmol/L", "cr"), ("lymphocytes", "%", "lymph_pct"),
])
def test_english_names_and_plurals(run, unit, key):
    found = analytes.analyte_in(run, unit)
    assert found is not None and found[0] == key


def test_an_english_name_inside_a_longer_word_is_not_it():
    # "urea" is not read out of "ureaplasma"; "platelet" with a plural still stands alone
    assert analytes.analyte_in("ureaplasma", "mmol/L") is None
    assert analytes.analyte_in("platelets", "×10^9/L")[0] == "plt"


def test_a_statement_in_english_is_held_to_the_record(appendicitis):
    ok = check(appendicitis, "White blood cell count 12.3×10^9/L with neutrophils 85%; creatinine 88 μmol/L.",
               key_facts=[])
    assert ok.statuses() == {"supported"} and ok.checked == 3
    wrong = check(appendicitis, "WBC 12.3×10^9/L with neutrophils 58%.", key_facts=[])
    assert {f.key: f.status for f in wrong.findings} == {"wbc": "supported", "neut_pct": "value_mismatch"}


def test_urine_amylase_is_not_blood_amylase():
    assert analytes.analyte_in("尿淀粉酶", "U/L")[0] == "urine_amylase"
    assert analytes.analyte_in("血淀粉酶", "U/L")[0] == "amylase"


LIPIDS = "辅助检查：血脂：TC 5.0mmol/L，TG 1.4mmol/L，LDL-C 3.0mmol/L，HDL-C 1.3mmol/L。"


def test_a_unit_written_once_serves_every_value_of_the_list():
    wrong = check(LIPIDS, "血脂TC 5.0，TG 1.4，LDL-C 3.6，HDL-C 1.3mmol/L。", key_facts=[])
    assert [f.key for f in wrong.findings if f.status == "value_mismatch"] == ["ldl"]
    right = check(LIPIDS, "血脂TC 5.0，TG 1.4，LDL-C 3.0，HDL-C 1.3mmol/L。", key_facts=[])
    assert right.statuses() == {"supported"} and len(right.findings) == 4


def test_a_unit_is_not_shared_across_analyte_groups():
    record = "辅助检查：血常规：WBC 6.2×10^9/L；血糖 5.4mmol/L。"
    report = check(record, "WBC 6.2，血糖 5.4mmol/L。", key_facts=[])
    assert [f.key for f in report.findings] == ["glu"]


CYSTITIS = "辅助检查：尿常规：白细胞酯酶 3+，亚硝酸盐阳性；镜检 WBC >50/HP，RBC 15–20/HP。"
NSTE_ACS = "辅助检查：心电图：窦性心律，V4–V6导联ST段水平型压低0.1–0.15mV，未见ST段抬高。"


def test_a_count_per_field_is_held_bound_by_bound():
    wrong = check(CYSTITIS, "尿沉渣RBC 25–30/HP。", key_facts=[])
    assert [f.status for f in wrong.findings if f.kind == "range"] == ["value_mismatch"]
    right = check(CYSTITIS, "镜检RBC 15～20个/HP，WBC >50/HP。", key_facts=[])
    assert [f.status for f in right.findings if f.kind == "range"] == ["supported", "supported"]


def test_an_st_depression_range_is_held_against_the_recorded_one():
    wrong = check(NSTE_ACS, "V4–V6导联ST段水平型压低0.1–0.25mV。", key_facts=[])
    assert [f.status for f in wrong.findings if f.kind == "range"] == ["value_mismatch"]
    right = check(NSTE_ACS, "V4–V6导联ST段水平型压低0.1–0.15mV。", key_facts=[])
    assert [f.status for f in right.findings if f.kind == "range"] == ["supported"]
