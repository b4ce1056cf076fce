"""set_f1: precision / recall / F1 of a predicted list (tests ordered, treatments) against gold.

Each gold element may hold alternatives ``血常规|血细胞分析`` — alternative strategies too
(``ERCP+EST取石|腹腔镜胆总管探查取石``: either meets the element) — and may be optional
(``{any: …, optional: true}``: a guideline-weak element earns precision when named and costs no
recall when not). Matching is one-to-one by meaning (medsim.text.match.match_sets): synonyms,
bounded containment, the case's side; an item of one concept each (a string of every term names
nothing), compound items (A+B) meeting several elements, repeated items counted once. Items
beyond what the case needs cost precision; an item that would meet a gold element on the other side
(左侧腹股沟超声 for a right-sided hernia) is a stated error and charges the value ×0.25, as does an order at the wrong site in place of a
needed one (胸部CT where the needed 腹部CT is missing: same modality, another site), or an item that
says no to a needed element (暂不手术, 全程禁止补钾). A gold element a reviewer marked
``decisive: true`` (the test the work-up turns on, the measure the plan turns on) left out charges
×0.25 too: a work-up without it is one a physician would not sign.

precision = matched items / items; recall = matched required elements / required elements, each
element weighted by how specific it is to the case (``specificity_weights``: 血常规, which nearly every
case lists, weighs little; the test that decides this case weighs most), so a constant panel of the
commonest items earns little while the full gold still earns 1. value = F-beta (``beta``, default 2:
leaving out a needed element costs more than one sensible extra; a dump of every term still has
next to no precision).
"""

from __future__ import annotations

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_field, elements, no_gold, specificity_weights, unparsed
from medsim.sim.answer import coerce_list
from medsim.text.match import (
    FUZZY_THRESHOLD,
    case_side,
    dedupe,
    find_point,
    match_sets,
    says_otherwise,
    site_substitutions,
    wrong_side_items,
)

NAME = "set_f1"
WRONG_SIDE_CHARGE = 0.25  # an order on the wrong side is a stated error, worse than a missing one
DECISIVE_MISSED_CHARGE = 0.25  # a work-up without the test it turns on is a wrong work-up, not 80% of a right one


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


def set_scores(pred: list[str], gold_list: object, *, side: set[str] | None = None,
               threshold: float = FUZZY_THRESHOLD, weights: list[float] | None = None, beta: float = 1.0) -> dict:
    """Precision, recall and F1 of ``pred`` against gold elements (required and optional); recall
    weighted by ``weights`` (one per element) when given."""
    els = elements(gold_list)
    weight = dict(zip([e.text for e in els], weights or [1.0] * len(els), strict=True))
    pairs, extra, missed = match_sets(pred, [e.gold for e in els], side=side, fuzzy=threshold)
    optional = {e.text for e in els if e.optional}
    n_items = len(pairs) + len(extra)
    matched_required = sum(weight[g] for _, g, _ in pairs if g not in optional)
    n_required = sum(weight[e.text] for e in els if not e.optional)
    p = len(pairs) / n_items if n_items else (1.0 if not n_required else 0.0)
    r = matched_required / n_required if n_required else 1.0
    r = min(1.0, r)  # weighted sums can round a hair above 1
    b2 = beta * beta  # F-beta: a needed element left out costs more than a sensible extra
    f = min(1.0, (1 + b2) * p * r / (b2 * p + r)) if p + r else 0.0
    wrong_side = wrong_side_items(extra, [e.gold for e in els], side=side)
    wrong_site = site_substitutions(extra, [e.gold for e in els if e.text in missed and not e.optional])
    # an item that says no to a needed element (暂不手术, 暂不透析, 全程禁止补钾, 无需根除幽门螺杆菌)
    # — unless another item gives it (溶栓24小时内不用抗血小板 beside 24小时后加用阿司匹林: timing, not refusal)
    opposite = [e.text for e in els if e.text in missed and not e.optional
                and any(says_otherwise(item, e.gold) for item in extra)
                and not any(find_point(item, e.gold).met for item in pred)]
    if wrong_side or wrong_site or opposite:
        f *= WRONG_SIDE_CHARGE
    # the test the work-up turns on, the measure the plan turns on, left out (a reviewer's mark)
    decisive_missed = [e.text for e in els if e.decisive and e.text in missed]
    if decisive_missed:
        f *= DECISIVE_MISSED_CHARGE
    return {"precision": p, "recall": r, "f1": f, "n_items": n_items, "wrong_side": wrong_side,
            "wrong_site": [f"{a} → {b}" for a, b in wrong_site], "opposite": opposite,
            "decisive_missed": decisive_missed,
            "matched": [{"pred": a, "gold": b, "how": h, "optional": b in optional} for a, b, h in pairs],
            "extra": extra, "missed": [m for m in missed if m not in optional],
            "optional_missed": [m for m in missed if m in optional]}


@scorer(NAME, config=("field", "threshold", "beta"))
def score_set_f1(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    field = _field(inp)
    if field is None or not inp.case.gold.get(field):
        return no_gold(NAME, f"gold.{field}")
    gold = inp.case.gold[field]
    if not isinstance(gold, list):
        gold = coerce_list(gold)
    pred = dedupe(coerce_list(answer_field(inp, field)))
    side = case_side(inp.case.diagnosis[0] if inp.case.diagnosis else "")
    d = set_scores(pred, gold, side=side, threshold=float(inp.config.get("threshold", FUZZY_THRESHOLD)),
                   weights=specificity_weights(inp, field, elements(gold)), beta=float(inp.config.get("beta", 2.0)))
    n_required = len(d["matched"]) - sum(m["optional"] for m in d["matched"]) + len(d["missed"])
    reasons = [f"P {d['precision']:.2f} R {d['recall']:.2f} F {d['f1']:.2f}（命中必需 "
               f"{len(d['matched']) - sum(m['optional'] for m in d['matched'])}/{n_required}，多余 {len(d['extra'])}）"]
    if d["missed"]:
        reasons.append("遗漏：" + "；".join(m.split("|")[0] for m in d["missed"]))
    if d["wrong_side"]:
        reasons.append(f"侧别错误：{'；'.join(d['wrong_side'])}，×{WRONG_SIDE_CHARGE}")
    if d["opposite"]:
        reasons.append(f"否定了所需处置：{'；'.join(o.split('|')[0] for o in d['opposite'])}，×{WRONG_SIDE_CHARGE}")
    if d["decisive_missed"]:
        reasons.append(f"遗漏关键要素：{'；'.join(m.split('|')[0] for m in d['decisive_missed'])}，×{DECISIVE_MISSED_CHARGE}")
    if d["wrong_site"]:
        reasons.append(f"部位错误（代替了所需检查）：{'；'.join(d['wrong_site'])}，×{WRONG_SIDE_CHARGE}")
    return Score(NAME, d["f1"], reasons, d)
