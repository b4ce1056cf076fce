"""Doses past a label's ceiling: wrong for any patient, whatever the case's gold says.

The case's gold doses only the drugs it names (medsim.text.doses compares those). An answer can
also dose a drug the gold leaves undosed, or dose a child by an adult's tablet: 利伐沙班20mg每日两次
(40mg/d, the label's most is 30), 对乙酰氨基酚1.5g每日三次 (4.5g/d), 对乙酰氨基酚500mg for a 16kg
child (31mg/kg a dose, the most is 15). ``lexicons/dose_limits.tsv`` lists the ceilings that do not
depend on the indication; a drug whose ceiling does is not listed, so nothing is judged for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from medsim.paths import lexicons_dir
from medsim.text.doses import Dose, drug_doses
from medsim.text.match import normalize

CHILD_BELOW_YEARS = 12.0
# written doses are rounded (16kg × 15mg/kg = 240 → "250mg"): only a dose clearly past the ceiling counts
SLACK = 1.15


@dataclass(frozen=True)
class Limit:
    drug: str
    adult_dose_mg: float | None
    adult_day_mg: float | None
    child_dose_mg_kg: float | None
    child_day_mg_kg: float | None
    child_times: float | None
    source: str


@dataclass(frozen=True)
class Breach:
    dose: Dose
    limit: Limit
    why: str  # 单次31mg/kg，超过儿童每次15mg/kg


def _cell(value: str) -> float | None:
    value = value.strip()
    return None if value in ("", "-") else float(value)


@cache
def limits() -> dict[str, Limit]:
    path = lexicons_dir() / "dose_limits.tsv"
    out: dict[str, Limit] = {}
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    for row in rows[1:]:  # the first row names the columns
        drug, *cells, source = row
        out[normalize(drug)] = Limit(normalize(drug), *(_cell(c) for c in cells), source=source)  # type: ignore[misc]
    return out


def _fmt(x: float) -> str:
    return f"{x:.3g}" if x < 1 else f"{x:g}" if float(x).is_integer() else f"{x:.1f}"


def _day_mg(d: Dose) -> float | None:
    if d.daily:
        return d.low
    if isinstance(d.per_day, float | int) and d.low is not None and not d.loading and not d.single:
        return d.low * d.per_day
    return None


def dose_breaches(text: str, *, weight_kg: float | None = None, age_years: float | None = None) -> list[Breach]:
    """Doses in ``text`` past a ceiling that holds for every patient; a child's (under 12, with a
    known weight) are also held to the per-kg ceilings. Counts the lowest of a written range."""
    table = limits()
    child = age_years is not None and age_years < CHILD_BELOW_YEARS
    out: list[Breach] = []
    for d in drug_doses(text):
        lim = table.get(d.drug)
        if lim is None or d.unit != "mg" or d.low is None:
            continue
        why = _why(d, lim, child=child, weight_kg=weight_kg)
        if why:
            out.append(Breach(d, lim, why))
    return out


def _why(d: Dose, lim: Limit, *, child: bool, weight_kg: float | None) -> str | None:
    day = _day_mg(d)
    if not d.daily and lim.adult_dose_mg is not None and d.low > lim.adult_dose_mg * SLACK:  # type: ignore[operator]
        return f"单次{_fmt(d.low)}mg，超过说明书每次最大{_fmt(lim.adult_dose_mg)}mg"  # type: ignore[arg-type]
    if day is not None and lim.adult_day_mg is not None and day > lim.adult_day_mg * SLACK:
        return f"每日{_fmt(day)}mg，超过说明书每日最大{_fmt(lim.adult_day_mg)}mg"
    if not child:
        return None
    if lim.child_times is not None and isinstance(d.per_day, float | int) and not d.daily \
            and d.per_day > lim.child_times + 1e-9:
        return f"每日{_fmt(d.per_day)}次，超过儿童24小时最多{_fmt(lim.child_times)}次"
    if not weight_kg:
        return None
    if not d.daily and lim.child_dose_mg_kg is not None and d.low / weight_kg > lim.child_dose_mg_kg * SLACK:  # type: ignore[operator]
        return (f"单次约{_fmt(d.low / weight_kg)}mg/kg（体重{weight_kg:g}kg），"  # type: ignore[operator]
                f"超过儿童每次最大{_fmt(lim.child_dose_mg_kg)}mg/kg")
    if day is not None and lim.child_day_mg_kg is not None and day / weight_kg > lim.child_day_mg_kg * SLACK:
        return (f"每日约{_fmt(day / weight_kg)}mg/kg（体重{weight_kg:g}kg），"
                f"超过儿童每日最大{_fmt(lim.child_day_mg_kg)}mg/kg")
    return None
