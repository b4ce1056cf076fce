"""similarity: cosine similarity of answer and reference embeddings (CliMedBench's WTD metric).

The embedder is ``inp.services["embedder"]``: anything with ``embed(texts)`` returning vectors,
sync or async. Without one the configured ``fallback`` scorer (default rouge) stands in, and
both the details and the reasons say so.
"""

from __future__ import annotations

import asyncio
import inspect
import math
import threading
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


def _resolve(result: Any) -> Any:
    """Await a coroutine from sync code, also when an event loop already runs in this thread."""
    if not inspect.isawaitable(result):
        return result
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_wrap(result))
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["v"] = asyncio.run(_wrap(result))
        except BaseException as exc:  # re-raised in the caller's thread
            box["e"] = exc

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "e" in box:
        raise box["e"]
    return box["v"]


async def _wrap(aw: Any) -> Any:
    return await aw


@scorer(NAME)
def score_similarity(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    ref = inp.case.reference_answer
    if not ref:
        return no_gold(NAME, "reference_answer")
    embedder = inp.services.get("embedder")
    if embedder is None:
        fallback = inp.config.get("fallback", "rouge")
        sub = get_scorer(fallback)(inp)
        return Score(NAME, sub.value, [f"no embedder configured: {fallback} stands in", *sub.reasons],
                     {**sub.details, "stood_in_by": fallback}, error=sub.error)
    try:
        vectors = _resolve(embedder.embed([answer_text(inp, inp.config.get("field")), ref]))
        sim = cosine(vectors[0], vectors[1])
    except Exception as exc:  # an embedding call failure is an error, never a zero
        return Score(NAME, None, [f"embedding failed: {exc}"], error=f"embedder: {type(exc).__name__}: {exc}")
    value = max(0.0, min(1.0, sim))
    return Score(NAME, value, [f"余弦相似度 {sim:.3f}"], {"cosine": sim, "embedder": type(embedder).__name__})
