"""The bundled scenarios and taxonomies: find them, load them, suggest a name for a typo."""

from __future__ import annotations

import difflib
from functools import cache
from pathlib import Path

from medsim.paths import scenarios_dir
from medsim.scenario.load import LoadedScenario, load_scenario
from medsim.scenario.schema import Case, Scenario, Taxonomy
from medsim.scenario.yamlpos import load_yaml

DEFAULT_TAXONOMY = "climedbench"


class UnknownName(LookupError):
    """An id that names nothing; the message carries a did-you-mean suggestion."""

    def __init__(self, kind: str, name: str, known: list[str]):
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
        hint = f" — did you mean {' or '.join(close)}?" if close else ""
        shown = known if len(known) <= 20 else [*known[:20], "…"]
        super().__init__(f"unknown {kind} {name!r}{hint} (known: {', '.join(shown) or 'none'})")
        self.kind = kind
        self.suggestions = close


def scenario_paths(folder: Path | None = None) -> list[Path]:
    folder = folder or scenarios_dir()
    return sorted(p for p in folder.glob("*.yaml") if not p.name.startswith("_"))


def scenario_ids(folder: Path | None = None) -> list[str]:
    return [p.stem for p in scenario_paths(folder)]


@cache
def _load_cached(path: str, mtime: float, check_scorers: bool) -> LoadedScenario:
    return load_scenario(Path(path), check_scorers=check_scorers)


def get_scenario(scenario_id: str, folder: Path | None = None, *, check_scorers: bool = False) -> LoadedScenario:
    """Load a bundled scenario by id (its file is ``<id>.yaml``), or a path to any scenario file.

    ``check_scorers`` also checks scorer names and settings (it imports the scorers, which
    `medsim list` does not need)."""
    candidate = Path(scenario_id)
    if candidate.suffix in {".yaml", ".yml"} and candidate.exists():
        return _load_cached(str(candidate.resolve()), candidate.stat().st_mtime, check_scorers)
    folder = folder or scenarios_dir()
    path = folder / f"{scenario_id}.yaml"
    if not path.is_file():
        raise UnknownName("scenario", scenario_id, scenario_ids(folder))
    return _load_cached(str(path), path.stat().st_mtime, check_scorers)


def find_case(case_id: str, folder: Path | None = None) -> tuple[Scenario, Case]:
    """The first bundled scenario holding a case with this id, and the case."""
    all_ids: list[str] = []
    for scenario_id in scenario_ids(folder):
        loaded = get_scenario(scenario_id, folder)
        for case in loaded.cases:
            if case.id == case_id:
                return loaded.scenario, case
            all_ids.append(case.id)
    raise UnknownName("case", case_id, sorted(set(all_ids)))


def taxonomy_paths(folder: Path | None = None) -> list[Path]:
    return sorted(((folder or scenarios_dir()) / "taxonomies").glob("*.yaml"))


def get_taxonomy(name: str = DEFAULT_TAXONOMY, folder: Path | None = None) -> Taxonomy:
    paths = {p.stem: p for p in taxonomy_paths(folder)}
    if name not in paths:
        raise UnknownName("taxonomy", name, sorted(paths))
    return Taxonomy.model_validate(load_yaml(paths[name]).data)
