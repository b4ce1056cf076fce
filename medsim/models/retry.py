"""Bounded retries with exponential backoff and full jitter, independent of any client.

The caller supplies ``classify(exc) -> Failure``: which errors are worth another attempt
(429, 5xx, timeouts, dropped connections, malformed bodies, cut streams, empty replies) and
which are not (400, 401, 404: retrying cannot help). After the last attempt a
``ModelCallError`` carries a reason such as "HTTP 500 after 4 attempts: boom" — unless the
failure carried a ``fallback``: a complete reply that was only disappointing (empty text)
is the model's answer once the retries are spent, not an error.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from medsim.models.base import ModelCallError

T = TypeVar("T")


DEFAULT_TIMEOUT_S = 600.0
DEFAULT_IDLE_TIMEOUT_S = 60.0
# Before the first byte a server may be reading a long prompt (minutes on a CPU): that is
# work, not silence, so it gets its own, longer allowance.
DEFAULT_FIRST_BYTE_TIMEOUT_S = 300.0
DEFAULT_STOP_AFTER_S = 120.0


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 4
    base_delay_s: float = 0.5  # first backoff window; doubles each attempt
    max_delay_s: float = 20.0  # cap on the backoff window
    max_retry_after_s: float = 60.0  # a server's Retry-After is honoured up to this
    # Per attempt, the whole reply: generous, so a slow model that streams is not cut off.
    timeout_s: float | None = DEFAULT_TIMEOUT_S
    # Per attempt, the longest silence: no byte for this long means the server is stuck.
    idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S
    # Per attempt, the longest wait for the first byte (prompt processing, queueing); the
    # idle clock starts at the first byte. Never shorter than the idle timeout. None: no clock.
    first_byte_timeout_s: float | None = DEFAULT_FIRST_BYTE_TIMEOUT_S
    # The endpoint's circuit breaker: every attempt failing for this long stops the run.
    stop_after_s: float | None = DEFAULT_STOP_AFTER_S

    @property
    def first_byte_s(self) -> float | None:
        """The first-byte allowance in force: at least the idle timeout."""
        if not self.first_byte_timeout_s:
            return None
        return max(self.first_byte_timeout_s, self.idle_timeout_s or 0.0)


@dataclass
class Failure:
    """What went wrong in one attempt, in words fit for a report."""

    label: str  # "HTTP 500", "timeout", "connection error", "malformed body", ...
    detail: str = ""
    retryable: bool = True
    retry_after: float | None = None  # seconds, from the server's Retry-After

    def text(self) -> str:
        return f"{self.label}: {self.detail}" if self.detail else self.label


class AttemptFailed(Exception):
    """Raised inside an attempt to report a failure found by inspecting a reply
    (empty content, a body that does not parse, a stream without an end). ``fallback`` is a
    result to return instead of failing once no attempts are left."""

    def __init__(self, failure: Failure, fallback: Any = None):
        super().__init__(failure.text())
        self.failure = failure
        self.fallback = fallback


def backoff_delay(attempt: int, policy: RetryPolicy, rng: random.Random, retry_after: float | None = None) -> float:
    """Delay before attempt ``attempt + 1``. Full jitter spreads a burst of clients that
    failed together; a server's Retry-After wins but is capped so a bad header cannot
    stall a run."""
    if retry_after is not None:
        # At least what the server asked (capped), plus up to 10% so the many calls that
        # met the same 429 do not all come back in the same instant.
        wait = min(max(retry_after, 0.0), policy.max_retry_after_s)
        return wait * (1.0 + rng.uniform(0.0, RETRY_AFTER_SPREAD))
    window = min(policy.max_delay_s, policy.base_delay_s * 2 ** (attempt - 1))
    return rng.uniform(0.0, window)


_rng = random.Random()
RETRY_AFTER_SPREAD = 0.1


async def call_with_retries(
    attempt_fn: Callable[[int], Awaitable[T]],
    policy: RetryPolicy,
    classify: Callable[[BaseException], Failure],
    *,
    sleep: Callable[[float], Awaitable[Any]] | None = None,
    rng: random.Random | None = None,
    log: list[dict[str, Any]] | None = None,
    on_failure: Callable[[int, Failure, float | None], None] | None = None,
    gate: Callable[[], str | None] | None = None,
) -> tuple[T, int]:
    """Run ``attempt_fn(attempt_number)`` until it succeeds; return (result, attempts).

    ``log`` (if given) receives one entry per failed attempt: attempt, error, delay_s.
    ``on_failure(attempt, failure, delay)`` hears each failure as it happens (delay None on
    the last). ``gate()`` returning a reason stops the call before its next attempt (the
    endpoint's breaker opened). ``sleep`` is injectable so tests can record delays.
    """
    from medsim.models.health import EndpointDown

    sleep = sleep or asyncio.sleep
    rng = rng or _rng
    attempt = 0
    while True:
        attempt += 1
        if gate is not None and (down := gate()):
            raise EndpointDown(f"endpoint down: {down}", attempts=attempt - 1)
        fallback = None
        try:
            # The attempt applies policy.timeout_s itself, around the request only: time
            # spent queueing for a concurrency slot must not count against it.
            return await attempt_fn(attempt), attempt
        except AttemptFailed as exc:
            failure = exc.failure
            fallback = exc.fallback
            cause: BaseException = exc
        except TimeoutError as exc:
            limit = f"within {policy.timeout_s:g} s" if policy.timeout_s else "before the deadline"
            failure = Failure("timeout", f"no complete reply {limit}")
            cause = exc
        except Exception as exc:  # classify decides; CancelledError is not an Exception
            failure = classify(exc)
            cause = exc
        last = attempt >= policy.max_attempts
        if last and fallback is not None:
            if log is not None:
                log.append({"attempt": attempt, "error": failure.text(), "delay_s": None, "accepted": True})
            return fallback, attempt
        final = last or not failure.retryable
        delay = None if final else backoff_delay(attempt, policy, rng, failure.retry_after)
        if on_failure is not None:
            on_failure(attempt, failure, delay)
        if delay is None:
            if failure.retryable:
                reason = f"{failure.label} after {attempt} attempt{'s' if attempt > 1 else ''}"
            else:
                reason = f"{failure.label} (not retryable)"
            if failure.detail:
                reason += f": {failure.detail}"
            if log is not None:
                log.append({"attempt": attempt, "error": failure.text(), "delay_s": None})
            raise ModelCallError(reason, attempts=attempt) from cause
        if log is not None:
            log.append({"attempt": attempt, "error": failure.text(), "delay_s": round(delay, 3)})
        await sleep(delay)
