"""Nearest-neighbour topic fallback over the labelled question bank (``topic_examples.yaml``).

When no cue pattern in ``topics`` fires, a clinician's question is compared with every labelled
training question by character n-gram TF-IDF cosine similarity, and the topics of the closest
questions are returned. Pure Python, built once per process and cached (about 550 questions,
a few milliseconds to build; a query touches only the postings of its own n-grams).

Representation: the question is folded and its named symptoms / conditions / drugs / body parts
are masked by ``topics.named_items`` (each masked run collapses to one placeholder: 有没有发烧 and
有没有拉稀 both read 有没有Ｓ; a lone placeholder is not a feature, its context is), a Latin word
(ct, mri) is one symbol and a number is 0, punctuation and a courtesy opener (请问) are dropped,
and the string is padded with ^ and $ so that 吗$ (a question ending) and ^您 are features.
Features are the character 1-, 2- and 3-grams;
weights are sublinear tf × smoothed idf, vectors L2-normalised (so a score is a cosine in [0, 1]).

Decision (thresholds chosen by leave-one-out over the bank itself, never on a held-out list;
``loo_report`` prints the curve):
- take the K nearest questions with cosine ≥ MIN_SIM;
- each votes for every topic in its label with weight = its cosine;
- return the topics whose vote is at least VOTE_SHARE of the best topic's vote.
If no training question reaches MIN_SIM the fallback returns nothing (the patient then says it
did not understand) rather than guessing from a weak resemblance.

The bank must never contain a list that is being measured: ``topic_examples.yaml`` holds only
the lists already absorbed into the rules; fresh held-out lists live in ``tests/sim/data``.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

BANK_PATH = Path(__file__).with_name("topic_examples.yaml")

# Leave-one-out over the 554 bank questions (python -m medsim.sim.topic_nn), exact topic sets,
# MIN_SIM 0: K=1 0.68; K=5 with VOTE_SHARE 0.5/0.6/0.8 → 0.62/0.65/0.70; K=8 → 0.58/0.63/0.68
# (1–3-grams; 1–2- and 1–4-grams within ±0.03). With K=5, VOTE_SHARE=0.8, MIN_SIM
# 0.20/0.25/0.30/0.40 answers 90/80/69/45% of the bank at 0.72/0.76/0.77/0.78 exact precision:
# 0.25 is the knee. Neighbours below it typically share only function words (吗, 有没有, 您,
# 最后) with the question, as with the reference clinician's record-phrased questions
# (请问：心房颤动未抗凝？), which are better left "not understood" than answered off-topic.
K = 5  # neighbours that vote
MIN_SIM = 0.25  # below this cosine a training question is not "similar"
VOTE_SHARE = 0.8  # a topic is returned when its vote ≥ this share of the best topic's vote
NGRAMS = (1, 2, 3)

_MASK_RUN = re.compile(r"([ＳＣＢＤ])\1+")
_DROP = re.compile(r"[\s，。？！；：、,.?!;:\"'“”‘’（）()…~～{}\[\]【】<>《》=+*/\\|-]+")
# Courtesy openers carry no topic; left in, the one bank question that starts 请问是否有… would
# pull every 请问-question towards its label.
_COURTESY = re.compile(r"^(请问一?下?|麻烦(问|您)一?下|(我)?想问一?下|问一?下)")


@dataclass(frozen=True)
class Example:
    q: str
    topics: frozenset[str]


# A lone placeholder says only "some symptom / body part was named": every question naming
# one would resemble every other (急性冠脉综合征 → 急性ＢＢ综合征 ≈ 是上腹部还是下腹部疼).
# Its context grams (有没有Ｓ, Ｂ还是) stay.
_NOT_FEATURES = frozenset({"^", "$", "Ｓ", "Ｃ", "Ｂ", "Ｄ"})
_ASCII_WORD = re.compile(r"[A-Za-z]+")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?")


def _ascii_symbol(m: re.Match[str]) -> str:
    # a Latin word (ct, mri, b超's b) is one symbol, not letters: single letters shared by
    # unrelated words (the t of ct and of department) must not count as resemblance
    return chr(0xE000 + zlib.crc32(m.group().lower().encode()) % 6000)


def _features(masked: str) -> Counter[str]:
    text = _NUMBER.sub("0", _ASCII_WORD.sub(_ascii_symbol, masked))
    text = "^" + _COURTESY.sub("", _DROP.sub("", _MASK_RUN.sub(r"\1", text))) + "$"
    grams: Counter[str] = Counter()
    for n in NGRAMS:
        for i in range(len(text) - n + 1):
            gram = text[i:i + n]
            if gram not in _NOT_FEATURES:
                grams[gram] += 1
    return grams


def _masked(question: str) -> str:
    from medsim.sim import topics  # topics imports this module lazily; no cycle at import time

    out = []
    for sentence in topics._SENTENCE.split(topics.fold(question)):
        out.append(topics.named_items(sentence)[2])
    return "".join(out)


def load_bank(path: Path = BANK_PATH) -> list[Example]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [Example(item["q"], frozenset(item["topics"])) for items in data.values() for item in items]


class Index:
    def __init__(self, examples: list[Example]):
        self.examples = examples
        docs = [_features(_masked(ex.q)) for ex in examples]
        df: Counter[str] = Counter(g for doc in docs for g in doc)
        n = len(docs)
        self.idf = {g: math.log((n + 1) / (c + 1)) + 1.0 for g, c in df.items()}
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, doc in enumerate(docs):
            for g, w in self._vector(doc).items():
                self.postings[g].append((i, w))

    def _vector(self, grams: Counter[str]) -> dict[str, float]:
        vec = {g: (1.0 + math.log(c)) * self.idf[g] for g, c in grams.items() if g in self.idf}
        norm = math.sqrt(sum(w * w for w in vec.values())) or 1.0
        return {g: w / norm for g, w in vec.items()}

    def neighbours(self, masked: str, exclude: int | None = None) -> list[tuple[float, int]]:
        scores: dict[int, float] = defaultdict(float)
        for g, qw in self._vector(_features(masked)).items():
            for i, dw in self.postings.get(g, ()):
                scores[i] += qw * dw
        if exclude is not None:
            scores.pop(exclude, None)
        return sorted(((s, i) for i, s in scores.items()), reverse=True)[:K]

    def predict(self, masked: str, exclude: int | None = None,
                vetoed: frozenset[str] = frozenset()) -> tuple[list[str], float]:
        """Topics voted by the nearest questions, and the best cosine (0.0 when none is near).
        ``vetoed`` topics are ones a rule has already ruled out (家里有血压计吗 is no family history)."""
        near = [(s, i) for s, i in self.neighbours(masked, exclude) if s >= MIN_SIM]
        if not near:
            return [], 0.0
        votes: Counter[str] = Counter()
        for s, i in near:
            for t in self.examples[i].topics - vetoed:
                votes[t] += s
        if not votes:
            return [], 0.0
        best = max(votes.values())
        return sorted(t for t, v in votes.items() if v >= VOTE_SHARE * best), near[0][0]


@cache
def index() -> Index:
    return Index(load_bank())


def nearest_topics(folded_masked: str, vetoed: frozenset[str] = frozenset()) -> list[str]:
    """Fallback topics for a folded, masked question (see ``topics.named_items``)."""
    return index().predict(folded_masked, vetoed=vetoed)[0]


def loo_report() -> None:
    """Leave-one-out over the bank: coverage and precision per MIN_SIM (for choosing thresholds)."""
    global MIN_SIM
    idx = index()
    masked = [_masked(ex.q) for ex in idx.examples]
    saved = MIN_SIM
    for threshold in (0.0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
        MIN_SIM = threshold
        answered = right = 0
        for i, ex in enumerate(idx.examples):
            got, _ = idx.predict(masked[i], exclude=i)
            if got:
                answered += 1
                right += set(got) == ex.topics
        n = len(idx.examples)
        print(f"MIN_SIM {threshold:.2f}: answers {answered}/{n} ({answered / n:.2f}), "
              f"exact {right}/{answered} ({right / max(answered, 1):.2f}), overall {right / n:.2f}")
    MIN_SIM = saved


if __name__ == "__main__":
    loo_report()
