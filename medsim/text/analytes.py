"""Laboratory analytes and vital signs by every name a Chinese report gives them.

``lexicons/analytes.txt`` lists each analyte once, with its full Chinese name, short names,
abbreviations and English spellings as equals (PaCO2 = 动脉血二氧化碳分压 = 二氧化碳分压;
ALT = 丙氨酸氨基转移酶 = 谷丙转氨酶; PLT = 血小板 = platelet count = platelets: an English name
is read in its plural too), its group (blood count, chemistry, blood gas, …) and the
kinds of value it takes. A name shared by two analytes (P: pulse or phosphate) goes to the one
whose value kind fits the unit written after it.

- ``analyte_in(run, unit)``: the analyte a label names, nearest the value that follows the run
  (``血糖控制在`` → glu, ``动脉血二氧化碳分压`` → paco2), or None.
- ``names(key)``, ``get(key)``, ``keys()``: the lexicon itself.
- ``unit_kind(unit)``, ``takes(key, unit)``: what kind of value a unit writes, and whether the
  analyte is measured that way (a lone mmHg value names a pressure only for pressure analytes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from medsim.paths import lexicons_dir
from medsim.text.units import canonical_unit, to_si

UNIT_KINDS = ("rate", "pressure", "temperature", "percent", "cells", "conc", "activity", "time", "ratio",
              "mass", "length", "volume", "none")


@dataclass(frozen=True)
class Analyte:
    key: str
    group: str
    names: tuple[str, ...]  # the first is the full Chinese name
    units: tuple[str, ...] = ()  # value kinds; empty: any


@dataclass(frozen=True)
class _Index:
    by_key: dict[str, Analyte]
    by_name: dict[str, tuple[str, ...]]  # lookup form of a name → keys, in file order
    pattern: re.Pattern[str]  # every name, longest first (Latin names of 3+ letters in any case)


def _lookup_form(name: str) -> str:
    return name.lower() if name.isascii() and len(name) >= 3 else name


@cache
def _index() -> _Index:
    path = lexicons_dir() / "analytes.txt"
    by_key: dict[str, Analyte] = {}
    by_name: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.rstrip("\n").split("\t")
        if len(cols) < 3:
            raise ValueError(f"{path}: line {line!r} needs key<TAB>group<TAB>names")
        key, group, names = cols[0].strip(), cols[1].strip(), [n.strip() for n in cols[2].split("|") if n.strip()]
        units = tuple(u for u in (cols[3].split("|") if len(cols) > 3 else []) if u.strip())
        bad = [u for u in units if u not in UNIT_KINDS]
        if bad:
            raise ValueError(f"{path}: {key}: unknown value kind {bad} (one of {', '.join(UNIT_KINDS)})")
        by_key[key] = Analyte(key, group, tuple(dict.fromkeys(names)), units)
        for name in names:
            keys = by_name.setdefault(_lookup_form(name), [])
            if key not in keys:
                keys.append(key)
    names = sorted({n for a in by_key.values() for n in a.names}, key=len, reverse=True)
    alts = [f"(?i:{re.escape(n)})" if n.isascii() and len(n) >= 3 else re.escape(n) for n in names]
    return _Index(by_key, {k: tuple(v) for k, v in by_name.items()}, re.compile("|".join(alts)))


def keys() -> list[str]:
    return list(_index().by_key)


def get(key: str) -> Analyte | None:
    return _index().by_key.get(key)


def names(key: str) -> tuple[str, ...]:
    """Every name of an analyte (empty for an unknown key)."""
    a = _index().by_key.get(key)
    return a.names if a else ()


def keys_of(name: str) -> tuple[str, ...]:
    """The analytes a name (exactly as written) stands for."""
    return _index().by_name.get(_lookup_form(name), ())


@cache
def unit_kind(unit: str) -> str:
    """The kind of value a unit writes: rate, pressure, percent, cells, conc, activity, time, …"""
    u = canonical_unit(unit)
    if not u:
        return "none"
    fixed = {"次/分": "rate", "mmHg": "pressure", "kPa": "pressure", "cmH2O": "pressure", "℃": "temperature",
             "%": "percent", "s": "time", "min": "time", "kg": "mass", "g": "mass", "cm": "length", "mm": "length",
             "m": "length", "mL": "volume", "L": "volume", "mm/h": "rate", "kg/m2": "ratio"}
    if u in fixed:
        return fixed[u]
    _, base = to_si(1.0, u)
    if base == "/L":
        return "cells"
    if base.startswith(("mol/", "g/")):
        return "conc"
    if "U" in base.split("/")[0]:
        return "activity"
    return "conc" if "/" in u else "none"


def takes(key: str, unit: str) -> bool:
    """The analyte is measured in values of this unit's kind (any kind when the lexicon says none)."""
    a = _index().by_key.get(key)
    if a is None or not a.units:
        return True
    kind = unit_kind(unit)
    # concentrations and enzyme activities are printed in each other's units (U/mL markers, ng/mL)
    amounts = {"conc", "activity"}
    return kind in a.units or (kind in amounts and bool(amounts & set(a.units)))


def _pick(found: tuple[str, ...], unit: str | None) -> str:
    if unit is not None and len(found) > 1:
        fitting = [k for k in found if takes(k, unit)]
        if fitting:
            return fitting[0]
    return found[0]


def _latin_free(run: str, start: int, end: int) -> bool:
    """A Latin name stands alone: not part of a longer Latin word (HbA1c, APTT, TBIL)."""
    before = run[start - 1] if start else ""
    after = run[end] if end < len(run) else ""
    return not (before.isascii() and before.isalpha()) and not (after.isascii() and after.isalnum())


_PLURAL = re.compile(r"(?:e?s)(?![A-Za-z0-9])")


def _latin_end(run: str, start: int, end: int) -> int | None:
    """Where a Latin name written at ``run[start:end]`` ends if it stands alone, an English plural
    included (platelets, neutrophils for platelet, neutrophil); None inside a longer Latin word."""
    if _latin_free(run, start, end):
        return end
    before = run[start - 1] if start else ""
    plural = _PLURAL.match(run, end) if end - start >= 4 and run[end - 1].isalpha() else None
    if plural and not (before.isascii() and before.isalpha()):
        return plural.end()
    return None


@lru_cache(maxsize=8192)  # the same labels (血钾, 体温, WBC) come before values in text after text
def analyte_in(run: str, unit: str | None = None) -> tuple[str, str, int] | None:
    """(key, name as written, its start) of the analyte named nearest the end of ``run``, the words
    before a value; the unit of that value settles a name two analytes share."""
    idx = _index()
    best: tuple[int, int, int, str] | None = None  # (end, length, start, name)
    i = 0
    while i < len(run):
        m = idx.pattern.search(run, i)
        if not m:
            break
        start = m.start()
        # the longest name at this position that stands alone
        for length in range(m.end() - start, 0, -1):
            name = run[start:start + length]
            if not keys_of(name):
                continue
            end = _latin_end(run, start, start + length) if name.isascii() else start + length
            if end is None:
                continue
            cand = (end, length, start, name)
            if best is None or cand[:2] > best[:2]:
                best = cand
            break
        i = start + 1
    if best is None:
        return None
    name = best[3]
    return _pick(keys_of(name), unit), name, best[2]


def pressure_analyte(key: str) -> bool:
    """A lone mmHg / kPa value can belong to it (PaCO2 68mmHg), not only a systolic/diastolic pair."""
    a = _index().by_key.get(key)
    return bool(a and "pressure" in a.units)


def unitless(key: str) -> bool:
    """Printed without a unit (pH 7.32, INR 1.8, 比重1.020)."""
    a = _index().by_key.get(key)
    return bool(a and "none" in a.units)


# the names of a laboratory panel and the analyte groups it reports (凝血功能 → coagulation): a text
# that calls a panel normal claims the panel was done, which the record shows by its name or its values
PANELS: dict[str, tuple[str, ...]] = {
    "凝血功能": ("coagulation",), "凝血常规": ("coagulation",), "凝血四项": ("coagulation",), "凝血象": ("coagulation",),
    "肝功能": ("liver",), "肾功能": ("renal",), "肝肾功能": ("liver", "renal"), "电解质": ("electrolyte",),
    "血常规": ("blood_count",), "血象": ("blood_count",), "尿常规": ("urine",), "血脂": ("lipid",),
    "心肌酶": ("cardiac",), "心肌标志物": ("cardiac",), "甲状腺功能": ("endocrine",), "甲功": ("endocrine",),
    "血气分析": ("blood_gas",), "血气": ("blood_gas",),
}


def panel_groups(name: str) -> tuple[str, ...]:
    """The analyte groups a panel's name reports, or () for no panel."""
    return PANELS.get(name, ())
