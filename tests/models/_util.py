"""Small helpers shared by the model-layer tests."""

from __future__ import annotations

import asyncio
from typing import Any


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]
