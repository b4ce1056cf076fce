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

The instructed pace is charged: a fact the patient told in answer to a message asking more than
``max_questions_per_turn`` questions (default 3; the bundled scenarios instruct one or two) earns
only limit / questions of its credit. Fired at a patient, forty questions in one breath draw forty
answers from no real patient; they earn a fortieth each, not a history.

config: repeat_penalty (float), max_repeat_penalty (float), max_questions_per_turn (int).
"""

from __future__ import annotations

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import no_gold
from medsim.sim.info import count_questions, info_gathering

NAME = "info_gathering"


def _asked_before(turns: list, index: int) -> str:
    """The clinician message the patient or oracle turn at ``index`` answers."""
    for turn in reversed(turns[:index]):
        if turn.speaker == "clinician":
            return turn.text
    return ""


def paced_credit(transcript, details: dict, limit: int) -> tuple[float, list[dict]]:
    """Credit of the elicited facts, each charged by the questions asked in the message it answered."""
    turns = list(transcript.turns)
    by_index = {t.index: t for t in turns}
    total, charged = 0.0, []
    for fact in details["elicited"]:
        at = details["elicited_at_turn"].get(fact)
        turn = by_index.get(at)
        asked = count_questions(_asked_before(turns, turns.index(turn))) if turn and turn.speaker == "patient" else 0
        credit = min(1.0, limit / asked) if asked > limit else 1.0
        if credit < 1:
            charged.append({"fact": fact, "questions": asked, "credit": round(credit, 3)})
        total += credit
    return total, charged


@scorer(NAME, config=("max_repeat_penalty", "repeat_penalty", "max_questions_per_turn"))
def score_info_gathering(inp: ScoreInput) -> Score:
    if not inp.case.key_facts:
        return no_gold(NAME, "key_facts")
    details = inp.transcript.info.get("info_gathering") or info_gathering(inp.case, inp.transcript)
    fraction = details["fraction"]
    if fraction is None:
        # Not applicable rather than an error: nothing was left for the clinician to draw out.
        return Score(NAME, None, ["所有关键事实都在开场时由患者主动说出，无可问诊的内容"],
                     {**details, "skipped": "no elicitable key facts"})
    limit = int(inp.config.get("max_questions_per_turn", 3))
    credit, charged = paced_credit(inp.transcript, details, limit)
    elicitable = len(details["elicited"]) + len(details["missed"])
    fraction = credit / elicitable if elicitable else fraction
    per = float(inp.config.get("repeat_penalty", 0.05))
    cap = float(inp.config.get("max_repeat_penalty", 0.25))
    penalty = min(cap, per * details["repeats"])
    value = max(0.0, min(1.0, fraction - penalty))
    reasons = [f"问出关键事实 {len(details['elicited'])}/{elicitable}"]
    if details["missed"]:
        reasons.append("未问出：" + "；".join(details["missed"]))
    if details.get("unreachable"):
        reasons.append("病例中无法问出（不计分）：" + "；".join(details["unreachable"]))
    if details["repeats"]:
        keys = "、".join(r["key"] for r in details["repeated"])
        reasons.append(f"重复提问 {details['repeats']} 次（{keys}），扣 {penalty:.2f}")
    if charged:
        most = max(c["questions"] for c in charged)
        reasons.append(f"{len(charged)} 项事实问自一轮超过 {limit} 个问题的提问（最多 {most} 个），按比例计分")
    reasons.append(f"提问 {details['questions']} 个，医生发言 {details['clinician_turns']} 轮")
    return Score(NAME, value, reasons, {**details, "penalty": penalty, "paced_fraction": round(fraction, 4),
                                        "charged": charged, "max_questions_per_turn": limit})
