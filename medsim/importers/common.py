"""What every importer shares: the result it returns and the writer that turns it into files.

Importers are pure: they read a file and return scenarios and cases as plain dicts plus the
rows they skipped and why. ``write_import`` writes them deterministically (same input, same
bytes), then loads every written scenario back through the validator, so an importer can
never hand the user a file that ``medsim validate`` rejects.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from medsim.scenario.jsonschema import write_all
from medsim.scenario.load import load_scenario


class ImportFailed(Exception):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


@dataclass
class ImportedScenario:
    scenario: dict[str, Any]
    cases: list[dict[str, Any]]
    source: str


@dataclass
class ImportResult:
    scenarios: list[ImportedScenario] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (where, why)
    notes: list[str] = field(default_factory=list)

    @property
    def n_cases(self) -> int:
        return sum(len(s.cases) for s in self.scenarios)


def read_text(path: Path) -> str:
    """A file's text; a missing file or bytes that are not UTF-8 are named with file:line:col."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ImportFailed(f"file not found: {path}") from None
    except IsADirectoryError:
        raise ImportFailed(f"{path} is a folder, not a file", hint="give the path of the benchmark file") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ImportFailed(f"{path}:{line}:{col}: byte 0x{raw[exc.start]:02x} is not UTF-8",
                           hint=f"convert it (GBK/GB18030 files: `iconv -f GB18030 -t UTF-8 {path.name} > "
                                f"{path.stem}.utf8{path.suffix}`), then import the converted file") from None


def read_json_lenient(path: Path) -> Any:
    """JSON as real benchmark files ship it: BOM, CRLF, bare NaN (read as None)."""
    text = read_text(path)
    if not text.strip():
        raise ImportFailed(f"{path} is empty: nothing to import")
    try:
        return json.loads(text, parse_constant=lambda name: None)
    except json.JSONDecodeError as exc:
        raise ImportFailed(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None


def clean(value: Any) -> str | None:
    """A text field as a string, or None for missing, NaN and empty values."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = str(value).replace("\r\n", "\n").strip()
    return text or None


def safe_id(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.\-]+", "-", text).strip("-") or "x"


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_presenter)


def _dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=4096)


def write_import(result: ImportResult, out: Path) -> list[Path]:
    """Write scenario and case files under ``out``; validate each scenario as written."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "cases").mkdir(exist_ok=True)
    if not (out / "schema" / "scenario.schema.json").exists():
        write_all(out / "schema")
    written = []
    for item in result.scenarios:
        sid = item.scenario["id"]
        scenario = {**item.scenario, "cases": f"cases/{sid}.yaml"}
        scenario_path = out / f"{sid}.yaml"
        case_path = out / "cases" / f"{sid}.yaml"
        scenario_path.write_text("# yaml-language-server: $schema=schema/scenario.schema.json\n" + _dump(scenario),
                                 encoding="utf-8")
        case_path.write_text("# yaml-language-server: $schema=../schema/cases.schema.json\n"
                             + _dump({"source": item.source, "cases": item.cases}), encoding="utf-8")
        load_scenario(scenario_path)  # raises ScenarioInvalid if an importer produced something wrong
        written += [scenario_path, case_path]
    return written
