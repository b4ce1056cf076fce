"""The rule patient over every bundled dialogue case: no crash, no diagnosis, no record
jargon or lab values, first person — whatever the case authors wrote."""

from __future__ import annotations

import re

import pytest

from medsim.sim import leak
from medsim.sim.patient_rule import RulePatient

QUESTIONS = [
    "您好，哪里不舒服？", "什么时候开始的？", "疼了多久了？", "哪里疼？", "什么样的疼？", "往别处窜吗？",
    "什么情况下加重？", "休息能缓解吗？", "还有别的不舒服吗？", "有没有发烧？", "有没有恶心呕吐？",
    "以前有没有高血压、糖尿病？", "对什么药过敏吗？", "平时吃什么药？", "家里人有类似的病吗？", "平时抽烟喝酒吗？",
    "做什么工作的？", "月经规律吗？", "生过孩子吗？", "多大了？", "做过什么检查？", "看过医生吗？", "你觉得是什么病？",
]
_VALUE = re.compile(r"\d+(\.\d+)?\s*(mmol|μmol|g/L|×10|U/L|次/分|ng/mL)", re.IGNORECASE)


def dialogue_cases():
    try:
        from medsim.scenario.registry import get_scenario, scenario_ids

        out = []
        for sid in scenario_ids():
            loaded = get_scenario(sid)
            if loaded.scenario.kind == "dialogue":
                out += [(loaded.scenario, case) for case in loaded.cases]
        return out
    except Exception as exc:  # the registry is another module's: report, do not fail here
        pytest.skip(f"bundled scenarios not loadable: {exc}")


def test_bundled_dialogue_cases():
    cases = dialogue_cases()
    if not cases:
        pytest.skip("no bundled dialogue cases yet")
    problems = []
    for scenario, case in cases:
        patient = RulePatient(scenario.patient, case, seed=0)
        replies = [patient.opening_sync()] + [patient.reply_sync(q) for q in QUESTIONS]
        for q, r in zip(["(opening)", *QUESTIONS], replies, strict=True):
            if leak.find_leaks(r.text, patient.policy.leak_terms):
                problems.append((case.id, q, "diagnosis", r.text))
            if "患者" in r.text or _VALUE.search(r.text):
                problems.append((case.id, q, "jargon", r.text))
            if not r.text.strip():
                problems.append((case.id, q, "empty", r.text))
    assert not problems, problems[:10]
