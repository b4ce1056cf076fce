"""Load a scenario file and its cases, collecting every problem rather than stopping at the first.

All problems come back as ``Problem`` records (``path:line:col: field: message``); nothing here
raises a traceback at an author. Cross-file rules live here too: case files stay inside the
scenario's folder, case ids are unique, gold answers carry the fields the scenario asks for.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from medsim.scenario.schema import Case, CaseFile, Scenario
from medsim.scenario.yamlpos import FileProblem, Located, Problem, load_jsonl, load_yaml


@dataclass
class LoadedScenario:
    scenario: Scenario
    cases: list[Case]
    path: Path
    case_path: Path | None = None
    case_source: str | None = None
    warnings: list[Problem] = field(default_factory=list)

    def case(self, case_id: str) -> Case:
        for case in self.cases:
            if case.id == case_id:
                return case
        raise KeyError(case_id)


class ScenarioInvalid(Exception):
    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _field_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _pydantic_problems(exc: ValidationError, located: Located, prefix: tuple = ()) -> list[Problem]:
    problems = []
    for error in exc.errors(include_url=False):
        loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        # Union branches add the type name to the location ("cases.list[Case]"): drop them.
        loc = tuple(p for p in loc if not (isinstance(p, str) and ("[" in p or p in {"str", "list"})))
        line, col = located.where(prefix + loc)
        message = error["msg"]
        if error["type"] == "extra_forbidden":
            close = difflib.get_close_matches(str(loc[-1]), _known_fields(), n=1, cutoff=0.75) if loc else []
            message = (f"unknown field; did you mean {close[0]}?" if close else
                       "unknown field (check the spelling; see scenarios/README.md for the fields)")
        elif error["type"] == "missing":
            message = "required field is missing"
        elif isinstance(error.get("input"), str | int | float) and len(str(error["input"])) <= 40:
            message = f"{message} (got {error['input']!r})"
        problems.append(Problem(located.path, line, col, _field_path(prefix + loc), message))
    return problems


@lru_cache(maxsize=1)
def _known_fields() -> list[str]:
    """Every field name of the file formats, for did-you-mean on a misspelt key."""
    from medsim.scenario import schema

    names: set[str] = set()
    for model in vars(schema).values():
        if isinstance(model, type) and issubclass(model, BaseModel) and model is not BaseModel:
            names |= set(model.model_fields)
    return sorted(names)


def _validate(model: type[BaseModel], data: Any, located: Located, prefix: tuple = ()):
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, _pydantic_problems(exc, located, prefix)


def load_case_file(path: Path, *, display: str | None = None) -> tuple[list[Case], str | None, list[Problem], Located]:
    """Cases from a YAML file ({source, cases}) or a JSONL file (one case a line)."""
    display = display or _display(path)
    if path.suffix == ".jsonl":
        located = load_jsonl(path, display)
        cases, problems = [], []
        for index, item in enumerate(located.data):
            case, errs = _validate(Case, item, located, (index,))
            problems += errs
            if case:
                if not case.source:
                    line, col = located.where((index,))
                    problems.append(Problem(display, line, col, f"[{index}].source",
                                            "each JSONL case needs a source (where it comes from)"))
                cases.append(case)
        return cases, None, problems, located
    located = load_yaml(path, display)
    if isinstance(located.data, list):
        line, col = located.where(())
        return [], None, [Problem(display, line, col, "", "a case file is a mapping with `source:` and `cases:`")], located
    case_file, problems = _validate(CaseFile, located.data, located)
    if case_file is None:
        return [], None, problems, located
    return case_file.cases, case_file.source, problems, located


@lru_cache(maxsize=64)
def _load_case_file_cached(path: Path, display: str, mtime_ns: int, size: int):
    """Scenarios share case pools (the four inpatient stages): parse each file once per change."""
    return load_case_file(path, display=display)


def _resolve_case_path(scenario_path: Path, ref: str, located: Located) -> tuple[Path | None, list[Problem]]:
    line, col = located.where(("cases",))
    folder = scenario_path.resolve().parent
    target = (folder / ref).resolve()
    if not target.is_relative_to(folder):
        return None, [Problem(located.path, line, col, "cases",
                              f"{ref!r} points outside the scenario's folder {folder}; keep case files beside "
                              "the scenario (e.g. cases/NAME.yaml)")]
    if target.suffix not in {".yaml", ".yml", ".jsonl"}:
        return None, [Problem(located.path, line, col, "cases", f"{ref!r}: case files end in .yaml, .yml or .jsonl")]
    if not target.is_file():
        return None, [Problem(located.path, line, col, "cases", f"case file {ref!r} not found (looked at {target})")]
    return target, []


def _cross_checks(scenario: Scenario, cases: list[Case], located: Located, case_path_display: str,
                  case_loc: tuple) -> list[Problem]:
    """Rules that span scenario and cases: unique ids, gold fields, options, steps."""
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    final = scenario.final_answer_spec
    for index, case in enumerate(cases):
        line, col = located.where(case_loc + (index,))

        def problem(field_name: str, message: str, *, _line=line, _col=col, _index=index) -> None:
            sub_line, sub_col = located.where(case_loc + (_index, field_name))
            problems.append(Problem(case_path_display, sub_line, sub_col,
                                    _field_path(case_loc + (_index, field_name)), message))

        if case.id in seen:
            first_line, _ = located.where(case_loc + (seen[case.id],))
            problems.append(Problem(case_path_display, line, col, _field_path(case_loc + (index, "id")),
                                    f"duplicate case id {case.id!r} (first used at line {first_line})"))
        seen.setdefault(case.id, index)
        # Gold must carry every json field the scored answer asks for.
        needed = dict(final.fields) if final.format == "json" else {}
        missing = [name for name in needed if name not in case.gold]
        if missing:
            problem("gold", f"missing gold field(s) {', '.join(missing)} that the answer format asks for")
        for name, type_name in needed.items():
            if name in case.gold and not _gold_type_ok(case.gold[name], type_name):
                problem("gold", f"gold.{name} = {case.gold[name]!r} is not of the answer's type {type_name}")
        if final.format == "choice" and "choice" not in case.gold:
            problem("gold", "a choice scenario needs gold.choice (e.g. B, or BD)")
        if "choice" in case.gold and case.options:
            letters = str(case.gold["choice"]).strip().upper()
            unknown = [ch for ch in letters if ch not in case.options]
            if unknown:
                problem("gold", f"gold.choice {letters!r} names option(s) {''.join(unknown)} that the case lacks")
        if final.format == "choice" and not case.options:
            problem("options", "a choice scenario needs options {A: …, B: …}")
        if final.format == "steps" and len(case.steps) < 2:
            problem("steps", "an ordering scenario needs at least two steps, in the correct order")
        for pair in case.critical_order:
            if len(pair) != 2 or any(not 1 <= i <= len(case.steps) for i in pair) or pair[0] >= pair[1]:
                problem("critical_order", f"critical_order pair {pair} must be [i, j] with 1 <= i < j <= "
                                          f"{len(case.steps)} (step i comes before step j in the gold order)")
        for group in case.step_ties:
            if len(group) < 2 or any(not 1 <= i <= len(case.steps) for i in group):
                problem("step_ties", f"step_ties group {group} must list two or more step numbers in "
                                     f"1..{len(case.steps)}")
        if case.probe and case.probe.forbidden:
            from medsim.scoring.safety import forbidden_problems

            for message in forbidden_problems(case):
                problem("probe", message)
        if case.probe and case.probe.at_turn > scenario.clinician.max_turns:
            problem("probe", f"probe.at_turn {case.probe.at_turn} is beyond clinician.max_turns "
                             f"{scenario.clinician.max_turns}")
    return problems


def _scorer_problems(scenario: Scenario, located: Located) -> list[Problem]:
    """Scorer names and settings must exist: a misspelt one would be silently skipped or ignored."""
    from medsim.scoring.base import config_keys, scorer_names

    known = scorer_names()
    problems = []
    raw = located.data.get("scoring") if isinstance(located.data, dict) else None
    for index, ref in enumerate(scenario.scoring):
        short = isinstance(raw, list) and index < len(raw) and isinstance(raw[index], dict) and ref.name in raw[index]
        base = ("scoring", index, ref.name) if short else ("scoring", index)
        if ref.name not in known:
            close = difflib.get_close_matches(ref.name, known, n=1)
            hint = f"; did you mean {close[0]}?" if close else f" (known: {', '.join(known)})"
            line, col = located.where(base)
            problems.append(Problem(located.path, line, col, _field_path(base), f"no scorer named {ref.name!r}{hint}"))
            continue
        allowed = config_keys(ref.name)
        for key in ref.config:
            if key not in allowed:
                close = difflib.get_close_matches(key, sorted(allowed), n=1)
                hint = (f"; did you mean {close[0]}?" if close else
                        f" ({ref.name} takes {', '.join(sorted(allowed)) or 'no settings'} and weight)")
                loc = (*base, key) if short else (*base, "config", key)
                line, col = located.where(loc)
                problems.append(Problem(located.path, line, col, _field_path(loc),
                                        f"unknown setting for scorer {ref.name}{hint}"))
    return problems


def _element_ok(value: Any) -> bool:
    if not isinstance(value, dict) or "any" not in value or set(value) - {"any", "optional", "not", "why"}:
        return False
    alts = value["any"]
    nots = value.get("not", [])
    return (isinstance(alts, str) or isinstance(alts, list) and all(isinstance(a, str) for a in alts)) and \
        isinstance(value.get("optional", False), bool) and isinstance(nots, list) and \
        all(isinstance(n, str) for n in nots)


def _gold_type_ok(value: Any, type_name: str) -> bool:
    if type_name == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_name == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if type_name == "bool":
        return isinstance(value, bool)
    if type_name == "list[str]":
        # an element is a string ("A|B" alternatives) or {any: "A|B" | [A, B], optional: true, why: …}
        return isinstance(value, list) and all(isinstance(v, str) or _element_ok(v) for v in value)
    # a one-answer field: "A|B", or {any: …, not: […]} (qualifiers that make an answer wrong)
    return isinstance(value, str) or _element_ok(value) and "optional" not in value


def _phi_warnings(cases: list[Case], located: Located, display: str, case_loc: tuple) -> list[Problem]:
    try:
        from medsim.text.deid import phi_warnings
    except ImportError:  # the text layer is optional for validation
        return []
    out = []
    for index, case in enumerate(cases):
        for message in phi_warnings(case.full_record_text()):
            line, col = located.where(case_loc + (index,))
            out.append(Problem(display, line, col, _field_path(case_loc + (index,)),
                               f"may hold PHI: {message}", severity="warning"))
    return out


def load_scenario(path: Path | str, *, check_phi: bool = False, check_scorers: bool = False) -> LoadedScenario:
    """Load and check one scenario file. Raises ScenarioInvalid with every problem found."""
    path = Path(path)
    display = _display(path)
    try:
        located = load_yaml(path, display)
    except FileProblem as exc:
        raise ScenarioInvalid([exc.problem]) from None
    if not isinstance(located.data, dict):
        raise ScenarioInvalid([Problem(display, 1, 1, "", "a scenario file is a YAML mapping (id: …, name: …)")])

    data = dict(located.data)
    problems: list[Problem] = []
    case_ref = data.get("cases")
    case_path: Path | None = None
    case_located = located
    case_loc: tuple = ("cases",)
    case_display = display
    cases: list[Case] = []
    case_source = None
    if isinstance(case_ref, str):
        case_path, errs = _resolve_case_path(path, case_ref, located)
        problems += errs
        if case_path:
            case_display = _display(case_path)
            try:
                stat = case_path.stat()
                cases, case_source, errs, case_located = _load_case_file_cached(
                    case_path, case_display, stat.st_mtime_ns, stat.st_size)
                problems += errs
                case_loc = () if case_path.suffix == ".jsonl" else ("cases",)
            except FileProblem as exc:
                problems.append(exc.problem)

    scenario, errs = _validate(Scenario, data, located)
    problems += errs
    if scenario is not None and isinstance(scenario.cases, list):
        cases = scenario.cases
    if scenario is not None and not cases and not problems:
        problems.append(Problem(display, *located.where(("cases",)), "cases", "the scenario has no cases"))
    if scenario is not None:
        problems += _cross_checks(scenario, cases, case_located, case_display, case_loc)
        if check_scorers:
            problems += _scorer_problems(scenario, located)
    errors = [p for p in problems if p.severity == "error"]
    if errors or scenario is None:
        raise ScenarioInvalid(errors or problems)
    warnings = _phi_warnings(cases, case_located, case_display, case_loc) if check_phi else []
    return LoadedScenario(scenario=scenario, cases=cases, path=path, case_path=case_path,
                          case_source=case_source, warnings=warnings)
