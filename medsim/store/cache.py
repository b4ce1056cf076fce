"""Response cache: one SQLite table in the run store's file.

Keyed on everything that decides a reply (model, base URL, messages, generation
settings), so a rerun of a finished run makes no model calls. Repeated samples of one
item must differ in ``seed`` to get distinct replies. Only successful replies are stored;
nothing about credentials is (the key is never part of the cache key or the row).
"""

from __future__ import annotations

import hashlib
import json
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
    """``get(key)`` / ``put(key, ChatResult)`` over the ``response_cache`` table.

    One connection guarded by a lock: SQLite calls here are single-row and short, so
    callers on the event loop may use them directly or via ``asyncio.to_thread``.
    """

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 10_000):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
        self._conn.execute(_SCHEMA)
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> ChatResult | None:
        with self._lock:
            row = self._conn.execute("SELECT result FROM response_cache WHERE key = ?", (key,)).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        data = json.loads(row[0])
        usage = Usage(**data.pop("usage", {}))
        return ChatResult(usage=usage, **data)

    def put(self, key: str, result: ChatResult) -> None:
        data = asdict(result)
        data["cached"] = False
        row = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO response_cache (key, model, created_at, result) VALUES (?, ?, ?, ?)",
                (key, result.model, time.time(), row),
            )

    def __len__(self) -> int:
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM response_cache").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
