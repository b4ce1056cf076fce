"""Read value, unit and name out of measurement tokens (lab values, vitals, doses,
frequencies, durations) and the labels printed before them."""

from __future__ import annotations

import re

from medsim.text.units import canonical_unit

# label as printed → canonical vital-sign name
VITAL_LABELS: dict[str, str] = {}
for _canon, _labels in {
    "体温": ("T", "BT", "TEMP", "体温", "腋温", "肛温", "口温"),
    "脉搏": ("P", "PR", "脉搏", "脉率"),
    "心率": ("HR", "心率"),
    "呼吸": ("R", "RR", "呼吸", "呼吸频率", "呼吸次数"),
    "血压": ("BP", "血压", "NBP", "NIBP"),
    "血氧饱和度": ("SPO2", "SAO2", "血氧饱和度", "血氧", "指脉氧", "氧饱和度", "指氧"),
    "收缩压": ("SBP", "收缩压"),
    "舒张压": ("DBP", "舒张压"),
}.items():
    for _l in _labels:
        VITAL_LABELS[_l.upper()] = _canon

# words that may sit between a label and its value: 白细胞计数为 12.3×10^9/L
LABEL_FILLERS = {"：", ":", "为", "是", "约", "达", "升至", "降至", "高达", "仅", "波动于", "波动在", "示", "测", "查", "="}

_NUM_RE = re.compile(r"\d+(?:\.\d+)?")
_UNIT_TAIL = re.compile(r"[^\d.\s~\-～至/]+.*$|/[A-Za-z%].*$")

# frequency → (abbreviation, times per day)
FREQ_NORMS: dict[str, tuple[str, float | None]] = {
    "qd": ("qd", 1), "bid": ("bid", 2), "tid": ("tid", 3), "qid": ("qid", 4), "qn": ("qn", 1), "qm": ("qm", 1),
    "qod": ("qod", 0.5), "qw": ("qw", 1 / 7), "biw": ("biw", 2 / 7), "tiw": ("tiw", 3 / 7),
    "qh": ("q1h", 24), "prn": ("prn", None), "sos": ("sos", None), "st": ("st", None),
    "stat": ("st", None), "hs": ("hs", 1), "ac": ("ac", None), "pc": ("pc", None),
    "必要时": ("prn", None), "睡前": ("hs", 1), "睡前服": ("hs", 1), "每晚1次": ("qn", 1),
    "每晚一次": ("qn", 1), "隔日1次": ("qod", 0.5), "隔日一次": ("qod", 0.5),
}
_CN_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_TIMES_ABBR = {1: "qd", 2: "bid", 3: "tid", 4: "qid"}

DURATION_UNITS = {
    "年": "年", "个月": "月", "月": "月", "周": "周", "星期": "周", "天": "天", "日": "天",
    "小时": "小时", "h": "小时", "分钟": "分钟", "min": "分钟",
}
_DUR_RE = re.compile(r"^(?P<num>\d+(?:\.\d+)?|[一二两三四五六七八九十半几数]+)\+?(?:个)?(?:余|多)?(?P<unit>年|个月|月|周|星期|天|日|小时|h|分钟|min)")


def cn_number(s: str) -> float | None:
    """A number written in digits or small Chinese numerals (三, 十二, 一百二十, 半, 两); None when
    vague (几, 数) or not a number."""
    s = s.strip()
    if not s:
        return None
    try:
        return float(s)
    except ValueError:
        pass
    if s == "半":
        return 0.5
    total, current = 0, 0
    for c in s:
        if c in _CN_DIGITS:
            current = _CN_DIGITS[c]
        elif c in "十百":
            total += (current or 1) * (10 if c == "十" else 100)
            current = 0
        else:
            return None
    return float(total + current)


def numbers(text: str) -> list[float]:
    return [float(x) for x in _NUM_RE.findall(text)]


def unit_of(norm_text: str) -> str | None:
    """The unit at the end of a normalized measurement ("156μmol/L" → "μmol/L")."""
    m = re.search(r"\d(?:\s*)([^\d\s.~\-～至][^\s]*)$", norm_text)
    if not m:
        return None
    u = m.group(1)
    if u.startswith("/") and "mmHg" in u:  # 120/80mmHg
        return "mmHg"
    return canonical_unit(u)


def frequency(norm_text: str) -> tuple[str, float | None]:
    """Canonical frequency abbreviation and times per day (None when as needed)."""
    t = norm_text.strip()
    low = t.lower()
    if low in FREQ_NORMS:
        return FREQ_NORMS[low]
    m = re.fullmatch(r"q(\d{1,2})h", low)
    if m:
        h = int(m.group(1))
        return f"q{h}h", 24 / h
    m = re.search(r"(\d|[一二两三四])次", t)
    if m and ("日" in t or "天" in t or "/d" in t):
        n = int(m.group(1)) if m.group(1).isdigit() else _CN_DIGITS[m.group(1)]
        return _TIMES_ABBR.get(n, f"{n}次/日"), float(n)
    m = re.search(r"每(\d{1,2}|[一二三四六八十]+)(?:个)?小时", t)
    if m:
        h = int(m.group(1)) if m.group(1).isdigit() else int(cn_number(m.group(1)) or 1)
        return f"q{h}h", 24 / h if h else None
    m = re.search(r"每周(\d|[一二三])次", t)
    if m:
        n = int(m.group(1)) if m.group(1).isdigit() else _CN_DIGITS[m.group(1)]
        return {1: "qw", 2: "biw", 3: "tiw"}.get(n, f"{n}次/周"), n / 7
    return t, None


def duration(norm_text: str) -> tuple[float | None, str | None]:
    m = _DUR_RE.match(norm_text)
    if not m:
        return None, None
    num = m.group("num")
    value = float(num) if num[0].isdigit() else cn_number(num)
    return value, DURATION_UNITS[m.group("unit")]
