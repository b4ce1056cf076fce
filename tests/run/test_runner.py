"""Batch runs over real HTTP: faults end as scores or recorded errors, the cache, resume, secrets."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from medsim.models.openai_compat import OpenAICompatModel
from medsim.models.retry import RetryPolicy
from medsim.runner import RunConfig, Services, execute_run, start_run
from medsim.store.cache import ResponseCache
from medsim.store.db import Store
from medsim.testing.openai_server import Fault
from tests.run.conftest import MCQ

N_ITEMS = 8


def make_model(server, store: Store | None = None, *, attempts: int = 3, timeout: float = 2.0,
               cache: bool = False) -> OpenAICompatModel:
    return OpenAICompatModel(
        "medsim-test", base_url=server.base_url, api_key="EMPTY", concurrency=4,
        retry=RetryPolicy(max_attempts=attempts, base_delay_s=0.01, max_delay_s=0.05, timeout_s=timeout),
        cache=ResponseCache(store.path) if cache and store else None)


def run_once(store: Store, model: OpenAICompatModel, *, run_id: str | None = None, **overrides) -> str:
    config = RunConfig(scenarios=[str(MCQ)], model="medsim-test", concurrency=4, **overrides)
    services = Services(clinician=model)
    if run_id is None:
        from medsim.runner import load_scenarios

        run_id = start_run(store, config, load_scenarios(config), model.describe())
    asyncio.run(execute_run(store, run_id, config, services))
    return run_id


def outcomes(store: Store, run_id: str) -> dict[str, tuple[str, float | None, str | None]]:
    return {e["case_id"]: (e["status"], e["item_score"], e["error"]) for e in store.episodes(run_id)}


def test_clean_run_scores_every_item(server, tmp_path: Path) -> None:
    store = Store(tmp_path / "runs.sqlite")
    run_id = run_once(store, make_model(server))
    result = outcomes(store, run_id)
    assert len(result) == N_ITEMS
    assert all(status == "done" and score == 1.0 for status, score, _ in result.values())
    assert store.get_run(run_id)["status"] == "done"


@pytest.mark.parametrize("kind", ["429", "500", "hang", "malformed", "cut", "empty"])
def test_transient_fault_is_retried_and_scored(server, tmp_path: Path, kind: str) -> None:
    server.set_faults(Fault(kind, times=1, retry_after=0.01, hang_s=5))
    store = Store(tmp_path / "runs.sqlite")
    run_id = run_once(store, make_model(server, timeout=0.5))
    result = outcomes(store, run_id)
    assert len(result) == N_ITEMS
    assert all(status == "done" and score == 1.0 for status, score, _ in result.values()), result
    assert server.faults_served[kind] >= N_ITEMS


@pytest.mark.parametrize("kind", ["429", "500", "hang", "malformed", "cut", "html"])
def test_persistent_fault_is_an_error_with_its_reason_never_a_zero(server, tmp_path: Path, kind: str) -> None:
    server.set_faults(Fault(kind, marker="血清钾", retry_after=0.01, hang_s=5))
    store = Store(tmp_path / "runs.sqlite")
    run_id = run_once(store, make_model(server, attempts=2, timeout=0.5))
    result = outcomes(store, run_id)
    assert len(result) == N_ITEMS, "nothing lost"
    status, score, error = result["k"]
    expected = "not retryable" if kind == "html" else "after 2 attempts"
    assert status == "error" and score is None and error and expected in error
    assert all(s == "done" and v == 1.0 for case, (s, v, _) in result.items() if case != "k")
    rows = sqlite3.connect(store.path).execute(
        "SELECT COUNT(*) FROM scores s JOIN episodes e ON e.id = s.episode_id WHERE e.case_id = 'k'").fetchone()
    assert rows[0] == 0, "a failed call is not scored"


def test_an_endpoint_that_keeps_answering_empty_is_the_models_answer_scored_zero(server, tmp_path: Path) -> None:
    # The endpoint worked: each reply was complete (finish_reason stop) and had no text. After
    # the retries that is the model's abstention, and abstaining is not free.
    server.set_faults(Fault("empty", marker="血清钾"))
    store = Store(tmp_path / "runs.sqlite")
    run_id = run_once(store, make_model(server, attempts=2))
    status, score, error = outcomes(store, run_id)["k"]
    assert (status, score, error) == ("done", 0.0, None)
    reasons = [r for row in store.scores(run_id) if row["case_id"] == "k" for r in row["reasons"]]
    assert any("empty answer" in r for r in reasons), reasons
    assert server.counts["/v1/chat/completions"] == N_ITEMS + 1  # the empty one was tried twice


def test_resume_finishes_only_what_failed(server, tmp_path: Path) -> None:
    store = Store(tmp_path / "runs.sqlite")
    server.set_faults(Fault("500", marker="血清钠"))
    run_id = run_once(store, make_model(server, attempts=1))
    assert outcomes(store, run_id)["na"][0] == "error"
    server.set_faults()
    server.reset_counts()
    run_once(store, make_model(server), run_id=run_id)
    result = outcomes(store, run_id)
    assert all(status == "done" for status, _, _ in result.values())
    assert server.counts["/v1/chat/completions"] == 1, "only the failed item is run again"


def test_rerun_with_cache_makes_no_model_calls(server, tmp_path: Path) -> None:
    store = Store(tmp_path / "runs.sqlite")
    first = run_once(store, make_model(server, store, cache=True))
    assert server.counts["/v1/chat/completions"] == N_ITEMS
    server.reset_counts()
    second = run_once(store, make_model(server, store, cache=True))
    assert server.counts["/v1/chat/completions"] == 0
    assert outcomes(store, first) == outcomes(store, second)
    cached = sqlite3.connect(store.path).execute(
        "SELECT SUM(cached) FROM model_calls c JOIN episodes e ON e.id = c.episode_id WHERE e.run_id = ?",
        (second,)).fetchone()[0]
    assert cached == N_ITEMS


def test_summary_weights_come_from_the_stored_scores(tmp_path: Path) -> None:
    """A user's scenario is summarised with the weights it was run with, not a bundled file's."""
    from medsim.report.summary import build_summary
    from medsim.store.db import EpisodeRecord

    store = Store(tmp_path / "runs.sqlite")
    store.create_run("r1", "m", {}, "0", {})
    for case_id, (a, b) in {"c1": (1.0, 0.0), "c2": (0.5, 1.0)}.items():
        rows = [{"scorer": "choice", "value": a, "weight": 3.0}, {"scorer": "rouge", "value": b, "weight": 1.0}]
        item = (3 * a + b) / 4
        store.save_episode(EpisodeRecord("r1", "triage", case_id, 0, "done", {"turns": []}, rows, [],
                                         item_score=item))
    summary = build_summary(store, "r1")
    (scenario,) = summary["scenarios"]
    assert scenario["score"] == pytest.approx(((3 * 1 + 0) / 4 + (3 * 0.5 + 1) / 4) / 2)


def test_store_refuses_someone_elses_database_and_missing_folders(tmp_path: Path) -> None:
    from medsim.store.db import StoreError

    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE patients (name TEXT)")
    with pytest.raises(StoreError, match="not a medsim run store"):
        Store(other)
    with sqlite3.connect(other) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"patients"}, "nothing was added to the foreign file"
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "no" / "such" / "runs.sqlite")
    assert not (tmp_path / "no").exists()
