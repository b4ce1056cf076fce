"""The paraphrase bench measures a judge beside the rules (issue 12.6): the same correct paraphrases
and close wrong answers, graded over real HTTP by a judge the test serves, so a judge that passes
everything shows up as one that does not separate right from wrong."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from medsim.testing import stubs
from medsim.testing.openai_server import OpenAIServer

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "bench" / "eval_paraphrases.py"
SAMPLE = ("--set", "holdout5", "--runs", "1", "--per-scenario", "2")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)


def _judged(reply) -> dict:
    with OpenAIServer(reply=reply) as srv:
        done = _run(*SAMPLE, "--judge", "stub", "--base-url", srv.base_url, "--json")
    assert done.returncode == 0, done.stderr
    assert "graded" in done.stderr  # progress on a long grading
    return json.loads(done.stdout)


def _total(result: dict, cell: str) -> tuple[int, int]:
    cells = [s[cell] for s in result["judged"].values()]
    return sum(c[0] for c in cells), sum(c[1] for c in cells)


def test_a_lazy_judge_is_exposed_and_a_careful_one_separates() -> None:
    lazy, careful = _judged(stubs.lazy_judge), _judged(stubs.careful_judge)
    # only the scenarios a judge grades are read, each a sample of both labels
    assert set(lazy["judged"]) == {"consultation", "discharge", "false_premise", "medication_consult",
                                   "safety_probe", "treatment"}
    assert all(r["scenario"] in lazy["judged"] and "judge" in r for r in lazy["rows"])
    wrong_ok, wrong_n = _total(lazy, "judge_wrong")
    assert wrong_n >= 10 and wrong_ok == 0  # it gave every close wrong answer the reference's marks
    assert _total(lazy, "judge_correct")[0] == _total(lazy, "judge_correct")[1]
    assert _total(careful, "judge_wrong")[0] > wrong_ok
    # the rules are measured on the same answers and do not depend on the judge
    assert lazy["summary"] == careful["summary"]
    rules = json.loads(_run(*SAMPLE[:2], "--json").stdout)["rows"]
    by_answer = {(r["case"], r["answer"]): r["ok"] for r in rules}
    assert all(by_answer[(r["case"], r["answer"])] == r["ok"] for r in lazy["rows"])


def test_a_judge_that_gives_the_reference_nothing_is_an_error_not_a_pass() -> None:
    def zero_judge(req: dict) -> str:
        return json.dumps({"score": 0, "reason": "无"}, ensure_ascii=False)

    result = _judged(zero_judge)
    rows = [r for r in result["rows"] if r["judge"]["error"]]
    assert rows and all(not r["judge"]["judge_ok"] and not r["judge"]["combined_ok"] for r in rows)
    assert sum(s["errors"] for s in result["judged"].values()) == len(rows)


def test_bad_judge_options_are_told_plainly() -> None:
    alone = _run("--base-url", "http://127.0.0.1:9/v1")
    assert alone.returncode != 0 and "go with --judge MODEL" in alone.stderr
    runs = _run("--judge", "stub", "--base-url", "http://127.0.0.1:9/v1", "--runs", "0")
    assert runs.returncode != 0 and "--runs 0" in runs.stderr
    not_judged = _run("--judge", "stub", "--base-url", "http://127.0.0.1:9/v1", "--scenario", "triage")
    assert not_judged.returncode != 0 and "not graded by a judge" in not_judged.stderr
    dead = _run("--judge", "stub", "--base-url", "http://127.0.0.1:9/v1")
    assert dead.returncode != 0 and "cannot be used" in dead.stderr
    for done in (alone, runs, not_judged, dead):
        assert "Traceback" not in done.stderr
