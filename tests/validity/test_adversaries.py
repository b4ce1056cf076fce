"""The adversarial clinicians: shipped, offline, in every answer format, and blind to the gold."""

import asyncio

import pytest

from medsim.models.adversaries import STRATEGIES, register_cases, strategy_names
from medsim.models.config import resolve_model
from medsim.runner import RunConfig, Services, run_item
from medsim.scenario.registry import get_scenario

SCENARIOS = ["triage", "knowledge_exam", "pathway_ordering", "treatment", "medication_consult"]


def _answer(model: str, scenario: str, case):
    loaded = get_scenario(scenario)
    config = RunConfig(scenarios=[scenario], model=model, cache=False)
    record = asyncio.run(run_item("t", loaded, case, 0, config, Services(clinician=resolve_model(model)), None))
    from medsim.sim.transcript import Transcript

    return Transcript.from_dict(record.transcript)


def test_every_class_the_issue_names_is_shipped():
    assert set(STRATEGIES) >= {"refuse", "alarm", "dump", "parrot", "hedge", "ask_all", "constant", "random",
                               "abstain"}
    assert "dump/concat" in strategy_names() and "refuse/boilerplate" in strategy_names()


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("strategy", [s for s in strategy_names() if not s.startswith("constant")])
def test_adversaries_never_read_the_gold(scenario, strategy):
    # the same case with its gold answer changed: every reply the adversary makes is the same
    loaded = get_scenario(scenario)
    register_cases(scenario, loaded.cases)
    case = loaded.cases[0]
    altered = case.model_copy(update={"gold": {k: ("X" if isinstance(v, str) else v) for k, v in case.gold.items()},
                                      "reference_answer": "与标准答案无关的文字", "key_facts": []})
    a = _answer(f"adversary:{strategy}", scenario, case)
    b = _answer(f"adversary:{strategy}", scenario, altered)
    assert [t.text for t in a.turns if t.speaker == "clinician"] == [t.text for t in b.turns if t.speaker == "clinician"]


def test_constant_uses_the_scenario_prior_not_the_case():
    loaded = get_scenario("triage")
    register_cases("triage", loaded.cases)
    levels = {c.gold["level"] for c in loaded.cases}
    seen = {_answer("adversary:constant", "triage", c).answer["level"] for c in loaded.cases[:6]}
    assert len(seen) == 1 and seen <= levels  # one level for everyone: the commonest


def test_unknown_strategy_is_a_clear_error():
    from medsim.models.config import ConfigError

    with pytest.raises(ConfigError, match="unknown adversary 'bluff'"):
        resolve_model("adversary:bluff")
    with pytest.raises(ConfigError, match="no variant 'loud'"):
        resolve_model("adversary:refuse/loud")
