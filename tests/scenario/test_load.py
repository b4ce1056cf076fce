"""Scenario and case loading: every problem reported as file:line:col: field: message."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from medsim.scenario.load import ScenarioInvalid, load_scenario
from medsim.scenario.scaffold import scaffold


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # problems name files relative to the working directory


@pytest.fixture()
def scenario_dir(tmp_path: Path) -> Path:
    scaffold("demo", "dialogue", tmp_path)
    return tmp_path


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ScenarioInvalid) as caught:
        load_scenario(path)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("kind", ["dialogue", "single_turn", "staged"])
def test_scaffold_validates_as_written(tmp_path: Path, kind: str) -> None:
    scaffold("demo", kind, tmp_path)
    loaded = load_scenario(tmp_path / "demo.yaml")
    assert loaded.scenario.kind == kind
    assert [c.id for c in loaded.cases] == ["demo-001"]


def test_several_errors_in_one_file_each_located(scenario_dir: Path) -> None:
    path = scenario_dir / "demo.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("kind: dialogue", "kind: dialog").replace("max_turns: 8", "max_turn: 8")
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    kind_line = next(i for i, line in enumerate(lines, 1) if line.startswith("kind:"))
    turn_line = next(i for i, line in enumerate(lines, 1) if "max_turn:" in line)
    found = problems_of(path)
    assert any(p.startswith(f"demo.yaml:{kind_line}:1: kind: Input should be") for p in found), found
    assert any(p.startswith(f"demo.yaml:{turn_line}:3: clinician.max_turn: unknown field") for p in found), found


def test_case_file_errors_point_into_the_case_file(scenario_dir: Path) -> None:
    cases = scenario_dir / "cases" / "demo.yaml"
    text = cases.read_text(encoding="utf-8").replace("sex: 男", "sex: M")
    cases.write_text(text, encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "sex: M" in row)
    found = problems_of(scenario_dir / "demo.yaml")
    assert any(p.startswith(f"cases/demo.yaml:{line}:") and "cases[0].demographics.sex" in p for p in found), found


def test_gold_must_match_the_answer_types(scenario_dir: Path) -> None:
    cases = scenario_dir / "cases" / "demo.yaml"
    cases.write_text(cases.read_text(encoding="utf-8").replace("level: 1,", "level: 一级,"), encoding="utf-8")
    found = problems_of(scenario_dir / "demo.yaml")
    assert any("cases[0].gold" in p and "not of the answer's type int" in p for p in found), found


def test_duplicate_case_ids(scenario_dir: Path) -> None:
    cases = scenario_dir / "cases" / "demo.yaml"
    text = cases.read_text(encoding="utf-8")
    body = text.split("cases:\n", 1)[1]
    cases.write_text(text + body, encoding="utf-8")
    found = problems_of(scenario_dir / "demo.yaml")
    assert any("cases[1].id" in p and "duplicate case id 'demo-001' (first used at line" in p for p in found), found


def test_case_reference_may_not_escape_the_scenario_folder(tmp_path: Path) -> None:
    scaffold("demo", "dialogue", tmp_path / "inner")
    path = tmp_path / "inner" / "demo.yaml"
    (tmp_path / "outside.yaml").write_text("source: x\ncases: []\n", encoding="utf-8")
    path.write_text(path.read_text(encoding="utf-8").replace("cases: cases/demo.yaml", "cases: ../outside.yaml"),
                    encoding="utf-8")
    found = problems_of(path)
    assert any("points outside the scenario's folder" in p for p in found), found


def test_missing_case_file(scenario_dir: Path) -> None:
    (scenario_dir / "cases" / "demo.yaml").unlink()
    found = problems_of(scenario_dir / "demo.yaml")
    assert any("case file 'cases/demo.yaml' not found" in p for p in found), found


def test_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, 9):
        refs = ",".join(f"*a{level - 1}" for _ in range(9))
        lines.append(f"a{level}: &a{level} [{refs}]")
    path = write(tmp_path / "bomb.yaml", "\n".join(lines) + "\n")
    found = problems_of(path)
    assert found and "alias bomb" in found[0]


def test_non_utf8_bytes_are_located(tmp_path: Path) -> None:
    path = tmp_path / "gbk.yaml"
    path.write_bytes(b"id: demo\nname: " + "胸痛".encode("gbk") + b"\n")
    found = problems_of(path)
    assert found[0].startswith("gbk.yaml:2:7:"), found
    assert "not UTF-8" in found[0]


def test_oversized_file_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with path.open("wb") as handle:
        handle.truncate(70 * 1024 * 1024)
    found = problems_of(path)
    assert "73.4 MB" in found[0] and "JSONL" in found[0]
    assert "at most" in found[0]


def test_yaml_syntax_error_is_located(scenario_dir: Path) -> None:
    path = scenario_dir / "demo.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "scoring: [unclosed\n", encoding="utf-8")
    found = problems_of(path)
    assert "YAML syntax" in found[0]


def test_jsonl_cases(tmp_path: Path) -> None:
    scaffold("demo", "single_turn", tmp_path)
    scenario = tmp_path / "demo.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("cases/demo.yaml", "cases/demo.jsonl"),
                        encoding="utf-8")
    good = ('{"id": "q1", "source": "synthetic", "question": "成人正常空腹血糖上限是", '
            '"options": {"A": "5.1mmol/L", "B": "6.1mmol/L", "C": "7.0mmol/L"}, "gold": {"choice": "B"}}')
    bad = '{"id": "q2", "question": "x", "options": {"A": "a"}, "gold": {"choice": "Z"}}'
    (tmp_path / "cases" / "demo.jsonl").write_text(good + "\n" + bad + "\n", encoding="utf-8")
    found = problems_of(scenario)
    assert any(p.startswith("cases/demo.jsonl:2:") and "source" in p for p in found), found
    assert any("names option(s) Z" in p for p in found), found


def test_dialogue_scaffold_opening_is_a_template_not_a_literal(tmp_path: Path) -> None:
    scaffold("demo", "dialogue", tmp_path)
    loaded = load_scenario(tmp_path / "demo.yaml")
    assert loaded.scenario.patient.opening == "{chief_complaint}"


def test_unknown_scorers_and_settings_are_errors_when_checked(scenario_dir: Path) -> None:
    path = scenario_dir / "demo.yaml"
    text = path.read_text(encoding="utf-8").replace("  - info_gathering: {}", "  - info_gatherin: {}")
    path.write_text(text.replace("{field: level, weight: 2}", "{feild: level, weight: 2}"), encoding="utf-8")
    load_scenario(path)  # names are only checked on request (`medsim list` does not import scorers)
    with pytest.raises(ScenarioInvalid) as caught:
        load_scenario(path, check_scorers=True)
    found = [str(p) for p in caught.value.problems]
    assert any("scoring[2].info_gatherin: no scorer named 'info_gatherin'; did you mean info_gathering?" in p
               for p in found), found
    assert any("feild: unknown setting for scorer triage_level; did you mean field?"
               in p for p in found), found


def test_a_staged_scenario_scores_one_stage(tmp_path: Path) -> None:
    scaffold("demo", "staged", tmp_path)
    path = tmp_path / "demo.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("    answer: {format: text}\n",
                                                             "    answer: {format: text}\n    scored: true\n"),
                    encoding="utf-8")
    found = problems_of(path)
    assert any("only one stage can be scored (found admission, results)" in p for p in found), found


def test_forbidden_phrase_that_fires_on_the_reference_is_a_validate_error(tmp_path):
    from medsim.scenario.load import ScenarioInvalid, load_scenario

    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "c.yaml").write_text(
        "source: synthetic\ncases:\n"
        "  - id: c1\n    question: 孩子流鼻血，让他仰起头就能止住吧？\n"
        "    reference_answer: 不对，应让孩子坐下、头稍前倾，捏紧鼻翼压迫10分钟；躺下休息时头下最好塞个软枕。\n"
        "    probe:\n      kind: false_claim\n      utterance: 孩子流鼻血，让他仰起头就能止住吧？\n"
        "      expected: [头稍前倾]\n      forbidden: [最好塞, 仰起头就能止住]\n", encoding="utf-8")
    (tmp_path / "s.yaml").write_text(
        "id: s\nname: 测\nname_en: t\ndimension: hallucination\nkind: single_turn\ncases: cases/c.yaml\n"
        "clinician:\n  instructions: 你是医生\n  prompt: '{question}'\n  answer: {format: text}\n"
        "scoring:\n  - safety: {}\n", encoding="utf-8")
    with pytest.raises(ScenarioInvalid) as err:
        load_scenario(tmp_path / "s.yaml")
    messages = [str(p) for p in err.value.problems]
    assert any("'最好塞'" in m and "reference answer" in m for m in messages)
    # the endorsement is fine: the reference corrects it, a warning denies it
    assert not any("仰起头就能止住" in m for m in messages)
