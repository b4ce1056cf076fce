"""Clinically consistent cases built in the tests (bundled cases are written elsewhere)."""

from __future__ import annotations

from medsim.scenario.schema import Case, Demographics, Disclosure, PatientSpec, Persona, TestResult, Vitals


def ask_bundled(scenario: str, case_id: str, question: str) -> str:
    """What a fresh rule patient of a bundled case answers, after its opening line."""
    from medsim.scenario.registry import get_scenario
    from medsim.sim.patient_rule import RulePatient

    loaded = get_scenario(scenario)
    p = RulePatient(loaded.scenario.patient, loaded.case(case_id), seed=0)
    p.opening_sync()
    return p.reply_sync(question).text


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


def cap_case() -> Case:
    """Community-acquired pneumonia: a fever with a maximum, a cough with sputum, a pleuritic pain,
    and a blood count written into the hpi (a result the patient must not quote)."""
    return Case(
        id="cap-1",
        source="synthetic",
        department="呼吸内科",
        demographics=Demographics(sex="男", age=32, occupation="快递员"),
        chief_complaint="发热、咳嗽3天",
        hpi=(
            "患者3天前淋雨受凉后出现发热，体温最高39.2℃，伴咳嗽，咳少量黄色黏痰，深吸气时右侧胸部隐痛。"
            "无气促，无咯血。自服对乙酰氨基酚后体温可暂降，无效。外院血常规示WBC 13.8×10^9/L。"
        ),
        past_history="既往体健，否认慢性心肺疾病、糖尿病史。",
        personal_history="吸烟5年，每日10支；偶饮酒。",
        family_history="父母体健。",
        allergies="否认药物过敏史。",
        medications="对乙酰氨基酚片 0.5g 发热时服用。",
        vitals=Vitals(temperature=38.9, heart_rate=98, respiratory_rate=20, systolic_bp=124, diastolic_bp=76, spo2=97),
        physical_exam="神志清，右下肺可闻及湿啰音。",
        tests=[TestResult(name="胸部X线", result="右下肺野斑片状实变影")],
        diagnosis=["社区获得性肺炎"],
        key_facts=["受凉后发热3天最高39.2℃", "咳黄色黏痰", "深吸气时右侧胸部隐痛", "无气促", "吸烟5年"],
    )


def conjunctivitis_case() -> Case:
    """Acute bacterial conjunctivitis: the history is mostly what the patient denies."""
    return Case(
        id="conj-1",
        source="synthetic",
        department="眼科",
        demographics=Demographics(sex="女", age=26, occupation="文员"),
        chief_complaint="左眼红、分泌物多2天",
        hpi=("患者2天前起左眼发红，晨起黄白色分泌物多、粘住睫毛，伴异物感、轻度痒，无明显眼痛，视力无下降，无畏光。"
             "办公室同事近日有“红眼病”。"),
        past_history="既往体健，否认眼外伤及化学物溅入史。",
        personal_history="不戴隐形眼镜；无烟酒嗜好。",
        family_history="无特殊。",
        allergies="否认药物过敏史。",
        physical_exam="左眼睑结膜充血，可见黄白色黏性分泌物；角膜透明。",
        diagnosis=["急性细菌性结膜炎"],
        key_facts=["视力无下降", "无明显眼痛畏光", "无外伤或化学物溅入", "不戴隐形眼镜"],
    )


def hfmd_child_case() -> Case:
    """Hand, foot and mouth disease in a child, told by the mother; the narrator note sits
    inside the clause, not at its start."""
    return Case(
        id="hfmd-1",
        source="synthetic",
        department="儿科",
        demographics=Demographics(sex="男", age=3),
        chief_complaint="发热1天，手脚起疹子",
        hpi=("患儿1天前（母亲代述）出现发热，最高38.5℃，今晨发现手心、脚心及臀部红色小疱疹，"
             "因嘴疼不愿吃饭，喝水尚可。无呕吐，无抽搐。所在幼儿园班里近1周有2名小朋友患“手足口病”。"),
        past_history="既往体健，按期预防接种。",
        allergies="否认药物及食物过敏史。",
        diagnosis=["手足口病"],
        key_facts=["发热1天最高38.5℃", "因嘴疼不愿吃饭", "无抽搐"],
    )


def asthma_case() -> Case:
    """An asthma attack in a patient who has known asthma for years: the disease is theirs to
    name, this visit's judgement (急性发作) is not."""
    return Case(
        id="asthma-1",
        source="synthetic",
        department="急诊科",
        demographics=Demographics(sex="女", age=35, occupation="教师"),
        chief_complaint="喘息、胸闷2小时",
        hpi="患者2小时前打扫卫生接触灰尘后出现胸闷、喘息，自用沙丁胺醇气雾剂4揿，效果不佳，可说完整句子。",
        past_history="支气管哮喘10年，平时间断使用布地奈德福莫特罗吸入剂；5年前诊断“过敏性鼻炎”。",
        personal_history="不吸烟。",
        family_history="母亲有哮喘。",
        allergies="阿司匹林服用后曾诱发喘息。",
        diagnosis=["支气管哮喘急性发作（中度）"],
        key_facts=["接触灰尘后喘息2小时", "哮喘病史10年", "母亲哮喘"],
    )
