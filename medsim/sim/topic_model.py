"""A small learned re-weighing of the topic rules: which topics a clinician's message asks.

The cue rules (:func:`medsim.sim.topics.classify_rules`) were written on one sample of real
doctors' questions and reach about 0.65 exact-set accuracy on samples they never saw. This model
keeps them as evidence and re-weighs them: a one-vs-rest logistic regression per topic
(:mod:`medsim.text.linear_model`) over
- the rules' own topics (``r=``), their count, and whether they came from the nearest-neighbour
  fallback (``nn=``);
- character 1–3-grams of the folded question with its named symptoms, conditions, drugs and body
  parts masked (the features of :mod:`medsim.sim.topic_nn`: 有没有Ｓ, Ｂ还是, 吗$);
- the words of the text layer's segmenter (jieba with the medical dictionary).
A topic is heard when its probability reaches the shipped threshold; a part the rules heard
something in keeps at least its likeliest topic. A message of several asking sentences is decided
sentence by sentence (``topics.learning_units``), so a compound question keeps every part. Topics
with too few training examples to learn (``meta.rule_only``) stay as the rules say.

Trained by ``bench/train_topic_model.py`` on labelled IMCS-21 doctor requests (tests/sim/data/
imcs21, samples A, B, C, T1–T3, D, E, F, G) and the shipped question bank (``topic_examples.yaml``); it ships as
``topic_weights.json.gz`` (weights under hashed feature keys: no question text, not even its
n-grams), is loaded on first use, and
scores in plain Python (a few hundred dictionary look-ups per question). Without the file the
rules answer alone.
"""

from __future__ import annotations

import os
import zlib
from functools import cache
from pathlib import Path

from medsim.text import linear_model

WEIGHTS = Path(os.environ.get("MEDSIM_TOPIC_WEIGHTS") or Path(__file__).with_name("topic_weights.json.gz"))


def features(question: str, rule_topics: list[str], fuzzy: bool) -> list[str]:
    """Sparse features of one clinician message, given the rules' reading of it, as the hashed
    keys the weights are stored under (see :func:`readable_features`)."""
    return [_key(f) for f in readable_features(question, rule_topics, fuzzy)]


def _key(feature: str) -> str:
    # the weights file holds no training text: a feature is stored as the CRC-32 of its name
    # (IMCS-21 has no licence; its questions stay in tests, and not even their n-grams ship)
    return format(zlib.crc32(feature.encode("utf-8")), "08x")


def readable_features(question: str, rule_topics: list[str], fuzzy: bool) -> list[str]:
    """The features by name (for reading a decision): ``r=``/``nn=`` the rules' topics, ``g=``
    masked character n-grams, ``w=`` words, ``r#``/``s#`` counts of topics and sentences."""
    from medsim.sim import textlink, topic_nn, topics

    folded = topics.fold(question)
    out = ["bias", f"r#={min(len(rule_topics), 3)}"]
    out += [f"r={t}" for t in rule_topics] or ["r=-"]
    if fuzzy:  # the rules' topics came from the nearest-neighbour fallback: weaker evidence
        out += ["nn"] + [f"nn={t}" for t in rule_topics]
    masked = "".join(topics.named_items(s)[2] for s in topics._SENTENCE.split(folded))
    out += [f"g={g}" for g in topic_nn._features(masked)]
    out += [f"w={w}" for w in dict.fromkeys(textlink.tokens(folded)) if w.strip("？?。！!；;，,、 ")]
    out.append(f"s#={min(len([s for s in topics._SENTENCE.split(folded) if s.strip('？?。！!；;，, ')]), 3)}")
    return out


@cache
def _model() -> dict | None:
    return linear_model.load(WEIGHTS)


def available() -> bool:
    return _model() is not None


def probabilities(feats: list[str], model: dict | None = None) -> dict[str, float]:
    """Topic → probability for one message's features (the shipped model unless ``model``)."""
    model = model or _model()
    if model is None:
        raise FileNotFoundError(f"topic weights missing: {WEIGHTS}")
    labels = model["meta"]["labels"]
    raw = linear_model.scores(feats, model["weights"], len(labels))
    return {t: linear_model.sigmoid(s) for t, s in zip(labels, raw, strict=True)}


def loaded() -> dict | None:
    """The shipped model, or None when its weights are missing (the rules then answer alone)."""
    return _model()


def decide(probs: dict[str, float], rule_topics: list[str], model: dict | None = None,
           vetoed: frozenset[str] = frozenset()) -> set[str]:
    """The topics heard: the likeliest topic when its probability reaches the threshold, each other
    one when it reaches ``extra_threshold`` (most real questions ask one thing: a second topic
    needs firmer evidence), the rule-only topics as the rules say, never a ``vetoed`` one; when
    that leaves nothing of a part the rules heard something in, the likeliest topic (nearly every
    real question asks something: better than "not understood"), the rules' own when it is nearly
    as likely; a further topic the rules heard is kept from ``rule_extra`` on. When the model is
    unsure of every topic (its likeliest below ``rules_below``), the rules alone speak: they follow
    TOPICS.md, which a new annotator reads too, where the model only knows the labelled examples."""
    model = model or _model()
    meta = model["meta"]
    rules = set(rule_topics)
    rule_only = set(meta.get("rule_only", ()))
    allowed = {t: p for t, p in probs.items() if t not in vetoed}
    if rules - vetoed and allowed and max(allowed.values()) < meta.get("rules_below", 0.0):
        return rules - vetoed
    learned = sorted((t for t in allowed if t not in rule_only), key=allowed.get, reverse=True)
    extra = meta.get("extra_threshold", meta["threshold"])
    heard = {t for k, t in enumerate(learned) if allowed[t] >= (meta["threshold"] if k == 0 else extra)}
    if heard:
        # a further topic the rules heard too needs less (``rule_extra``): 大便一天几次，什么颜色 asks
        # both how often and what it looks like, and the rules' reading of the compound is evidence
        rule_extra = meta.get("rule_extra", extra)
        heard |= {t for t in learned if t in rules and allowed[t] >= rule_extra}
    heard |= (rules & rule_only) - vetoed
    if not heard and rules:
        best = max(allowed, key=allowed.get)
        ruled = [t for t in rule_topics if t in allowed]
        # the rules' likeliest topic unless the model's is clearly likelier (``rule_margin``)
        if ruled and allowed[max(ruled, key=allowed.get)] >= meta.get("rule_margin", 1.0) * allowed[best]:
            best = max(ruled, key=allowed.get)
        heard = {best}
    return heard
