"""medsim score: a scenario's scorers on a fixed answer, for authors and outside probes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.table import Table

from cli.console import console, err_console, fail, fail_no_case
from cli.safe import safe


def _parse_answer(text: str) -> Any:
    stripped = text.strip()
    if stripped[:1] in "{[":
        try:
            return json.loads(stripped)
        except ValueError:
            return text  # prose that starts with a bracket: scored as written
    return text


def load_scenario_or_fail(scenario: str):
    """A scenario by id or path, or a clear error (did-you-mean; its validation problems) and exit 2."""
    from medsim.scenario.load import ScenarioInvalid
    from medsim.scenario.registry import UnknownName, get_scenario

    candidate = Path(scenario)
    if (candidate.suffix in {".yaml", ".yml"} or "/" in scenario) and not candidate.is_file():
        # a path, not an id: say which file is missing rather than list the bundled ids
        fail(f"scenario file not found: {scenario} (looked for {candidate.resolve()})",
             hint="check the path, or give a bundled scenario id (`medsim list` shows them)")
    try:
        return get_scenario(scenario, check_scorers=True)
    except UnknownName as exc:
        fail(str(exc), hint="`medsim list` shows the bundled ids; or give a scenario file's path")
    except ScenarioInvalid as exc:
        for problem in exc.problems:
            err_console.print(safe(str(problem)))
        fail(f"{scenario}: the scenario does not validate", hint=f"run `medsim validate {scenario}`")


def _case(loaded, case_id: str, where: str = ""):
    for case in loaded.cases:
        if case.id == case_id:
            return case
    fail_no_case(case_id, f"scenario {loaded.scenario.id}", [c.id for c in loaded.cases], show=loaded.scenario.id,
                 prefix=where)


def _turns(path: Path | None, value: Any = None) -> list[dict] | None:
    if path is None and value is None:
        return None
    if path is not None:
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            fail(f"cannot read the transcript {path}: {exc.strerror or exc}")
        except ValueError as exc:
            fail(f"{path}: not JSON ({exc})", hint='write a list: [{"speaker": "patient", "text": "…"}, …]')
    if not isinstance(value, list):
        fail("the transcript must be a JSON list of {speaker, text} turns")
    return value


def _judge_services(judge: str | None, base_url: str | None, models_file: str | None) -> dict:
    """The judge a checklist scorer grades with, resolved as a run resolves it and looked at once: a
    dead endpoint is said before any answer is scored. Without --judge the offline rules grade."""
    if judge is None:
        if base_url or models_file:
            fail("--base-url and --models-file go with --judge MODEL", hint="e.g. --judge qwen --base-url http://127.0.0.1:8080/v1")
        return {}
    from cli.endpoints import ENDPOINT_HINT, check_endpoints
    from medsim.models.config import ConfigError, resolve_model

    try:
        model = resolve_model(judge, base_url=base_url, models_file=models_file, flag="--judge")
        check_endpoints([("judge", model)])
    except ConfigError as exc:
        fail(str(exc), hint=ENDPOINT_HINT)
    return {"judge": model}


def score_command(scenario: str, case_id: str | None, answer: str | None, answers: Path | None,
                  transcript: Path | None, scorer: str | None, as_json: bool, judge: str | None = None,
                  base_url: str | None = None, models_file: str | None = None) -> None:
    from medsim.scoring.fixed import FixedAnswerError, check_inputs, score_fixed

    if (answer is None) == (answers is None):
        fail("give exactly one of --answer TEXT_OR_JSON (with --case) or --answers FILE.jsonl",
             hint="""e.g. medsim score diagnosis --case inp-11 --answer '{"diagnosis": "右肺上叶恶性肿瘤"}'""")
    loaded = load_scenario_or_fail(scenario)
    services = _judge_services(judge, base_url, models_file)
    if answer is not None:
        if not case_id:
            fail("--answer needs --case ID")
        case = _case(loaded, case_id)
        try:
            result = score_fixed(loaded.scenario, case, _parse_answer(answer), turns=_turns(transcript),
                                 scorer=scorer, case_pool=loaded.cases, services=services)
        except FixedAnswerError as exc:
            fail(str(exc))
        if as_json:
            print(json.dumps(result.to_dict(), ensure_ascii=False))
        else:
            _print(result)
        return
    stream = sys.stdin if str(answers) == "-" else None
    try:
        raw = stream.buffer.read() if stream else answers.read_bytes()
        lines = raw.decode("utf-8-sig").splitlines()
    except OSError as exc:
        fail(f"cannot read {answers}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        from cli.errors import UTF8_HINT, not_utf8

        fail(not_utf8("stdin" if stream else answers, exc), hint=UTF8_HINT)
    # every line is checked before any is scored: a bad line 500 is said before 499 results are printed
    items = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{answers}:{number}: "
        try:
            row = json.loads(line)
        except ValueError as exc:
            fail(f"{where}not a JSON object ({exc.msg})", hint='each line: {"case": "inp-11", "answer": "…"}')
        if not isinstance(row, dict) or "case" not in row or "answer" not in row:
            fail(f"{where}needs at least `case` and `answer`")
        case = _case(loaded, str(row["case"]), where)
        try:
            check_inputs(loaded.scenario, row.get("transcript"), row.get("scorer") or scorer)
        except FixedAnswerError as exc:
            fail(f"{where}{exc}")
        answer_value = row["answer"] if not isinstance(row["answer"], str) else _parse_answer(row["answer"])
        items.append((number, case, answer_value, row))
    if not items:
        fail(f"{answers}: no answers in the file", hint='each line: {"case": "inp-11", "answer": "…"}')
    for number, case, answer_value, row in items:
        result = score_fixed(loaded.scenario, case, answer_value, turns=row.get("transcript"),
                             scorer=row.get("scorer") or scorer, case_pool=loaded.cases, services=services)
        print(json.dumps({**result.to_dict(), "line": number}, ensure_ascii=False))


def _print(result) -> None:
    table = Table(title=f"{safe(result.scenario_id)} · {safe(result.case_id)}")
    table.add_column("scorer")
    table.add_column("value", justify="right")
    table.add_column("reasons")
    for s in result.scores:
        value = "—" if s.value is None else f"{s.value:.3f}"
        table.add_row(safe(s.scorer), value, safe("；".join(s.reasons[:4]) + (f"（{s.error}）" if s.error else "")))
    console.print(table)
    item = "—" if result.item_score is None else f"{result.item_score:.3f}"
    if result.gates and result.mean is not None:
        # the gates' arithmetic: why a right department still gives 0 when the triage level is wrong
        factors = " × ".join([f"{result.mean:.3f} (weighted mean)",
                              *(f"{value:.3f} ({safe(name)} gate)" for name, value in result.gates)])
        item = f"{item} = {factors}"
    console.print(f"item score {item}" + (f"   parse: {safe(result.parse_error)}" if result.parse_error else "")
                  + (f"   [yellow]format: {safe(result.parse_note)}[/]" if result.parse_note else ""))
