"""The reference clinician replays each case's gold answer: every deterministic scorer must give
it full marks on every bundled case, under two shuffle seeds (so the display permutations are
mapped back). A failure names the case: either a scorer or the case's own gold is wrong."""

import asyncio

import pytest

from medsim.runner import RunConfig, Services, load_scenarios, run_item
from medsim.scoring.builtin import OPTIONAL

# checklist needs a judge; fact_consistency and info_gathering are checked on their means below
# (the checker's known false alarms on warning-sign advice; a fixed question plan repeats a topic).
DETERMINISTIC_EXEMPT = set(OPTIONAL) - {"coverage"}
MEAN_FLOORS = {"fact_consistency": 0.97, "info_gathering": 0.93}


def _loaded():
    return load_scenarios(RunConfig(scenarios=["all"], model="reference"))


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_reference_scores_one_on_every_deterministic_scorer(seed):
    from medsim.models.config import resolve_model

    services = Services(clinician=resolve_model("reference"))
    config = RunConfig(scenarios=["all"], model="reference", seed=seed)

    values: dict[str, list[float]] = {name: [] for name in MEAN_FLOORS}

    async def main():
        failures = []
        for loaded in _loaded():
            for case in loaded.cases:
                record = await run_item("test", loaded, case, 0, config, services, None)
                assert record.status == "done", (loaded.scenario.id, case.id, record.error)
                for row in record.scores:
                    if row["scorer"] in MEAN_FLOORS and row["value"] is not None:
                        values[row["scorer"]].append(row["value"])
                    if row["scorer"] in DETERMINISTIC_EXEMPT:
                        continue
                    if row["value"] is None and row["error"] is None:
                        continue  # not applicable to this case (no avoid list, nothing checkable)
                    if row["value"] != 1.0:
                        failures.append((loaded.scenario.id, case.id, row["scorer"], row["value"], row["reasons"]))
        return failures

    failures = asyncio.run(main())
    assert not failures, "\n".join(map(str, failures[:20]))
    for name, floor in MEAN_FLOORS.items():
        assert values[name] and sum(values[name]) / len(values[name]) >= floor, (name, len(values[name]))
