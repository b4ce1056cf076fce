"""Per-endpoint concurrency and requests-per-minute limits, shared by every call (and
every model object) that reaches the same endpoint within one event loop."""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any


class TokenBucket:
    """``rate`` requests per second on average, at most ``capacity`` in a burst.

    Waiters queue on a lock, so they are served in arrival order and none starves.
    """

    def __init__(
        self,
        rate: float,
        capacity: float = 1.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] | None = None,
    ):
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.capacity = max(1.0, capacity)
        self.tokens = self.capacity
        self._clock = clock
        self._sleep = sleep or asyncio.sleep
        self._stamp = clock()
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = self._clock()
        self.tokens = min(self.capacity, self.tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    async def acquire(self) -> None:
        async with self._lock:
            self._refill()
            while self.tokens < 1.0:
                await self._sleep((1.0 - self.tokens) / self.rate)
                self._refill()
            self.tokens -= 1.0


class Slots:
    """A semaphore whose size can change while it is in use (a server found to serve one
    request at a time is given one). Waiters are served in arrival order."""

    def __init__(self, value: int):
        self.value = value
        self.used = 0
        self._waiters: deque[asyncio.Future[None]] = deque()

    async def acquire(self) -> None:
        if self.used < self.value and not self._waiters:
            self.used += 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # granted, then cancelled before it could be used
            else:
                try:
                    self._waiters.remove(fut)
                except ValueError:
                    pass
            raise

    def release(self) -> None:
        self.used = max(0, self.used - 1)
        self._wake()

    def resize(self, value: int) -> None:
        self.value = max(1, value)
        self._wake()

    def _wake(self) -> None:
        while self._waiters and self.used < self.value:
            fut = self._waiters.popleft()
            if not fut.done():
                self.used += 1
                fut.set_result(None)


class EndpointLimiter:
    """``async with limiter:`` around one request. Holds a concurrency slot first, then
    takes a rate token, so tokens are never hoarded by requests that cannot be sent."""

    def __init__(self, concurrency: int | None = None, rpm: float | None = None, burst: float | None = None):
        self.concurrency = concurrency
        self.rpm = rpm
        self._sem = Slots(concurrency) if concurrency else None
        # Default burst: one tenth of a minute's allowance, so a 60 s window never sees
        # more than 1.1 × rpm requests.
        cap = burst if burst is not None else (max(1.0, rpm / 10) if rpm else 1.0)
        self._bucket = TokenBucket(rpm / 60.0, cap) if rpm else None
        self.in_flight = 0
        self.peak = 0

    async def __aenter__(self) -> EndpointLimiter:
        if self._sem is not None:
            await self._sem.acquire()
        try:
            if self._bucket is not None:
                await self._bucket.acquire()
        except BaseException:
            if self._sem is not None:
                self._sem.release()
            raise
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.in_flight -= 1
        if self._sem is not None:
            self._sem.release()

    def limit_to(self, concurrency: int) -> None:
        """From now on at most ``concurrency`` requests in flight (calls already sent finish)."""
        self.concurrency = concurrency
        if self._sem is None:
            self._sem = Slots(concurrency)
            self._sem.used = self.in_flight  # the calls already in flight hold slots
        else:
            self._sem.resize(concurrency)


# asyncio primitives bind to the loop that first waits on them, so limiters are kept per
# loop (tests and scripts may call asyncio.run more than once).
_registry: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Any, EndpointLimiter]] = (
    weakref.WeakKeyDictionary()
)


def get_limiter(key: Any, concurrency: int | None, rpm: float | None) -> EndpointLimiter:
    """The limiter shared by all calls to endpoint ``key`` in the running loop. The first
    caller's settings win; later ones with different settings share it all the same."""
    loop = asyncio.get_running_loop()
    per_loop = _registry.setdefault(loop, {})
    limiter = per_loop.get(key)
    if limiter is None:
        limiter = per_loop[key] = EndpointLimiter(concurrency, rpm)
    return limiter
