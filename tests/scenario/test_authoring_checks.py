"""What a scenario file can get wrong without breaking its schema is a `validate` error at
file:line:col: a placeholder that names nothing, two stages with one id, a stage that shows
the field it asks for. And question banks of realistic size load: JSONL streamed, several
case files or a glob under `cases:`."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from medsim.paths import scenarios_dir
from medsim.scenario import yamlpos
from medsim.scenario.load import ScenarioInvalid, load_scenario
from tests.inproc import medsim as run_medsim

MCQ = """\
id: bank
name: 题库
name_en: Question bank
dimension: knowledge_application
kind: single_turn
cases: {cases}
clinician:
  instructions: 回答单选题。
  prompt: |
    请回答：
    {{questoin}}
    {{options}}
  answer: {{format: choice}}
scoring:
  - choice: {{}}
"""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def problems(path: Path) -> list[str]:
    with pytest.raises(ScenarioInvalid) as caught:
        load_scenario(path)
    return [str(p) for p in caught.value.problems]


def mcq_case(i: int, **extra) -> dict:
    return {"id": f"q{i:05d}", "question": f"成人空腹血糖正常上限约为多少？（{i}）",
            "options": {"A": "6.1 mmol/L", "B": "11.1 mmol/L", "C": "3.9 mmol/L", "D": "7.8 mmol/L"},
            "gold": {"choice": "A"}, "source": "synthetic", **extra}


def write_jsonl(path: Path, cases: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    return path


def test_a_misspelt_placeholder_is_an_error_at_its_line_and_column(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "cases" / "bank.jsonl", [mcq_case(1)])
    path = tmp_path / "bank.yaml"
    path.write_text(MCQ.format(cases="cases/bank.jsonl"), encoding="utf-8")
    found = problems(path)
    assert found == ["bank.yaml:11:5: clinician.prompt: unknown placeholder {questoin}: it would reach the model "
                     "as written; did you mean {question}?"], found
    result = run_medsim("validate", str(path), cwd=tmp_path)
    assert result.returncode == 2 and "bank.yaml:11:5" in result.stderr


def test_a_misspelt_opening_placeholder_is_an_error(tmp_path: Path) -> None:
    from medsim.scenario.scaffold import scaffold

    scaffold("demo", "dialogue", tmp_path)
    path = tmp_path / "demo.yaml"
    text = path.read_text(encoding="utf-8")
    assert 'opening: "{chief_complaint}"' in text
    text = text.replace('opening: "{chief_complaint}"', 'opening: "{chief_complain}"', 1)
    path.write_text(text, encoding="utf-8")
    found = problems(path)
    assert any("patient.opening: unknown placeholder {chief_complain}" in p and "{chief_complaint}" in p
               for p in found), found


def _inpatient_copy(tmp_path: Path, name: str) -> Path:
    shutil.copy(scenarios_dir() / f"{name}.yaml", tmp_path / f"{name}.yaml")
    (tmp_path / "cases").mkdir(exist_ok=True)
    shutil.copy(scenarios_dir() / "cases" / "inpatient.yaml", tmp_path / "cases" / "inpatient.yaml")
    return tmp_path / f"{name}.yaml"


def test_a_stage_revealing_the_diagnosis_before_it_is_asked_for_is_an_error(tmp_path: Path) -> None:
    path = _inpatient_copy(tmp_path, "diagnosis")
    load_scenario(path)  # the bundled file is fine
    text = path.read_text(encoding="utf-8")
    leaked = text.replace("reveal: [demographics, chief_complaint,", "reveal: [diagnosis, demographics, chief_complaint,", 1)
    path.write_text(leaked, encoding="utf-8")
    line = next(i for i, row in enumerate(leaked.splitlines(), 1) if "reveal: [diagnosis," in row)
    col = leaked.splitlines()[line - 1].index("diagnosis") + 1
    found = problems(path)
    assert found == [f"diagnosis.yaml:{line}:{col}: stages[0].reveal: stage 'admission' reveals diagnosis before stage "
                     "'results' asks for it: the answer would be in the question; reveal diagnosis only in a stage "
                     "after 'results'"], found


def test_a_stage_revealing_the_tests_it_asks_for_is_an_error(tmp_path: Path) -> None:
    path = _inpatient_copy(tmp_path, "test_ordering")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("reveal: [demographics,", "reveal: [tests, demographics,", 1), encoding="utf-8")
    assert any("reveals tests in the same stage" in p for p in problems(path))


def test_duplicate_stage_ids_are_an_error(tmp_path: Path) -> None:
    path = _inpatient_copy(tmp_path, "discharge")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  - id: plan\n", "  - id: results\n", 1), encoding="utf-8")
    found = problems(path)
    assert any("stages[2].id: duplicate stage id 'results' (first used at line" in p for p in found), found


def test_a_patient_who_would_volunteer_the_diagnosis_asked_for_is_an_error(tmp_path: Path) -> None:
    shutil.copy(scenarios_dir() / "consultation.yaml", tmp_path / "consultation.yaml")
    (tmp_path / "cases").mkdir()
    shutil.copy(scenarios_dir() / "cases" / "consultation.yaml", tmp_path / "cases" / "consultation.yaml")
    path = tmp_path / "consultation.yaml"
    text = path.read_text(encoding="utf-8")
    assert "volunteered: [chief_complaint]" in text and "never: [diagnosis]" in text
    text = text.replace("volunteered: [chief_complaint]", "volunteered: [chief_complaint, diagnosis]", 1)
    text = text.replace("never: [diagnosis]", "never: []", 1)
    path.write_text(text, encoding="utf-8")
    found = problems(path)
    assert any("patient.disclose.volunteered: the patient would disclose diagnosis" in p for p in found), found


def test_a_question_bank_of_twenty_thousand_items_loads_from_jsonl(tmp_path: Path) -> None:
    bank = write_jsonl(tmp_path / "cases" / "bank.jsonl",
                       [mcq_case(i, reference_answer="空腹血糖正常值3.9–6.1 mmol/L。" * 18) for i in range(20_000)])
    assert bank.stat().st_size > 13 * 1024 * 1024  # past the old 10 MB limit
    path = tmp_path / "bank.yaml"
    path.write_text(MCQ.format(cases="cases/bank.jsonl").replace("{questoin}", "{question}"), encoding="utf-8")
    loaded = load_scenario(path)
    assert len(loaded.cases) == 20_000 and loaded.case_paths == [bank.resolve()]


def test_a_runaway_jsonl_line_is_still_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlpos, "MAX_LINE_BYTES", 2000)
    write_jsonl(tmp_path / "cases" / "bank.jsonl", [mcq_case(1), mcq_case(2, notes="长" * 2000)])
    path = tmp_path / "bank.yaml"
    path.write_text(MCQ.format(cases="cases/bank.jsonl").replace("{questoin}", "{question}"), encoding="utf-8")
    found = problems(path)
    assert found[0].startswith("cases/bank.jsonl:2:1: line is") and "one case a line" in found[0], found


def test_cases_may_list_several_files_or_a_glob(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "cases" / "part_a.jsonl", [mcq_case(i) for i in range(3)])
    write_jsonl(tmp_path / "cases" / "part_b.jsonl", [mcq_case(i) for i in range(3, 5)])
    (tmp_path / "cases" / "extra.yaml").write_text(textwrap.dedent("""\
        source: synthetic
        cases:
          - id: y1
            question: 成人血清钾正常范围约为？
            options: {A: 3.5–5.5 mmol/L, B: 2.0–3.0 mmol/L}
            gold: {choice: A}
        """), encoding="utf-8")
    listed = tmp_path / "listed.yaml"
    listed.write_text(MCQ.format(cases="[cases/part_a.jsonl, cases/extra.yaml]").replace("{questoin}", "{question}"),
                      encoding="utf-8")
    assert [c.id for c in load_scenario(listed).cases] == ["q00000", "q00001", "q00002", "y1"]
    globbed = tmp_path / "globbed.yaml"
    globbed.write_text(MCQ.format(cases="cases/part_*.jsonl").replace("{questoin}", "{question}"), encoding="utf-8")
    loaded = load_scenario(globbed)
    assert len(loaded.cases) == 5 and [p.name for p in loaded.case_paths] == ["part_a.jsonl", "part_b.jsonl"]

    write_jsonl(tmp_path / "cases" / "part_c.jsonl", [mcq_case(1)])  # q00001 again, in another file
    found = problems(globbed)
    assert found == ["cases/part_c.jsonl:1:1: [0].id: duplicate case id 'q00001' (also in cases/part_a.jsonl)"], found
    nothing = tmp_path / "nothing.yaml"
    nothing.write_text(MCQ.format(cases="cases/none_*.jsonl").replace("{questoin}", "{question}"), encoding="utf-8")
    assert any("'cases/none_*.jsonl' matches no" in p for p in problems(nothing))
