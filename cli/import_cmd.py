"""``medsim import llmeval-med | cmb-clin | mcq``: public benchmarks as medsim scenarios."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.console import console, err_console, fail
from cli.safe import safe

app = typer.Typer(no_args_is_help=True)
Out = Annotated[Path, typer.Option("--out", help="Folder for the scenario and case files")]


def _finish(result, out: Path) -> None:
    from medsim.importers.common import write_import
    from medsim.scenario.load import ScenarioInvalid

    if result.n_cases == 0:  # every importer says why itself; this is the last line of defence
        fail("nothing to import: no case survived", hint="see the skipped rows above, or check the file")
    if out.exists() and not out.is_dir():
        fail(f"--out {out} is a file, not a folder",
             hint="give a folder for the scenario and case files, e.g. --out imported/NAME")
    try:
        written = write_import(result, out)
    except ScenarioInvalid as exc:  # an importer bug: say what, keep the user's data untouched
        fail("the imported files do not validate (a medsim bug):\n" + str(exc))
    for item in result.scenarios:
        console.print(f"imported [bold]{safe(item.scenario['id'])}[/]: {len(item.cases)} case(s) → "
                      f"{safe(out / (item.scenario['id'] + '.yaml'))}")
    if result.skipped:
        err_console.print(f"[yellow]skipped {len(result.skipped)} row(s):[/]")
        for where, why in result.skipped[:50]:
            err_console.print(f"  {safe(where)}: {safe(why)}")
        if len(result.skipped) > 50:
            from collections import Counter

            rest = Counter(why for _, why in result.skipped[50:])
            err_console.print(f"  … and {len(result.skipped) - 50} more: "
                              + "; ".join(f"{n}× {safe(why)}" for why, n in rest.most_common(5)))
    for note in result.notes:
        console.print(f"[dim]note: {safe(note)}[/]")
    first = out / f"{result.scenarios[0].scenario['id']}.yaml" if result.scenarios else out
    console.print(f"{len(written) // 2} scenario(s), {result.n_cases} case(s). Next: "
                  f"[bold]medsim validate {safe(out)}[/] and [bold]medsim run {safe(first)} --model …[/]")


def _guard(fn, *args):
    from medsim.importers.common import ImportFailed

    try:
        return fn(*args)
    except ImportFailed as exc:
        fail(str(exc), hint=exc.hint)


@app.command("llmeval-med")
def llmeval_med(file: Annotated[Path, typer.Argument(help="LLMEval-Med dataset.json")],
                out: Out = Path("imported/llmeval-med")) -> None:
    """LLMEval-Med: five scenarios (MK, MLU, MR, MSE, MTG) judged by its 1–5 protocol."""
    from medsim.importers.llmeval_med import import_llmeval_med

    _finish(_guard(import_llmeval_med, file), out)


@app.command("cmb-clin")
def cmb_clin(file: Annotated[Path, typer.Argument(help="CMB-Clin CMB-test-qa.json / CMB-Clin-qa.json")],
             out: Out = Path("imported/cmb-clin")) -> None:
    """CMB-Clin: each case as a multi-turn consultation, one question a turn."""
    from medsim.importers.cmb_clin import import_cmb_clin

    _finish(_guard(import_cmb_clin, file), out)


@app.command("mcq")
def mcq(file: Annotated[Path, typer.Argument(help="A JSONL file (one question a line) or a JSON array of questions")],
        map_: Annotated[str, typer.Option("--map", help="question=F,options=F,answer=F[,id=F]")] = "",
        scenario_id: Annotated[str, typer.Option("--id", help="Scenario id")] = "imported_mcq",
        name: Annotated[str, typer.Option(help="中文名")] = "导入的选择题",
        out: Out = Path("imported/mcq")) -> None:
    """Any multiple-choice JSONL or JSON array (CMExam, CMB-Exam, MedQA-style) as a choice scenario."""
    from medsim.importers.mcq import import_mcq, parse_mapping

    mapping = _guard(parse_mapping, map_)
    _finish(_guard(import_mcq, file, mapping, scenario_id, name), out)
