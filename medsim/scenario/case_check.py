"""Validate a case file given on its own (`medsim validate scenarios/cases/triage.yaml`).

A case file is checked twice: alone (the case contract), and through every scenario beside it that
reads it, since gold answers are checked against the scenario's answer fields and scorers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from medsim.scenario.load import ScenarioInvalid, load_case_file, load_scenario
from medsim.scenario.registry import scenario_paths
from medsim.scenario.yamlpos import FileProblem, Problem, load_yaml

SCENARIO_KEYS = {"kind", "clinician", "scoring"}


def is_case_file(path: Path) -> bool:
    """A JSONL file, or a YAML mapping with ``cases:`` and none of a scenario's own keys."""
    if path.suffix == ".jsonl":
        return True
    try:
        data = load_yaml(path).data
    except FileProblem:
        return False  # the scenario loader reports the file's problem
    return isinstance(data, dict) and "cases" in data and not SCENARIO_KEYS & set(data)


@dataclass
class CaseFileCheck:
    cases: int = 0
    scenarios: list[str] = field(default_factory=list)  # the scenarios that read the file
    problems: list[Problem] = field(default_factory=list)


def check_case_file(path: Path) -> CaseFileCheck:
    """The file's own problems, then those its scenarios find in it (gold against answer fields)."""
    try:
        cases, _, problems, _ = load_case_file(path)
    except FileProblem as exc:
        return CaseFileCheck(problems=[exc.problem])
    result = CaseFileCheck(cases=len(cases), problems=list(problems))
    if problems:
        return result
    target = path.resolve()
    # scenarios sit one folder above their cases/ folder (or beside a case file kept next to them)
    folders = {path.resolve().parent.parent, path.resolve().parent}
    for scenario_path in sorted(p for folder in folders for p in scenario_paths(folder)):
        if scenario_path.resolve() == target:
            continue
        try:
            loaded = load_scenario(scenario_path, check_scorers=True)
        except ScenarioInvalid as exc:
            mine = [p for p in exc.problems if _same_file(p.path, target)]
            if mine:
                result.scenarios.append(scenario_path.stem)
                result.problems += mine
            continue
        if any(p.resolve() == target for p in loaded.case_paths):
            result.scenarios.append(scenario_path.stem)
    return result


def _same_file(shown: str, target: Path) -> bool:
    try:
        return Path(shown).resolve() == target
    except OSError:
        return False
