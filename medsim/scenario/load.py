"""Load a scenario file and its cases, collecting every problem rather than stopping at the first.

All problems come back as ``Problem`` records (``path:line:col: field: message``); nothing here
raises a traceback at an author. Cross-file rules live here too: case files stay inside the
scenario's folder, case ids are unique, gold answers carry the fields the scenario asks for.
So do the rules a file can break without breaking its schema: a template placeholder that
names nothing (``{questoin}`` would reach the model literally), two stages with one id, and
a stage that shows the model the very field it asks for (the answer inside the question).

``cases:`` names one case file, several, or a glob (``cases/exam_*.jsonl``); a big question
bank is best kept as JSONL, which is read a line at a time.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from medsim.scenario.schema import RECORD_FIELDS, Case, CaseFile, Scenario
from medsim.scenario.settings import REMOVED_SETTINGS, setting_problem
from medsim.scenario.yamlpos import FileProblem, Located, Problem, load_jsonl, load_yaml

# What a prompt template may name (see medsim.sim.prompts.render) and what an opening may.
PROMPT_PLACEHOLDERS = frozenset({"question", "options", "steps", "record", *RECORD_FIELDS})
OPENING_PLACEHOLDERS = frozenset(RECORD_FIELDS)
_ANY_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Answer fields that are record fields under another name: asking for one while showing the
# other puts the answer in the question.
ANSWER_RECORD_FIELD = {"diagnosis": "diagnosis", "primary_diagnosis": "diagnosis", "diagnoses": "diagnosis",
                       "main_diagnosis": "diagnosis", "differential": "diagnosis", "differential_diagnosis": "diagnosis",
                       "tests": "tests", "test": "tests", "exams": "tests", "examinations": "tests"}
SCORER_DEFAULT_FIELD = {"diagnosis_match": "diagnosis"}
PHI_CHECK_CASES = 2000  # validate checks this many cases of a big file for PHI, and says so


@dataclass
class LoadedScenario:
    scenario: Scenario
    cases: list[Case]
    path: Path
    case_path: Path | None = None  # the first case file (None: cases inline)
    case_source: str | None = None
    warnings: list[Problem] = field(default_factory=list)
    case_paths: list[Path] = field(default_factory=list)  # every case file, in order

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


def _resolve_case_refs(scenario_path: Path, refs: list[str], located: Located, loc: tuple,
                       listed: bool) -> tuple[list[Path], list[Problem]]:
    """Case files named by ``cases:``: paths and globs, in order, each file once."""
    paths: list[Path] = []
    problems: list[Problem] = []
    folder = scenario_path.resolve().parent
    for index, ref in enumerate(refs):
        ref_loc = loc + (index,) if listed else loc
        if any(ch in ref for ch in "*?["):
            line, col = located.where(ref_loc)
            matched = sorted(p for p in folder.glob(ref) if p.is_file() and p.suffix in {".yaml", ".yml", ".jsonl"})
            if not matched:
                problems.append(Problem(located.path, line, col, "cases",
                                        f"{ref!r} matches no .yaml/.yml/.jsonl case file in {folder}"))
            for target in matched:
                if target.resolve().is_relative_to(folder) and target not in paths:
                    paths.append(target)
            continue
        target, errs = _resolve_case_path(scenario_path, ref, located, ref_loc)
        problems += errs
        if target and target not in paths:
            paths.append(target)
    return paths, problems


def _resolve_case_path(scenario_path: Path, ref: str, located: Located,
                       loc: tuple = ("cases",)) -> tuple[Path | None, list[Problem]]:
    line, col = located.where(loc)
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
        for message in _avoid_problems(case.avoid, scenario.id):
            problem("avoid", message)
        if case.probe and case.probe.forbidden:
            from medsim.scoring.safety import forbidden_problems

            for message in forbidden_problems(case):
                problem("probe", message)
        if case.probe and case.probe.at_turn > scenario.clinician.max_turns:
            problem("probe", f"probe.at_turn {case.probe.at_turn} is beyond clinician.max_turns "
                             f"{scenario.clinician.max_turns}")
    return problems


def _text_position(located: Located, loc: tuple, needle: str) -> tuple[int, int]:
    """Where ``needle`` is written inside the value at ``loc`` (a block scalar spans lines):
    the first occurrence at or after the field's own position, else the field's position."""
    line, col = located.where(loc)
    lines = located.text.splitlines()
    for number in range(line - 1, min(len(lines), line + 400)):
        start = col - 1 if number == line - 1 else 0
        found = lines[number].find(needle, start)
        if found >= 0:
            return number + 1, found + 1
    return line, col


def _template_problems(scenario: Scenario, located: Located) -> list[Problem]:
    """Placeholders that name nothing: medsim would send them to the model literally."""
    templates: list[tuple[tuple, str | None, frozenset[str]]] = [
        (("clinician", "prompt"), scenario.clinician.prompt, PROMPT_PLACEHOLDERS),
        (("patient", "opening"), scenario.patient.opening, OPENING_PLACEHOLDERS),
        *((("stages", i, "prompt"), stage.prompt, PROMPT_PLACEHOLDERS) for i, stage in enumerate(scenario.stages)),
    ]
    problems = []
    for loc, text, known in templates:
        for match in _ANY_PLACEHOLDER.finditer(text or ""):
            name = match.group(1)
            if name in known:
                continue
            close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
            hint = f"; did you mean {{{close[0]}}}?" if close else f" (known: {', '.join(sorted(known))})"
            line, col = _text_position(located, loc, match.group(0))
            problems.append(Problem(located.path, line, col, _field_path(loc),
                                    f"unknown placeholder {match.group(0)}: it would reach the model as written{hint}"))
    return problems


def _asked_record_fields(spec_fields: dict[str, str], scorers: list[Any]) -> set[str]:
    """Record fields an answer asks for: its JSON fields, and what its scorers read."""
    names = set(spec_fields)
    for ref in scorers:
        configured = ref.config.get("field") or SCORER_DEFAULT_FIELD.get(ref.name)
        if isinstance(configured, str):
            names.add(configured)
        for name in ref.config.get("fields") or []:
            if isinstance(name, str):
                names.add(name)
    return {ANSWER_RECORD_FIELD[n] for n in names if n in ANSWER_RECORD_FIELD}


def _stage_problems(scenario: Scenario, located: Located) -> list[Problem]:
    """Duplicate stage ids, and any place the model is shown the field it is asked for."""
    problems = []
    seen: dict[str, int] = {}
    for index, stage in enumerate(scenario.stages):
        if stage.id in seen:
            line, col = located.where(("stages", index, "id"))
            first, _ = located.where(("stages", seen[stage.id], "id"))
            problems.append(Problem(located.path, line, col, f"stages[{index}].id",
                                    f"duplicate stage id {stage.id!r} (first used at line {first}); give each stage "
                                    "its own id: answers are kept per stage"))
        seen.setdefault(stage.id, index)
    for index, stage in enumerate(scenario.stages):
        asked = _asked_record_fields(stage.answer.fields if stage.answer.format == "json" else {},
                                     scenario.scoring if stage.scored else [])
        for earlier in range(index + 1):
            shown = scenario.stages[earlier]
            for name in sorted(asked & set(shown.reveal)):
                at = list(shown.reveal).index(name)
                line, col = located.where(("stages", earlier, "reveal", at))
                when = "in the same stage" if earlier == index else f"before stage {stage.id!r} asks for it"
                problems.append(Problem(
                    located.path, line, col, f"stages[{earlier}].reveal",
                    f"stage {shown.id!r} reveals {name} {when}: the answer would be in the question; reveal "
                    f"{name} only in a stage after {stage.id!r}"))
    if scenario.kind != "staged":
        spec = scenario.clinician.answer
        asked = _asked_record_fields(spec.fields if spec.format == "json" else {}, scenario.scoring)
        disclose = scenario.patient.disclose
        if scenario.kind == "dialogue":
            for group in ("volunteered", "on_ask", "on_exam"):
                names = list(getattr(disclose, group))
                for name in sorted(asked & set(names)):
                    line, col = located.where(("patient", "disclose", group, names.index(name)))
                    problems.append(Problem(
                        located.path, line, col, f"patient.disclose.{group}",
                        f"the patient would disclose {name} ({group}), which the model is asked for: list it "
                        "under never"))
        for name in sorted(asked & set(_ANY_PLACEHOLDER.findall(scenario.clinician.prompt or ""))):
            line, col = _text_position(located, ("clinician", "prompt"), f"{{{name}}}")
            problems.append(Problem(located.path, line, col, "clinician.prompt",
                                    f"the prompt shows {{{name}}}, which the model is asked for"))
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
        for key, value in ref.config.items():
            loc = (*base, key) if short else (*base, "config", key)
            line, col = located.where(loc)
            if key not in allowed:
                close = difflib.get_close_matches(key, sorted(allowed), n=1)
                hint = (f"; {REMOVED_SETTINGS[key]}" if key in REMOVED_SETTINGS else
                        f"; did you mean {close[0]}?" if close else
                        f" ({ref.name} takes {', '.join(sorted(allowed)) or 'no settings'} and weight)")
                problems.append(Problem(located.path, line, col, _field_path(loc),
                                        f"unknown setting for scorer {ref.name}{hint}"))
            elif (why := setting_problem(key, value)) is not None:
                problems.append(Problem(located.path, line, col, _field_path(loc), why))
    return problems


def _triage_scale_problems(scenario: Scenario, parts: list[tuple[list[Case], Located, str, tuple]]) -> list[Problem]:
    """A gold triage level the scale does not have (0, 5, "危重") can never be matched: every answer
    would score as over- or under-triage."""
    from medsim.scoring.triage import LEVELS, NAME
    from medsim.sim.answer import coerce_int

    fields = {str(ref.config.get("field") or "level") for ref in scenario.scoring if ref.name == NAME}
    problems = []
    for file_cases, file_located, case_display, case_loc in parts:
        for index, case in enumerate(file_cases):
            for name in sorted(fields & set(case.gold)):
                level = coerce_int(case.gold[name])
                if level in LEVELS:
                    continue
                loc = case_loc + (index, "gold", name)
                line, col = file_located.where(loc)
                problems.append(Problem(case_display, line, col, _field_path(loc),
                                        f"gold triage level {case.gold[name]!r} is outside the scale "
                                        f"{LEVELS.start}–{LEVELS.stop - 1} (1 濒危 … 4 非急症); give a whole "
                                        f"number from {LEVELS.start} to {LEVELS.stop - 1}"))
    return problems


def _avoid_problems(avoid: list, scenario_id: str) -> list[str]:
    """An avoid item is "A|B" or {any: …, why: …, only_in: [scenario ids]}; a misspelt scenario id in
    only_in would silently switch the item off everywhere, so ids are checked against the bundled ones."""
    from medsim.scenario.registry import scenario_ids

    known = {*scenario_ids(), scenario_id}
    out = []
    for k, item in enumerate(avoid, 1):
        if not isinstance(item, dict):
            continue
        extra = set(item) - {"any", "why", "only_in", "not"}
        alts = item.get("any")
        if extra or not (isinstance(alts, str) and alts.strip() or
                         isinstance(alts, list) and alts and all(isinstance(a, str) for a in alts)):
            out.append(f"avoid item {k} must be \"A|B\" or {{any: \"A|B\", not: […], why: …, only_in: [scenario ids]}}"
                       + (f" (unknown key {', '.join(sorted(extra))})" if extra else ""))
            continue
        only = item.get("only_in")
        if only is None:
            continue
        if not (isinstance(only, list) and only and all(isinstance(x, str) for x in only)):
            out.append(f"avoid item {k}: only_in is a list of scenario ids, e.g. [test_ordering, treatment]")
            continue
        for sid in only:
            if sid not in known:
                close = difflib.get_close_matches(sid, sorted(known), n=1)
                out.append(f"avoid item {k}: only_in names no bundled scenario {sid!r}"
                           + (f"; did you mean {close[0]}?" if close else ""))
    return out


def _element_ok(value: Any) -> bool:
    if not isinstance(value, dict) or "any" not in value or set(value) - {"any", "optional", "decisive", "not", "why"}:
        return False
    if value.get("optional") and value.get("decisive"):
        return False  # an element a plan may leave out cannot be the one it turns on
    alts = value["any"]
    nots = value.get("not", [])
    return (isinstance(alts, str) or isinstance(alts, list) and all(isinstance(a, str) for a in alts)) and \
        isinstance(value.get("optional", False), bool) and isinstance(value.get("decisive", False), bool) and \
        isinstance(nots, list) and \
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
        # or {any: …, decisive: true, why: …}
        return isinstance(value, list) and all(isinstance(v, str) or _element_ok(v) for v in value)
    # a one-answer field: "A|B", or {any: …, not: […]} (qualifiers that make an answer wrong)
    return isinstance(value, str) or _element_ok(value) and "optional" not in value and "decisive" not in value


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
    refs = [case_ref] if isinstance(case_ref, str) else (
        case_ref if isinstance(case_ref, list) and case_ref and all(isinstance(r, str) for r in case_ref) else [])
    case_paths, errs = _resolve_case_refs(path, refs, located, ("cases",), isinstance(case_ref, list))
    problems += errs
    # (cases, located, display, loc) per case file, or the scenario's own inline list
    parts: list[tuple[list[Case], Located, str, tuple]] = []
    sources: list[str] = []
    for case_path in case_paths:
        case_display = _display(case_path)
        try:
            stat = case_path.stat()
            file_cases, source, errs, file_located = _load_case_file_cached(
                case_path, case_display, stat.st_mtime_ns, stat.st_size)
        except FileProblem as exc:
            problems.append(exc.problem)
            continue
        problems += errs
        if source and source not in sources:
            sources.append(source)
        parts.append((file_cases, file_located, case_display, () if case_path.suffix == ".jsonl" else ("cases",)))

    scenario, errs = _validate(Scenario, data, located)
    problems += errs
    if scenario is not None and isinstance(scenario.cases, list) and not refs:
        parts = [(list(scenario.cases), located, display, ("cases",))]
    cases = [case for part in parts for case in part[0]]
    if scenario is not None and not cases and not problems:
        problems.append(Problem(display, *located.where(("cases",)), "cases", "the scenario has no cases"))
    if scenario is not None:
        for file_cases, file_located, case_display, case_loc in parts:
            problems += _cross_checks(scenario, file_cases, file_located, case_display, case_loc)
        problems += _duplicates_across(parts)
        problems += _template_problems(scenario, located)
        problems += _stage_problems(scenario, located)
        if check_scorers:
            problems += _scorer_problems(scenario, located)
            problems += _triage_scale_problems(scenario, parts)
    errors = [p for p in problems if p.severity == "error"]
    if errors or scenario is None:
        raise ScenarioInvalid(errors or problems)
    warnings: list[Problem] = []
    if check_phi:
        budget = PHI_CHECK_CASES
        for file_cases, file_located, case_display, case_loc in parts:
            checked = file_cases[:budget]
            warnings += _phi_warnings(checked, file_located, case_display, case_loc)
            if len(checked) < len(file_cases):
                warnings.append(Problem(case_display, 1, 1, "", f"checked the first {len(checked)} of "
                                        f"{len(file_cases)} cases for PHI (run `medsim deid` over the whole file)",
                                        severity="warning"))
            budget -= len(checked)
    case_path = case_paths[0] if case_paths else None
    case_source = "; ".join(sources) or None
    return LoadedScenario(scenario=scenario, cases=cases, path=path, case_path=case_path,
                          case_source=case_source, warnings=warnings, case_paths=case_paths)


def _duplicates_across(parts: list[tuple[list[Case], Located, str, tuple]]) -> list[Problem]:
    """A case id used in two case files of one scenario (within a file, _cross_checks says it)."""
    if len(parts) < 2:
        return []
    first: dict[str, str] = {}
    problems = []
    for file_cases, file_located, case_display, case_loc in parts:
        local: set[str] = set()
        for index, case in enumerate(file_cases):
            if case.id in first and case.id not in local:
                line, col = file_located.where(case_loc + (index,))
                problems.append(Problem(case_display, line, col, _field_path(case_loc + (index, "id")),
                                        f"duplicate case id {case.id!r} (also in {first[case.id]})"))
            local.add(case.id)
        for case_id in local:
            first.setdefault(case_id, case_display)
    return problems
