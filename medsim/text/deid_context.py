"""Context words for de-identification, learned from jieba's bundled dictionary and read from
``lexicons/hospital_short_names.txt``.

A name in running text is bounded by what comes after it, often a verb (查房, 抱入, 测, 给予), and
sometimes by what comes before it, often a time word (今日, 昨晚, 今晨). Rather than fixed lists,
the verbs are the words jieba's dictionary tags ``v*`` and the time words those it tags ``t``.
Without jieba both sets are empty and only the fixed lists in deid.py apply.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from medsim.paths import lexicons_dir

_MAX = 4


@cache
def _jieba_tags() -> dict[str, str]:
    """Every word of jieba's dictionary up to four characters, single characters included."""
    try:
        import jieba
    except ImportError:
        return {}
    tags: dict[str, str] = {}
    with Path(jieba.__file__).with_name("dict.txt").open(encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) == 3 and len(parts[0]) <= _MAX:
                tags[parts[0]] = parts[2]
    return tags


def verb_at(text: str, pos: int) -> int:
    """Length of the longest word jieba tags as a verb (v, vn, vd, vg…) starting at ``pos``; 0 if none."""
    tags = _jieba_tags()
    for n in range(_MAX, 0, -1):
        w = text[pos : pos + n]
        if len(w) == n and tags.get(w, "").startswith("v"):
            return n
    return 0


def time_word_at(text: str, pos: int) -> int:
    """Length of a time word of two or more characters (今日, 昨晚, 当日) starting at ``pos``; 0 if none."""
    tags = _jieba_tags()
    for n in range(_MAX, 1, -1):
        w = text[pos : pos + n]
        if len(w) == n and tags.get(w) == "t":
            return n
    return 0


def time_word_ending_at(text: str, pos: int) -> str:
    """The longest time word (two or more characters) that ends at ``pos``; "" if none."""
    tags = _jieba_tags()
    for n in range(_MAX, 1, -1):
        if pos - n >= 0 and tags.get(text[pos - n : pos]) == "t":
            return text[pos - n : pos]
    return ""


def time_word_before(text: str, pos: int) -> bool:
    """Whether the text just before ``pos`` ends with a time word (今日赵立新主任 → 今日)."""
    return bool(time_word_ending_at(text, pos))


def jieba_says_name(text: str, start: int, end: int) -> bool:
    """jieba's tagger, run on the clause from ``start``, reads ``text[start:end]`` as a person's name:
    its first word is tagged ``nr`` and a word boundary falls at ``end`` (潘/nr 玉兰/nr 测体温)."""
    try:
        import jieba.posseg as pseg
    except ImportError:
        return False
    pos = start
    first = True
    for tok in pseg.cut(text[start : min(len(text), end + 6)]):
        if first and not tok.flag.startswith("nr"):
            return False
        first = False
        pos += len(tok.word)
        if pos == end:
            return True
        if pos > end:
            return False
    return False


@cache
def hospital_short_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(names that are hospitals on their own, stems that need 一院/附院/… after them)."""
    path = lexicons_dir() / "hospital_short_names.txt"
    names: list[str] = []
    stems: list[str] = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("stem:"):
                stems.append(line[5:].strip())
            else:
                names.append(line)
    return tuple(sorted(names, key=len, reverse=True)), tuple(sorted(stems, key=len, reverse=True))


_STEM_END = r"(?:附[一二三四五六七八九]院|附属[一二三四五六七八九第]*医院|附院|[一二三四五六七八九]院|[一二三四五六七八九]附院|医院)"
# a short name that runs on into a place or an institution that is not a hospital: 华西村, 协和大学
_NOT_HOSPITAL_AFTER = re.compile(r"村|镇|乡|路|街|大学|学院|中学|小学|市|县|区")


@cache
def _hospital_re() -> re.Pattern[str] | None:
    names, stems = hospital_short_names()
    alts = []
    if stems:
        alts.append("(?:" + "|".join(map(re.escape, stems)) + ")" + _STEM_END)
    if names:
        # a university stem may stand before a listed name: 复旦中山医院, 北大人民医院
        stem = "(?:" + "|".join(map(re.escape, stems)) + ")?" if stems else ""
        alts.append(stem + "(?:" + "|".join(map(re.escape, names)) + ")")
    if not alts:
        return None
    return re.compile("(?<![A-Za-z0-9])(?:" + "|".join(alts) + ")")


def hospital_short_spans(text: str) -> list[tuple[int, int]]:
    """Spans of well-known hospital short names and nicknames (协和, 华西医院, 北医三院, 中山一院)."""
    rx = _hospital_re()
    if rx is None:
        return []
    out = []
    for m in rx.finditer(text):
        if _NOT_HOSPITAL_AFTER.match(text, m.end()):
            continue
        if m.group(0)[-1].isdigit() and m.end() < len(text) and text[m.end()].isdigit():
            continue
        out.append((m.start(), m.end()))
    return out
