"""Cases written as a physician writes a record, shared by the fact-checker tests."""

from __future__ import annotations

import pytest

from medsim.scenario.schema import Case, Demographics, TestResult, Vitals


@pytest.fixture
def appendicitis() -> Case:
    return Case(
        id="t-appendicitis",
        source="synthetic",
        demographics=Demographics(sex="男", age=58),
        chief_complaint="右下腹痛3天",
        hpi="患者3天前无明显诱因出现右下腹痛，呈持续性胀痛，伴发热，体温最高38.5℃，无恶心、呕吐。",
        past_history="否认高血压、糖尿病史。",
        family_history="父亲有冠心病史。",
        medications="口服阿莫西林0.5g tid",
        vitals=Vitals(temperature=38.5, heart_rate=96, systolic_bp=130, diastolic_bp=80),
        physical_exam="右下腹压痛、反跳痛，麦氏点压痛阳性。",
        tests=[TestResult(name="血常规", result="WBC 12.3×10^9/L，N 85%"),
               TestResult(name="肾功能", result="肌酐 88μmol/L")],
        diagnosis=["急性阑尾炎"],
        key_facts=["右下腹痛3天", "WBC 12.3×10^9/L", "否认高血压"],
    )


@pytest.fixture
def family_case() -> Case:
    return Case(
        id="t-family",
        source="synthetic",
        demographics=Demographics(sex="女", age=45),
        chief_complaint="发现左乳肿块1月",
        hpi="1个月前无意中发现左乳肿块，无疼痛，无乳头溢液。",
        family_history="母亲有乳腺癌病史。",
        diagnosis=["左乳肿块待查"],
    )
