"""Unit tests: token estimate, backoff, retry loop, token bucket, limiter sharing."""

from __future__ import annotations

import asyncio
import random

import pytest

from medsim.models.base import ModelCallError
from medsim.models.limits import EndpointLimiter, TokenBucket, get_limiter
from medsim.models.retry import AttemptFailed, Failure, RetryPolicy, backoff_delay, call_with_retries
from medsim.models.tokens import estimate_messages_tokens, estimate_tokens

from ._util import run


def test_token_estimate():
    assert estimate_tokens("") == 0
    assert estimate_tokens("胸痛两小时") == 5
    assert estimate_tokens("abcdefgh") == 2
    assert estimate_tokens("血压 150/90mmHg") == 2 + 3  # 2 hanzi; " 150/90mmHg" is 11 chars → 3
    assert estimate_tokens("，。") == 2  # full-width punctuation counts like hanzi
    assert estimate_messages_tokens([{"role": "user", "content": "胸痛"}]) == 3 + 4 + 2


def test_backoff_full_jitter_and_cap():
    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=5.0, max_retry_after_s=10.0)
    rng = random.Random(0)
    for attempt, window in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 5.0), (9, 5.0)]:
        delays = [backoff_delay(attempt, policy, rng) for _ in range(200)]
        assert all(0 <= d <= window for d in delays)
        assert max(delays) > window * 0.8  # the whole window is used, not a fixed value
    honoured = [backoff_delay(1, policy, rng, retry_after=3.0) for _ in range(200)]
    assert all(3.0 <= d <= 3.3 for d in honoured) and len(set(honoured)) > 100  # at least 3 s, spread
    assert all(10.0 <= backoff_delay(1, policy, rng, retry_after=99.0) <= 11.0 for _ in range(50))  # capped
    assert backoff_delay(1, policy, rng, retry_after=-1.0) == 0.0


def test_retry_loop_counts_and_reasons():
    calls = []
    slept = []

    async def sleep(d):
        slept.append(d)

    async def flaky(n):
        calls.append(n)
        if n < 3:
            raise AttemptFailed(Failure("HTTP 503", "busy", retry_after=2.0))
        return "ok"

    log = []
    assert run(call_with_retries(flaky, RetryPolicy(max_attempts=4), lambda e: Failure("x"), sleep=sleep, log=log)) == ("ok", 3)
    assert calls == [1, 2, 3] and len(slept) == 2 and all(2.0 <= d <= 2.2 for d in slept)
    assert [e["attempt"] for e in log] == [1, 2]

    async def always(n):
        raise AttemptFailed(Failure("HTTP 500", "boom"))

    with pytest.raises(ModelCallError) as info:
        run(call_with_retries(always, RetryPolicy(max_attempts=4), lambda e: Failure("x"), sleep=sleep))
    assert info.value.reason == "HTTP 500 after 4 attempts: boom" and info.value.attempts == 4


def test_unknown_errors_are_not_retried_but_reported():
    async def bug(n):
        raise KeyError("oops")

    def classify(exc):
        return Failure("unexpected error", repr(exc), retryable=False)

    with pytest.raises(ModelCallError) as info:
        run(call_with_retries(bug, RetryPolicy(), classify))
    assert info.value.attempts == 1 and "not retryable" in info.value.reason
    assert isinstance(info.value.__cause__, KeyError)


def test_timeout_error_is_retryable():
    async def slow(n):
        if n == 1:
            raise TimeoutError
        return n

    async def sleep(d):
        pass

    assert run(call_with_retries(slow, RetryPolicy(), lambda e: Failure("x"), sleep=sleep)) == (2, 2)


def test_token_bucket_spaces_requests():
    now = [0.0]
    stamps = []

    async def fake_sleep(d):
        now[0] += d

    async def go():
        bucket = TokenBucket(rate=2.0, capacity=1, clock=lambda: now[0], sleep=fake_sleep)  # 120 rpm
        for _ in range(5):
            await bucket.acquire()
            stamps.append(now[0])

    run(go())
    assert stamps == pytest.approx([0.0, 0.5, 1.0, 1.5, 2.0])


def test_token_bucket_burst():
    now = [0.0]

    async def fake_sleep(d):
        now[0] += d

    async def go():
        bucket = TokenBucket(rate=1.0, capacity=3, clock=lambda: now[0], sleep=fake_sleep)
        for _ in range(6):
            await bucket.acquire()

    run(go())
    assert now[0] == pytest.approx(3.0)  # 3 at once, then one a second


def test_limiter_caps_in_flight():
    async def go():
        lim = EndpointLimiter(concurrency=4)

        async def one():
            async with lim:
                await asyncio.sleep(0.001)

        await asyncio.gather(*(one() for _ in range(40)))
        return lim.peak

    assert run(go()) == 4


def test_limiter_rpm_in_real_time():
    async def go():
        lim = EndpointLimiter(concurrency=None, rpm=6000, burst=1)  # one per 10 ms
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        for _ in range(6):
            async with lim:
                pass
        return loop.time() - t0

    assert run(go()) >= 0.045


def test_get_limiter_shared_per_endpoint_and_loop():
    async def go():
        a = get_limiter(("u", "m"), 2, None)
        b = get_limiter(("u", "m"), 5, None)
        c = get_limiter(("u", "other"), 2, None)
        return a, b, c

    a, b, c = run(go())
    assert a is b and a is not c
    a2, _, _ = run(go())
    assert a2 is not a  # a new loop gets new primitives


def test_retry_after_header_forms():
    import email.utils
    import time as _time

    from medsim.models.openai_compat import _retry_after

    assert _retry_after({"retry-after": "3"}) == 3.0
    assert _retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    when = email.utils.formatdate(_time.time() + 30, usegmt=True)
    assert 25 <= _retry_after({"retry-after": when}) <= 31
    assert _retry_after({"retry-after": "soon"}) is None
    assert _retry_after({}) is None and _retry_after(None) is None
