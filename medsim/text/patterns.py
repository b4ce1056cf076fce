"""Spans that must stay whole whatever the segmenter: dates, vitals, lab values, doses,
frequencies, durations and plain numbers.

They run on *normalized* text (see normalize.py), so units come in one spelling. Segmenters
split ``156μmol/L`` and ``12.3×10^9/L`` into pieces; these patterns find such spans first
and the segmenter only sees the gaps between them.
"""

from __future__ import annotations

import re
from functools import lru_cache

_NUM = r"\d+(?:\.\d+)?"
_RANGE = rf"{_NUM}(?:\s*[-~～至]\s*{_NUM})?"
_CN_NUM = r"[一二两三四五六七八九十半几数]+"

# Lab concentration units as Chinese reports print them (after normalization).
LAB_UNITS = [
    "×10^9/L", "×10^12/L", "μmol/L", "mmol/L", "nmol/L", "pmol/L", "mg/dL", "mg/L", "g/L",
    "μg/L", "ng/L", "ng/mL", "pg/mL", "μg/mL", "mIU/mL", "μIU/mL", "mIU/L", "μIU/L", "IU/mL",
    "U/mL", "U/L", "IU/L", "mEq/L", "fL", "ml/min", "mL/min", "mm/h", "mL/min/1.73m2",
]
# Dose units: mass, volume, units, and the dosage forms Chinese orders count.
DOSE_UNITS = [
    "μg/kg/min", "mg/kg/d", "mg/kg", "μg/kg", "U/kg", "mg/d", "g/d", "mg/次", "g/次",
    "mg", "μg", "ng", "g", "mL", "L", "万IU", "万U", "万单位", "IU", "U", "单位",
    "片", "粒", "丸", "支", "袋", "瓶", "滴", "喷", "揿", "贴", "枚", "包",
]
_FREQ_ABBR = r"qd|bid|tid|qid|qn|qm|qod|qw|biw|tiw|qh|q\d{1,2}h|prn|sos|stat|st|hs|ac|pc|QD|BID|TID|QID|QN|QM|QOD|PRN|Q\d{1,2}H"
_FREQ_CN = (
    rf"(?:每日|每天|一日|一天|日)(?:\d|[一二两三四])次|每晚(?:一|1)次|每(?:\d{{1,2}}|{_CN_NUM})(?:个)?小时(?:一|1)次"
    r"|(?:\d|[一二两三四])次/(?:日|天|d)|隔日(?:一|1)次|每周(?:\d|[一二三])次|必要时|睡前服?"
)
FREQ_PATTERN = rf"(?<![A-Za-z\-])(?:{_FREQ_ABBR})(?![A-Za-z\-])|{_FREQ_CN}"


_ALNUM_LABELS = (
    r"(?<![A-Za-z0-9])(?:SpO2|SaO2|PaO2|PaCO2|PO2|PCO2|HbA1c|HbAlc|CA19-9|CA199|CA125|CA-125|CA15-3|CA153|CA72-4|CA724"
    r"|CYFRA21-1|IL-6|FT3|FT4|TT3|TT4|T3|T4|HCO3-|HCO3|β2-MG|IGF-1|COVID-19|T2DM|T1DM|CO2|O2|H2O"
    r"|13C|14C|C13|C14|NT-proBNP|2hPG|CD4|CD8|HER-2|HER2|Ki-67|Ki67|BRCA1|BRCA2|EGFR|ALK|P53"
    r"|[A-Za-z]{1,4}\d{1,2}-\d{1,2}|(?:SPO2|spo2|Spo2|SPO₂))(?![A-Za-z0-9.])"
)


def _alt(units: list[str]) -> str:
    return "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))


# Order matters: at one start position the first alternative that matches wins.
_SPECS: list[tuple[str, str]] = [
    # lab and vital labels that carry digits (SpO2, CA19-9): kept whole so "2" is not a number
    ("word", _ALNUM_LABELS),
    ("date", r"\d{4}\s*[-/.]\s*\d{1,2}\s*[-/.]\s*\d{1,2}(?:日)?(?!\d)"),
    ("date", r"\d{4}年\d{1,2}月(?:\d{1,2}[日号])?|\d{1,2}月\d{1,2}[日号]|\d{4}年(?!代)"),
    ("date", r"(?<!\d)[0-2]?\d[:：][0-5]\d(?!\d)"),
    ("vital", r"\d{2,3}\s*/\s*\d{2,3}\s*mmHg"),
    ("vital", rf"{_NUM}\s*(?:mmHg|℃|次/分)"),
    ("lab_value", rf"{_RANGE}\s*(?:{_alt(LAB_UNITS)})(?![a-zA-Z])"),
    ("dose", rf"{_RANGE}\s*(?:{_alt(DOSE_UNITS)})(?![a-zA-Z/])"),
    ("freq", FREQ_PATTERN),
    (
        "duration",
        rf"(?:{_NUM}|{_CN_NUM})\+?(?:个)?(?:余|多)?(?:年|个月|月|周|星期|天|日|小时|h|分钟|min)(?:余|多|半)?(?:左右)?"
        r"(?![板咳a-zA-Z])",
    ),
    ("number", rf"{_NUM}\s*(?:cm|mm)?\s*[×xX*]\s*{_NUM}\s*(?:cm|mm)?(?:\s*[×xX*]\s*{_NUM}\s*(?:cm|mm))?"),
    ("number", rf"\d+岁(?:\d+个?月)?|\d+个?月龄|{_NUM}\s*(?:cm|mm|kg|m|%|‰)(?![a-zA-Z])|{_NUM}"),
]

_KIND_BY_GROUP = {f"k{i}": kind for i, (kind, _) in enumerate(_SPECS)}
PROTECTED_RE = re.compile("|".join(f"(?P<k{i}>{pat})" for i, (_, pat) in enumerate(_SPECS)))
_NUMBER_ONLY = re.compile(_NUM)


def protected_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every protected span in normalized ``text``, in order."""
    out = []
    for m in PROTECTED_RE.finditer(text):
        out.append((m.start(), m.end(), _KIND_BY_GROUP[m.lastgroup or ""]))
    return out


def first_number(text: str) -> float | None:
    m = _NUMBER_ONLY.search(text)
    return float(m.group(0)) if m else None


# degree words a writer puts inside a finding's words without changing what it names: 精神较差 is 精神差,
# 食欲稍差 is 食欲差, 精神明显萎靡 is 精神萎靡 (a negation is never one of them)
_DEGREE_INSIDE = r"(?:比较|稍显|稍有|略有|明显|非常|十分|有些|有点|更加|较|稍|略|很|更|极|甚)"


@lru_cache(maxsize=2048)
def degree_gapped(term: str) -> re.Pattern[str] | None:
    """A pattern for a Chinese term of 3+ characters with one degree word allowed between two of
    its characters (精神差 → 精神较差); None for a shorter or a non-Chinese term."""
    if len(term) < 3 or not all("\u4e00" <= ch <= "\u9fa5" for ch in term):
        return None
    splits = [re.escape(term[:i]) + _DEGREE_INSIDE + re.escape(term[i:]) for i in range(1, len(term))]
    return re.compile("|".join(splits))
