"""The primary diagnosis must name the disease: an organ, a piece of the gold's name, or the disease
without its site is not it; what the answer rules out is not its diagnosis. Shorter correct names
(阑尾炎 for 急性阑尾炎, 肺癌 for 右肺上叶肺癌, 胆石 for 胆石症) still are."""

from __future__ import annotations

import json

import pytest

from medsim.scenario.registry import get_scenario
from medsim.scoring.fixed import score_fixed
from medsim.text.match import names_only_a_part, ruled_out


def diagnosis(case_id: str, said: str) -> float | None:
    loaded = get_scenario("diagnosis")
    case = next(c for c in loaded.cases if c.id == case_id)
    answer = json.dumps({"diagnosis": said, "tests": []}, ensure_ascii=False)
    got = score_fixed(loaded.scenario, case, answer, scorer="diagnosis_match", case_pool=loaded.cases)
    return got.scores[0].value


@pytest.mark.parametrize(("case_id", "said"), [
    ("inp-03", "胆囊"), ("inp-03", "囊结石"), ("inp-03", "结石"),           # organ, a cut name, no site
    ("inp-11", "支气管"), ("inp-11", "右肺上叶"), ("inp-11", "中央型"), ("inp-11", "恶性肿瘤"),
    ("inp-30", "出血"),
])
def test_an_organ_a_fragment_or_a_siteless_head_is_not_the_diagnosis(case_id: str, said: str) -> None:
    assert diagnosis(case_id, said) == 0.0


@pytest.mark.parametrize(("case_id", "said"), [
    ("inp-03", "胆囊结石"), ("inp-03", "胆石"), ("inp-42", "阑尾炎"), ("inp-11", "肺癌"),
    ("inp-11", "右肺上叶癌"), ("inp-30", "右侧基底节区脑出血"), ("inp-03", "胆囊结石？"),
])
def test_a_shorter_or_suspected_correct_name_still_is(case_id: str, said: str) -> None:
    assert diagnosis(case_id, said) == 1.0


def test_what_the_answer_rules_out_is_not_its_diagnosis() -> None:
    assert diagnosis("inp-03", "排除胆囊结石，考虑胆囊癌") == 0.0
    assert diagnosis("inp-03", "胆囊结石已排除") == 0.0
    assert diagnosis("inp-03", "排除胆囊癌，考虑胆囊结石") == 1.0  # the committed one is scored
    assert diagnosis("inp-03", "胆囊结石伴慢性胆囊炎，排除胆囊癌") == 1.0


def test_the_text_layer_reads_names_holding_a_negation_word_as_names() -> None:
    assert not ruled_out("无先兆偏头痛") and not ruled_out("急性非结石性胆囊炎")
    assert ruled_out("除外偏头痛") and ruled_out("不考虑阑尾炎")
    assert names_only_a_part("结石", "胆囊结石") and not names_only_a_part("阑尾炎", "急性阑尾炎")
