"""choice: single and multiple choice, mapped back through the displayed option order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import no_gold, unparsed
from medsim.sim.answer import extract_choices

NAME = "choice"


def gold_letters(gold: Any) -> list[str]:
    """'B', 'BD', 'B,D', ['B', 'D'] → ['B', 'D']."""
    if isinstance(gold, list | tuple):
        gold = "".join(str(g) for g in gold)
    return sorted({ch for ch in str(gold).upper() if "A" <= ch <= "Z"})


def predicted_letters(answer: Any, letters: list[str] | None = None) -> list[str]:
    """Letters from a parsed answer (a list of letters) or from raw text."""
    if isinstance(answer, list | tuple):
        out: list[str] = []
        for a in answer:
            a = str(a).strip()
            for ch in [a.upper()] if len(a) == 1 else extract_choices(a, letters):
                if ch not in out:
                    out.append(ch)
        return out
    return extract_choices(str(answer), letters)


@scorer(NAME, config=("partial", "shuffle"))
def score_choice(inp: ScoreInput) -> Score:
    """Exact set match; multiple-answer items get Jaccard credit when ``partial: true``."""
    if (s := unparsed(NAME, inp)) is not None:
        return s
    gold = gold_letters(inp.case.gold.get("choice", ""))
    if not gold:
        return no_gold(NAME, "gold.choice")
    shown: dict[str, str] = inp.transcript.info.get("options_shown") or {}
    letters = sorted(shown) if shown else (sorted(inp.case.options) or None)
    display = predicted_letters(inp.transcript.answer, letters)
    original = sorted({shown.get(d, d) for d in display})
    gold_display = sorted(d for d, o in shown.items() if o in gold) if shown else gold
    inter, union = set(original) & set(gold), set(original) | set(gold)
    exact = set(original) == set(gold)
    partial = bool(inp.config.get("partial", False)) and len(gold) > 1
    value = 1.0 if exact else (len(inter) / len(union) if partial and union else 0.0)
    reasons = [_said(display, gold_display, original, gold) + ("，正确" if exact else "")]
    if partial and not exact:
        reasons.append(f"partial credit (Jaccard) {len(inter)}/{len(union)}")
    if len(original) == len(letters or []) and len(gold) < len(original):
        reasons.append("chose every option")
    return Score(
        NAME,
        value,
        reasons,
        {
            "predicted": original,
            "predicted_display": display,
            "gold": gold,
            "gold_display": gold_display,
            "correct": exact,
            "multiple": len(gold) > 1,
        },
    )


def _said(display: list[str], gold_display: list[str], original: list[str], gold: list[str]) -> str:
    """The choice in the letters the model saw (the options are shuffled for it), and the case file's
    letters beside them where they differ, so a reader of the transcript is not sent to the wrong option."""
    def letters(xs: list[str]) -> str:
        return "".join(sorted(xs)) or "（无）"

    seen = f"选择 {letters(display)}，标准答案 {letters(gold_display)}"
    if letters(display) == letters(original) and letters(gold_display) == letters(gold):
        return seen
    return f"{seen}（按显示给模型的选项；题库原序为选择 {letters(original)}，标准答案 {letters(gold)}）"


def position_bias(results: Iterable[Score | dict[str, Any]]) -> dict[str, Any]:
    """Accuracy by where the gold letter sat: its original letter and its displayed letter.

    Takes choice Scores (or their ``details`` dicts). A model without position bias has
    flat accuracy across positions; ``spread`` is max − min accuracy over positions with items.
    """
    by_orig: dict[str, list[int]] = {}
    by_disp: dict[str, list[int]] = {}
    gold_at: dict[str, int] = {}
    picked_at: dict[str, int] = {}
    for r in results:
        d = r.details if isinstance(r, Score) else r
        if not d or "gold" not in d or d.get("multiple"):
            continue
        ok = int(bool(d.get("correct")))
        for letter in d.get("gold_display") or d["gold"]:
            gold_at[letter] = gold_at.get(letter, 0) + 1
        for letter in d.get("predicted_display") or d.get("predicted") or []:
            picked_at[letter] = picked_at.get(letter, 0) + 1
        for letter in d["gold"]:
            by_orig.setdefault(letter, []).append(ok)
        for letter in d.get("gold_display") or d["gold"]:
            by_disp.setdefault(letter, []).append(ok)

    def table(groups: dict[str, list[int]]) -> dict[str, dict[str, float]]:
        return {k: {"n": len(v), "accuracy": sum(v) / len(v)} for k, v in sorted(groups.items())}

    def spread(t: dict[str, dict[str, float]]) -> float:
        accs = [row["accuracy"] for row in t.values()]
        return max(accs) - min(accs) if accs else 0.0

    orig, disp = table(by_orig), table(by_disp)
    # where the model's picks fell against where the gold sat, by displayed letter: a model that
    # favours a position picks it more often than the gold is there
    letters = sorted(set(gold_at) | set(picked_at))
    n_gold, n_picked = sum(gold_at.values()), sum(picked_at.values())
    shown = {k: {"gold_share": gold_at.get(k, 0) / n_gold if n_gold else 0.0,
                 "picked_share": picked_at.get(k, 0) / n_picked if n_picked else 0.0} for k in letters}
    return {"by_original": orig, "by_display": disp, "spread_original": spread(orig), "spread_display": spread(disp),
            "shares": shown, "n": n_gold}
