"""similarity: cosine similarity of answer and reference embeddings (CliMedBench's WTD metric).

The embedder is ``inp.services["embedder"]``: anything with ``embed(texts)`` returning vectors,
sync or async. With an async embedder inside a running event loop the scorer returns a
coroutine of the Score, which the runner awaits. Without one the configured ``fallback`` scorer (default rouge) stands in, and
both the details and the reasons say so.
"""

from __future__ import annotations

import asyncio
import inspect
import math
from collections.abc import Sequence
from typing import Any, Protocol

from medsim.scoring.base import Score, ScoreInput, get_scorer, scorer
from medsim.scoring.common import answer_text, no_gold, unparsed

NAME = "similarity"


class Embedder(Protocol):
    def embed(self, texts: list[str]) -> Any:  # list[list[float]] or an awaitable of it
        ...


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


@scorer(NAME, config=("fallback", "field"))
def score_similarity(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    ref = inp.case.reference_answer
    if not ref:
        return no_gold(NAME, "reference_answer")
    embedder = inp.services.get("embedder")
    if embedder is None:
        fallback = inp.config.get("fallback", "rouge")
        if fallback in (None, "none"):
            # no embedder and no stand-in: surface overlap is not meaning, so nothing is scored here
            return Score(NAME, None, ["no embedder configured: not scored (fallback: none)"],
                         {"skipped": "no embedder"})
        sub = get_scorer(fallback)(inp)
        return Score(NAME, sub.value, [f"no embedder configured: {fallback} stands in", *sub.reasons],
                     {**sub.details, "stood_in_by": fallback}, error=sub.error)
    try:
        result = embedder.embed([answer_text(inp, inp.config.get("field")), ref])
    except Exception as exc:
        return _failed(exc)
    if not inspect.isawaitable(result):
        return _from_vectors(result, embedder)
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # plain sync caller: run the coroutine here
        return asyncio.run(_finish(result, embedder))
    # Inside the runner's event loop: hand back a coroutine (the runner awaits awaitable
    # scores), so an async client stays on the loop it was made for.
    return _finish(result, embedder)  # type: ignore[return-value]


async def _finish(result: Any, embedder: Any) -> Score:
    try:
        vectors = await result
    except Exception as exc:
        return _failed(exc)
    return _from_vectors(vectors, embedder)


def _failed(exc: Exception) -> Score:
    # an embedding call failure is an error, never a zero
    return Score(NAME, None, [f"embedding failed: {exc}"], error=f"embedder: {type(exc).__name__}: {exc}")


def _from_vectors(vectors: Any, embedder: Any) -> Score:
    try:
        sim = cosine(vectors[0], vectors[1])
    except Exception as exc:
        return _failed(exc)
    value = max(0.0, min(1.0, sim))
    return Score(NAME, value, [f"余弦相似度 {sim:.3f}"], {"cosine": sim, "embedder": type(embedder).__name__})
