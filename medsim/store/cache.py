"""Response cache: one SQLite table in the run store's file.

Keyed on everything that decides a reply (model, base URL, messages, generation
settings), so a rerun of a finished run makes no model calls. Repeated samples of one
item must differ in ``seed`` to get distinct replies. Only successful replies are stored;
nothing about credentials is (the key is never part of the cache key or the row).
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import json
import logging
import queue
import sqlite3
import threading
import time
from dataclasses import fields
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
    extra: dict[str, Any] | None = None,
) -> str:
    """sha256 of the canonical JSON of the request's deciding parts. ``extra`` holds any
    further request fields (e.g. ``top_k`` from models.yaml ``extra_body``); it enters the
    key only when given, so keys without it stay stable."""
    payload: dict[str, Any] = {
        "model": model,
        "base_url": (base_url or "").rstrip("/"),
        "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
        "temperature": temperature,
        "max_tokens": max_tokens,
        "seed": seed,
        "json_mode": bool(json_mode),
    }
    if extra:
        payload["extra"] = extra
    canon = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


log = logging.getLogger("medsim.cache")
_RESULT_FIELDS = tuple(f.name for f in fields(ChatResult))
_USAGE_FIELDS = tuple(f.name for f in fields(Usage))
BATCH_DELAY_S = 0.05
CHECKPOINT_ROWS = 2000
Row = tuple[str, str, float, str]  # key, model, created_at, result JSON


def _connect(path: str, busy_timeout_ms: int) -> sqlite3.Connection:
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
    conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
    return conn


class _Writer:
    """One per database file in a process, shared by every ResponseCache on that file, so
    a row queued by one instance is visible to another before it reaches the disk.

    Rows are gathered for BATCH_DELAY_S and written in one transaction on the event loop
    itself, with busy_timeout 0: ~15 µs a row, no thread taking the GIL from the loop. If
    the file is locked (the run store mid-transaction), that batch goes to a thread that
    waits for the lock instead. The loop connection never checkpoints (an fsync); the
    thread does, every CHECKPOINT_ROWS rows.
    """

    def __init__(self, path: str, busy_timeout_ms: int):
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.lock = threading.Lock()  # guards conn
        self.conn = _connect(path, busy_timeout_ms)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute(_SCHEMA)
        self.conn.execute("PRAGMA wal_autocheckpoint=0")
        self._busy = busy_timeout_ms
        self.pending: dict[str, Row] = {}
        self.buffer: list[Row] = []
        self.scheduled: asyncio.AbstractEventLoop | None = None  # loop with a flush pending
        self.queue: queue.SimpleQueue[list[Row] | None] = queue.SimpleQueue()
        self.idle = threading.Condition()
        self.thread: threading.Thread | None = None
        self.since_checkpoint = 0
        self.error: BaseException | None = None  # the last write error, if any
        self.dropped = 0  # rows given up on
        self.users = 0

    def _set_busy(self, ms: int) -> None:
        if self._busy != ms:
            self.conn.execute(f"PRAGMA busy_timeout={ms}")
            self._busy = ms

    def write(self, rows: list[Row], *, wait: bool = True) -> None:
        """One transaction; ``wait=False`` fails at once if another writer holds the file."""
        with self.lock:
            self._write_locked(rows, wait)

    def _write_locked(self, rows: list[Row], wait: bool) -> None:
        self._set_busy(self.busy_timeout_ms if wait else 0)
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.executemany(
                "INSERT OR REPLACE INTO response_cache (key, model, created_at, result) VALUES (?, ?, ?, ?)", rows
            )
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def enqueue(self, row: Row) -> None:
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        with self.idle:
            self.pending[row[0]] = row
            self.buffer.append(row)
            # A flush set on a loop that has since ended (asyncio.run returned) never runs:
            # set a new one on this loop.
            if loop is not None and self.scheduled is loop:
                return
            self.scheduled = loop
        if loop is None:
            self.flush_buffer()  # no loop: write now
        else:
            loop.call_later(BATCH_DELAY_S, self.flush_buffer)

    def flush_buffer(self, *, wait: bool = False) -> None:
        with self.idle:
            rows, self.buffer = self.buffer, []
            self.scheduled = None
        if not rows:
            return
        if wait:
            self._write_or_drop(rows)
        elif self.lock.acquire(blocking=False):  # never wait on the loop for the thread
            try:
                self._write_locked(rows, wait=False)
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    self.error = exc
                self._to_thread(rows)  # waits for the lock there, or drops with a warning
                return
            finally:
                self.lock.release()
        else:
            self._to_thread(rows)
            return
        self._done(rows)
        self.since_checkpoint += len(rows)
        if self.since_checkpoint >= CHECKPOINT_ROWS:
            self.since_checkpoint = 0
            self._to_thread([])  # an empty batch: checkpoint only

    def _to_thread(self, rows: list[Row]) -> None:
        with self.idle:
            if self.thread is None:
                self.thread = threading.Thread(target=self._drain, name="medsim-cache-writer", daemon=True)
                self.thread.start()
        self.queue.put(rows)

    def _done(self, rows: list[Row]) -> None:
        with self.idle:
            for row in rows:
                if self.pending.get(row[0]) is row:
                    del self.pending[row[0]]
            self.idle.notify_all()

    def _drain(self) -> None:
        while True:
            rows = self.queue.get()
            if rows is None:
                return
            if rows:
                self._write_or_drop(rows)
                self._done(rows)
            else:
                try:
                    with self.lock:
                        self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as exc:  # a checkpoint can wait for the next one
                    log.debug("response cache checkpoint skipped: %s", exc)

    def _write_or_drop(self, rows: list[Row]) -> None:
        """A cache is an optimisation: a batch that cannot be written (the file locked past
        busy_timeout three times, a full disk) is dropped with a warning, never turned into
        a failed model call."""
        for attempt in range(3):
            try:
                self.write(rows)
                return
            except sqlite3.Error as exc:
                self.error = exc
                if attempt < 2:
                    time.sleep(0.5 * (attempt + 1))
        self.dropped += len(rows)
        log.warning("response cache %s: %d replies not cached: %s", self.path, len(rows), self.error)

    def flush(self, timeout: float | None = None) -> None:
        """Write what is buffered (from any thread) and wait for the thread's batches."""
        self.flush_buffer(wait=True)
        with self.idle:
            self.idle.wait_for(lambda: not self.pending, timeout)

    def stop(self) -> None:
        self.flush_buffer(wait=True)
        if self.thread is not None:
            self.queue.put(None)
            self.thread.join()
            self.thread = None
        with self.lock:
            try:
                self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:
                pass
            self.conn.close()


_writers: dict[str, _Writer] = {}
_writers_lock = threading.Lock()


@atexit.register
def _close_all() -> None:
    with _writers_lock:
        writers = list(_writers.values())
        _writers.clear()
    for w in writers:
        w.stop()


class ResponseCache:
    """``get(key)`` / ``put(key, ChatResult)`` / ``await aput(key, result)`` over the
    ``response_cache`` table of the run store's SQLite file.

    The event loop never waits on the disk: ``get`` reads through its own connection (WAL
    readers do not wait for writers); ``aput`` buffers the row, and batches are written
    every 50 ms without waiting for locks — a batch that meets the run store's write lock,
    and every checkpoint (an fsync), goes to a thread (see ``_Writer``). Rows not yet
    written are served from memory, to every ResponseCache on the same file in this
    process. ``flush()`` waits until they are on disk; ``close()`` flushes; what is left is
    written at interpreter exit. A process killed outright loses the rows of its last
    ~50 ms (and, if its event loop had already ended, those since).
    """

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 10_000):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        real = str(self.path.resolve())
        with _writers_lock:
            writer = _writers.get(real)
            if writer is None:
                writer = _writers[real] = _Writer(real, int(busy_timeout_ms))
            writer.users += 1
        self._writer = writer
        self._rlock = threading.Lock()
        self._rconn = _connect(real, int(busy_timeout_ms))
        self._closed = False
        self.read_error: sqlite3.Error | None = None
        self.hits = 0
        self.misses = 0

    @staticmethod
    def _decode(text: str) -> ChatResult:
        data = json.loads(text)
        usage = Usage(**data.pop("usage", {}))
        return ChatResult(usage=usage, **data)

    def get(self, key: str) -> ChatResult | None:
        pending = self._writer.pending.get(key)
        if pending is not None:
            self.hits += 1
            return self._decode(pending[3])
        try:
            with self._rlock:
                row = self._rconn.execute("SELECT result FROM response_cache WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:  # a cache is an optimisation: a damaged page is a miss, said once
            if not self.read_error:
                log.warning("response cache %s unreadable (%s): calling the model instead", self.path, exc)
            self.read_error = exc
            row = None
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return self._decode(row[0])

    @staticmethod
    def _row(key: str, result: ChatResult) -> Row:
        # shallow field copy: dataclasses.asdict deep-copies raw, ~4x the cost, on the loop
        data = {f: getattr(result, f) for f in _RESULT_FIELDS}
        data["usage"] = {f: getattr(result.usage, f) for f in _USAGE_FIELDS}
        data["cached"] = False
        return key, result.model, time.time(), json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def put(self, key: str, result: ChatResult) -> None:
        """Write now, waiting up to busy_timeout for another writer (for sync callers)."""
        self._writer.write([self._row(key, result)])

    async def aput(self, key: str, result: ChatResult) -> None:
        """Queue the row for the writer thread; returns at once."""
        if self._closed:
            raise RuntimeError(f"response cache {self.path} is closed")
        self._writer.enqueue(self._row(key, result))

    def flush(self, timeout: float | None = None) -> None:
        """Block until every queued row is written (or dropped, see ``dropped``)."""
        self._writer.flush(timeout)

    @property
    def dropped(self) -> int:
        """Replies that could not be written (logged as warnings); they were still returned."""
        return self._writer.dropped

    def __len__(self) -> int:
        with self._rlock:
            n = self._rconn.execute("SELECT COUNT(*) FROM response_cache").fetchone()[0]
        return n + len(self._writer.pending)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._writer.flush()
        with self._rlock:
            self._rconn.close()
        with _writers_lock:
            self._writer.users -= 1
            last = self._writer.users == 0 and _writers.get(self._writer.path) is self._writer
            if last:
                del _writers[self._writer.path]
        if last:
            self._writer.stop()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
