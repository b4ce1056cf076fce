"""Information gathering from a transcript, and the info_gathering scorer."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import spec, stemi_case  # noqa: E402

from medsim.scenario.schema import Scenario  # noqa: E402
from medsim.scoring.base import ScoreInput, get_scorer  # noqa: E402
from medsim.sim.info import count_questions, fact_matches, info_gathering  # noqa: E402
from medsim.sim.patient_rule import RulePatient  # noqa: E402
from medsim.sim.transcript import Transcript  # noqa: E402


def play(questions: list[str], *, oracle: dict[int, str] | None = None) -> Transcript:
    """A transcript as the loop writes it: the rule patient's replies with their meta."""
    case = stemi_case()
    patient = RulePatient(spec(), case, seed=0)
    t = Transcript("consultation", case.id)
    opening = asyncio.run(patient.opening())
    t.add("patient", opening.text, topics=opening.topics, disclosed=opening.disclosed)
    for i, q in enumerate(questions):
        t.add("clinician", q)
        if oracle and i in oracle:
            t.add("oracle", oracle[i], disclosed=[oracle[i]])
        r = asyncio.run(patient.reply(q, t.turns))
        t.add("patient", r.text, topics=r.topics, fields=r.fields, disclosed=r.disclosed)
    t.add("clinician", '{"diagnosis": "急性冠脉综合征"}')
    t.stop_reason = "answered"
    return t


def test_fact_matching_is_tolerant_but_not_loose():
    assert fact_matches("胸骨后压榨样疼痛", "患者3小时前搬重物时突发胸骨后压榨样疼痛")
    assert fact_matches("伴大汗", "伴大汗、恶心")
    assert fact_matches("高血压病史10年", "高血压病史10年，规律服用氨氯地平5mg qd")
    assert fact_matches("高血压10年", "高血压病史10年，规律服用氨氯地平")
    assert not fact_matches("吸烟30年", "吸烟20年，每日20支")
    assert not fact_matches("向左肩背部放射", "伴大汗、恶心")


def test_count_questions():
    assert count_questions("您好，哪里不舒服？") == 1
    assert count_questions("什么时候开始的？疼了多久？往别处窜吗？") == 3
    assert count_questions("【开检查】血常规、心电图") == 0
    assert count_questions("平时抽烟喝酒吗") == 1
    assert count_questions("好的，我给您开检查。") == 0


def test_elicited_missed_volunteered_repeats():
    t = play(["您好，哪里不舒服？", "哪里疼？", "往别处窜吗？", "抽烟吗？", "疼了多久了？", "疼了多长时间了？"])
    info = info_gathering(stemi_case(), t)
    assert info["volunteered"] == []  # the opening says 胸口疼3小时: no key fact in those words
    assert "胸骨后压榨样疼痛" in info["elicited"] and "向左肩背部放射" in info["elicited"]
    assert "吸烟30年" in info["elicited"]
    assert set(info["missed"]) == {"伴大汗", "高血压病史10年", "父亲有冠心病史", "否认药物及食物过敏史"}
    assert info["fraction"] == 3 / 7
    assert info["repeats"] == 1 and info["repeated"][0]["key"] == "duration"
    assert info["questions"] == 6 and info["clinician_turns"] == 7 and info["turns_to_decision"] == 7


def test_oracle_turns_count_and_volunteered_facts_leave_the_denominator():
    case = stemi_case().model_copy(update={"key_facts": ["胸痛3小时", "心电图ST段抬高", "伴大汗"]})
    t = play(["有没有出汗？"], oracle={0: "心电图：V1-V4导联ST段弓背向上抬高"})
    info = info_gathering(case, t)
    assert info["volunteered"] == ["胸痛3小时"]
    assert set(info["elicited"]) == {"心电图ST段抬高", "伴大汗"} and info["fraction"] == 1.0


def test_scorer_value_penalty_and_no_key_facts():
    scenario = Scenario.model_validate({
        "id": "consultation", "name": "门诊问诊", "name_en": "Consultation", "dimension": "clinical_qa",
        "kind": "dialogue", "cases": [stemi_case().model_dump(exclude_none=True)],
        "clinician": {"instructions": "问诊", "max_turns": 8}, "scoring": ["info_gathering"],
    })
    fn = get_scorer("info_gathering")
    t = play(["哪里疼？", "往别处窜吗？", "抽烟吗？", "抽烟吗？", "有没有出汗？", "以前有高血压吗？",
              "家里人有心脏病吗？", "对什么药过敏吗？"])
    score = fn(ScoreInput(scenario, stemi_case(), t, {}))
    assert score.details["fraction"] == 1.0 and score.details["repeats"] == 1
    assert abs(score.value - 0.95) < 1e-9 and any("重复" in r for r in score.reasons)
    score = fn(ScoreInput(scenario, stemi_case(), t, {"repeat_penalty": 0.5, "max_repeat_penalty": 0.2}))
    assert abs(score.value - 0.8) < 1e-9
    empty = fn(ScoreInput(scenario, stemi_case().model_copy(update={"key_facts": []}), t, {}))
    assert empty.value is None and empty.error
