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
of them the other way round multiplies the score by ``critical_penalty`` (default 0).

A model that copies the steps' text under fresh numbers (1. 探查腹腔 2. 消毒铺巾 …) is read
by its text: each line is matched to a step (rapidfuzz partial ratio ≥ 85).
"""

from __future__ import annotations

import re
from typing import Any

from rapidfuzz import fuzz

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import no_gold, unparsed
from medsim.sim.answer import coerce_int, extract_steps
from medsim.text.match import normalize

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


def _renumbered(display: list[int]) -> bool:
    """1, 2, 3 … in order: the signature of a model that renumbered the steps it listed."""
    return len(display) >= 2 and display == list(range(1, len(display) + 1))


def inverted_pairs(originals: list[int], critical: list[list[int]]) -> list[tuple[int, int]]:
    """Critical pairs [i, j] (1-based: i before j) the order puts the other way round."""
    position = {o: k for k, o in enumerate(originals)}
    return [(i, j) for i, j in critical if i - 1 in position and j - 1 in position
            and position[i - 1] > position[j - 1]]


@scorer(NAME, config=("critical_penalty",))
def score_ordering(inp: ScoreInput) -> Score:
    if (s := unparsed(NAME, inp)) is not None:
        return s
    n = len(inp.case.steps)
    if n == 0:
        return no_gold(NAME, "steps")
    display = _display_numbers(inp.transcript.answer, n)
    shown = inp.transcript.info.get("steps_shown") or list(range(n))
    read_from = "numbers"
    # A model that lists the steps' text under fresh numbers 1, 2, 3 …: its order is in the text.
    if _renumbered(display) and inp.transcript.final_text:
        originals = steps_from_text(inp.transcript.final_text, inp.case.steps)
        if len(originals) >= 2 and [shown.index(o) + 1 for o in originals] != display:
            display, read_from = [shown.index(o) + 1 for o in originals], "step text"
    ties = [[i - 1 for i in group] for group in inp.case.step_ties]  # 1-based in the case file
    d = order_score(display, shown, n, ties)
    d["read_from"] = read_from
    value = max(0.0, min(1.0, d.pop("value")))
    inverted = inverted_pairs(d["predicted_original"], inp.case.critical_order)
    d["critical_inverted"] = inverted
    if inverted:
        value *= float(inp.config.get("critical_penalty", 0.0))
    tau = "—" if d["tau"] is None else f"{d['tau']:.2f}"
    reasons = [f"τ {tau}，覆盖 {len(d['predicted_original'])}/{n} 步"]
    if inverted:
        reasons.append("安全攸关的先后颠倒：" + "；".join(f"第{j}步在第{i}步之前" for i, j in inverted))
    if d["invalid"] or d["duplicates"]:
        reasons.append(f"ignored: out of range {d['invalid']}, repeated {d['duplicates']}")
    return Score(NAME, value, reasons, d)
