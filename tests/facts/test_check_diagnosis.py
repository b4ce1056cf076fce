"""Invented facts a new user found unchecked: a finding with a duration, a stated diagnosis.

Written as a physician writes: 胸痛2小时 is a finding *and* a duration; 诊断：X / 考虑X / 初步诊断为X /
X可能性大 state a diagnosis the record's diagnosis list must support; 需与X鉴别 / 排除X / X待排 are
reasoning and stay unchecked.
"""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics


def _findings(case, text: str, kind: str | None = None):
    return [f for f in check(case, text, key_facts=[]).findings if kind is None or f.kind == kind]


@pytest.fixture
def hernia() -> Case:
    return Case(
        id="t-hernia", source="synthetic", demographics=Demographics(sex="男", age=49),
        chief_complaint="右下腹痛并自扪及包块3小时",
        hpi="患者3小时前解大便后出现右下腹疼痛，同时自行扪及右侧腹股沟区包块，不能回纳，伴腹胀、呕吐。",
        past_history="既往体健。否认高血压、糖尿病史。",
        physical_exam="右侧腹股沟区可扪及一圆形肿块，约4cm×4cm大小，有压痛。",
        diagnosis=["右侧嵌顿性腹股沟斜疝", "急性肠梗阻"],
    )


# ---------------------------------------------------------- (a) a finding with a duration

def test_invented_finding_with_duration_is_unsupported(hernia):
    [f] = _findings(hernia, "胸痛2小时。", "finding")
    assert f.status == "unsupported" and f.text == "胸痛"


def test_recorded_finding_with_duration_supported_both_parts(appendicitis):
    got = {(f.kind, f.status) for f in _findings(appendicitis, "右下腹痛3天。")}
    assert {("finding", "supported"), ("duration", "supported")} <= got
    assert {status for _, status in got} == {"supported"}


def test_finding_with_wrong_duration_keeps_finding_and_flags_duration(appendicitis):
    got = {(f.kind, f.status) for f in _findings(appendicitis, "患者右下腹痛3个月。")}
    assert ("finding", "supported") in got and ("duration", "contradicted") in got


def test_symptom_in_hours_then_more(hernia):
    # 呕吐 is recorded, 发热 is not: both durations in hours must leave the findings checkable
    got = {f.text: f.status for f in _findings(hernia, "呕吐3小时，发热1小时。", "finding")}
    assert got == {"呕吐": "supported", "发热": "unsupported"}


def test_episode_time_cue_still_not_a_patient_fact(appendicitis):
    # 发作时 / 患者 after a symptom: the old cues still mark general statements
    assert _findings(appendicitis, "胸痛者应尽早行心电图检查。", "finding") == []


# ---------------------------------------------------------------- (b) stated diagnoses

@pytest.mark.parametrize("text", [
    "诊断：急性前壁心肌梗死。",
    "初步诊断为急性胆囊炎。",
    "考虑急性胰腺炎。",
    "急性胆囊炎可能性大。",
    "入院诊断：1.急性胰腺炎 2.胆囊结石",
])
def test_stated_diagnosis_not_in_record_is_unsupported(hernia, text):
    got = _findings(hernia, text)
    assert got and all(f.status == "unsupported" and f.kind == "diagnosis" for f in got), got
    assert all(f.reason_zh and f.reason_en for f in got)
    assert "嵌顿性腹股沟斜疝" in got[0].reason_zh  # the record's diagnosis is named in the reason


@pytest.mark.parametrize("text", [
    "诊断：右侧嵌顿性腹股沟斜疝。",
    "考虑腹股沟斜疝嵌顿。",
    "初步诊断为嵌顿疝，合并肠梗阻。",
    "右侧腹股沟斜疝嵌顿可能性大。",
])
def test_stated_diagnosis_in_record_is_supported(hernia, text):
    got = _findings(hernia, text, "diagnosis")
    assert got and {f.status for f in got} == {"supported"}, got


@pytest.mark.parametrize("text", [
    "需与急性阑尾炎鉴别。",
    "排除急性胰腺炎。",
    "急性胆囊炎待排。",
    "不除外泌尿系结石。",
    "鉴别诊断：1.急性阑尾炎 2.睾丸扭转",
])
def test_differentials_stay_unchecked(hernia, text):
    report = check(hernia, text, key_facts=[])
    assert [f for f in report.findings if f.kind in ("diagnosis", "finding")] == []
    assert report.skipped >= 1


def test_diagnosis_with_differential_in_one_sentence(hernia):
    got = _findings(hernia, "考虑右侧嵌顿性腹股沟斜疝，需与睾丸扭转鉴别。")
    assert [(f.kind, f.status) for f in got] == [("diagnosis", "supported")]


def test_diagnosis_the_record_denies_is_contradicted(hernia):
    [f] = _findings(hernia, "诊断：高血压。")
    assert f.status == "contradicted" and "高血压" in f.evidence_text


def test_diagnosis_of_recorded_past_history_is_supported(appendicitis):
    # a recorded condition may be restated as a diagnosis (the record's own words)
    [f] = _findings(appendicitis, "诊断：急性阑尾炎。")
    assert f.status == "supported"


def test_record_without_diagnosis_leaves_a_stated_diagnosis_unchecked():
    record = "主诉：右下腹痛3天。\n现病史：3天前出现右下腹痛，伴发热。"
    report = check(record, "诊断：急性心肌梗死。", key_facts=[])
    assert report.findings == [] and report.skipped == 1
    assert [n.reason_en for n in report.not_checked] == ["the record gives no diagnosis to hold it against"]


def test_plain_record_diagnosis_section_is_the_list():
    record = "主诉：右下腹痛3天。\n现病史：3天前出现右下腹痛，伴发热。\n初步诊断：急性阑尾炎"
    assert {f.status for f in _findings(record, "考虑急性阑尾炎。")} == {"supported"}
    assert {f.status for f in _findings(record, "诊断：急性心肌梗死。")} == {"unsupported"}


def test_issue_example_is_no_longer_full_marks(hernia):
    report = check(hernia, "胸痛2小时。诊断：急性前壁心肌梗死。", key_facts=[])
    assert report.score == 0.0
    assert sorted((f.kind, f.status) for f in report.findings) == [("diagnosis", "unsupported"),
                                                                   ("finding", "unsupported")]
    # the duration has nothing in the record to hold it against: listed with why
    assert [n.text for n in report.not_checked] == ["2小时"]
    assert report.not_checked[0].reason_zh and report.not_checked[0].span == (2, 5)


def test_not_checked_claims_carry_a_reason(appendicitis):
    report = check(appendicitis, "建议口服布洛芬0.3g bid。考虑急性阑尾炎，需与输尿管结石鉴别。", key_facts=[])
    assert report.skipped == len(report.not_checked) >= 2
    assert all(n.reason_zh and n.reason_en for n in report.not_checked)
