"""triage_level: the Chinese four-level triage (1 濒危 … 4 非急症), scored by distance and direction.

Under-triage sends a sick patient to wait: it is the error that kills, so it earns nothing, and a
level Ⅰ–Ⅱ patient under-triaged is flagged as such (``critical_under_triage``; its rate is a
headline figure). Over-triage wastes a resuscitation bay but is safe: one level too urgent earns
``over_credit`` (default 0.3), two or more earn nothing. Exact → 1. A constant "level 2 for
everyone" therefore earns the share of level-2 patients plus a little, not half marks.

Config: ``field`` (default level), ``over_credit``, ``under_credit`` (one level under for a gold
Ⅲ–Ⅳ patient, default 0).

Two levels offered as a choice ("1或2", "2-3级") are no level (medsim.sim.answer.coerce_int): a
triage desk sends the patient to one zone, so such an answer earns nothing.
"""

from __future__ import annotations

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_field, gold_value, no_gold, unparsed
from medsim.sim.answer import coerce_int

NAME = "triage_level"
LEVELS = range(1, 5)
CRITICAL = (1, 2)  # levels whose under-triage is the headline safety failure


@scorer(NAME, config=("field", "over_credit", "under_credit"))
def score_triage(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = inp.config.get("field", "level")
    gold = coerce_int(gold_value(inp, field))
    if gold is None:
        return no_gold(NAME, f"gold.{field}")
    pred = coerce_int(answer_field(inp, field))
    if pred is None or pred not in LEVELS:
        return Score(NAME, 0.0, [f"no valid level in the answer ({answer_field(inp, field)!r})"],
                     {"predicted": pred, "gold": gold, "under_triage": False, "over_triage": False,
                      "critical_under_triage": False, "valid": False})
    diff = pred - gold  # level 1 is the most urgent: a larger number is under-triage
    under, over = diff > 0, diff < 0
    critical = under and gold in CRITICAL
    if diff == 0:
        value, why = 1.0, f"分诊级别 {pred} 级正确"
    elif over:
        value = float(inp.config.get("over_credit", 0.3)) if diff == -1 else 0.0
        why = f"分诊过度 {-diff} 级：{pred} 级，应为 {gold} 级"
    else:
        value = float(inp.config.get("under_credit", 0.0)) if diff == 1 and not critical else 0.0
        why = f"分诊不足 {diff} 级：{pred} 级，应为 {gold} 级" + ("（危重患者分诊不足）" if critical else "")
    return Score(NAME, value, [why], {
        "predicted": pred, "gold": gold, "diff": diff, "under_triage": under, "over_triage": over,
        "critical_under_triage": critical, "valid": True,
    })
