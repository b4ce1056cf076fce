"""How long a named drug is taken: 替格瑞洛90mg每日两次至少12个月 → (替格瑞洛, 360 days, open-ended);
补锌共10～14天; 地塞米松40mg/d×4天; 长期服用阿司匹林 → long-term.

A course belongs to the drug named last before it in the sentence (or, for 长期服用X和Y, to the drugs
it leads). Days are counted as 天 = 1, 周 = 7, 月 = 30, 年 = 360 (so 一年 and 12个月 agree). A time
point (3天后复查, 3个月内避免) is not a course, unless a course verb leads it (连续服用1个月后复诊).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from medsim.text.doses import _drug_pattern
from medsim.text.match import _class_heads, _drug_classes, normalize
from medsim.text.measures import cn_number

_N = r"(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)"
_UNIT = r"(天|日|周|星期|个月|月|年)"
_DAYS = {"天": 1, "日": 1, "周": 7, "星期": 7, "个月": 30, "月": 30, "年": 360}
_RANGE = rf"(?P<open>至少|不少于|不短于|满)?\s*(?:约|大约)?\s*{_N}\s*(?:个)?(?P<u1>{_UNIT})?\s*(?:～|~|〜|–|—|-|到|至)?\s*{_N}?\s*(?P<u2>{_UNIT})"
# a course verb that makes even "…1个月后" a course (连续服用1个月后复诊)
_STRONG = re.compile(rf"(?:连续|连用|连服|连吃|总疗程|疗程|共|[×x*])\s*(?:服用|口服|使用|用药|服药|吃|服|用)?(?:了)?\s*{_RANGE}", re.I)
_WEAK = re.compile(rf"(?:服用|口服|使用|用药|服药|吃|服|用|继续|坚持|维持|喂|补)(?:满|够|足|了)?\s*(?:至|到)?\s*(?:术后|出院后|病程)?\s*{_RANGE}"
                   rf"(?!\s*(?:后|以后|之后|内|以内))|(?:至少|不少于)\s*{_N}\s*(?:个)?{_UNIT}")
_LONG = re.compile(r"长期|终身|终生|一辈子")
_LONG_BEFORE = re.compile(r"(?:长期|终身|终生|一辈子)(?:坚持)?(?:服用|口服|吃|使用|用)?\s*$")
# not the whole course: what was taken so far (已服5天), the time a drug takes to work (吃2–4周才见效),
# or one phase of it (15mg每日两次共21天，之后改为20mg每日一次)
_SO_FAR = re.compile(r"(?:已|已经|刚|才)\s*$")
_NOT_COURSE_AFTER = re.compile(r"^[^，,。；;]{0,3}?(?:才|就会|就能|起效|见效)|^\s*[（(]?[^，,。；;]{0,12}[)）]?[；;，,]?\s*(?:之后|然后|随后|以后|后|再)\s*(?:改为|改用|改成|减为|减量|减至|换为|换成)")
_SENTENCE = re.compile(r"[。！!？?\n]")  # not ；: "共21天；之后改为…" is one course in phases
_JOIN = re.compile(r"^\s*(?:和|及|与|、|以及)\s*$")


@cache
def _name_pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    """Drug names and drug class names (长期服用他汀 gives every statin its course), longest first."""
    drugs, canon = _drug_pattern()
    names = dict(canon)
    for cls, head in _class_heads().items():
        if len(cls) >= 2:
            names.setdefault(cls, head)
    alts = sorted(names, key=len, reverse=True)
    return re.compile("|".join(re.escape(a) for a in alts), re.I), names


def _same_drug(a: str, b: str) -> bool:
    """One drug, or a class and one of its members (他汀 and 阿托伐他汀)."""
    return a == b or b in _drug_classes().get(a, ()) or a in _drug_classes().get(b, ())


@dataclass(frozen=True)
class Course:
    drug: str
    low: float  # days
    high: float  # days; math.inf when long-term or open-ended (至少12个月)
    text: str


def _span(m: re.Match[str]) -> tuple[float, float] | None:
    nums = [g for g in m.groups() if g is not None and cn_number(g) is not None and g not in _DAYS]
    units = [g for g in m.groups() if g in _DAYS]
    if not nums or not units:
        return None
    scale = _DAYS[units[-1]]
    lo_unit = _DAYS[units[0]] if len(units) > 1 else scale
    lo = cn_number(nums[0]) * lo_unit  # type: ignore[operator]
    hi = cn_number(nums[1]) * scale if len(nums) > 1 else cn_number(nums[0]) * scale  # type: ignore[operator]
    if "至少" in m.group(0) or "不少于" in m.group(0) or "不短于" in m.group(0) or m.group(0).startswith("满"):
        hi = math.inf
    return min(lo, hi), max(lo, hi)


def drug_courses(text: str) -> list[Course]:
    """Every course length written for a named drug, in order."""
    pattern, canon = _name_pattern()
    out: list[Course] = []
    for sentence in _SENTENCE.split(unicodedata.normalize("NFKC", text or "").lower()):
        names = [(m.start(), m.end(), canon.get(normalize(m.group(0)), normalize(m.group(0))))
                 for m in pattern.finditer(sentence)]
        long_led = False
        for k, (start, end, drug) in enumerate(names):
            before = sentence[names[k - 1][1] if k else 0:start]
            # 长期服用阿司匹林和他汀: the course said first leads the drugs listed after it
            long_led = bool(_LONG_BEFORE.search(before)) or (long_led and bool(_JOIN.match(before)))
            if long_led:
                out.append(Course(drug, math.inf, math.inf, "长期"))
                continue
            stop = names[k + 1][0] if k + 1 < len(names) else len(sentence)
            window = sentence[end:stop]
            found = False
            for m in [*_STRONG.finditer(window), *_WEAK.finditer(window)]:
                if _SO_FAR.search(window[:m.start()]) or _NOT_COURSE_AFTER.search(window[m.end():]):
                    continue
                if (span := _span(m)) is not None:
                    out.append(Course(drug, span[0], span[1], m.group(0).strip()))
                    found = True
                    break
            if not found and (lm := _LONG.search(window)) and not re.search(r"不[必用需]|无需", window[:lm.start()]):
                out.append(Course(drug, math.inf, math.inf, lm.group(0)))
    return out


def course_conflicts(answer: str, reference: list[str]) -> list[tuple[Course, list[Course]]]:
    """Courses the answer gives a drug that no course the reference gives it overlaps (吃满1个月 for
    至少12个月; 吃3天 for 共10～14天; 服用3个月 for 长期): for each, the reference's courses of it."""
    ref = [c for text in reference for c in drug_courses(text)]
    out = []
    for c in drug_courses(answer):
        same = [r for r in ref if _same_drug(r.drug, c.drug)]
        if same and not any(c.low <= r.high and r.low <= c.high for r in same):
            out.append((c, same))
    return out
