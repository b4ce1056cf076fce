"""The LLM-patient guard: inventions, diagnosis leaks, results quoted before they are revealed."""

from __future__ import annotations

from medsim.facts import check_patient_turn


def kinds(flags) -> list[str]:
    return [f.kind for f in flags]


def test_faithful_lay_answer_is_not_flagged(appendicitis):
    assert check_patient_turn(appendicitis, "医生，我右下腹痛3天了，还发烧。") == []


def test_invented_symptom(appendicitis):
    flags = check_patient_turn(appendicitis, "我这几天还一直拉肚子。")
    assert kinds(flags) == ["invented_finding"]
    span = flags[0].span
    assert "拉肚子" in "我这几天还一直拉肚子。"[span[0]:span[1]]


def test_symptom_the_record_denies(appendicitis):
    assert "contradicted_fact" in kinds(check_patient_turn(appendicitis, "我有点恶心。"))


def test_diagnosis_leak(appendicitis):
    utterance = "我上网查了，我这个就是阑尾炎吧。"
    flags = check_patient_turn(appendicitis, utterance)
    assert "diagnosis_leak" in kinds(flags)
    leak = next(f for f in flags if f.kind == "diagnosis_leak")
    assert utterance[leak.span[0]:leak.span[1]] == "阑尾炎"


def test_unrevealed_result(appendicitis):
    said = "我白细胞12.3×10^9/L。"
    assert kinds(check_patient_turn(appendicitis, said, disclosed_fields=["chief_complaint", "hpi"])) == [
        "unrevealed_result"
    ]
    assert check_patient_turn(appendicitis, said, disclosed_fields=["chief_complaint", "hpi", "tests"]) == []


def test_test_name_with_result_before_reveal(appendicitis):
    flags = check_patient_turn(appendicitis, "血常规结果说有炎症。", disclosed_fields=["chief_complaint"])
    assert "unrevealed_result" in kinds(flags)


def test_value_without_unit_before_reveal(appendicitis):
    said = "之前查过白细胞12.3，说有点高。"
    flags = check_patient_turn(appendicitis, said, disclosed_fields=["chief_complaint", "hpi"])
    assert kinds(flags) == ["unrevealed_result"]
    assert said[flags[0].span[0]:flags[0].span[1]] == "白细胞12.3"


def test_short_name_of_the_diagnosis(appendicitis):
    case = appendicitis.model_copy(update={"diagnosis": ["嵌顿性腹股沟斜疝"]})
    flags = check_patient_turn(case, "我这是嵌顿疝吧？")
    assert kinds(flags) == ["diagnosis_leak"]


def test_lay_hernia_names_a_groin_hernia_diagnosis():
    from medsim.scenario.schema import Case

    case = Case(id="t-hernia", source="synthetic", chief_complaint="右侧腹股沟区可复性肿物2年",
                hpi="2年前站立时右侧腹股沟区出现肿物，平卧后消失。", diagnosis=["右侧腹股沟斜疝"])
    assert "diagnosis_leak" in kinds(check_patient_turn(case, "我是不是得了疝气？"))
    assert "diagnosis_leak" not in kinds(check_patient_turn(case, "我右边大腿根鼓个包。"))
