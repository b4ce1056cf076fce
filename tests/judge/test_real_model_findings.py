"""What the session against a real model served by llama.cpp found (bench/data/real_model_check.md),
each reproduced over real HTTP with the stub server."""

from __future__ import annotations

from pathlib import Path

from medsim.testing.openai_server import Fault, OpenAIServer
from tests.cli.conftest import run_medsim


def _models_yaml(tmp_path: Path, base_url: str) -> Path:
    # one attempt per call, and a breaker that opens after its minimum number of failures
    path = tmp_path / "models.yaml"
    path.write_text(f"models:\n  busy:\n    base_url: {base_url}\n    model: qwen\n    max_attempts: 1\n"
                    f"    stop_after_s: 0.001\n", encoding="utf-8")
    return path


def test_patient_calibrate_says_the_endpoint_failed_not_that_medsim_has_a_bug(tmp_path: Path) -> None:
    """Seen: a patient call queued behind another client's request on a one-slot server hit the
    idle timeout, and the command ended in 'internal error (EndpointDown) … this is a bug in medsim'."""
    with OpenAIServer(reply=lambda req: "我胸口疼。", faults=[Fault("500")]) as srv:
        models = _models_yaml(tmp_path, srv.base_url)
        result = run_medsim("patient", "calibrate", "--patient", "llm:busy", "--models-file", str(models),
                            "--case", "triage:tri-001")
    assert result.returncode == 75, result.stderr + result.stdout
    assert "the patient model could not be reached, nothing was calibrated" in result.stderr
    assert "idle_timeout_s" in result.stderr  # how to fix it for a slow or busy server
    assert "bug in medsim" not in result.stderr and "Traceback" not in result.stderr


def test_judge_calibrate_stops_on_a_down_endpoint_instead_of_calling_the_judge_unfit(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    with OpenAIServer(reply=lambda req: '{"判断依据": "好", "得分": "[5]"}', faults=[Fault("500")]) as srv:
        models = _models_yaml(tmp_path, srv.base_url)
        result = run_medsim("judge", "calibrate", "medication_consult", "--judge", "busy", "--models-file", str(models),
                            "--limit", "1", "--repeats", "1", "--runs", "1", "--db", str(db))
        calls = len(srv.requests)
    assert result.returncode == 75, result.stderr + result.stdout
    assert "the judge could not be reached, nothing was calibrated" in result.stderr
    assert "not fit" not in result.stdout and "Traceback" not in result.stderr
    assert calls < 9  # stopped when the breaker opened, not after grading every answer
    if db.exists():  # nothing stored as this judge's verdict
        import sqlite3

        with sqlite3.connect(db) as conn:
            tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
            assert "judge_calibrations" not in tables or not conn.execute(
                "select count(*) from judge_calibrations").fetchone()[0]


def _drops_the_last_criterion(req: dict) -> str:
    """Like Qwen2.5-0.5B on a 9-criterion rubric: a well-formed JSON verdict that leaves the last
    criterion out — and, told which one is missing, gives them all."""
    import json
    import re

    messages = req["messages"]
    prompt = messages[0]["content"]
    n = len(re.findall(r"^\d+\. \[", prompt, re.MULTILINE))
    told = len(messages) > 1 and f"第 {n} 条" in messages[-1]["content"]
    ids = range(1, n + 1) if told else range(1, n)
    return "```json\n" + json.dumps({"results": [{"id": str(i), "met": i == 1, "reason": "…"} for i in ids]},
                                    ensure_ascii=False) + "\n```"


def _grade_criteria(srv: OpenAIServer, retries: int):
    import asyncio

    from medsim.models.openai_compat import OpenAICompatModel
    from medsim.models.retry import RetryPolicy
    from medsim.scenario.registry import find_case
    from medsim.scoring.base import ScoreInput
    from medsim.scoring.checklist import score_checklist
    from medsim.sim.transcript import Transcript

    scenario, case = find_case("saf-wt-01")
    t = Transcript(scenario.id, case.id)
    t.final_text = t.answer = "华法林和阿司匹林一起吃会增加出血风险，请立即停用阿司匹林，尽快复查INR。"
    judge = OpenAICompatModel("small", base_url=srv.base_url, api_key="EMPTY",
                              retry=RetryPolicy(max_attempts=1, base_delay_s=0.01, timeout_s=5))
    config = {"protocol": "criteria", "rubric": "both", "parse_retries": retries}
    return asyncio.run(score_checklist(ScoreInput(scenario, case, t, config, {"judge": judge})))


def test_a_judge_that_drops_a_criterion_is_told_which_one_and_then_read() -> None:
    with OpenAIServer(reply=_drops_the_last_criterion) as srv:
        score = _grade_criteria(srv, retries=2)
        retry = srv.requests[-1]["messages"][-1]["content"]
    assert score.error is None and score.value is not None
    n = len(score.details["criteria"])
    assert f"缺少第 {n} 条要点" in retry and len(srv.requests) == 2


def test_an_unreadable_criteria_verdict_says_what_was_missing() -> None:
    with OpenAIServer(reply=_drops_the_last_criterion) as srv:
        score = _grade_criteria(srv, retries=0)
    assert score.value is None
    assert "gave no readable verdicts after 1 tries (its last reply judged" in score.error
    assert "criteria; missing:" in score.error


def _reads_the_record_then_speaks_plainly(req: dict) -> str:
    """Like Qwen2.5-0.5B as a patient: the first attempt reads the record aloud, the regenerated one
    speaks as a patient."""
    regenerating = any("系统提示，不是医生说的话" in m["content"] for m in req["messages"] if m["role"] == "user")
    return "咳嗽好几个月了。" if regenerating else "主诉：反复咳嗽。一般情况：良好。"


def test_calibration_examples_quote_the_attempt_that_was_flagged_not_the_kept_reply() -> None:
    """Seen: 'role_break:record … 答：我疼 — 患者在念病历：“主诉：”' — the reason was the first attempt's,
    the quoted reply the one kept after regeneration."""
    with OpenAIServer(reply=_reads_the_record_then_speaks_plainly) as srv:
        result = run_medsim("patient", "calibrate", "--patient", "llm:small", "--base-url", srv.base_url,
                            "--case", "consultation:con-004", "--json")
    import json

    data = json.loads(result.stdout)
    shown = data["examples"]["role_break:record"][0]
    assert "主诉：" in shown["reply"] and "念病历" in shown["reason"]
    assert shown["kept"] == "咳嗽好几个月了。"
