"""Vital signs stated in words (无发热, 血压正常, 生命体征平稳) held against the recorded values."""

from __future__ import annotations

from medsim.facts import check

FEBRILE = ("现病史：3天前受凉后咳嗽、咳黄痰，伴乏力、纳差。\n"
           "生命体征：T 38.5℃，P 104次/分，R 20次/分，BP 150/95mmHg，SpO2 95%。\n"
           "体格检查：右下肺可闻及湿啰音。")
AFEBRILE = ("现病史：3天前咽痛、流涕，无咳嗽。\n"
            "生命体征：T 36.6℃，P 78次/分，R 18次/分，BP 118/76mmHg，SpO2 98%。")
NO_VITALS = "现病史：右膝关节疼痛2年，上下楼加重。"


def _statuses(record: str, text: str, kind: str) -> list[str]:
    return [f.status for f in check(record, text, key_facts=[]).findings if f.kind == kind]


def test_denied_fever_against_a_recorded_fever_is_contradicted():
    assert _statuses(FEBRILE, "患者无发热。", "finding") == ["contradicted"]
    assert _statuses(FEBRILE, "不发烧。", "finding") == ["contradicted"]


def test_denied_tachycardia_against_a_fast_recorded_pulse_is_contradicted():
    assert _statuses(FEBRILE, "无心动过速。", "finding") == ["contradicted"]


def test_normal_vitals_against_abnormal_values_are_contradicted():
    assert _statuses(FEBRILE, "血压正常。", "vitals") == ["contradicted"]  # 150/95 is hypertensive
    assert _statuses(FEBRILE, "体温正常，心率正常。", "vitals") == ["contradicted", "contradicted"]


def test_normal_vitals_against_normal_values_are_supported():
    assert _statuses(AFEBRILE, "生命体征平稳。", "vitals") == ["supported"]
    assert _statuses(AFEBRILE, "体温、血压均正常。", "vitals") == ["supported"]
    assert _statuses(FEBRILE, "呼吸频率、血氧饱和度正常。", "vitals") == ["supported"]


def test_stable_allows_a_mild_fever_but_not_shock():
    assert _statuses(FEBRILE, "生命体征平稳。", "vitals") == ["supported"]
    shock = "生命体征：T 36.2℃，P 128次/分，R 24次/分，BP 78/46mmHg，SpO2 93%。"
    assert _statuses(shock, "生命体征平稳。", "vitals") == ["contradicted"]


def test_normal_vitals_with_no_recorded_vitals_are_unsupported():
    assert _statuses(NO_VITALS, "生命体征平稳。", "vitals") == ["unsupported"]


def test_a_past_normal_value_is_not_held_against_the_current_one():
    record = "现病史：孕34周，孕20周前血压正常，1天来头痛。\n生命体征：BP 166/110mmHg。"
    assert "contradicted" not in check(record, "孕20周前血压正常，入院BP 166/110mmHg。", key_facts=[]).statuses()


def test_the_latest_value_decides_not_a_history_value():
    record = "现病史：2个月前体检测血压160/100mmHg，后规律服药。\n生命体征：T 36.5℃，BP 126/78mmHg。"
    assert _statuses(record, "目前血压正常。", "vitals") == ["supported"]
