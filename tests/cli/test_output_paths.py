"""A path the user gets wrong (--out into a folder that does not exist, --out naming a folder or
a file of the wrong kind, --db naming a folder) is said as such with the fix; exit 2, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

from tests.inproc import medsim as run_medsim
from tests.run.conftest import MCQ


def _said(result, *parts: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    for part in parts:
        assert part in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "bug in medsim" not in result.stderr


def test_report_out_paths_are_checked(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    assert run_medsim("run", str(MCQ), "--model", "baseline", "--limit", "1", "--db", str(db)).returncode == 0
    missing = tmp_path / "no" / "such" / "r.html"
    _said(run_medsim("report", "--db", str(db), "--format", "html", "--out", str(missing)),
          f"folder {missing.parent} does not exist", f"mkdir -p {missing.parent}")
    _said(run_medsim("report", "--db", str(db), "--format", "md", "--out", str(tmp_path)),
          f"--out {tmp_path} is a folder", "give a file path")
    assert run_medsim("report", "--db", str(db), "--format", "md", "--out", str(tmp_path / "r.md")).returncode == 0


def test_db_naming_a_folder_is_said(tmp_path: Path) -> None:
    for args in (["run", str(MCQ), "--model", "baseline"], ["runs"], ["report"]):
        _said(run_medsim(*args, "--db", str(tmp_path)), f"{tmp_path} is a folder, not a run store file",
              f"--db {tmp_path / 'runs.sqlite'}")


def test_import_out_naming_a_file_is_said(tmp_path: Path) -> None:
    bank = tmp_path / "bank.jsonl"
    bank.write_text(json.dumps({"question": "夜盲症缺乏的是", "options": "A 维生素A\nB 维生素C", "answer": "A"},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    _said(run_medsim("import", "mcq", str(bank), "--out", str(bank)), f"--out {bank} is a file, not a folder")
    assert bank.read_text(encoding="utf-8").startswith('{"question"')  # the user's file is untouched
