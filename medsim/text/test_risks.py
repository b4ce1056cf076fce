"""Tests that harm when they are not needed: invasive or provocative ones, and CT where radiation counts.

Most extra tests in an admission order only cost time and money; these can hurt the patient (a lumbar
puncture before thrombolysis, an ERCP without cholangitis, an exercise test in an aortic dissection,
an abdominal CT in an infant with gastroenteritis or in a pregnant woman). ``lexicons/test_risks.tsv``
lists the invasive and provocative ones; CT is judged here, since it is harmful only for some patients.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from medsim.paths import lexicons_dir

# children and the fetus take most harm from CT's ionising radiation (ALARA): below this age, or in
# pregnancy, a CT must be called for by the case
RADIATION_SENSITIVE_BELOW_YEARS = 14.0
# CT in any spelling (CT, CTA, CTPA, PET-CT, 增强CT), not the letters inside PCT
_CT = re.compile(r"(?<![a-z])(?:ct|pet)|计算机断层|电子计算机断层", re.IGNORECASE)
_PREGNANT = re.compile(r"妊娠|孕\s*\d|早孕|宫内孕|停经\s*\d+\s*[天周]")
_NOT_PREGNANT = re.compile(r"未孕|否认妊娠|非孕|排除妊娠")


@dataclass(frozen=True)
class RiskyTest:
    names: str  # alternatives, a|b
    kind: str  # invasive | provocation
    why: str


@cache
def risky_tests() -> tuple[RiskyTest, ...]:
    path = lexicons_dir() / "test_risks.tsv"
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    return tuple(RiskyTest(names.strip(), kind.strip(), why.strip()) for names, kind, why in rows[1:])


def risky_test_in(item: str) -> RiskyTest | None:
    """The invasive or provocative test an order item names, if any."""
    low = item.lower()
    for test in risky_tests():
        if any(alt.lower() in low for alt in test.names.split("|")):
            return test
    return None


def names_ct(text: str) -> bool:
    return _CT.search(text) is not None


def pregnant(*texts: str) -> bool:
    """The record says the patient is pregnant (孕34周, 停经46天, 输卵管妊娠) and does not deny it."""
    joined = " ".join(t for t in texts if t)
    return _PREGNANT.search(joined) is not None and _NOT_PREGNANT.search(joined) is None


def radiation_sensitive(age_years: float | None, is_pregnant: bool) -> str | None:
    """Why CT needs a reason for this patient (a child, a pregnancy), or None for other adults."""
    if is_pregnant:
        return "妊娠：CT的电离辐射危及胎儿"
    if age_years is not None and age_years < RADIATION_SENSITIVE_BELOW_YEARS:
        return "儿童：CT的电离辐射危害大，应首选超声/X线"
    return None
