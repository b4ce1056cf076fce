"""Fixtures for the model layer: a local OpenAI-compatible server on 127.0.0.1 and models
wired to it whose backoff sleeps are recorded instead of slept."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from medsim.testing.openai_server import OpenAIServer


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    # A developer's own keys, base URL or models.yaml must not leak into these tests.
    for var in ("MEDSIM_API_KEY", "OPENAI_API_KEY", "MEDSIM_BASE_URL", "OPENAI_BASE_URL", "MEDSIM_MODELS_FILE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as srv:
        yield srv


class SleepRecorder:
    """Stands in for asyncio.sleep in the retry loop: records each backoff delay."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        await asyncio.sleep(0)


@pytest.fixture
def sleeps() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
def make_model(server: OpenAIServer, sleeps: SleepRecorder):
    from medsim.models.openai_compat import OpenAICompatModel

    def make(**kwargs: Any) -> OpenAICompatModel:
        kwargs.setdefault("base_url", server.base_url)
        kwargs.setdefault("sleep", sleeps)
        kwargs.setdefault("timeout_s", 5.0)
        return OpenAICompatModel(kwargs.pop("name", "medsim-test"), **kwargs)

    return make
