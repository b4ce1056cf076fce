"""The bundled scenarios and taxonomies: find them, load them, suggest a name for a typo."""

from __future__ import annotations

import difflib
import re
from functools import cache
from pathlib import Path

from medsim.paths import scenarios_dir
from medsim.scenario.load import LoadedScenario, load_scenario
from medsim.scenario.schema import Case, Scenario, Taxonomy
from medsim.scenario.yamlpos import load_yaml

DEFAULT_TAXONOMY = "climedbench"


_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def similar_ids(name: str, known: list[str], n: int = 3) -> list[str]:
    """The ids a typo most likely meant, best first. An id written without its zero padding or in
    another case (inp-1, TRI-1) means the id of the same prefix and number (inp-01, tri-001), which
    plain string likeness ranks below any id sharing more digits (inp-41)."""
    def key(s: str) -> tuple[str, int] | None:
        m = _NUMBERED.match(s.strip().lower().replace("_", "-"))
        return (m.group(1), int(m.group(2))) if m else None

    wanted = key(name)
    same = [k for k in known if wanted is not None and key(k) == wanted]
    if same:
        return same[:n]
    return difflib.get_close_matches(name, known, n=n, cutoff=0.6)


class UnknownName(LookupError):
    """An id that names nothing; the message carries a did-you-mean suggestion."""

    def __init__(self, kind: str, name: str, known: list[str]):
        close = similar_ids(name, known)
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
