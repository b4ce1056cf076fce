"""OpenAICompatModel driven through the real openai client over real HTTP to the local server."""

from __future__ import annotations

import asyncio
import json

import pytest

from medsim.models.base import ChatModel, ModelCallError
from medsim.models.tokens import estimate_messages_tokens, estimate_tokens
from medsim.testing.openai_server import Fault

from ._util import run, user

FAULTS = ["429", "500", "hang", "malformed", "cut", "empty"]
# What the final error must say for each fault that never clears.
REASONS = {
    "429": "HTTP 429 after 3 attempts",
    "500": "HTTP 500 after 3 attempts",
    "hang": "timeout after 3 attempts",
    "malformed": "malformed body after 3 attempts",
    "cut": "after 3 attempts",  # a dropped connection or a stream without its end
}
PERSISTENT = [kind for kind in FAULTS if kind in REASONS]  # "empty" persisting is the model's answer


def test_is_a_chat_model(make_model):
    assert isinstance(make_model(), ChatModel)


def test_streaming_delivers_tokens_in_several_calls(server, make_model):
    server.chunks = 5
    model = make_model(stream=True)
    tokens: list[str] = []
    result = run(model.chat(user("胸痛两小时"), on_token=tokens.append))
    assert result.content == "收到：胸痛两小时"
    assert len(tokens) >= 3
    assert "".join(tokens) == result.content
    assert server.requests[-1]["stream"] is True
    assert result.attempts == 1 and not result.cached
    assert result.raw["finish_reason"] == "stop"


def test_non_streaming(server, make_model):
    model = make_model(stream=False)
    tokens: list[str] = []
    result = run(model.chat(user("头痛"), on_token=tokens.append))
    assert result.content == "收到：头痛"
    assert tokens == [result.content]
    assert "stream" not in server.requests[-1] or not server.requests[-1]["stream"]


def test_stream_auto_streams_when_an_idle_timeout_needs_it(server, make_model):
    # stream=None: streamed whenever the idle clock is on (the default), so a slow model
    # that is producing tokens is told from a stuck one; plain without an idle timeout.
    run(make_model().chat(user("a")))
    assert server.requests[-1]["stream"] is True
    run(make_model(idle_timeout_s=None).chat(user("b")))
    assert not server.requests[-1].get("stream")
    tokens: list[str] = []
    run(make_model(idle_timeout_s=None).chat(user("c"), on_token=tokens.append))
    assert server.requests[-1]["stream"] is True and len(tokens) > 1


def test_extra_body_is_merged(server, make_model):
    run(make_model(extra_body={"top_k": 20}).chat(user("a")))
    assert server.requests[-1]["top_k"] == 20


@pytest.mark.parametrize("stream", [True, False])
def test_usage_reported_is_used(server, make_model, stream):
    model = make_model(stream=stream)
    messages = user("发热三天")
    result = run(model.chat(messages))
    # the server's count (chars + 5 per message), not medsim's estimate
    assert result.usage.estimated is False
    assert result.usage.prompt_tokens == len("发热三天") + 5
    assert result.usage.completion_tokens == len(result.content) + 1


@pytest.mark.parametrize("stream", [True, False])
def test_usage_absent_is_estimated(server, make_model, stream):
    server.usage = False
    model = make_model(stream=stream, prices={"input": 1.0, "output": 2.0})
    messages = user("发热三天 fever for 3 days")
    result = run(model.chat(messages))
    assert result.usage.estimated is True
    assert result.usage.prompt_tokens == estimate_messages_tokens(messages)
    assert result.usage.completion_tokens == estimate_tokens(result.content)
    expected_cost = (result.usage.prompt_tokens * 1.0 + result.usage.completion_tokens * 2.0) / 1e6
    assert result.cost == pytest.approx(expected_cost)
    assert result.cost > 0


def test_stream_asks_for_usage(server, make_model):
    run(make_model(stream=True).chat(user("x")))
    assert server.requests[-1]["stream_options"] == {"include_usage": True}


def test_json_mode_and_settings_are_sent(server, make_model):
    model = make_model(temperature=0.3, max_tokens=77)
    result = run(model.chat(user("分诊"), json_mode=True, seed=11))
    sent = server.requests[-1]
    assert sent["response_format"] == {"type": "json_object"}
    assert sent["temperature"] == 0.3 and sent["max_tokens"] == 77 and sent["seed"] == 11
    assert json.loads(result.content) == {"reply": "分诊"}
    run(model.chat(user("分诊"), temperature=0.9))
    assert server.requests[-1]["temperature"] == 0.9
    assert "response_format" not in server.requests[-1]


def test_cost_from_prices(server, make_model):
    model = make_model(prices={"input": 2.0, "output": 8.0})
    result = run(model.chat(user("咳嗽")))
    u = result.usage
    assert result.cost == pytest.approx((u.prompt_tokens * 2.0 + u.completion_tokens * 8.0) / 1_000_000)


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("kind", FAULTS)
def test_fault_once_is_retried_then_succeeds(server, make_model, sleeps, kind, stream):
    server.set_faults(Fault(kind, times=1, hang_s=30))
    model = make_model(stream=stream, timeout_s=1.0 if kind == "hang" else 10.0)
    result = run(model.chat(user(f"腹痛 {kind}")))
    assert result.content == f"收到：腹痛 {kind}"
    assert result.attempts == 2
    assert server.counts["/v1/chat/completions"] == 2
    assert server.faults_served[kind] == 1
    assert len(sleeps.delays) == 1
    assert result.raw["retries"][0]["attempt"] == 1


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("kind", PERSISTENT)
def test_fault_that_persists_raises_with_reason(server, make_model, sleeps, kind, stream):
    server.set_faults(Fault(kind, hang_s=30))
    model = make_model(stream=stream, timeout_s=0.4 if kind == "hang" else 10.0, max_attempts=3)
    with pytest.raises(ModelCallError) as info:
        run(model.chat(user("腹痛")))
    assert REASONS[kind] in info.value.reason
    assert info.value.attempts == 3
    # exactly our attempts reached the server: the openai client's own retries are off
    assert server.counts["/v1/chat/completions"] == 3
    assert len(sleeps.delays) == 2


def test_client_errors_are_not_retried(server, make_model, sleeps):
    server.api_key = "right-key"
    model = make_model(api_key="wrong-key")
    with pytest.raises(ModelCallError) as info:
        run(model.chat(user("x")))
    assert info.value.reason.startswith("HTTP 401 (not retryable)")
    assert "API key" in info.value.reason
    assert info.value.attempts == 1
    assert server.counts["/v1/chat/completions"] == 1
    assert sleeps.delays == []


def test_key_is_sent_as_bearer(server, make_model, monkeypatch):
    server.api_key = "sk-local-123456"
    monkeypatch.setenv("MEDSIM_API_KEY", "sk-local-123456")
    assert run(make_model().chat(user("x"))).content == "收到：x"


def test_retry_after_is_honoured_and_capped(server, make_model, sleeps):
    from medsim.models.retry import RetryPolicy

    server.set_faults(Fault("429", first=1, retry_after=7))
    run(make_model().chat(user("x")))
    assert len(sleeps.delays) == 1 and 7.0 <= sleeps.delays[0] <= 7.7  # as asked, plus a little spread

    server.reset_counts()
    server.set_faults(Fault("429", first=1, retry_after=3600))
    model = make_model(retry=RetryPolicy(max_attempts=3, max_retry_after_s=30, timeout_s=5))
    run(model.chat(user("y")))
    assert 30.0 <= sleeps.delays[-1] <= 33.0  # capped


def test_backoff_without_retry_after_is_jittered_and_growing(server, make_model, sleeps):
    from medsim.models.retry import RetryPolicy

    server.set_faults(Fault("500"))
    model = make_model(retry=RetryPolicy(max_attempts=5, base_delay_s=1.0, max_delay_s=3.0, timeout_s=5))
    with pytest.raises(ModelCallError):
        run(model.chat(user("x")))
    windows = [1.0, 2.0, 3.0, 3.0]
    assert len(sleeps.delays) == 4
    assert all(0.0 <= d <= w for d, w in zip(sleeps.delays, windows, strict=True))


def test_concurrency_limit_is_never_exceeded(server, make_model):
    server.latency = 0.05
    model = make_model(concurrency=3)

    async def many() -> None:
        await asyncio.gather(*(model.chat(user(f"q{i}")) for i in range(24)))

    run(many())
    assert server.counts["/v1/chat/completions"] == 24
    assert server.max_in_flight == 3  # reached, never passed


def test_limit_is_shared_by_models_on_one_endpoint(server, make_model):
    server.latency = 0.05
    a = make_model(name="clinician", model="medsim-test", concurrency=2)
    b = make_model(name="judge", model="medsim-test", concurrency=2)

    async def many() -> None:
        await asyncio.gather(*(m.chat(user(f"q{i}")) for i in range(10) for m in (a, b)))

    run(many())
    assert server.max_in_flight == 2


def test_cache_hit_makes_no_request(server, make_model, tmp_path):
    from medsim.store.cache import ResponseCache

    cache = ResponseCache(tmp_path / "run.db")
    model = make_model(cache=cache, prices={"input": 1.0, "output": 1.0})
    first = run(model.chat(user("心悸"), seed=1))
    assert server.counts["/v1/chat/completions"] == 1
    tokens: list[str] = []
    second = run(model.chat(user("心悸"), seed=1, on_token=tokens.append))
    assert server.counts["/v1/chat/completions"] == 1
    assert second.cached is True and first.cached is False
    assert second.content == first.content and tokens == [first.content]
    assert second.usage == first.usage
    assert second.cost == 0.0 and second.raw["cached_cost"] == first.cost
    # another seed, temperature or JSON mode is another request
    run(model.chat(user("心悸"), seed=2))
    run(model.chat(user("心悸"), seed=1, json_mode=True))
    assert server.counts["/v1/chat/completions"] == 3


def test_cache_survives_a_new_process_worth_of_objects(server, make_model, tmp_path):
    from medsim.store.cache import ResponseCache

    db = tmp_path / "run.db"
    first = ResponseCache(db)
    run(make_model(cache=first).chat(user("a")))
    first.close()  # the first process ends
    rerun = make_model(cache=ResponseCache(db))
    assert run(rerun.chat(user("a"))).cached
    assert server.counts["/v1/chat/completions"] == 1


def test_failures_are_not_cached(server, make_model, tmp_path):
    from medsim.store.cache import ResponseCache

    cache = ResponseCache(tmp_path / "run.db")
    server.set_faults(Fault("500"))
    model = make_model(cache=cache, max_attempts=2)
    with pytest.raises(ModelCallError):
        run(model.chat(user("a")))
    assert len(cache) == 0


def test_key_never_in_describe_or_cache(server, make_model, tmp_path, monkeypatch):
    from medsim.store.cache import ResponseCache

    secret = "sk-secret-ZZ9-plural-z-alpha"
    server.api_key = secret
    monkeypatch.setenv("MY_KEY", secret)
    db = tmp_path / "run.db"
    cache = ResponseCache(db)
    model = make_model(key_env="MY_KEY", cache=cache)
    run(model.chat(user("a")))
    assert server.counts["/v1/chat/completions"] == 1  # the key was accepted
    described = json.dumps(model.describe())
    assert secret not in described and "MY_KEY" in described
    assert secret not in repr(model)
    cache.close()
    for f in tmp_path.glob("run.db*"):
        assert secret.encode() not in f.read_bytes()


def test_describe_strips_credentials_from_url(make_model):
    model = make_model(base_url="https://user:pw@example.invalid/v1?api-key=abc")
    assert model.describe()["base_url"] == "https://example.invalid/v1"


def test_one_model_object_across_event_loops(server, make_model):
    model = make_model(concurrency=2)
    assert run(model.chat(user("a"))).content == "收到：a"
    assert run(model.chat(user("b"))).content == "收到：b"  # a fresh asyncio.run, a fresh client


def test_key_echoed_by_an_endpoint_is_scrubbed_from_reasons(server, make_model):
    secret = "sk-echoed-1234567890"

    def reply(req):
        raise RuntimeError(f"bad key {secret}")  # the server answers 500 with this text

    server.reply = reply
    model = make_model(api_key=secret, max_attempts=2)
    with pytest.raises(ModelCallError) as info:
        run(model.chat(user("x")))
    assert "HTTP 500" in info.value.reason and secret not in info.value.reason and "***" in info.value.reason


def test_broken_stream_retry_is_marked_on_screen(server, make_model):
    from medsim.models.openai_compat import RESTREAM_NOTICE

    server.set_faults(Fault("cut", times=1))
    tokens: list[str] = []
    result = run(make_model().chat(user("胸闷气短"), on_token=tokens.append))
    shown = "".join(tokens)
    assert result.content == "收到：胸闷气短" and result.attempts == 2
    assert RESTREAM_NOTICE in shown
    assert shown.endswith(RESTREAM_NOTICE + result.content)
