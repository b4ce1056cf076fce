"""Structure a plain-text 病历 (as a hospital system exports it) into a Case.

Sections are found by their headings (主诉：现病史：既往史：… also numbered, “（2）主诉”), the
demographics and vital signs by the claim patterns. The original text is kept as ``record_text``,
so the checker's evidence spans point into exactly what the user gave.
"""

from __future__ import annotations

import re
from typing import Any

from medsim.facts import textlayer
from medsim.facts.claims import demographics, measurements
from medsim.scenario.schema import Case, Demographics, TestResult, Vitals

_HEADINGS = {
    "主诉": "chief_complaint", "现病史": "hpi", "病史摘要": "hpi", "既往史": "past_history", "个人史": "personal_history",
    "月经婚育史": "menstrual_obstetric_history", "婚育史": "menstrual_obstetric_history",
    "月经史": "menstrual_obstetric_history", "家族史": "family_history", "过敏史": "allergies",
    "用药史": "medications", "体格检查": "physical_exam", "查体": "physical_exam", "专科检查": "physical_exam",
    "专科查体": "physical_exam", "辅助检查": "tests", "实验室检查": "tests", "诊断": "diagnosis",
    "初步诊断": "diagnosis", "入院诊断": "diagnosis", "出院诊断": "diagnosis",
}
_HEADING = re.compile(
    r"(?:^|\n)[ \t]*(?:[（(]\s*\d+\s*[)）]|\d+[.、])?[ \t]*(?P<h>"
    + "|".join(sorted(_HEADINGS, key=len, reverse=True))
    + r")[ \t]*(?:[：:]|\n|(?=[ \t]))"
)


def sections(text: str) -> dict[str, str]:
    """Field name → text under its headings (repeated headings are joined)."""
    marks = list(_HEADING.finditer(text))
    out: dict[str, list[str]] = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = text[m.end():end].strip()
        if body:
            out.setdefault(_HEADINGS[m.group("h")], []).append(body)
    return {k: "\n".join(v) for k, v in out.items()}


def _demographics(norm: str) -> Demographics | None:
    claims = demographics(norm)
    sex = next((c.value_text for c in claims if c.kind == "sex"), None)
    age = next((c for c in claims if c.kind == "age"), None)
    if sex is None or age is None:
        return None
    unit = {"岁": "岁", "个月": "月", "月龄": "月", "月": "月", "天": "天", "周": "天"}[age.unit]
    value = float(age.value_text) * (7 if age.unit == "周" else 1)
    return Demographics(sex=sex, age=min(value, 130), age_unit=unit)


def _vitals(norm: str) -> Vitals | None:
    fields: dict[str, Any] = {}
    for c in measurements(norm):
        if c.key == "temperature" and c.unit == "℃" and "temperature" not in fields and 25 <= (c.value or 0) <= 45:
            fields["temperature"] = c.value
        elif c.key == "heart_rate" and "heart_rate" not in fields and c.unit == "次/分":
            fields["heart_rate"] = int(c.value or 0)
        elif c.key == "resp_rate" and "respiratory_rate" not in fields and c.unit in ("次/分", "/min"):
            fields["respiratory_rate"] = int(c.value or 0)
        elif c.key == "bp" and "systolic_bp" not in fields and c.value2 and c.value2 < (c.value or 0):
            fields["systolic_bp"], fields["diastolic_bp"] = int(c.value or 0), int(c.value2)
    if not fields:
        return None
    try:
        return Vitals(**fields)
    except ValueError:
        return None


def _tests(body: str) -> list[TestResult]:
    tests = []
    for line in body.splitlines():
        line = line.strip()
        m = re.match(r"^(?:[（(]\d+[)）])?\s*([^：:，。]{2,20})[：:]\s*(.+)$", line)
        if m:
            tests.append(TestResult(name=m.group(1).strip(), result=m.group(2).strip()))
        elif line and tests:
            tests[-1] = TestResult(name=tests[-1].name, result=f"{tests[-1].result} {line}")
        elif line:
            tests.append(TestResult(name="辅助检查", result=line))
    return tests


def diagnosis_list(body: str) -> list[str]:
    """The diagnoses under a 诊断 heading: one a line, or numbered, or split by ；."""
    return [d.strip(" ，,。") for d in re.split(r"[；;\n]|\d+[.、]", body) if d.strip(" ，,。")]


def parse_record(text: str, *, case_id: str = "record", source: str | None = None) -> Case:
    """A Case from a raw record; the original text becomes ``record_text``."""
    norm, _ = textlayer.normalize(text)
    found = sections(text)
    fields: dict[str, Any] = {k: v for k, v in found.items() if k not in ("tests", "diagnosis")}
    if "tests" in found:
        fields["tests"] = _tests(found["tests"])
    if "diagnosis" in found:
        fields["diagnosis"] = diagnosis_list(found["diagnosis"])
    return Case(
        id=case_id, source=source, demographics=_demographics(norm), vitals=_vitals(norm), record_text=text, **fields
    )


CMB_SOURCE = "CMB-Clin (FreedomIntelligence/CMB, CMB-test-qa.json), Apache-2.0"


def cmb_case(item: dict[str, Any]) -> Case:
    """A CMB-Clin case (id, title, description) as a Case; the record is the description."""
    return parse_record(item["description"], case_id=f"cmb-{item['id']}", source=f"{CMB_SOURCE}, case {item['id']}")
