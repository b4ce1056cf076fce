"""triage_level: the Chinese four-level triage (1 濒危 … 4 非急症); under-triage costs more."""

from __future__ import annotations

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_field, gold_value, no_gold, unparsed
from medsim.sim.answer import coerce_int

NAME = "triage_level"
LEVELS = range(1, 5)


@scorer(NAME, config=("field", "under_triage_weight"))
def score_triage(inp: ScoreInput) -> Score:
    """Exact level → 1. One level off: over-triage (more urgent than gold) → 0.5;
    under-triage (less urgent) → 0.5 / under_triage_weight (default 2 → 0.25). Further off → 0."""
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = inp.config.get("field", "level")
    gold = coerce_int(gold_value(inp, field))
    if gold is None:
        return no_gold(NAME, f"gold.{field}")
    weight = float(inp.config.get("under_triage_weight", 2.0)) or 1.0
    pred = coerce_int(answer_field(inp, field))
    if pred is None or pred not in LEVELS:
        return Score(NAME, 0.0, [f"no valid level in the answer ({answer_field(inp, field)!r})"],
                     {"predicted": pred, "gold": gold, "under_triage": False, "over_triage": False, "valid": False})
    diff = pred - gold  # level 1 is the most urgent: a larger number is under-triage
    under, over = diff > 0, diff < 0
    if diff == 0:
        value, why = 1.0, f"分诊级别 {pred} 级正确"
    elif abs(diff) == 1:
        value = 0.5 / weight if under else 0.5
        why = f"{'分诊不足' if under else '分诊过度'}：{pred} 级，应为 {gold} 级"
    else:
        value, why = 0.0, f"{'分诊不足' if under else '分诊过度'} {abs(diff)} 级：{pred} 级，应为 {gold} 级"
    return Score(NAME, value, [why], {
        "predicted": pred, "gold": gold, "diff": diff, "under_triage": under, "over_triage": over, "valid": True,
    })
