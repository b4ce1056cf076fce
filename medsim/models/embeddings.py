"""Embedders for the similarity scorer: ``embed(texts) -> vectors`` (async for endpoints).

``resolve_embedder(spec)``:

* ``hash`` / ``hash:DIM`` — offline, deterministic hashed bag of characters (texts that
  share characters point the same way). A crude stand-in, labelled as such; no download.
* a models.yaml name, or any served model name with ``base_url`` — ``POST /v1/embeddings``
  on an OpenAI-compatible endpoint, with the same retries, limits and key handling as chat.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from medsim.models.limits import get_limiter
from medsim.models.retry import AttemptFailed, Failure, RetryPolicy, call_with_retries


def hash_embedding(text: str, dim: int = 64) -> list[float]:
    """Unit vector of a hashed bag of characters (signed feature hashing)."""
    vec = [0.0] * dim
    for ch in text:
        h = int.from_bytes(hashlib.blake2b(ch.encode("utf-8"), digest_size=8).digest(), "little")
        vec[h % dim] += 1.0 if (h >> 32) & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


class HashEmbedder:
    """Offline embedder; sync ``embed``."""

    def __init__(self, dim: int = 64):
        self.name = f"hash:{dim}"
        self.dim = dim

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [hash_embedding(t, self.dim) for t in texts]

    def describe(self) -> dict[str, Any]:
        return {"type": "hash", "name": self.name, "dim": self.dim}


class OpenAIEmbedder:
    """``POST /embeddings`` on an OpenAI-compatible endpoint."""

    def __init__(
        self,
        name: str,
        *,
        base_url: str | None,
        model: str | None = None,
        api_key: str | None = None,
        key_env: str | None = None,
        concurrency: int | None = None,
        rpm: float | None = None,
        timeout_s: float | None = 60.0,
        max_attempts: int = 4,
        batch_size: int = 64,
        sleep: Callable[[float], Any] | None = None,
    ):
        import openai  # lazy, as in openai_compat

        from medsim.models.openai_compat import key_from_env

        self._openai = openai
        self.name = name
        self.model = model or name
        self.base_url = base_url
        self.key_env = key_env
        self._api_key = api_key or key_from_env(key_env)
        self.concurrency = concurrency
        self.rpm = rpm
        self.batch_size = max(1, batch_size)
        self.retry = RetryPolicy(max_attempts=max_attempts, timeout_s=timeout_s)
        self._sleep = sleep
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()
        self.calls = 0

    def describe(self) -> dict[str, Any]:
        from medsim.models.openai_compat import safe_url

        return {"type": "openai_embeddings", "name": self.name, "model": self.model,
                "base_url": safe_url(self.base_url), "key_env": self.key_env}

    def _client(self) -> Any:
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._openai.AsyncOpenAI(base_url=self.base_url, api_key=self._api_key, max_retries=0,
                                              timeout=self.retry.timeout_s)
            self._clients[loop] = client
        return client

    async def embed(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for i in range(0, len(texts), self.batch_size):
            out.extend(await self._batch(list(texts[i : i + self.batch_size])))
        return out

    async def _batch(self, texts: list[str]) -> list[list[float]]:
        from medsim.models.openai_compat import classify_openai_error

        limiter = get_limiter((self.base_url, self.model), self.concurrency, self.rpm)
        body = {"model": self.model, "input": texts, "encoding_format": "float"}

        async def attempt(_n: int) -> list[list[float]]:
            async with limiter:
                async with asyncio.timeout(self.retry.timeout_s):
                    self.calls += 1
                    resp = await self._client().post("/embeddings", body=body, cast_to=object)
            try:
                items = sorted(resp["data"], key=lambda d: d.get("index", 0))
                vectors = [[float(x) for x in d["embedding"]] for d in items]
            except (AttributeError, KeyError, TypeError, ValueError) as exc:
                raise AttemptFailed(Failure("malformed body", f"no data[].embedding ({type(exc).__name__})")) from exc
            if len(vectors) != len(texts) or any(not v for v in vectors):
                raise AttemptFailed(Failure("malformed body", f"{len(vectors)} vectors for {len(texts)} texts"))
            return vectors

        started = time.perf_counter()
        vectors, _ = await call_with_retries(attempt, self.retry, classify_openai_error, sleep=self._sleep)
        self.last_latency_s = time.perf_counter() - started
        return vectors


def resolve_embedder(
    spec: str,
    *,
    base_url: str | None = None,
    models_file: str | Path | None = None,
    **overrides: Any,
) -> HashEmbedder | OpenAIEmbedder:
    head, _, arg = spec.partition(":")
    if head == "hash":
        from medsim.models.config import ConfigError

        try:
            dim = int(arg) if arg else 64
        except ValueError:
            raise ConfigError(f"--embedder {spec}: the dimension after 'hash:' must be a whole number") from None
        return HashEmbedder(dim)
    from medsim.models.config import endpoint_for

    known = {"key_env", "concurrency", "rpm", "timeout_s", "max_attempts"}
    given = {k: v for k, v in overrides.items() if k in known and v is not None}
    entry, url = endpoint_for(spec, base_url=base_url, models_file=models_file, overrides=given, flag="--embedder")
    return OpenAIEmbedder(spec, base_url=url, model=entry.model or spec, key_env=entry.key_env,
                          concurrency=entry.concurrency, rpm=entry.rpm, timeout_s=entry.timeout_s,
                          max_attempts=entry.max_attempts)


# The name the runner's tests use (tests/run/test_embeddings.py).
EmbeddingsModel = OpenAIEmbedder
