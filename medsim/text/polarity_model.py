"""A small learned correction of the rules' polarity, for findings read in a consultation.

The rules (medsim.text.negation) say what a sentence says; a dialogue also says it through who
speaks, what was asked and what came back. A multinomial logistic regression over sparse
features — the rules' own verdict and cue, the speaker, the kind of finding, the characters
around it, cue words of its clause and sentence (conditions, worries, advice, resolution),
whether its sentence asks, negation written inside a marked span, whether the other side uses
the same words, the question before and the answer after, and for a patient's mention why it may
be uncertain (``why_features``: the speaker guesses, believes, worries, asks whether, sets a
condition or asks what the thing is) and how the clinician's reply takes it up — re-weighs the
rules' verdict. It was
trained by ``bench/train_polarity.py`` on the train split of CMDD (Lin et al., EMNLP 2019;
ChineseBLUE, Apache-2.0) and ships as ``polarity_weights.json.gz`` (weights only, no text).
Inference is pure Python: about a hundred dictionary look-ups per finding. Epoch-averaged SGD
with L2 (the shared trainer of :mod:`medsim.text.linear_model`), the weights of a few runs with
other shuffling seeds averaged (``linear_model.mean``). A second weight set
(``context_weights``) reads each mention again with what the first reading made of the same
symptom's other mentions (``medsim.text.dialogue.context_features``).
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

from medsim.text import linear_model

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
    out += _sentence_features(who, text, start, end, cs, ce, cut)
    if who == "p":  # a clinician's hedges are read by the cue words above (they cost doctors' accuracy here)
        out += why_features(who, text, start, end, cs, ce)
    if who == "d":
        out.append(f"a={answer_polarity or '-'}")
        out.append(f"a={answer_polarity or '-'}|r={rule}")
        out.append(f"a2={answer[:2] or '-'}")
    else:
        out.append(f"pq={int('？' in prev or '吗' in prev or '有没有' in prev)}")
        out.append(f"p2={prev[-2:] or '-'}")
    return out


_INNER_NEG = re.compile(r"没有|没|不|无|未")
_RESOLVED_AFTER = re.compile(r"[也都就已经早还]*(?:刚好|好了|好多了|退了|退烧了|没了|消了|止住了|好转|减轻|缓解|少了|轻了)")
_SENT = re.compile(r"[。！？?!\n]")
# words that change whose or when a finding is, looked for in the finding's sentence before it
# (hypotheticals, worries, advice, causes, resolution, degree, questions): the weights say what each means
CUES = ("如果", "要是", "假如", "万一", "的话", "怕", "担心", "害怕", "会不会", "是不是", "是否", "有没有", "可能",
        "容易", "引起", "导致", "出现", "表现", "注意", "观察", "缓解", "减轻", "预防", "避免", "治疗", "就诊",
        "医院", "需要", "可以", "一般", "考虑", "诊断", "属于", "就是", "但是", "不过", "还是", "现在", "已经",
        "之前", "以前", "上次", "刚才", "昨天", "今天", "好了", "退了", "没了", "不了", "不怎么", "不太", "不是",
        "没有", "没", "不", "无", "未", "有", "还", "也", "都", "又", "了", "吗", "呢", "么", "什么", "怎么", "为什么",
        "原因", "药", "吃", "感觉", "像", "以为", "说", "问", "看", "宝宝", "孩子", "症状", "情况", "厉害", "多",
        # whose it is in a clinician's words: this child (宝贝 / 咱家 / 您家 / 目前 / 根据你说的 / 提示) or
        # children in general (有的孩子 / 常见 / 会出现)
        "宝贝", "咱", "您", "你家", "他", "她", "目前", "根据", "描述", "提示", "说明", "应该是", "这是", "有的",
        "会", "常见", "多见", "一般来说", "主要是")
_TAIL_CUES = ("了", "吗", "呢", "么", "不", "没", "好了", "退了", "不了", "没有", "厉害", "吗？", "的话", "了吗",
              "多久", "几天", "几次", "次", "怎么", "什么", "引起", "的表现", "的情况", "症状", "吧")


def _sentence_features(who: str, text: str, start: int, end: int, cs: int, ce: int, cut: list[int]) -> list[str]:
    """Cue words of the finding's clause and sentence, the sentence's end and the finding's place."""
    ends = [m.start() for m in _SENT.finditer(text)]
    ss = max([c + 1 for c in ends if c < start], default=0)
    se = min([c for c in ends if c >= end], default=len(text))
    clause_left, sent_left = text[cs:start], text[ss:start]
    clause_right, sent_right = text[end:ce], text[end:se]
    out = []
    for cues, clause, sentence, side in ((CUES, clause_left, sent_left, "l"), (_TAIL_CUES, clause_right, sent_right, "r")):
        for cue in cues:  # in the clause (also by speaker), else only in the sentence
            if cue in clause:
                out += [f"c{side}={cue}", f"w={who}|c{side}={cue}"]
            elif cue in sentence:
                out.append(f"s{side}={cue}")
    mark = text[se : se + 1] or "$"
    asks = mark in "？?" or bool(re.search(r"[吗么呢][^，。]{0,2}$", text[ss:se]))
    out += [f"sq={int(asks)}", f"w={who}|sq={int(asks)}", f"send={mark}"]
    out.append(f"whole={int(cs == start and ce == end)}")
    if cs == start and ce == end and cs > 0:
        prev_clause = text[max([c + 1 for c in cut if c < cs - 1], default=0) : cs - 1]
        out.append(f"whole|pc={prev_clause[:1] or '-'}")
        out.append(f"whole|pc2={prev_clause[:2] or '-'}")
    span = text[start:end]
    for m in _INNER_NEG.finditer(span):
        at = "head" if m.start() == 0 else "mid"
        out += [f"in={m.group(0)}@{at}", f"inx={span[m.start():m.end() + 1]}"]
    if _RESOLVED_AFTER.match(text, end):
        out.append("resolved")
    out.append(f"pos={'first' if ss == 0 else 'later'}")
    out.append(f"w={who}|len={min(len(text) // 20, 5)}")
    return out


# why a mention may be uncertain, in groups the weights share (a cue word seen rarely still
# counts through its group): the speaker guesses, believes, worries, asks whether, sets a
# condition, speaks of children in general or asks what the thing is
WHY_LEFT = {
    "guess": ("好像", "好象", "可能", "估计", "应该是", "大概", "也许", "似乎", "或许", "貌似", "说不定", "怕是"),
    "like": ("有点像", "像是", "感觉像", "好像是", "类似", "像"),
    "belief": ("感觉", "觉得", "以为", "怀疑", "不确定", "不知道", "不清楚", "不晓得", "看不出", "说不好", "分不清"),
    "worry": ("担心", "害怕", "万一", "生怕", "就怕", "怕"),
    "asks": ("是不是", "会不会", "是否", "有没有", "有无", "算不算", "还是"),
    "cond": ("如果", "要是", "假如", "若是", "一旦", "只要", "假设"),
    "general": ("每次", "容易", "以后", "预防", "一般", "经常会", "有的", "一些"),
    "what": ("什么是", "什么叫", "怎么看", "怎样看", "怎么知道", "怎么判断", "如何判断", "算是", "属于"),
    "told": ("医生说", "大夫说", "诊断", "确诊", "查出", "检查", "化验"),
}
_WHY_RIGHT = (
    ("q_self", re.compile(r"[了的]?(?:吗|么|嘛|不)[？?]?")),
    ("q_or", re.compile(r"[^，。；！？]{0,3}还是")),
    ("q_how", re.compile(r"[^，。；！？]{0,4}(?:怎么办|咋办|怎么回事|是什么|什么样|怎么治|难治|传染|是怎样|怎么弄|要紧|严重吗"
                         r"|什么原因|引起的|有关|导致的|造成的)")),
    ("guess_tail", re.compile(r"[^，。；！？]{0,3}(?:吧|的样子|似的|一样)")),
    ("cond_tail", re.compile(r"[^，。；！？]{0,4}的话")),
    ("of_noun", re.compile(r"的?(?:药|症状|表现|情况|病)")),
    ("resolved", re.compile(r"[也都就已经早还]*(?:好了|退了|没了|消了|好转)")),
)


def why_features(who: str, text: str, start: int, end: int, cs: int, ce: int) -> list[str]:
    """The groups of :data:`WHY_LEFT` written in the finding's clause before it (near: within
    four characters, else in the clause) and the forms written right after it (X吗 / X怎么办 /
    X吧 / X的话 / X的药), each alone, by speaker and with whether the clause asks."""
    left = text[cs:start]
    asks = int(text[ce:ce + 1] in ("？", "?") or bool(re.search(r"[吗么嘛呢]", text[end:ce])))
    out = []
    for group, words in WHY_LEFT.items():
        at = max((left.rfind(w) + len(w) for w in words if w in left), default=-1)
        if at < 0:
            continue
        where = "near" if len(left) - at <= 4 else "far"
        out += [f"why={group}", f"why={group}@{where}", f"w={who}|why={group}", f"w={who}|why={group}|q={asks}"]
    for name, pat in _WHY_RIGHT:
        if pat.match(text, end):
            out += [f"whyr={name}", f"w={who}|whyr={name}"]
    if not out:
        out.append(f"w={who}|why=none|q={asks}")
    return out


@cache
def _model() -> dict | None:
    return linear_model.load(WEIGHTS)


def _weights() -> dict[str, list[float]] | None:
    model = _model()
    return model["weights"] if model else None


def context_weights() -> dict[str, list[float]] | None:
    """The second reading's weights (the first reading's features plus what it made of the same
    symptom's other mentions: ``medsim.text.dialogue.context_features``), when shipped."""
    model = _model()
    return model.get("context_weights") if model else None


def available() -> bool:
    return _weights() is not None


def predict(feats: list[str], weights: dict[str, list[float]] | None = None,
            speaker: str | None = None, offsets: str = "first") -> tuple[str, float]:
    """(label, probability) for one finding's features; ``speaker`` ("patient"/"doctor") adds
    the shipped model's per-speaker offsets of that reading (``offsets``: "first" or "context")."""
    model = _model()
    w = weights if weights is not None else (model["weights"] if model else None)
    if w is None:
        raise FileNotFoundError(f"polarity weights missing: {WEIGHTS}")
    meta = (model or {}).get("meta", {})
    table = meta.get("context_offsets" if offsets == "context" else "offsets", {})
    start = table.get(speaker or "", (0.0, 0.0, 0.0))
    probs = linear_model.softmax(linear_model.scores(feats, w, len(LABELS), start=start))
    k = max(range(len(LABELS)), key=lambda i: probs[i])
    return LABELS[k], probs[k]


def train(samples: list[tuple[list[str], str]], epochs: int = 6, lr: float = 0.2, l2: float = 1e-5,
          min_count: int = 2, seed: int = 0, average: bool = False) -> dict[str, list[float]]:
    """Multinomial logistic regression by SGD (:func:`medsim.text.linear_model.train`; a few
    seconds on CMDD train); ``average``: the mean of the weights at each epoch's end."""
    return linear_model.train(samples, LABELS, epochs=epochs, lr=lr, l2=l2, min_count=min_count, seed=seed,
                              average=average)
