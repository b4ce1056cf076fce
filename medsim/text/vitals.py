"""Vital signs called normal or stable in words (生命体征平稳, 血压正常, 体温、心率正常), and the bands
those words allow.

A writer who calls a vital sign normal makes a claim about its recorded value: ``VITAL_STATE``
finds the words, ``subject_keys`` says which analytes (``medsim.text.analytes`` keys) they cover
and ``out_of_band`` whether a value falls outside what the word allows. 正常 means the adult normal
range; 平稳/稳定 is looser (a mild fever or a blood pressure of 150/95 is still stable; shock,
a high fever or marked tachycardia is not).
"""

from __future__ import annotations

import re

# the subject words and the analytes each covers; 生命体征 covers every vital sign
_SUBJECTS: dict[str, tuple[str, ...]] = {
    "生命体征": ("temperature", "heart_rate", "resp_rate", "bp", "spo2"),
    "体温": ("temperature",),
    "血压": ("bp",),
    "心率": ("heart_rate",),
    "脉搏": ("heart_rate",),
    "呼吸频率": ("resp_rate",),
    "血氧饱和度": ("spo2",),
    "氧饱和度": ("spo2",),
    "血氧": ("spo2",),
    "SpO2": ("spo2",),
}
_SUBJECT = "|".join(sorted(map(re.escape, _SUBJECTS), key=len, reverse=True))
_STATE_WORDS = r"平稳|稳定|正常|在正常范围内?|正常范围内?|无异常|未见异常|大致正常|基本正常"
# one or more subjects joined by 、/和/及, an optional hedge, then the state; not 不平稳, not 血压正常高值
VITAL_STATE = re.compile(
    rf"(?P<subjects>(?:{_SUBJECT})(?:\s*[、和及与]\s*(?:{_SUBJECT}))*)\s*(?:均|都|尚|基本|大致|皆|亦|也)*"
    rf"(?P<state>{_STATE_WORDS})(?!高值|偏高|偏低)"
)

# a time before the present in the words before the claim (孕20周前血压正常, 平素血压正常, 既往体温正常):
# what the vital sign was then, which the record's current values cannot settle
PAST_TIME = re.compile(r"\d+\s*(?:年|个月|月|周|天|日|小时)(?:以)?前|之前|以前|既往|平素|平时|以往|过去|曾|病前|发病前|孕前|术前")


# (low, high) a value must lie in, high exclusive; for bp the systolic then the diastolic
_NORMAL = {"temperature": (35.5, 37.3), "heart_rate": (60, 101), "resp_rate": (12, 21), "spo2": (95, 101),
           "bp": ((90, 140), (60, 90))}
_STABLE = {"temperature": (35.0, 39.0), "heart_rate": (50, 121), "resp_rate": (10, 25), "spo2": (90, 101),
           "bp": ((90, 180), (50, 110))}


def subject_keys(subjects: str) -> tuple[str, ...]:
    """The analyte keys the subject words of a ``VITAL_STATE`` match cover, in order, once each."""
    found = re.findall(_SUBJECT, subjects)
    return tuple(dict.fromkeys(k for s in found for k in _SUBJECTS[s]))


def band_of(state: str) -> str:
    """``stable`` for 平稳/稳定, else ``normal``."""
    return "stable" if state in ("平稳", "稳定") else "normal"


def out_of_band(key: str, value: float, value2: float | None, band: str) -> bool:
    """The recorded value lies outside what the word allows (unknown keys never do)."""
    table = _STABLE if band == "stable" else _NORMAL
    rule = table.get(key)
    if rule is None:
        return False
    if key == "bp":
        (slo, shi), (dlo, dhi) = rule  # type: ignore[misc]
        return not slo <= value < shi or (value2 is not None and not dlo <= value2 < dhi)
    lo, hi = rule  # type: ignore[misc]
    return not lo <= value < hi
