"""Response cache: one SQLite table in the run store's file.

Keyed on everything that decides a reply (model, base URL, messages, generation
settings), so a rerun of a finished run makes no model calls. Repeated samples of one
item must differ in ``seed`` to get distinct replies. Only successful replies are stored;
nothing about credentials is (the key is never part of the cache key or the row).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import queue
import sqlite3
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from medsim.models.base import ChatResult, Usage

_SCHEMA = """
CREATE TABLE IF NOT EXISTS response_cache (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    created_at REAL NOT NULL,
    result TEXT NOT NULL
)
"""


def cache_key(
    *,
    model: str,
    base_url: str | None,
    messages: list[Any],
    temperature: float | None,
    max_tokens: int | None,
    seed: int | None,
    json_mode: bool,
) -> str:
    """sha256 of the canonical JSON of the request's deciding parts."""
    payload = {
        "model": model,
        "base_url": (base_url or "").rstrip("/"),
        "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
        "temperature": temperature,
        "max_tokens": max_tokens,
        "seed": seed,
        "json_mode": bool(json_mode),
    }
    canon = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


class ResponseCache:
    """``get(key)`` / ``put(key, ChatResult)`` / ``await aput(key, result)`` over the
    ``response_cache`` table of the run store's SQLite file.

    The event loop never waits on the disk: ``get`` reads through its own connection (WAL
    readers do not wait for writers), and ``aput`` hands the row to one writer thread that
    commits in batches, so neither a checkpoint's fsync nor the run store's write lock
    (``busy_timeout``) stalls the coroutines. Rows not yet written are served from memory.
    ``flush()`` waits until they are on disk; ``close()`` flushes (and runs at exit).
    """

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 10_000):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.busy_timeout_ms = int(busy_timeout_ms)
        self._wlock = threading.Lock()
        self._rlock = threading.Lock()
        self._wconn = self._connect()
        self._wconn.execute("PRAGMA journal_mode=WAL")
        self._wconn.execute(_SCHEMA)
        self._rconn = self._connect()
        self._pending: dict[str, tuple[str, str, float, str]] = {}
        self._queue: queue.SimpleQueue[tuple[str, str, float, str] | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._idle = threading.Condition()
        self._error: BaseException | None = None
        self._closed = False
        self.hits = 0
        self.misses = 0
        atexit.register(self.close)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout={self.busy_timeout_ms}")
        conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
        return conn

    @staticmethod
    def _decode(text: str) -> ChatResult:
        data = json.loads(text)
        usage = Usage(**data.pop("usage", {}))
        return ChatResult(usage=usage, **data)

    def get(self, key: str) -> ChatResult | None:
        pending = self._pending.get(key)
        if pending is not None:
            self.hits += 1
            return self._decode(pending[3])
        with self._rlock:
            row = self._rconn.execute("SELECT result FROM response_cache WHERE key = ?", (key,)).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return self._decode(row[0])

    @staticmethod
    def _row(key: str, result: ChatResult) -> tuple[str, str, float, str]:
        data = asdict(result)
        data["cached"] = False
        return key, result.model, time.time(), json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def _write(self, rows: list[tuple[str, str, float, str]]) -> None:
        with self._wlock:
            self._wconn.execute("BEGIN IMMEDIATE")
            try:
                self._wconn.executemany(
                    "INSERT OR REPLACE INTO response_cache (key, model, created_at, result) VALUES (?, ?, ?, ?)", rows
                )
            except BaseException:
                self._wconn.execute("ROLLBACK")
                raise
            self._wconn.execute("COMMIT")

    def put(self, key: str, result: ChatResult) -> None:
        """Write now, waiting up to busy_timeout for another writer (for sync callers)."""
        self._write([self._row(key, result)])

    async def aput(self, key: str, result: ChatResult) -> None:
        """Queue the row for the writer thread; returns at once."""
        if self._error is not None:
            raise RuntimeError(f"response cache {self.path}: writing failed") from self._error
        if self._closed:
            raise RuntimeError(f"response cache {self.path} is closed")
        row = self._row(key, result)
        with self._idle:
            self._pending[key] = row
            if self._writer is None:
                self._writer = threading.Thread(target=self._drain, name="medsim-cache-writer", daemon=True)
                self._writer.start()
        self._queue.put(row)

    def _drain(self) -> None:
        while True:
            first = self._queue.get()
            stop = first is None
            rows = [] if first is None else [first]
            while len(rows) < 500:  # batch what has piled up: one commit for many rows
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                rows.append(nxt)
            if rows:
                try:
                    self._write(rows)
                except BaseException as exc:  # kept and raised to the next caller
                    self._error = exc
            with self._idle:
                for row in rows:
                    if self._pending.get(row[0]) is row:
                        del self._pending[row[0]]
                self._idle.notify_all()
            if stop:
                return

    def flush(self, timeout: float | None = None) -> None:
        """Block until every queued row is written."""
        with self._idle:
            self._idle.wait_for(lambda: not self._pending, timeout)
        if self._error is not None:
            raise RuntimeError(f"response cache {self.path}: writing failed") from self._error

    def __len__(self) -> int:
        with self._rlock:
            n = self._rconn.execute("SELECT COUNT(*) FROM response_cache").fetchone()[0]
        return n + len(self._pending)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        atexit.unregister(self.close)
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join()
        with self._wlock, self._rlock:
            self._wconn.close()
            self._rconn.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
