"""Can a scenario's score be gamed? Every adversarial strategy next to the baseline and the reference.

``check_validity`` runs each strategy of ``medsim.models.adversaries`` over every case of the
given scenarios (offline: rule patient, no judge, no embedder — the setting in which every
figure here is reproducible), then flags each (strategy, scenario) cell where a strategy that
knows no medicine scores above ``max(floor, baseline)``. Items a strategy leaves unscorable
count as 0 here: abstaining must not pay.

This is an authoring tool: run it on a new scenario before publishing numbers with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from medsim.scenario.load import LoadedScenario

FLOOR = 0.15  # an adversary may score up to max(FLOOR, baseline)
REFERENCE_MIN = 0.95  # the reference must still reach this


@dataclass
class Cell:
    strategy: str
    scenario: str
    score: float  # mean over every planned item, unscorable items counting 0
    n: int
    n_unscored: int
    by_scorer: dict[str, float] = field(default_factory=dict)


@dataclass
class ValidityReport:
    scenarios: list[str]
    strategies: list[str]  # baseline, reference, then every adversary variant
    cells: dict[tuple[str, str], Cell]
    floor: float = FLOOR

    def score(self, strategy: str, scenario: str) -> float | None:
        cell = self.cells.get((strategy, scenario))
        return None if cell is None else cell.score

    def bar(self, scenario: str) -> float:
        """What an adversary may not exceed in ``scenario``."""
        base = self.score("baseline", scenario)
        return max(self.floor, base if base is not None else 0.0)

    def adversaries(self) -> list[str]:
        return [s for s in self.strategies if s not in ("baseline", "reference")]

    def flagged(self) -> list[Cell]:
        """Cells where a strategy with no medicine beats the bar (by more than rounding)."""
        out = []
        for strategy in self.adversaries():
            for scenario in self.scenarios:
                cell = self.cells.get((strategy, scenario))
                if cell is not None and cell.score > self.bar(scenario) + 1e-9:
                    out.append(cell)
        return out

    def reference_short(self) -> list[Cell]:
        return [c for s in self.scenarios if (c := self.cells.get(("reference", s))) and c.score < REFERENCE_MIN]

    def best_adversary(self, scenario: str) -> Cell | None:
        cells = [self.cells[(a, scenario)] for a in self.adversaries() if (a, scenario) in self.cells]
        return max(cells, key=lambda c: c.score) if cells else None

    def classes(self) -> list[str]:
        """Adversary classes (refuse, dump, …) in table order; a class's score is its best variant."""
        out: list[str] = []
        for s in self.adversaries():
            name = s.split("/")[0]
            if name not in out:
                out.append(name)
        return out

    def class_cell(self, cls: str, scenario: str) -> Cell | None:
        cells = [self.cells[(s, scenario)] for s in self.adversaries()
                 if s.split("/")[0] == cls and (s, scenario) in self.cells]
        return max(cells, key=lambda c: c.score) if cells else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "floor": self.floor,
            "reference_min": REFERENCE_MIN,
            "scenarios": self.scenarios,
            "strategies": self.strategies,
            "scores": {f"{c.strategy}|{c.scenario}": round(c.score, 4) for c in self.cells.values()},
            "cells": [
                {"strategy": c.strategy, "scenario": c.scenario, "score": round(c.score, 4), "n": c.n,
                 "unscored": c.n_unscored, "by_scorer": {k: round(v, 4) for k, v in c.by_scorer.items()},
                 "bar": round(self.bar(c.scenario), 4),
                 "flagged": c.strategy in self.adversaries() and c.score > self.bar(c.scenario) + 1e-9}
                for c in self.cells.values()
            ],
            "flagged": [{"strategy": c.strategy, "scenario": c.scenario, "score": round(c.score, 4),
                         "bar": round(self.bar(c.scenario), 4)} for c in self.flagged()],
            "reference_below_min": [{"scenario": c.scenario, "score": round(c.score, 4)}
                                    for c in self.reference_short()],
        }


def default_strategies() -> list[str]:
    from medsim.models.adversaries import strategy_names

    return ["baseline", "reference", *[f"adversary:{s}" for s in strategy_names()]]


def short_name(model: str) -> str:
    return model.removeprefix("adversary:")


async def _score_strategy(model_name: str, loaded: list[LoadedScenario], *, seed: int,
                          on_item: Callable[[str, str], None] | None) -> list[Cell]:
    from medsim.models.config import resolve_model
    from medsim.runner import RunConfig, Services, run_item

    clinician = resolve_model(model_name)
    services = Services(clinician=clinician)
    config = RunConfig(scenarios=[item.scenario.id for item in loaded], model=model_name, seed=seed, cache=False)
    cells = []
    for item in loaded:
        values: list[float] = []
        unscored = 0
        per_scorer: dict[str, list[float]] = {}
        for case in item.cases:
            record = await run_item("validity", item, case, 0, config, services, store=None)
            if record.item_score is None:
                unscored += 1
                values.append(0.0)
            else:
                values.append(record.item_score)
            for row in record.scores:
                if row["value"] is not None:
                    per_scorer.setdefault(row["scorer"], []).append(row["value"])
            if on_item:
                on_item(model_name, item.scenario.id)
        cells.append(Cell(short_name(model_name), item.scenario.id, sum(values) / len(values) if values else 0.0,
                          len(values), unscored, {k: sum(v) / len(v) for k, v in per_scorer.items()}))
    return cells


def _strategy_in_worker(name: str, paths: list[str], seed: int) -> list[Cell]:
    """One strategy over the scenarios, in a worker process (scenarios loaded afresh there)."""
    from medsim.models.adversaries import register_cases
    from medsim.scenario.registry import get_scenario

    loaded = [get_scenario(p, check_scorers=True) for p in paths]
    for item in loaded:
        register_cases(item.scenario.id, item.cases)
    return asyncio.run(_score_strategy(name, loaded, seed=seed, on_item=None))


def check_validity(loaded: list[LoadedScenario], strategies: Iterable[str] | None = None, *, seed: int = 0,
                   floor: float = FLOOR, on_item: Callable[[str, str], None] | None = None,
                   workers: int = 1) -> ValidityReport:
    """Run every strategy over every case of ``loaded`` and build the table. With ``workers`` > 1
    the strategies run in that many processes (progress is then reported per strategy)."""
    from medsim.models.adversaries import register_cases

    names = list(strategies or default_strategies())
    for item in loaded:
        register_cases(item.scenario.id, item.cases)
    cells: dict[tuple[str, str], Cell] = {}
    paths = [str(item.path) for item in loaded]
    if workers > 1 and len(names) > 1 and all(item.path for item in loaded):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        context = multiprocessing.get_context("spawn")  # no fork of a process holding threads
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = {pool.submit(_strategy_in_worker, name, paths, seed): name for name in names}
            for future in as_completed(futures):
                for cell in future.result():
                    cells[(cell.strategy, cell.scenario)] = cell
                    if on_item:
                        for _ in range(cell.n):
                            on_item(futures[future], cell.scenario)
    else:
        for name in names:
            for cell in asyncio.run(_score_strategy(name, loaded, seed=seed, on_item=on_item)):
                cells[(cell.strategy, cell.scenario)] = cell
    return ValidityReport([item.scenario.id for item in loaded], [short_name(n) for n in names], cells, floor)


# ------------------------------------------------------------------ floors beside every score

FLOOR_FILE = "floors.json"


def floors_of(report: ValidityReport, loaded: list[LoadedScenario]) -> dict[str, Any]:
    """Per scenario: the best constant strategy's score, chance (the random strategy), the best
    adversary, the baseline and the reference, with the scenario files' hashes they were taken on."""
    from medsim.runner import file_hashes

    out: dict[str, Any] = {}
    for item in loaded:
        sid = item.scenario.id
        constants = [c for s in report.adversaries() if s.startswith("constant") and (c := report.cells.get((s, sid)))]
        best_constant = max(constants, key=lambda c: c.score) if constants else None
        chance = report.cells.get(("random", sid))
        best = report.best_adversary(sid)
        out[sid] = {
            "best_constant": None if best_constant is None else round(best_constant.score, 3),
            "best_constant_strategy": None if best_constant is None else best_constant.strategy,
            "chance": None if chance is None else round(chance.score, 3),
            "best_adversary": None if best is None else round(best.score, 3),
            "best_adversary_strategy": None if best is None else best.strategy,
            "baseline": round(report.score("baseline", sid) or 0.0, 3),
            "reference": round(report.score("reference", sid) or 0.0, 3),
            "files": file_hashes([item]),
        }
    return out


def bundled_floors() -> dict[str, Any]:
    """The floors shipped with the bundled scenarios (scenarios/floors.json), or {}."""
    import json

    from medsim.paths import scenarios_dir

    path = scenarios_dir() / FLOOR_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def floors_for(scenario_id: str, hashes: dict[str, str] | None = None) -> dict[str, Any] | None:
    """The shipped floors of one scenario, when they were taken on the same files as ``hashes``."""
    entry = bundled_floors().get(scenario_id)
    if entry is None:
        return None
    if hashes is not None and any(hashes.get(name) not in (None, digest) for name, digest in entry["files"].items()):
        return None  # the scenario changed since: its floors would mislead
    return entry
