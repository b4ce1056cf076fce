"""Scaffolds for ``medsim new``: a scenario and a case file that validate exactly as written."""

from __future__ import annotations

from pathlib import Path

from medsim.scenario.jsonschema import write_all

_CASE = """\
  - id: {id}-001
    source: synthetic
    department: 心血管内科
    demographics: {{sex: 男, age: 62}}
    chief_complaint: 胸痛3小时
    hpi: >-
      患者3小时前休息时突发胸骨后压榨样疼痛，向左肩放射，伴大汗、恶心，含服硝酸甘油不缓解。
      无发热、咳嗽，无腹痛、腹泻。
    past_history: 高血压病史10年，口服氨氯地平5mg qd。否认糖尿病史。
    personal_history: 吸烟30年，每日20支。
    family_history: 父亲有冠心病史。
    allergies: 否认药物过敏史。
    medications: 氨氯地平 5mg 口服 qd。
    vitals: {{temperature: 36.6, heart_rate: 98, respiratory_rate: 20, systolic_bp: 150, diastolic_bp: 90, spo2: 96}}
    physical_exam: 神志清，痛苦面容，双肺呼吸音清，心律齐，各瓣膜听诊区未闻及杂音。
    tests:
      - {{name: 心电图, category: ecg, result: "V1–V4导联ST段抬高0.3mV", aliases: [ECG, 十二导联心电图]}}
      - {{name: 肌钙蛋白I, result: "cTnI 2.35ng/mL（参考值<0.04ng/mL）", aliases: [cTnI, 肌钙蛋白]}}
    diagnosis: [急性前壁ST段抬高型心肌梗死, 高血压病2级]
    gold: {gold}
    key_facts: [胸骨后压榨样疼痛3小时, 向左肩放射, 伴大汗, 高血压病史, 吸烟30年]
    reference_answer: 急性前壁ST段抬高型心肌梗死，立即启动胸痛中心流程，尽快行急诊PCI。
"""

_GOLD = {
    "dialogue": "{level: 1, department: 心血管内科}",
    "single_turn": "{choice: B}",
    "staged": "{diagnosis: 急性ST段抬高型心肌梗死|急性心肌梗死}",
}

_SINGLE_TURN_EXTRA = """\
    question: 该患者最可能的诊断是
    options: {A: 稳定型心绞痛, B: 急性ST段抬高型心肌梗死, C: 急性心包炎, D: 主动脉夹层, E: 肺栓塞}
"""

_HEADER = """\
# yaml-language-server: $schema={schema}/scenario.schema.json
# Scaffold written by `medsim new`. Edit it, then check it with `medsim validate {file}`.
id: {id}
name: 新场景（改成中文名）
name_en: New scenario
dimension: clinical_qa
kind: {kind}
description: 说明这个场景考察什么。
references: []
cases: cases/{id}.yaml
"""

_BODY = {
    "dialogue": """\
patient:
  opening: "{chief_complaint}"
  persona: {literacy: low, mood: anxious, style: plain}
  disclose:
    volunteered: [chief_complaint]
    on_ask: [hpi, past_history, personal_history, family_history, allergies, medications]
    on_exam: [vitals, physical_exam, tests]
    never: [diagnosis]
clinician:
  instructions: |
    你是急诊预检分诊护士。每次问一到两个问题；需要生命体征时写【查体】，需要检查时写【开检查】项目名。
    问诊结束后只输出 JSON：{"level": 1-4, "department": "分诊科室"}
  max_turns: 8
  answer: {format: json, fields: {level: int, department: str}}
scoring:
  - triage_level: {field: level, weight: 2}
  - department: {}
  - info_gathering: {}
""",
    "single_turn": """\
clinician:
  instructions: 你是一名临床医生，请回答下面的单选题，只输出选项字母。
  prompt: |
    {question}
    {options}
  answer: {format: choice}
scoring:
  - choice: {}
""",
    "staged": """\
carry: model
clinician:
  instructions: 你是住院医师，请按每个阶段的要求作答。
stages:
  - id: admission
    reveal: [demographics, chief_complaint, hpi, past_history, vitals, physical_exam]
    prompt: 请列出入院需要完善的检查。
    answer: {format: text}
  - id: results
    reveal: [tests]
    prompt: |
      检查结果已回报。请给出主要诊断，只输出 JSON：{"diagnosis": "…"}
    answer: {format: json, fields: {diagnosis: str}}
    scored: true
scoring:
  - diagnosis_match: {field: diagnosis}
""",
}


def scaffold(scenario_id: str, kind: str, folder: Path) -> list[Path]:
    """Write ``<folder>/<id>.yaml``, ``<folder>/cases/<id>.yaml`` and the JSON Schemas.

    Refuses to overwrite: an author's work is never lost to a repeated command.
    """
    scenario_path = folder / f"{scenario_id}.yaml"
    case_path = folder / "cases" / f"{scenario_id}.yaml"
    for path in (scenario_path, case_path):
        if path.exists():
            raise FileExistsError(f"{path} already exists; choose another id or remove the file")
    case_path.parent.mkdir(parents=True, exist_ok=True)
    schema_dir = folder / "schema"
    written = []
    if not (schema_dir / "scenario.schema.json").exists():
        written += write_all(schema_dir)
    scenario_path.write_text(
        _HEADER.format(schema="schema", file=scenario_path, id=scenario_id, kind=kind) + _BODY[kind],
        encoding="utf-8",
    )
    case_text = (
        "# yaml-language-server: $schema=../schema/cases.schema.json\n"
        "source: synthetic — written by the scenario's author (say where each case comes from)\n"
        "cases:\n" + _CASE.format(id=scenario_id, gold=_GOLD[kind])
    )
    if kind == "single_turn":
        case_text += _SINGLE_TURN_EXTRA
    case_path.write_text(case_text, encoding="utf-8")
    return [scenario_path, case_path, *written]
