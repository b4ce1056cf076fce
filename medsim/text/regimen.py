"""How often, how long and how many: the numbers of a regimen as said in advice.

每日一次 / 一天两次 / 早晚各一次 (times a day), 每周一次 (times a week), 连用3天 / 疗程7–10天 (days of a
course), 最多3片 / 不超过4次 (a ceiling), 间隔4～6小时 (hours between doses). A key point that is
one of these is met by the same number; an answer that states another number of the same kind
(一天两次 for 每日一次, 含5–6片 for 最多3片) says the regimen otherwise — a wrong regimen, not a
missing one.
"""

from __future__ import annotations

import re
import unicodedata

from medsim.text.measures import cn_number

_N = r"(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)"
_RANGE = rf"{_N}(?:\s*(?:～|~|〜|–|—|-|到|至)\s*{_N})?"
_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "per_day": (
        re.compile(rf"(?:每日|每天|一天|一日|日)(?:只)?(?:吃|服|用|喂|含|喷|打|给)?\s*{_RANGE}\s*(?:次|回|顿)"),
        re.compile(r"(?<![a-z])(qd|bid|tid|qid)(?![a-z])"),
        re.compile(r"(早晚各一次|早晚各1次|早晚两次|早晚各吃一次)"),
    ),
    "per_week": (re.compile(rf"(?:每周|一周|每星期|一星期|每礼拜|一个礼拜|一个星期)(?:只)?(?:吃|服|用|打)?\s*{_RANGE}\s*(?:次|回)"),),
    "course_days": (
        re.compile(rf"(?:连用|连服|连吃|连续|共|疗程|服用|吃|用|喝)(?:了)?\s*{_RANGE}\s*(?:天|日)(?!后|以后|之后|内)"),
        re.compile(rf"{_RANGE}\s*(?:天|日)(?:的)?疗程"),
    ),
    "ceiling": (re.compile(rf"(?:最多|不超过|不能超过|不要超过|不可超过|别超过|至多|上限)(?:吃|服|用|喂|含|喷)?\s*{_RANGE}\s*(?:片|次|粒|回|袋|支)"),),
    "interval_h": (re.compile(rf"(?:间隔|隔|每隔|相隔)(?:至少)?\s*{_RANGE}\s*(?:个)?(?:小时|钟头|h)"),),
}
_ABBR = {"qd": 1.0, "bid": 2.0, "tid": 3.0, "qid": 4.0}
_SAID = {"早晚各一次": 2.0, "早晚各1次": 2.0, "早晚两次": 2.0, "早晚各吃一次": 2.0}


def _num(s: str | None) -> float | None:
    return None if s is None else cn_number(s)


def regimen_numbers(text: str) -> dict[str, list[tuple[float, float]]]:
    """Every regimen number the text states, by kind, as (low, high)."""
    t = unicodedata.normalize("NFKC", text or "").lower()
    out: dict[str, list[tuple[float, float]]] = {}
    for kind, patterns in _PATTERNS.items():
        for pattern in patterns:
            for m in pattern.finditer(t):
                groups = [g for g in m.groups() if g is not None]
                if not groups:
                    continue
                if groups[0] in _ABBR:
                    lo = hi = _ABBR[groups[0]]
                elif groups[0] in _SAID:
                    lo = hi = _SAID[groups[0]]
                else:
                    lo = _num(groups[0])
                    hi = _num(groups[1]) if len(groups) > 1 else lo
                if lo is None or hi is None:
                    continue
                if kind == "per_week":  # one frequency: 每周一次 is 1/7 a day, so 每天一次 is not it
                    kind_, lo, hi = "per_day", lo / 7, hi / 7
                else:
                    kind_ = kind
                out.setdefault(kind_, []).append((min(lo, hi), max(lo, hi)))
    return out


def regimen_conflict(text: str, point_alternatives: list[str]) -> str | None:
    """The kind of regimen number the point gives and the text states otherwise, or None: the text
    states a number of that kind and none of its numbers agrees with any the point allows."""
    allowed: dict[str, list[tuple[float, float]]] = {}
    for alt in point_alternatives:
        for kind, values in regimen_numbers(alt).items():
            allowed.setdefault(kind, []).extend(values)
    if not allowed:
        return None
    said = regimen_numbers(text)
    for kind, values in allowed.items():
        stated = said.get(kind)
        if stated and not any(lo <= b + 1e-9 and a <= hi + 1e-9 for lo, hi in stated for a, b in values):
            return kind
    return None
