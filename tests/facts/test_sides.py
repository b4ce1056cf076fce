"""A finding's side, lobe and zone held against the record's."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics
from medsim.scenario.schema import TestResult as Result


@pytest.fixture
def pneumonia() -> Case:
    return Case(id="t-cap", source="synthetic", demographics=Demographics(sex="男", age=67),
                chief_complaint="发热、咳嗽4天", hpi="4天前受凉后发热、咳嗽，伴右侧胸痛，深吸气时加重。",
                physical_exam="右下肺叩诊浊音，可闻及湿啰音。双下肢无水肿。",
                tests=[Result(name="胸部CT", result="右肺下叶大片实变影，右侧少量胸腔积液。"),
                       Result(name="下肢静脉超声", result="左侧腘静脉血栓形成。")])


@pytest.mark.parametrize("text", ["左下肺叩诊浊音。", "胸部CT示左肺下叶实变影。", "伴左侧胸痛。", "左侧少量胸腔积液。",
                                  "超声示右侧腘静脉血栓形成。"])
def test_other_side_is_contradicted(pneumonia, text):
    assert "contradicted" in check(pneumonia, text, key_facts=[]).statuses()


def test_other_lobe_of_the_same_lung_is_contradicted(pneumonia):
    report = check(pneumonia, "胸部CT示右肺上叶大片实变影。", key_facts=[])
    lobe = [f for f in report.findings if f.kind == "laterality"]
    assert [f.status for f in lobe] == ["contradicted"] and "肺叶" in lobe[0].reason_zh


@pytest.mark.parametrize("text", ["右肺下叶大片实变影，右侧少量胸腔积液。", "查体右下肺叩诊浊音。", "伴右侧胸痛。",
                                  "左侧腘静脉血栓形成。", "左下肢无水肿。"])
def test_same_side_in_other_words_is_supported(pneumonia, text):
    assert check(pneumonia, text, key_facts=[]).problems() == []


def test_right_lower_lung_is_the_right_lower_lobe(pneumonia):
    assert check(pneumonia, "右下肺实变。", key_facts=[]).problems() == []


def test_the_side_a_finding_is_worse_on():
    case = Case(id="t-ectopic", source="synthetic", physical_exam="下腹压痛、反跳痛明显，以左侧为重。")
    assert check(case, "下腹压痛、反跳痛，以左侧为重。", key_facts=[]).problems() == []
    assert "contradicted" in check(case, "下腹压痛、反跳痛，以右侧为重。", key_facts=[]).statuses()


GOUT = ("现病史：1天前夜间突发右足第一跖趾关节剧烈疼痛，局部红肿。\n"
        "辅助检查：关节超声：右第一跖趾关节积液，关节软骨表面双轨征。")
BPPV = ("现病史：3天前向右翻身时突发视物旋转，持续约半分钟自行缓解；此后每次躺下、向右翻身时均可诱发。\n"
        "体格检查：右侧Dix-Hallpike试验阳性，左侧阴性。")


def test_a_small_joint_named_with_an_ordinal_keeps_its_side():
    assert "contradicted" in check(GOUT, "关节超声：左第一跖趾关节积液。", key_facts=[]).statuses()
    assert "contradicted" not in check(GOUT, "右足第一跖趾关节红肿。", key_facts=[]).statuses()


def test_the_direction_of_a_provoking_movement_is_held_against_the_record():
    assert "contradicted" in check(BPPV, "每次躺下、向左翻身时都会诱发眩晕。", key_facts=[]).statuses()
    assert "contradicted" not in check(BPPV, "每次躺下、向右翻身时都会诱发眩晕。", key_facts=[]).statuses()


ARMS = ("生命体征：T 36.5℃，P 78次/分，BP 164/102mmHg。\n"
        "体格检查：双上肢血压相近（左164/102mmHg，右160/100mmHg）；心肺无异常。")


def test_a_value_given_for_the_other_limb_is_the_wrong_side():
    report = check(ARMS, "右上肢164/102mmHg。", key_facts=[])
    assert [f.status for f in report.findings if f.kind == "measurement"] == ["contradicted"]


def test_each_limbs_value_on_its_own_side_is_supported():
    report = check(ARMS, "右上肢160/100mmHg，左上肢164/102mmHg。", key_facts=[])
    assert [f.status for f in report.findings if f.kind == "measurement"] == ["supported", "supported"]
    assert check(ARMS, "血压164/102mmHg。", key_facts=[]).statuses() == {"supported"}
