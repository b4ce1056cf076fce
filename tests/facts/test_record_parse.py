"""A raw 病历 as a hospital system exports it, structured into a Case."""

from __future__ import annotations

from medsim.facts import check, parse_record

RAW = """姓名：张某  性别：男  年龄：62岁
主诉：反复胸闷、气促2年，加重3天。
现病史：患者2年前活动后出现胸闷、气促，休息后缓解，3天前症状加重，伴夜间阵发性呼吸困难，无胸痛。
既往史：高血压10年，口服氨氯地平5mg qd。否认糖尿病史。
家族史：父亲有冠心病史。
体格检查：T 36.6℃，P 102次/分，R 22次/分，BP 150/90mmHg。双肺底可闻及湿啰音，双下肢水肿。
辅助检查：
BNP：1250pg/ml
心脏超声：左室射血分数35%
诊断：慢性心力衰竭急性加重；高血压病2级
"""


def test_sections_and_demographics():
    case = parse_record(RAW, case_id="raw-1")
    assert case.chief_complaint.startswith("反复胸闷")
    assert "夜间阵发性呼吸困难" in case.hpi
    assert case.demographics.sex == "男" and case.demographics.age == 62
    assert case.vitals.heart_rate == 102 and case.vitals.systolic_bp == 150
    assert [t.name for t in case.tests] == ["BNP", "心脏超声"]
    assert case.diagnosis == ["慢性心力衰竭急性加重", "高血压病2级"]
    assert case.full_record_text() == RAW


def test_checking_against_a_parsed_record():
    case = parse_record(RAW)
    report = check(case, "62岁男性，胸闷气促2年加重3天，BNP 1250pg/ml，口服氨氯地平5mg qd，有胸痛。")
    assert {f.status for f in report.findings} == {"supported", "contradicted"}
    assert [f.text for f in report.problems()] == ["胸痛"]


def test_cmb_description_layout():
    raw = "现病史\n（1）病史摘要\n     病人，男，49岁，3小时前出现右下腹疼痛。\n（2）主诉\n     右下腹痛3小时。\n\n体格检查\nT 37.8℃，P 101次／分"
    case = parse_record(raw)
    assert case.chief_complaint == "右下腹痛3小时。"
    assert case.vitals.temperature == 37.8
