"""The human clinician: the person at the terminal types the clinician's turns.

Slash commands make the common moves short: ``/order 血常规 心电图`` orders tests,
``/exam`` asks for the vital signs and examination, ``/answer …`` gives the final answer
(JSON, or the answer fields in order separated by spaces: ``/answer 2 心血管内科``),
``/quit`` leaves. The terminal itself is the CLI's business: this class asks an ``io``
object for each line (``await io.ask(prompt) -> str``), so tests can drive it too.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, Protocol

from medsim.models.base import ChatContext, ChatResult, Message, Usage
from medsim.models.registry import register_builtin
from medsim.scenario.schema import AnswerSpec
from medsim.sim.episode import QuitEpisode
from medsim.sim.prompts import EXAM_TAG, ORDER_TAG

HELP = (
    "输入问题直接发送给患者。命令：/order 项目…（开检查）  /exam（查体）  "
    "/answer 答案（给出最终答案）  /help  /quit"
)


class HumanIO(Protocol):
    async def ask(self, prompt: str) -> str: ...
    def tell(self, text: str) -> None: ...


def answer_from_command(rest: str, spec: AnswerSpec) -> str:
    """Turn what follows ``/answer`` into the scenario's answer format."""
    rest = rest.strip()
    if spec.format == "json":
        if rest.startswith("{"):
            return rest
        values = rest.split()
        fields = list(spec.fields)
        if len(values) < len(fields):
            raise ValueError(f"answer needs {len(fields)} value(s): {' '.join(fields)}")
        parsed: dict[str, Any] = {}
        for name, value in zip(fields, values[: len(fields) - 1] + [" ".join(values[len(fields) - 1:])], strict=True):
            kind = spec.fields[name]
            parsed[name] = [v for v in value.replace("，", ",").split(",") if v] if kind == "list[str]" else value
        return json.dumps(parsed, ensure_ascii=False)
    if spec.format == "text":
        return f"{spec.marker}：{rest}"
    return rest


class HumanClinician:
    name = "human"

    def __init__(self, io: HumanIO):
        self.io = io

    def describe(self) -> dict[str, Any]:
        return {"kind": "human"}

    async def chat(self, messages: list[Message], *, temperature: float | None = None,
                   max_tokens: int | None = None, seed: int | None = None, json_mode: bool = False,
                   on_token: Callable[[str], None] | None = None,
                   context: ChatContext | None = None) -> ChatResult:
        started = time.perf_counter()
        spec = (context.stage.answer if context and context.stage is not None
                else context.scenario.final_answer_spec if context and context.scenario else AnswerSpec())
        while True:
            line = (await self.io.ask("医生> ")).strip()
            if not line:
                continue
            command, _, rest = line.partition(" ")
            if command == "/quit":
                raise QuitEpisode()
            if command == "/help":
                self.io.tell(HELP)
                continue
            if command == "/order":
                if not rest.strip():
                    self.io.tell("用法：/order 血常规 心电图")
                    continue
                text = ORDER_TAG + "、".join(rest.split())
            elif command == "/exam":
                text = EXAM_TAG
            elif command == "/answer":
                try:
                    text = answer_from_command(rest, spec)
                except ValueError as exc:
                    self.io.tell(f"{exc}；例如 /answer " + " ".join(f"<{n}>" for n in spec.fields))
                    continue
                from medsim.sim.answer import parse_answer

                parsed = parse_answer(text, spec)
                if parsed.error:  # say so now rather than score an answer the user did not mean
                    self.io.tell(f"答案无法读取：{parsed.error}。请重新输入 /answer")
                    continue
            elif command.startswith("/"):
                self.io.tell(f"未知命令 {command}。{HELP}")
                continue
            else:
                text = line
            return ChatResult(content=text, usage=Usage(estimated=True), latency_s=time.perf_counter() - started,
                              model="human")


def _factory(arg: str | None, options: dict[str, Any]) -> HumanClinician:
    io = options.get("io")
    if io is None:
        raise ValueError("the human clinician is interactive: use `medsim play SCENARIO --model human`")
    return HumanClinician(io)


register_builtin("human", _factory)
