"""Units: one spelling per unit, and conversions so values written in different units compare.

- ``canonical_unit``: one spelling (umol/l → μmol/L, 毫克 → mg, ×109/L → ×10^9/L).
- ``to_base``: doses in a readable base (0.5 g → 500 mg, 1.5 L → 1500 mL); lab units keep their
  own (canonical) spelling, so a μmol/L creatinine still reads as μmol/L.
- ``to_si``: any unit reduced as far as its parts allow, for comparing lab values
  (13.5 g/dL → 135 g/L, 156 μmol/L → 0.000156 mol/L, 5.0 ×10^9/L → 5e9 /L).
- ``same_quantity``: equal within the precision the numbers were printed with; a mass
  concentration meets a molar one through ``molar_mass`` (bilirubin 1 mg/dL = 17.1 μmol/L).
"""

from __future__ import annotations

import re
from functools import cache

# spelling (lower case) → canonical spelling
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
_add("℃", "°c", "ºc", "︒c", "oc", "度", "摄氏度")
_add("mmHg", "mmhg", "毫米汞柱")
_add("次/分", "次/min", "bpm", "/min", "次/分钟", "/分")
_add("μmol/L", "umol/l", "µmol/l", "μmol/l", "微摩尔/升")
_add("mmol/L", "mmol/l", "毫摩尔/升")
_add("nmol/L", "nmol/l")
_add("pmol/L", "pmol/l")
_add("×10^9/L", "x10^9/l", "×109/l", "10*9/l", "10^9/l", "*10^9/l", "×10^9/l", "10e9/l", "×10*9/l", "x109/l")
_add("×10^12/L", "x10^12/l", "×1012/l", "10*12/l", "10^12/l", "×10^12/l", "×10*12/l", "x1012/l")
_add("g/L", "g/l")
_add("g/dL", "g/dl")
_add("mg/L", "mg/l")
_add("mg/dL", "mg/dl")
_add("U/L", "u/l", "iu/l")
_add("ng/mL", "ng/ml", "μg/l", "ug/l")
_add("ng/L", "ng/l", "pg/ml")
_add("%", "％")
_add("s", "秒", "sec")
_add("cm", "厘米")
_add("mm", "毫米")
_add("ppb")  # FeNO

# mass, volume and units → the readable base of ``to_base`` and its factor
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

# SI reduction: a metric prefix on a base (mg, μmol, dL, mIU), and the base it reduces to
_PREFIX = {"": 1.0, "k": 1e3, "d": 1e-1, "c": 1e-2, "m": 1e-3, "μ": 1e-6, "u": 1e-6, "mc": 1e-6, "n": 1e-9,
           "p": 1e-12, "f": 1e-15}
_BASES = {"mol": "mol", "IU": "U", "g": "g", "L": "L", "l": "L", "U": "U", "m": "m", "s": "s"}
_BASES_LONGEST = sorted(_BASES, key=len, reverse=True)
_CELLS = re.compile(r"^(?:[×xX*]10\^?\*?|10[\^*])(\d+)/[Ll]$")  # ×10^9/L, 10^6/L, x10*9/L

# g/mol of analytes Chinese reports print in either mg/dL or mmol/L, keyed by the lexicon's
# canonical exam name. 尿素 is printed as urea nitrogen (BUN) when in mg/dL: two N atoms, 28.014.
MOLAR_MASS: dict[str, float] = {
    "血糖": 180.16, "空腹血糖": 180.16, "餐后血糖": 180.16, "随机血糖": 180.16,
    "钙": 40.08, "肌酐": 113.12, "总胆红素": 584.66, "直接胆红素": 584.66, "间接胆红素": 584.66,
    "尿素": 28.014, "钾": 39.10, "钠": 22.99, "氯": 35.45, "镁": 24.305, "尿酸": 168.11,
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


def _simple(unit: str) -> tuple[float, str] | None:
    """A prefixed simple unit (mg, μmol, dL, mIU) as (factor, base)."""
    for base in _BASES_LONGEST:
        if unit.endswith(base) and unit[: -len(base)] in _PREFIX:
            return _PREFIX[unit[: -len(base)]], _BASES[base]
    return None


def to_si(value: float, unit: str) -> tuple[float, str]:
    """``value`` in the unit its parts reduce to (g, mol, L, U and their ratios; cells per litre);
    a unit that does not reduce (mmHg, ℃, 次/分, %) comes back in its canonical spelling."""
    u = canonical_unit(unit)
    if u in _FACTORS and _FACTORS[u][0] == "U":  # 万U
        return value * _FACTORS[u][1], "U"
    cells = _CELLS.match(u)
    if cells:
        return value * 10 ** int(cells.group(1)), "/L"
    num, slash, den = u.partition("/")
    n = _simple(num)
    if n and slash:
        d = _simple(den)
        return (value * n[0] / d[0], f"{n[1]}/{d[1]}") if d else (value, u)
    if n:
        return value * n[0], n[1]
    return value, u


def decimals(number: str) -> int:
    """Digits after the point as printed: '3.20' → 2."""
    return len(number.split(".")[1]) if "." in number else 0


@cache
def molar_mass(name: str) -> float | None:
    """g/mol of the analyte a label names (TBIL, 总胆红素, Cr), when it is printed both ways."""
    from medsim.text.lexicon import get_lexicon  # the lexicon loads on first use, not on import

    return MOLAR_MASS.get(name) or MOLAR_MASS.get(get_lexicon().canonical(name) or "")


def same_quantity(a: float, a_unit: str, b: float, b_unit: str, *, a_text: str = "", b_text: str = "",
                  molar_mass: float | None = None, rel_tol: float = 0.001) -> bool | None:
    """True/False when the two amounts compare, None when the units measure different things
    (mmol/L against mg/dL with no molar mass given).

    Equal means within rounding: the less precise of the two printed numbers (``a_text``,
    ``b_text``) sets the tolerance, plus 0.1 % for conversions (38.2 and 38.6 ℃ differ;
    0.0542 mmol/L and 54.20 μmol/L agree). ``rel_tol`` widens the 0.1 % for an approximate
    conversion the writer rounded (TBil 86.4μmol/L（约5.1mg/dL）).
    """
    va, ua = to_si(a, a_unit)
    vb, ub = to_si(b, b_unit)
    if ua != ub and molar_mass:
        # a mass concentration meets a molar one: g/L ÷ g/mol = mol/L
        va, ua = (va / molar_mass, "mol/L") if ua == "g/L" else (va, ua)
        vb, ub = (vb / molar_mass, "mol/L") if ub == "g/L" else (vb, ub)
    if ua != ub:
        return None
    tol = rel_tol * max(abs(va), abs(vb))
    for text, value, si_value in ((a_text, a, va), (b_text, b, vb)):
        if text and value:
            tol = max(tol, abs(si_value / value) * 0.5 * 10 ** (-decimals(text)))
    return abs(va - vb) <= tol + 1e-12
