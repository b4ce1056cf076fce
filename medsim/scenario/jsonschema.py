"""JSON Schema of scenario and case files, for editors (yaml-language-server) and the CI check."""

from __future__ import annotations

import json
from pathlib import Path

from medsim.scenario.schema import CaseFile, Scenario, Taxonomy

SCHEMAS = {
    "scenario.schema.json": Scenario,
    "cases.schema.json": CaseFile,
    "taxonomy.schema.json": Taxonomy,
}


def render(name: str) -> str:
    model = SCHEMAS[name]
    schema = model.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = {"scenario.schema.json": "medsim scenario", "cases.schema.json": "medsim case file",
                       "taxonomy.schema.json": "medsim taxonomy"}[name]
    return json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_all(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMAS:
        target = folder / name
        target.write_text(render(name), encoding="utf-8")
        written.append(target)
    return written


def stale(folder: Path) -> list[str]:
    """Names of committed schema files that differ from the models."""
    return [name for name in SCHEMAS
            if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != render(name)]
