"""Every score is shown with what it stands on — items scored of items planned — in show-run,
every report format and compare; incomplete dimension and overall scores are marked; a
rambling model cannot bloat the store or the report; model names cannot inject Markdown."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

from medsim.models.openai_compat import MAX_REPLY_CHARS
from medsim.testing.openai_server import Fault, OpenAIServer
from tests.cli.conftest import run_medsim as run_process
from tests.inproc import medsim as run_medsim
from tests.run.conftest import MCQ, correct_reply


def test_coverage_in_show_run_every_report_format_and_compare(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with OpenAIServer(reply=correct_reply, faults=[Fault("500", marker="血清钾"), Fault("500", marker="血清钠")]) as srv:
        lossy = run_medsim("run", str(MCQ), "--model", "medsim-test", "--base-url", srv.base_url, "--max-attempts", "1",
                           "--db", str(db))
    assert lossy.returncode == 1
    full = run_medsim("run", str(MCQ), "--model", "baseline", "--db", str(db))
    assert full.returncode == 0
    with sqlite3.connect(db) as conn:
        lossy_id, full_id = [r[0] for r in conn.execute("SELECT id FROM runs ORDER BY created")]

    assert "6/8" in run_medsim("runs", "--db", str(db)).stdout
    shown = run_medsim("show-run", lossy_id, "--db", str(db))
    assert "6/8 (75%)" in shown.stdout and "incomplete" in shown.stdout
    report = json.loads(run_medsim("report", lossy_id, "--db", str(db), "--format", "json").stdout)
    (scenario,) = report["scenarios"]
    assert (scenario["scored"], scenario["planned"], scenario["coverage"]) == (6, 8, 0.75)
    assert report["overall"]["complete"] is False
    rows = list(csv.DictReader(io.StringIO(run_medsim("report", lossy_id, "--db", str(db), "--format", "csv").stdout)))
    assert rows[0]["scored"] == "6" and rows[0]["planned"] == "8" and rows[0]["complete"] == "false"
    assert rows[-1]["level"] == "overall" and rows[-1]["complete"] == "false"
    md = run_medsim("report", lossy_id, "--db", str(db), "--format", "md").stdout
    assert "| 6/8 |" in md and "incomplete" in md
    run_medsim("report", lossy_id, "--db", str(db), "--format", "html", "--out", str(tmp_path / "r.html"))
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "6/8" in page and "incomplete" in page

    compared = run_medsim("compare", lossy_id, full_id, "--db", str(db))
    assert compared.returncode == 0
    assert "not ranked: different coverage" in compared.stdout and "coverage differs" in compared.stderr
    assert "--force" in compared.stderr and "too few pairs to call (n=6 < 10)" in compared.stdout
    forced = run_medsim("compare", lossy_id, full_id, "--db", str(db), "--force")
    assert "leaderboard" in forced.stdout and "ranked anyway" in forced.stderr


def test_a_rambling_model_is_capped_and_the_report_stays_small(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    ramble = "我再详细解释一下这个问题的各个方面。" * 12_000  # ~200 KB a reply, max_tokens ignored
    with OpenAIServer(reply=lambda req: ramble + "答案：A", chunks=400) as srv:
        result = run_medsim("run", str(MCQ), "--model", "**rambler** <b>", "--base-url", srv.base_url,
                            "--db", str(db))
        assert result.returncode == 0, result.stderr
        assert {r["max_tokens"] for r in srv.requests} == {4096}  # the default for a single-turn scenario
    with sqlite3.connect(db) as conn:
        longest = conn.execute("SELECT MAX(LENGTH(text)) FROM turns WHERE speaker = 'clinician'").fetchone()[0]
    assert MAX_REPLY_CHARS <= longest < MAX_REPLY_CHARS + 50
    assert db.stat().st_size < 3_000_000
    run_medsim("report", "--db", str(db), "--format", "html", "--out", str(tmp_path / "r.html"))
    assert (tmp_path / "r.html").stat().st_size < 500_000
    md = run_medsim("report", "--db", str(db), "--format", "md").stdout
    assert "\\*\\*rambler\\*\\* &lt;b&gt;" in md and "**rambler**" not in md and "<b>" not in md


def test_flags_show_no_value_placeholder_and_narrow_tables_keep_whole_names(tmp_path: Path) -> None:
    helped = run_process("run", "--help", env={"COLUMNS": "100"})
    flag_lines = [line for line in helped.stdout.splitlines() if "--no-cache" in line or "--help" in line]
    assert flag_lines and not any("<bool>" in line for line in flag_lines), flag_lines
    assert "<float>" in helped.stdout  # options that take a value still say which
    db = tmp_path / "r.sqlite"
    assert run_medsim("run", "medication_consult", "--model", "baseline", "--limit", "1", "--db", str(db)).returncode == 0
    narrow = run_process("show-run", "--db", str(db), "--items", env={"COLUMNS": "60"})
    text = narrow.stdout.replace("│", "").replace(" ", "").replace("\n", "")
    assert "medication_consult" in text and "…" not in narrow.stdout


def test_run_ids_stay_whole_in_the_runs_table_of_an_80_column_terminal(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    for _ in range(2):
        assert run_medsim("run", str(MCQ), "--model", "baseline", "--limit", "1", "--db", str(db)).returncode == 0
    with sqlite3.connect(db) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM runs")]
    for columns in ("80", "60"):
        listed = run_process("runs", "--db", str(db), env={"COLUMNS": columns})
        assert listed.returncode == 0, listed.stderr
        lines = listed.stdout.splitlines()
        assert all(any(run_id in line for line in lines) for run_id in ids), listed.stdout  # copyable into --resume
        assert max(len(line) for line in lines) <= int(columns)
        if columns == "80":  # the model and status whole on the run's own line too
            assert any("baseline" in line and "done" in line for line in lines if ids[0] in line), listed.stdout
    wide = run_process("runs", "--db", str(db), env={"COLUMNS": "160"})
    assert "tokens" in wide.stdout and "cost" in wide.stdout and "show-run RUN" not in wide.stdout
