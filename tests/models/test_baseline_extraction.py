"""The offline baseline reads a record's fields as a rule extractor would: its score on
record_extraction is the floor a model must beat there."""

from medsim.models.baseline import extract_fields

FIELDS = {"sex": "str", "age": "int", "chief_complaint": "str", "allergy": "str", "smoking": "bool",
          "primary_diagnosis": "str"}
RECORD = """一般情况：男，49岁。
主诉：右下腹痛并自扪及包块3小时。
个人史：吸烟20年，每日10支。
过敏史：否认药物过敏史。
诊断：右侧嵌顿性腹股沟斜疝；高血压病2级"""


def test_a_denied_allergy_is_none_and_a_named_one_is_its_allergen():
    got = extract_fields(RECORD, FIELDS)
    assert got == {"sex": "男", "age": 49, "chief_complaint": "右下腹痛并自扪及包块3小时。", "allergy": "无",
                   "smoking": True, "primary_diagnosis": "右侧嵌顿性腹股沟斜疝"}
    assert extract_fields("过敏史：青霉素过敏（皮疹、胸闷）。", {"allergy": "str"}) == {"allergy": "青霉素"}
    assert extract_fields("过敏史：否认药物及食物过敏史。", {"allergy": "str"}) == {"allergy": "无"}
