"""`medsim run` against endpoints that fail the way real ones do, as a user meets them.

Each test runs the real CLI in a subprocess against the local fault server over real HTTP
and checks: the failure is named, the run ends in bounded time (generous bounds that only
a missing mechanism would exceed), nothing finished is lost, and ``--resume`` completes it.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from medsim.testing.openai_server import Fault, OpenAIServer
from tests.cli.conftest import REPO
from tests.inproc import medsim as run_medsim
from tests.run.conftest import MCQ, correct_reply

BOUND_S = 90  # a hung endpoint would take 32 items × 4 attempts × 600 s without the mechanisms


def episodes(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as conn:
        return {f"{c}#{r}": s for c, r, s in conn.execute("SELECT case_id, repeat, status FROM episodes")}


def only_run(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id FROM runs").fetchone()[0]


def stored_config(db: Path) -> dict:
    with sqlite3.connect(db) as conn:
        return json.loads(conn.execute("SELECT config FROM runs").fetchone()[0])


def test_a_hanging_endpoint_stops_the_run_early_and_resumably(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with OpenAIServer(faults=[Fault("hang")]) as stuck:
        started = time.monotonic()
        result = run_medsim("run", str(MCQ), "--model", "medsim-test", "--base-url", stuck.base_url, "--repeats", "4",
                            "--concurrency", "2", "--idle-timeout", "1", "--first-byte-timeout", "1", "--stop-after", "3", "--db", str(db),
                            timeout=BOUND_S)
        elapsed = time.monotonic() - started
        calls = stuck.counts["/v1/chat/completions"]
    out = result.stdout + result.stderr
    assert result.returncode == 75, out
    assert elapsed < BOUND_S / 2 and calls < 32, (elapsed, calls)  # stopped, not ground through 32 items
    assert "endpoint down" in out and "failed every attempt for" in out and "first-byte timeout" in out
    assert "retry" in result.stdout and "no first byte after 1 s" in result.stdout  # said as it happened
    assert "waiting" in result.stdout and "without a first byte" in result.stdout
    assert f"medsim run --resume {only_run(db)}" in result.stderr and "Traceback" not in out
    assert "done" not in episodes(db).values()
    listed = run_medsim("runs", "--db", str(db))
    assert "interrupted" in listed.stdout and "running" not in listed.stdout

    # The server is back (on another port): the resume is told the new URL and finishes.
    with OpenAIServer(reply=correct_reply) as healthy:
        resumed = run_medsim("run", "--resume", only_run(db), "--base-url", healthy.base_url, "--db", str(db))
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "applied for this resume: --base-url" in resumed.stdout
    assert list(episodes(db).values()).count("done") == 32


def test_a_slow_one_at_a_time_server_finishes_and_is_noticed(tmp_path: Path) -> None:
    # llama.cpp on a CPU with one slot: each reply trickles in (~1 s), the others wait their
    # turn without a byte for longer than the idle timeout; nothing is timed out, and the run
    # says the server serves one request at a time.
    with OpenAIServer(reply=correct_reply, serial=True, chunks=3, chunk_delay=0.3) as slow:
        result = run_medsim("run", str(MCQ), "--model", "medsim-test", "--base-url", slow.base_url, "--limit", "4",
                            "--idle-timeout", "1", "--first-byte-timeout", "1", "--timeout", "60",
                            "--db", str(tmp_path / "r.sqlite"))
        assert slow.cancelled == 0
    assert result.returncode == 0, result.stdout + result.stderr
    assert list(episodes(tmp_path / "r.sqlite").values()) == ["done"] * 4
    assert "serves one request at a time" in result.stdout and "concurrency: 1" in result.stdout


def test_a_server_that_drops_the_reply_in_progress_is_noticed_by_the_run(tmp_path: Path) -> None:
    # llama-cpp-python's interrupt_requests: each new request ends the stream in progress with
    # no finish_reason. The run says the server serves one request at a time and finishes.
    with OpenAIServer(reply=correct_reply, interrupt=True, latency=0.2, chunks=3, chunk_delay=0.1) as server:
        result = run_medsim("run", str(MCQ), "--model", "medsim-test", "--base-url", server.base_url, "--limit", "4",
                            "--concurrency", "4", "--max-attempts", "8", "--db", str(tmp_path / "r.sqlite"))
        assert server.interrupted >= 2
    assert result.returncode == 0, result.stdout + result.stderr
    assert list(episodes(tmp_path / "r.sqlite").values()) == ["done"] * 4
    assert "serves one request at a time" in result.stdout and "drops the reply in progress" in result.stdout
    assert "concurrency: 1" in result.stdout


def test_play_names_a_web_page_where_the_api_was_expected(tmp_path: Path) -> None:
    with OpenAIServer(web_ui=True) as page:
        result = run_medsim("play", "triage", "--model", "m", "--base-url", page.base_url, "--case", "tri-001",
                            "--db", str(tmp_path / "r.sqlite"))
    text = result.stdout + result.stderr
    assert "answered an HTML page" in text and "stream cut" not in text and "Traceback" not in text


def test_resume_keeps_the_stored_settings_and_refuses_other_ones(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with OpenAIServer(reply=correct_reply, faults=[Fault("500", marker="血清钾")]) as server:
        first = run_medsim("run", str(MCQ), "--model", "medsim-test", "--base-url", server.base_url,
                           "--concurrency", "3", "--max-attempts", "1", "--db", str(db))
        assert first.returncode == 1
        run_id = only_run(db)
        assert server.requests[0]["temperature"] == 0  # the default clinician temperature, sent and stored
        assert stored_config(db)["temperature"] == 0 and stored_config(db)["concurrency"] == 3

        refused = run_medsim("run", "--resume", run_id, "--model", "other-model", "--db", str(db))
        assert refused.returncode == 2
        assert "refused: --model other-model (the run has medsim-test)" in refused.stderr
        refused = run_medsim("run", "--resume", run_id, "--temperature", "0.7", "--db", str(db))
        assert refused.returncode == 2 and "--temperature 0.7" in refused.stderr

        server.set_faults()
        server.reset_counts()
        resumed = run_medsim("run", "--resume", run_id, "--db", str(db))
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        assert "applied for this resume" not in resumed.stdout  # nothing given, nothing changed
        assert server.counts["/v1/chat/completions"] == 1 and server.requests[0]["temperature"] == 0
    assert stored_config(db)["concurrency"] == 3


def test_temperature_is_overridable_and_stored(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with OpenAIServer(reply=correct_reply) as server:
        result = run_medsim("run", str(MCQ), "--model", "medsim-test", "--base-url", server.base_url, "--limit", "1",
                            "--temperature", "0.7", "--db", str(db))
        assert result.returncode == 0, result.stderr
        assert server.requests[0]["temperature"] == 0.7
    assert stored_config(db)["temperature"] == 0.7


def test_the_run_stores_every_endpoint_it_used_never_a_key(tmp_path: Path) -> None:
    secret = "sk-endpoint-SECRET-123456"
    scenario = tmp_path / "judged.yaml"
    from tests.run.test_cli_run import JUDGED

    scenario.write_text(JUDGED, encoding="utf-8")
    with OpenAIServer(reply=lambda req: "不建议合用。", api_key=secret) as clinician, \
            OpenAIServer(reply=lambda req: '{"判断依据": "满足", "得分": "[4]"}', api_key=secret) as judge:
        models = tmp_path / "models.yaml"
        models.write_text(f"models:\n  J:\n    base_url: {judge.base_url}\n    model: served-judge\n"
                          f"  P:\n    base_url: {clinician.base_url}\n    model: served-patient\n"
                          f"  E:\n    base_url: {clinician.base_url}\n    model: served-embedder\n", encoding="utf-8")
        result = run_medsim("run", str(scenario), "--model", "m", "--base-url", clinician.base_url, "--judge", "J",
                            "--patient", "llm:P", "--embedder", "E", "--models-file", str(models),
                            "--db", str(tmp_path / "r.sqlite"), env={"MEDSIM_API_KEY": secret})
    assert result.returncode == 0, result.stdout + result.stderr
    endpoints = stored_config(tmp_path / "r.sqlite")["endpoints"]
    assert endpoints["clinician"]["base_url"] == clinician.base_url and endpoints["clinician"]["model"] == "m"
    assert endpoints["judge"] == {**endpoints["judge"], "name": "J", "model": "served-judge", "base_url": judge.base_url}
    assert endpoints["patient"]["model"] == "served-patient" and endpoints["patient"]["base_url"] == clinician.base_url
    assert endpoints["embedder"]["model"] == "served-embedder"
    assert secret not in json.dumps(endpoints)
    shown = run_medsim("show-run", "--db", str(tmp_path / "r.sqlite"))  # no id: the latest run
    assert shown.returncode == 0 and f"judge: J (serves served-judge) @ {judge.base_url}" in shown.stdout


def test_a_run_whose_judge_fails_every_call_does_not_exit_clean(tmp_path: Path) -> None:
    scenario = tmp_path / "judged.yaml"
    from tests.run.test_cli_run import JUDGED

    scenario.write_text(JUDGED, encoding="utf-8")
    with OpenAIServer(reply=lambda req: "不建议合用。") as clinician, OpenAIServer(faults=[Fault("500")]) as judge:
        models = tmp_path / "models.yaml"
        models.write_text(f"models:\n  J:\n    base_url: {judge.base_url}\n", encoding="utf-8")
        result = run_medsim("run", str(scenario), "--model", "m", "--base-url", clinician.base_url, "--judge", "J",
                            "--models-file", str(models), "--max-attempts", "1", "--db", str(tmp_path / "r.sqlite"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "not scored by checklist" in result.stdout and "HTTP 500" in result.stdout


def test_an_unknown_llm_patient_is_explained_as_a_patient(tmp_path: Path) -> None:
    result = run_medsim("run", str(MCQ), "--model", "baseline", "--patient", "llm:nosuch", "--db",
                        str(tmp_path / "r.sqlite"))
    assert result.returncode == 2
    assert "--patient llm:nosuch" in result.stderr and "--model nosuch" not in result.stderr
    assert "the LLM patient" in result.stderr and "Traceback" not in result.stderr


def test_next_steps_are_shown_after_a_run(tmp_path: Path) -> None:
    result = run_medsim("run", str(MCQ), "--model", "baseline", "--limit", "1", "--db", str(tmp_path / "r.sqlite"))
    assert result.returncode == 0
    assert "next:" in result.stdout and "medsim show-run" in result.stdout and "medsim report" in result.stdout


def _medsim(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.app", *args]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "160"}


def test_a_killed_run_reads_interrupted_and_two_resumes_cannot_both_work_it(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with OpenAIServer(reply=correct_reply, latency=0.3) as server:
        base = ["--model", "medsim-test", "--base-url", server.base_url, "--concurrency", "1", "--no-cache"]
        proc = subprocess.Popen(_medsim("run", str(MCQ), *base, "--db", str(db)), env=_env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while server.counts["/v1/chat/completions"] < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        run_id = only_run(db)
        listed = run_medsim("runs", "--db", str(db))
        assert "interrupted" in listed.stdout and "running" not in listed.stdout, listed.stdout

        # One resume works the run (held on a stalled call); a second one is refused at once.
        server.reset_counts()
        server.set_faults(Fault("hang"))
        first = subprocess.Popen(_medsim("run", "--resume", run_id, "--idle-timeout", "1", "--first-byte-timeout", "1",
                                         "--max-attempts", "20",
                                         "--db", str(db)), env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        deadline = time.monotonic() + 60
        while server.counts["/v1/chat/completions"] < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        running = run_medsim("runs", "--db", str(db))
        assert "running (pid" in running.stdout, running.stdout
        second = run_medsim("run", "--resume", run_id, "--db", str(db))
        assert second.returncode == 2
        assert "is being worked on by another medsim process" in second.stderr and str(first.pid) in second.stderr
        server.set_faults()  # the server recovers: the first resume finishes
        out, err = first.communicate(timeout=120)
        assert first.returncode == 0, out + err
    assert list(episodes(db).values()).count("done") == 8
    assert "done" in run_medsim("runs", "--db", str(db)).stdout


def test_an_endpoint_that_dies_mid_run_stops_it_as_interrupted_never_done(tmp_path: Path) -> None:
    # One worker: the item that finds the breaker open is the last thing running, so the run
    # must not end as if every item had been tried (it once read "done" with 20 items never run).
    import threading

    db = tmp_path / "r.sqlite"
    with OpenAIServer(reply=correct_reply) as server:
        def fail_after_two() -> None:
            deadline = time.monotonic() + 60
            while server.counts["/v1/chat/completions"] < 2 and time.monotonic() < deadline:
                time.sleep(0.005)
            server.set_faults(Fault("500"))

        threading.Thread(target=fail_after_two, daemon=True).start()
        result = run_medsim("run", str(MCQ), "--model", "medsim-test", "--base-url", server.base_url,
                            "--concurrency", "1", "--repeats", "3", "--no-cache", "--max-attempts", "2",
                            "--stop-after", "2", "--db", str(db), timeout=BOUND_S)
        out = result.stdout + result.stderr
        assert result.returncode == 75, out
        assert "stopped:" in result.stderr and "failed every attempt for" in result.stderr
        assert f"medsim run --resume {only_run(db)}" in result.stderr and "Traceback" not in out
        assert len(episodes(db)) < 24
        assert "interrupted" in run_medsim("runs", "--db", str(db)).stdout
        server.set_faults()  # the server is back: the resume runs what was never run
        resumed = run_medsim("run", "--resume", only_run(db), "--db", str(db))
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert list(episodes(db).values()) == ["done"] * 24


def test_play_and_run_send_and_store_the_same_default_clinician_temperature(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with OpenAIServer(reply=correct_reply) as server:
        played = run_medsim("play", str(MCQ), "--model", "medsim-test", "--base-url", server.base_url,
                            "--case", "k", "--db", str(db))
        assert played.returncode == 0, played.stdout + played.stderr
        in_play = [r["temperature"] for r in server.requests]
        server.reset_counts()
        ran = run_medsim("run", str(MCQ), "--model", "medsim-test", "--base-url", server.base_url, "--limit", "1",
                         "--no-cache", "--db", str(db))
        assert ran.returncode == 0, ran.stdout + ran.stderr
        in_run = [r["temperature"] for r in server.requests]
        server.reset_counts()
        hot = run_medsim("play", str(MCQ), "--model", "medsim-test", "--base-url", server.base_url, "--case", "k",
                         "--temperature", "0.5", "--db", str(db))
        assert hot.returncode == 0, hot.stdout + hot.stderr
        overridden = [r["temperature"] for r in server.requests]
    assert in_play == in_run == [0] and overridden == [0.5]
    with sqlite3.connect(db) as conn:
        stored = [json.loads(c)["temperature"] for (c,) in conn.execute("SELECT config FROM runs ORDER BY rowid")]
    assert stored == [0, 0, 0.5]
