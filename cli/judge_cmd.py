"""``medsim judge agree``: how well the judge agrees with physicians' labels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from cli.console import console, fail
from cli.safe import safe

app = typer.Typer(no_args_is_help=True)


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
