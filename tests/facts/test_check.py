"""Hand-worked examples, as a physician would check a summary against the record."""

from __future__ import annotations

import pytest

from medsim.facts import check, omissions


def statuses(case, text: str) -> set[str]:
    return check(case, text, key_facts=[]).statuses()


def only(case, text: str, kind: str):
    return [f for f in check(case, text, key_facts=[]).findings if f.kind == kind]


# ----------------------------------------------------------------- negation: 否认 vs 有

def test_denied_history_stated_as_present_is_contradicted(appendicitis):
    [f] = only(appendicitis, "患者有高血压病史。", "finding")
    assert f.status == "contradicted"
    assert "高血压" in f.evidence_text
    assert f.reason_zh and f.reason_en


def test_denied_history_restated_is_supported(appendicitis):
    assert statuses(appendicitis, "否认高血压、糖尿病史。") == {"supported"}


def test_absent_symptom_stated_as_present(appendicitis):
    assert "contradicted" in statuses(appendicitis, "伴恶心、呕吐。")


def test_present_symptom_denied(appendicitis):
    assert "contradicted" in statuses(appendicitis, "患者无发热。")


def test_pseudo_negation_does_not_negate(appendicitis):
    # 无明显诱因出现右下腹痛: the pain is present
    assert "contradicted" not in statuses(appendicitis, "患者有右下腹痛。")


# --------------------------------------------------------------------- family history

def test_family_history_is_not_the_patients(family_case):
    [f] = only(family_case, "患者本人既往有乳腺癌病史。", "finding")
    assert f.status == "contradicted"
    assert "家族史" in f.reason_zh


def test_family_history_restated(family_case):
    assert statuses(family_case, "母亲有乳腺癌病史。") == {"supported"}


# -------------------------------------------------------------------------- 左 / 右

def test_wrong_side(appendicitis):
    [f] = only(appendicitis, "左下腹压痛。", "laterality")
    assert f.status == "contradicted"


def test_right_side(appendicitis):
    assert statuses(appendicitis, "右下腹压痛、反跳痛。") == {"supported"}


# ------------------------------------------------------------------ 0.5 g vs 500 mg

def test_dose_in_other_unit_is_the_same_dose(appendicitis):
    [f] = only(appendicitis, "口服阿莫西林500mg tid。", "drug")
    assert f.status == "supported"


def test_dose_unit_changed_value_kept_is_a_mismatch(appendicitis):
    [f] = only(appendicitis, "口服阿莫西林0.5mg tid。", "drug")
    assert f.status == "value_mismatch"


def test_frequency_differs(appendicitis):
    [f] = only(appendicitis, "口服阿莫西林0.5g bid。", "drug")
    assert f.status == "value_mismatch"


def test_invented_drug(appendicitis):
    [f] = only(appendicitis, "患者长期口服阿司匹林100mg qd。", "drug")
    assert f.status == "unsupported"
    assert f.evidence is None


def test_advice_is_not_a_claim_about_the_record(appendicitis):
    assert statuses(appendicitis, "建议口服布洛芬0.2g止痛。") == set()


# -------------------------------------------------------------------- 3天 vs 3个月

def test_duration_unit_changed(appendicitis):
    [f] = only(appendicitis, "右下腹痛3个月。", "duration")
    assert f.status == "contradicted"


def test_duration_restated(appendicitis):
    assert "contradicted" not in statuses(appendicitis, "右下腹痛3天。")


# ---------------------------------------------------------------------- lab values

def test_invented_lab_value(appendicitis):
    [f] = only(appendicitis, "血钾2.9mmol/L。", "measurement")
    assert f.status == "unsupported"


def test_lab_value_changed(appendicitis):
    [f] = only(appendicitis, "WBC 21.3×10^9/L。", "measurement")
    assert f.status == "value_mismatch"
    assert "12.3" in f.reason_zh


@pytest.mark.parametrize("text", ["白细胞12.3×10^9/L", "WBC 12.3×109/L", "白细胞计数 12.3 x10^9/L"])
def test_lab_value_spellings(appendicitis, text):
    [f] = only(appendicitis, text, "measurement")
    assert f.status == "supported"


def test_molar_and_mass_units(appendicitis):
    # creatinine 88 μmol/L = 0.995 mg/dL
    [f] = only(appendicitis, "肌酐1.0mg/dL", "measurement")
    assert f.status == "supported"
    [g] = only(appendicitis, "肌酐0.088mmol/L", "measurement")
    assert g.status == "supported"


def test_vitals(appendicitis):
    assert statuses(appendicitis, "体温38.5℃，心率96次/分，血压130/80mmHg。") == {"supported"}
    assert "value_mismatch" in statuses(appendicitis, "血压150/90mmHg。")


# ---------------------------------------------------------------------- demographics

def test_sex_and_age(appendicitis):
    assert statuses(appendicitis, "58岁男性。") == {"supported"}
    assert "contradicted" in statuses(appendicitis, "58岁女性。")
    assert "contradicted" in statuses(appendicitis, "患者男，68岁。")


# ----------------------------------------------------------------- report and spans

def test_spans_point_into_the_original_text(appendicitis):
    text = "患者男，５８岁，ＷＢＣ　21.3×10^9/L，左下腹痛。"
    report = check(appendicitis, text, key_facts=[])
    assert report.findings
    for f in report.findings:
        assert text[f.span[0]:f.span[1]] == f.text
        if f.evidence:
            record = appendicitis.full_record_text()
            assert record[f.evidence[0]:f.evidence[1]] == f.evidence_text


def test_score_formula(appendicitis):
    report = check(appendicitis, "58岁男性，血钾2.9mmol/L。", key_facts=[])
    checked = sum(report.counts[s] for s in ("supported", "contradicted", "value_mismatch", "unsupported"))
    assert report.score == pytest.approx(report.counts["supported"] / checked)
    assert check(appendicitis, "您好，请坐。", key_facts=[]).score == 1.0


def test_plain_record_text_works_as_the_record():
    record = "主诉：咳嗽2周。\n现病史：患者2周前受凉后咳嗽，无发热。"
    assert "contradicted" in check(record, "患者发热。").statuses()


# -------------------------------------------------------------------------- omissions

def test_omissions(appendicitis):
    missing = omissions(appendicitis, "58岁男性，右下腹痛3天，否认高血压。")
    assert [m.key_fact for m in missing] == ["WBC 12.3×10^9/L"]
    assert omissions(appendicitis, "右下腹痛3天，血常规白细胞12.3×10^9/L，否认高血压病史。") == []


def test_check_reports_omissions_separately(appendicitis):
    report = check(appendicitis, "右下腹痛3天。")
    assert report.counts["omission"] == 2
    assert report.score == 1.0


# ------------------------------------------------- what is not a claim about this patient

@pytest.mark.parametrize("text", [
    "如为机械性肠梗阻，则伴恶心、呕吐。",
    "鉴别诊断：（1）急性胃肠炎：多表现为恶心、呕吐、腹泻。",
    "高血压多见于中老年人。",
    "治疗原则：手术切除阑尾，术后口服头孢呋辛0.25g bid。",
])
def test_general_knowledge_and_plans_are_not_checked(appendicitis, text):
    assert statuses(appendicitis, text) == set()


def test_the_writers_diagnosis_is_not_a_record_fact(appendicitis):
    assert statuses(appendicitis, "结合病史，考虑急性阑尾炎，需排除肠梗阻。") <= {"supported"}


def test_comparisons_hold_against_the_recorded_value(appendicitis):
    [f] = only(appendicitis, "WBC>10×10^9/L。", "measurement")
    assert f.status == "supported"
    [g] = only(appendicitis, "WBC<10×10^9/L。", "measurement")
    assert g.status == "value_mismatch"


# ------------------------------------------------------- unitless lab values (pH, INR, 比重)

@pytest.mark.parametrize(
    ("record", "faithful", "changed"),
    [
        ("血气分析：pH 7.25，PaCO2 60mmHg。", "pH 7.25", "pH 7.40"),
        ("凝血功能：PT 15.2秒，INR 1.8。", "INR 1.8", "INR 2.8"),
        ("尿常规：比重1.020，尿蛋白(+)。", "尿比重1.020", "尿比重1.005"),
    ],
)
def test_unitless_lab_values_are_checked(record, faithful, changed):
    assert check(record, f"查{faithful}。", key_facts=[]).statuses() == {"supported"}
    assert "value_mismatch" in check(record, f"查{changed}。", key_facts=[]).statuses()


def test_narrator_is_not_family_in_the_record():
    record = "（母亲代述）患儿呕吐3天，无发热。"
    assert check(record, "患儿呕吐3天。", key_facts=[]).statuses() == {"supported"}
    assert "contradicted" in check(record, "患儿母亲有呕吐。", key_facts=[]).statuses()


def test_non_pregnant_in_the_record_contradicts_pregnant():
    assert "contradicted" in check("育龄非妊娠女性，腹痛1天。", "患者妊娠，腹痛1天。", key_facts=[]).statuses()


def test_persistence_word_in_the_record_keeps_the_next_item_present():
    assert check("患儿高热不退、抽搐1次。", "患儿抽搐。", key_facts=[]).statuses() == {"supported"}



def test_narrator_note_keeps_the_childs_sex_and_age():
    record = "（母亲代述）患儿，男，3岁，发热2天。父亲45岁。"
    assert check(record, "3岁男孩，发热2天。", key_facts=[]).statuses() == {"supported"}
    assert "contradicted" in check(record, "5岁男孩，发热2天。", key_facts=[]).statuses()


def test_frequency_read_by_the_text_layer():
    record = "长期口服阿莫西林0.5g 每日两次。"
    assert check(record, "阿莫西林0.5g bid。", key_facts=[]).statuses() == {"supported"}
    assert "value_mismatch" in check(record, "阿莫西林0.5g tid。", key_facts=[]).statuses()


def test_an_angle_is_not_a_temperature():
    from medsim.facts.record import index_text

    claims = index_text("右下肢直腿抬高试验30度阳性，体温36.5oC。").claims
    temps = [c for c in claims if c.kind == "measurement" and c.key == "temperature"]
    assert [c.value for c in temps] == [36.5]


# ------------------------------------------------- records written as a clinic writes them

def test_drug_after_free_words_is_still_read_from_the_record():
    from medsim.scenario.schema import Case, Demographics

    case = Case(id="t-alendronate", source="synthetic", demographics=Demographics(sex="女", age=66),
                medications="碳酸钙D3片每日1片；今日新开阿仑膦酸钠片70mg每周1次。")
    assert statuses(case, "阿仑膦酸钠70mg每周固定一天吃一次。") == {"supported"}
    assert statuses(case, "阿仑膦酸钠35mg每周一次。") == {"value_mismatch"}


def test_a_childs_weight_written_with_the_child():
    from medsim.scenario.schema import Case, Demographics, Vitals

    case = Case(id="t-weight", source="synthetic", demographics=Demographics(sex="女", age=5),
                vitals=Vitals(temperature=38.2, weight_kg=18))
    assert statuses(case, "孩子18kg，一次约180mg。") == {"supported"}
    assert statuses(case, "孩子20kg。") == {"value_mismatch"}


def test_a_strength_is_not_a_dose():
    from medsim.scenario.schema import Case

    case = Case(id="t-strength", source="synthetic", medications="目前未用其他药物。",
                question="家里有布洛芬混悬液（100ml:2g）。")
    assert statuses(case, "布洛芬混悬液每1ml含布洛芬20mg。") == set()
