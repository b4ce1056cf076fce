"""ordering: Kendall's τ between the model's step order and the gold order, rescaled so chance is ~0.

The answer holds display numbers; ``transcript.info["steps_shown"]`` maps display number i
(1-based) to original step index ``steps_shown[i-1]`` (identity when absent). Numbers outside
1..n and repeats are dropped (first occurrence kept) and reported.

    value = max(0, τ)² × m / n

τ is Kendall's τ-a over the m distinct valid steps given (pairs in gold order minus pairs
reversed, over all m(m−1)/2 pairs); m / n penalises missing steps. A random order has E[τ] = 0;
clipping and squaring leave it about 0.06 for six or seven steps (0.5 under the old (τ+1)/2), so
"the steps as shown" — a shuffle — earns next to nothing, while one adjacent swap in seven steps
still earns 0.82. With m < 2 no order can be judged: 1 when n == 1, else 0.

A case's ``critical_order`` pairs are the inversions that harm (closing before haemostasis): one
of them the other way round multiplies the score by ``critical_penalty`` (default 0); so does an
answer whose words put the operation on the other side than the case's (左侧切口 for a right hernia).

A model that copies the steps' text under fresh numbers (1. 探查腹腔 2. 消毒铺巾 …) is read
by its text: each line is matched to a step (rapidfuzz partial ratio ≥ 85). One that writes the
steps in its own words without numbers (心电图 → 嚼服阿司匹林… → 急诊造影 …) is read the same way,
segment by segment (→, lines, ；), each segment given to the step it shares most with — one step
per segment, a segment that shares too little with every step names none.

With ``exact_weight`` w (pathway and surgical scenarios: 0.7), an order that is right as a whole
earns w and the τ-based score only the rest: one swap of two steps that are not interchangeable, or
a step left out, is a wrong pathway (CCU before the PCI; the appendix cut before its artery is tied),
not 80% of a right one. value = (1 − w) × max(0, τ)² × m / n + w × [every step, in order].
"""

from __future__ import annotations

import re
from typing import Any

from rapidfuzz import fuzz

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import no_gold, unparsed
from medsim.sim.answer import coerce_int, extract_steps
from medsim.text.match import case_side, normalize, sides

NAME = "ordering"


def kendall_tau(ranks: list[int], ties: list[list[int]] | None = None) -> float:
    """τ of a sequence of distinct gold ranks against ascending order. Pairs inside a tie group
    (0-based gold ranks whose order does not matter) count as in order either way."""
    m = len(ranks)
    if m < 2:
        return 1.0
    tied = {frozenset((a, b)) for group in ties or [] for a in group for b in group if a != b}
    s = 0
    for i in range(m):
        for j in range(i + 1, m):
            s += 1 if ranks[i] < ranks[j] or frozenset((ranks[i], ranks[j])) in tied else -1
    return s / (m * (m - 1) / 2)


def _display_numbers(answer: Any, n: int) -> list[int]:
    if isinstance(answer, str):
        return extract_steps(answer, None)
    if isinstance(answer, list | tuple):
        return [x for x in (coerce_int(a) for a in answer) if x is not None]
    return []


def order_score(display: list[int], steps_shown: list[int] | None, n: int,
                ties: list[list[int]] | None = None) -> dict[str, Any]:
    shown = list(steps_shown) if steps_shown else list(range(n))
    originals: list[int] = []
    invalid: list[int] = []
    duplicates: list[int] = []
    for d in display:
        if not 1 <= d <= len(shown):
            invalid.append(d)
            continue
        o = shown[d - 1]
        if o in originals:
            duplicates.append(d)
        else:
            originals.append(o)
    m = len(originals)
    tau = kendall_tau(originals, ties) if m >= 2 else None
    order = max(0.0, tau) ** 2 if tau is not None else (1.0 if n == 1 else 0.0)
    coverage = m / n if n else 0.0
    return {
        "value": order * coverage if m else 0.0,
        "tau": tau, "coverage": coverage, "order_component": order,
        "predicted_original": originals, "invalid": invalid, "duplicates": duplicates,
        "missing": sorted(set(range(n)) - set(originals)),
    }


_LEAD = re.compile(r"^\s*(?:第?\s*\d+\s*步?\s*[.、:：)）]?|[-*•])\s*")
TEXT_MATCH = 85  # rapidfuzz partial ratio for a line to name a step


def steps_from_text(text: str, steps: list[str]) -> list[int]:
    """Original step indices read from lines that quote the step texts, in line order."""
    out: list[int] = []
    norm_steps = [normalize(s) for s in steps]
    for line in text.splitlines():
        body = normalize(_LEAD.sub("", line))
        if len(body) < 2:
            continue
        ratios = [fuzz.partial_ratio(s, body) if s else 0.0 for s in norm_steps]
        best = max(range(len(steps)), key=ratios.__getitem__)
        if ratios[best] >= TEXT_MATCH and best not in out:
            out.append(best)
    return out


_SEGMENT = re.compile(r"→|->|⟶|⇒|＞|>|\n|；|;")
FREE_TEXT_MATCH = 0.34  # share of a step's character bigrams a segment must hold to name it


def _bigrams(text: str) -> set[str]:
    t = normalize(text)
    return {t[i:i + 2] for i in range(len(t) - 1)}


def steps_from_free_text(text: str, steps: list[str]) -> list[int]:
    """Original step indices read from segments that say the steps in other words, in text order:
    each segment goes to the step whose bigrams it holds the largest share of (greedy, best pairs
    first, one step per segment)."""
    body = re.sub(r"^[^：:\n]{0,12}[：:]", "", text.strip(), count=1)  # 正确顺序：
    segments = [seg for seg in (_LEAD.sub("", x).strip() for x in _SEGMENT.split(body)) if len(normalize(seg)) >= 2]
    step_grams = [_bigrams(s) for s in steps]
    pairs = []
    for i, seg in enumerate(segments):
        grams = _bigrams(seg)
        for j, sg in enumerate(step_grams):
            if sg and grams:
                share = len(grams & sg) / min(len(grams), len(sg))
                if share >= FREE_TEXT_MATCH:
                    pairs.append((share, i, j))
    taken_seg: dict[int, int] = {}
    taken_step: set[int] = set()
    for _, i, j in sorted(pairs, reverse=True):
        if i not in taken_seg and j not in taken_step:
            taken_seg[i] = j
            taken_step.add(j)
    return [taken_seg[i] for i in sorted(taken_seg)]


def _renumbered(display: list[int]) -> bool:
    """1, 2, 3 … in order: the signature of a model that renumbered the steps it listed."""
    return len(display) >= 2 and display == list(range(1, len(display) + 1))


def inverted_pairs(originals: list[int], critical: list[list[int]]) -> list[tuple[int, int]]:
    """Critical pairs [i, j] (1-based: i before j) the order puts the other way round."""
    position = {o: k for k, o in enumerate(originals)}
    return [(i, j) for i, j in critical if i - 1 in position and j - 1 in position
            and position[i - 1] > position[j - 1]]


def _wrong_side(inp: ScoreInput) -> set[str]:
    """Sides the answer's words name that the operation is not on (左侧腹股沟切口 for a right hernia):
    the right steps on the wrong side are a wrong operation, charged as a harmful inversion is. Judged
    only where the case's question and steps agree on one side."""
    side = case_side(inp.case.question or "", *inp.case.steps)
    if side not in ({"左"}, {"右"}):
        return set()
    return sides(inp.transcript.final_text or "") - side - {"双"}


@scorer(NAME, config=("critical_penalty", "exact_weight"))
def score_ordering(inp: ScoreInput) -> Score:
    n = len(inp.case.steps)
    shown = inp.transcript.info.get("steps_shown") or list(range(n))
    free = []
    if n and (inp.transcript.answer is None or inp.transcript.answer == []) and inp.transcript.final_text:
        free = steps_from_free_text(inp.transcript.final_text, inp.case.steps)
    if len(free) < 2 and (s := unparsed(NAME, inp)) is not None:
        return s
    if n == 0:
        return no_gold(NAME, "steps")
    display = _display_numbers(inp.transcript.answer, n) if len(free) < 2 else [shown.index(o) + 1 for o in free]
    read_from = "numbers" if len(free) < 2 else "own words"
    # A model that lists the steps' text under fresh numbers 1, 2, 3 …: its order is in the text.
    if _renumbered(display) and inp.transcript.final_text:
        originals = steps_from_text(inp.transcript.final_text, inp.case.steps)
        if len(originals) >= 2 and [shown.index(o) + 1 for o in originals] != display:
            display, read_from = [shown.index(o) + 1 for o in originals], "step text"
    ties = [[i - 1 for i in group] for group in inp.case.step_ties]  # 1-based in the case file
    d = order_score(display, shown, n, ties)
    d["read_from"] = read_from
    value = max(0.0, min(1.0, d.pop("value")))
    exact_weight = float(inp.config.get("exact_weight", 0.0))
    if exact_weight:
        whole = d["coverage"] == 1.0 and (d["tau"] == 1.0 or n == 1)
        d["exact"] = whole
        value = (1 - exact_weight) * value + exact_weight * whole
    inverted = inverted_pairs(d["predicted_original"], inp.case.critical_order)
    d["critical_inverted"] = inverted
    if inverted:
        value *= float(inp.config.get("critical_penalty", 0.0))
    wrong_side = _wrong_side(inp)
    d["wrong_side"] = sorted(wrong_side)
    if wrong_side:
        value *= float(inp.config.get("critical_penalty", 0.0))
    tau = "—" if d["tau"] is None else f"{d['tau']:.2f}"
    reasons = [f"τ {tau}，覆盖 {len(d['predicted_original'])}/{n} 步"
               + ("（按步骤文字读取）" if read_from != "numbers" else "")
               + (("，整体顺序正确" if d["exact"] else "，整体顺序不对") if exact_weight else "")]
    if wrong_side:
        reasons.append(f"侧别错误：本例为{'、'.join(sorted(case_side(inp.case.question, *inp.case.steps)))}侧，"
                       f"答案写了{'、'.join(sorted(wrong_side))}侧")
    if inverted:
        reasons.append("安全攸关的先后颠倒：" + "；".join(f"第{j}步在第{i}步之前" for i, j in inverted))
    if d["invalid"] or d["duplicates"]:
        reasons.append(f"ignored: out of range {d['invalid']}, repeated {d['duplicates']}")
    return Score(NAME, value, reasons, d)
