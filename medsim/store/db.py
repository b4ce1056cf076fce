"""The run store: one SQLite file (WAL) holding runs, episodes, turns, scores and model calls.

Each episode is written in one transaction when it finishes, so a run killed at any moment
loses at most the episodes in flight and the file stays consistent (SQLite's journal does
the rest). API keys never reach this file: run configs are stored as the caller gives them,
and the caller strips secrets (see ``medsim.runner.RunConfig.storable``).

A run being worked holds a **lease** (``run_leases``: process, host, heartbeat): a second
``--resume`` of the same run is refused while the first lives, and a run whose process died
reads as ``interrupted`` rather than ``running`` forever. Failures of the file itself — a
damaged database, a full disk, a read-only place — come out as ``StoreError`` naming the
file and what to do, never as a bare SQLite exception.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    finished REAL,
    model TEXT NOT NULL,
    status TEXT NOT NULL,              -- running | done | interrupted
    medsim_version TEXT NOT NULL,
    config TEXT NOT NULL,              -- JSON, without secrets
    file_hashes TEXT NOT NULL          -- JSON {path: sha256} of scenario and case files
);
CREATE TABLE IF NOT EXISTS episodes (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id),
    scenario_id TEXT NOT NULL,
    case_id TEXT NOT NULL,
    repeat INTEGER NOT NULL,
    status TEXT NOT NULL,              -- done | error
    error TEXT,
    item_score REAL,                   -- weighted mean of the scorers' values; NULL on error
    transcript TEXT NOT NULL,          -- JSON (medsim.sim.transcript.Transcript)
    patient TEXT,                      -- simulator name
    tokens_in INTEGER NOT NULL DEFAULT 0,
    tokens_out INTEGER NOT NULL DEFAULT 0,
    cost REAL NOT NULL DEFAULT 0,
    latency_s REAL NOT NULL DEFAULT 0,
    started REAL NOT NULL,
    finished REAL NOT NULL,
    UNIQUE (run_id, scenario_id, case_id, repeat)
);
CREATE TABLE IF NOT EXISTS turns (
    episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    speaker TEXT NOT NULL,
    text TEXT NOT NULL,
    meta TEXT NOT NULL,
    PRIMARY KEY (episode_id, idx)
);
CREATE TABLE IF NOT EXISTS scores (
    episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
    scorer TEXT NOT NULL,
    value REAL,
    weight REAL NOT NULL,
    reasons TEXT NOT NULL,
    details TEXT NOT NULL,
    error TEXT,
    PRIMARY KEY (episode_id, scorer)
);
CREATE TABLE IF NOT EXISTS model_calls (
    id INTEGER PRIMARY KEY,
    episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
    role TEXT NOT NULL,                -- clinician | patient | judge | embedder
    model TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    estimated INTEGER NOT NULL,
    latency_s REAL NOT NULL,
    cost REAL NOT NULL,
    cached INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    error TEXT
);
CREATE INDEX IF NOT EXISTS episodes_run ON episodes(run_id, scenario_id);
CREATE TABLE IF NOT EXISTS run_leases (
    run_id TEXT PRIMARY KEY,           -- the run a live process is working on
    owner TEXT NOT NULL,               -- host:pid:token of that process
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started REAL NOT NULL,
    heartbeat REAL NOT NULL            -- refreshed every few seconds while the run works
);
"""

HEARTBEAT_S = 5.0  # how often a working run refreshes its lease
STALE_S = 60.0  # a lease from another host with no heartbeat for this long has lapsed
HOST = socket.gethostname()
OWNER = f"{HOST}:{os.getpid()}:{secrets.token_hex(4)}"  # this process


class StoreError(Exception):
    def __init__(self, message: str, hint: str | None = None, *, kind: str = "store"):
        super().__init__(message)
        self.hint = hint
        self.kind = kind  # store | damaged | full | readonly | busy | leased


def pid_alive(pid: int) -> bool:
    """Is process ``pid`` alive on this host? (A zombie is dead: it only waits to be reaped.)"""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process, alive
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def lease_alive(lease: dict[str, Any] | None, now: float | None = None) -> bool:
    if not lease:
        return False
    if lease["owner"] == OWNER:
        return True
    if lease["host"] == HOST:
        return pid_alive(int(lease["pid"]))
    return (now or time.time()) - float(lease["heartbeat"]) < STALE_S


def read_only_fs(path: Path) -> bool:
    """Is ``path`` (or its folder) on a file system mounted read-only?"""
    for candidate in (path, path.parent):
        try:
            return bool(os.statvfs(candidate).f_flag & os.ST_RDONLY)
        except OSError:
            continue
    return False


def _primary(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


def integrity_report(path: Path) -> tuple[str, str]:
    """(what PRAGMA integrity_check says, what can still be read) for a damaged store."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        return f"cannot even be opened ({exc})", "nothing could be read"
    try:
        try:
            lines = [row[0] for row in conn.execute("PRAGMA integrity_check(5)")]
            check = "; ".join(" ".join(line.split("\n")) for line in lines) if lines else "no answer"
        except sqlite3.Error as exc:
            check = f"the check itself failed ({exc})"
        readable = []
        for table, what in (("runs", "run(s)"), ("episodes", "episode(s)")):
            try:
                n = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                readable.append(f"{n} {what}")
            except sqlite3.Error:
                readable.append(f"the {table} table is unreadable")
        return check, ", ".join(readable)
    finally:
        conn.close()


def translate(exc: sqlite3.Error, path: Path, doing: str = "") -> StoreError:
    """A SQLite failure as the user's situation: damaged file, full disk, read-only place,
    or a lock held too long — each with what to do. Anything else stays a real error."""
    code = _primary(exc)
    text = str(exc)
    where = f" while {doing}" if doing else ""
    if code in (11, 26) or "malformed" in text or "not a database" in text:  # CORRUPT, NOTADB
        check, readable = integrity_report(path)
        return StoreError(
            f"the run store {path} is damaged{where}: SQLite says {text!r}; PRAGMA integrity_check reports: "
            f"{check}. Still readable: {readable}.",
            hint=f"copy out what SQLite can still read with `sqlite3 {path} .recover | sqlite3 recovered.sqlite` and "
                 f"use --db recovered.sqlite; keep {path} untouched until then, and start new runs with --db NEW.sqlite",
            kind="damaged")
    if code == 13 or "disk is full" in text or "No space left" in text:  # FULL
        return StoreError(
            f"no space left on the disk holding {path}{where}: what was saved before is kept",
            hint="free some space (or move the store and pass --db), then continue with `medsim run --resume RUN`",
            kind="full")
    if code == 8 or "readonly" in text or "read-only" in text:  # READONLY
        why = "it is on a read-only file system" if read_only_fs(path) else "you lack write permission"
        return StoreError(
            f"{path} cannot be written{where}: {why}",
            hint="pass --db with a path you can write; `medsim runs/report/compare --db` can still read this one",
            kind="readonly")
    if code == 14:  # CANTOPEN
        folder = path.parent
        why = ("the folder is on a read-only file system" if read_only_fs(path) else
               "the folder is not writable (permissions)" if folder.is_dir() and not os.access(folder, os.W_OK)
               else "SQLite cannot open the file there")
        return StoreError(f"cannot open the run store {path}{where}: {why}",
                          hint="pass --db with a path you can write", kind="readonly")
    if code in (5, 6):  # BUSY, LOCKED
        return StoreError(f"the run store {path} stayed locked by another process{where} ({text})",
                          hint="another medsim may be writing to it; wait, or use another --db", kind="busy")
    return StoreError(f"the run store {path} failed{where}: {text}", kind="store")


F = TypeVar("F", bound=Callable[..., Any])


def _guarded(doing: str) -> Callable[[F], F]:
    """Turn a SQLite failure inside a Store method into a StoreError naming the file."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(self: Store, *args: Any, **kwargs: Any) -> Any:
            try:
                return fn(self, *args, **kwargs)
            except sqlite3.Error as exc:
                raise translate(exc, self.path, doing) from None

        return inner  # type: ignore[return-value]

    return wrap


@dataclass
class EpisodeRecord:
    """Everything one finished (or failed) episode writes, in one transaction."""

    run_id: str
    scenario_id: str
    case_id: str
    repeat: int
    status: str
    transcript: dict[str, Any]
    scores: list[dict[str, Any]]
    calls: list[dict[str, Any]]
    item_score: float | None = None
    error: str | None = None
    patient: str | None = None
    started: float = 0.0
    finished: float = 0.0


class Store:
    def __init__(self, path: Path | str, *, readonly: bool = False):
        """Open (or create) the run store. ``readonly``: only read, for reports — works on
        read-only media and never changes the file."""
        self.path = Path(path)
        self.readonly = readonly
        if not self.path.parent.is_dir():
            raise StoreError(f"folder {self.path.parent} does not exist", hint="create it, or pass another --db")
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a run store file",
                             hint=f"pass a file path, e.g. --db {self.path / 'runs.sqlite'}")
        if readonly and not self.path.is_file():
            raise StoreError(f"no run store at {self.path}", hint="pass --db with the file `medsim run` wrote")
        self._lock = threading.Lock()
        try:
            self._conn = self._connect()
            tables = {row[0] for row in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if (tables or readonly) and not tables & {"runs", "meta", "response_cache"}:
                # Someone else's database: adding medsim's tables to it would be rude and confusing.
                self._conn.close()
                raise StoreError(f"{self.path} is an SQLite database, but not a medsim run store",
                                 hint="pass --db with a new file name, or a file `medsim run` wrote")
            if not readonly:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
                self._conn.execute("PRAGMA foreign_keys=ON")
                self._conn.execute("PRAGMA busy_timeout=30000")
                self._conn.executescript(_SCHEMA)
                self._conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            self._has_leases = "run_leases" in tables or not readonly
        except sqlite3.DatabaseError as exc:
            error = translate(exc, self.path, "opening it")
            if error.kind == "store":  # not damage, space or permission: not a store we can read
                error = StoreError(f"{self.path} is not a medsim run store ({exc})",
                                   hint="point --db at another file, or move this one aside")
            raise error from None

    def _connect(self) -> sqlite3.Connection:
        if not self.readonly:
            conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        else:
            # mode=ro still needs the WAL's shared-memory file; on read-only media, where it
            # cannot be made, immutable=1 reads the file as it is.
            conn = None
            for query in ("mode=ro", "immutable=1"):
                try:
                    conn = sqlite3.connect(f"file:{self.path}?{query}", uri=True, timeout=30,
                                           check_same_thread=False, isolation_level=None)
                    conn.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
                    break
                except sqlite3.OperationalError:
                    if conn is not None:
                        conn.close()
                    conn = None
            if conn is None:
                conn = sqlite3.connect(f"file:{self.path}?immutable=1", uri=True, check_same_thread=False,
                                       isolation_level=None)
        conn.row_factory = sqlite3.Row
        return conn

    def close(self) -> None:
        self._conn.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:  # SQLite may have rolled back already (disk full)
                    try:
                        self._conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass  # the original failure is the one to report
                raise

    # ----------------------------------------------------------------- runs
    @_guarded("creating the run")
    def create_run(self, run_id: str, model: str, config: dict[str, Any], version: str,
                   file_hashes: dict[str, str]) -> None:
        now = time.time()
        with self._tx() as db:
            db.execute(
                "INSERT INTO runs (id, created, model, status, medsim_version, config, file_hashes)"
                " VALUES (?, ?, ?, 'running', ?, ?, ?)",
                (run_id, now, model, version, json.dumps(config, ensure_ascii=False),
                 json.dumps(file_hashes)),
            )
            db.execute("INSERT OR REPLACE INTO run_leases VALUES (?, ?, ?, ?, ?, ?)",
                       (run_id, OWNER, HOST, os.getpid(), now, now))

    @_guarded("saving the run's status")
    def set_run_status(self, run_id: str, status: str) -> None:
        """Record the run's status; any status but ``running`` gives up this process's lease."""
        with self._tx() as db:
            db.execute("UPDATE runs SET status = ?, finished = ? WHERE id = ?", (status, time.time(), run_id))
            if status != "running":
                db.execute("DELETE FROM run_leases WHERE run_id = ? AND owner = ?", (run_id, OWNER))

    @_guarded("reading the run's lease")
    def check_lease(self, run_id: str) -> None:
        """Refuse early (StoreError, kind ``leased``) when another live process works ``run_id``."""
        if not self._has_leases:
            return
        row = self._conn.execute("SELECT * FROM run_leases WHERE run_id = ?", (run_id,)).fetchone()
        if row and row["owner"] != OWNER and lease_alive(dict(row)):
            raise self._leased(run_id, dict(row))

    @staticmethod
    def _leased(run_id: str, lease: dict[str, Any]) -> StoreError:
        now = time.time()
        where = "this machine" if lease["host"] == HOST else f"host {lease['host']}"
        return StoreError(
            f"run {run_id} is being worked on by another medsim process (pid {lease['pid']} on {where}, "
            f"started {now - lease['started']:.0f} s ago, last heartbeat {now - lease['heartbeat']:.0f} s ago); "
            "two processes would run the same items twice",
            hint="wait for it to finish, or stop that process; its lease lapses when it dies", kind="leased")

    @_guarded("taking the run's lease")
    def acquire_lease(self, run_id: str) -> None:
        """Claim ``run_id`` for this process, or refuse (StoreError, kind ``leased``) while
        another live process works on it. A dead holder's lease is taken over."""
        now = time.time()
        with self._tx() as db:
            row = db.execute("SELECT * FROM run_leases WHERE run_id = ?", (run_id,)).fetchone()
            lease = dict(row) if row else None
            if lease and lease["owner"] != OWNER and lease_alive(lease, now):
                raise self._leased(run_id, lease)
            db.execute("INSERT OR REPLACE INTO run_leases VALUES (?, ?, ?, ?, ?, ?)",
                       (run_id, OWNER, HOST, os.getpid(), now, now))
            db.execute("UPDATE runs SET status = 'running', finished = NULL WHERE id = ?", (run_id,))

    @_guarded("refreshing the run's lease")
    def heartbeat(self, run_id: str) -> bool:
        """Refresh this process's lease; False when another process has taken the run over."""
        with self._tx() as db:
            cursor = db.execute("UPDATE run_leases SET heartbeat = ? WHERE run_id = ? AND owner = ?",
                                (time.time(), run_id, OWNER))
            return cursor.rowcount == 1

    def _leases(self) -> dict[str, dict[str, Any]]:
        if not self._has_leases:
            return {}
        return {row["run_id"]: dict(row) for row in self._conn.execute("SELECT * FROM run_leases")}

    @staticmethod
    def _effective(run: dict[str, Any], leases: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """A run recorded as running whose process is gone is interrupted, whatever the row says."""
        lease = leases.get(run["id"])
        if run["status"] == "running" and not lease_alive(lease):
            run["status"] = "interrupted"
        if run["status"] == "running" and lease:
            run["worker"] = {"pid": lease["pid"], "host": lease["host"], "heartbeat": lease["heartbeat"]}
        return run

    @_guarded("reading a run")
    def get_run(self, run_id: str) -> dict[str, Any]:
        row = self._conn.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            matches = [r["id"] for r in self._conn.execute("SELECT id FROM runs WHERE id LIKE ?", (f"%{run_id}%",))]
            if len(matches) == 1:
                return self.get_run(matches[0])
            if matches:
                raise StoreError(f"run id {run_id!r} is ambiguous in {self.path}: it matches {len(matches)} runs",
                                 hint=f"give more of the id: {', '.join(matches[:10])}")
            raise StoreError(f"no run {run_id!r} in {self.path}", hint="`medsim runs` lists the stored runs")
        run = self._effective(dict(row), self._leases())
        run["config"] = json.loads(run["config"])
        run["file_hashes"] = json.loads(run["file_hashes"])
        return run

    @_guarded("reading the runs")
    def latest_run_id(self) -> str | None:
        row = self._conn.execute("SELECT id FROM runs ORDER BY created DESC LIMIT 1").fetchone()
        return row["id"] if row else None

    @_guarded("listing the runs")
    def list_runs(self) -> list[dict[str, Any]]:
        rows = self._conn.execute(
            """SELECT r.id, r.created, r.model, r.status,
                      COUNT(e.id) AS episodes,
                      SUM(e.status = 'error') AS errors,
                      SUM(e.status = 'done' AND e.item_score IS NOT NULL) AS scored,
                      json_extract(r.config, '$.planned') AS planned,
                      AVG(e.item_score) AS mean_score,
                      SUM(e.tokens_in + e.tokens_out) AS tokens,
                      SUM(e.cost) AS cost,
                      (SELECT COUNT(*) FROM model_calls c JOIN episodes ce ON ce.id = c.episode_id
                       WHERE ce.run_id = r.id AND c.estimated) AS estimated_calls
               FROM runs r LEFT JOIN episodes e ON e.run_id = r.id
               GROUP BY r.id ORDER BY r.created DESC""").fetchall()
        leases = self._leases()
        out = []
        for row in rows:
            run = self._effective(dict(row), leases)
            planned = json.loads(run["planned"]) if run["planned"] else {}
            run["planned"] = sum(planned.values()) if isinstance(planned, dict) else None
            out.append(run)
        return out

    # ------------------------------------------------------------- episodes
    @_guarded("reading which items are done")
    def done_keys(self, run_id: str) -> set[tuple[str, str, int]]:
        """(scenario, case, repeat) of the episodes that finished cleanly: a resume skips these."""
        rows = self._conn.execute(
            "SELECT scenario_id, case_id, repeat FROM episodes WHERE run_id = ? AND status = 'done'", (run_id,))
        return {(r[0], r[1], r[2]) for r in rows}

    @_guarded("saving an episode")
    def save_episode(self, record: EpisodeRecord) -> int:
        tokens_in = sum(c.get("prompt_tokens", 0) for c in record.calls)
        tokens_out = sum(c.get("completion_tokens", 0) for c in record.calls)
        cost = sum(c.get("cost", 0.0) for c in record.calls)
        latency = sum(c.get("latency_s", 0.0) for c in record.calls if c.get("role") == "clinician")
        with self._tx() as db:
            # A resumed episode replaces the failed attempt it retries.
            db.execute("DELETE FROM episodes WHERE run_id = ? AND scenario_id = ? AND case_id = ? AND repeat = ?",
                       (record.run_id, record.scenario_id, record.case_id, record.repeat))
            cursor = db.execute(
                """INSERT INTO episodes (run_id, scenario_id, case_id, repeat, status, error, item_score,
                       transcript, patient, tokens_in, tokens_out, cost, latency_s, started, finished)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (record.run_id, record.scenario_id, record.case_id, record.repeat, record.status, record.error,
                 record.item_score, json.dumps(record.transcript, ensure_ascii=False), record.patient,
                 tokens_in, tokens_out, cost, latency, record.started, record.finished))
            episode_id = cursor.lastrowid
            db.executemany(
                "INSERT INTO turns VALUES (?, ?, ?, ?, ?)",
                [(episode_id, t["index"], t["speaker"], t["text"], json.dumps(t.get("meta", {}), ensure_ascii=False))
                 for t in record.transcript.get("turns", [])])
            db.executemany(
                "INSERT INTO scores VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(episode_id, s["scorer"], s.get("value"), s.get("weight", 1.0),
                  json.dumps(s.get("reasons", []), ensure_ascii=False),
                  json.dumps(s.get("details", {}), ensure_ascii=False, default=str), s.get("error"))
                 for s in record.scores])
            db.executemany(
                """INSERT INTO model_calls (episode_id, role, model, prompt_tokens, completion_tokens, estimated,
                       latency_s, cost, cached, attempts, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                [(episode_id, c.get("role", "clinician"), c.get("model", ""), c.get("prompt_tokens", 0),
                  c.get("completion_tokens", 0), int(bool(c.get("estimated"))), c.get("latency_s", 0.0),
                  c.get("cost", 0.0), int(bool(c.get("cached"))), c.get("attempts", 1), c.get("error"))
                 for c in record.calls])
        return episode_id

    @_guarded("counting the episodes")
    def status_counts(self, run_id: str) -> dict[str, int]:
        """Episodes per status, counted in SQL (no transcript is read)."""
        rows = self._conn.execute("SELECT status, COUNT(*) FROM episodes WHERE run_id = ? GROUP BY status", (run_id,))
        return {status: n for status, n in rows}

    @_guarded("reading item scores")
    def item_scores(self, run_id: str) -> dict[tuple[str, str, int], float]:
        """(scenario, case, repeat) → item score of every cleanly finished, scored episode."""
        rows = self._conn.execute(
            "SELECT scenario_id, case_id, repeat, item_score FROM episodes"
            " WHERE run_id = ? AND status = 'done' AND item_score IS NOT NULL", (run_id,))
        return {(s, c, r): v for s, c, r, v in rows}

    @_guarded("reading the episodes")
    def episodes(self, run_id: str, scenario_id: str | None = None) -> list[dict[str, Any]]:
        query = "SELECT * FROM episodes WHERE run_id = ?"
        args: list[Any] = [run_id]
        if scenario_id:
            query += " AND scenario_id = ?"
            args.append(scenario_id)
        out = []
        for row in self._conn.execute(query + " ORDER BY scenario_id, case_id, repeat", args):
            episode = dict(row)
            episode["transcript"] = json.loads(episode["transcript"])
            out.append(episode)
        return out

    @_guarded("reading the scores")
    def scores(self, run_id: str) -> list[dict[str, Any]]:
        rows = self._conn.execute(
            """SELECT e.scenario_id, e.case_id, e.repeat, s.* FROM scores s
               JOIN episodes e ON e.id = s.episode_id WHERE e.run_id = ?
               ORDER BY e.scenario_id, e.case_id, e.repeat, s.scorer""", (run_id,)).fetchall()
        out = []
        for row in rows:
            item = dict(row)
            item["reasons"] = json.loads(item["reasons"])
            item["details"] = json.loads(item["details"])
            out.append(item)
        return out

    @_guarded("reading the model calls")
    def call_stats(self, run_id: str) -> dict[str, dict[str, Any]]:
        rows = self._conn.execute(
            """SELECT c.role, COUNT(*) AS calls, SUM(c.cached) AS cached, SUM(c.prompt_tokens) AS prompt_tokens,
                      SUM(c.completion_tokens) AS completion_tokens, SUM(c.cost) AS cost,
                      AVG(c.latency_s) AS mean_latency_s, SUM(c.estimated) AS estimated
               FROM model_calls c JOIN episodes e ON e.id = c.episode_id
               WHERE e.run_id = ? GROUP BY c.role""", (run_id,)).fetchall()
        return {r["role"]: dict(r) for r in rows}
