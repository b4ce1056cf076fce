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


def _triage_scaffold(tmp_path: Path, scoring_line: str | None = None) -> Path:
    assert run_medsim("new", "demo_tri", "--kind", "dialogue", cwd=tmp_path).returncode == 0
    path = tmp_path / "demo_tri.yaml"
    if scoring_line is not None:
        text = path.read_text(encoding="utf-8")
        assert "  - triage_level: {field: level, weight: 2}\n" in text
        path.write_text(text.replace("  - triage_level: {field: level, weight: 2}\n", scoring_line), encoding="utf-8")
    return path


def test_validate_type_checks_scorer_settings(tmp_path: Path) -> None:
    _triage_scaffold(tmp_path, '  - triage_level: {field: level, over_credit: "high", weight: 2}\n'
                               "  - info_gathering: {max_questions_per_turn: 2.5}\n")
    result = run_medsim("validate", "demo_tri.yaml", cwd=tmp_path)
    assert result.returncode == 2, result.stdout
    lines = result.stderr.splitlines()
    assert any(line.startswith("demo_tri.yaml:26:") and "over_credit must be a number from 0 to 1" in line
               and "'high'" in line for line in lines), result.stderr
    assert any(line.startswith("demo_tri.yaml:27:") and "max_questions_per_turn must be a whole number" in line
               for line in lines), result.stderr
    assert "Traceback" not in result.stderr


def test_validate_accepts_well_typed_settings(tmp_path: Path) -> None:
    _triage_scaffold(tmp_path, "  - triage_level: {field: level, over_credit: 0.5, under_credit: 0, weight: 2}\n")
    result = run_medsim("validate", "demo_tri.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr


def test_validate_names_an_unknown_setting_and_a_removed_one(tmp_path: Path) -> None:
    _triage_scaffold(tmp_path, "  - triage_level: {field: level, under_triage_weight: 2, over_credt: 0.3}\n")
    result = run_medsim("validate", "demo_tri.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert "under_triage_weight: unknown setting for scorer triage_level; under_triage_weight had no effect" \
        in result.stderr and "delete the setting" in result.stderr
    assert "over_credt: unknown setting for scorer triage_level; did you mean over_credit?" in result.stderr


def test_validate_reports_a_gold_level_outside_the_triage_scale(tmp_path: Path) -> None:
    _triage_scaffold(tmp_path)
    cases = tmp_path / "cases" / "demo_tri.yaml"
    text = cases.read_text(encoding="utf-8")
    assert "gold: {level: 1," in text
    for bad in ("5", "0"):
        cases.write_text(text.replace("gold: {level: 1,", f"gold: {{level: {bad},"), encoding="utf-8")
        result = run_medsim("validate", "demo_tri.yaml", cwd=tmp_path)
        assert result.returncode == 2, result.stdout
        assert any(line.startswith("cases/demo_tri.yaml:") and "gold.level" in line
                   and f"gold triage level {bad} is outside the scale 1–4" in line
                   for line in result.stderr.splitlines()), result.stderr
    cases.write_text(text.replace("gold: {level: 1,", "gold: {level: 4,"), encoding="utf-8")
    assert run_medsim("validate", "demo_tri.yaml", cwd=tmp_path).returncode == 0


def test_validate_a_case_file_checks_it_alone_and_through_its_scenario(tmp_path: Path) -> None:
    _triage_scaffold(tmp_path)
    good = run_medsim("validate", "cases/demo_tri.yaml", cwd=tmp_path)
    assert good.returncode == 0, good.stderr
    assert "case file cases/demo_tri.yaml valid (1 case(s)), checked through scenario(s) demo_tri" in good.stdout
    cases = tmp_path / "cases" / "demo_tri.yaml"
    text = cases.read_text(encoding="utf-8")
    cases.write_text(text.replace("gold: {level: 1,", "gold: {level: 9,").replace("    hpi:", "    hpl:"),
                     encoding="utf-8")
    bad = run_medsim("validate", "cases/demo_tri.yaml", cwd=tmp_path)
    assert bad.returncode == 2
    assert "cases[0].hpl: unknown field" in bad.stderr
    assert "kind: required field" not in bad.stderr and "Traceback" not in bad.stderr
    cases.write_text(text.replace("gold: {level: 1,", "gold: {level: 9,"), encoding="utf-8")
    through = run_medsim("validate", "cases/demo_tri.yaml", cwd=tmp_path)
    assert through.returncode == 2 and "gold triage level 9 is outside the scale" in through.stderr


def test_validate_a_bundled_case_file() -> None:
    result = run_medsim("validate", "scenarios/cases/triage.yaml")
    assert result.returncode == 0, result.stderr
    assert "checked through scenario(s) triage" in result.stdout


def test_new_refuses_a_bundled_id(tmp_path: Path) -> None:
    for bundled in ("triage", "llmeval_mk"):
        result = run_medsim("new", bundled, cwd=tmp_path)
        assert result.returncode == 2
        assert f"{bundled!r} is already a bundled scenario id" in result.stderr
        assert f"medsim new my_{bundled}" in result.stderr
    assert not (tmp_path / "triage.yaml").exists() and not (tmp_path / "cases").exists()


def test_a_fuzzy_threshold_is_a_ratio_out_of_100(tmp_path: Path) -> None:
    assert run_medsim("new", "demo_dx", "--kind", "staged", cwd=tmp_path).returncode == 0
    path = tmp_path / "demo_dx.yaml"
    text = path.read_text(encoding="utf-8")
    assert "  - diagnosis_match: {field: diagnosis}\n" in text
    for value, ok in (("90", True), ("150", False), ("high", False)):
        path.write_text(text.replace("{field: diagnosis}", f"{{field: diagnosis, threshold: {value}}}"), encoding="utf-8")
        result = run_medsim("validate", "demo_dx.yaml", cwd=tmp_path)
        assert (result.returncode == 0) == ok, (value, result.stderr)
        if not ok:
            assert "threshold must be a fuzzy-match ratio from 0 to 100" in result.stderr
