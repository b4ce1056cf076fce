"""ResponseCache: keys, round trip, WAL, sharing the run store's file."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

from medsim.models.base import ChatResult, Usage
from medsim.store.cache import ResponseCache, cache_key

BASE = dict(model="m", base_url="http://h/v1", messages=[{"role": "user", "content": "你好"}],
            temperature=0.0, max_tokens=100, seed=1, json_mode=False)


def test_key_depends_on_every_deciding_part():
    k = cache_key(**BASE)
    assert k == cache_key(**{**BASE, "base_url": "http://h/v1/"})  # trailing slash is the same endpoint
    for field, value in [("model", "n"), ("base_url", "http://g/v1"), ("messages", [{"role": "user", "content": "您好"}]),
                         ("temperature", 0.7), ("max_tokens", 200), ("seed", 2), ("json_mode", True)]:
        assert cache_key(**{**BASE, field: value}) != k, field
    assert cache_key(**BASE, extra={}) == k
    assert cache_key(**BASE, extra={"top_k": 20}) != k


def test_round_trip_and_wal(tmp_path):
    db = tmp_path / "run.db"
    cache = ResponseCache(db)
    assert cache.get("k") is None
    result = ChatResult("回答", Usage(10, 3, True), latency_s=0.2, model="m", cost=0.5, attempts=2, raw={"id": "x"})
    cache.put("k", result)
    got = cache.get("k")
    assert got == result
    assert (cache.hits, cache.misses) == (1, 1)
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT COUNT(*) FROM response_cache").fetchone()[0] == 1


def test_shares_a_file_with_other_tables(tmp_path):
    db = tmp_path / "run.db"
    other = sqlite3.connect(db)
    other.execute("CREATE TABLE runs (id TEXT)")
    other.commit()
    cache = ResponseCache(db)
    cache.put("k", ChatResult("x"))
    assert {r[0] for r in other.execute("SELECT name FROM sqlite_master WHERE type='table'")} >= {"runs", "response_cache"}


def test_many_threads(tmp_path):
    cache = ResponseCache(tmp_path / "run.db")

    def work(n: int) -> None:
        for i in range(50):
            cache.put(f"{n}-{i}", ChatResult(f"{n}-{i}"))
            assert cache.get(f"{n}-{i}").content == f"{n}-{i}"

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 200


def test_aput_never_waits_for_a_locked_file(tmp_path):
    db = tmp_path / "run.db"
    cache = ResponseCache(db)
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # the run store mid-transaction holds the write lock
    other.execute("CREATE TABLE IF NOT EXISTS runs (id TEXT)")

    start = time.perf_counter()
    asyncio.run(cache.aput("k", ChatResult("x")))
    assert time.perf_counter() - start < 2.0  # returned at once (a blocking write would wait 10 s)
    assert cache.get("k").content == "x"  # served from memory meanwhile
    time.sleep(0.2)
    on_disk = sqlite3.connect(db)
    assert on_disk.execute("SELECT COUNT(*) FROM response_cache").fetchone()[0] == 0  # still waiting for the lock
    other.execute("COMMIT")
    cache.flush(timeout=10)
    assert on_disk.execute("SELECT COUNT(*) FROM response_cache").fetchone()[0] == 1


def test_close_writes_what_is_queued(tmp_path):
    db = tmp_path / "run.db"
    cache = ResponseCache(db)

    async def many():
        for i in range(300):
            await cache.aput(f"k{i}", ChatResult(f"v{i}"))

    asyncio.run(many())
    cache.close()
    reopened = ResponseCache(db)
    assert len(reopened) == 300 and reopened.get("k299").content == "v299"


def test_two_caches_on_one_file_see_each_others_queued_rows(tmp_path):
    db = tmp_path / "run.db"
    first, second = ResponseCache(db), ResponseCache(db)
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # keep the row from reaching the disk for now
    other.execute("CREATE TABLE IF NOT EXISTS runs (id TEXT)")
    asyncio.run(first.aput("k", ChatResult("x")))
    assert second.get("k").content == "x"  # a rerun in the same process hits at once
    other.execute("COMMIT")
    first.close()
    assert second.get("k").content == "x"
    second.close()


def test_a_write_that_keeps_failing_is_dropped_not_raised(tmp_path, caplog):
    db = tmp_path / "run.db"
    cache = ResponseCache(db, busy_timeout_ms=20)
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # never released during the test
    other.execute("CREATE TABLE IF NOT EXISTS runs (id TEXT)")
    asyncio.run(cache.aput("k", ChatResult("x")))  # does not raise
    cache.flush(timeout=10)
    assert cache.dropped == 1
    assert "not cached" in caplog.text
    other.execute("ROLLBACK")
    asyncio.run(cache.aput("k2", ChatResult("y")))  # the cache goes on working
    cache.close()
    assert ResponseCache(db).get("k2").content == "y"


def test_rows_reach_the_disk_without_close_across_event_loops(tmp_path):
    db = tmp_path / "run.db"
    cache = ResponseCache(db)

    async def put_and_wait(key):
        await cache.aput(key, ChatResult(key))
        await asyncio.sleep(0.3)  # past the batch delay: written by the loop itself

    asyncio.run(cache.aput("early", ChatResult("early")))  # this loop ends before its flush
    asyncio.run(put_and_wait("late"))  # a new loop: the flush is set again, and runs
    on_disk = {r[0] for r in sqlite3.connect(db).execute("SELECT key FROM response_cache")}
    assert on_disk == {"early", "late"}
