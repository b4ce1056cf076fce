"""``medsim patient calibrate``: qualify a simulated patient (rule or llm:MODEL) on a fixed set of
history questions and cases before using it — role breaks, invented and contradicted facts,
leaks, regeneration rate, and a verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from cli.console import EXIT_STOPPED, console, err_console, fail
from cli.endpoints import ENDPOINT_HINT
from cli.safe import safe


def calibrate_command(
    patient: Annotated[str, typer.Option(help="rule | llm:MODEL (a models.yaml name, or any name with --base-url)")] =
        "rule",
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint of an llm: patient")] = None,
    models_file: Annotated[str | None, typer.Option(help="models.yaml (default: ./models.yaml, ~/.config/medsim/)")] = None,
    case: Annotated[list[str] | None, typer.Option("--case", help="SCENARIO:CASE_ID to use instead of the fixed six "
                                                                   "(repeatable), e.g. triage:tri-001")] = None,
    questions: Annotated[Path | None, typer.Option(help="A UTF-8 file of questions, one a line, instead of the "
                                                        "fixed set")] = None,
    seed: Annotated[int, typer.Option(help="Seed for the patient")] = 0,
    examples: Annotated[int, typer.Option(help="Example replies to print per failure kind")] = 2,
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output (every reply too)")] = False,
) -> None:
    """Ask the patient the fixed history questions on fixed cases; report role breaks, inventions, leaks, a verdict."""
    import asyncio

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from medsim.sim import patient_calibration as pc

    if not (patient == "rule" or (patient.startswith("llm:") and patient[4:].strip())):
        fail(f"unknown patient simulator {patient!r}", hint="use --patient rule or --patient llm:MODEL")
    pairs = pc.CASES
    if case:
        bad = [c for c in case if ":" not in c]
        if bad:
            fail(f"--case {bad[0]}: give SCENARIO:CASE_ID", hint="e.g. --case triage:tri-001")
        pairs = tuple(tuple(c.split(":", 1)) for c in case)  # type: ignore[assignment]
    try:
        cases = pc.load_cases(pairs)
    except KeyError as exc:
        fail(str(exc.args[0]), hint="`medsim show SCENARIO` lists its cases")
    asked: tuple[str, ...] = pc.QUESTIONS
    if questions is not None:
        try:
            asked = tuple(line.strip() for line in questions.read_text(encoding="utf-8").splitlines()
                          if line.strip() and not line.startswith("#"))
        except OSError as exc:
            fail(f"cannot read {questions}: {exc.strerror or exc}")
        if not asked:
            fail(f"{questions}: no questions in it", hint="one question a line")
    resolver = None
    if patient.startswith("llm:"):
        from medsim.models.config import resolve_model

        resolver = _resolver(resolve_model, base_url, models_file)
    with Progress(TextColumn("[bold]asking"), BarColumn(bar_width=30), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True, disable=json_out) as progress:
        task = progress.add_task("asking", total=None)
        from medsim.models.base import ModelCallError

        try:
            result = asyncio.run(pc.calibrate_patient(
                patient, cases, resolver=resolver, questions=asked, seed=seed,
                progress=lambda done, total: progress.update(task, completed=done, total=total)))
        except ModelCallError as exc:
            progress.stop()
            fail(f"the patient model could not be reached, nothing was calibrated: {exc.reason}",
                 hint=ENDPOINT_HINT, code=EXIT_STOPPED)
    if json_out:
        print(json.dumps(result.as_dict(), ensure_ascii=False, indent=2, default=str))
    else:
        _print(result, examples)
    if not result.fit:
        raise typer.Exit(1)


def _resolver(resolve_model, base_url, models_file):
    cache: dict = {}

    def resolve(name: str):
        if name not in cache:
            cache[name] = resolve_model(name, base_url=base_url, models_file=models_file)
        return cache[name]

    return resolve


def _pct(value: float) -> str:
    return f"{value:.0%}"


def _print(result, examples: int) -> None:
    m = result.metrics
    model = result.model or {}
    where = f" (model {model.get('model')} @ {model.get('base_url')})" if model.get("base_url") else ""
    console.print(f"[bold]patient {safe(result.patient)}[/]{safe(where)}: {m['turns']} replies on "
                  f"{len(result.cases)} cases ({safe(', '.join(result.cases))})")
    table = Table(header_style="bold")
    for column in ("", "first attempt", "kept (what a run records)"):
        table.add_column(column)
    roles = ", ".join(f"{k} {v}" for k, v in m["role_breaks_by_role"].items())
    table.add_row("breaks character" + (f" ({safe(roles)})" if roles else ""), _pct(m["role_break_rate"]),
                  _pct(m["kept_role_break_rate"]))
    table.add_row("invents or contradicts the record", _pct(m["invented_rate"]), _pct(m["kept_invented_rate"]))
    table.add_row("  of which contradicts it", _pct(m["contradicted_rate"]), "")
    table.add_row("leaks the diagnosis", _pct(m["leak_rate"]), _pct(m["kept_leak_rate"]))
    table.add_row("regenerated", "", _pct(m["regeneration_rate"]))
    table.add_row("any flag kept", "", _pct(m["kept_flagged_rate"]))
    table.add_row("answers 不知道/不清楚", "", _pct(m["unknown_rate"]))
    console.print(table)
    for kind, items in result.examples.items():
        for item in items[:examples]:
            kept = f"\n      [dim]kept after regeneration:[/] {safe(item['kept'])}" if item.get("kept") else ""
            console.print(f"  [yellow]{safe(kind)}[/] {safe(item['case'])} 问：{safe(item['question'])} "
                          f"答：{safe(item['reply'])}\n      [dim]{safe(item['reason'])}[/]{kept}")
    colour = "green" if result.fit else "red"
    console.print(f"verdict: [bold {colour}]{safe(result.verdict)}[/]")
    for reason in result.reasons:
        console.print(f"  - {safe(reason)}")
