"""The run store: one SQLite file (WAL) holding runs, episodes, turns, scores and model calls.

Each episode is written in one transaction when it finishes, so a run killed at any moment
loses at most the episodes in flight and the file stays consistent (SQLite's journal does
the rest). API keys never reach this file: run configs are stored as the caller gives them,
and the caller strips secrets (see ``medsim.runner.RunConfig.storable``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
"""


class StoreError(Exception):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


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
    def __init__(self, path: Path | str):
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise StoreError(f"folder {self.path.parent} does not exist", hint="create it, or pass another --db")
        self._lock = threading.Lock()
        try:
            self._conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
            self._conn.row_factory = sqlite3.Row
            tables = {row[0] for row in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and not tables & {"runs", "meta", "response_cache"}:
                # Someone else's database: adding medsim's tables to it would be rude and confusing.
                self._conn.close()
                raise StoreError(f"{self.path} is an SQLite database, but not a medsim run store",
                                 hint="pass --db with a new file name, or a file `medsim run` wrote")
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.execute("PRAGMA busy_timeout=30000")
            self._conn.executescript(_SCHEMA)
            self._conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a medsim run store ({exc})",
                             hint="point --db at another file, or move this one aside") from None

    def close(self) -> None:
        self._conn.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    # ----------------------------------------------------------------- runs
    def create_run(self, run_id: str, model: str, config: dict[str, Any], version: str,
                   file_hashes: dict[str, str]) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO runs (id, created, model, status, medsim_version, config, file_hashes)"
                " VALUES (?, ?, ?, 'running', ?, ?, ?)",
                (run_id, time.time(), model, version, json.dumps(config, ensure_ascii=False),
                 json.dumps(file_hashes)),
            )

    def set_run_status(self, run_id: str, status: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE runs SET status = ?, finished = ? WHERE id = ?", (status, time.time(), run_id))

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
        run = dict(row)
        run["config"] = json.loads(run["config"])
        run["file_hashes"] = json.loads(run["file_hashes"])
        return run

    def latest_run_id(self) -> str | None:
        row = self._conn.execute("SELECT id FROM runs ORDER BY created DESC LIMIT 1").fetchone()
        return row["id"] if row else None

    def list_runs(self) -> list[dict[str, Any]]:
        rows = self._conn.execute(
            """SELECT r.id, r.created, r.model, r.status,
                      COUNT(e.id) AS episodes,
                      SUM(e.status = 'error') AS errors,
                      AVG(e.item_score) AS mean_score,
                      SUM(e.tokens_in + e.tokens_out) AS tokens,
                      SUM(e.cost) AS cost
               FROM runs r LEFT JOIN episodes e ON e.run_id = r.id
               GROUP BY r.id ORDER BY r.created DESC""").fetchall()
        return [dict(r) for r in rows]

    # ------------------------------------------------------------- episodes
    def done_keys(self, run_id: str) -> set[tuple[str, str, int]]:
        """(scenario, case, repeat) of the episodes that finished cleanly: a resume skips these."""
        rows = self._conn.execute(
            "SELECT scenario_id, case_id, repeat FROM episodes WHERE run_id = ? AND status = 'done'", (run_id,))
        return {(r[0], r[1], r[2]) for r in rows}

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

    def status_counts(self, run_id: str) -> dict[str, int]:
        """Episodes per status, counted in SQL (no transcript is read)."""
        rows = self._conn.execute("SELECT status, COUNT(*) FROM episodes WHERE run_id = ? GROUP BY status", (run_id,))
        return {status: n for status, n in rows}

    def item_scores(self, run_id: str) -> dict[tuple[str, str, int], float]:
        """(scenario, case, repeat) → item score of every cleanly finished, scored episode."""
        rows = self._conn.execute(
            "SELECT scenario_id, case_id, repeat, item_score FROM episodes"
            " WHERE run_id = ? AND status = 'done' AND item_score IS NOT NULL", (run_id,))
        return {(s, c, r): v for s, c, r, v in rows}

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

    def call_stats(self, run_id: str) -> dict[str, dict[str, Any]]:
        rows = self._conn.execute(
            """SELECT c.role, COUNT(*) AS calls, SUM(c.cached) AS cached, SUM(c.prompt_tokens) AS prompt_tokens,
                      SUM(c.completion_tokens) AS completion_tokens, SUM(c.cost) AS cost,
                      AVG(c.latency_s) AS mean_latency_s, SUM(c.estimated) AS estimated
               FROM model_calls c JOIN episodes e ON e.id = c.episode_id
               WHERE e.run_id = ? GROUP BY c.role""", (run_id,)).fetchall()
        return {r["role"]: dict(r) for r in rows}
