"""``medsim run``, ``medsim runs``, ``medsim show-run``: batch runs with rich progress.

Progress shows, as they happen, what a user waiting on a run needs: items done, errors,
tokens and cost per scenario, and above the bars every retry, every call that has waited
long for a first byte, a server found to serve one request at a time, an endpoint declared
down. A run stopped early — Ctrl-C (exit 130), an endpoint down or a store that cannot be
written (exit 75) — says what was saved and how to resume.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cli.console import EXIT_FAIL, EXIT_STOPPED, EXIT_USAGE, console, err_console, fail
from cli.endpoints import check_endpoints, service_models
from cli.safe import safe
from medsim.store.db import EpisodeRecord, Store

EXIT_INTERRUPTED = 130
RETRY_LINES = 20  # retry lines printed per endpoint; the rest are counted
WAIT_EVERY_S = 10.0  # how often a long wait is said again


@dataclass
class _Counter:
    task: int
    errors: int = 0
    cached: int = 0
    tokens: int = 0
    cost: float = 0.0


class ProgressEvents:
    """One progress bar per scenario: items done, errors, tokens, cost; retries and waits
    printed above the bars as they happen."""

    def __init__(self, progress: Progress):
        self.progress = progress
        self.counters: dict[str, _Counter] = {}
        self.retries: dict[str, int] = {}
        self.said_wait: dict[str, float] = {}
        self.session_saved = 0

    def say(self, text: str) -> None:
        self.progress.console.print(text)

    def planned(self, scenario_id: str, total: int, already_done: int) -> None:
        task = self.progress.add_task(scenario_id, total=total, completed=already_done, errors=0, tokens=0, cost="",
                                      cached="")
        self.counters[scenario_id] = _Counter(task)

    def item_done(self, scenario_id: str, record: EpisodeRecord) -> None:
        self.session_saved += 1
        counter = self.counters[scenario_id]
        counter.errors += record.status == "error"
        counter.cached += sum(1 for c in record.calls if c.get("cached"))
        counter.tokens += sum(c.get("prompt_tokens", 0) + c.get("completion_tokens", 0) for c in record.calls)
        counter.cost += sum(c.get("cost", 0.0) for c in record.calls)
        self.progress.update(counter.task, advance=1, errors=counter.errors, tokens=counter.tokens,
                             cost=f"${counter.cost:.4f}" if counter.cost else "",
                             cached=f"{counter.cached} cached" if counter.cached else "")

    def model_event(self, event: Any) -> None:
        """A retry, a verdict on an endpoint (down, serial): heard from medsim.models.health."""
        if event.kind == "retry":
            n = self.retries[event.endpoint] = self.retries.get(event.endpoint, 0) + 1
            if n <= RETRY_LINES:
                self.say(f"[yellow]retry[/] {safe(event.endpoint)}: {safe(event.message)}")
            elif n == RETRY_LINES + 1:
                self.say(f"[yellow]retry[/] {safe(event.endpoint)}: more retries; counted from now on, "
                         "summed at the end")
        elif event.kind == "down":
            self.say(f"[bold red]endpoint down[/]: {safe(event.message)}")
        elif event.kind == "serial":
            self.say(f"[yellow]note[/]: {safe(event.message)}")

    def tick(self) -> None:
        """Called by the runner every fraction of a second: say which calls wait long."""
        from medsim.models import health

        now = time.monotonic()
        for endpoint in health.endpoints():
            waits = endpoint.waiting()
            if not waits or now - self.said_wait.get(endpoint.label, 0.0) < WAIT_EVERY_S:
                continue
            self.said_wait[endpoint.label] = now
            allowance = endpoint.first_byte_timeout
            limit = f"; each may wait {allowance:g} s for it" if allowance else ""
            busy = " while it streams other replies" if now - endpoint.last_byte < 2 else ""
            self.say(f"[yellow]waiting[/] {safe(endpoint.label)}: {len(waits)} call(s) without a first byte for "
                     f"{waits[-1]:.0f}–{waits[0]:.0f} s{busy}{limit}")

    def close(self) -> None:
        extra = {k: v for k, v in self.retries.items() if v > RETRY_LINES}
        for endpoint, n in extra.items():
            self.say(f"[yellow]{n} retries[/] in all to {safe(endpoint)}")


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description:<18}"), BarColumn(bar_width=24), MofNCompleteColumn(),
        TextColumn("[red]{task.fields[errors]} err[/]"), TextColumn("{task.fields[tokens]:>8} tok"),
        TextColumn("{task.fields[cost]}"), TextColumn("[dim]{task.fields[cached]}[/]"), TimeElapsedColumn(),
        console=console, transient=False,
    )


def _saved_line(store: Store, run_id: str, session: int) -> str:
    counts = store.status_counts(run_id)
    planned = sum((store.get_run(run_id)["config"].get("planned") or {}).values())
    done = counts.get("done", 0)
    of = f" of {planned}" if planned else ""
    errors = f", {counts['error']} recorded as failed" if counts.get("error") else ""
    return f"{done}{of} item(s) of this run are finished and saved ({session} in this session){errors}"


def run_command(scenarios: list[str], *, model: str | None, base_url: str | None, models_file: str | None,
                judge: str | None, embedder: str | None, patient: str | None, concurrency: int | None,
                limit: int | None, repeats: int | None, seed: int | None, db: Path, resume: str | None,
                no_cache: bool, taxonomy: str, temperature: float | None, max_tokens: int | None,
                timeout: float | None = None, idle_timeout: float | None = None, max_attempts: int | None = None,
                stop_after: float | None = None, first_byte_timeout: float | None = None) -> None:
    from medsim.models import health
    from medsim.runner import (
        DEFAULT_CONCURRENCY,
        RunConfig,
        RunStopped,
        config_for_resume,
        execute_run,
        load_scenarios,
        make_services,
        open_store,
        resume_changes,
        run_notes,
        start_run,
        warm_up,
    )

    for flag, value in (("--concurrency", concurrency), ("--repeats", repeats), ("--limit", limit),
                        ("--max-attempts", max_attempts), ("--max-tokens", max_tokens)):
        if value is not None and value < 1:
            fail(f"{flag} {value}: give a whole number ≥ 1")
    for flag, value in (("--timeout", timeout), ("--idle-timeout", idle_timeout),
                        ("--first-byte-timeout", first_byte_timeout), ("--stop-after", stop_after)):
        if value is not None and value < 0:
            fail(f"{flag} {value}: give seconds ≥ 0 (0 turns the clock off)")
    if max_attempts is not None and max_attempts > 20:
        fail(f"--max-attempts {max_attempts}: at most 20", hint="a call that failed 20 times will not be helped by more; "
             "--stop-after bounds how long a failing endpoint is tried")
    if timeout == 0:
        fail("--timeout 0: a reply needs some time", hint="give the seconds one whole reply may take, e.g. 600")
    if temperature is not None and not 0 <= temperature <= 2:
        fail(f"--temperature {temperature}: give a value from 0 to 2")
    from medsim.scenario.registry import get_taxonomy

    get_taxonomy(taxonomy)  # an unknown --taxonomy is reported now, not after the run
    if patient is not None and not (patient == "rule" or (patient.startswith("llm:") and patient[4:].strip())):
        fail(f"unknown patient simulator {patient!r}", hint="use --patient rule or --patient llm:MODEL")
    given: dict[str, Any] = {
        "model": model, "base_url": base_url, "models_file": models_file, "judge": judge, "embedder": embedder,
        "patient": patient, "concurrency": concurrency, "limit": limit, "repeats": repeats, "seed": seed,
        "temperature": temperature, "max_tokens": max_tokens, "cache": False if no_cache else None,
        "timeout_s": timeout, "idle_timeout_s": idle_timeout,
        "first_byte_timeout_s": first_byte_timeout, "max_attempts": max_attempts, "stop_after_s": stop_after,
    }
    store = open_store(db)
    if resume:
        run_id = store.get_run(resume)["id"]
        store.check_lease(run_id)  # said at once; execute_run takes the lease for good
        config, warnings = config_for_resume(store, run_id)
        if scenarios:
            fail(f"--resume {run_id} runs the scenarios the run was started with; do not name scenarios",
                 hint=f"resume with `medsim run --resume {run_id} --db {db}`, or start a new run for other scenarios")
        refused, applied = resume_changes(config, given)
        if refused:
            fail(f"--resume {run_id} keeps the run's own settings, so its scores stay one measurement; refused: "
                 + "; ".join(refused),
                 hint="resume without those flags, or start a new run with them (`medsim run SCENARIO… --model …`)")
        for warning in warnings:
            err_console.print(f"[yellow]warning:[/] {safe(warning)}; finished episodes keep their old scores")
        console.print(f"resuming run [bold]{safe(run_id)}[/] ({safe(config.model)}) with its stored settings")
        for change in applied:
            console.print(f"[dim]applied for this resume: {safe(change)}[/]")
    else:
        if not model:
            fail("which model plays the clinician?",
                 hint="--model baseline (offline), --model reference, or --model NAME --base-url URL")
        config = RunConfig(scenarios=scenarios or ["all"], model=model, **{
            k: v for k, v in given.items() if v is not None and k != "model"})
        config.concurrency = concurrency or DEFAULT_CONCURRENCY
    if config.model == "human":
        fail("--model human is interactive", hint="use `medsim play SCENARIO --model human`")
    services = make_services(config, store)
    loaded = load_scenarios(config)
    check_endpoints(service_models(config, services))  # before the run is created: a dead URL leaves nothing behind
    try:
        warm_up(loaded)  # before the run is created, outside the event loop: Ctrl-C here is instant
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted[/] before the run started: nothing was created or saved")
        raise SystemExit(EXIT_INTERRUPTED) from None
    if not resume:
        describe = getattr(services.clinician, "describe", lambda: {"name": config.model})
        run_id = start_run(store, config, loaded, describe(), services)
        console.print(f"run [bold]{safe(run_id)}[/]: model {safe(config.model)}, store {safe(db)}")
    for note in run_notes(config, loaded):
        console.print(f"[dim]note: {safe(note)}[/]")
    resume_hint = f"medsim run --resume {run_id} --db {db}"
    started = time.monotonic()
    with _progress() as progress:
        events = ProgressEvents(progress)
        health.add_listener(events.model_event)
        try:
            asyncio.run(execute_run(store, run_id, config, services, events))
        except KeyboardInterrupt:
            progress.stop()
            err_console.print(f"[yellow]interrupted[/]: {safe(_saved_line(store, run_id, events.session_saved))}; "
                              f"the items that were in flight will be run again. Continue with `{safe(resume_hint)}`")
            raise SystemExit(EXIT_INTERRUPTED) from None
        except RunStopped as exc:
            progress.stop()
            err_console.print(f"[bold red]{safe(exc.reason)}[/]")
            if exc.hint:
                err_console.print(f"[dim]hint:[/] {safe(exc.hint)}")
            try:
                saved = _saved_line(store, run_id, events.session_saved)
            except Exception:  # the store itself may be what failed
                saved = f"{events.session_saved} item(s) were saved in this session"
            err_console.print(f"{safe(saved)}. Continue with `{safe(resume_hint)}`")
            raise SystemExit(EXIT_STOPPED) from None
        finally:
            health.remove_listener(events.model_event)
            events.close()
            services.close()
    console.print(f"finished in {time.monotonic() - started:.1f}s")
    from cli.report_view import print_summary

    summary = print_summary(store, run_id, taxonomy)
    console.print(f"[dim]next: `medsim show-run {safe(run_id)} --items --db {safe(db)}` (each item and why) · "
                  f"`medsim report {safe(run_id)} --format html --db {safe(db)}` · "
                  f"`medsim compare {safe(run_id)} OTHER_RUN --db {safe(db)}`[/]", soft_wrap=True)  # copyable
    if any(s.get("scorer_errors") for s in summary["scenarios"]):
        err_console.print("[red]some scorers could not score some items[/] (see above); fix the judge or "
                          "embedder and rerun with --no-cache, since their failed replies are cached")
        raise SystemExit(EXIT_FAIL)
    counts = store.status_counts(run_id)
    failed = counts.get("error", 0)
    if failed:
        # A run with failed items is not a clean run: scripts and CI must see it.
        err_console.print(f"[red]{failed} of {sum(counts.values())} item(s) failed[/] (recorded with their reasons, not "
                          f"scored); retry them with `{safe(resume_hint)}`")
        raise SystemExit(EXIT_FAIL)


def _status(run: dict) -> str:
    worker = run.get("worker")
    if run["status"] == "running" and worker:
        return f"running (pid {worker['pid']}, {time.time() - worker['heartbeat']:.0f} s since heartbeat)"
    return run["status"]


def read_store(db: Path) -> Store:
    """A store opened for reading only: works on read-only media, never changes the file."""
    from medsim.runner import open_store

    if not db.exists():
        fail(f"no run store at {db}", hint="run `medsim run ... --db PATH` first, or pass --db", code=EXIT_USAGE)
    return open_store(db, readonly=True)


def runs_command(db: Path) -> None:
    store = read_store(db)
    runs = store.list_runs()
    # A run id is what the user copies into --resume, show-run and report: never broken across
    # lines. On a narrow terminal the columns that can be read elsewhere (show-run) give way.
    narrow = console.width < 130  # (the id itself says when the run started)
    table = Table(title=f"runs in {safe(db)}", header_style="bold")
    table.add_column("run", no_wrap=True, min_width=max([len(safe(r["id"])) for r in runs] + [3]))
    columns = (("model", "status", "errors", "scored", "mean") if narrow else
               ("started", "model", "status", "episodes", "errors", "scored/planned", "mean item score", "tokens", "cost"))
    for column in columns:
        table.add_column(column, overflow="fold", no_wrap=column == "started")
    for run in runs:
        scored = run["scored"] or 0
        covered = f"{scored}/{run['planned']}" if run.get("planned") else str(scored)
        if run.get("planned") and scored < run["planned"]:
            covered = f"[yellow]{covered}[/]"
        mean = f"{run['mean_score']:.3f}" if run["mean_score"] is not None else "—"
        if narrow:
            table.add_row(safe(run["id"]), safe(run["model"]), safe(_status(run)), str(run["errors"] or 0),
                          covered, mean)
            continue
        table.add_row(
            safe(run["id"]), time.strftime("%Y-%m-%d %H:%M", time.localtime(run["created"])), safe(run["model"]),
            safe(_status(run)), str(run["episodes"] or 0), str(run["errors"] or 0), covered,
            mean, ("~" if run.get("estimated_calls") else "") + str(run["tokens"] or 0),
            f"${run['cost']:.4f}" if run["cost"] else "—")
    console.print(table)
    if runs and not narrow:
        # the mean over items is not the overall score (dimension-weighted), which show-run prints
        notes = ["mean item score: the plain mean over scored items, not the overall score, which `medsim show-run <run>` prints"]
        if any(r.get("estimated_calls") for r in runs):
            from cli.report_view import ESTIMATED_TOKENS

            notes.append(f"~ tokens: {ESTIMATED_TOKENS}")
        console.print("[dim]" + "; ".join(notes) + "[/]")
    if narrow and runs:
        console.print("[dim]start, episodes, tokens, cost: `medsim show-run RUN` or a wider terminal[/]")


def show_run_command(run_id: str | None, db: Path, taxonomy: str, items: bool = False,
                     scenario: str | None = None) -> None:
    store = read_store(db)
    run_id = run_id or store.latest_run_id()
    if run_id is None:
        fail(f"no runs in {db}", hint="run `medsim run ... --db PATH` first")
    run = store.get_run(run_id)
    config = run["config"]
    scenarios_of_run = config.get("scenarios", [])
    if scenario is not None and scenario not in scenarios_of_run:
        fail(f"run {run['id']} has no scenario {scenario!r}",
             hint=f"its scenarios: {', '.join(scenarios_of_run) or '—'}", code=EXIT_USAGE)
    console.print(f"[bold]{safe(run['id'])}[/]  model {safe(run['model'])}  status {safe(_status(run))}  "
                  f"medsim {safe(run['medsim_version'])}")
    console.print(f"scenarios: {safe(', '.join(config.get('scenarios', [])))}; patient {safe(config.get('patient'))}; "
                  f"seed {config.get('seed')}; repeats {config.get('repeats')}; limit {config.get('limit')}; "
                  f"temperature {config.get('temperature')}")
    for role, info in (config.get("endpoints") or {}).items():
        for entry in info if isinstance(info, list) else [info]:
            where = f" @ {entry['base_url']}" if entry.get("base_url") else ""
            served = f" (serves {entry['model']})" if entry.get("model") and entry.get("model") != entry.get("name") else ""
            console.print(f"[dim]{safe(role)}: {safe(entry.get('name'))}{safe(served)}{safe(where)}[/]")
    if run["status"] == "interrupted":
        console.print(f"[yellow]interrupted[/]: continue with `medsim run --resume {safe(run['id'])} --db {safe(db)}`")
    from cli.report_view import print_summary

    if items:
        _print_items(store, run["id"], scenario)
        return
    print_summary(store, run["id"], taxonomy)


def _flags(episode: dict, rows: list[dict]) -> str:
    """What a reader must see first on an item: an answer that spoke to its grader, a judge far
    from the rules."""
    out = []
    injection = ((episode.get("transcript") or {}).get("info") or {}).get("injection")
    if injection:
        out.append(f"[red]⚠ injection ({safe(', '.join(injection.get('kinds', [])))}): scored without it[/]")
    for row in rows:
        check = (row.get("details") or {}).get("agreement") or {}
        if check.get("disagrees"):
            out.append(f"[red]⚠ judge {check['judge_value']:.2f} vs rules {check['rule_value']:.2f}[/]")
    return "; ".join(out)


def _print_items(store: Store, run_id: str, scenario: str | None) -> None:
    """Each item's score and, for what fell short, the scorers' own reasons."""
    by_item: dict[tuple, list[dict]] = {}
    for row in store.scores(run_id):
        by_item.setdefault((row["scenario_id"], row["case_id"], row["repeat"]), []).append(row)
    table = Table(title="items", header_style="bold")
    for column in ("scenario", "case", "score", "why (scorers below 1)"):
        table.add_column(column, overflow="fold")
    for episode in store.episodes(run_id, scenario):
        key = (episode["scenario_id"], episode["case_id"], episode["repeat"])
        if episode["error"]:
            why = f"[red]error: {safe(episode['error'])}[/]"
        else:
            why = "; ".join(f"{safe(r['scorer'])} {'—' if r['value'] is None else format(r['value'], '.2f')}: "
                            f"{safe((r['reasons'] or [r['error'] or ''])[0])}"
                            for r in by_item.get(key, [])
                            if r["error"] or (r["value"] is not None and r["value"] < 1))
            why = "; ".join(filter(None, [_flags(episode, by_item.get(key, [])), why]))
        score = "—" if episode["item_score"] is None else f"{episode['item_score']:.2f}"
        case = episode["case_id"] + (f"#{episode['repeat']}" if episode["repeat"] else "")
        table.add_row(safe(episode["scenario_id"]), safe(case), score, why)
    console.print(table)
