"""Scorer registry: a scorer is a small pure function (case, transcript, config) -> Score."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from medsim.scenario.schema import Case, Scenario
from medsim.sim.transcript import Transcript


@dataclass
class Score:
    scorer: str
    value: float | None  # in [0, 1]; None when the item could not be scored (see error)
    reasons: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # e.g. the judge failed after retries: an error, never a zero

    def __post_init__(self) -> None:
        if self.value is not None and not 0.0 <= self.value <= 1.0:
            raise ValueError(f"{self.scorer}: score {self.value} outside [0, 1]")


@dataclass
class ScoreInput:
    scenario: Scenario
    case: Case
    transcript: Transcript
    config: dict[str, Any]
    services: dict[str, Any] = field(default_factory=dict)  # judge / embedder models, when configured


ScorerFn = Callable[[ScoreInput], Score]
_REGISTRY: dict[str, ScorerFn] = {}
_CONFIG_KEYS: dict[str, frozenset[str]] = {}


def scorer(name: str, *, config: tuple[str, ...] = ()) -> Callable[[ScorerFn], ScorerFn]:
    """Register a scorer under ``name`` (the name scenario YAML files use). ``config`` lists the
    settings it reads, so `medsim validate` can call a misspelt setting an error."""

    def register(fn: ScorerFn) -> ScorerFn:
        if name in _REGISTRY:
            raise ValueError(f"scorer {name!r} registered twice")
        _REGISTRY[name] = fn
        _CONFIG_KEYS[name] = frozenset(config)
        return fn

    return register


def config_keys(name: str) -> frozenset[str]:
    load_builtin_scorers()
    return _CONFIG_KEYS.get(name, frozenset())


def get_scorer(name: str) -> ScorerFn:
    load_builtin_scorers()
    return _REGISTRY[name]


def scorer_names() -> list[str]:
    load_builtin_scorers()
    return sorted(_REGISTRY)


def load_builtin_scorers() -> None:
    from medsim.scoring import builtin  # noqa: F401  (imports register every scorer module)
