"""Importing this module registers every built-in scorer."""

from __future__ import annotations

import importlib

from medsim.scoring import (  # noqa: F401  (imported to register)
    advice,
    avoid,
    choice,
    department,
    diagnosis_match,
    doses,
    extraction,
    keypoints,
    ordering,
    rouge,
    safety,
    set_f1,
    similarity,
    summary_diagnosis,
    triage,
)

# Scorers other modules own; while one is not written yet the rest must still load.
OPTIONAL = ("fact_consistency", "coverage", "info_gathering", "checklist")
MISSING: dict[str, str] = {}

for _name in OPTIONAL:
    try:
        importlib.import_module(f"medsim.scoring.{_name}")
    except ImportError as exc:
        MISSING[_name] = str(exc)
