"""``medsim run``, ``medsim runs``, ``medsim show-run``: batch runs with rich progress."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cli.console import EXIT_FAIL, EXIT_USAGE, console, err_console, fail
from cli.safe import safe
from medsim.store.db import EpisodeRecord, Store


@dataclass
class _Counter:
    task: int
    errors: int = 0
    cached: int = 0
    tokens: int = 0
    cost: float = 0.0


class ProgressEvents:
    """One progress bar per scenario: items done, errors, tokens, cost."""

    def __init__(self, progress: Progress):
        self.progress = progress
        self.counters: dict[str, _Counter] = {}

    def planned(self, scenario_id: str, total: int, already_done: int) -> None:
        task = self.progress.add_task(scenario_id, total=total, completed=already_done, errors=0, tokens=0, cost="",
                                      cached="")
        self.counters[scenario_id] = _Counter(task)

    def item_done(self, scenario_id: str, record: EpisodeRecord) -> None:
        counter = self.counters[scenario_id]
        counter.errors += record.status == "error"
        counter.cached += sum(1 for c in record.calls if c.get("cached"))
        counter.tokens += sum(c.get("prompt_tokens", 0) + c.get("completion_tokens", 0) for c in record.calls)
        counter.cost += sum(c.get("cost", 0.0) for c in record.calls)
        self.progress.update(counter.task, advance=1, errors=counter.errors, tokens=counter.tokens,
                             cost=f"${counter.cost:.4f}" if counter.cost else "",
                             cached=f"{counter.cached} cached" if counter.cached else "")


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description:<18}"), BarColumn(bar_width=24), MofNCompleteColumn(),
        TextColumn("[red]{task.fields[errors]} err[/]"), TextColumn("{task.fields[tokens]:>8} tok"),
        TextColumn("{task.fields[cost]}"), TextColumn("[dim]{task.fields[cached]}[/]"), TimeElapsedColumn(),
        console=console, transient=False,
    )


def run_command(scenarios: list[str], model: str | None, base_url: str | None, models_file: str | None,
                judge: str | None, embedder: str | None, patient: str, concurrency: int, limit: int | None,
                repeats: int, seed: int, db: Path, resume: str | None, no_cache: bool, taxonomy: str,
                temperature: float | None, max_tokens: int | None) -> None:
    from medsim.runner import (
        RunConfig,
        config_for_resume,
        execute_run,
        load_scenarios,
        make_services,
        open_store,
        run_notes,
        start_run,
    )

    for flag, value in (("--concurrency", concurrency), ("--repeats", repeats), ("--limit", limit)):
        if value is not None and value < 1:
            fail(f"{flag} {value}: give a whole number ≥ 1")
    from medsim.scenario.registry import get_taxonomy

    get_taxonomy(taxonomy)  # an unknown --taxonomy is reported now, not after the run
    if not patient.startswith(("rule", "llm:")):
        fail(f"unknown patient simulator {patient!r}", hint="use --patient rule or --patient llm:MODEL")
    store = open_store(db)
    if resume:
        run_id = store.get_run(resume)["id"]
        config, warnings = config_for_resume(store, run_id)
        config.concurrency = concurrency
        for warning in warnings:
            err_console.print(f"[yellow]warning:[/] {safe(warning)}; finished episodes keep their old scores")
        console.print(f"resuming run [bold]{safe(run_id)}[/] ({safe(config.model)})")
    else:
        if not model:
            fail("which model plays the clinician?",
                 hint="--model baseline (offline), --model reference, or --model NAME --base-url URL")
        config = RunConfig(scenarios=scenarios or ["all"], model=model, base_url=base_url, models_file=models_file,
                           judge=judge, embedder=embedder, patient=patient, concurrency=concurrency, limit=limit,
                           repeats=repeats, seed=seed, cache=not no_cache, temperature=temperature,
                           max_tokens=max_tokens)
    if config.model == "human":
        fail("--model human is interactive", hint="use `medsim play SCENARIO --model human`")
    services = make_services(config, store)
    loaded = load_scenarios(config)
    _check_endpoints(config, services)  # before the run is created: a dead URL leaves nothing behind
    if not resume:
        describe = getattr(services.clinician, "describe", lambda: {"name": config.model})
        run_id = start_run(store, config, loaded, describe())
        console.print(f"run [bold]{safe(run_id)}[/]: model {safe(config.model)}, store {safe(db)}")
    for note in run_notes(config, loaded):
        console.print(f"[dim]note: {safe(note)}[/]")
    started = time.monotonic()
    with _progress() as progress:
        events = ProgressEvents(progress)
        try:
            asyncio.run(execute_run(store, run_id, config, services, events))
        except KeyboardInterrupt:
            progress.stop()
            err_console.print(f"[yellow]interrupted[/]: finished episodes are saved; continue with "
                              f"`medsim run --resume {run_id} --db {db}`")
            raise SystemExit(130) from None
        finally:
            services.close()
    console.print(f"finished in {time.monotonic() - started:.1f}s")
    from cli.report_view import print_summary

    summary = print_summary(store, run_id, taxonomy)
    if any(s.get("scorer_errors") for s in summary["scenarios"]):
        err_console.print("[red]some scorers could not score some items[/] (see above); fix the judge or "
                          "embedder and rerun with --no-cache, since their failed replies are cached")
        raise SystemExit(EXIT_FAIL)
    counts = store.status_counts(run_id)
    failed = counts.get("error", 0)
    if failed:
        # A run with failed items is not a clean run: scripts and CI must see it.
        err_console.print(f"[red]{failed} of {sum(counts.values())} item(s) failed[/] (recorded with their reasons, not "
                          f"scored); retry them with `medsim run --resume {run_id} --db {db}`")
        raise SystemExit(EXIT_FAIL)


def _check_endpoints(config, services) -> None:
    """One quick look at each endpoint the run will call; a certain failure stops it here."""
    from medsim.models.config import ConfigError
    from medsim.models.preflight import endpoint_problem

    judges = services.judge if isinstance(services.judge, list) else [services.judge]
    models = [("clinician", services.clinician), *(("judge", j) for j in judges if j is not None)]
    if config.patient.startswith("llm:") and services.resolver:
        models.append(("patient", services.resolver(config.patient.split(":", 1)[1])))

    async def look() -> list[str]:
        problems = []
        for role, model in models:
            problem = await endpoint_problem(model)
            if problem:
                problems.append(f"{role} model {getattr(model, 'name', '')}: {problem}")
            close = getattr(model, "aclose", None)
            if close:
                await close()  # its HTTP client belongs to this short-lived event loop
        return problems

    problems = asyncio.run(look())
    if problems:
        raise ConfigError("; ".join(problems) + ". Check --base-url / models.yaml, that the server is up, "
                          "and the API key variable.")


def runs_command(db: Path) -> None:
    if not db.exists():
        fail(f"no run store at {db}", hint="run `medsim run ... --db PATH` first, or pass --db")
    store = Store(db)
    table = Table(title=f"runs in {safe(db)}", header_style="bold")
    for column in ("run", "started", "model", "status", "episodes", "errors", "mean item score", "tokens", "cost"):
        table.add_column(column)
    for run in store.list_runs():
        table.add_row(
            safe(run["id"]), time.strftime("%Y-%m-%d %H:%M", time.localtime(run["created"])), safe(run["model"]),
            run["status"], str(run["episodes"] or 0), str(run["errors"] or 0),
            f"{run['mean_score']:.3f}" if run["mean_score"] is not None else "—", str(run["tokens"] or 0),
            f"${run['cost']:.4f}" if run["cost"] else "—")
    console.print(table)


def show_run_command(run_id: str, db: Path, taxonomy: str, items: bool = False, scenario: str | None = None) -> None:
    if not db.exists():
        fail(f"no run store at {db}", hint="pass --db PATH", code=EXIT_USAGE)
    store = Store(db)
    run = store.get_run(run_id)
    config = run["config"]
    console.print(f"[bold]{safe(run['id'])}[/]  model {safe(run['model'])}  status {run['status']}  "
                  f"medsim {safe(run['medsim_version'])}")
    console.print(f"scenarios: {safe(', '.join(config.get('scenarios', [])))}; patient {safe(config.get('patient'))}; "
                  f"seed {config.get('seed')}; repeats {config.get('repeats')}; limit {config.get('limit')}")
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
        table.add_column(column, no_wrap=column != "why (scorers below 1)")
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
