"""Drugs a label forbids below an age, whatever the illness (洛哌丁胺 under 2, 喹诺酮类 under 18).

A case lists in ``avoid`` what is unsafe for its own patient; these hold for every patient of that
age, so an answer advising loperamide for an infant's diarrhoea is unsafe even where the case's
author did not think to list it. ``lexicons/age_contraindications.tsv`` keeps only absolute label
contraindications (see its header for what is left out and why).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from medsim.paths import lexicons_dir


@dataclass(frozen=True)
class AgeLimit:
    names: str  # alternatives, a|b
    below_years: float
    source: str


@cache
def age_limits() -> tuple[AgeLimit, ...]:
    path = lexicons_dir() / "age_contraindications.tsv"
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    return tuple(AgeLimit(names.strip(), float(below), source.strip()) for names, below, source in rows[1:])


def forbidden_at(age_years: float | None) -> list[AgeLimit]:
    """The label contraindications that hold for a patient of this age (none when it is unknown)."""
    if age_years is None:
        return []
    return [lim for lim in age_limits() if age_years < lim.below_years]
