"""An answer read only after repair (single quotes, Chinese punctuation, key: value lines) is scored as
read, and said so: per item in the HTML report, counted per scenario in show-run."""

from __future__ import annotations

from pathlib import Path

from medsim.scenario.schema import AnswerSpec
from medsim.sim.answer import KEY_VALUE_NOTE, REPAIRED_NOTE, parse_answer
from medsim.testing.openai_server import OpenAIServer
from tests.inproc import medsim as run_medsim

SPEC = AnswerSpec(format="json", fields={"level": "int", "department": "str"})


def test_the_parser_says_how_it_read_an_answer() -> None:
    strict = parse_answer('分诊如下：\n```json\n{"level": 2, "department": "心内科"}\n```', SPEC)
    assert strict.value == {"level": 2, "department": "心内科"} and strict.note is None
    repaired = parse_answer("{'level': 2，'department': '心内科'}", SPEC)
    assert repaired.value == {"level": 2, "department": "心内科"} and repaired.note == REPAIRED_NOTE
    unclosed = parse_answer('{"level": 2, "department": "心内科"', SPEC)
    assert unclosed.value == {"level": 2, "department": "心内科"} and unclosed.note == REPAIRED_NOTE
    lines = parse_answer("level: 2\ndepartment: 心内科", SPEC)
    assert lines.value == {"level": 2, "department": "心内科"} and lines.note == KEY_VALUE_NOTE


def test_repaired_answers_are_counted_in_show_run_and_marked_in_the_html_report(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite")
    with OpenAIServer(reply=lambda req: "{'diagnosis': '急性阑尾炎'，'tests': ['血常规']}") as srv:
        run = run_medsim("run", "diagnosis", "--model", "m", "--base-url", srv.base_url, "--limit", "2", "--db", db)
    assert run.returncode == 0, run.stderr
    run_id = next(w for w in run.stdout.split() if w.startswith("r2") and "-" in w).rstrip(":")
    shown = run_medsim("show-run", run_id, "--db", db)
    assert f"answer format diagnosis: 2/2 answers {REPAIRED_NOTE}" in " ".join(shown.stdout.split())
    page = tmp_path / "r.html"
    run_medsim("report", run_id, "--db", db, "--format", "html", "--out", str(page))
    assert page.read_text(encoding="utf-8").count("answer format: not valid JSON as written") == 2

    with OpenAIServer(reply=lambda req: '{"diagnosis": "急性阑尾炎", "tests": ["血常规"]}') as srv:
        clean = run_medsim("run", "diagnosis", "--model", "m", "--base-url", srv.base_url, "--limit", "2", "--db", db)
    clean_id = next(w for w in clean.stdout.split() if w.startswith("r2") and "-" in w).rstrip(":")
    assert "answer format" not in run_medsim("show-run", clean_id, "--db", db).stdout
