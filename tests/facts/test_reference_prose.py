"""Each case's own reference answer, prose included, read by the fact checker against its record.

A physician's correct prose must not be charged with contradicting the record it was written from:
every such charge found so far was a reading fault (a blood pressure's halves, a site-qualified
denial, a list closed by 家族史, a sign written with 无). Unsupported claims are left to the count in
the closing notes: some are the writer's inference (a sign named more precisely than the record)."""

import pytest

from medsim.scenario.registry import get_scenario
from medsim.scoring.fixed import reference_answer, score_fixed

PROSE_SCENARIOS = ("consultation", "safety_probe", "medication_consult", "triage", "discharge", "record_summary")


@pytest.mark.parametrize("scenario_id", PROSE_SCENARIOS)
def test_no_reference_answer_contradicts_its_own_record(scenario_id):
    loaded = get_scenario(scenario_id)
    charged = []
    for case in loaded.cases:
        got = score_fixed(loaded.scenario, case, reference_answer(loaded.scenario, case),
                          case_pool=loaded.cases, scorer="fact_consistency")
        for score in got.scores:
            for problem in (score.details or {}).get("problems", []):
                if problem["status"] == "contradicted":
                    charged.append((case.id, problem["text"], problem["reason_zh"]))
    assert not charged, charged
