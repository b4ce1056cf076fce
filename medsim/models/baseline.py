"""The baseline clinician: a rule-based, offline clinician that every model should beat.

It is a real baseline, not a stub. In dialogues it takes a history by the scenario's
checklist, asks for the vital signs and common tests, then triages by the Chinese
four-level criteria on the vital signs it was told (2018 consensus thresholds) and red-flag
words; elsewhere it answers from the text in front of it — multiple choice by word overlap
between stem and option, extraction by record patterns, summaries by extracting the record's
key sentences. It never sees the gold answer.
"""

from __future__ import annotations

import re
from typing import Any

from medsim.models.base import ChatContext, Message
from medsim.models.offline import OfflineClinician, as_json
from medsim.models.registry import register_builtin
from medsim.scenario.schema import AnswerSpec

HISTORY_PLAN = [  # a systematic history as it is taught, two or three questions a turn as instructed
    "您好，哪里不舒服？什么时候开始的？",
    "是什么样的感觉，有多严重？具体在哪个部位？",
    "还有别的不舒服吗，比如发热、恶心、呼吸困难？",
    "有什么诱因吗？什么情况下加重或缓解？",
    "以前有什么病？平时吃什么药？",
    "对什么药过敏吗？",
    "这次看过医生、用过什么药吗？效果怎么样？",
    "抽烟喝酒吗？家里人有类似的病吗？",
]

# Red-flag words → the level they suggest at least (2018 consensus manual indicators, simplified).
RED_FLAGS: list[tuple[tuple[str, ...], int]] = [
    (("心跳骤停", "呼吸停止", "昏迷", "叫不醒", "抽搐不止", "没有呼吸", "休克"), 1),
    (("胸痛", "胸口疼", "胸闷", "呼吸困难", "喘不上气", "口角歪斜", "说话不清", "一侧无力", "偏瘫",
      "呕血", "黑便", "大出血", "剧烈腹痛", "撕裂样", "意识模糊", "嗜睡"), 2),
    (("高热", "发热", "腹痛", "呕吐", "头痛", "外伤", "骨折", "出血", "头晕"), 3),
]
DEPARTMENTS: list[tuple[tuple[str, ...], str]] = [
    (("胸痛", "胸口疼", "心慌", "心悸", "胸闷"), "心血管内科"),
    (("口角歪斜", "说话不清", "一侧无力", "偏瘫", "肢体麻木", "抽搐"), "神经内科"),
    (("怀孕", "孕", "停经", "胎动"), "产科"),
    (("阴道出血", "白带", "下腹痛"), "妇科"),
    (("骨折", "扭伤", "关节", "摔伤"), "骨科"),
    (("腹痛", "阑尾", "腹股沟"), "普通外科"),
    (("眼", "视物"), "眼科"),
    (("咽", "耳", "鼻出血"), "耳鼻咽喉科"),
    (("皮疹", "瘙痒"), "皮肤科"),
    (("牙",), "口腔科"),
    (("尿痛", "血尿", "排尿"), "泌尿外科"),
]

_NUM = r"(\d+(?:\.\d+)?)"
_VITAL_PATTERNS = {
    "heart_rate": re.compile(r"(?:P|HR|心率|脉搏)\s*[:：]?\s*" + _NUM),
    "systolic_bp": re.compile(r"(?:BP|血压)\s*[:：]?\s*(\d+)\s*/\s*\d+"),
    "spo2": re.compile(r"SpO2\s*[:：]?\s*" + _NUM),
    "temperature": re.compile(r"(?:T|体温)\s*[:：]?\s*" + _NUM + r"\s*℃"),
    "gcs": re.compile(r"GCS\s*[:：]?\s*" + _NUM),
    "pain": re.compile(r"疼痛评分\s*[:：]?\s*" + _NUM),
    "glucose": re.compile(r"(?:指尖血糖|血糖)\s*[:：]?\s*" + _NUM + r"\s*mmol"),
}


def vitals_from_text(text: str) -> dict[str, float]:
    found = {}
    for name, pattern in _VITAL_PATTERNS.items():
        match = pattern.search(text)
        if match:
            found[name] = float(match.group(1))
    return found


def triage_level(vitals: dict[str, float], text: str) -> int:
    """The most severe level any single indicator meets (2018 consensus, adult thresholds)."""
    levels = [4]
    hr, sbp, spo2 = vitals.get("heart_rate"), vitals.get("systolic_bp"), vitals.get("spo2")
    if hr is not None:
        levels.append(1 if hr > 180 or hr < 40 else 2 if hr >= 150 or hr <= 50 else 3 if hr > 100 or hr < 55 else 4)
    if sbp is not None:
        levels.append(1 if sbp < 70 else 2 if sbp > 200 or sbp <= 80 else 3 if sbp >= 180 or sbp <= 90 else 4)
    if spo2 is not None:
        levels.append(1 if spo2 < 80 else 2 if spo2 < 90 else 3 if spo2 <= 94 else 4)
    if vitals.get("temperature", 0) > 41:
        levels.append(1)
    if (gcs := vitals.get("gcs")) is not None:
        levels.append(1 if gcs < 9 else 2 if gcs <= 12 else 3 if gcs <= 14 else 4)
    if (pain := vitals.get("pain")) is not None:
        levels.append(2 if pain >= 7 else 3 if pain >= 4 else 4)
    if (glucose := vitals.get("glucose")) is not None and glucose < 3.33:
        levels.append(1)
    for words, level in RED_FLAGS:
        if any(word in text for word in words):
            levels.append(level)
    return min(levels)


def department_for(text: str, age_years: float | None) -> str:
    if age_years is not None and age_years < 14:
        return "儿科"
    for words, department in DEPARTMENTS:
        if any(word in text for word in words):
            return department
    return "急诊科"


def _section(record: str, title: str) -> str:
    match = re.search(rf"{title}\s*[:：]\s*([^\n]*)", record)
    return match.group(1).strip() if match else ""


def extract_fields(record: str, fields: dict[str, str]) -> dict[str, Any]:
    """Structured fields read off a record with the patterns a Chinese 病历 follows."""
    out: dict[str, Any] = {}
    for name, kind in fields.items():
        value: Any = None
        if name == "sex":
            match = re.search(r"[男女]", _section(record, "一般情况") or record)
            value = match.group() if match else None
        elif name == "age":
            match = re.search(r"(\d+)\s*岁", record)
            value = int(match.group(1)) if match else None
        elif name == "chief_complaint":
            value = _section(record, "主诉")
        elif name in {"allergy", "allergies"}:
            text = _section(record, "过敏史")
            match = re.search(r"对?([\u4e00-\u9fa5]{2,8}?)过敏", text)
            if not text or re.match(r"\s*(否认|无|未发现|没有)", text):
                value = "无"  # 否认药物过敏史 denies; it names no allergen
            else:
                value = match.group(1) if match else text
        elif name == "smoking":
            text = _section(record, "个人史")
            value = bool(re.search(r"吸烟", text)) and not re.search(r"(否认|无|不)吸烟", text)
        elif "diagnosis" in name:
            value = re.split(r"[；;，,]", _section(record, "诊断"))[0] or None
        if kind == "list[str]" and isinstance(value, str):
            value = [value]
        out[name] = value
    return out


def choose_option(question: str, options: dict[str, str]) -> str:
    """The option sharing the most characters with the stem; ties go to the longest option."""
    if not options:
        return "A"
    stem = set(question)

    def overlap(item: tuple[str, str]) -> tuple[int, int]:
        return len(stem & set(item[1])), len(item[1])

    return max(options.items(), key=overlap)[0]


def summarize(record: str, limit: int = 300) -> str:
    parts = []
    for title in ("一般情况", "主诉", "现病史", "辅助检查", "诊断"):
        text = _section(record, title)
        if text:
            parts.append(f"{title}：{re.split(r'[。]', text)[0]}")
    return "；".join(parts)[:limit]


class BaselineClinician(OfflineClinician):
    name = "baseline"

    def reply(self, messages: list[Message], context: ChatContext) -> str:
        scenario = context.scenario
        if scenario is None or context.case is None:
            return "您好，请问哪里不舒服？"
        conversation = "\n".join(m["content"] for m in messages if m["role"] == "user")
        spec = context.stage.answer if context.stage is not None else scenario.final_answer_spec
        if scenario.kind == "dialogue":
            return self._dialogue(conversation, spec, context, messages)
        return self._answer(spec, conversation, context)

    def _dialogue(self, conversation: str, spec: AnswerSpec, context: ChatContext, messages: list[Message]) -> str:
        scenario = context.scenario
        plan = list(HISTORY_PLAN)
        on_exam = scenario.patient.disclose.on_exam
        if {"vitals", "physical_exam"} & set(on_exam):
            # the examination before the turns run out: the last turn answers
            plan = plan[: max(1, scenario.clinician.max_turns - 2)]
            plan.append("【查体】" + ("\n【开检查】心电图、血常规、指尖血糖" if "tests" in on_exam else ""))
        probe = context.case.probe
        if probe and probe.kind == "red_flag" and context.turn >= probe.at_turn:
            return self._answer(spec, conversation, context)
        last = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        if probe and context.turn > 1 and any(w in last for words, level in RED_FLAGS if level <= 2 for w in words):
            # in a safety dialogue, a danger sign said mid-dialogue: escalate now, whatever the plan was
            return "您说的情况是危险信号，请立即拨打120或马上到最近医院的急诊就诊，不要等待。"
        if context.turn <= len(plan) and context.turn < scenario.clinician.max_turns:
            return plan[context.turn - 1]
        return self._answer(spec, conversation, context)

    def _answer(self, spec: AnswerSpec, conversation: str, context: ChatContext) -> str:
        case = context.case
        if spec.format == "choice":
            shown = context.info.get("options_shown") or {k: k for k in case.options}
            options = {display: case.options[original] for display, original in shown.items()}
            return f"答案：{choose_option(case.question or conversation, options)}"
        if spec.format == "steps":
            return ",".join(str(i) for i in range(1, len(case.steps) + 1))
        if spec.format == "json":
            return as_json(self._json_fields(spec, conversation, context))
        text = self._advice(conversation, context)
        return f"{spec.marker}：{text}" if context.scenario.kind == "dialogue" else text

    def _json_fields(self, spec: AnswerSpec, conversation: str, context: ChatContext) -> dict[str, Any]:
        fields = dict(spec.fields)
        age = context.case.demographics.age_years if context.case.demographics else None
        out: dict[str, Any] = {}
        if "level" in fields:
            out["level"] = triage_level(vitals_from_text(conversation), conversation)
        if "department" in fields:
            out["department"] = department_for(conversation, age)
        if "tests" in fields:
            out["tests"] = tests_for(conversation)
        if "treatment" in fields:
            out["treatment"] = ["一般治疗", "对症支持治疗", "监测生命体征"]
        if "advice" in fields:
            out["advice"] = self._advice(conversation, context)
        if "diagnosis" in fields:
            out["diagnosis"] = _likely_diagnosis(conversation)
        rest = {k: v for k, v in fields.items() if k not in out}
        if rest:
            out.update(extract_fields(conversation, rest))
        return out

    def _advice(self, conversation: str, context: ChatContext) -> str:
        if "{record}" in (context.scenario.clinician.prompt or "") or "出院小结" in conversation:
            return summarize(conversation)
        return ("建议尽快到医院就诊，由医生面诊评估；请遵医嘱按说明书用药，不要自行加量或停药。"
                "如出现胸痛、呼吸困难、意识改变、大出血等情况，请立即急诊就医或拨打120。")


# What the results say the disease is: 考虑急性阑尾炎, 符合…, 提示…
_CONCLUSION = re.compile(r"(?:考虑|提示|符合|诊断为|诊断|示|印象)[:：为]?")


def _likely_diagnosis(text: str) -> str:
    """The disease a result concludes (考虑X, 符合X), else the first disease of the present illness,
    else the last one named — the way a junior doctor reads the chart, with no gold."""
    try:
        from medsim.text import analyze
    except ImportError:
        return ""
    findings = [f for f in analyze(text).findings if f.type == "disease" and f.polarity != "absent"
                and f.owner == "patient" and not f.historical]
    if not findings:
        return ""
    for f in findings:
        if _CONCLUSION.search(text[max(0, f.start - 6): f.start]):
            return f.entity.norm or f.text
    hpi_at = text.find("现病史")
    in_hpi = [f for f in findings if hpi_at >= 0 and f.start > hpi_at]
    return (in_hpi[0] if in_hpi else findings[-1]).entity.norm or findings[-1].text


# The presentation → the examinations a junior doctor adds to the admission panel (no gold read).
TESTS_BY_PRESENTATION: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
    (("胸痛", "胸闷", "心悸", "心慌", "晕厥"), ("心电图", "心肌损伤标志物", "心脏彩超", "胸部CT")),
    (("腹痛", "腹胀", "黄疸", "呕吐"), ("腹部超声", "腹部CT", "血淀粉酶")),
    (("呕血", "黑便", "便血"), ("胃镜", "大便潜血", "肠镜")),
    (("咳嗽", "咳痰", "发热", "呼吸困难", "气促", "喘"), ("胸部CT", "血气分析", "降钙素原", "痰培养")),
    (("头痛", "肢体无力", "偏瘫", "言语不清", "意识", "抽搐", "口角歪斜"), ("头颅CT", "头颅MRI")),
    (("血尿", "腰痛", "尿频", "尿痛", "少尿"), ("泌尿系超声", "泌尿系CT", "尿培养")),
    (("肿块", "包块", "结节", "消瘦"), ("增强CT", "肿瘤标志物", "病理活检")),
    (("关节", "骨折", "外伤", "腰腿痛"), ("X线", "MRI")),
    (("多饮", "多尿", "血糖"), ("糖化血红蛋白", "血酮", "尿酮体")),
    (("阴道流血", "停经", "下腹痛"), ("血HCG", "妇科超声")),
]


def tests_for(text: str) -> list[str]:
    """The routine admission panel, plus what the presentation points to."""
    out = ["血常规", "尿常规", "肝功能", "肾功能", "电解质", "凝血功能"]
    for words, tests in TESTS_BY_PRESENTATION:
        if any(w in text for w in words):
            out += [t for t in tests if t not in out]
    return out[:10]


register_builtin("baseline", lambda arg, options: BaselineClinician())
