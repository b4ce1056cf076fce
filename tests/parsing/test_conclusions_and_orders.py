"""Parsing takes what the model concluded, not every letter it mentioned; every test it
orders reaches the oracle, however the order is laid out."""

from __future__ import annotations

import asyncio

import pytest

from medsim.models.base import ChatResult
from medsim.scenario.schema import AnswerSpec, Case, OracleSpec
from medsim.scenario.schema import TestResult as Result
from medsim.sim.answer import extract_choices, parse_answer
from medsim.sim.oracle import Oracle

OPTIONS = {"A": "急性心肌梗死", "B": "稳定型心绞痛", "C": "主动脉夹层", "D": "肺栓塞", "E": "以上都不是"}
LETTERS = list(OPTIONS)


@pytest.mark.parametrize("text, chosen", [
    ("逐一分析：\nA. 急性心肌梗死：心电图无ST段抬高，肌钙蛋白阴性，不支持。\nB. 稳定型心绞痛：静息发作，不符合。\n"
     "C. 主动脉夹层：无撕裂样痛，双上肢血压对称，不支持。\nD. 肺栓塞：无低氧，D-二聚体阴性，可排除。\n综上，以上都不是。", ["E"]),
    ("A不对，B也不对，C、D均错误，所以应该是以上都不是", ["E"]),
    ("A说法错误，B说法错误，C说法错误，D说法正确", ["D"]),
    ("分析了A、B、C、D四个选项后，我认为是主动脉夹层。", ["C"]),
    ("首先考虑A，其次排除C和D。最终选择B。", ["B"]),
    ("A错，B对", ["B"]),
    # none of the above in other words than the option's (the meaning is medsim.text.options')
    ("A、B、C、D均不符合，因此以上均不是。", ["E"]),
    ("A、B、C、D都不对，以上选项都不正确。", ["E"]),
    ("A、B、C、D皆非，故以上皆不是。", ["E"]),
    ("逐项排除A、B、C、D后，结论：都不是。", ["E"]),
    # ...but a letter followed by "the rest are wrong", or a clause that goes on, is not it
    ("结论：C，其余都不对", ["C"]),
    ("综上，C正确，以上均不是禁忌", ["C"]),
])
def test_the_concluding_answer_is_the_choice(text: str, chosen: list[str]) -> None:
    assert extract_choices(text, LETTERS, OPTIONS) == chosen
    parsed = parse_answer(text, AnswerSpec(format="choice"), option_letters=LETTERS, options=OPTIONS)
    assert parsed.value == chosen and parsed.error is None


def test_none_of_the_above_in_other_words_finds_the_option_wherever_it_is_shown() -> None:
    # shown anywhere but last, the option reads 其余选项都不正确; the answer says 以上均不是
    shown = {"A": "急性心肌梗死", "B": "其余选项都不正确", "C": "稳定型心绞痛", "D": "主动脉夹层", "E": "肺栓塞"}
    text = "A不支持；C静息发作，不符合；D无撕裂样痛；E无低氧。\n综上，以上均不是。"
    assert extract_choices(text, LETTERS, shown) == ["B"]


def test_the_text_layer_reads_none_of_the_above() -> None:
    from medsim.text.options import is_none_option, says_none_of_the_above

    for option in ("以上都不是", "以上均不正确", "以上皆非", "其余选项都不正确", "None of the above"):
        assert is_none_option(option), option
    for option in ("以上都是", "主动脉夹层", "不是心源性胸痛"):
        assert not is_none_option(option), option
    for clause in ("因此以上均不是", "所以答案是：以上都不是（E）", "都不是", "上述选项均错误", "none of the above"):
        assert says_none_of_the_above(clause), clause
    for clause in ("其余都不对", "以上均不是禁忌", "C正确", "这并不是心梗"):
        assert not says_none_of_the_above(clause), clause


def test_a_list_of_every_option_is_still_every_option() -> None:
    # dumping every option is not a conclusion: it is scored as choosing all of them
    assert extract_choices("\n".join(f"{k}. {v}" for k, v in OPTIONS.items()), LETTERS, OPTIONS) == LETTERS


SHUFFLED = """\
id: nota
name: 以上都不是
name_en: None of the above
dimension: knowledge_application
kind: single_turn
cases:
  - id: k1
    source: synthetic
    question: 成人血清钾的正常范围是（mmol/L）
    options: {A: "1.5–2.5", B: "7.0–8.0", C: "10–12", D: 以上都不是}
    gold: {choice: D}
clinician:
  instructions: 回答单选题。
  prompt: |
    {question}
    {options}
  answer: {format: choice}
scoring:
  - choice: {shuffle: true}
"""


def test_none_of_the_above_named_by_text_is_scored_through_the_shuffled_layout(tmp_path) -> None:
    from medsim.runner import RunConfig, Services, load_scenarios, run_item

    path = tmp_path / "nota.yaml"
    path.write_text(SHUFFLED, encoding="utf-8")
    config = RunConfig(scenarios=[str(path)], model="x", seed=3)
    (loaded,) = load_scenarios(config)

    class Concluder:  # reasons through every shown letter, then names the option by its text
        name = "concluder"

        async def chat(self, messages, **_):
            shown = [line[0] for line in messages[-1]["content"].splitlines() if line[1:2] == "."]
            return ChatResult(content="\n".join(f"{k}. 不正确，正常为3.5–5.5。" for k in shown) + "\n综上，以上都不是。")

    record = asyncio.run(run_item("t", loaded, loaded.cases[0], 0, config, Services(clinician=Concluder()), None))
    assert len(record.transcript["answer"]) == 1
    assert record.item_score == 1.0, record.scores


CASE = Case(id="c1", chief_complaint="胸痛2小时", tests=[
    Result(name="心电图", result="窦性心律，V1-V4导联ST段抬高0.3mV", category="ecg"),
    Result(name="指尖血糖", result="7.8 mmol/L"),
    Result(name="肌钙蛋白I", result="2.1 ng/mL（参考<0.04）", aliases=["肌钙蛋白", "cTnI"]),
])


@pytest.mark.parametrize("order", [
    "【开检查】\n1. 心电图\n2. 指尖血糖",
    "【开检查】\n1、心电图\n2、指尖血糖",
    "【开检查】\n- 心电图\n- 指尖血糖\n\n另外请问您以前有过类似胸痛吗？",
    "【开检查】\n• 心电图\n• 指尖血糖",
    "【开检查】\n(1) 心电图\n(2) 指尖血糖",
    "【开检查】\n① 心电图\n② 指尖血糖",
    "【开检查】1、心电图 2、指尖血糖",
    "【开检查】\n心电图、指尖血糖",
    "【开检查】心电图、指尖血糖",
    "【开检查】\n一、心电图\n二、指尖血糖",
    "【开检查】\n（一）心电图\n（二）指尖血糖",
    "【开检查】\n1. 心电图\n\n2. 指尖血糖",  # a blank line inside a list whose numbering goes on
    "【开检查】\n1. 心电图 - 排除心梗\n2. 指尖血糖 - 排除低血糖",  # what it is for is not a test
    "【开检查】\n1. 心电图：评估ST段\n2. 指尖血糖：排除低血糖",
    "【开检查】\n1. 心电图\n2. 指尖血糖\n\n1. 请问您以前有过类似胸痛吗？",  # a new list after: questions
])
def test_every_test_in_a_numbered_or_bulleted_order_reaches_the_oracle(order: str) -> None:
    reply = Oracle(CASE, OracleSpec(), exam_fields=["vitals", "physical_exam", "tests"]).respond(order)
    assert reply is not None and reply.tests == ["心电图", "指尖血糖"] and reply.unknown == [], (order, reply)
    assert "ST段抬高" in reply.text and "7.8 mmol/L" in reply.text and "未做" not in reply.text


def test_a_single_answer_hedged_between_two_options_names_both():
    from medsim.sim.answer import extract_choices

    assert extract_choices("考虑溃疡穿孔，两者都可作为首选。答案：A或E", list("ABCDE")) == ["A", "E"]
    assert extract_choices("答案：B或者D", list("ABCDE")) == ["B", "D"]
    assert extract_choices("答案：C", list("ABCDE")) == ["C"]
