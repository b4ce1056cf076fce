"""The user's environment is named, not blamed on medsim: a full disk, a read-only place, a
damaged run store, a config file that is not UTF-8. What was saved is kept; the run resumes.

Disk full and read-only are real: a small tmpfs in a private mount namespace (``unshare``),
skipped where the machine allows none; the full disk is also met in-process through SQLite's
own page limit, which raises the same SQLITE_FULL error everywhere.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from medsim.models.config import resolve_model
from medsim.runner import RunConfig, RunStopped, Services, execute_run, load_scenarios, start_run
from medsim.store.db import Store, StoreError
from tests.cli.conftest import REPO
from tests.inproc import medsim as run_medsim
from tests.run.conftest import MCQ


def _namespaces() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null"
                            " || mount -t tmpfs -o size=64k tmpfs /tmp"], capture_output=True)
    return probe.returncode == 0


NAMESPACES = _namespaces()
needs_tmpfs = pytest.mark.skipif(not NAMESPACES, reason="no unprivileged mount namespace here (unshare -rm)")


def in_tmpfs(script: str, size: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """Run ``script`` (sh) with a fresh tmpfs of ``size`` mounted on $T, private to it."""
    mount = tmp_path / "mnt"
    mount.mkdir(exist_ok=True)
    full = f"T={mount}; M='{sys.executable} -m cli.app'; mount -t tmpfs -o size={size} tmpfs $T && {script}"
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(["unshare", "-rm", "sh", "-c", full], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path, env=env)


def statuses(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [row[0] for row in conn.execute("SELECT status FROM episodes")]


def test_a_full_disk_stops_the_run_keeps_what_was_saved_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    store = Store(db)
    config = RunConfig(scenarios=[str(MCQ)], model="baseline", repeats=10, concurrency=2)
    services = Services(clinician=resolve_model("baseline"))
    run_id = start_run(store, config, load_scenarios(config), {"name": "baseline"}, services)
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages + 12}")  # SQLite's own "disk full"
    with pytest.raises(RunStopped) as info:
        asyncio.run(execute_run(store, run_id, config, services))
    assert "no space left on the disk holding" in info.value.reason and "what was saved before is kept" in info.value.reason
    assert "--resume" in (info.value.hint or "")
    store.close()
    saved = statuses(db)
    assert 0 < len(saved) < 80 and set(saved) == {"done"}

    store = Store(db)  # space freed: a new connection has no page limit
    asyncio.run(execute_run(store, run_id, config, services))
    assert statuses(db) == ["done"] * 80
    assert store.get_run(run_id)["status"] == "done"


@needs_tmpfs
def test_a_full_disk_under_the_cli_is_said_with_the_resume_command(tmp_path: Path) -> None:
    out = tmp_path / "copy"
    out.mkdir()
    result = in_tmpfs(f"$M run {MCQ} --model baseline --repeats 10 --db $T/r.sqlite; echo rc=$?; "
                      f"cp $T/r.sqlite* {out}/", "400k", tmp_path)
    text = result.stdout + result.stderr
    assert "rc=75" in text, text
    assert "no space left on the disk holding" in text and "Traceback" not in text and "bug in medsim" not in text
    assert "medsim run --resume" in text
    saved = statuses(out / "r.sqlite")
    assert 0 < len(saved) < 80
    run_id = sqlite3.connect(out / "r.sqlite").execute("SELECT id FROM runs").fetchone()[0]
    resumed = run_medsim("run", "--resume", run_id, "--db", str(out / "r.sqlite"))
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert statuses(out / "r.sqlite") == ["done"] * 80


@needs_tmpfs
def test_a_store_on_a_read_only_file_system_is_read_and_never_blamed_on_medsim(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    assert run_medsim("run", str(MCQ), "--model", "baseline", "--limit", "2", "--db", str(db)).returncode == 0
    run_id = sqlite3.connect(db).execute("SELECT id FROM runs").fetchone()[0]
    script = (f"cp {db} $T/ && mount -o remount,ro $T && "
              f"$M runs --db $T/r.sqlite; echo runs=$?; "
              f"$M report --db $T/r.sqlite --format md; echo report=$?; "
              f"$M run {MCQ} --model baseline --db $T/new.sqlite; echo new=$?; "
              f"$M run --resume {run_id} --db $T/r.sqlite; echo resume=$?")
    result = in_tmpfs(script, "2m", tmp_path)
    text = result.stdout + result.stderr
    assert "runs=0" in text and "report=0" in text and run_id in text, text
    assert "new=2" in text and "resume=2" in text
    assert "read-only file system" in text and "pass --db with a path you can write" in text
    assert "bug in medsim" not in text and "Traceback" not in text


def test_a_damaged_store_is_named_with_its_integrity_check_and_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    assert run_medsim("run", str(MCQ), "--model", "baseline", "--repeats", "8", "--db", str(db)).returncode == 0
    run_id = sqlite3.connect(db).execute("SELECT id FROM runs").fetchone()[0]
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        try:  # the episode table's leaf pages: the middle of the file, where the results are
            pages = [r[0] for r in conn.execute("SELECT pageno FROM dbstat WHERE name = 'episodes' AND pagetype = 'leaf'")]
        except sqlite3.Error:
            count = conn.execute("PRAGMA page_count").fetchone()[0]
            pages = list(range(count // 3, 2 * count // 3))
    assert pages
    with open(db, "r+b") as fh:  # scribble over them, as a bad disk or a copy cut short would
        for number in pages:
            fh.seek((number - 1) * page)
            fh.write(b"\xde\xad\xbe\xef" * (page // 4))
    for args in (["runs"], ["report", run_id, "--format", "json"], ["run", "--resume", run_id]):
        result = run_medsim(*args, "--db", str(db))
        text = result.stdout + result.stderr
        assert result.returncode == 2, (args, text)
        assert f"the run store {db} is damaged" in text and "PRAGMA integrity_check reports" in text, (args, text)
        assert ".recover" in text and "bug in medsim" not in text and "Traceback" not in text


def test_a_models_file_that_is_not_utf8_is_named_with_its_line(tmp_path: Path) -> None:
    models = tmp_path / "models.yaml"
    models.write_bytes("models:\n  qwen:\n    # 本地模型\n    base_url: http://127.0.0.1:8000/v1\n".encode("gb18030"))
    result = run_medsim("run", str(MCQ), "--model", "qwen", "--models-file", str(models),
                        "--db", str(tmp_path / "r.sqlite"))
    assert result.returncode == 2
    assert f"{models}:3:7: byte 0x" in result.stderr and "is not UTF-8" in result.stderr
    assert "iconv -f GB18030" in result.stderr


def test_store_errors_from_sqlite_name_the_file(tmp_path: Path) -> None:
    from medsim.store.db import translate

    full = translate(sqlite3.OperationalError("database or disk is full"), tmp_path / "x.sqlite", "saving")
    assert full.kind == "full" and "x.sqlite" in str(full)
    with pytest.raises(StoreError, match="no run store at"):
        Store(tmp_path / "missing.sqlite", readonly=True)
