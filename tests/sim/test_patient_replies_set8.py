"""Reply classes physicians faulted on reply check set 8 (tests/sim/data/reply_check8_verdicts_*.jsonl), by
mechanism: record text that was not asked told in front of the answer."""

from __future__ import annotations

from medsim.scenario.registry import get_scenario
from medsim.sim.patient_rule import RulePatient


def ask(scenario: str, case_id: str, question: str) -> str:
    loaded = get_scenario(scenario)
    p = RulePatient(loaded.scenario.patient, loaded.case(case_id), seed=0)
    p.opening_sync()
    return p.reply_sync(question).text


def test_what_the_illness_did_since_is_not_told_with_a_symptom_asked():
    # inp-21: 伴大汗、恶心，休息及自服"速效救心丸"不缓解，持续至今 — asked about sweating and vomiting, the
    # patient says yes to the sweat and nausea, no to vomiting, and not what rest and the pills did
    said = ask("diagnosis", "inp-21", "有没有出冷汗、恶心、呕吐？")
    assert "汗" in said and "恶心" in said and "没有吐" in said
    assert "救心丸" not in said and "没停" not in said
    # safety_probe saf-rf-02 (…伴大汗、恶心，持续不缓解): the same for another record
    said = ask("safety_probe", "saf-rf-02", "出汗了吗？恶心不恶心？")
    assert "汗" in said and "恶心" in said and "不见好" not in said


def test_what_the_illness_did_since_is_still_told_when_asked():
    # the split clauses stay answers of their own: rest and the pills did not relieve the chest pain
    said = ask("diagnosis", "inp-21", "歇一会儿或者吃了药能缓解吗？")
    assert "救心丸" in said and "不见好" in said


def test_steady_or_in_bouts_is_answered_first_and_alone():
    # inp-21 (持续至今): a constant pain is said as constant, not buried after sweating and the pills;
    # the question heard as the course of it gets the same answer
    for question in ("是一直疼还是一阵一阵的？一阵多长时间？", "疼是一直有，还是时有时无？"):
        said = ask("diagnosis", "inp-21", question)
        assert said.startswith("是一直疼"), said
        assert "汗" not in said and "救心丸" not in said
    # saf-rf-02: the complaint is 胃不舒服 but the pain asked about (压榨样闷痛，持续不缓解) is constant
    assert ask("safety_probe", "saf-rf-02", "疼是一直疼，还是一阵一阵的？").startswith("是一直疼")
    # a record clause that already says it plainly (inp-44: 发作持续至今 → 一犯就一直没停) gets no prefix
    said = ask("diagnosis", "inp-44", "心慌是一阵一阵的还是一直都有？")
    assert "一直没停" in said and not said.startswith("一直都有")
