"""Embedders: offline hash vectors and the OpenAI-compatible /embeddings client."""

from __future__ import annotations

import math

import pytest

from medsim.models.base import ModelCallError
from medsim.models.config import ConfigError
from medsim.models.embeddings import HashEmbedder, OpenAIEmbedder, hash_embedding, resolve_embedder
from medsim.testing.openai_server import Fault

from ._util import run


def cos(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_hash_embedder_offline():
    e = resolve_embedder("hash")
    assert isinstance(e, HashEmbedder)
    a, b, c = e.embed(["急性心肌梗死", "心肌梗死", "过敏性鼻炎"])
    assert math.isclose(cos(a, a), 1.0, rel_tol=1e-9)
    assert cos(a, b) > cos(a, c)
    assert len(resolve_embedder("hash:16").embed(["x"])[0]) == 16
    with pytest.raises(ConfigError):
        resolve_embedder("hash:wide")


def test_endpoint_embedder_over_http(server):
    e = resolve_embedder("text-embed", base_url=server.base_url)
    assert isinstance(e, OpenAIEmbedder)
    texts = [f"句子{i}" for i in range(70)]
    vectors = run(e.embed(texts))
    assert len(vectors) == 70
    assert vectors[3] == pytest.approx(hash_embedding("句子3"), abs=1e-9)
    assert server.counts["/v1/embeddings"] == 2  # batches of 64


def test_endpoint_embedder_retries_and_fails_with_reason(server, sleeps):
    server.embedding_faults = [Fault("500", first=1)]
    e = OpenAIEmbedder("e", base_url=server.base_url, sleep=sleeps)
    assert len(run(e.embed(["a"]))) == 1
    assert server.counts["/v1/embeddings"] == 2 and len(sleeps.delays) == 1
    server.embedding_faults = [Fault("malformed")]
    with pytest.raises(ModelCallError, match="malformed body after 4 attempts"):
        run(e.embed(["b"]))
    bad = OpenAIEmbedder("e", base_url=server.base_url + "/nowhere", sleep=sleeps)
    with pytest.raises(ModelCallError, match="HTTP 404"):
        run(bad.embed(["a"]))


def test_unknown_embedder_name():
    with pytest.raises(ConfigError, match="--embedder"):
        resolve_embedder("text-embedding-3-small")
