"""Tiny sparse linear models, trained by SGD and scored in plain Python: the one place for them.

A model is ``{feature: [weight per label]}``. Two losses share one trainer:
- ``multilabel=False``: multinomial logistic regression (softmax; one label per sample), used by
  the dialogue polarity model (:mod:`medsim.text.polarity_model`);
- ``multilabel=True``: one-vs-rest logistic regression (an independent sigmoid per label; a
  sample carries a set of labels, possibly empty), used by the patient's topic model
  (:mod:`medsim.sim.topic_model`).

Inference is a dictionary look-up per feature and a sum per label, so no numerical library is
needed at run time; training a few thousand samples takes seconds.
"""

from __future__ import annotations

import gzip
import json
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

# feature → a weight per label (dense), or label index → weight for the labels it moves (sparse)
Weights = dict[str, list[float] | dict[int, float]]


def scores(feats: Iterable[str], weights: Weights, n_labels: int, start: Sequence[float] | None = None) -> list[float]:
    """Raw label scores: the sum of the features' weight rows (unknown features add nothing)."""
    out = list(start) if start is not None else [0.0] * n_labels
    for f in feats:
        row = weights.get(f)
        if row is None:
            continue
        if isinstance(row, dict):
            for k, x in row.items():
                out[k] += x
        else:
            for k in range(n_labels):
                out[k] += row[k]
    return out


def softmax(values: Sequence[float]) -> list[float]:
    top = max(values)
    exp = [math.exp(v - top) for v in values]
    total = sum(exp)
    return [e / total for e in exp]


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def train(samples: list[tuple[list[str], object]], labels: Sequence[str], epochs: int = 6, lr: float = 0.2,
          l2: float = 1e-5, min_count: int = 2, seed: int = 0, average: bool = False,
          multilabel: bool = False, weights: Sequence[float] | None = None) -> Weights:
    """Logistic regression by SGD over sparse binary features.

    ``samples``: (features, target); the target is one label (softmax) or, with ``multilabel``,
    an iterable of labels (one sigmoid per label). ``min_count``: a feature seen in fewer samples
    is dropped. ``average``: the mean of the weights at each epoch's end (steadier than the
    last). ``weights``: a per-sample weight scaling its gradient (default 1)."""
    n = len(labels)
    index = {label: k for k, label in enumerate(labels)}
    counts = Counter(f for feats, _ in samples for f in set(feats))
    keep = {f for f, c in counts.items() if c >= min_count}
    data = []
    for j, (feats, target) in enumerate(samples):
        y = {index[t] for t in target} if multilabel else index[target]
        data.append(([f for f in feats if f in keep], y, 1.0 if weights is None else weights[j]))
    w: Weights = {f: [0.0] * n for f in keep}
    rng = random.Random(seed)
    avg: Weights = {}
    for epoch in range(epochs):
        rng.shuffle(data)
        rate = lr / (1 + epoch)
        for feats, y, sw in data:
            raw = [sum(w[f][k] for f in feats) for k in range(n)]
            if multilabel:
                grads = [sigmoid(raw[k]) - (1.0 if k in y else 0.0) for k in range(n)]
            else:
                probs = softmax(raw)
                grads = [probs[k] - (1.0 if k == y else 0.0) for k in range(n)]
            for k, g in enumerate(grads):
                if g == 0.0:
                    continue
                step = rate * g * sw
                for f in feats:
                    row = w[f]
                    row[k] -= step + rate * l2 * row[k]
        if average:
            for f, row in w.items():
                acc = avg.setdefault(f, [0.0] * n)
                for k in range(n):
                    acc[k] += row[k] / epochs
    if average:
        w = avg
    return {f: [round(x, 4) for x in row] for f, row in w.items() if any(abs(x) >= 0.005 for x in row)}


def mean(weight_sets: Sequence[Weights], n_labels: int) -> Weights:
    """The average of dense models trained alike (other shuffling seeds): one linear model whose
    scores are the mean of theirs, steadier than any one of them."""
    out: dict[str, list[float]] = {}
    for w in weight_sets:
        for f, row in w.items():
            acc = out.setdefault(f, [0.0] * n_labels)
            for k in range(n_labels):
                acc[k] += row[k] / len(weight_sets)
    return {f: [round(x, 4) for x in row] for f, row in out.items() if any(abs(x) >= 0.005 for x in row)}


def sparse(weights: Weights, eps: float) -> Weights:
    """Each row as {label index: weight} keeping only weights of at least ``eps`` in size (many
    labels, most features moving few of them: smaller to ship, faster to score)."""
    out: Weights = {}
    for f, row in weights.items():
        kept = {k: x for k, x in enumerate(row) if abs(x) >= eps}
        if kept:
            out[f] = kept
    return out


def save(path: str | Path, weights: Weights, meta: dict, **more: Weights) -> None:
    """Weights and their provenance as gzipped JSON (no training text is stored); ``more``: other
    weight sets kept beside them (the polarity model's ``context_weights``)."""
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump({"meta": meta, "weights": weights, **more}, fh, ensure_ascii=False, separators=(",", ":"))


def load(path: str | Path) -> dict | None:
    """``{"meta": …, "weights": …}``, or None when the file is missing (sparse rows read back
    with integer label indices)."""
    path = Path(path)
    if not path.exists():
        return None
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        model = json.load(fh)
    for f, row in model["weights"].items():
        if isinstance(row, dict):
            model["weights"][f] = {int(k): x for k, x in row.items()}
    return model
