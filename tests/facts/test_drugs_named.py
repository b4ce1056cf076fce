"""Drugs named without a dose: a claim about the record where the patient takes or took them."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics


@pytest.fixture
def hf() -> Case:
    return Case(id="t-hf", source="synthetic", demographics=Demographics(sex="女", age=72),
                hpi="1周前自行停用呋塞米。近期未服用非甾体抗炎药。",
                medications="沙库巴曲缬沙坦 50mg 口服 每日两次；琥珀酸美托洛尔缓释片 47.5mg 口服 每日一次。",
                allergies="青霉素过敏（皮疹）。")


@pytest.mark.parametrize("text", ["患者长期服用地高辛。", "平素口服厄贝沙坦控制血压。", "外院静滴莫西沙星无效。",
                                  "孕期口服叶酸及阿司匹林。",
                                  # given, in any wording, with no time or dose: still a claim it was given
                                  "予头孢曲松抗感染。", "加用莫西沙星。", "已行化疗（吉西他滨+顺铂）。", "口服奥美拉唑护胃。"])
def test_a_drug_the_record_lacks_is_unsupported_without_a_dose(hf, text):
    assert "unsupported" in check(hf, text, key_facts=[]).statuses()


@pytest.mark.parametrize("text", ["长期口服沙库巴曲缬沙坦和美托洛尔。", "1周前自行停用呋塞米。", "患者对青霉素过敏。",
                                  "近期未服用非甾体抗炎药。"])
def test_a_drug_the_record_holds_is_supported(hf, text):
    report = check(hf, text, key_facts=[])
    assert report.problems() == [] and "supported" in report.statuses()


@pytest.mark.parametrize("text", [
    "建议加用地高辛控制心室率。",  # advice
    "拟予呋塞米静推、硝酸甘油扩血管。",  # the writer's plan
    "肺炎克雷伯菌对头孢曲松、左氧氟沙星敏感。",  # a susceptibility, not a drug given
    "头孢类过敏者可选用阿奇霉素。",  # an allergy and knowledge
    "纳洛酮拮抗阿片类，维生素K1用于华法林过量。",  # knowledge
    "服药期间禁止使用西地那非。",  # a prohibition
    "诊治经过：静脉呋塞米利尿，加用地高辛。",  # a hospital course the writer composes
])
def test_a_drug_outside_a_claim_about_the_patient_is_not_checked(hf, text):
    assert check(hf, text, key_facts=[]).problems() == []


def test_a_drug_the_record_gives_cannot_be_denied(hf):
    report = check(hf, "患者未服用美托洛尔。", key_facts=[])
    assert report.statuses() == {"contradicted"}


def test_a_drug_class_is_not_held_against_named_drugs(hf):
    assert check(hf, "长期口服降压药。", key_facts=[]).problems() == []


def test_a_class_name_is_held_against_the_records_member_and_advice_lists_are_not_claims():
    from medsim.facts import check
    from medsim.scenario.schema import Case

    c = Case(id="t-op", source="synthetic", question="阿仑膦酸钠跟钙片能一起吃吗？",
             hpi="绝经后10年，骨密度检查T值-2.8，诊断骨质疏松。平素无腹痛、反酸。",
             medications="碳酸钙D3片每日1片；今日新开阿仑膦酸钠片70mg每周1次。")
    assert not check(c, "您平时吃的钙片要和阿仑膦酸钠错开服用。", key_facts=[]).problems()
    assert [f.text for f in check(c, "患者长期服用华法林。", key_facts=[]).problems()] == ["华法林"]
    # 减轻恶心、上腹不适: the verb's object, not a complaint the record lacks (a bundled iron consult)
    from pathlib import Path

    from medsim.scenario.load import load_case_file

    cases = {k.id: k for k in load_case_file(Path("scenarios/cases/medication_consult.yaml"))[0]}
    iron = cases["mc-031"]
    assert not check(iron, "铁剂对胃有刺激，饭后服用能减轻恶心、上腹不适。", key_facts=[]).problems()
    assert [f.text for f in check(iron, "患者近来上腹不适。", key_facts=[]).problems()] == ["上腹不适"]
