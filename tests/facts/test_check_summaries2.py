"""Mechanisms behind the false alarms and misses of the third held-out summary set
(facts_eval_heldout_summaries2.jsonl): each with the record's and the summary's own phrasing."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.facts.record import index_text


def statuses(record: str, text: str) -> set[str]:
    return check(record, text, key_facts=[]).statuses()


def claims(text: str, kind: str):
    return [c for c in index_text(text).claims if c.kind == kind]


# ------------------------------------------------------------- polarity and owner of findings

FAMILY_RECORD = "病人无高血压、糖尿病及冠心病家族史。发现血压明显升高，最高血压238/137mmHg。"


def test_family_history_written_after_the_names_is_family():
    [f] = [c for c in claims("有高血压家族史。", "finding") if c.key == "高血压"]
    assert f.owner == "family" and f.polarity == "present"
    assert {c.owner for c in claims("无高血压、糖尿病及冠心病家族史。", "finding")} == {"family"}


def test_family_history_flipped_is_contradicted_and_restated_is_supported():
    assert "contradicted" in statuses(FAMILY_RECORD, "病程中无心慌、胸闷，无双下肢水肿。有高血压家族史。")
    assert statuses(FAMILY_RECORD, "无高血压、糖尿病及冠心病家族史。") == {"supported"}


def test_highest_blood_pressure_is_a_value_not_hypertension():
    assert not [c for c in claims("最高血压238/137mmHg", "finding") if c.key == "高血压"]


def test_a_mother_who_bathes_the_child_does_not_own_the_mass():
    record = "男性病儿，3岁，4个月前母亲替他洗澡时，发现右侧上腹部无痛性肿块，如苹果大小。"
    text = "4个月前其母替其洗澡时发现右上腹无痛性包块，约苹果大小。"
    [f] = [c for c in claims(text, "finding") if c.key == "肿块"]
    assert f.owner == "patient"
    assert "contradicted" not in statuses(record, text)


def test_an_item_with_its_own_verb_leaves_the_list_negation():
    record = "病人病程中无腹泻、偶有恶心、无呕吐，食欲欠佳。"
    by_key = {c.key: c.polarity for c in claims(record, "finding")}
    assert by_key == {"腹泻": "absent", "恶心": "present", "呕吐": "absent"}
    assert statuses(record, "偶有恶心，无呕吐、腹泻。") == {"supported"}
    assert "contradicted" in statuses(record, "无恶心、呕吐。")


def test_bare_history_clause_continues_the_denial():
    record = "否认高血压，糖尿病史，否认手术病史。"
    assert statuses(record, "否认高血压、糖尿病及手术史。") == {"supported"}
    assert "contradicted" in statuses(record, "既往有糖尿病史。")
    # a clause of its own with a verb is not a continuation
    assert {c.key: c.polarity for c in claims("否认高血压，有糖尿病史", "finding")}["糖尿病"] == "present"


# ----------------------------------------------------------------------- demographics

@pytest.mark.parametrize(("text", "sex", "age"), [("女婴，6个月，足月产", "女", "6个月"),
                                                  ("男婴，25天，出生时发现头围增大", "男", "25天"),
                                                  ("男童，3岁", "男", "3岁")])
def test_infant_and_child_words_carry_sex_and_age(text, sex, age):
    assert [c.value_text for c in claims(text, "sex")] == [sex]
    assert [c.text for c in claims(text, "age")] == [age]


def test_infant_of_the_wrong_sex_is_contradicted():
    record = "王某某，男，6个月，足月产出生，出生后3日出现皮肤巩膜黄染。"
    assert "contradicted" in statuses(record, "女婴，6个月，足月产，出生后3天出现皮肤巩膜黄染。")
    assert statuses(record, "男婴，6个月，足月产。") == {"supported"}


# ------------------------------------------------------------------------ measurements

LIVER = "大生化：丙氨酸氨基转移酶321 U/L，总胆红素42.9 μ mol/L，直接胆红素19.1 μ mol/L，门冬氨酸转移酶210 U/L。"


def test_a_unit_printed_with_a_space_is_read():
    assert statuses(LIVER, "总胆红素42.9μmol/L，直接胆红素19.1μmol/L。") == {"supported"}
    assert "value_mismatch" in statuses(LIVER, "总胆红素24.9μmol/L。")


def test_aspartate_aminotransferase_full_name():
    assert statuses(LIVER, "门冬氨酸氨基转移酶210U/L。") == {"supported"}
    assert "value_mismatch" in statuses(LIVER, "天门冬氨酸氨基转移酶120U/L。")


def test_volume_with_its_unit_rewritten():
    record = "右手被折弯机压伤，当即感剧烈疼痛，流血不止，伤后出血量40毫升，简单包扎。"
    assert statuses(record, "流血不止，出血量约40ml。") == {"supported"}
    assert "value_mismatch" in statuses(record, "流血不止，出血量约0.4L。")


def test_length_under_a_name_is_compared_after_unit_conversion():
    record = "CDFI示左侧精索静脉内径0.36cm，Valsalva试验有反流现象。"
    assert statuses(record, "彩超示左侧精索静脉内径3.6mm，Valsalva试验有反流。") == {"supported"}
    assert "value_mismatch" in statuses(record, "彩超示左侧精索静脉内径3.6cm。")


def test_a_size_the_record_does_not_give_is_not_an_invention():
    record = "右上腹部略膨隆，可触及大小约8cm×7cm肿块，无压痛。"
    report = check(record, "腹部可及约8cm×7cm肿块，肝右肋缘下4cm。", key_facts=[])
    assert not report.problems()


# --------------------------------------------------------------------------- laterality

def test_side_before_an_upper_or_lower_chest():
    record = "7天前因车祸撞击左下胸部，卧床休息2天。左下胸有皮肤瘀斑。"
    [lat] = claims("7天前车祸撞伤右下胸部", "laterality")
    assert (lat.side, lat.key) == ("右", "下胸")
    assert "contradicted" in statuses(record, "7天前车祸撞伤右下胸部，卧床休息2天。")
    assert statuses(record, "7天前车祸撞伤左下胸部，左下胸壁皮肤瘀斑。") == {"supported"}


# --------------------------------------------------------------------------- test results

SPHEROCYTOSIS = "血常规：HGB 80g/L，RET 25%。显微镜下观察球形红细胞11%。粪便常规：便潜血（+）。"


def test_a_test_result_the_record_does_not_hold_is_unsupported():
    assert "unsupported" in statuses(SPHEROCYTOSIS, "镜下球形红细胞11%，Coombs试验阳性。")


def test_a_test_result_restated_is_supported_and_flipped_is_contradicted():
    assert statuses(SPHEROCYTOSIS, "便潜血阳性。") == {"supported"}
    assert "contradicted" in statuses(SPHEROCYTOSIS, "大便潜血阴性。")


# ------------------------------------------------------------------------------ lexicon

def test_enlarged_lymph_nodes_written_noun_first():
    record = "肿物呈菜花样3cm位于冠状沟区。双侧腹股沟未触及肿大淋巴结。"
    assert statuses(record, "双侧腹股沟未扪及肿大淋巴结。") == {"supported"}
    assert "contradicted" in statuses(record, "查体双侧腹股沟可扪及肿大淋巴结。")


@pytest.mark.parametrize(("record", "text"), [
    ("近1个月体重下降约4kg，睡眠质量差。", "近1个月体重下降约4kg，睡眠差。"),
    ("无进食哽咽感，无腹胀，无呕吐。", "无进食哽噎感、腹胀、呕吐。"),
    ("1周前出现大便后点滴样出血。（2）主诉 反复肛门部肿物脱出2年，便血1周。", "近1周便后滴血。"),
])
def test_lay_and_formal_wordings_match(record, text):
    assert statuses(record, text) == {"supported"}
