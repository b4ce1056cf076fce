"""Units: one spelling per unit, and conversion to a base unit so values compare.

``to_base(0.5, "g") == (500.0, "mg")``; lab concentration units are kept as they are (a
μmol/L creatinine is not converted to mg/dL) but their spellings are unified.
"""

from __future__ import annotations

import re

# spelling → canonical spelling
_SPELLINGS: dict[str, str] = {}


def _add(canon: str, *spellings: str) -> None:
    _SPELLINGS[canon.lower()] = canon
    for s in spellings:
        _SPELLINGS[s.lower()] = canon


_add("mg", "毫克", "mgs")
_add("g", "克", "gm")
_add("μg", "ug", "µg", "mcg", "微克")
_add("ng", "纳克")
_add("kg", "公斤", "千克")
_add("mL", "ml", "毫升", "cc")
_add("L", "l", "升")
_add("IU", "国际单位", "iu")
_add("U", "单位", "u")
_add("万U", "万单位", "万iu")
_add("℃", "°c", "ºc", "度", "摄氏度")
_add("mmHg", "mmhg", "毫米汞柱")
_add("次/分", "次/min", "bpm", "/min", "次/分钟", "/分")
_add("μmol/L", "umol/l", "µmol/l", "μmol/l")
_add("mmol/L", "mmol/l", "毫摩尔/升")
_add("nmol/L", "nmol/l")
_add("pmol/L", "pmol/l")
_add("×10^9/L", "x10^9/l", "×109/l", "10*9/l", "10^9/l", "*10^9/l", "×10^9/l", "10e9/l")
_add("×10^12/L", "x10^12/l", "×1012/l", "10*12/l", "10^12/l", "×10^12/l")
_add("g/L", "g/l")
_add("mg/L", "mg/l")
_add("mg/dL", "mg/dl")
_add("U/L", "u/l", "iu/l")
_add("ng/mL", "ng/ml", "μg/l", "ug/l")
_add("ng/L", "ng/l", "pg/ml")
_add("%", "％")

# mass and volume → base unit and factor
_FACTORS: dict[str, tuple[str, float]] = {
    "g": ("mg", 1000.0),
    "mg": ("mg", 1.0),
    "μg": ("mg", 0.001),
    "ng": ("mg", 1e-6),
    "kg": ("mg", 1e6),
    "L": ("mL", 1000.0),
    "mL": ("mL", 1.0),
    "万U": ("U", 10000.0),
    "U": ("U", 1.0),
    "IU": ("U", 1.0),
    # ng/mL and μg/L are the same quantity; pg/mL and ng/L too
    "ng/mL": ("ng/mL", 1.0),
    "ng/L": ("ng/L", 1.0),
}

_WS = re.compile(r"\s+")


def canonical_unit(unit: str) -> str:
    """One spelling per unit (umol/l → μmol/L, 毫克 → mg, ×109/L → ×10^9/L)."""
    u = _WS.sub("", unit).replace("／", "/").replace("µ", "μ")
    return _SPELLINGS.get(u.lower(), u)


def to_base(value: float, unit: str) -> tuple[float, str]:
    """Convert to the base unit of its kind: mass → mg, volume → mL; others unchanged."""
    canon = canonical_unit(unit)
    if canon == "℉":
        return round((value - 32) * 5 / 9, 4), "℃"
    base = _FACTORS.get(canon)
    if base is None:
        return value, canon
    return round(value * base[1], 9), base[0]


def same_quantity(a: tuple[float, str], b: tuple[float, str], rel_tol: float = 1e-6) -> bool:
    """True when two (value, unit) pairs are the same amount (0.5 g == 500 mg)."""
    va, ua = to_base(*a)
    vb, ub = to_base(*b)
    return ua == ub and abs(va - vb) <= rel_tol * max(abs(va), abs(vb), 1.0)
