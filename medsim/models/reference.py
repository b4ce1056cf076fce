"""The reference clinician: replays each case's gold answer in the scenario's format.

It shows that the deterministic scorers give full marks to the right answer, and it checks
the cases themselves: a reference answer that misses a case's own key points scores below 1.
In dialogues it first takes a full history and orders every recorded test, as a careful
clinician would, then answers.
"""

from __future__ import annotations

from medsim.models.base import ChatContext, Message
from medsim.models.offline import OfflineClinician, as_json, display_letters, display_order
from medsim.models.registry import register_builtin
from medsim.scenario.schema import AnswerSpec

HISTORY_QUESTION = (
    "您好，请您详细说说这次哪里不舒服？什么时候开始的，持续多久了？是什么样的感觉，有多严重？"
    "有没有往别处放射？什么情况下加重或缓解？还有没有别的不舒服，比如发热、恶心呕吐？"
)
BACKGROUND_QUESTION = (
    "以前得过什么病吗？有没有药物过敏？平时在吃什么药？抽烟喝酒吗？家里人有类似的病吗？"
)


def _first(value):
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
        plan = self._plan(context)
        if context.turn <= len(plan) and context.turn < scenario.clinician.max_turns:
            return plan[context.turn - 1]
        return self.answer(spec, context)

    @staticmethod
    def _plan(context: ChatContext) -> list[str]:
        """A careful history: the course, then each key fact asked about by name (two a turn),
        the background, then examination and every recorded test — within the turn limit."""
        facts = list(context.case.key_facts)
        probes = ["请问：" + "；".join(facts[i:i + 2]) + "？" for i in range(0, len(facts), 2)]
        plan = [HISTORY_QUESTION, *probes, BACKGROUND_QUESTION]
        exam = ReferenceClinician._exam_and_tests(context)
        room = context.scenario.clinician.max_turns - 2  # keep a turn for the exam and one to answer
        return [*plan[:room], exam]

    @staticmethod
    def _exam_and_tests(context: ChatContext) -> str:
        names = [t.name for t in context.case.tests]
        on_exam = context.scenario.patient.disclose.on_exam
        parts = ["【查体】"] if {"vitals", "physical_exam"} & set(on_exam) else []
        if names and "tests" in on_exam:
            parts.append("【开检查】" + "、".join(names))
        return "\n".join(parts) or BACKGROUND_QUESTION


register_builtin("reference", lambda arg, options: ReferenceClinician())
