"""info_gathering: how much of what matters the clinician drew out of the patient.

value = elicited / elicitable key facts − repeat_penalty × repeated questions, clipped to
[0, 1]. A key fact is elicited when a patient or oracle turn after the clinician's first
message disclosed record content matching it (see ``medsim.sim.info``); facts the patient
volunteered in the opening are not elicitable and leave the denominator, and so do facts no
turn could convey (held only as a result the patient may not quote, or worded too far from
the record to be recognised): those are reported as ``unreachable``, a gap in the case. A
repeat is the same topic asked again (the same named symptom or condition for yes/no
questions) when the answer told nothing new — a follow-up that draws out a new detail is
history taking: each
costs ``repeat_penalty`` (default 0.05), in total at most ``max_repeat_penalty`` (default
0.25), because asking again wastes the patient's time but is a far smaller fault than
never asking. A case without key facts is not scored (an authoring gap, not a zero).

config: repeat_penalty (float), max_repeat_penalty (float).
"""

from __future__ import annotations

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import no_gold
from medsim.sim.info import info_gathering

NAME = "info_gathering"


@scorer(NAME, config=("max_repeat_penalty", "repeat_penalty"))
def score_info_gathering(inp: ScoreInput) -> Score:
    if not inp.case.key_facts:
        return no_gold(NAME, "key_facts")
    details = inp.transcript.info.get("info_gathering") or info_gathering(inp.case, inp.transcript)
    fraction = details["fraction"]
    if fraction is None:
        # Not applicable rather than an error: nothing was left for the clinician to draw out.
        return Score(NAME, None, ["所有关键事实都在开场时由患者主动说出，无可问诊的内容"],
                     {**details, "skipped": "no elicitable key facts"})
    per = float(inp.config.get("repeat_penalty", 0.05))
    cap = float(inp.config.get("max_repeat_penalty", 0.25))
    penalty = min(cap, per * details["repeats"])
    value = max(0.0, min(1.0, fraction - penalty))
    elicitable = len(details["elicited"]) + len(details["missed"])
    reasons = [f"问出关键事实 {len(details['elicited'])}/{elicitable}"]
    if details["missed"]:
        reasons.append("未问出：" + "；".join(details["missed"]))
    if details.get("unreachable"):
        reasons.append("病例中无法问出（不计分）：" + "；".join(details["unreachable"]))
    if details["repeats"]:
        keys = "、".join(r["key"] for r in details["repeated"])
        reasons.append(f"重复提问 {details['repeats']} 次（{keys}），扣 {penalty:.2f}")
    reasons.append(f"提问 {details['questions']} 个，医生发言 {details['clinician_turns']} 轮")
    return Score(NAME, value, reasons, {**details, "penalty": penalty})
