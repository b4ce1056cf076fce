"""De-identification: planted identifiers found, look-alikes left, replacements consistent."""

import datetime as dt
import re

from text_phi_cases import build, score
from text_phi_handwritten import records as handwritten

from medsim.text import deidentify
from medsim.text.deid import STRUCTURED_KINDS, find_phi, id_check_ok, phi_warnings


def test_gb11643_check_character():
    assert id_check_ok("110101199003074514")
    assert id_check_ok("11010119900307451X") is False
    assert not id_check_ok("110101199003074515")
    assert not id_check_ok("110101199013074514")  # month 13
    assert id_check_ok("430104199001011230")


def test_structured_identifiers_precision_and_recall_on_the_synthetic_set():
    metrics = score(build())
    for kind in STRUCTURED_KINDS:
        assert metrics[kind]["precision"] >= 0.95, (kind, metrics[kind])
        assert metrics[kind]["recall"] >= 0.95, (kind, metrics[kind])


def test_structured_identifiers_on_the_handwritten_set():
    metrics = score(handwritten())
    for kind in STRUCTURED_KINDS:
        if kind in metrics:
            assert metrics[kind]["precision"] >= 0.95 and metrics[kind]["recall"] >= 0.95, (kind, metrics[kind])


def test_lookalikes_are_left_alone():
    text = ("3天前无明显诱因出现发热，入院第3天复查，WBC 12.3×10^9/L，BP 120/80mmHg，"
            "标本号：13812345678，检验条码 430104199001011235，批号20230305，国药准字H20051234。"
            "在当地医院及外院就诊，县医院转入。")
    assert find_phi(text) == []


def test_names_label_anchored_and_masked_forms():
    kinds = {(p.kind, p.original) for p in find_phi("姓名：张三 性别：男\n患者李某某，女，45岁。患者王某，男。")}
    assert ("name", "张三") in kinds and ("name", "李某某") in kinds and ("name", "王某") in kinds


def test_clinical_words_after_family_members_are_not_names():
    assert [p for p in find_phi("父亲高血压，母亲体健。患者高热，") if p.kind == "name"] == []


def test_mobile_is_found_before_landline():
    (p,) = find_phi("电话：13912345678")
    assert p.kind == "mobile" and p.original == "13912345678"


def test_replacements_are_consistent_within_a_record():
    r = deidentify("患者张三，男。张三诉胸痛。联系人：李四，电话13812345678，再次拨打13812345678。", seed=3)
    names = {x.original: x.replacement for x in r.replacements if x.kind == "name"}
    assert "张三" not in r.text and "13812345678" not in r.text
    reps = [x.replacement for x in r.replacements if x.original == "13812345678"]
    assert len(reps) == 2 and reps[0] == reps[1]
    assert len(set(names.values())) == len(names)


def test_dates_shift_together_and_keep_intervals():
    text = "2023年3月5日入院，2023年3月15日出院，2023-04-01复查。"
    r = deidentify(text, seed=7)
    dates = [x for x in r.replacements if x.kind == "date"]
    assert len(dates) == 3

    def parse(s):
        y, m, d = map(int, re.findall(r"\d+", s))
        return dt.date(y, m, d)

    before = [parse(x.original) for x in dates]
    after = [parse(x.replacement) for x in dates]
    assert after[1] - after[0] == before[1] - before[0]
    assert after[2] - after[0] == before[2] - before[0]
    assert after[0] != before[0]
    # the format is kept
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", dates[2].replacement)


def test_same_seed_same_output_different_seed_different_shift():
    text = "于2023年3月5日入院，患者张三。"
    assert deidentify(text, seed=1).text == deidentify(text, seed=1).text
    assert deidentify(text, seed=1).text != deidentify(text, seed=2).text


def test_replacement_offsets_refer_to_the_input():
    text = "身份证号：110101199003074514，住院号：ZY20230145"
    for x in deidentify(text).replacements:
        assert text[x.start : x.end] == x.original


def test_address_and_hospital():
    found = {(p.kind, p.original) for p in find_phi("现住址：浙江省杭州市西湖区文三路123号。曾于北京协和医院就诊。")}
    assert ("address", "浙江省杭州市西湖区文三路123号") in found
    assert ("hospital", "北京协和医院") in found


def test_phi_warnings_flag_identifiers_but_not_masked_names():
    assert phi_warnings("患者张某，男，45岁，3天前出现胸痛。") == []
    warnings = phi_warnings("患者张某，身份证号110101199003074514，手机13812345678")
    assert len(warnings) == 2
    assert any("身份证" in w for w in warnings) and any("13812345678" in w for w in warnings)


def test_deidentified_text_raises_no_warnings():
    text = "姓名：张三\n身份证号：110101199003074514\n电话：13812345678\n2023年3月5日入院"
    assert phi_warnings(deidentify(text).text) == []


def test_structured_identifiers_on_the_heldout_set():
    from text_phi_heldout import records as heldout

    metrics = score(heldout())
    for kind in STRUCTURED_KINDS:
        if kind in metrics:
            assert metrics[kind]["precision"] >= 0.95 and metrics[kind]["recall"] >= 0.95, (kind, metrics[kind])


def test_dates_in_chinese_numerals_shift_too():
    r = deidentify("二〇二二年五月六日复查，二〇二二年十二月三十一日出院", seed=2)
    assert [x.kind for x in r.replacements] == ["date", "date"]
    assert "二〇二二年五月六日" not in r.text
