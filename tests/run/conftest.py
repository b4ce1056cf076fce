"""A small multiple-choice scenario and a local OpenAI-compatible server that answers it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from medsim.scenario.load import load_scenario
from medsim.testing.openai_server import OpenAIServer, last_user_message

DATA = Path(__file__).parent / "data"
MCQ = DATA / "mcq.yaml"


def answer_key() -> dict[str, str]:
    """question stem -> the correct option text (options may be shown in any order)."""
    loaded = load_scenario(MCQ)
    return {c.question: c.options[c.gold["choice"]] for c in loaded.cases}


def correct_reply(req: dict[str, Any]) -> str:
    """Answer like a model that knows the ranges: find the stem, then the letter shown for the right text."""
    prompt = last_user_message(req)
    for stem, right in answer_key().items():
        if stem in prompt:
            for line in prompt.splitlines():
                if line.endswith(right) and line[1:2] == ".":
                    return f"答案：{line[0]}"
    return "不确定"


@pytest.fixture()
def server():
    with OpenAIServer(reply=correct_reply) as srv:
        yield srv
