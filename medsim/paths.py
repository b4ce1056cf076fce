"""Where the bundled scenarios and lexicons live.

In a source checkout they are the top-level ``scenarios/`` and ``lexicons/`` folders; in an
installed wheel the same folders are shipped as the packages ``medsim._scenarios`` and
``medsim._lexicons`` (see pyproject.toml). Both resolve to real directories on disk.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def _bundled(folder: str, package: str) -> Path:
    in_checkout = _REPO / folder
    if (in_checkout / ".medsim-bundle").exists():
        return in_checkout
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"medsim's bundled {folder}/ folder is missing from this installation")
    return Path(next(iter(spec.submodule_search_locations)))


@cache
def scenarios_dir() -> Path:
    """The bundled scenarios folder: ``MEDSIM_SCENARIOS`` if set; else ``./scenarios`` when the
    working directory is a medsim checkout (an author editing the bundled scenarios sees their
    edits, even with a non-editable install); else the installed copy."""
    override = os.environ.get("MEDSIM_SCENARIOS")
    if override:
        return Path(override)
    checkout = Path.cwd() / "scenarios"
    if (checkout / ".medsim-bundle").exists():
        return checkout
    return _bundled("scenarios", "medsim._scenarios")


@cache
def lexicons_dir() -> Path:
    """The bundled lexicons folder (``MEDSIM_LEXICONS`` overrides it)."""
    override = os.environ.get("MEDSIM_LEXICONS")
    return Path(override) if override else _bundled("lexicons", "medsim._lexicons")
