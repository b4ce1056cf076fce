"""`medsim patient ask`: a case's simulated patient answers without a clinician, in a subprocess
as a user runs it; bad input gets a message and exit 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

from medsim.testing.openai_server import OpenAIServer, last_user_message
from tests.cli.conftest import run_medsim


def test_one_question_prints_topics_and_reply():
    result = run_medsim("patient", "ask", "triage", "--case", "tri-001", "--question", "家里有人有心脏病吗？")
    assert result.returncode == 0, result.stderr
    assert "topics: family_history" in result.stdout
    assert "心梗" in result.stdout  # his father died of MI: 心脏病 covers it


def test_lines_as_json_one_object_per_question(tmp_path: Path):
    questions = tmp_path / "q.txt"
    questions.write_text("# a comment line\n哪里不舒服？\n\n抽烟不？一天抽几包？\n疼了有多大一会儿了？\n", encoding="utf-8")
    result = run_medsim("patient", "ask", "triage", "--case", "tri-001", "--lines", str(questions), "--json")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["question"] for r in rows] == ["哪里不舒服？", "抽烟不？一天抽几包？", "疼了有多大一会儿了？"]
    assert all({"question", "topics", "reply"} <= set(r) for r in rows)
    assert rows[1]["topics"] == ["smoking"] and "20" in rows[1]["reply"]  # the record's 每日20支
    assert rows[2]["topics"] == ["duration"] and "62岁" not in rows[2]["reply"]


def test_lines_from_stdin_fresh_patients():
    result = run_medsim("patient", "ask", "consultation", "--case", "con-031", "--lines", "-", "--fresh", "--json",
                        input="吃饭怎么样？\n吃饭怎么样？\n")
    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["reply"] == second["reply"]  # a fresh patient: no 刚才说过了
    assert "食欲" in first["reply"] or "胃口" in first["reply"]


def test_unknown_case_and_scenario_suggest_the_right_id():
    result = run_medsim("patient", "ask", "triage", "--case", "tri-01", "--question", "哪里不舒服？")
    assert result.returncode == 2
    assert "no case 'tri-01'" in result.stderr and "did you mean" in result.stderr
    result = run_medsim("patient", "ask", "triag", "--case", "tri-001", "--question", "哪里不舒服？")
    assert result.returncode == 2 and "did you mean triage" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_arguments_are_explained(tmp_path: Path):
    neither = run_medsim("patient", "ask", "triage", "--case", "tri-001")
    both = run_medsim("patient", "ask", "triage", "--case", "tri-001", "-q", "x", "--lines", "-")
    missing = run_medsim("patient", "ask", "triage", "--case", "tri-001", "--lines", str(tmp_path / "none.txt"))
    unknown = run_medsim("patient", "ask", "triage", "--case", "tri-001", "-q", "x", "--patient", "robot")
    for result in (neither, both, missing, unknown):
        assert result.returncode == 2 and "error:" in result.stderr and "Traceback" not in result.stderr
    assert "no such file" in missing.stderr and "rule | " not in unknown.stderr and "llm:MODEL" in unknown.stderr


def test_llm_patient_over_http():
    def reply(req: dict) -> str:
        return "医生，我胸口疼。" if "开场白" in last_user_message(req) else "没有什么过敏的。"

    with OpenAIServer(reply=reply) as server:
        result = run_medsim("patient", "ask", "triage", "--case", "tri-001", "--question", "对什么药过敏吗？",
                            "--patient", "llm:patient-model", "--base-url", server.base_url, "--json",
                            env={"OPENAI_API_KEY": "EMPTY"})
    assert result.returncode == 0, result.stderr
    row = json.loads(result.stdout.splitlines()[-1])
    assert row["patient"] == "llm:patient-model" and row["reply"] == "没有什么过敏的。"
    assert "allergies" in row["topics"]
