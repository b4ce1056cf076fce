"""keypoints: how many gold points (``gold.key_points``, each ``alt1|alt2``) the answer states.

A point is met when any alternative occurs, after normalization and with quantities in base
units (4g == 4克 == 4000mg), outside a negated clause ("不要饭后服" does not meet 饭后).
value = met / total.
"""

from __future__ import annotations

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_text, no_gold, unparsed
from medsim.text.match import find_point

NAME = "keypoints"


def check_points(text: str, points: list[str]) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """(met, missed, negated-only mentions by point)."""
    met, missed, negated = [], [], {}
    for point in points:
        hit = find_point(text, point)
        if hit.met:
            met.append(point)
        else:
            missed.append(point)
            if hit.negated:
                negated[point] = hit.negated
    return met, missed, negated


@scorer(NAME, config=("answer_field", "field"))
def score_keypoints(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = inp.config.get("field", "key_points")
    points = inp.case.gold.get(field)
    if isinstance(points, str):
        points = [points]
    if not points:
        return no_gold(NAME, f"gold.{field}")
    points = [str(p) for p in points]
    text = answer_text(inp, inp.config.get("answer_field", field))
    met, missed, negated = check_points(text, points)
    reasons = [f"要点 {len(met)}/{len(points)}"]
    if missed:
        reasons.append("未提及：" + "；".join(p.split("|")[0] for p in missed))
    if negated:
        reasons.append("被否定：" + "；".join(negated))
    return Score(NAME, len(met) / len(points), reasons,
                 {"met": met, "missed": missed, "negated": negated, "rate": len(met) / len(points)})
