"""rouge: ROUGE-1 and ROUGE-L F against ``reference_answer`` on medsim's Chinese tokens.

Tokens come from ``medsim.text.words`` (jieba with the medical dictionary) when it is
available, else characters; details say which, since the two give different numbers.
"""

from __future__ import annotations

from collections import Counter

from rapidfuzz.distance import LCSseq

from medsim.scoring.base import Score, ScoreInput, scorer
from medsim.scoring.common import answer_text, no_gold, unparsed
from medsim.text.match import tokens

NAME = "rouge"


def _f(overlap: float, n_pred: int, n_ref: int) -> tuple[float, float, float]:
    if not n_pred or not n_ref or not overlap:
        return 0.0, 0.0, 0.0
    p, r = overlap / n_pred, overlap / n_ref
    return p, r, 2 * p * r / (p + r)


def rouge_scores(pred: list[str], ref: list[str]) -> dict[str, float]:
    """ROUGE-1 (clipped unigram overlap) and ROUGE-L (longest common subsequence), P/R/F."""
    overlap = sum((Counter(pred) & Counter(ref)).values())
    p1, r1, f1 = _f(overlap, len(pred), len(ref))
    lcs = LCSseq.similarity(pred, ref) if pred and ref else 0
    pl, rl, fl = _f(lcs, len(pred), len(ref))
    return {"rouge1_p": p1, "rouge1_r": r1, "rouge1_f": f1, "rougeL_p": pl, "rougeL_r": rl, "rougeL_f": fl}


@scorer(NAME, config=("field", "variant"))
def score_rouge(inp: ScoreInput) -> Score:
    """value = ROUGE-L F (``variant: rouge1`` for ROUGE-1 F)."""
    if (s := unparsed(NAME, inp)) is not None:
        return s
    ref = inp.case.reference_answer
    if not ref:
        return no_gold(NAME, "reference_answer")
    variant = inp.config.get("variant", "rougeL")
    pred_toks, how = tokens(answer_text(inp, inp.config.get("field")))
    ref_toks, _ = tokens(ref)
    d = rouge_scores(pred_toks, ref_toks)
    value = d["rouge1_f"] if variant == "rouge1" else d["rougeL_f"]
    d.update({"tokenization": how, "variant": variant, "pred_tokens": len(pred_toks), "ref_tokens": len(ref_toks)})
    return Score(NAME, min(1.0, value), [
        f"ROUGE-1 F {d['rouge1_f']:.3f}，ROUGE-L F {d['rougeL_f']:.3f}（{how} tokens）"], d)
