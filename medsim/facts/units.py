"""Unit arithmetic for comparing a claimed value with a recorded one (0.5 g == 500 mg).

The text layer's ``medsim.text.units.to_base`` is used when it knows a unit; this module keeps a
narrow fallback of its own for the compound units lab reports print (μmol/L, g/dL, ×10^9/L, U/ml)
so a value is compared in one base whatever the spelling.
"""

from __future__ import annotations

import re

_PREFIX = {"": 1.0, "k": 1e3, "d": 1e-1, "c": 1e-2, "m": 1e-3, "μ": 1e-6, "u": 1e-6, "mc": 1e-6, "n": 1e-9, "p": 1e-12}
_BASES = {"g": "g", "mol": "mol", "L": "L", "l": "L", "U": "U", "IU": "U", "m": "m", "s": "s"}
_CN_UNITS = {"毫克": "mg", "克": "g", "微克": "μg", "千克": "kg", "公斤": "kg", "毫升": "ml", "升": "L",
             "毫摩尔/升": "mmol/L", "微摩尔/升": "μmol/L", "厘米": "cm", "毫米": "mm", "秒": "s"}
_CELL = re.compile(r"^[×x*X]?10\^?\*?(\d+)/L$")


def canonical_unit(unit: str) -> str:
    """One spelling per unit: µ→μ, ×109/L→×10^9/L, 10*9/L→×10^9/L, 毫克→mg, mmHg case."""
    u = unit.strip().replace("µ", "μ").replace("／", "/").replace(" ", "")
    u = _CN_UNITS.get(u, u)
    m = re.match(r"^[×xX*]?10[\^*]?(9|12)/L$", u)
    if m:
        return f"×10^{m.group(1)}/L"
    if u.lower() == "mmhg":
        return "mmHg"
    if u in ("oC", "︒C", "°C", "度"):
        return "℃"
    if u in ("次/min", "/min", "bpm", "次/分钟", "/分"):
        return "次/分"
    if u == "秒":
        return "s"
    if u == "mL":
        return "ml"
    return u


def _simple(unit: str) -> tuple[float, str] | None:
    """A prefixed simple unit (mg, μmol, dL, IU) as (factor, base)."""
    for base in sorted(_BASES, key=len, reverse=True):
        if unit.endswith(base):
            prefix = unit[: -len(base)]
            if prefix in _PREFIX:
                return _PREFIX[prefix], _BASES[base]
    return None


def _own_to_base(value: float, unit: str) -> tuple[float, str] | None:
    u = canonical_unit(unit)
    cell = _CELL.match(u.replace("×", ""))
    if u.startswith("×10^") and cell:
        return value * 10 ** int(cell.group(1)), "cells/L"
    if "/" in u:
        num, _, den = u.partition("/")
        n, d = _simple(num), _simple(den)
        if n and d:
            return value * n[0] / d[0], f"{n[1]}/{d[1]}"
        return None
    s = _simple(u)
    if s:
        return value * s[0], s[1]
    return None


def to_base(value: float, unit: str) -> tuple[float, str]:
    """(value, base unit); units this module cannot reduce come back unchanged (canonical spelling)."""
    own = _own_to_base(value, unit)
    if own is not None:
        return own
    try:  # the text layer may know more units (and is the project's reference for them)
        from medsim.text.units import to_base as text_to_base

        got = text_to_base(value, unit)
        if got:
            return float(got[0]), str(got[1])
    except Exception:  # noqa: BLE001 - an unknown unit is data, not an error
        pass
    return value, canonical_unit(unit)


def decimals(number: str) -> int:
    return len(number.split(".")[1]) if "." in number else 0


# g/mol, so a mass concentration and a molar one compare (bilirubin 1 mg/dL = 17.1 μmol/L).
MOLAR_MASS = {"glu": 180.16, "ca": 40.08, "cr": 113.12, "tbil": 584.66, "dbil": 584.66, "ibil": 584.66,
              "bun": 28.014, "k": 39.10, "na": 22.99, "cl": 35.45, "mg": 24.305, "ua": 168.11}


def _to_molar(value: float, base: str, analyte: str | None) -> tuple[float, str]:
    if analyte in MOLAR_MASS and base == "g/L":
        return value / MOLAR_MASS[analyte], "mol/L"
    return value, base


def same_quantity(a: float, a_unit: str, b: float, b_unit: str, *, a_text: str = "", b_text: str = "",
                  analyte: str | None = None) -> bool | None:
    """True/False when comparable, None when the units measure different things (mmol/L vs mg/dL).

    Equal means within rounding: the less precise of the two printed numbers decides the tolerance,
    plus 0.1 % for unit conversions (38.2 and 38.6 ℃ differ; 0.0542 mmol/L and 54.20 μmol/L agree).
    """
    va, ba = to_base(a, a_unit)
    vb, bb = to_base(b, b_unit)
    if ba != bb:
        va, ba = _to_molar(va, ba, analyte)
        vb, bb = _to_molar(vb, bb, analyte)
    if ba != bb:
        return None
    tol = 0.001 * max(abs(va), abs(vb))
    for text, value, base_value in ((a_text, a, va), (b_text, b, vb)):
        if text and value:
            half_ulp = 0.5 * 10 ** (-decimals(text))
            tol = max(tol, abs(base_value / value) * half_ulp)
    return abs(va - vb) <= tol + 1e-12
