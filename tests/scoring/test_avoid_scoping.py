"""An avoid item can hold in some scenarios only (`only_in`): an exercise test is wrong at admission for an
acute MI and recommended before or after discharge; a misspelt scenario id there is a validate error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medsim.scenario.load import ScenarioInvalid, load_scenario
from medsim.scenario.registry import get_scenario
from medsim.scoring.fixed import score_fixed


def avoid_value(scenario_id: str, case_id: str, answer: str) -> float | None:
    loaded = get_scenario(scenario_id)
    case = next(c for c in loaded.cases if c.id == case_id)
    got = score_fixed(loaded.scenario, case, answer, scorer="avoid", case_pool=loaded.cases)
    return next(s.value for s in got.scores if s.scorer == "avoid")


def test_an_exercise_test_at_admission_for_stemi_is_charged_but_not_at_discharge() -> None:
    ordered = json.dumps({"tests": ["心电图", "肌钙蛋白", "运动平板试验"]}, ensure_ascii=False)
    assert avoid_value("test_ordering", "inp-21", ordered) == 0.0
    discharge = ("出院后继续双联抗血小板、他汀、β受体阻滞剂，戒烟。出院后2～3周复诊，"
                 "行症状限制性运动平板试验评估并制定心脏康复运动处方。胸痛发作时舌下含服硝酸甘油并拨打120。")
    assert avoid_value("discharge", "inp-21", discharge) == 1.0


def test_an_item_without_only_in_holds_in_every_scenario_sharing_the_case() -> None:
    assert avoid_value("discharge", "inp-21", "出院后可服布洛芬止痛，继续阿司匹林。") == 0.0


def test_a_misspelt_scenario_in_only_in_is_a_validate_error(tmp_path: Path) -> None:
    scenario = Path(get_scenario("treatment").path).read_text(encoding="utf-8")
    src = Path(get_scenario("treatment").path).parent / "cases" / "inpatient.yaml"
    (tmp_path / "cases").mkdir()
    text = src.read_text(encoding="utf-8").replace("only_in: [test_ordering]", "only_in: [test_odering]", 1)
    (tmp_path / "cases" / "inpatient.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "treatment.yaml").write_text(scenario, encoding="utf-8")
    with pytest.raises(ScenarioInvalid) as caught:
        load_scenario(tmp_path / "treatment.yaml")
    said = [str(p) for p in caught.value.problems]
    assert any("only_in names no bundled scenario 'test_odering'; did you mean test_ordering?" in p
               and "avoid" in p for p in said), said
