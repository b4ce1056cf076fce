from medsim.scenario.schema import AnswerSpec
from medsim.sim.answer import (
    coerce_bool,
    coerce_int,
    coerce_list,
    extract_choices,
    extract_json,
    extract_steps,
    parse_answer,
    shuffle_options,
    shuffle_steps,
)

TRIAGE = AnswerSpec(format="json", fields={"level": "int", "department": "str"})
LETTERS = list("ABCDE")


# ------------------------------------------------------------------------ json

def test_json_in_prose_and_fence_with_roman_level():
    text = "根据患者生命体征，我的判断如下：\n```json\n{\"level\": \"Ⅱ级\", \"department\": \"心内科\"}\n```\n请尽快处理。"
    assert parse_answer(text, TRIAGE).value == {"level": 2, "department": "心内科"}


def test_json_chinese_punctuation_fullwidth_braces_trailing_comma():
    text = "｛“level”：“二级”，“department”：“急诊科”，｝"
    p = parse_answer(text, TRIAGE)
    assert p.value == {"level": 2, "department": "急诊科"} and p.error is None


def test_json_single_quotes_and_ascii_roman():
    assert parse_answer("{'level': 'II', 'department': '骨科'}", TRIAGE).value == {"level": 2, "department": "骨科"}


def test_json_bare_keys_and_python_literals():
    spec = AnswerSpec(format="json", fields={"level": "int", "admit": "bool"})
    assert parse_answer("结论：{level: 3, admit: True}", spec).value == {"level": 3, "admit": True}


def test_json_missing_field_is_reported_and_partial_value_kept():
    p = parse_answer('{"level": 1}', TRIAGE)
    assert p.value == {"level": 1, "department": None}
    assert p.error == "missing fields: department"


def test_json_example_then_answer_the_fuller_object_wins():
    text = '格式示例：{"level": 1}\n我的回答：{"level": 4, "department": "皮肤科"}'
    assert parse_answer(text, TRIAGE).value == {"level": 4, "department": "皮肤科"}


def test_json_key_value_lines_without_braces():
    assert parse_answer("level: 2\ndepartment：心内科", TRIAGE).value == {"level": 2, "department": "心内科"}


def test_json_chinese_comma_inside_string_is_kept():
    spec = AnswerSpec(format="json", fields={"tests": "list[str]"})
    text = "{“tests”: “血常规，心电图、肌钙蛋白”}"
    assert parse_answer(text, spec).value == {"tests": ["血常规", "心电图", "肌钙蛋白"]}


def test_json_list_field_from_list_and_bool_from_chinese():
    spec = AnswerSpec(format="json", fields={"tests": "list[str]", "smoking": "bool"})
    p = parse_answer('{"tests": ["血常规", "胸片"], "smoking": "否"}', spec)
    assert p.value == {"tests": ["血常规", "胸片"], "smoking": False}


def test_json_nothing_there():
    p = parse_answer("我无法判断，请咨询医生。", TRIAGE)
    assert p.value is None and p.error == "no JSON object found"


def test_empty_answer_never_raises():
    for fmt in ("json", "choice", "steps", "text"):
        spec = TRIAGE if fmt == "json" else AnswerSpec(format=fmt)
        p = parse_answer("", spec)
        assert p.value is None and p.error == "empty answer"
    assert parse_answer(None, TRIAGE).error == "empty answer"


def test_extract_json_unclosed_object_is_closed():
    assert extract_json('{"level": 2, "department": "心内科"') == {"level": 2, "department": "心内科"}


# ---------------------------------------------------------------------- coerce

def test_coerce_int_forms():
    for raw in (2, 2.0, "2", "2级", "Ⅱ级", "二级", "II", "II级", "level 2", "Ⅱ级（危重）"):
        assert coerce_int(raw) == 2, raw
    assert coerce_int("Ⅳ") == 4 and coerce_int("IV级") == 4 and coerce_int("一级") == 1
    assert coerce_int("不确定") is None and coerce_int(True) is None


def test_coerce_bool_forms():
    assert [coerce_bool(x) for x in ("是", "有", "阳性", "true", "否", "无", "没有", "不是", "false")] == [
        True, True, True, True, False, False, False, False, False]
    assert coerce_bool("不清楚") is None


def test_coerce_list_forms():
    assert coerce_list("血常规、心电图") == ["血常规", "心电图"]
    assert coerce_list("1. 血常规 2. 心电图 3. 肌钙蛋白") == ["血常规", "心电图", "肌钙蛋白"]
    assert coerce_list("血常规和凝血功能；胸片") == ["血常规", "凝血功能", "胸片"]


# ---------------------------------------------------------------------- choice

def test_choice_forms():
    cases = {
        "答案：B": ["B"], "选B": ["B"], "B．": ["B"], "B和D": ["B", "D"], "BD": ["B", "D"],
        "Ｂ": ["B"], "正确答案是 C 项": ["C"], "答案是b": ["B"], "A、C、D": ["A", "C", "D"],
        "我认为答案是B，因为A选项描述的是稳定型心绞痛，C选项……": ["B"],
        "答案：B，A选项错误": ["B"], "最终答案：（D）": ["D"], "B选项正确": ["B"],
        "分析：A错误，C也不对。\n\nB": ["B"], "不选A，选C": ["C"], "答案：A,C,D": ["A", "C", "D"],
    }
    for text, want in cases.items():
        assert extract_choices(text, LETTERS) == want, text


def test_choice_model_that_lists_every_option_gets_every_letter():
    text = "A. 急性心梗\nB. 稳定型心绞痛\nC. 主动脉夹层\nD. 肺栓塞"
    assert extract_choices(text, list("ABCD")) == ["A", "B", "C", "D"]


def test_choice_ignores_letters_inside_words():
    assert extract_choices("建议行CT检查及ECG", LETTERS) == []
    assert parse_answer("建议行CT检查", AnswerSpec(format="choice"), option_letters=LETTERS).error


# ----------------------------------------------------------------------- steps

def test_steps_forms():
    assert extract_steps("3,1,2,4", 4) == [3, 1, 2, 4]
    assert extract_steps("3→1→2→4", 4) == [3, 1, 2, 4]
    assert extract_steps("第一步：3 消毒铺巾\n第二步：1 切开\n第三步：2 探查\n第四步：4 缝合", 4) == [3, 1, 2, 4]
    assert extract_steps("三、一、二、四", 4) == [3, 1, 2, 4]
    assert extract_steps("分析略。\n答案：2 > 4 > 1 > 3", 4) == [2, 4, 1, 3]
    assert extract_steps("3. 切开\n1. 消毒\n2. 缝合", 3) == [3, 1, 2]


def test_steps_drop_out_of_range_and_repeats():
    assert extract_steps("3 1 2 4 9 3", 4) == [3, 1, 2, 4]


def test_text_after_marker():
    spec = AnswerSpec(format="text")
    assert parse_answer("先问几个问题……\n最终答案：多饮水，三天后复诊", spec).value == "多饮水，三天后复诊"
    assert parse_answer("多饮水", spec).value == "多饮水"


# ---------------------------------------------------------------- permutations

def test_shuffles_are_deterministic_and_identity_without_seed():
    assert shuffle_steps(5, None) == [0, 1, 2, 3, 4]
    assert shuffle_steps(6, 7) == shuffle_steps(6, 7)
    assert sorted(shuffle_steps(6, 7)) == list(range(6)) and shuffle_steps(6, 7) != list(range(6))
    assert shuffle_options(list("ABCD"), None) == {"A": "A", "B": "B", "C": "C", "D": "D"}
    m = shuffle_options(list("ABCD"), 3)
    assert m == shuffle_options(list("ABCD"), 3) and sorted(m.values()) == list("ABCD")


def test_two_step_shuffle_is_never_the_gold_order():
    assert all(shuffle_steps(2, s) == [1, 0] for s in range(20))


def test_choice_markdown_bracket_and_english_markers_beat_explanations():
    cases = {
        "**答案：B**\n解析：A项错误": ["B"], "答案：**B**\n解析：A项错误，C项……": ["B"],
        "【答案】B\n【解析】A错误": ["B"], "The answer is B, not A": ["B"], "Answer: B. A is wrong": ["B"],
        "选项A、B均错误，正确答案为C": ["C"], "根据指南，选D。A不对因为…… B也不对": ["D"], "B是正确答案": ["B"],
    }
    for text, want in cases.items():
        assert extract_choices(text, LETTERS) == want, text


def test_json_chinese_keys_and_nested_answer_object():
    assert parse_answer('{"分诊级别": "Ⅱ级", "科室": "心内科"}', TRIAGE).value == {"level": 2, "department": "心内科"}
    assert parse_answer('{"answer": {"level": 3, "department": "骨科"}}', TRIAGE).value == {
        "level": 3, "department": "骨科"}


def test_steps_more_forms():
    for text in ("(3)(1)(2)(4)", "③①②④", "③→①→②→④", "步骤3→步骤1→步骤2→步骤4", "3 1 2 4", "3，1，2，4。",
                 "第3步、第1步、第2步、第4步", "2024-11-30 手术。顺序：3,1,2,4", "步骤1、2、3属于术前，因此顺序为 3,1,2,4"):
        assert extract_steps(text, 4) == [3, 1, 2, 4], text
    assert extract_steps("3124", 4) == []  # one number, not four


def test_json_bare_values_comments_and_bare_list_items():
    spec = AnswerSpec(format="json", fields={"level": "int", "department": "str", "tests": "list[str]"})
    assert parse_answer('{"level": Ⅱ级, "department": 心内科, "tests": [血常规, 心电图]}', spec).value == {
        "level": 2, "department": "心内科", "tests": ["血常规", "心电图"]}
    text = '{\n  "level": 2, // 危重\n  "department": "心内科", /* 胸痛 */\n  "tests": ["肌钙蛋白"]\n}'
    assert parse_answer(text, spec).value == {"level": 2, "department": "心内科", "tests": ["肌钙蛋白"]}
    assert parse_answer('{"level": 3, "department": "http://x/y", "tests": []}', spec).value["department"] == "http://x/y"
