"""Shared plumbing of the offline clinicians (reference, baseline): no network, instant replies."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from medsim.models.base import ChatContext, ChatResult, Message, Usage
from medsim.models.tokens import estimate_tokens


class OfflineClinician:
    """Base class: subclasses implement ``reply(messages, context) -> str``."""

    name = "offline"

    async def chat(self, messages: list[Message], *, temperature: float | None = None,
                   max_tokens: int | None = None, seed: int | None = None, json_mode: bool = False,
                   on_token: Callable[[str], None] | None = None,
                   context: ChatContext | None = None) -> ChatResult:
        started = time.perf_counter()
        text = self.reply(messages, context or ChatContext())
        if on_token:
            on_token(text)
        prompt_tokens = sum(estimate_tokens(m["content"]) for m in messages)
        usage = Usage(prompt_tokens=prompt_tokens, completion_tokens=estimate_tokens(text), estimated=True)
        return ChatResult(content=text, usage=usage, latency_s=time.perf_counter() - started, model=self.name)

    def reply(self, messages: list[Message], context: ChatContext) -> str:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        return {"kind": self.name}


def display_letters(original: str, context: ChatContext) -> str:
    """Original option letters as the model saw them (options may be shuffled)."""
    shown: dict[str, str] = context.info.get("options_shown") or {}
    back = {orig: disp for disp, orig in shown.items()}
    return "".join(sorted(back.get(ch, ch) for ch in original.upper() if ch.isalpha()))


def display_order(context: ChatContext) -> list[int]:
    """Display numbers (1-based) listed in the correct order of the steps."""
    shown: list[int] = context.info.get("steps_shown") or list(range(len(context.case.steps)))
    position = {original: number for number, original in enumerate(shown, 1)}
    return [position[i] for i in range(len(shown))]


def as_json(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False)
