"""medsim validity: can a scenario's score be gamed by a clinician that knows no medicine?"""

from __future__ import annotations

import json
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cli.console import EXIT_FAIL, EXIT_OK, console, err_console, fail
from cli.safe import safe


def _load(scenarios: list[str]):
    from cli.score_cmd import load_scenario_or_fail
    from medsim.scenario.registry import scenario_ids

    names = scenario_ids() if not scenarios or scenarios == ["all"] else scenarios
    return [load_scenario_or_fail(name) for name in names]


def _strategies(names: list[str] | None) -> list[str] | None:
    if not names:
        return None
    from medsim.models.adversaries import STRATEGIES, strategy_names

    known = strategy_names()
    out = ["baseline", "reference"]
    for name in names:
        for part in name.split(","):
            part = part.strip()
            if not part or part in ("baseline", "reference"):
                continue
            matches = [s for s in known if s == part or s.split("/")[0] == part]
            if not matches:
                fail(f"unknown strategy {part!r}", hint=f"known: {', '.join(STRATEGIES)} (or NAME/VARIANT: "
                     f"{', '.join(s for s in known if '/' in s)})")
            out += [f"adversary:{m}" for m in matches if f"adversary:{m}" not in out]
    return out


def validity_command(scenarios: list[str], strategies: list[str] | None, seed: int, as_json: bool,
                     variants: bool, out: Path | None, workers: int = 1,
                     floors_out: Path | None = None) -> None:
    from medsim.validity import check_validity

    loaded = _load(scenarios)
    names = _strategies(strategies)
    from medsim.validity import default_strategies

    planned = len(names or default_strategies()) * sum(len(item.cases) for item in loaded)
    with Progress(TextColumn("[bold]validity[/] {task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err_console, transient=True, disable=as_json) as progress:
        task = progress.add_task("", total=planned)

        def on_item(model: str, scenario: str) -> None:
            progress.update(task, advance=1, description=f"{model.removeprefix('adversary:')} · {scenario}")

        report = check_validity(loaded, names, seed=seed, on_item=on_item, workers=workers)
    data = report.to_dict()
    if floors_out is not None:
        from medsim.validity import floors_of

        floors_out.write_text(json.dumps(floors_of(report, loaded), ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                              encoding="utf-8")
    if out is not None:
        out.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        _print_table(report, variants)
    raise SystemExit(EXIT_FAIL if report.flagged() or report.reference_short() else EXIT_OK)


def _print_table(report, variants: bool) -> None:
    from medsim.validity import REFERENCE_MIN

    table = Table(title="medsim validity: mean item score, unscorable items count 0")
    table.add_column("strategy", no_wrap=True)
    for sid in report.scenarios:
        table.add_column(sid, justify="right")
    rows = ["baseline", "reference"] + (report.adversaries() if variants else report.classes())

    def cell_text(strategy: str, sid: str) -> str:
        cell = report.cells.get((strategy, sid)) if strategy in report.strategies else report.class_cell(strategy, sid)
        if cell is None:
            return "—"
        text = f"{cell.score:.2f}"
        if strategy == "reference" and cell.score < REFERENCE_MIN:
            return f"[yellow]{text}![/]"
        if strategy not in ("baseline", "reference") and cell.score > report.bar(sid) + 1e-9:
            return f"[bold red]{text}*[/]"
        return text

    for strategy in rows:
        table.add_row(strategy, *[cell_text(strategy, sid) for sid in report.scenarios])
    console.print(table)
    flagged = report.flagged()
    console.print(f"* above max({report.floor:.2f}, baseline): {len(flagged)} cell(s)"
                  + ("" if variants else "  (a class shows its best variant; --variants shows each)"))
    for cell in flagged:
        console.print(f"  [red]{safe(cell.strategy)}[/] on {safe(cell.scenario)}: {cell.score:.3f} > "
                      f"{report.bar(cell.scenario):.3f}  " + safe(", ".join(f"{k} {v:.2f}"
                                                                           for k, v in cell.by_scorer.items())))
    for cell in report.reference_short():
        console.print(f"  [yellow]reference[/] on {safe(cell.scenario)}: {cell.score:.3f} < {REFERENCE_MIN}")
    if not flagged and not report.reference_short():
        console.print("[green]no strategy without medicine beats the baseline, and the reference reaches "
                      f"{REFERENCE_MIN}[/]")
