"""The local test server itself: endpoints, fault plans, counters, CLI."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import urllib.request

import pytest

from medsim.testing.openai_server import Fault, OpenAIServer, embed_text, scripted_replies


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def chat(srv, text, **extra):
    return post(srv.base_url + "/chat/completions", {"model": "m", "messages": [{"role": "user", "content": text}], **extra})


def test_models_and_embeddings_via_openai_client(server):
    from openai import OpenAI

    client = OpenAI(base_url=server.base_url, api_key="EMPTY", max_retries=0)
    assert [m.id for m in client.models.list().data] == ["medsim-test"]
    emb = client.embeddings.create(model="e", input=["胸痛", "胸部疼痛", "皮疹"])
    a, b, c = (d.embedding for d in emb.data)
    assert len(a) == 64 and math.isclose(sum(x * x for x in a), 1.0, rel_tol=1e-6)
    cos = lambda u, v: sum(x * y for x, y in zip(u, v, strict=True))  # noqa: E731
    assert cos(a, b) > cos(a, c)
    assert emb.data[0].embedding == pytest.approx(embed_text("胸痛"), abs=1e-6)  # float32 on the wire
    assert server.counts["/v1/models"] == 1 and server.counts["/v1/embeddings"] == 1
    assert server.counts["/v1/chat/completions"] == 0


def test_base64_embeddings(server):
    import base64
    import struct

    status, body = post(server.base_url + "/embeddings", {"model": "e", "input": "胸痛", "encoding_format": "base64"})
    vec = struct.unpack("<64f", base64.b64decode(json.loads(body)["data"][0]["embedding"]))
    assert vec == pytest.approx(embed_text("胸痛"), abs=1e-6)


def test_scripted_replies_and_404(server):
    server.reply = scripted_replies(["一", "二"])
    assert [json.loads(chat(server, "x")[1])["choices"][0]["message"]["content"] for _ in range(3)] == ["一", "二", "一"]
    status, _ = post(server.base_url + "/nope", {})
    assert status == 404


def test_fault_selectors(server):
    server.set_faults(Fault("500", first=2))
    assert [chat(server, "a")[0] for _ in range(4)] == [500, 500, 200, 200]

    server.reset_counts()
    server.set_faults(Fault("500", marker="坏"))
    assert chat(server, "好")[0] == 200 and chat(server, "坏的")[0] == 500

    server.set_faults(Fault("429", marker="坏", times=2, retry_after=3))
    assert [chat(server, "坏了")[0] for _ in range(3)] == [429, 429, 200]
    assert chat(server, "又坏了")[0] == 429  # a different request has its own count


def test_fraction_is_seeded_and_order_free():
    def outcome(order):
        with OpenAIServer(faults=[Fault("500", fraction=0.3, seed=5)]) as srv:
            return {t: chat(srv, t)[0] for t in order}

    texts = [f"q{i}" for i in range(60)]
    first, second = outcome(texts), outcome(list(reversed(texts)))
    assert first == second
    failed = sum(1 for s in first.values() if s == 500)
    assert 5 <= failed <= 35


def test_retry_after_header(server):
    server.set_faults(Fault("429", retry_after=2.5))
    req = urllib.request.Request(server.base_url + "/chat/completions",
                                 data=json.dumps({"messages": []}).encode(), headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(req, timeout=5)
    assert info.value.code == 429 and info.value.headers["Retry-After"] == "2.5"


def test_fault_parse():
    f = Fault.parse("429:fraction=0.25,seed=3,retry_after=2")
    assert (f.kind, f.fraction, f.seed, f.retry_after) == ("429", 0.25, 3, 2.0)
    with pytest.raises(ValueError):
        Fault.parse("teapot")
    with pytest.raises(ValueError):
        Fault.parse("500:often=1")


def test_cli_serves_on_a_free_port():
    import os

    import medsim

    root = os.path.dirname(os.path.dirname(medsim.__file__))  # works installed or from a checkout
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-m", "medsim.testing.openai_server", "--port", "0"],
                            stdout=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line
        url = line.split()[-1]
        status, body = post(url + "/chat/completions", {"messages": [{"role": "user", "content": "hi"}]})
        assert status == 200 and json.loads(body)["choices"][0]["message"]["content"] == "收到：hi"
    finally:
        proc.terminate()
        proc.wait(5)
