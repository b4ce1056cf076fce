"""A small learned correction of the rules' polarity, for findings read in a consultation.

The rules (medsim.text.negation) say what a sentence says; a dialogue also says it through who
speaks, what was asked and what came back. A multinomial logistic regression over sparse
features — the rules' own verdict and cue, the speaker, the kind of finding, the characters
around it, the question before and the answer after — re-weighs the rules' verdict. It was
trained by ``bench/train_polarity.py`` on the train split of CMDD (Lin et al., EMNLP 2019;
ChineseBLUE, Apache-2.0) and ships as ``polarity_weights.json.gz`` (weights only, no text).
Inference is pure Python: a few dozen dictionary look-ups per finding.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
from functools import cache
from pathlib import Path

LABELS = ("present", "absent", "uncertain")
WEIGHTS = Path(os.environ.get("MEDSIM_POLARITY_WEIGHTS") or Path(__file__).with_name("polarity_weights.json.gz"))
_CLAUSE = re.compile(r"[，。；！？?!,;\n]")


def features(speaker: str, text: str, start: int, end: int, finding, prev: str, answer: str,
             answer_polarity: str | None) -> list[str]:
    """Sparse features of one finding (offsets in ``text``) in its turn and its neighbours."""
    rule = finding.polarity
    who = "d" if speaker not in ("patient", "患者") else "p"
    cue = finding.cue or "-"
    kind = finding.type
    out = [
        "bias", f"r={rule}", f"w={who}", f"w={who}|r={rule}", f"c={cue}", f"w={who}|c={cue}",
        f"t={kind}", f"w={who}|t={kind}", f"t={kind}|r={rule}", f"n={finding.norm}", f"w={who}|n={finding.norm}",
        f"h={int(finding.historical)}",
    ]
    cut = [m.start() for m in _CLAUSE.finditer(text)]
    cs = max([c + 1 for c in cut if c < start], default=0)
    ce = min([c for c in cut if c >= end], default=len(text))
    left = text[max(cs, start - 6) : start]
    right = text[end : min(ce, end + 6)]
    for k, ch in enumerate(reversed(left)):
        out.append(f"L{min(k, 3)}={ch}")
    for k in range(len(left) - 1):
        out.append(f"LB={left[k:k + 2]}")
    for k, ch in enumerate(right):
        out.append(f"R{min(k, 3)}={ch}")
    for k in range(len(right) - 1):
        out.append(f"RB={right[k:k + 2]}")
    tail = text[ce : ce + 1] or "$"
    out.append(f"end={tail}")
    out.append(f"w={who}|end={tail}")
    out.append(f"q={int('？' in text or '?' in text or '吗' in text)}")
    out.append(f"w={who}|q={int('？' in text or '?' in text or '吗' in text)}")
    if who == "d":
        out.append(f"a={answer_polarity or '-'}")
        out.append(f"a={answer_polarity or '-'}|r={rule}")
        out.append(f"a2={answer[:2] or '-'}")
    else:
        out.append(f"pq={int('？' in prev or '吗' in prev or '有没有' in prev)}")
        out.append(f"p2={prev[-2:] or '-'}")
    return out


# added to the class scores per speaker (present, absent, uncertain): chosen on CMDD train halves
# (trained on one, scored on the other) to lift uncertain recall and absent precision at equal accuracy
OFFSETS = {"patient": (0.0, -0.4, 1.0), "doctor": (0.0, -0.2, 0.0)}


@cache
def _model() -> dict | None:
    if not WEIGHTS.exists():
        return None
    with gzip.open(WEIGHTS, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def _weights() -> dict[str, list[float]] | None:
    model = _model()
    return model["weights"] if model else None


def available() -> bool:
    return _weights() is not None


def predict(feats: list[str], weights: dict[str, list[float]] | None = None,
            speaker: str | None = None) -> tuple[str, float]:
    """(label, probability) for one finding's features; ``speaker`` ("patient"/"doctor") adds
    the shipped model's per-speaker offsets."""
    model = None if weights is not None else _model()
    w = weights if weights is not None else (model["weights"] if model else None)
    if w is None:
        raise FileNotFoundError(f"polarity weights missing: {WEIGHTS}")
    offsets = (model or {}).get("meta", {}).get("offsets", {}).get(speaker or "", (0.0, 0.0, 0.0))
    scores = list(offsets)
    for f in feats:
        row = w.get(f)
        if row is not None:
            scores[0] += row[0]
            scores[1] += row[1]
            scores[2] += row[2]
    top = max(scores)
    exp = [math.exp(s - top) for s in scores]
    total = sum(exp)
    k = max(range(3), key=lambda i: scores[i])
    return LABELS[k], exp[k] / total


def train(samples: list[tuple[list[str], str]], epochs: int = 6, lr: float = 0.2, l2: float = 1e-5,
          min_count: int = 2, seed: int = 0) -> dict[str, list[float]]:
    """Multinomial logistic regression by SGD (plain Python; a few seconds on CMDD train)."""
    import random
    from collections import Counter

    counts = Counter(f for feats, _ in samples for f in set(feats))
    keep = {f for f, n in counts.items() if n >= min_count}
    data = [([f for f in feats if f in keep], LABELS.index(label)) for feats, label in samples]
    w: dict[str, list[float]] = {f: [0.0, 0.0, 0.0] for f in keep}
    rng = random.Random(seed)
    for epoch in range(epochs):
        rng.shuffle(data)
        rate = lr / (1 + epoch)
        for feats, y in data:
            scores = [sum(w[f][k] for f in feats) for k in range(3)]
            top = max(scores)
            exp = [math.exp(s - top) for s in scores]
            total = sum(exp)
            for k in range(3):
                g = exp[k] / total - (1.0 if k == y else 0.0)
                if g == 0.0:
                    continue
                step = rate * g
                for f in feats:
                    row = w[f]
                    row[k] -= step + rate * l2 * row[k]
    return {f: [round(x, 4) for x in row] for f, row in w.items() if any(abs(x) >= 0.005 for x in row)}
