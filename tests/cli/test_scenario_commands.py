"""validate, list, show, new, schema as a new user meets them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import run_medsim


def test_new_then_break_three_ways(tmp_path: Path) -> None:
    made = run_medsim("new", "chest_pain", "--kind", "dialogue", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    ok = run_medsim("validate", "chest_pain.yaml", cwd=tmp_path)
    assert ok.returncode == 0 and "1 scenario file(s) valid" in ok.stdout

    scenario = tmp_path / "chest_pain.yaml"
    cases = tmp_path / "cases" / "chest_pain.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("kind: dialogue", "kind: chat"), encoding="utf-8")
    cases.write_text(cases.read_text(encoding="utf-8").replace("age: 62", "age: 六十二")
                     .replace("    chief_complaint:", "    chief_complain:"), encoding="utf-8")
    broken = run_medsim("validate", "chest_pain.yaml", cwd=tmp_path)
    assert broken.returncode == 2
    lines = broken.stderr.splitlines()
    assert any(line.startswith("chest_pain.yaml:") and ": kind: " in line for line in lines), broken.stderr
    assert any(line.startswith("cases/chest_pain.yaml:") and "demographics.age" in line for line in lines)
    assert any("chief_complain: unknown field" in line for line in lines), broken.stderr
    assert "Traceback" not in broken.stderr


def test_new_refuses_to_overwrite(tmp_path: Path) -> None:
    assert run_medsim("new", "x1", cwd=tmp_path).returncode == 0
    again = run_medsim("new", "x1", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr


def test_new_rejects_bad_id_and_kind(tmp_path: Path) -> None:
    assert "not a valid scenario id" in run_medsim("new", "Bad-Id", cwd=tmp_path).stderr
    assert "unknown kind" in run_medsim("new", "ok_id", "--kind", "chat", cwd=tmp_path).stderr


def test_validate_bundled_scenarios() -> None:
    result = run_medsim("validate")
    assert result.returncode == 0, result.stderr
    assert "valid" in result.stdout


def test_validate_missing_file_exits_2() -> None:
    result = run_medsim("validate", "no/such/file.yaml")
    assert result.returncode == 2 and "file not found" in result.stderr


def test_list_shows_the_bundled_scenarios() -> None:
    result = run_medsim("list")
    assert result.returncode == 0, result.stderr
    assert "triage" in result.stdout and "预检分诊" in result.stdout and "dialogue" in result.stdout


def test_show_renders_a_scenario_and_a_case() -> None:
    result = run_medsim("show", "triage")
    assert result.returncode == 0, result.stderr
    assert "预检分诊" in result.stdout and "sample case" in result.stdout and "主诉" in result.stdout


def test_unknown_scenario_gets_a_suggestion() -> None:
    result = run_medsim("show", "triag")
    assert result.returncode == 2
    assert "did you mean triage" in result.stderr and "Traceback" not in result.stderr


def test_schema_check_and_export(tmp_path: Path) -> None:
    assert run_medsim("schema", "--check").returncode == 0
    assert run_medsim("schema", "--out", str(tmp_path)).returncode == 0
    schema = json.loads((tmp_path / "scenario.schema.json").read_text(encoding="utf-8"))
    assert "clinician" in schema["properties"] and schema["additionalProperties"] is False


def test_help_does_not_load_heavy_modules() -> None:
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['medsim', '{cmd}']\n"
        "try:\n    runpy.run_module('cli.app', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "heavy = [m for m in ('openai', 'spacy', 'jieba', 'httpx') if m in sys.modules]\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    import os
    import subprocess
    import sys

    from tests.cli.conftest import REPO

    for cmd in ("--help", "list"):
        result = subprocess.run([sys.executable, "-c", probe.format(cmd=cmd)], capture_output=True, text=True,
                                cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
        assert "HEAVY []" in result.stderr, (cmd, result.stderr[-500:])
