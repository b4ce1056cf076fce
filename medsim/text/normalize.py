"""Normalize Chinese clinical text while keeping a map back to the original offsets.

Two passes:
1. a one-to-one character table (full-width ASCII → half-width, micro sign → μ, …), which
   never changes the length, so offsets stay identical;
2. regex rewrites of unit spellings that do change the length (×109/L → ×10^9/L,
   毫克 → mg, 39度 → 39℃). Each rewrite is recorded as an edit, and ``to_orig`` walks the
   edits with bisect.

Clause punctuation goes the other way: ASCII , ; : ? ! become the Chinese full-width forms
(except between digits), so negation scope and labels only have to know one spelling.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

# Full-width ASCII block → half-width, except the clause punctuation we keep full-width.
_KEEP_FULLWIDTH = set("，；：？！")
_TABLE: dict[int, str] = {}
for _code in range(0xFF01, 0xFF5F):
    _ch = chr(_code)
    if _ch not in _KEEP_FULLWIDTH:
        _TABLE[_code] = chr(_code - 0xFEE0)
_TABLE.update(
    {
        0x3000: " ",  # ideographic space
        0x00A0: " ",
        0x00B5: "μ",  # micro sign → Greek mu
        0x2103: "℃",
        0x2109: "℉",
        0x301C: "~",  # wave dash
        0x223C: "~",
        0x2014: "—",
        0x2212: "-",  # minus sign
        0x2013: "-",
        0x00D7: "×",
        0x2715: "×",
        0x2716: "×",
        0x00B7: "·",
        0x30FB: "·",
        0x2022: "·",
        0x201C: "“",
        0x201D: "”",
        0x3001: "、",
        0xFE51: "、",
        0xFF64: "、",  # half-width ideographic comma
        0xFF61: "。",
        0x02C6: "^",
    }
)

# Traditional forms of characters common in consultations and records → simplified, one to one
# (沒有發燒 reads as 没有发烧): patients write either, the lexicon and the cues are simplified.
# Only characters whose traditional form is never itself a simplified word are listed (not 著, 乾, 髮).
_TRAD = (
    "沒無發燒嗎麼喫藥還會過頭嘔瀉腫癢熱體溫現點說這個們時間覺醫師檢驗壓劑膿糞腸腦嚨氣嗆濕癥狀況"
    "愛飯餵嬰兒寶貝媽應該為樣脹綠黃顏鹽針輸診斷療結塊瘡潰瘍鬆緊頻厲嚴輕減緩幾兩歲後從開關聽見啞聲"
    "癒難適異對話問題謝請給讓認識邊變帶動別當屬於裡隻週塗膚際處經歷麵漲",
    "没无发烧吗么吃药还会过头呕泻肿痒热体温现点说这个们时间觉医师检验压剂脓粪肠脑咙气呛湿症状况"
    "爱饭喂婴儿宝贝妈应该为样胀绿黄颜盐针输诊断疗结块疮溃疡松紧频厉严轻减缓几两岁后从开关听见哑声"
    "愈难适异对话问题谢请给让认识边变带动别当属于里只周涂肤际处经历面涨",
)
_TABLE.update(str.maketrans(*_TRAD))

# ASCII clause punctuation → Chinese forms, unless it sits between two digits (1,000 · 10:30).
_CLAUSE_ASCII = re.compile(r"(?<!\d)[,;:?!]|[,;:?!](?!\d)")
_CLAUSE_MAP = {",": "，", ";": "；", ":": "：", "?": "？", "!": "！"}

# Length-changing unit rewrites. Each alternative is a named group so the callback knows
# which canonical spelling to emit.
_UNIT_RULES: list[tuple[str, str]] = [
    # cell counts: ×109/L, ×10^9/L, x10*9/L, *10^9/L, 10E9/L, 10~9/L (after a number)
    # a multiply sign or an exponent marker is required, so a bare count such as 1109/L stays
    ("e9", r"(?<=\d)\s*(?:[×xX*]\s*10\s*(?:\^|\*|E|e|~)?\s*9|10\s*(?:\^|\*|E|e|~)\s*9)\s*/\s*[Ll](?![a-zA-Z])"),
    ("e12", r"(?<=\d)\s*(?:[×xX*]\s*10\s*(?:\^|\*|E|e|~)?\s*12|10\s*(?:\^|\*|E|e|~)\s*12)\s*/\s*[Ll](?![a-zA-Z])"),
    ("umol", r"(?<=\d)\s*(?:u|μ)mol\s*/\s*[Ll](?![a-zA-Z])"),
    ("mmol", r"(?<=\d)\s*mmol\s*/\s*[Ll](?![a-zA-Z])|(?<=\d)\s*毫摩尔\s*/\s*升"),
    ("mgdl", r"(?<=\d)\s*mg\s*/\s*d[Ll](?![a-zA-Z])"),
    ("gl", r"(?<=\d)\s*g\s*/\s*[Ll](?![a-zA-Z])"),
    ("ul", r"(?<=\d)\s*[Uu]\s*/\s*[Ll](?![a-zA-Z])|(?<=\d)\s*IU\s*/\s*[Ll](?![a-zA-Z])"),
    ("mmhg", r"(?<=\d)\s*(?:mm\s*[Hh][Gg]|毫米汞柱)"),
    ("cmh2o", r"(?<=\d)\s*cm\s*[Hh]2[Oo]"),
    # ︒ (U+FE12) and a letter o stand for ° in some exports: 36.7︒C, 36.5oC
    ("celsius", r"(?<=\d)\s*(?:[°º︒]\s*[Cc]|o\s*C(?![a-zA-Z])|摄氏度|℃)"),
    ("ug", r"(?<=\d)\s*(?:ug|μg|mcg|微克)(?![a-zA-Z])"),
    ("mg", r"(?<=\d)\s*(?:mg|MG|毫克)(?![a-zA-Z/])"),
    ("ml", r"(?<=\d)\s*(?:ml|mL|ML|毫升)(?![a-zA-Z])"),
    ("kg", r"(?<=\d)\s*(?:kg|KG|Kg|公斤)(?![a-zA-Z/])"),
    ("gram", r"(?<=\d)\s*克(?![/隆])"),
    ("per_min", r"(?<=\d)\s*(?:次\s*/\s*分钟|次\s*/\s*分|次\s*/\s*min|次\s*/\s*分\s*钟|bpm|/\s*min|/\s*分钟|/\s*分)"),
]
_UNIT_CANON = {
    "e9": "×10^9/L",
    "e12": "×10^12/L",
    "umol": "μmol/L",
    "mmol": "mmol/L",
    "mgdl": "mg/dL",
    "gl": "g/L",
    "ul": "U/L",
    "mmhg": "mmHg",
    "cmh2o": "cmH2O",
    "celsius": "℃",
    "ug": "μg",
    "mg": "mg",
    "ml": "mL",
    "kg": "kg",
    "gram": "g",
    "per_min": "次/分",
}
# Every rule follows a digit: the shared lookbehind in front lets the search pass a non-digit
# position with one test instead of trying all the rules there (the rules' own stay, so each reads alone).
_UNIT_RE = re.compile(r"(?<=\d)(?:" + "|".join(f"(?P<{name}>{pat})" for name, pat in _UNIT_RULES) + ")")

# "39度" is a temperature only when the number is a plausible body temperature; "Ⅱ度烧伤"
# and "30度角" stay as they are.
_DEGREE_RE = re.compile(r"(?<![\d.])(3[4-9]|4[0-3])(\.\d)?\s*度(?![角数])")


@dataclass(frozen=True, slots=True)
class _Edit:
    norm_start: int
    norm_end: int
    orig_start: int
    orig_end: int


@dataclass(slots=True)
class Normalized:
    """Normalized text plus the edits that map it back to ``orig``."""

    text: str
    orig: str
    _edits: list[_Edit] = field(default_factory=list, repr=False)
    _starts: list[int] = field(default_factory=list, repr=False)

    def _pos(self, pos: int, is_end: bool) -> int:
        if not self._edits:
            return pos
        i = bisect_right(self._starts, pos if not is_end else pos - 1) - 1
        if i < 0:
            return pos
        e = self._edits[i]
        if e.norm_start <= (pos - 1 if is_end else pos) < e.norm_end:
            # Inside a rewrite: the span covers the whole original spelling.
            return e.orig_end if is_end else e.orig_start
        return pos + (e.orig_end - e.norm_end)

    def sequential_mapper(self):
        """A to_orig for spans given in increasing order (tokens): walks the edits once
        instead of bisecting for every span."""
        edits = self._edits
        if not edits:
            return lambda start, end: (start, end)
        n = len(edits)
        state = [0, 0]  # index of the first edit not wholly before the span, offset delta

        def mapper(start: int, end: int) -> tuple[int, int]:
            k, delta = state
            while k < n and edits[k].norm_end <= start:
                delta = edits[k].orig_end - edits[k].norm_end
                k += 1
            state[0], state[1] = k, delta
            if k < n and edits[k].norm_start <= start:
                s = edits[k].orig_start
            else:
                s = start + delta
            # the end may reach into later edits
            j, d = k, delta
            while j < n and edits[j].norm_end < end:
                d = edits[j].orig_end - edits[j].norm_end
                j += 1
            if j < n and edits[j].norm_start < end:
                e = edits[j].orig_end
            else:
                e = end + d
            return s, max(s, e)

        return mapper

    def to_norm(self, start: int, end: int) -> tuple[int, int]:
        """Map an original span [start, end) to the normalized text (a span reaching into a
        rewrite covers the whole rewritten spelling)."""
        ns, ne = start, end
        for ed in self._edits:  # in text order
            if ed.orig_start <= start:
                ns = ed.norm_start if start < ed.orig_end else start + ed.norm_end - ed.orig_end
            if ed.orig_start < end:
                ne = ed.norm_end if end <= ed.orig_end else end + ed.norm_end - ed.orig_end
        return ns, max(ns, ne)

    def to_orig(self, start: int, end: int) -> tuple[int, int]:
        """Map a normalized span [start, end) to the original text."""
        if end <= start:
            p = self._pos(start, False)
            return p, p
        return self._pos(start, False), self._pos(end, True)


def _rewrite(text: str) -> tuple[str, list[_Edit]]:
    """Apply the length-changing rules and record where each one landed."""
    spans: list[tuple[int, int, str]] = []
    for m in _UNIT_RE.finditer(text):
        canon = _UNIT_CANON[m.lastgroup or ""]
        if m.group(0) != canon:
            spans.append((m.start(), m.end(), canon))
    for m in _DEGREE_RE.finditer(text):
        s = m.end() - 1
        # "度" may follow spaces; rewrite just the trailing "度" → "℃"
        spans.append((s, m.end(), "℃"))
    if not spans:
        return text, []
    spans.sort()
    out: list[str] = []
    edits: list[_Edit] = []
    prev = 0
    shift = 0
    for s, e, rep in spans:
        if s < prev:  # overlapping rules: the first one wins
            continue
        out.append(text[prev:s])
        ns = s + shift
        out.append(rep)
        edits.append(_Edit(ns, ns + len(rep), s, e))
        shift += len(rep) - (e - s)
        prev = e
    out.append(text[prev:])
    return "".join(out), edits


def normalize(text: str) -> Normalized:
    """Normalize ``text`` for matching; offsets map back with ``Normalized.to_orig``."""
    t = text.translate(_TABLE)
    if _CLAUSE_ASCII.search(t):
        t = _CLAUSE_ASCII.sub(lambda m: _CLAUSE_MAP[m.group(0)], t)
    new, edits = _rewrite(t)
    return Normalized(new, text, edits, [e.norm_start for e in edits])
