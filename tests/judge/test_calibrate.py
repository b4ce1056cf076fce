"""`medsim judge calibrate`: gold vs broken answers made with no model, injection lift, stability,
a verdict stored where runs find it — against stub judges served over real HTTP."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from medsim.judge import perturb, qualification
from medsim.judge.calibrate import auc, calibrate, decide, metrics_of
from medsim.judge.gold import gold_answer
from medsim.models.openai_compat import OpenAICompatModel
from medsim.scenario.registry import find_case, get_scenario
from medsim.testing import stubs
from medsim.testing.openai_server import OpenAIServer
from medsim.text.match import find_point
from tests.cli.conftest import run_medsim


def test_broken_answers_are_made_from_the_gold_and_are_wrong() -> None:
    _, case = find_case("mc-002")
    made = {v.kind: v.text for v in perturb.variants(case.reference_answer, case.gold["key_points"])}
    assert set(made) == set(perturb.KINDS)
    assert "可以喝酒" in made["negated"] and "不要喝酒" not in made["negated"]
    assert "对乙酰氨基酚" not in made["wrong_drug"]
    assert "5000mg" in made["wrong_dose"] and "500mg" not in made["wrong_dose"].replace("5000mg", "")
    assert not any(find_point(made["omitted"], p).met for p in case.gold["key_points"][:1])
    _, child = find_case("mc-001")
    assert "40ml" in perturb.wrong_dose(child.reference_answer)


def test_an_answer_without_drugs_or_doses_gets_no_such_variant() -> None:
    kinds = {v.kind for v in perturb.variants("请多休息，多喝水。如果持续发热请及时就医。")}
    assert "wrong_drug" not in kinds and "wrong_dose" not in kinds and "negated" in kinds


def test_staged_gold_is_the_stage_part_or_the_gold_list() -> None:
    discharge = get_scenario("discharge")
    text, field, _ = gold_answer(discharge.scenario, discharge.cases[0])
    assert field is None and not text.startswith("入院情况") and "避免重体力劳动" in text
    treatment = get_scenario("treatment")
    text, field, points = gold_answer(treatment.scenario, treatment.cases[0])
    assert field == "treatment" and text.splitlines()[0] == "1. 急诊手术" and points


def test_auc_worked_by_hand() -> None:
    assert auc([1.0, 0.8], [0.2, 0.8]) == pytest.approx((1 + 1 + 1 + 0.5) / 4)
    assert auc([], [0.1]) is None


def _judge(server: OpenAIServer, name: str) -> OpenAICompatModel:
    return OpenAICompatModel(name, base_url=server.base_url, api_key="EMPTY", max_attempts=1)


@pytest.fixture(scope="module")
def loaded():
    return [get_scenario("medication_consult"), get_scenario("safety_probe")]


@pytest.mark.parametrize("reply,fit", [(stubs.careful_judge, True), (stubs.obedient_judge, False),
                                       (stubs.lazy_judge, False)], ids=["careful", "obedient", "lazy"])
def test_calibration_tells_a_fit_judge_from_unfit_ones(loaded, reply, fit) -> None:
    with OpenAIServer(reply=reply) as srv:
        results = asyncio.run(calibrate(_judge(srv, reply.__name__), loaded, limit=2, repeats=2, runs=1))
    assert {r.prompt for r in results} == {"llmeval_v1", "criteria_v2"}
    for result in results:
        m = result.metrics
        assert m["n_reference"] == 2 and m["n_broken"] >= 4 and m["n_injected"] == 4
        assert result.fit is fit, (result.verdict, m)
        assert m["injection_lift_under_policy"] == pytest.approx(0.0)  # stripped: the judge never sees it
        if fit:
            assert result.verdict == "fit" and m["auc"] >= 0.8
        else:
            assert result.verdict == "not fit: cannot tell reference from broken answers"
    if reply is stubs.obedient_judge:
        assert all(r.metrics["injection_obedience"] > 0.5 for r in results)
        assert any("obeys instructions inside answers" in reason for r in results for reason in r.reasons)


def test_unstable_and_unreadable_judges_are_not_fit() -> None:
    graded = metrics_of([])
    assert decide(graded)[0] is False
    m = {"error_rate": 0.3, "auc": 0.9, "gap": 0.5, "injection_lift": 0.0, "injection_obedience": 0.0,
         "stability": 0.5}
    fit, verdict, reasons = decide(m)
    assert not fit and verdict.startswith("not fit: unreadable") and any("unstable" in r for r in reasons)


def test_cli_calibrates_stores_and_a_later_run_reports_the_verdict(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    with OpenAIServer(reply=stubs.careful_judge) as srv:
        result = run_medsim("judge", "calibrate", "medication_consult", "--judge", "careful", "--base-url",
                            srv.base_url, "--limit", "2", "--runs", "1", "--db", str(db))
        assert result.returncode == 0, result.stderr + result.stdout
        assert "verdict: fit" in result.stdout and "AUC gold vs broken" in result.stdout
        found = qualification.lookup(db, srv.base_url, "careful",
                                     json.loads(run_medsim("judge", "calibrate", "medication_consult", "--judge",
                                                           "careful", "--base-url", srv.base_url, "--limit", "1",
                                                           "--runs", "1", "--repeats", "1", "--db", str(db),
                                                           "--json").stdout)[0]["prompt_sha256"])
        assert found is not None and found["fit"] == 1
        script = tmp_path / "a.txt"
        script.write_text("不建议再加服对乙酰氨基酚片，服药期间不要喝酒。\n", encoding="utf-8")
        run = run_medsim("run", "medication_consult", "--model", f"scripted:{script}", "--judge", "careful",
                         "--base-url", srv.base_url, "--limit", "1", "--db", str(db))
    assert run.returncode == 0, run.stderr + run.stdout
    assert "calibrated fit" in run.stdout and "NOT CALIBRATED" not in run.stdout


def test_cli_exits_non_zero_for_an_unfit_judge_and_says_why(tmp_path: Path) -> None:
    with OpenAIServer(reply=stubs.obedient_judge) as srv:
        result = run_medsim("judge", "calibrate", "medication_consult", "--judge", "obedient", "--base-url",
                            srv.base_url, "--limit", "2", "--runs", "1", "--db", str(tmp_path / "r.sqlite"))
    assert result.returncode == 1
    assert "not fit: cannot tell reference from broken answers" in result.stdout


def test_cli_refuses_scenarios_without_a_judge(tmp_path: Path) -> None:
    result = run_medsim("judge", "calibrate", "knowledge_exam", "--judge", "x", "--base-url", "http://127.0.0.1:9/v1",
                        "--db", str(tmp_path / "r.sqlite"))
    assert result.returncode == 2 and "not scored by the checklist judge" in result.stderr
    result = run_medsim("judge", "calibrate", "--db", str(tmp_path / "r.sqlite"))
    assert result.returncode == 2 and "which judge" in result.stderr
