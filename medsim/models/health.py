"""What each endpoint is doing right now, seen from every call made to it in this event loop.

Three jobs, each one small:

- **activity**: when the endpoint last sent a byte to anyone. A call still waiting for its
  first byte is not "idle" while the endpoint is busy streaming to other calls: that is
  queueing on the server (one request at a time), not a hang.
- **circuit breaker**: when every attempt to an endpoint has failed for ``stop_after_s`` (and
  at least ``MIN_FAILURES`` of them), the endpoint is declared down; further calls fail at
  once with :class:`EndpointDown`, and the runner stops the run resumably instead of grinding
  through every item.
- **serialisation**: a server that generates one reply at a time is noticed and said once;
  the endpoint's limiter then sends it one request at a time, so queueing happens in medsim,
  where it does not count against any timeout. Two kinds: one that queues (llama.cpp with
  one slot: while one reply streams, the others get no byte), seen from the calls' timings,
  and one that drops the reply in progress when a new request arrives (llama-cpp-python's
  default ``interrupt_requests``: the stream just ends, with no finish_reason), seen from
  streams cut short while other calls to it were in flight.

Listeners (the CLI's progress display) hear retries, long waits and these verdicts as they
happen through :func:`add_listener`.
"""

from __future__ import annotations

import asyncio
import itertools
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from medsim.models.base import ModelCallError

MIN_FAILURES = 3  # a breaker never opens on fewer failed attempts than this
SERIAL_MIN_PAIRS = 4  # overlapping calls needed before calling a server serial
SERIAL_MIN_STREAM_S = 0.1  # a reply streamed for less than this says nothing about queueing
SERIAL_MIN_CUTS = 2  # streams cut short while others were in flight before calling a server interrupting


class EndpointDown(ModelCallError):
    """The endpoint's breaker is open: every attempt failed for a while. The run stops; the
    failed and unfinished items are left for ``--resume``."""


@dataclass
class ModelEvent:
    """Something a user watching a run should see as it happens."""

    kind: str  # retry | waiting | down | serial
    endpoint: str  # the endpoint's label: model @ URL
    message: str
    attempt: int | None = None
    max_attempts: int | None = None
    delay_s: float | None = None


_listeners: list[Callable[[ModelEvent], None]] = []


def add_listener(fn: Callable[[ModelEvent], None]) -> None:
    _listeners.append(fn)


def remove_listener(fn: Callable[[ModelEvent], None]) -> None:
    if fn in _listeners:
        _listeners.remove(fn)


def emit(event: ModelEvent) -> None:
    for fn in list(_listeners):
        try:
            fn(event)
        except Exception:  # a broken display must not break a model call
            pass


@dataclass
class _Sample:
    sent: float
    first_byte: float
    done: float


@dataclass
class CallWatch:
    """One attempt in flight: when it was sent and when it last received a byte."""

    id: int
    sent: float
    idle: float | None = None  # this call's idle timeout, if any
    first_byte_s: float | None = None  # this call's first-byte allowance, if any
    first: float | None = None  # when the first byte came
    last: float | None = None  # when the latest byte came (None until the first)


@dataclass
class EndpointHealth:
    label: str
    last_byte: float = field(default_factory=time.monotonic)
    calls: dict[int, CallWatch] = field(default_factory=dict)
    last_success: float | None = None
    failing_since: float | None = None  # first failure since the last success
    failures: int = 0  # failed attempts since the last success
    last_error: str = ""
    down: str | None = None  # why the breaker opened
    serial: bool = False
    parallel: bool = False  # two replies were seen streaming at the same time
    cuts_while_busy: int = 0  # streams that ended unfinished while other calls were in flight
    samples: deque[_Sample] = field(default_factory=lambda: deque(maxlen=24))
    retries: int = 0

    # --------------------------------------------------------------- activity
    def start(self, idle: float | None = None, first_byte_s: float | None = None) -> CallWatch:
        now = time.monotonic()
        watch = CallWatch(next(_ids), now, idle, first_byte_s)
        self.calls[watch.id] = watch
        return watch

    def touch(self, watch: CallWatch) -> None:
        now = time.monotonic()
        if watch.first is None:
            watch.first = now
        watch.last = now
        self.last_byte = now

    def finish(self, watch: CallWatch) -> None:
        self.calls.pop(watch.id, None)

    def silent_for(self, watch: CallWatch, now: float) -> float:
        """How long this call has been without news. Before its first byte the endpoint's
        own activity counts: a busy server is queueing this call, not ignoring it."""
        if watch.last is not None:
            return now - watch.last
        return now - max(watch.sent, self.last_byte)

    def waiting(self, min_s: float = 10.0) -> list[float]:
        """Seconds each call in flight has waited for its first byte, for those waiting at
        least ``min_s`` (or half their first-byte allowance, when that is shorter)."""
        now = time.monotonic()
        return sorted((now - w.sent for w in self.calls.values()
                       if w.last is None and now - w.sent >= min(min_s, (w.first_byte_s or min_s * 2) / 2)),
                      reverse=True)

    @property
    def first_byte_timeout(self) -> float | None:
        """How long a call in flight may wait for its first byte."""
        return next((w.first_byte_s for w in self.calls.values() if w.first_byte_s), None)

    # ---------------------------------------------------------------- breaker
    def succeeded(self, sample: _Sample | None = None) -> None:
        self.last_success = time.monotonic()
        self.failing_since = None
        self.failures = 0
        if sample is not None:
            self.samples.append(sample)
            self._check_serial()

    def failed(self, error: str, stop_after_s: float | None) -> None:
        now = time.monotonic()
        self.failures += 1
        self.last_error = error
        if self.failing_since is None:
            # the window starts when the first failing attempt was sent, not when it failed
            oldest = min((w.sent for w in self.calls.values()), default=now)
            self.failing_since = oldest
        if (self.down is None and stop_after_s and self.failures >= MIN_FAILURES
                and now - self.failing_since >= stop_after_s):
            self.down = (f"{self.label} failed every attempt for {now - self.failing_since:.0f} s "
                         f"({self.failures} attempts, none succeeded; last: {error})")
            emit(ModelEvent("down", self.label, self.down))

    # ---------------------------------------------------------- serialisation
    def cut_short(self, watch: CallWatch) -> None:
        """A stream of ``watch`` ended without its end. With other calls in flight that is the
        mark of a server that drops the reply in progress for the newest request; a server
        that has streamed two replies at once is not one (its cut was something else)."""
        if self.serial or self.parallel or not any(w.id != watch.id for w in self.calls.values()):
            return
        self.cuts_while_busy += 1
        if self.cuts_while_busy >= SERIAL_MIN_CUTS:
            self.serial = True
            emit(ModelEvent("serial", self.label,
                            f"{self.label} serves one request at a time and drops the reply in progress when "
                            f"another request arrives ({self.cuts_while_busy} replies ended unfinished while other "
                            "calls were in flight; llama-cpp-python does this unless started with "
                            "--interrupt_requests False); medsim now sends it one at a time. Set `concurrency: 1` "
                            "for it in models.yaml (or run with --concurrency 1) to start that way."))

    def _check_serial(self) -> None:
        """Serial when, of two calls in flight together, the later never got a byte while the
        earlier was still streaming its reply: it waited for it to finish. One pair that
        streamed at the same time proves a parallel server. Only pairs whose earlier call
        streamed for a while count: a reply that arrives in one burst says nothing."""
        if self.serial or self.parallel:
            return
        together = queued = 0
        for x, y in itertools.combinations(self.samples, 2):
            a, b = (x, y) if x.done <= y.done else (y, x)
            if b.sent >= a.done or a.done - a.first_byte < SERIAL_MIN_STREAM_S:
                continue  # not in flight together, or nothing to overlap with
            if b.first_byte < a.done - 0.02:
                together += 1
            else:
                queued += 1
        self.parallel = together > 0
        if together == 0 and queued >= SERIAL_MIN_PAIRS:
            self.serial = True
            emit(ModelEvent("serial", self.label,
                            f"{self.label} serves one request at a time (in {queued} pairs of overlapping calls, "
                            "each waited for the other to finish); medsim now sends it one at a time, so waiting "
                            "in line no longer counts against a timeout. Set `concurrency: 1` for it in "
                            "models.yaml (or run with --concurrency 1) to start that way."))


_ids = itertools.count(1)
_registry: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Any, EndpointHealth]] = (
    weakref.WeakKeyDictionary()
)


def get_health(key: Any, label: str) -> EndpointHealth:
    """The health record shared by all calls to endpoint ``key`` in the running loop (one
    run = one loop, so every run starts with a clean record)."""
    loop = asyncio.get_running_loop()
    per_loop = _registry.setdefault(loop, {})
    health = per_loop.get(key)
    if health is None:
        health = per_loop[key] = EndpointHealth(label)
    return health


def endpoints() -> list[EndpointHealth]:
    """Every endpoint called in the running loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return []
    return list(_registry.get(loop, {}).values())


def down_reason() -> str | None:
    """Why the run must stop: the first endpoint whose breaker opened, or None."""
    for health in endpoints():
        if health.down:
            return health.down
    return None


def sample(sent: float, first_byte: float | None, done: float) -> _Sample:
    return _Sample(sent, first_byte if first_byte is not None else done, done)
