"""Doses and frequencies written for a drug: 替格瑞洛180mg负荷后90mg每日两次 → (替格瑞洛, 180 mg),
(替格瑞洛, 90 mg, 2/日); 阿莫西林0.5–1g po q8h → (阿莫西林, 500–1000 mg, 3/日).

Each dose belongs to the drug named last before it in the sentence, and a frequency to the dose
it follows. A weight-based dose (0.9mg/kg, 30～50mg/(kg·d)) is read per kg, or, when the patient's
weight is given, as the mass it comes to (2g/kg for 15kg = 30g), so 400mg/kg每日×5天 and 2g/kg单次
can be told apart. Rates (0.1U/kg/h, 3g/h) and counts of tablets (每次2片, whose strength is unknown)
are not read: they cannot be compared without more than the text says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from medsim.text.lexicon import get_lexicon
from medsim.text.match import normalize
from medsim.text.measures import frequency
from medsim.text.patterns import FREQ_PATTERN

_MASS_MG = {"mg": 1.0, "毫克": 1.0, "g": 1000.0, "克": 1000.0, "μg": 0.001, "ug": 0.001, "mcg": 0.001, "微克": 0.001}
_UNITS = {"iu": "IU", "u": "U", "单位": "U", "万u": "万U", "万单位": "万U"}
_DOSE = re.compile(
    r"(?P<lo>\d+(?:\.\d+)?)\s*(?:(?:[-–—~～至到]|或)\s*(?P<hi>\d+(?:\.\d+)?))?\s*"
    r"(?P<unit>mg|毫克|mcg|μg|ug|微克|g|克|万IU|万U|万单位|IU|U|单位|mL|ml|毫升)"
    r"(?![A-Za-z]|\s*/\s*\(?\s*(?:kg|h|小时|min|分|m2|㎡))", re.I)
# a dose per kg, per dose or per day (0.9mg/kg, 3～5mg/kg/d, 30～50mg/(kg·d)); a rate (0.1U/kg/h) is not one
_PER_KG = re.compile(
    r"(?P<lo>\d+(?:\.\d+)?)\s*(?:[-–—~～至到]\s*(?P<hi>\d+(?:\.\d+)?))?\s*(?P<unit>mg|毫克|mcg|μg|ug|微克|g|克)"
    r"\s*/\s*\(?\s*kg(?P<day>\s*[·.*/]\s*(?:d|日|天)(?![a-z]))?(?!\s*[·.*/]\s*(?:h|小时|min|分))\s*\)?", re.I)
_FREQ = re.compile(FREQ_PATTERN + r"|每日(?:两|二|三|四|一)次|每天(?:两|二|三|四|一)次|一天(?:两|二|三|四|一)次"
                   r"|[一二两三四1-4]次/[日天d]|/[日天d](?![a-z])", re.I)
_SENTENCE = re.compile(r"[。；;！!？?\n]")
_LIMIT = re.compile(r"(?:最大|最多|不超过|不宜超过|上限|极量|总量不超过|≤|<|＜)\s*(?:剂量|量)?\s*$")
# a frequency said before the dose it counts (每天2次，每次0.2mg; 一日3次，一次0.5g)
_FREQ_BEFORE = re.compile(r"((?:每日|每天|一日|一天)(?:[一二两三四]|[1-4])次)[，,\s]*(?:每次|一次)(?:服用?|吃|口服)?\s*$")
_CN_TIMES = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4}


_SINGLE = re.compile(r"单次|一次性|单剂|仅一次|只用一次|只吃一次")
_LOADING = re.compile(r"负荷|首剂|首次|顿服|嚼服|立即|即刻|st(?:at)?\b|单次|一次性|冲击", re.I)
_STRENGTH = re.compile(r"^\s*(?:/\s*(?:ml|毫升|片|粒|支|袋|瓶)|[:：])", re.I)
_AFTER_LIMIT = re.compile(r"^\s*(?:以内|以下|以上)")
# after a comma the dose still belongs to the drug only where the words go on about it
# a clause that steps the dose (热退后减为3～5mg/kg, 3天后加至…) still doses the drug before it
_STEP = r"[^，,。；;、+＋]{0,14}?(?:减为|减至|减量为|减量至|加至|加量至|加量为)"
_GOES_ON = re.compile(r"^\s*(?:" + _STEP + r"|\d|约|总量|总剂量|共|每|一次|一日|一天|日|口服|po|iv|静|皮下|肌注|舌下|含服|嚼服|顿服|首剂|负荷|随后|之后|然后|后|"
                      r"改为|维持|继续|q\d|qd|bid|tid|qid|qn)", re.I)
_LIST_BREAK = re.compile(r"[＋+、]|[，,](?!\s*(?:" + _STEP + r"|\d|约|总量|总剂量|共|每|一次|一日|一天|日|口服|po|iv|静|皮下|肌注|舌下|含服|嚼服|顿服|首剂|负荷|"
                         r"随后|之后|然后|后|其余|剩余|余量|余(?=\s*\d)|改为|维持|继续|q\d|qd|bid|tid|qid|qn))", re.I)


@dataclass(frozen=True)
class Dose:
    drug: str  # canonical generic name
    low: float | None  # in ``unit`` (mass in mg)
    high: float | None
    unit: str | None  # "mg" for any mass; IU or U otherwise
    per_day: float | str | None  # times a day, or prn/st; None when not written
    text: str
    loading: bool = False  # a loading or single dose (负荷量, 嚼服300mg), not the maintenance one
    daily: bool = False  # the amount is the day's total (10–30mg/d)
    single: bool = False  # the whole course is this one dose (磷霉素3g单次口服, 氟康唑150mg一次性)


@cache
def _drug_pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    lex = get_lexicon()
    canon: dict[str, str] = {}
    for name in lex.terms("drug"):
        for form in (name, *lex.aliases(name)):
            f = normalize(form)
            if (len(f) >= 2 and not f.isascii()) or (f.isascii() and len(f) >= 4):
                canon.setdefault(f, normalize(name))
    alts = sorted(canon, key=len, reverse=True)
    return re.compile("|".join(re.escape(a) for a in alts), re.I), canon


def _per_day(raw: str) -> float | str | None:
    raw = raw.strip()
    if raw.startswith("/"):
        return 1.0  # 20mg/d
    m = re.search(r"([一二两三四])次", raw)
    # 每8小时一次 counts hours, 每周一次 weeks: not times a day
    if m and not re.search(r"每\s*\d+\s*(?:小时|h)|周|星期|月", raw):
        return float(_CN_TIMES[m.group(1)])
    abbr, per_day = frequency(raw)
    return per_day if per_day is not None else abbr


def drug_doses(text: str, weight_kg: float | None = None) -> list[Dose]:
    """Every dose written for a named drug, in order; weight-based ones after the others of their
    drug, in mg when ``weight_kg`` is known and in mg/kg otherwise."""
    pattern, canon = _drug_pattern()
    out: list[Dose] = []
    for sentence in _SENTENCE.split(text or ""):
        names = [(m.start(), m.end(), canon.get(normalize(m.group(0)), normalize(m.group(0))))
                 for m in pattern.finditer(sentence)]
        if not names:
            continue
        for k, (start, end, drug) in enumerate(names):
            stop = names[k + 1][0] if k + 1 < len(names) else len(sentence)
            window = sentence[end:stop]
            if (brk := _LIST_BREAK.search(window)) is not None:
                window = window[:brk.start()]  # 阿莫西林1g bid＋呋喃唑酮100mg: the next dose is another drug's
            if "含" in sentence[max(0, start - 2):start]:
                continue  # 每1ml含布洛芬20mg: the preparation's strength, not a dose given
            doses = list(_DOSE.finditer(window))
            for j, d in enumerate(doses):
                before = window[max(0, d.start() - 8):d.start()]
                after = window[d.end():doses[j + 1].start() if j + 1 < len(doses) else len(window)]
                if _LIMIT.search(before) or _AFTER_LIMIT.match(after) or "含" in before[-3:] or _STRENGTH.match(after) \
                        or (d.start() and window[d.start() - 1] in ":："):
                    continue  # 最大90mg, 2g以内: a ceiling; 每1ml含20mg, 20mg/ml, 100ml:2g: a strength
                if re.match(r"\s*/\s*\d", window[d.end():]) or re.search(r"\d\s*(?:mg|g|μg|ug|毫克|克)?\s*/\s*$", before, re.I):
                    continue  # 氨氯地平/缬沙坦（5mg/80mg）: a combination's strengths, one per component, in order
                unit_raw = d.group("unit").lower()
                if unit_raw in ("ml", "毫升"):
                    continue  # a volume means nothing without the preparation's strength
                fm = _FREQ.search(after[:14])
                lead_freq = None
                if fm is None and (lf := _FREQ_BEFORE.search(window[doses[j - 1].end() if j else 0:d.start()])):
                    lead_freq = lf.group(1)  # 每天2次，每次0.2mg: the frequency said first
                if unit_raw in _MASS_MG:
                    scale, unit = _MASS_MG[unit_raw], "mg"
                else:
                    scale, unit = 1.0, _UNITS.get(unit_raw, d.group("unit"))
                lo = float(d.group("lo")) * scale
                hi = float(d.group("hi")) * scale if d.group("hi") else lo
                # what stands between the previous dose (or the name) and this one says what this one is
                lead = window[doses[j - 1].end():d.start()] if j else sentence[max(0, start - 6):end] + window[:d.start()]
                cue = _LOADING.search(lead[-8:])
                loading = bool(cue and not re.match(r"[\s，,]*(?:量|剂量)?[\s，,]*(?:后|之后|以后|随后|然后|再)", lead[cue.end():])
                               or _LOADING.match(after[:4].lstrip()))
                daily = bool(fm and fm.group(0).startswith("/")) or bool(re.search(r"(?:每日|每天|一日|日)(?:总量|剂量)?\s*$", before))
                # 单次 before the dose, with nothing after it that starts another (单次嚼服，之后100mg qd)
                cue_s = _SINGLE.search(lead[-8:])
                single = bool(cue_s and not re.search(r"后|改为|维持|继续", lead[-8:][cue_s.end():])
                              or _SINGLE.match(after[:8].lstrip(" ，,口服po")) or re.match(r"\s*(?:口服|po)?\s*(?:单次|一次性)", after))
                per_day = _per_day(fm.group(0)) if fm else (_per_day(lead_freq) if lead_freq else None)
                out.append(Dose(drug, min(lo, hi), max(lo, hi), unit, None if daily else per_day,
                                window[d.start():d.end() + (fm.end() if fm else 0)], loading, daily, single))
            out += _per_kg_doses(drug, window, weight_kg)
    return out


def _per_kg_doses(drug: str, window: str, weight_kg: float | None) -> list[Dose]:
    out = []
    for d in _PER_KG.finditer(window):
        scale = _MASS_MG[d.group("unit").lower()]
        lo = float(d.group("lo")) * scale
        hi = float(d.group("hi")) * scale if d.group("hi") else lo
        before, after = window[max(0, d.start() - 8):d.start()], window[d.end():d.end() + 14]
        if _LIMIT.search(before):
            continue  # 最大1mg/kg: a ceiling
        fm = _FREQ.search(after)
        daily = bool(d.group("day")) or bool(re.search(r"(?:每日|每天|一日|日)(?:总量|剂量)?\s*$", before)) \
            or bool(fm and fm.group(0).startswith("/"))
        per_day = None if daily or fm is None else _per_day(fm.group(0))
        single = bool(_SINGLE.search(before) or _SINGLE.match(after.lstrip(" ，,（(")))
        loading = bool(_LOADING.search(before[-4:]))
        unit = "mg" if weight_kg else "mg/kg"
        k = weight_kg or 1.0
        out.append(Dose(drug, lo * k, hi * k, unit, per_day, d.group(0), loading, daily, single))
    return out


def _day(d: Dose) -> tuple[float, float] | None:
    if d.daily:
        return d.low, d.high  # type: ignore[return-value]
    if isinstance(d.per_day, float | int) and d.low is not None:
        return d.low * d.per_day, d.high * d.per_day  # type: ignore[operator]
    return None


def _agrees(a: Dose, b: Dose) -> bool | None:
    """Whether two doses of one drug agree; None when nothing in them can be compared. A loading
    dose is compared with loading doses only; a day's total with a day's total."""
    if a.loading != b.loading:
        return None
    if a.daily or b.daily:
        da, db = _day(a), _day(b)
        if a.unit != b.unit or da is None or db is None:
            return None
        return not (da[1] + 1e-9 < db[0] or db[1] + 1e-9 < da[0])
    compared = False
    if a.unit and a.unit == b.unit and a.low is not None and b.low is not None:
        compared = True
        if a.high + 1e-9 < b.low or b.high + 1e-9 < a.low:  # type: ignore[operator]
            return False
    if a.per_day is not None and b.per_day is not None:
        compared = True
        if a.per_day != b.per_day:
            return False
    return True if compared else None


def dose_conflicts(answer: str, reference: list[str], weight_kg: float | None = None) -> list[tuple[Dose, list[Dose]]]:
    """Doses the answer writes for a drug the reference doses otherwise: for each, the reference's
    doses of that drug. A drug the reference gives no dose for is not judged. With the patient's
    weight, a per-kg dose is compared with a written mass (0.9mg/kg for 70kg against 63mg)."""
    ref = [d for text in reference for d in drug_doses(text, weight_kg)]
    said = drug_doses(answer, weight_kg)
    out = []
    for d in said:
        same = [r for r in ref if r.drug == d.drug]
        if (same and all(r.single for r in same) and not d.loading and isinstance(d.per_day, float | int)
                and not any(d.text in part and _SINGLE.search(part) for part in _SENTENCE.split(answer))):
            out.append((d, same))  # one dose for the whole course said as one repeated (3g单次 → 3g每日3次)
            continue
        verdicts = [_agrees(d, r) for r in same]
        if any(v is False for v in verdicts) and not any(v is True for v in verdicts):
            out.append((d, same))
    # a dose given in parts (阿替普酶6.3mg静推，其余56.7mg滴注) agrees when its parts add up
    # — and so does one written as its total and then its parts (总量63mg（6.3mg静推，余56.7mg滴注）)
    for drug in {d.drug for d, _ in out}:
        parts = [d for d in said if d.drug == drug and d.unit == "mg" and not d.daily]
        wrong = [d for d, _ in out if d.drug == drug and d.unit == "mg" and not d.daily]
        totals = {sum(p.low or 0 for p in parts)} | ({sum(p.low or 0 for p in wrong)} if len(wrong) > 1 else set())
        if len(parts) > 1 and any(r.drug == drug and r.unit == "mg" and r.low is not None
                                  and r.low - 1e-6 <= total <= r.high + 1e-6 for r in ref for total in totals):
            out = [(d, refs) for d, refs in out if d.drug != drug]
    return out
