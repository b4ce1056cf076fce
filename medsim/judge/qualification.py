"""Where a judge's calibration is kept, and what a run's report says about its judge.

``medsim judge calibrate`` stores each result in the run store (its own table in the same SQLite
file), keyed by the judge's endpoint, served model and the hash of the prompt it was calibrated
with: the same name on another server, or the same model with another prompt, is another judge.
A run's report looks its judges up by what their scores recorded (``judge_models`` and
``prompt_sha256`` in the checklist score details) and says, per judge and prompt, "fit",
"not fit: …" or "not calibrated".
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

_TABLE = """
CREATE TABLE IF NOT EXISTS judge_calibrations (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    endpoint TEXT NOT NULL,            -- base URL without credentials ('' for an in-process judge)
    model TEXT NOT NULL,               -- the served model name
    name TEXT NOT NULL,                -- the name the judge was given (--judge)
    prompt TEXT NOT NULL,
    prompt_sha256 TEXT NOT NULL,
    fit INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    result TEXT NOT NULL               -- JSON: metrics, reasons, scenarios, every graded answer
);
CREATE INDEX IF NOT EXISTS judge_calibrations_key ON judge_calibrations(endpoint, model, prompt_sha256);
"""


def _connect(path: Path | str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA busy_timeout=30000")
    conn.executescript(_TABLE)
    return conn


def save(path: Path | str, result: Any) -> int:
    """Store one ``CalibrationResult``; returns its row id."""
    data = result.as_dict()
    judge = data["judge"]
    conn = _connect(path)
    try:
        cursor = conn.execute(
            "INSERT INTO judge_calibrations (created, endpoint, model, name, prompt, prompt_sha256, fit, verdict, result)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (time.time(), judge.get("base_url") or "", judge.get("model") or judge.get("name") or "",
             judge.get("name") or "", data["prompt"], data["prompt_sha256"], int(data["fit"]), data["verdict"],
             json.dumps(data, ensure_ascii=False, default=str)))
        return int(cursor.lastrowid)
    finally:
        conn.close()


def lookup(path: Path | str, endpoint: str | None, model: str | None, prompt_sha256: str) -> dict[str, Any] | None:
    """The latest calibration of this judge with this prompt, or None."""
    if not Path(path).exists():
        return None
    conn = _connect(path)
    try:
        row = conn.execute(
            "SELECT * FROM judge_calibrations WHERE endpoint = ? AND model = ? AND prompt_sha256 = ?"
            " ORDER BY created DESC LIMIT 1", (endpoint or "", model or "", prompt_sha256)).fetchone()
    finally:
        conn.close()
    if row is None:
        return None
    out = dict(row)
    out["result"] = json.loads(out["result"])
    return out


def run_judges(path: Path | str, score_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each (judge, prompt) the run's checklist scores used, with its calibration status."""
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in score_rows:
        details = row.get("details") or {}
        if row.get("scorer") != "checklist" or not details.get("prompt_sha256"):
            continue
        for judge in details.get("judge_models") or [{"name": n} for n in details.get("judges", [])]:
            key = (judge.get("base_url") or "", judge.get("model") or judge.get("name") or "", details["prompt_sha256"])
            if key in seen:
                seen[key]["items"] += 1
                continue
            found = lookup(path, *key)
            seen[key] = {"judge": judge.get("name"), "model": key[1], "endpoint": key[0],
                         "prompt": details.get("prompt"), "prompt_sha256": key[2], "items": 1,
                         "status": found["verdict"] if found else "not calibrated",
                         "fit": bool(found["fit"]) if found else None,
                         "calibrated": found["created"] if found else None,
                         "auc": (found["result"]["metrics"].get("auc") if found else None)}
    return list(seen.values())


def describe_status(judge: dict[str, Any]) -> str:
    """One line for a report."""
    who = f"{judge['judge']} ({judge['model']}{' @ ' + judge['endpoint'] if judge['endpoint'] else ''}, " \
          f"prompt {judge['prompt']})"
    if judge["fit"] is None:
        return f"judge {who}: NOT CALIBRATED — its scores are unqualified; run `medsim judge calibrate --judge " \
               f"{judge['judge']}`"
    if not judge["fit"]:
        return f"judge {who}: {judge['status'].upper()} — treat its scores with caution"
    auc = f", AUC {judge['auc']:.2f}" if judge.get("auc") is not None else ""
    return f"judge {who}: calibrated fit{auc}"
