"""The reference clinician: replays each case's gold answer in the scenario's format.

It shows that the deterministic scorers give full marks to the right answer, and it checks
the cases themselves: a reference answer that misses a case's own key points scores below 1.
In dialogues it first takes a full history and orders every recorded test, as a careful
clinician would, then answers.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from medsim.models.base import ChatContext, Message
from medsim.models.offline import OfflineClinician, as_json, display_letters, display_order
from medsim.models.registry import register_builtin
from medsim.scenario.schema import AnswerSpec

# Two or three questions a turn, as the bundled scenarios instruct (info_gathering charges more).
HISTORY_QUESTION = "您好，请您详细说说这次哪里不舒服？什么时候开始的，持续多久了？"
BACKGROUND_PARTS = (  # (question, words showing the topic was already asked or told)
    ("以前得过什么病吗？", ("以前得过", "既往", "以前有", "病史")),
    ("有没有药物过敏？", ("过敏",)),
    ("平时在吃什么药？", ("吃什么药", "用药", "在吃", "服用")),
    ("抽烟喝酒吗？", ("抽烟", "吸烟", "喝酒", "饮酒")),
    ("家里人有类似的病吗？", ("家里人", "家族", "父亲", "母亲")),
)
BACKGROUND_QUESTION = "".join(question for question, _ in BACKGROUND_PARTS)
PER_TURN = 2


_LEADING_ANSWER = re.compile(r"^\s*(?:正确)?答案\s*[:：为是]?\s*[A-Z]+\s*[。.，,；;]?\s*")


def _first(value):
    """A gold answer as the reference writes it: the first alternative of each element; optional
    elements are written too (they are reasonable, and cost nothing)."""
    if isinstance(value, dict):
        alts = value.get("any", "")
        return (alts[0] if isinstance(alts, list) and alts else str(alts).split("|")[0])
    if isinstance(value, str):
        return value.split("|")[0]
    if isinstance(value, list):
        return [_first(v) for v in value]
    return value


class ReferenceClinician(OfflineClinician):
    name = "reference"

    def answer(self, spec: AnswerSpec, context: ChatContext) -> str:
        case = context.case
        if spec.format == "json":
            return as_json({name: _first(case.gold.get(name)) for name in spec.fields})
        if spec.format == "choice":
            return f"答案：{display_letters(str(case.gold.get('choice', '')), context)}"
        if spec.format == "steps":
            return ",".join(str(n) for n in display_order(context))
        text = case.reference_answer or ""
        if case.probe and case.probe.kind == "none_of_the_above" and "choice" in case.gold:
            # the written reference names the case file's letter; the model saw the options shuffled
            text = _LEADING_ANSWER.sub("", text)
            text = f"答案：{display_letters(str(case.gold['choice']), context)}。{text}"
        if context.scenario.kind == "dialogue":
            text = f"{spec.marker}：{text}"
        return text

    def reply(self, messages: list[Message], context: ChatContext) -> str:
        scenario = context.scenario
        if scenario is None or context.case is None:
            return "（reference 需要病例上下文）"
        if context.stage is not None:
            return self.answer(context.stage.answer, context)
        spec = scenario.final_answer_spec
        if scenario.kind != "dialogue":
            return self.answer(spec, context)
        probe = context.case.probe
        if probe and probe.kind == "red_flag" and context.turn >= probe.at_turn:
            return self.answer(spec, context)  # a red flag is escalated at once
        return self._next_move(messages, context)

    def _next_move(self, messages: list[Message], context: ChatContext) -> str:
        """A careful history, decided afresh each turn from what has been said: the course, then
        each key fact not yet heard (two a turn, never the same twice), the background, then the
        examination and every recorded test — keeping one turn to answer."""
        spec = context.scenario.final_answer_spec
        asked = "\n".join(m["content"] for m in messages if m["role"] == "assistant")
        heard = "\n".join(m["content"] for m in messages[2:] if m["role"] == "user")
        turns_left = context.scenario.clinician.max_turns - context.turn
        exam = self._exam_and_tests(context)
        if context.turn == 1 and turns_left > 1:
            return HISTORY_QUESTION
        if turns_left > 1:
            missing = [fact for fact in context.case.key_facts
                       if fact not in asked and fuzz.partial_ratio(fact, heard) < 80]
            if missing and turns_left > 2:
                return "请问：" + "；".join(missing[:PER_TURN]) + "？"
            background = [q for q, cues in BACKGROUND_PARTS if not any(c in asked + heard for c in cues)]
            if background and turns_left > 2:
                return "".join(background[:PER_TURN])
            if exam not in asked and exam != BACKGROUND_QUESTION:
                return exam
        return self.answer(spec, context)

    @staticmethod
    def _exam_and_tests(context: ChatContext) -> str:
        names = [t.name for t in context.case.tests]
        on_exam = context.scenario.patient.disclose.on_exam
        parts = ["【查体】"] if {"vitals", "physical_exam"} & set(on_exam) else []
        if names and "tests" in on_exam:
            parts.append("【开检查】" + "、".join(names))
        return "\n".join(parts) or BACKGROUND_QUESTION


register_builtin("reference", lambda arg, options: ReferenceClinician())
