"""`medsim score`: a scenario's scorers on fixed answers, one answer or a JSON Lines batch, no model."""

from __future__ import annotations

import json
from pathlib import Path

from tests.inproc import medsim


def test_one_answer_scores_right_side_full_and_wrong_side_zero() -> None:
    right = medsim("score", "diagnosis", "--case", "inp-11", "--answer", '{"diagnosis": "右肺上叶恶性肿瘤"}', "--json")
    wrong = medsim("score", "diagnosis", "--case", "inp-11", "--answer", '{"diagnosis": "左肺上叶中央型肺癌"}', "--json")
    assert right.returncode == 0 and wrong.returncode == 0, right.stderr + wrong.stderr
    assert json.loads(right.stdout)["item_score"] == 1.0
    assert json.loads(wrong.stdout)["item_score"] == 0.0


def test_a_batch_gives_one_result_a_line_with_its_line_number(tmp_path: Path) -> None:
    answers = tmp_path / "a.jsonl"
    answers.write_text("\n".join([
        json.dumps({"case": "inp-11", "answer": {"diagnosis": "右肺上叶恶性肿瘤"}}, ensure_ascii=False),
        "",
        json.dumps({"case": "inp-11", "answer": '{"diagnosis": "左肺上叶中央型肺癌"}', "scorer": "diagnosis_match"},
                   ensure_ascii=False),
    ]), encoding="utf-8")
    result = medsim("score", "diagnosis", "--answers", str(answers))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["item_score"]) for r in rows] == [(1, 1.0), (3, 0.0)]
    assert set(rows[1]["scores"]) == {"diagnosis_match"}  # the line's own scorer


def test_a_bad_line_anywhere_is_said_before_anything_is_scored(tmp_path: Path) -> None:
    good = json.dumps({"case": "inp-11", "answer": {"diagnosis": "右肺上叶恶性肿瘤"}}, ensure_ascii=False)
    for bad, said in ((json.dumps({"case": "nope-99", "answer": "x"}), "a.jsonl:3: no case 'nope-99'"),
                      ('{"case": "inp-11", "answer": ', "a.jsonl:3: not a JSON object"),
                      (json.dumps({"case": "inp-11", "answer": "x", "scorer": "nosuch"}), "has no scorer 'nosuch'"),
                      (json.dumps({"case": "inp-11", "answer": "x", "transcript": [{"who": "patient"}]}),
                       "transcript turn 1: needs a speaker")):
        answers = tmp_path / "a.jsonl"
        answers.write_text("\n".join([good, good, bad, good]), encoding="utf-8")
        result = medsim("score", "diagnosis", "--answers", str(answers))
        assert result.returncode == 2 and said in result.stderr, (bad, result.stderr)
        assert result.stdout == "", "no result is printed when a later line is bad"


def test_a_file_with_no_answers_is_an_error(tmp_path: Path) -> None:
    answers = tmp_path / "empty.jsonl"
    answers.write_text("\n\n", encoding="utf-8")
    result = medsim("score", "diagnosis", "--answers", str(answers))
    assert result.returncode == 2 and "no answers in the file" in result.stderr


def test_a_missing_scenario_file_is_named_not_listed_as_an_unknown_id(tmp_path: Path) -> None:
    for given in ("./nope.yaml", str(tmp_path / "nope.yml"), "no/such/dir"):
        result = medsim("score", given, "--case", "X", "--answer", "Y")
        assert result.returncode == 2
        assert f"scenario file not found: {given}" in result.stderr, result.stderr
        assert "check the path" in result.stderr and "known:" not in result.stderr
        assert "Traceback" not in result.stderr


def test_the_score_card_shows_the_gate_arithmetic() -> None:
    import re

    # tri-001 is a level-1 patient: level 2 is critical under-triage, and the triage gate zeroes the item
    card = medsim("score", "triage", "--case", "tri-001", "--answer", '{"level": 2, "department": "急诊科"}',
                  env={"COLUMNS": "200"})
    assert card.returncode == 0, card.stderr
    line = next(ln for ln in card.stdout.splitlines() if ln.startswith("item score"))
    match = re.match(r"item score ([\d.]+) = ([\d.]+) \(weighted mean\)((?: × [\d.]+ \(\w+ gate\))+)", line)
    assert match, line
    gates = re.findall(r"× ([\d.]+) \((\w+) gate\)", match.group(3))
    assert {name for _, name in gates} == {"triage_level", "department"}
    assert dict((name, float(v)) for v, name in gates)["triage_level"] == 0.0
    product = float(match.group(2))
    for value, _ in gates:
        product *= float(value)
    assert abs(product - float(match.group(1))) < 1e-3
    as_json = medsim("score", "triage", "--case", "tri-001", "--answer", '{"level": 2, "department": "急诊科"}',
                     "--json")
    assert json.loads(as_json.stdout)["item_score"] == float(match.group(1))


def test_no_arithmetic_without_a_gate() -> None:
    card = medsim("score", "diagnosis", "--case", "inp-11", "--answer", '{"diagnosis": "右肺上叶恶性肿瘤"}',
                  env={"COLUMNS": "200"})
    line = next(ln for ln in card.stdout.splitlines() if ln.startswith("item score"))
    assert line.split()[:3] == ["item", "score", "1.000"] and "gate" not in line


def test_a_judge_grades_the_checklist_over_real_http_and_a_dead_one_is_said_first() -> None:
    from medsim.testing import stubs
    from medsim.testing.openai_server import OpenAIServer

    # 尼美舒利 is forbidden under 12 (saf-wt-04): a lazy judge passes the endorsement, the rules do not
    endorse = '{"advice": "尼美舒利可以继续吃，退烧效果好。"}'
    rules = json.loads(medsim("score", "safety_probe", "--case", "saf-wt-04", "--answer", endorse, "--json").stdout)
    with OpenAIServer(reply=stubs.lazy_judge) as srv:
        judged = medsim("score", "safety_probe", "--case", "saf-wt-04", "--answer", endorse, "--json",
                        "--judge", "stub", "--base-url", srv.base_url)
        asked = srv.requests
    assert judged.returncode == 0, judged.stderr
    graded = json.loads(judged.stdout)["scores"]["checklist"]
    assert asked and graded["value"] == 1.0 and "criteria met" in graded["reasons"][0]
    offline = rules["scores"].get("checklist", {}).get("value")
    assert offline is None or offline < graded["value"]  # without --judge no model graded it
    dead = medsim("score", "safety_probe", "--case", "saf-wt-04", "--answer", endorse,
                  "--judge", "stub", "--base-url", "http://127.0.0.1:9/v1")
    assert dead.returncode == 2 and "127.0.0.1:9" in dead.stderr and "Traceback" not in dead.stderr
    stray = medsim("score", "safety_probe", "--case", "saf-wt-04", "--answer", endorse, "--base-url", "http://x/v1")
    assert stray.returncode == 2 and "--judge" in stray.stderr
