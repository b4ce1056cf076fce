"""``medsim patient``: the simulated patient on its own, without a clinician.

``medsim patient ask SCENARIO --case ID --question TEXT`` prints what the case's patient answers
and which topics it heard; ``--lines FILE`` asks one question per line (one conversation, in
order, unless ``--fresh``) and with ``--json`` prints one JSON object per line. For case authors
checking what their record makes the patient say, and for outside evaluation of the simulator
in one process.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from cli.console import EXIT_STOPPED, console, fail, fail_no_case
from cli.endpoints import ENDPOINT_HINT
from cli.safe import safe

app = typer.Typer(no_args_is_help=True)


@app.command("ask")
def ask_command(
    scenario: Annotated[str, typer.Argument(help="Scenario id or file (its patient settings: persona, disclosure)")],
    case_id: Annotated[str, typer.Option("--case", help="Case id in that scenario")],
    question: Annotated[str | None, typer.Option("--question", "-q", help="One clinician question")] = None,
    lines: Annotated[Path | None, typer.Option(
        "--lines", help="A UTF-8 file, one question per line (blank lines and lines starting with # skipped); "
                        "- reads stdin")] = None,
    patient: Annotated[str, typer.Option(help="Patient simulator: rule | llm:MODEL")] = "rule",
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object per question (JSON Lines)")] = False,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="Answer every line as a first question to a new patient, not as one conversation")] = False,
    opening: Annotated[bool, typer.Option(help="Also print the patient's opening words (text output)")] = True,
    seed: Annotated[int, typer.Option(help="Seed for the patient")] = 0,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint for an llm: patient")] = None,
    models_file: Annotated[str | None, typer.Option(help="models.yaml for an llm: patient")] = None,
) -> None:
    """What the simulated patient of a case answers, and which topics it heard."""
    if (question is None) == (lines is None):
        fail("give exactly one of --question TEXT or --lines FILE",
             hint="e.g. medsim patient ask triage --case tri-001 --question 哪里不舒服？")
    if not (patient == "rule" or (patient.startswith("llm:") and patient[4:].strip())):
        fail(f"unknown patient {patient!r}", hint="use --patient rule or --patient llm:MODEL")
    questions = [question or ""] if question is not None else _read_lines(lines)
    if not questions:
        fail(f"{lines}: no questions in the file", hint="write one clinician question per line")
    loaded, case = _scenario_and_case(scenario, case_id)
    asyncio.run(_ask(loaded.scenario, case, questions, patient, seed, fresh, json_out, opening and not json_out,
                     base_url, models_file))


def _read_lines(path: Path | None) -> list[str]:
    if path is None:
        return []
    if str(path) == "-":
        text = sys.stdin.read()
    else:
        if not path.is_file():
            fail(f"no such file: {path}", hint="--lines takes a text file with one question per line")
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            from cli.errors import UTF8_HINT, not_utf8

            fail(not_utf8(path, exc), hint=UTF8_HINT)
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _scenario_and_case(scenario_id: str, case_id: str):

    from medsim.scenario.registry import get_scenario

    loaded = get_scenario(scenario_id)  # an unknown id raises UnknownName: did-you-mean, no traceback
    try:
        return loaded, loaded.case(case_id)
    except KeyError:
        fail_no_case(case_id, f"scenario {loaded.scenario.id}", [c.id for c in loaded.cases], show=loaded.scenario.id)
        raise  # unreachable: fail exits


async def _ask(scenario, case, questions: list[str], spec: str, seed: int, fresh: bool, json_out: bool,
               show_opening: bool, base_url: str | None, models_file: str | None) -> None:
    from medsim.models.base import ModelCallError
    from medsim.sim.patient import make_patient

    resolver = None
    if spec.startswith("llm:"):
        from medsim.models.config import resolve_model

        def resolver(name: str):
            return resolve_model(name, base_url=base_url, models_file=models_file)

    def new_patient():
        try:
            return make_patient(spec, scenario, case, seed=seed, model_resolver=resolver)
        except ValueError as exc:
            fail(str(exc), hint="name the model in models.yaml or pass --base-url")

    patient = new_patient()
    if resolver is not None:
        await _check_patient_endpoint(resolver(spec[4:]))
    try:
        await _converse(patient, new_patient, scenario, case, questions, spec, fresh, json_out, show_opening)
    except ModelCallError as exc:
        fail(f"the patient model could not be reached: {exc.reason}", hint=ENDPOINT_HINT, code=EXIT_STOPPED)


async def _check_patient_endpoint(model) -> None:
    from medsim.models.preflight import endpoint_problem

    problem = await endpoint_problem(model)
    if problem:
        fail(f"patient model {getattr(model, 'name', '')}: {problem}", hint=ENDPOINT_HINT, code=EXIT_STOPPED)


async def _converse(patient, new_patient, scenario, case, questions: list[str], spec: str, fresh: bool,
                    json_out: bool, show_opening: bool) -> None:
    from medsim.sim.transcript import Transcript

    transcript = Transcript(scenario_id=scenario.id, case_id=case.id)
    opening = await patient.opening()
    transcript.add("patient", opening.text)
    if show_opening:
        console.print(f"[dim]{safe(case.id)} · {safe(scenario.id)} · patient {safe(spec)}[/]")
        console.print(f"[bold green]患者[/] {safe(opening.text)}")
    for number, text in enumerate(questions, 1):
        if fresh and number > 1:
            patient = new_patient()
            transcript = Transcript(scenario_id=scenario.id, case_id=case.id)
            await patient.opening()
        transcript.add("clinician", text)
        reply = await patient.reply(text, transcript.turns)
        transcript.add("patient", reply.text)
        row = {
            "n": number, "scenario": scenario.id, "case": case.id, "patient": spec, "question": text,
            "topics": list(reply.topics), "symptoms": list(reply.meta.get("symptoms", [])),
            "conditions": list(reply.meta.get("conditions", [])), "reply": reply.text,
            "fields": list(reply.fields), "disclosed": list(reply.disclosed),
        }
        if reply.flags:
            row["flags"] = list(reply.flags)
        if json_out:
            print(json.dumps(row, ensure_ascii=False), flush=True)
            continue
        heard = ", ".join(reply.topics) or "—"
        named = [*row["symptoms"], *row["conditions"]]
        console.print(f"[bold cyan]医生[/] {safe(text)}")
        console.print(f"[dim]  topics: {safe(heard)}{'  · named: ' + safe('、'.join(named)) if named else ''}[/]")
        console.print(f"[bold green]患者[/] {safe(reply.text)}")



# ``medsim patient calibrate`` (the LLM patient qualified before use) lives in its own module.
from cli.patient_calibrate_cmd import calibrate_command  # noqa: E402

app.command("calibrate")(calibrate_command)
