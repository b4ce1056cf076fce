"""The MCQ importer reads options as real banks write them and says why each skipped line was
skipped; an importer given nothing to import says so and exits non-zero."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medsim.importers.common import ImportFailed
from medsim.importers.mcq import import_mcq, parse_mapping
from medsim.scenario.load import load_scenario
from tests.inproc import medsim as run_medsim

CMEXAM = Path(__file__).resolve().parents[3] / "shared" / "data" / "ext" / "cmexam" / "cmexam_val_first200.jsonl"
MAP = parse_mapping("")


def bank(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "bank.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.skipif(not CMEXAM.exists(), reason="CMExam is not in ../shared/data/ext")
def test_every_cmexam_question_imports_in_the_datasets_own_format(tmp_path: Path) -> None:
    result = run_medsim("import", "mcq", str(CMEXAM), "--id", "cmexam", "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "imported cmexam: 200 case(s)" in result.stdout and "skipped" not in result.stderr
    loaded = load_scenario(tmp_path / "out" / "cmexam.yaml")
    first = loaded.case("cmexam-val-0")
    assert first.options == {"A": "原发病", "B": "出血部位", "C": "出血量", "D": "在胃内停留时间", "E": "以上均非"}
    assert first.gold["choice"] == "C"
    assert all(len(c.options) >= 4 for c in loaded.cases)


@pytest.mark.parametrize("options", [
    "A 肌红蛋白\nB 肌钙蛋白\nC 乳酸脱氢酶",
    "A. 肌红蛋白\nB. 肌钙蛋白\nC. 乳酸脱氢酶",
    "A、肌红蛋白 B、肌钙蛋白 C、乳酸脱氢酶",
    "A．肌红蛋白；B．肌钙蛋白；C．乳酸脱氢酶",
    "(A) 肌红蛋白 (B) 肌钙蛋白 (C) 乳酸脱氢酶",
    {"A": "肌红蛋白", "B": "肌钙蛋白", "C": "乳酸脱氢酶"},
    {"A.": "肌红蛋白", "B.": "肌钙蛋白", "C.": "乳酸脱氢酶"},
    ["A. 肌红蛋白", "B. 肌钙蛋白", "C. 乳酸脱氢酶"],
    ["肌红蛋白", "肌钙蛋白", "乳酸脱氢酶"],
])
def test_option_formats(tmp_path: Path, options) -> None:
    path = bank(tmp_path, [{"question": "急性心肌梗死后最早升高的心肌损伤标志物是", "options": options, "answer": "A"}])
    (scenario,) = import_mcq(path, MAP, "q", "题").scenarios
    assert scenario.cases[0]["options"] == {"A": "肌红蛋白", "B": "肌钙蛋白", "C": "乳酸脱氢酶"}


def test_a_letter_inside_an_option_does_not_split_it(tmp_path: Path) -> None:
    path = bank(tmp_path, [{"question": "夜盲症缺乏的是", "options": "A 维生素 A\nB 维生素 B 1\nC 维生素 C", "answer": "A"}])
    (scenario,) = import_mcq(path, MAP, "q", "题").scenarios
    assert scenario.cases[0]["options"] == {"A": "维生素 A", "B": "维生素 B 1", "C": "维生素 C"}


def test_every_skipped_line_says_why_even_when_nothing_imports(tmp_path: Path) -> None:
    path = bank(tmp_path, [
        {"stem": "题干", "choices": "A 甲\nB 乙", "key": "A"},
        {"question": "题干", "options": "甲、乙、丙", "answer": "A"},
        {"question": "题干", "options": "A 甲\nB 乙", "answer": "E"},
    ])
    with pytest.raises(ImportFailed) as info:
        import_mcq(path, MAP, "q", "题")
    text = str(info.value)
    assert "line 1: no question field 'question', no options field 'options', no answer field 'answer'" in text
    assert "(fields here: stem, choices, key)" in text
    assert "line 2: options text '甲、乙、丙' has no lettered options" in text
    assert "line 3: answer 'E' is not among the options AB" in text
    result = run_medsim("import", "mcq", str(path), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "line 1: no question field" in result.stderr


def test_an_empty_import_exits_non_zero(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    blank = tmp_path / "blank.json"
    blank.write_text("", encoding="utf-8")
    for command, path in (("cmb-clin", empty), ("cmb-clin", blank), ("mcq", blank)):
        result = run_medsim("import", command, str(path), "--out", str(tmp_path / "out"))
        assert result.returncode == 2, (command, path, result.stdout)
        assert "nothing to import" in result.stderr or "is empty" in result.stderr or "no questions" in result.stderr
        assert not (tmp_path / "out").exists()


def test_a_json_array_bank_imports_like_jsonl(tmp_path: Path) -> None:
    rows = [{"question": "夜盲症缺乏的是", "options": "A 维生素A\nB 维生素C", "answer": "A"},
            {"question": "坏血病缺乏的是", "options": "A 维生素A\nB 维生素C", "answer": "B"},
            {"question": "题干", "options": "A 甲\nB 乙", "answer": "E"}]
    for name, text in (("pretty.json", json.dumps(rows, ensure_ascii=False, indent=2)),
                       ("oneline.json", json.dumps(rows, ensure_ascii=False))):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        result = import_mcq(path, MAP, "q", "题")
        (scenario,) = result.scenarios
        assert [c["gold"]["choice"] for c in scenario.cases] == ["A", "B"], name
        assert result.skipped == [("item 3", "answer 'E' is not among the options AB")], name
        assert run_medsim("import", "mcq", str(path), "--out", str(tmp_path / f"out_{name}")).returncode == 0


def test_a_file_that_is_not_json_lines_is_named_with_the_formats_read(tmp_path: Path) -> None:
    cut = tmp_path / "cut.json"
    cut.write_text('[\n  {"question": "夜盲症缺乏的是",\n', encoding="utf-8")
    result = run_medsim("import", "mcq", str(cut), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and f"{cut}:3:1: not valid JSON" in result.stderr, result.stderr
    assert "JSON Lines" in result.stderr and "Traceback" not in result.stderr
    csv_bank = tmp_path / "bank.csv"
    csv_bank.write_text("question,options,answer\n夜盲症缺乏的是,A 维生素A B 维生素C,A\n", encoding="utf-8")
    result = run_medsim("import", "mcq", str(csv_bank), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "line 1: not JSON" in result.stderr
    assert "--map" not in result.stderr and "CSV or Excel bank must be converted" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["mcq", "cmb-clin", "llmeval-med"])
def test_a_bank_that_is_not_utf8_is_named_with_its_line_and_column(tmp_path: Path, command: str) -> None:
    path = tmp_path / "gbk.jsonl"
    path.write_bytes('{"question": "x"}\n{"question": "胸痛三天"}\n'.encode("gb18030"))
    result = run_medsim("import", command, str(path), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert f"{path}:2:15: byte 0x" in result.stderr and "is not UTF-8" in result.stderr, result.stderr
    assert "iconv -f GB18030 -t UTF-8 gbk.jsonl > gbk.utf8.jsonl" in result.stderr and "Traceback" not in result.stderr
