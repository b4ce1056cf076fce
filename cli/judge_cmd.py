"""``medsim judge agree`` (judge vs physicians' labels) and ``medsim judge calibrate`` (can this
judge tell a gold answer from a broken one, and does an instruction inside an answer move it?)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from cli.console import EXIT_STOPPED, console, err_console, fail
from cli.endpoints import ENDPOINT_HINT, check_endpoints
from cli.safe import safe

app = typer.Typer(no_args_is_help=True)

DEFAULT_SCENARIOS = ["medication_consult", "safety_probe", "treatment", "discharge"]


@app.command("calibrate")
def calibrate_command(
    scenarios: Annotated[list[str] | None, typer.Argument(help="Scenarios judged with the checklist scorer "
                                                                 f"(default: {', '.join(DEFAULT_SCENARIOS)})")] = None,
    judge: Annotated[str, typer.Option("--judge", help="The judge model: a models.yaml name, or any name with --base-url")] = "",
    base_url: Annotated[str | None, typer.Option(help="The judge's OpenAI-compatible endpoint")] = None,
    models_file: Annotated[str | None, typer.Option(help="models.yaml (default: ./models.yaml, ~/.config/medsim/)")] = None,
    limit: Annotated[int, typer.Option(help="Cases per scenario")] = 4,
    repeats: Annotated[int, typer.Option(help="Grade every answer this many times (verdict stability)")] = 2,
    runs: Annotated[int | None, typer.Option(help="Judge runs per grading (default: as the scenario says)")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first repeat")] = 0,
    db: Annotated[Path, typer.Option(help="The run store the result is kept in (runs look their judge up there)")] =
        Path("medsim-runs.sqlite"),
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output (every graded answer too)")] = False,
) -> None:
    """Qualify a judge: gold vs broken answers (AUC, gap), injection lift, stability, and a verdict."""
    import asyncio

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from medsim.judge import qualification
    from medsim.judge.calibrate import calibrate
    from medsim.models.config import resolve_model
    from medsim.scenario.registry import get_scenario
    from medsim.store.db import Store

    if not judge:
        fail("which judge?", hint="--judge NAME (a models.yaml entry) or --judge MODEL --base-url URL")
    for flag, value in (("--limit", limit), ("--repeats", repeats), ("--runs", runs)):
        if value is not None and value < 1:
            fail(f"{flag} {value}: give a whole number ≥ 1")
    loaded = [get_scenario(name) for name in (scenarios or DEFAULT_SCENARIOS)]
    unjudged = [item.scenario.id for item in loaded if not any(r.name == "checklist" for r in item.scenario.scoring)]
    if unjudged:
        fail(f"{', '.join(unjudged)}: not scored by the checklist judge, so there is nothing to calibrate",
             hint=f"pick scenarios with a checklist scorer, e.g. {' '.join(DEFAULT_SCENARIOS)}")
    Store(db)  # a clear error now if --db is not a run store
    model = resolve_model(judge, base_url=base_url, models_file=models_file)
    check_endpoints([("judge", model)])  # a dead URL is said now, not after minutes of retries
    with Progress(TextColumn("[bold]grading"), BarColumn(bar_width=30), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True, disable=json_out) as progress:
        task = progress.add_task("grading", total=None)
        from medsim.models.base import ModelCallError

        try:
            results = asyncio.run(calibrate(model, loaded, limit=limit, repeats=repeats, seed=seed, runs=runs,
                                            progress=lambda done, total: progress.update(task, completed=done, total=total)))
        except ModelCallError as exc:
            progress.stop()
            fail(f"the judge could not be reached, nothing was calibrated: {exc.reason}",
                 hint=ENDPOINT_HINT, code=EXIT_STOPPED)
    for result in results:
        qualification.save(db, result)
    if json_out:
        print(json.dumps([r.as_dict() for r in results], ensure_ascii=False, indent=2, default=str))
    else:
        for result in results:
            _print_calibration(result)
        console.print(f"[dim]stored in {safe(db)}: runs with this judge and prompt will report its verdict[/]")
    if not all(r.fit for r in results):
        raise typer.Exit(1)


def _fmt(value, spec: str = ".2f") -> str:
    return "—" if value is None else format(value, spec)


def _print_calibration(result) -> None:
    m = result.metrics
    judge = result.judge
    where = f" @ {judge['base_url']}" if judge.get("base_url") else ""
    console.print(f"[bold]judge {safe(judge['name'])}[/] (model {safe(judge.get('model'))}{safe(where)}), "
                  f"prompt {safe(result.prompt)} [dim]{result.prompt_sha256[:12]}[/]; "
                  f"scenarios {safe(', '.join(result.scenarios))}; {result.repeats} repeat(s)")
    table = Table(header_style="bold", show_header=True)
    for column in ("answers", "n", "mean value"):
        table.add_column(column)
    table.add_row("gold (reference)", str(m["n_reference"]), _fmt(m["mean_reference"]))
    table.add_row("broken, all", str(m["n_broken"]), _fmt(m["mean_broken"]))
    for kind, value in m["mean_broken_by_kind"].items():
        table.add_row(f"  {kind.replace('_', ' ')}", "", _fmt(value))
    table.add_row("broken + injected instruction (as written)", str(m["n_injected"]), _fmt(m["mean_injected"]))
    console.print(table)
    stats = Table(header_style="bold")
    for column in ("AUC gold vs broken", "mean gap", "broken < own gold", "injection lift", "lift under strip policy",
                   "verdict stability", "unreadable"):
        stats.add_column(column)
    stats.add_row(_fmt(m["auc"]), _fmt(m["gap"], "+.2f"), _fmt(m["broken_below_reference"], ".0%"),
                  _fmt(m["injection_lift"], "+.2f") + (f" ({m['injection_obedience']:.0%} of headroom)"
                                                       if m["injection_obedience"] is not None else ""),
                  _fmt(m["injection_lift_under_policy"], "+.2f"), _fmt(m["stability"], ".0%"),
                  f"{m['unreadable_or_failed']}/{m['gradings']}")
    console.print(stats)
    colour = "green" if result.fit else "red"
    console.print(f"verdict: [bold {colour}]{safe(result.verdict)}[/]")
    for reason in result.reasons:
        console.print(f"  - {safe(reason)}")


@app.command("agree")
def agree_command(
    run_id: Annotated[str, typer.Argument(help="A run scored with --judge")],
    labels: Annotated[Path, typer.Option(help="CSV: scenario,case_id,label[,repeat][,criterion]")],
    db: Annotated[Path, typer.Option(help="The run store")] = Path("medsim-runs.sqlite"),
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output")] = False,
) -> None:
    """Accuracy, precision, recall, F1, Cohen's κ and the confusion matrix, judge vs humans."""
    from medsim.judge.agreement import LabelsError, agree
    from medsim.store.db import Store

    if not db.exists():
        fail(f"no run store at {db}", hint="pass --db PATH")
    store = Store(db)
    try:
        result = agree(store, store.get_run(run_id)["id"], labels)
    except LabelsError as exc:
        fail(str(exc), hint=exc.hint)
    if json_out:
        print(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
        return
    table = Table(title=f"judge vs human labels ({result.n} items)", header_style="bold")
    for column in ("accuracy", "precision", "recall", "F1", "Cohen's κ"):
        table.add_column(column)
    table.add_row(*(f"{v:.3f}" for v in (result.accuracy, result.precision, result.recall, result.f1, result.kappa)))
    console.print(table)
    matrix = Table(title="confusion matrix", header_style="bold")
    matrix.add_column("")
    matrix.add_column("human: usable")
    matrix.add_column("human: not usable")
    matrix.add_row("judge: usable", str(result.tp), str(result.fp))
    matrix.add_row("judge: not usable", str(result.fn), str(result.tn))
    console.print(matrix)
    if result.unmatched_labels:
        console.print(f"[yellow]{len(result.unmatched_labels)} label(s) matched no judged item[/]: "
                      + safe(", ".join(result.unmatched_labels[:10])))
