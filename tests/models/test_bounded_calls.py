"""Every model call is bounded in time and says what went wrong, over real HTTP.

Idle timeout (no byte for N s) apart from a generous total; abandoned attempts cancelled on
their connection; queueing on a one-at-a-time server not mistaken for silence; web pages
where JSON was expected named; empty replies after the retries are the model's answer;
runaway replies cut; a breaker for an endpoint that fails every attempt. The bounds used
here are generous: a test fails only when a mechanism is missing (a hang would take 600 s).
"""

from __future__ import annotations

import asyncio
import time

import pytest

from medsim.models import health
from medsim.models.base import ModelCallError
from medsim.models.openai_compat import MAX_REPLY_CHARS, OpenAICompatModel
from medsim.models.preflight import endpoint_problem
from medsim.models.retry import RetryPolicy
from medsim.testing.openai_server import Fault, OpenAIServer

from ._util import run, user

BOUND_S = 30  # far above what the mechanisms need, far below what their absence would take


def bounded(coro):
    return run(asyncio.wait_for(coro, BOUND_S))


def wait_until(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


@pytest.fixture
def events():
    seen: list[health.ModelEvent] = []
    health.add_listener(seen.append)
    yield seen
    health.remove_listener(seen.append)


def test_a_slow_model_that_streams_is_not_cut_off(server, make_model):
    server.chunks, server.chunk_delay = 10, 0.25  # ~2.7 s of tokens trickling in, each gap 0.25 s
    result = bounded(make_model(idle_timeout_s=2.0, timeout_s=120).chat(user("慢慢说")))
    assert result.content == "收到：慢慢说" and result.attempts == 1
    # the total clock is separate: the same reply cannot be had within 1.5 s in all
    with pytest.raises(ModelCallError) as info:
        bounded(make_model(idle_timeout_s=2.0, timeout_s=1.5, max_attempts=1).chat(user("慢慢说 2")))
    assert "no complete reply within 1.5 s" in info.value.reason


@pytest.mark.parametrize("stream", [True, False])
def test_a_hanging_endpoint_fails_on_the_idle_clock_and_each_attempt_is_cancelled(server, make_model, stream):
    server.set_faults(Fault("hang"))  # accepts, then never sends a byte
    model = make_model(stream=stream, idle_timeout_s=1, first_byte_timeout_s=1.5, timeout_s=600, max_attempts=2)
    with pytest.raises(ModelCallError) as info:
        bounded(model.chat(user("胸痛")))
    assert "first-byte timeout after 2 attempts: no first byte after 1.5 s" in info.value.reason
    assert "raise first_byte_timeout_s" in info.value.reason
    # each abandoned attempt was closed on its connection: the server stopped working on it
    assert wait_until(lambda: server.cancelled == 2), server.cancelled


@pytest.mark.parametrize("stream", [True, False])
def test_a_long_prompt_read_before_the_first_byte_is_waited_for_not_retried(server, make_model, stream):
    # A CPU server reading a long prompt sends nothing for minutes: longer than the idle
    # timeout, but work, not silence. Each retry would restart the prompt from scratch.
    server.latency = 2.5  # no byte at all for 2.5 s, then the reply
    model = make_model(stream=stream, idle_timeout_s=0.5, first_byte_timeout_s=20, timeout_s=60, max_attempts=3)
    result = bounded(model.chat(user("长病历")))
    assert result.content == "收到：长病历" and result.attempts == 1
    assert server.counts["/v1/chat/completions"] == 1 and server.cancelled == 0


def test_the_first_byte_allowance_is_never_shorter_than_the_idle_timeout(server, make_model):
    server.latency = 1.5
    model = make_model(idle_timeout_s=10, first_byte_timeout_s=0.3, max_attempts=1)
    assert model.retry.first_byte_s == 10
    assert bounded(model.chat(user("头晕"))).attempts == 1


def test_a_stream_that_stalls_midway_is_named(server, make_model):
    server.chunks, server.chunk_delay = 4, 30.0  # the first chunk, then silence
    with pytest.raises(ModelCallError) as info:
        bounded(make_model(idle_timeout_s=1.5, max_attempts=1).chat(user("头痛")))
    assert "no data for 1.5 s in the middle of the reply" in info.value.reason


def test_queueing_on_a_one_at_a_time_server_is_not_silence(events):
    # llama.cpp with one slot: while one reply streams, the others get no byte at all. The
    # last call waits ~3.3 s for its first byte, longer than the idle timeout, but the
    # endpoint is busy the whole time, so none is timed out; the server is noticed as serial.
    with OpenAIServer(serial=True, latency=0.1, chunks=3, chunk_delay=0.2) as srv:
        model = OpenAICompatModel("medsim-test", base_url=srv.base_url, idle_timeout_s=2.5, first_byte_timeout_s=2.5,
                                  max_attempts=1)

        async def many():
            return await asyncio.gather(*(model.chat(user(f"问题{i}")) for i in range(4)))

        results = bounded(many())
        assert [r.content for r in results] == [f"收到：问题{i}" for i in range(4)]
        assert srv.max_generating == 1 and srv.cancelled == 0
    serial = [e for e in events if e.kind == "serial"]
    assert len(serial) == 1 and "serves one request at a time" in serial[0].message
    assert "concurrency: 1" in serial[0].message


def test_a_parallel_server_is_not_called_serial(events):
    with OpenAIServer(latency=0.15, chunks=3, chunk_delay=0.08) as srv:
        model = OpenAICompatModel("medsim-test", base_url=srv.base_url, idle_timeout_s=5, max_attempts=1)

        async def many():
            return await asyncio.gather(*(model.chat(user(f"问题{i}")) for i in range(5)))

        bounded(many())
        assert srv.max_generating > 1
    assert not [e for e in events if e.kind == "serial"]


def test_a_serial_endpoint_is_then_sent_one_request_at_a_time(events):
    from medsim.models.limits import get_limiter

    with OpenAIServer(serial=True, latency=0.1, chunks=2, chunk_delay=0.1) as srv:
        model = OpenAICompatModel("medsim-test", base_url=srv.base_url, idle_timeout_s=5, max_attempts=1)

        async def waves():
            await asyncio.gather(*(model.chat(user(f"一{i}")) for i in range(5)))
            srv.max_in_flight = 0
            await asyncio.gather(*(model.chat(user(f"二{i}")) for i in range(3)))
            return get_limiter((model.base_url, model.model), None, None).concurrency

        assert bounded(waves()) == 1
        assert srv.max_in_flight == 1  # the second wave queued in medsim, not on the server


def test_a_server_that_drops_the_reply_in_progress_is_noticed_and_sent_one_at_a_time(events):
    # llama-cpp-python by default ends the stream in progress (no finish_reason) when another
    # request arrives: with several calls in flight each retry cuts another one short.
    from medsim.models.limits import get_limiter

    with OpenAIServer(interrupt=True, latency=0.2, chunks=3, chunk_delay=0.1) as srv:
        model = OpenAICompatModel("medsim-test", base_url=srv.base_url, idle_timeout_s=5, max_attempts=6)

        async def waves():
            first = await asyncio.gather(*(model.chat(user(f"一{i}")) for i in range(4)))
            cut_in_first = srv.interrupted
            srv.interrupted = srv.max_in_flight = 0
            second = await asyncio.gather(*(model.chat(user(f"二{i}")) for i in range(3)))
            limit = get_limiter((model.base_url, model.model), None, None).concurrency
            return first + second, cut_in_first, limit

        results, cut_in_first, limit = bounded(waves())
        assert [r.content for r in results] == [f"收到：一{i}" for i in range(4)] + [f"收到：二{i}" for i in range(3)]
        assert cut_in_first >= 2 and limit == 1
        assert srv.interrupted == 0 and srv.max_in_flight == 1  # the second wave queued in medsim
    serial = [e for e in events if e.kind == "serial"]
    assert len(serial) == 1 and "drops the reply in progress" in serial[0].message
    assert "concurrency: 1" in serial[0].message


def test_a_stream_cut_with_no_other_call_in_flight_says_nothing_about_the_server(events):
    with OpenAIServer(interrupt=True, latency=0.05) as srv:
        model = OpenAICompatModel("medsim-test", base_url=srv.base_url, idle_timeout_s=5, max_attempts=1)

        async def one_by_one():
            return [await model.chat(user(f"问题{i}")) for i in range(3)]

        assert [r.attempts for r in bounded(one_by_one())] == [1, 1, 1]
        assert srv.interrupted == 0
    assert not [e for e in events if e.kind == "serial"]


@pytest.mark.parametrize("stream", [True, False])
def test_a_web_page_where_the_api_was_expected_is_named(make_model, stream):
    with OpenAIServer(web_ui=True) as srv:
        model = OpenAICompatModel("m", base_url=srv.base_url, stream=stream, max_attempts=4)
        with pytest.raises(ModelCallError) as info:
            bounded(model.chat(user("x")))
        assert srv.counts["/v1/chat/completions"] == 1  # not retried: it will not change
        problem = bounded(endpoint_problem(model))
    assert f"{srv.base_url}/chat/completions answered an HTML page" in info.value.reason
    assert "not retryable" in info.value.reason and "web UI" in info.value.reason
    assert problem and f"GET {srv.base_url}/models answered an HTML page" in problem


def test_html_from_chat_alone_is_named_too(server, make_model):
    server.set_faults(Fault("html"))
    with pytest.raises(ModelCallError) as info:
        bounded(make_model().chat(user("x")))
    assert "answered an HTML page" in info.value.reason and "<!DOCTYPE html>" in info.value.reason


def test_empty_replies_after_the_retries_are_the_models_answer(server, make_model, sleeps):
    server.set_faults(Fault("empty"))
    result = bounded(make_model(max_attempts=3).chat(user("x")))
    assert result.content == "" and result.attempts == 3
    assert result.raw["empty"] is True
    assert server.counts["/v1/chat/completions"] == 3 and len(sleeps.delays) == 2


@pytest.mark.parametrize("stream", [True, False])
def test_a_runaway_reply_is_cut_and_the_server_told_to_stop(stream):
    ramble = "我再详细解释一下。" * 25_000  # 225,000 characters
    with OpenAIServer(reply=lambda _req: ramble, chunks=2000, chunk_delay=0.0005) as srv:
        model = OpenAICompatModel("m", base_url=srv.base_url, stream=stream, max_tokens=2048)
        result = bounded(model.chat(user("解释")))
        assert srv.requests[-1]["max_tokens"] == 2048
        if stream:
            assert wait_until(lambda: srv.cancelled == 1)  # it stopped generating
    assert MAX_REPLY_CHARS <= len(result.content) < MAX_REPLY_CHARS + 50
    assert result.raw["truncated"] is True and result.content.endswith("已截断）")


def test_the_breaker_stops_calls_to_an_endpoint_that_fails_every_attempt(server, events):
    server.set_faults(Fault("500"))
    policy = RetryPolicy(max_attempts=100, base_delay_s=0.05, max_delay_s=0.1, timeout_s=5, stop_after_s=0.6)
    model = OpenAICompatModel("medsim-test", base_url=server.base_url, retry=policy)

    async def two_calls():
        with pytest.raises(health.EndpointDown) as first:
            await model.chat(user("a"))
        sent = server.counts["/v1/chat/completions"]
        with pytest.raises(health.EndpointDown):
            await model.chat(user("b"))  # fails at once: the endpoint is down for this run
        return first.value, sent

    error, sent = bounded(two_calls())
    assert 3 <= sent < 100 and server.counts["/v1/chat/completions"] == sent
    assert "failed every attempt for" in error.reason and "HTTP 500" in error.reason
    assert [e.kind for e in events].count("down") == 1
    assert [e for e in events if e.kind == "retry"][0].message.startswith("HTTP 500")


def test_retries_are_heard_as_they_happen(server, make_model, events):
    server.set_faults(Fault("500", times=2))
    result = bounded(make_model().chat(user("x")))
    assert result.attempts == 3
    retries = [e for e in events if e.kind == "retry"]
    assert [e.attempt for e in retries] == [1, 2] and all(e.max_attempts == 4 for e in retries)
    assert "retrying in" in retries[0].message and server.base_url in retries[0].endpoint
