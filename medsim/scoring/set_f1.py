"""set_f1: precision / recall / F1 of a predicted list (tests ordered, treatments) against gold.

Each gold item may hold alternatives ``血常规|血细胞分析``; matching is one-to-one with
synonyms, containment and fuzzy ratio (matching.match_sets). Repeated predictions count once.
"""

from __future__ import annotations

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_field, no_gold, unparsed
from medsim.sim.answer import coerce_list
from medsim.text.match import FUZZY_THRESHOLD, dedupe, match_sets

NAME = "set_f1"


def prf(n_match: float, n_pred: int, n_gold: int) -> tuple[float, float, float]:
    """Precision, recall, F1; an empty prediction of an empty gold is perfect."""
    if n_pred == 0 and n_gold == 0:
        return 1.0, 1.0, 1.0
    p = n_match / n_pred if n_pred else 0.0
    r = n_match / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def _field(inp: ScoreInput) -> str | None:
    if "field" in inp.config:
        return inp.config["field"]
    lists = [k for k, t in inp.scenario.final_answer_spec.fields.items() if t == "list[str]"]
    return lists[0] if lists else None


@scorer(NAME, config=("field", "threshold"))
def score_set_f1(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = _field(inp)
    if field is None or not inp.case.gold.get(field):
        return no_gold(NAME, f"gold.{field}")
    gold = [str(g) for g in inp.case.gold[field]] if isinstance(inp.case.gold[field], list) else coerce_list(
        inp.case.gold[field])
    pred = dedupe(coerce_list(answer_field(inp, field)))
    pairs, extra, missed = match_sets(pred, gold, fuzzy=float(inp.config.get("threshold", FUZZY_THRESHOLD)))
    p, r, f = prf(len(pairs), len(pred), len(gold))
    return Score(NAME, f, [f"P {p:.2f} R {r:.2f} F1 {f:.2f}（命中 {len(pairs)}/{len(gold)}，多余 {len(extra)}）"], {
        "precision": p, "recall": r, "f1": f,
        "matched": [{"pred": a, "gold": b, "how": h} for a, b, h in pairs],
        "extra": extra, "missed": missed,
    })
