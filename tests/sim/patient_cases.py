"""Clinically consistent cases built in the tests (bundled cases are written elsewhere)."""

from __future__ import annotations

from medsim.scenario.schema import Case, Demographics, Disclosure, PatientSpec, Persona, TestResult, Vitals


def stemi_case() -> Case:
    return Case(
        id="stemi-1",
        source="synthetic",
        department="心内科",
        demographics=Demographics(sex="男", age=58, occupation="出租车司机"),
        chief_complaint="胸痛3小时",
        hpi=(
            "患者3小时前搬重物时突发胸骨后压榨样疼痛，向左肩背部放射，持续不缓解，伴大汗、恶心，"
            "无发热、咳嗽，无呕吐。自行含服硝酸甘油1片，疼痛未缓解，遂来我院急诊。"
            "外院心电图示V1-V4导联ST段抬高。"
        ),
        past_history="高血压病史10年，规律服用氨氯地平5mg qd，血压控制可；否认糖尿病、冠心病史；否认手术外伤史。",
        personal_history="吸烟30年，每日20支，未戒烟；偶尔饮酒。",
        family_history="父亲有冠心病史，母亲体健。",
        allergies="否认药物及食物过敏史。",
        medications="氨氯地平5mg qd。",
        vitals=Vitals(temperature=36.6, heart_rate=102, respiratory_rate=20, systolic_bp=150, diastolic_bp=90, spo2=96),
        physical_exam="神清，痛苦面容，双肺呼吸音清，心律齐，未闻及杂音。",
        tests=[TestResult(name="心电图", result="V1-V4导联ST段弓背向上抬高", category="ecg"),
               TestResult(name="肌钙蛋白I", result="2.3 ng/mL（↑）")],
        diagnosis=["急性前壁ST段抬高型心肌梗死", "高血压病2级（很高危）"],
        key_facts=["胸骨后压榨样疼痛", "向左肩背部放射", "伴大汗", "吸烟30年", "高血压病史10年", "父亲有冠心病史",
                   "否认药物及食物过敏史"],
    )


def pid_case() -> Case:
    """A woman of childbearing age: menstrual and obstetric history apply."""
    return Case(
        id="ectopic-1",
        source="synthetic",
        department="妇科",
        demographics=Demographics(sex="女", age=28, occupation="教师"),
        chief_complaint="停经7周，下腹痛伴阴道流血1天",
        hpi="患者停经7周，1天前无明显诱因出现右下腹痛，呈持续性隐痛，伴少量阴道流血，无发热，无晕厥。",
        past_history="既往体健，否认高血压、糖尿病史。",
        menstrual_obstetric_history="月经初潮13岁，周期28-30天，经期5天，末次月经为7周前。已婚，G2P1，2年前顺产1子。",
        family_history="否认家族遗传病史。",
        allergies="青霉素过敏。",
        diagnosis=["异位妊娠"],
        key_facts=["停经7周", "右下腹痛", "阴道流血", "青霉素过敏", "G2P1"],
    )


def spec(**persona) -> PatientSpec:
    return PatientSpec(persona=Persona(**persona)) if persona else PatientSpec()


def spec_with(disclose: Disclosure, **persona) -> PatientSpec:
    return PatientSpec(persona=Persona(**persona), disclose=disclose)
