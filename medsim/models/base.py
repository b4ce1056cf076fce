"""The ChatModel protocol every clinician, patient and judge model implements."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, runtime_checkable


class Message(TypedDict):
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False  # True when counted by medsim, not reported by the endpoint


@dataclass
class ChatResult:
    content: str
    usage: Usage = field(default_factory=Usage)
    latency_s: float = 0.0
    cached: bool = False
    model: str = ""
    cost: float = 0.0
    attempts: int = 1
    raw: dict[str, Any] = field(default_factory=dict)


class ModelCallError(Exception):
    """A model call that still failed after its retries. The reason is kept and reported."""

    def __init__(self, reason: str, *, attempts: int = 1):
        super().__init__(reason)
        self.reason = reason
        self.attempts = attempts


@dataclass
class ChatContext:
    """What an offline clinician may look at besides the messages (never the gold answer
    unless it is the reference clinician)."""

    scenario: Any = None  # medsim.scenario.schema.Scenario
    case: Any = None  # medsim.scenario.schema.Case
    stage: Any = None  # medsim.scenario.schema.Stage | None
    info: dict[str, Any] = field(default_factory=dict)  # display layout (options_shown, steps_shown)
    turn: int = 0  # the clinician's turn number, from 1


@runtime_checkable
class ChatModel(Protocol):
    name: str

    async def chat(
        self,
        messages: list[Message],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        json_mode: bool = False,
        on_token: Callable[[str], None] | None = None,
        context: ChatContext | None = None,
    ) -> ChatResult: ...
