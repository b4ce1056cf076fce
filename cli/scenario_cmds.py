"""validate, list, show, new, schema: the authoring commands."""

from __future__ import annotations

import re
from pathlib import Path

from rich.panel import Panel
from rich.table import Table

from cli.console import EXIT_FAIL, EXIT_OK, EXIT_USAGE, console, err_console, fail
from cli.safe import safe
from medsim.importers import IMPORTED_IDS
from medsim.paths import scenarios_dir
from medsim.scenario.case_check import check_case_file, is_case_file
from medsim.scenario.load import ScenarioInvalid, load_scenario
from medsim.scenario.registry import get_scenario, get_taxonomy, scenario_ids, scenario_paths, taxonomy_paths
from medsim.scenario.schema import RECORD_SECTIONS, Taxonomy
from medsim.scenario.yamlpos import FileProblem, Problem, load_yaml


def _expand(paths: list[Path]) -> list[Path]:
    if not paths:
        return scenario_paths()
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += scenario_paths(path)
        else:
            out.append(path)
    return out


def _check_taxonomy(path: Path) -> list[Problem]:
    from pydantic import ValidationError

    from medsim.scenario.load import _pydantic_problems

    try:
        located = load_yaml(path)
    except FileProblem as exc:
        return [exc.problem]
    try:
        Taxonomy.model_validate(located.data)
    except ValidationError as exc:
        return _pydantic_problems(exc, located)
    return []


def _validate_case_file(path: Path) -> list[Problem]:
    """A case file given on its own: checked alone and through the scenarios that read it."""
    result = check_case_file(path)
    unique = list({str(p): p for p in result.problems}.values())  # one file read by several scenarios
    if not unique:
        through = (f", checked through scenario(s) {', '.join(result.scenarios)}" if result.scenarios else
                   "; no scenario beside it reads it, so gold answers were not checked against answer fields "
                   "(validate the scenario file that names it in `cases:`)")
        console.print(f"[green]ok[/]: case file {safe(path)} valid ({result.cases} case(s)){safe(through)}")
    return unique


def validate_command(paths: list[Path], *, phi: bool) -> None:
    files = _expand(paths)
    if not files:
        fail("no scenario files found", hint="give a scenario file or a folder holding *.yaml")
    problems: list[Problem] = []
    warnings: list[Problem] = []
    checked = case_files = 0
    for path in files:
        if not path.exists():
            problems.append(Problem(str(path), 1, 1, "", "file not found"))
            continue
        if is_case_file(path):
            problems += _validate_case_file(path)
            case_files += 1
            continue
        try:
            loaded = load_scenario(path, check_phi=phi, check_scorers=True)
            warnings += loaded.warnings
            checked += 1
        except ScenarioInvalid as exc:
            problems += exc.problems
    if not paths:  # the bundled set: taxonomies must name real scenarios
        known = {p.stem for p in scenario_paths()}
        for path in taxonomy_paths():
            taxonomy_problems = _check_taxonomy(path)
            problems += taxonomy_problems
            taxonomy = None if taxonomy_problems else get_taxonomy(path.stem)
            for dim in taxonomy.dimensions if taxonomy else []:
                for sid in dim.scenarios:
                    if sid not in known and sid not in IMPORTED_IDS:
                        warnings.append(Problem(str(path), 1, 1, f"dimensions.{dim.id}",
                                                f"scenario {sid!r} is not bundled", severity="warning"))
    for warning in warnings:
        err_console.print(f"[yellow]{safe(warning)}[/]  [dim](warning)[/]")
    for problem in problems:
        err_console.print(f"[red]{safe(problem)}[/]")
    if problems:
        err_console.print(f"[bold red]{len(problems)} error(s)[/] in {len(files)} file(s)")
        raise SystemExit(EXIT_USAGE)
    if case_files and not checked:
        raise SystemExit(EXIT_OK)  # each case file said its own ok
    where = f" in {scenarios_dir()}" if not paths else ""
    console.print(f"[green]ok[/]: {checked} scenario file(s) valid{safe(where)}"
                  + (f", {len(warnings)} warning(s)" if warnings else ""))
    raise SystemExit(EXIT_OK)


def list_command() -> None:
    table = Table(title="medsim scenarios", header_style="bold")
    for column in ("id", "中文名", "dimension", "kind", "cases"):
        table.add_column(column, justify="right" if column == "cases" else "left", overflow="fold")
    broken = []
    for path in scenario_paths():
        try:
            loaded = get_scenario(path.stem)
        except ScenarioInvalid as exc:
            broken.append((path, exc))
            table.add_row(safe(path.stem), "[red]invalid[/]", "", "", "")
            continue
        s = loaded.scenario
        table.add_row(safe(s.id), safe(s.name), safe(s.dimension), s.kind, str(len(loaded.cases)))
    console.print(table)
    if broken:
        err_console.print(f"[red]{len(broken)} scenario file(s) do not validate;[/] run `medsim validate`")
        raise SystemExit(EXIT_USAGE)


def show_command(scenario_id: str, case_id: str | None) -> None:
    loaded = get_scenario(scenario_id)
    s = loaded.scenario
    if case_id and case_id not in {c.id for c in loaded.cases}:
        from cli.console import fail_no_case

        fail_no_case(case_id, f"scenario {s.id}", [c.id for c in loaded.cases])
    taxonomy = get_taxonomy()
    dims = ", ".join(taxonomy.dimension_of(s.id)) or s.dimension
    lines = [
        f"[bold]{safe(s.name)}[/] ({safe(s.name_en)}) — id [cyan]{safe(s.id)}[/], kind {s.kind}",
        f"dimension: {safe(dims)}   cases: {len(loaded.cases)}"
        + (f" from {safe(loaded.case_path.name)}" if loaded.case_path else " (inline)"),
    ]
    if loaded.case_source:
        lines.append(f"case source: {safe(loaded.case_source)}")
    ids = [c.id for c in loaded.cases]
    lines.append("case ids: " + safe(", ".join(ids[:40]) + (f" … ({len(ids)} in all)" if len(ids) > 40 else "")))
    if s.description:
        lines.append(safe(s.description.strip()))
    for ref in s.references:
        lines.append(f"[dim]reference:[/] {safe(ref)}")
    console.print(Panel("\n".join(lines), title="scenario", expand=False))
    clinician = [f"[bold]instructions[/]\n{safe(s.clinician.instructions.strip())}"]
    if s.clinician.prompt:
        clinician.append(f"[bold]prompt template[/]\n{safe(s.clinician.prompt.strip())}")
    answer = s.final_answer_spec
    clinician.append(f"max turns {s.clinician.max_turns}; answer format {answer.format}"
                     + (f" {safe(answer.fields)}" if answer.fields else ""))
    console.print(Panel("\n\n".join(clinician), title="clinician (model under test)", expand=False))
    if s.kind == "dialogue":
        d = s.patient.disclose
        console.print(Panel(
            f"opening: {safe(s.patient.opening)}\npersona: {safe(s.patient.persona.model_dump())}\n"
            f"volunteered: {', '.join(d.volunteered)}\non ask: {', '.join(d.on_ask)}\n"
            f"on exam: {', '.join(d.on_exam)}\nnever: {', '.join(d.never)}",
            title="patient", expand=False))
    for stage in s.stages:
        console.print(Panel(f"reveal: {', '.join(stage.reveal) or '—'}\n{safe(stage.prompt.strip())}\n"
                            f"answer: {stage.answer.format}{' (scored)' if stage.scored else ''}",
                            title=f"stage {safe(stage.id)}", expand=False))
    scoring = Table(title="scoring", header_style="bold")
    for column in ("scorer", "weight", "config"):
        scoring.add_column(column, overflow="fold")
    for ref in s.scoring:
        scoring.add_row(safe(ref.name), f"{ref.weight:g}", safe(ref.config or ""))
    console.print(scoring)
    case = loaded.case(case_id) if case_id else loaded.cases[0]
    body = [f"[bold]{safe(case.id)}[/]  {safe(case.department or '')}  [dim]{safe(case.source or '')}[/]"]
    for field, title in RECORD_SECTIONS:
        text = case.record_section(field)
        if text:
            body.append(f"[bold]{title}[/]：{safe(text)}")
    if case.question:
        body.append(f"[bold]题干[/]：{safe(case.question)}")
    for letter, option in case.options.items():
        body.append(f"  {letter}. {safe(option)}")
    for index, step in enumerate(case.steps, 1):
        body.append(f"  {index}. {safe(step)}")
    if case.probe:
        body.append(f"[bold]probe[/]：{safe(case.probe.model_dump(exclude_none=True))}")
    if case.gold:
        body.append(f"[bold]gold[/]：{safe(case.gold)}")
    if case.key_facts:
        body.append(f"[bold]key facts[/]：{safe('；'.join(case.key_facts))}")
    console.print(Panel("\n".join(body), title="sample case", expand=False))


_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def new_command(scenario_id: str, kind: str, directory: Path) -> None:
    from medsim.scenario.scaffold import scaffold

    if not _ID.match(scenario_id):
        fail(f"{scenario_id!r} is not a valid scenario id",
             hint="use lower-case letters, digits and _ starting with a letter, e.g. chest_pain_triage")
    if kind not in {"dialogue", "single_turn", "staged"}:
        fail(f"unknown kind {kind!r}", hint="use --kind dialogue, single_turn or staged")
    if scenario_id in scenario_ids() or scenario_id in IMPORTED_IDS:
        # `medsim run ID` looks the id up among the bundled scenarios first: the new file would never run
        fail(f"{scenario_id!r} is already a bundled scenario id; a new scenario of that name would be hidden by it "
             "(`medsim run`, `show`, `score` with the id load the bundled one)",
             hint=f"choose another id, e.g. `medsim new my_{scenario_id} --kind {kind}`")
    try:
        written = scaffold(scenario_id, kind, directory)
    except FileExistsError as exc:
        fail(str(exc))
    for path in written:
        console.print(f"wrote {safe(path)}")
    console.print(f"next: edit them, then [bold]medsim validate {safe(written[0])}[/]")


def schema_command(out: Path | None, check: bool) -> None:
    from medsim.scenario.jsonschema import SCHEMAS, render, stale, write_all

    folder = out or scenarios_dir() / "schema"
    if check:
        differing = stale(folder)
        if differing:
            err_console.print(f"[red]stale JSON Schema in {safe(folder)}:[/] {', '.join(differing)}; "
                              "run `medsim schema` and commit the result")
            raise SystemExit(EXIT_FAIL)
        console.print(f"[green]ok[/]: {len(SCHEMAS)} schema file(s) in {safe(folder)} match the models")
        return
    if out is None and not (scenarios_dir() / ".medsim-bundle").exists():
        # An installed copy: print rather than write into site-packages.
        console.print(render("scenario.schema.json"), markup=False, highlight=False)
        return
    for path in write_all(folder):
        console.print(f"wrote {safe(path)}")
