"""Claims a text makes about a patient: what the checker holds against the record.

The same extractor runs on the record and on the output, so a claim is matched claim-to-claim.
Kinds: finding (symptom / disease, with polarity and owner), measurement (vital or lab value with
unit), drug (dose, route, frequency), sex, age, laterality (a side attached to a body part),
duration (attached to the clause it qualifies), vitals (vital signs called normal or stable in
words). Spans are offsets in the *normalized* text; the
caller maps them back with the span map from ``textlayer.normalize``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from medsim.facts import textlayer, vocab
from medsim.text import analytes, vitals
from medsim.text.measures import cn_number, frequency
from medsim.text.patterns import FREQ_PATTERN
from medsim.text.units import canonical_unit

Kind = str  # finding | measurement | drug | sex | age | laterality | duration | vitals


@dataclass
class Claim:
    kind: Kind
    start: int
    end: int
    text: str
    key: str = ""  # what is compared: analyte, finding norm, drug name, body part, clause key
    value: float | None = None
    value_text: str = ""
    value2: float | None = None  # diastolic BP
    unit: str = ""
    polarity: str = "present"
    owner: str = "patient"
    side: str = ""
    extra: dict[str, object] = field(default_factory=dict)
    advice: bool = False  # a recommendation or plan, not a statement of fact
    opinion: bool = False  # the writer's diagnosis or impression
    general: bool = False  # general knowledge or a hypothesis, not about this patient
    diagnosis: bool = False  # a diagnosis the writer states (诊断：X, 考虑X, X可能性大): held against the record's

    @property
    def skip_reason(self) -> tuple[str, str] | None:
        """Why the claim is not a checkable fact (Chinese, English), or None when it is."""
        if self.advice:
            return "建议或计划，不是病历事实", "advice or a plan, not a fact about the record"
        if self.opinion:
            return "鉴别诊断或推理，不是陈述的诊断", "a differential or reasoning, not a stated diagnosis"
        if self.general:
            return "一般知识、假设或条件句，不是针对本患者的陈述", "general knowledge or a hypothesis, not about this patient"
        if self.polarity == "uncertain" and not self.diagnosis:
            return "不确定的表述", "an uncertain statement"
        return None

    def extra_value_start(self) -> int:
        return int(self.extra.get("value_start", self.start))  # type: ignore[arg-type]

    @property
    def checkable(self) -> bool:
        return self.skip_reason is None


# ------------------------------------------------------------------ numbers and durations

_DURATION_DAYS = {"分钟": 1 / 1440, "小时": 1 / 24, "h": 1 / 24, "天": 1, "日": 1, "周": 7, "星期": 7,
                  "个月": 30, "月": 30, "年": 365}
DURATION = re.compile(
    r"(?P<n>\d+(?:\.\d+)?|[一二两三四五六七八九十百半]+)\s*(?P<more>\+|余|多)?\s*"
    r"(?P<unit>分钟|小时|天|日|周|星期|个月|月|年)(?P<more2>余|多)?(?![/龄])"
)


def duration_days(n: str, unit: str) -> float | None:
    value = cn_number(n)
    if value is None:
        return None
    return value * _DURATION_DAYS[unit]


# ------------------------------------------------------------------------ measurements

_UNIT_ALTS = (
    r"×10\^(?:9|12)/L|[×xX*]10\^?\*?(?:9|12)/L|10\*(?:9|12)/L"
    r"|[μu]\s?mol/L|mmol/[Ll]|nmol/L|pmol/L"
    r"|[mμunp]?g/[dm]?[Ll]|[mk]?U/m?[Ll]|m?IU/m?[Ll]|U/L"
    r"|mmHg|kPa|cmH2O|℃|次/分|mm/h|kg/m2|kg|g(?![A-Za-z/])|%|秒|s(?![A-Za-z])|fl|fL|ppb"
)  # on normalized text: °C, ︒C, 39度 are ℃ and 次/min, bpm are 次/分 already (medsim.text.normalize)
MEASURE = re.compile(
    # a minus sign not after a digit or a Latin letter is a negative value (BE -17mmol/L), not a range
    rf"(?P<cmp>[<>≤≥])?\s*(?P<v>(?:(?<![\dA-Za-z.])[-−](?=\d))?\d+(?:\.\d+)?)(?:\s*/\s*(?P<v2>\d+(?:\.\d+)?))?"
    rf"\s*(?P<unit>{_UNIT_ALTS})"
)
def _num(v: str) -> float:
    return -float(v[1:]) if v[:1] in "-−" else float(v)


_NAME_CHARS = re.compile(r"[\u4e00-\u9fa5A-Za-z0-9\-+βγα]")
_SKIP_NAMES = {"直径", "大小", "长", "宽", "厚", "面积", "最厚处", "长度", "深", "范围", "距离", "约", "量", "尿量", "出血量"}

def analyte_of(name: str, unit: str | None = None) -> tuple[str, str] | None:
    """(analyte key, name as written) nearest the value in the name run (血糖控制在 → glu); the
    value's unit settles a name two analytes share (P 2.41mmol/L is phosphate). The names are the
    text layer's (``medsim.text.analytes``)."""
    found = analytes.analyte_in(name, unit)
    return (found[0], found[1]) if found else None


_LEAD_WORDS = sorted(vocab.LEAD_WORDS, key=len, reverse=True)


def _strip_lead(name: str) -> str:
    changed = True
    while changed and name:
        changed = False
        for word in _LEAD_WORDS:
            if name.startswith(word) and len(name) > len(word):
                name, changed = name[len(word):], True
                break
    return name


def _name_before(text: str, pos: int) -> tuple[str, int]:
    """The run of name characters before a value (skipping ':' '为' '约' and comparators)."""
    i = pos
    while i > 0 and text[i - 1] in " ：:=为约达<>≤≥":
        i -= 1
    j = i
    while j > 0 and i - j < 16 and _NAME_CHARS.match(text[j - 1]):
        j -= 1
    # an English name of several words (white blood cell count 11.1×10^9/L): spaces between Latin
    # letters are part of the run
    while j > 1 and i - j < 32 and text[j - 1] == " " and _latin(text[j - 2]) and _latin(text[j]):
        k = j - 1
        while k > 0 and i - k < 32 and _latin(text[k - 1]):
            k -= 1
        j = k
    return text[j:i], j


def _latin(ch: str) -> bool:
    return ch.isascii() and ch.isalpha()


_QUALIFIERS = re.compile(r"^(最高|最低|峰值|波动于|升至|降至|高达|低至|达|约|为|可达|升高至|降低至|控制在|控制于)*$")
_UNIT_DEFAULT = {"℃": "temperature"}
_PERSON = re.compile(r"(?:孩子|小孩|宝宝|患儿|病儿|患者|病人|本人|您|你|他|她|我)(?:的)?(?:现在|现|目前)?(?:约|为|是|有)?")


_AGE_BEFORE = re.compile(r"\d+(?:\.\d+)?\s*(?:岁|个月|月龄)[\u4e00-\u9fa5]{0,3}[，,（(、\s]*$")


def _analyte_back(text: str, pos: int, unit: str | None = None) -> tuple[str, str, int] | None:
    """The nearest analyte named earlier in the same sentence: 血钾低，最低1.6mmol/L → k."""
    sentence_start = max(text.rfind("。", 0, pos), text.rfind("\n", 0, pos), pos - 24, 0)
    window = text[sentence_start:pos]
    found = analyte_of(window, unit)
    if not found:
        return None
    key, alias = found
    return key, alias, sentence_start + window.rfind(alias)


_RESPECTIVELY = re.compile(r"分别(?:为|是|约为|约|达)")


def _respectively(text: str, values: list[re.Match[str]]) -> dict[int, tuple[str, str, int]]:
    """A及B分别为x和y: the n-th value belongs to the n-th analyte named before 分别为, not to the
    analyte nearest it. Value start → (key, name, name start)."""
    out: dict[int, tuple[str, str, int]] = {}
    for r in _RESPECTIVELY.finditer(text):
        head_start = max(textlayer.clause_start(text, r.start()), r.start() - 30)
        head = text[head_start:r.start()]
        named = []
        for part in re.split(r"[及和与、]", head):
            found = analytes.analyte_in(part)
            if found:
                named.append((found[0], found[1], head_start + head.find(part) + found[2]))
        if len(named) < 2:
            continue
        after = [m for m in values if r.end() <= m.start() < r.end() + 60]
        for (key, name, start), m in zip(named, after, strict=False):
            out[m.start()] = (key, name, start)
    return out


# between a value and its restatement in another unit: a bracket or a word of conversion
_RESTATE = re.compile(r"\s*(?:[（(]\s*(?:约合|约|折合约?|相当于|即|合)?|[，,]?\s*(?:约合|折合约?|相当于|换算为约?|换算约?))\s*$")


def _restates(text: str, out: list[Claim], pos: int, unit: str) -> Claim | None:
    """The measurement a value right after it restates in another unit, or None."""
    if not out or out[-1].unit in (None, unit) or out[-1].extra.get("restated"):
        return None
    prev = out[-1]
    if prev.end > pos or pos - prev.end > 8 or not _RESTATE.fullmatch(text[prev.end:pos]):
        return None
    return prev


# the limb a value was taken on, right before it (右上肢164/102mmHg, 双上肢血压相近（左164/102mmHg，右160/100mmHg）)
_VALUE_SIDE = re.compile(r"(?<![左右])(?P<side>[左右])侧?(?:上肢|下肢|上臂|手臂|臂|腿)?\s*(?:血压|BP|收缩压|脉搏)?[\s:：为约]*$")


def measurements(text: str) -> list[Claim]:
    out = []
    found_values = list(MEASURE.finditer(text))
    respectively = _respectively(text, found_values) if "分别" in text else {}
    for m in found_values:
        unit = canonical_unit(re.sub(r"\s", "", m.group("unit")))  # μ mol/L as some reports print it
        if m.group("v2") and unit != "mmHg":
            continue  # a ratio such as 4+3 or 5/12 is not a value
        restated = _restates(text, out, m.start(), unit)
        if restated is not None:
            # 7.2mmol/L（约130mg/dL）, 28.6mmol/L，折合约515mg/dL: the same value in another unit, so the
            # same analyte, held against the record after conversion
            out.append(Claim("measurement", m.start(), m.end(), text[m.start():m.end()], key=restated.key,
                             value=_num(m.group("v")), value_text=m.group("v").lstrip("-−"), unit=unit,
                             extra={"name": restated.extra.get("name", restated.key), "value_start": m.start("v"),
                                    "cmp": "", "restated": True}))
            continue
        name, name_start = _name_before(text, m.start())
        cmp = m.group("cmp") or ""
        word = re.search(r"(超过|高于|大于|不低于|低于|小于|不足|不超过)$", name)
        if word:
            cmp = "<" if word.group(1) in ("低于", "小于", "不足", "不超过") else ">"
            name = name[: word.start()]
        found = analyte_of(name, unit)
        start = m.start()
        if m.start() in respectively:
            key, alias, start = respectively[m.start()]
            out.append(Claim("measurement", start, m.end(), text[start:m.end()], key=key, value=_num(m.group("v")),
                             value_text=m.group("v").lstrip("-−"), unit=unit,
                             extra={"name": alias, "value_start": m.start("v"), "cmp": cmp}))
            continue
        if not found and unit == "kg" and _PERSON.fullmatch(_strip_lead(name)):
            found = ("weight", name)  # 孩子18kg, 患者65kg: the person's weight
        if not found and unit == "kg" and not name and _AGE_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            found = ("weight", "")  # 2岁男童，12kg; 男，2岁（12kg）: a weight given with the age
        if not found and (unit == "℃" or (unit == "mmHg" and m.group("v2"))):
            # ℃ measures a temperature whatever the words before it (发热最高39.5℃, 孩子39℃)
            key = "temperature" if unit == "℃" else "bp"
            found = (key, name[-2:] if name else "")
        if unit == "g" and (not found or found[0] not in ("weight", "fetal_weight")):
            continue  # grams weigh a body (胎儿体重约2100g); a dose in grams is the drug reader's
        if found:
            key, alias = found
            start = name_start + name.rfind(alias)
        else:
            bare = re.sub(r"^[\d.]+", "", _strip_lead(name))
            if _QUALIFIERS.match(bare):
                # a qualifier alone (最高38.6℃): the unit or the sentence names the analyte
                if unit in _UNIT_DEFAULT or (unit == "mmHg" and m.group("v2")):
                    key = _UNIT_DEFAULT.get(unit, "bp")
                    alias = {"temperature": "体温", "bp": "血压"}[key]
                    start = name_start if name else m.start()
                else:
                    back = _analyte_back(text, name_start, unit)
                    if not back or back[0] in ("temperature", "bp") and unit not in ("℃", "mmHg"):
                        continue
                    key, alias, _ = back
                    start = name_start if name else m.start()
            else:
                if len(bare) < 2 or bare in _SKIP_NAMES or bare.endswith(tuple(_SKIP_NAMES)):
                    continue
                key = re.sub(r"^(血清|血浆|血)", "", bare) or bare
                alias = bare
                start = name_start + name.rfind(alias)
        if unit == "mmHg" and not m.group("v2") and (key == "bp" or not analytes.pressure_analyte(key)):
            continue  # a single mmHg number that is not a named pressure (收缩压波动于150～200mmHg); PaCO2 68mmHg is
        side = _VALUE_SIDE.search(text, max(0, start - 3), m.start("v"))
        out.append(
            Claim(
                "measurement", start, m.end(), text[start:m.end()], key=key,
                value=_num(m.group("v")), value_text=m.group("v").lstrip("-−"),
                value2=float(m.group("v2")) if m.group("v2") else None, unit=unit, side=side.group("side") if side else "",
                extra={"name": alias, "value_start": m.start("v"), "cmp": cmp},
            )
        )
    out += _bare_vitals(text, out)
    out += _shared_unit(text, out)
    return out + _unitless(text, out) + _sizes(text, out)


# an item of a list whose unit is written once, after its last value (TC 5.0，TG 1.4，LDL-C 3.6mmol/L)
_LIST_ITEM = re.compile(r"(?P<name>[A-Za-z\u4e00-\u9fa5][A-Za-z0-9\u4e00-\u9fa5\-]{0,11}?)\s*[:：]?\s*(?P<v>\d+(?:\.\d+)?)\s*$")


def _shared_unit(text: str, taken: list[Claim]) -> list[Claim]:
    """The bare values before a measurement, in a list of the same group of analytes that the unit
    after the last value serves (血脂TC 5.0，TG 1.4，LDL-C 3.6，HDL-C 1.3mmol/L)."""
    out: list[Claim] = []
    for last in taken:
        group = getattr(analytes.get(last.key), "group", None)
        if not last.unit or group in (None, "vital"):
            continue
        end = last.start
        while end > 0 and text[end - 1] in "，、,；; ":
            cut = end - 1
            start = max(text.rfind(ch, 0, cut) for ch in "，、,；;。\n：:") + 1
            m = _LIST_ITEM.search(text, start, cut)
            if not m:
                break
            found = analytes.analyte_in(m.group("name"), last.unit)
            if not found or not m.group("name").endswith(found[1]) \
                    or getattr(analytes.get(found[0]), "group", None) != group or not analytes.takes(found[0], last.unit):
                break
            name_start = m.start("name") + m.group("name").rfind(found[1])
            out.append(Claim("measurement", name_start, m.end("v"), text[name_start:m.end("v")], key=found[0],
                             value=_num(m.group("v")), value_text=m.group("v"), unit=last.unit,
                             extra={"name": found[1], "value_start": m.start("v"), "cmp": ""}))
            end = name_start
    return out


# a vital sign written without its unit in a terse note (BP 128/76, HR 98, T 36.8, RR 18, SpO2 99): read in
# the unit a vital is charted in, and only inside the range the sign can take (P2亢进 is a heart sound)
_BARE_VITAL = re.compile(r"(?<![\d.\-–~～])(?P<v>\d+(?:\.\d+)?)(?:\s*/\s*(?P<v2>\d+))?"
                         r"(?![\d.]|\s*[A-Za-zμ%℃×/^*°度次级期型\-–~～至])")
_VITAL_UNITS = {"bp": ("mmHg", 50, 260), "heart_rate": ("次/分", 20, 250), "resp_rate": ("次/分", 5, 80),
                "temperature": ("℃", 34, 43), "spo2": ("%", 50, 100)}


def _bare_vitals(text: str, taken: list[Claim]) -> list[Claim]:
    out = []
    for m in _BARE_VITAL.finditer(text):
        if any(c.start <= m.start() < c.end for c in taken):
            continue
        i = m.start()
        while i > 0 and text[i - 1] in " ：:":
            i -= 1
        name, name_start = _name_before(text, m.start())
        found = analyte_of(name) if name and i - (name_start + len(name)) <= 0 else None
        rule = _VITAL_UNITS.get(found[0]) if found else None
        if not found or not rule or not name.endswith(found[1]) or bool(m.group("v2")) != (found[0] == "bp"):
            continue
        unit, low, high = rule
        value = float(m.group("v"))
        if not low <= value <= high:
            continue
        start = name_start + name.rfind(found[1])
        out.append(Claim("measurement", start, m.end(), text[start:m.end()], key=found[0], value=value,
                         value_text=m.group("v"), value2=float(m.group("v2")) if m.group("v2") else None, unit=unit,
                         extra={"name": found[1], "value_start": m.start("v"), "cmp": ""}))
    return out


# a length or a volume with a named subject (精索静脉内径0.36cm, 出血量40ml, 肝右肋缘下4cm); not a
# dimension (8cm×7cm) and not a unit that starts a longer one (mmHg, mmol/L, ml/s)
_SIZE = re.compile(r"(?<![\d.×xX*])(?P<v>\d+(?:\.\d+)?)\s*(?P<unit>cm|mm|mL|ml|L)(?![A-Za-z/²2\d×xX*])")
_VOLUME_NAMES = ("出血量", "尿量", "引流量", "失血量", "出量", "入量")


def _sizes(text: str, taken: list[Claim]) -> list[Claim]:
    """Lengths and volumes under a specific name. They are compared with the record's value under the
    same name and never reported as absent from it (``compare_only``): sizes are too many and too
    freely worded for a missing one to mean an invention."""
    out = []
    for m in _SIZE.finditer(text):
        if re.match(r"\s*[×xX*～~\-–]", text[m.end():m.end() + 2]) or any(c.start <= m.start() < c.end for c in taken):
            continue
        name, name_start = _name_before(text, m.start())
        found = analyte_of(name)
        unit = canonical_unit(m.group("unit"))
        if found:
            key, alias = found
        else:
            bare = re.sub(r"^[\d.]+", "", _strip_lead(name))
            # what is measured, not the test that measured it: CDFI示左侧精索静脉内径 → 左侧精索静脉内径
            bare = re.split(r"提示|显示|示|可见|见", bare)[-1]
            if unit in ("mL", "L") and bare.endswith(_VOLUME_NAMES):
                bare = next(v for v in _VOLUME_NAMES if bare.endswith(v))
            elif re.fullmatch(r"(每次|每日|每天|共计|共|总共|合计|一次|单次)(量)?", bare):
                continue
            elif len(bare) < 2 or bare in _SKIP_NAMES or bare.endswith(tuple(_SKIP_NAMES)) or _QUALIFIERS.match(bare):
                # a generic name (直径, 最大, 深约): what is measured is said around it; a length only
                if unit in ("cm", "mm") and not name.endswith("每"):
                    out.append(_size_claim(text, m.start(), m.end(), [(m.group("v"), unit)]))
                continue
            key = alias = bare
        start = name_start + name.rfind(alias)
        if re.search(r"\d", text[start + len(alias):m.start()]):
            continue  # the name has its own value (体重10-15kg的孩子一次4mL): this one is not its
        context = _size_context(text, m.start(), m.end())
        out.append(Claim("measurement", start, m.end(), text[start:m.end()], key=key, value=float(m.group("v")),
                         value_text=m.group("v"), unit=unit,
                         extra={"name": alias, "value_start": m.start("v"), "cmp": "", "compare_only": True,
                                "context": context, **_size_subject(name, context)}))
    for m in _DIMENSIONS.finditer(text):
        if any(c.start <= m.start() < c.end for c in taken):
            continue
        units = [m.group(g) for g in ("ua", "ub", "uc")]
        if not any(units):
            continue
        last = next(u for u in reversed(units) if u)
        dims = []
        for g, u in zip(("a", "b", "c"), units, strict=True):
            if m.group(g):
                dims.append((m.group(g), canonical_unit(u or last)))
        out.append(_size_claim(text, m.start(), m.end(), dims))
    return out


# a dimension: 6.5cm×5.8cm, 3.5×2.8×3.0cm, 12mm×10mm (a unit on at least one number)
_DIMENSIONS = re.compile(r"(?<![\d.×xX*])(?P<a>\d+(?:\.\d+)?)\s*(?P<ua>cm|mm)?\s*[×xX*]\s*(?P<b>\d+(?:\.\d+)?)\s*(?P<ub>cm|mm)?"
                         r"(?:\s*[×xX*]\s*(?P<c>\d+(?:\.\d+)?)\s*(?P<uc>cm|mm)?)?(?![\d.])")
_SIZE_NOISE = re.compile(r"\d+(?:\.\d+)?\s*(?:cm|mm|mL|ml|L)?|[×xX*～~\-–（）()：:，,。；、\s]|[左右双]侧?|约|大小|直径|"
                         r"示|提示|显示|可见|见|为|达|最大")


# the test that measured a size, before what it measured (超声测阑尾直径, CT测得血肿厚约): not the subject
_MEASURED_BY = re.compile(r"(?:测得|测量|测出|测)(?=[\u4e00-\u9fa5]{2})")


def _size_context(text: str, start: int, end: int) -> str:
    """What a size measures: its clause without numbers, units, sides and size words; the clause
    before too when this one names nothing (胆总管扩张，直径1.5cm)."""
    cs, ce = textlayer.clause_start(text, start), textlayer.clause_end(text, end)
    context = _SIZE_NOISE.sub("", _MEASURED_BY.split(text[cs:start])[-1] + text[start:ce])
    for _ in range(2):  # 肝区肋弓下可触及一肿物，形状规则，大小约3cm×2cm: back to what has a name
        if len(context) >= 6 or cs <= 1 or text[cs - 1] in "。；\n":
            break
        ps = textlayer.clause_start(text, cs - 1)
        context = _SIZE_NOISE.sub("", text[ps:cs - 1]) + context
        cs = ps
    return context


def _size_claim(text: str, start: int, end: int, dims: list[tuple[str, str]]) -> Claim:
    """A size without a name of its own: compared with the record's sizes measuring the same thing."""
    ns = max(textlayer.clause_start(text, start), start - 12)
    context = _size_context(text, start, end)
    return Claim("measurement", ns, end, text[ns:end], key="size", value=float(dims[0][0]), value_text=dims[0][0],
                 unit=dims[0][1], extra={"name": "大小", "value_start": start, "cmp": "", "compare_only": True,
                                          "dims": dims, "context": context,
                                          **_size_subject(_name_before(text, start)[0], context)})


_PART_RX = re.compile("|".join(sorted((re.escape(p) for p in vocab.BODY_PARTS), key=len, reverse=True)))
_SIDE_CHARS = re.compile(r"[左右双两]")


def _size_subject(name: str, context: str) -> dict[str, str]:
    """The sided part a size measures, when the words right before it say (右肾长径48mm → 右, 肾;
    双肾缩小（左8.6cm，右8.4cm）→ 右 and the part its clause names, 肾): ``side`` and ``part``,
    or nothing. Two sizes of the same part on opposite sides are not the same thing."""
    part = _PART_RX.search(name)
    sides = _SIDE_CHARS.findall(name[:part.start()] if part and _SIDE_CHARS.search(name[:part.start()]) else name)
    if not sides:
        return {}
    if part is None:
        part = _PART_RX.search(context)
    if part is None:
        return {}
    side = sides[-1]
    return {"side": _SIDE_WORD.get(side, side), "part": part.group(0)}


_LAST_NUMBER = re.compile(r"\d+(?:\.\d+)?(?!.*\d)")


# a bare number (no unit after it): 酸碱度7.41, 国际标准化比值 1.52, pH7.3
_BARE_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.]|\s*[A-Za-zμ%℃×/^*])")


# a coma scale's total after its parts (GCS=E1V2M4=7分, GCS评分=E4V4～5M6=14～15分): the total is the value
_SCALE_PARTS = re.compile(r"(?P<name>[A-Za-z\u4e00-\u9fa5]{2,12}?)\s*[=＝:：]?\s*[（(]?E\d+(?:[～~\-]\d+)?"
                          r"V(?:\d+|T)(?:[～~\-]\d+)?M\d+(?:[～~\-]\d+)?[）)]?\s*[=＝]\s*(?P<v>\d+)")


def _bare_unitless(text: str) -> list[tuple[str, float, int, int]]:
    """Unitless values under a name the analyte lexicon knows, which the text layer's label list
    may not (酸碱度, 国际标准化比值)."""
    out = []
    for m in _SCALE_PARTS.finditer(text) if "M" in text else ():
        found = analytes.analyte_in(m.group("name"), "")
        if found and analytes.unitless(found[0]):
            start = m.start("name") + found[2]
            out.append((found[1] + " " + m.group("v"), float(m.group("v")), start, m.end()))
    for m in _BARE_NUMBER.finditer(text):
        name, name_start = _name_before(text, m.start())
        found = analytes.analyte_in(name, "") if name else None
        if found and analytes.unitless(found[0]) and name.endswith(found[1]):
            start = name_start + found[2]
            out.append((text[start:m.end()], float(m.group(0)), start, m.end()))
    return out


def _unitless(text: str, taken: list[Claim]) -> list[Claim]:
    """pH, INR, 比重: a value with a label and no unit, as the text layer reads them or under a
    name of the analyte lexicon."""
    out: list[Claim] = []
    for label, value, start, end in [*textlayer.unitless_labs(text), *_bare_unitless(text)]:
        if any(c.start < end and start < c.end for c in out):
            continue
        found = analyte_of(label, "")
        number = _LAST_NUMBER.search(label)
        if not found or not analytes.unitless(found[0]) or not number:
            continue
        if any(c.start < end and start < c.end for c in taken):
            continue
        out.append(Claim("measurement", start, end, text[start:end], key=found[0], value=value,
                         value_text=number.group(0), unit="",
                         extra={"name": found[1], "value_start": start + number.start(), "cmp": ""}))
    return out


# a count per microscope field or a voltage, as a range or one value (RBC 15～20个/HP, WBC >50/HP, ST段压低
# 0.1～0.15mV): units the measurement reader does not take, compared bound by bound with the record's
_FIELD_VALUE = re.compile(r"(?P<cmp>[<>≤≥])?\s*(?<![\d.])(?P<lo>\d+(?:\.\d+)?)(?:\s*[-~～–至]\s*(?P<hi>\d+(?:\.\d+)?))?"
                          r"\s*(?P<unit>个?/HP|个?/LP|mV)(?![A-Za-z])")
_FIELD_NAME = re.compile(r"[A-Za-z\u4e00-\u9fa5][A-Za-z0-9\u4e00-\u9fa5\-]{0,9}(?=\s*$)")


def field_values(text: str) -> list[Claim]:
    """Kind ``range``: key = the analyte, else the words before the value (ST段水平型压低); value and
    value2 the bounds (value2 None for one value), unit without 个."""
    out = []
    for m in _FIELD_VALUE.finditer(text):
        cs = textlayer.clause_start(text, m.start())
        name = _FIELD_NAME.search(text, cs, m.start())
        if not name:
            continue
        found = analytes.analyte_in(name.group(0))
        if found and name.group(0).endswith(found[1]):
            key, start = found[0], name.start() + name.group(0).rfind(found[1])
        else:
            lead = re.match(r"^.*?(?:导联|可见|见|示)", name.group(0))  # V4-V6导联ST段压低: the words after the leads
            rest = name.group(0)[lead.end() if lead else 0:]
            words = re.sub(r"[^\u4e00-\u9fa5A-Za-z]", "", rest)
            if len(words) < 2:
                continue
            key, start = words, name.end() - len(rest)
        hi = m.group("hi")
        out.append(Claim("range", start, m.end(), text[start:m.end()], key=key, value=float(m.group("lo")),
                         value_text=m.group(0).strip(), value2=float(hi) if hi else None,
                         unit=m.group("unit").lstrip("个"), extra={"cmp": m.group("cmp") or "", "value_start": m.start("lo")}))
    return out


# ------------------------------------------------------------------------------- drugs

_DOSE = re.compile(
    r"(?P<v>\d+(?:\.\d+)?)\s*(?P<unit>mg|g|μg|ug|mcg|ml|mL|U|IU|万U|万单位|单位|片|粒|支|毫克|克)(?![A-Za-z/])"
)
_FREQ = re.compile(FREQ_PATTERN, re.I)
_DRUG_NAME = re.compile(r"[\u4e00-\u9fa5A-Za-z]{2,14}$")
_STRONG_ENDINGS = tuple(e for e in vocab.DRUG_ENDINGS if len(e) >= 2)


_ADMIN = ("给予", "予以", "予", "加用", "改用", "使用", "应用")
_CHANGE = re.compile(r"(调整为|改为|加量至|减量至|增至|减至|加至|调至|增加至|减少至|换为)$")
_DRUG_PREFIXES = ("头孢", "阿莫", "左氧", "甲硝", "抗蛇毒", "胰岛素")


def generic_name(name: str) -> str:
    name = name.strip("“”\"'（）() ")
    canon = textlayer.canonical(name)  # brand names map to the generic in the drug lexicon
    if canon != name and textlayer.is_drug(name):
        return canon
    for suffix in ("肠溶片", "缓释片", "控释片", "分散片", "片", "胶囊", "注射液", "颗粒", "钠片", "钠"):
        if canon.endswith(suffix) and len(canon) > len(suffix) + 1:
            canon = textlayer.canonical(canon[: -len(suffix)])
            break
    return canon


def _per_day(freq: str) -> float | str:
    """Times a day, or the abbreviation when there is no fixed count (prn, st): what is compared."""
    abbr, per_day = frequency(freq)
    return abbr if per_day is None else per_day


def drugs(text: str) -> list[Claim]:
    out: list[Claim] = []
    for m in _DOSE.finditer(text):
        head = text[max(0, m.start() - 16):m.start()].rstrip(" ：:“”\"")
        nm = _DRUG_NAME.search(head)
        if not nm:
            continue
        name = nm.group(0)
        route = next((r for r in vocab.ROUTE_CUES if r in name), "")
        if route:
            name = name[name.rfind(route) + len(route):]
        sentence_start = max(text.rfind("。", 0, m.start()), 0)
        if _CHANGE.search(name):
            # 调整为40mg: the dose of the drug named just before in the sentence
            prev = [c for c in out if c.start >= sentence_start]
            if not prev:
                continue
            name = str(prev[-1].extra["name"])
        name = re.sub(r"^(平素|长期|规律|患者|病人|并|每次|每日|一次|自行|不规则|口服|服用|调整|改|换|加|减|停)+", "", name)
        for cue in _ADMIN:
            if cue in name:
                route = route or cue
                name = name[name.rfind(cue) + len(cue):]
        name = _strip_lead(name)
        if len(name) < 2:
            continue
        if not textlayer.is_drug(name):
            # words before the name (建议立即嚼服阿司匹林): the longest tail the lexicon knows as a drug
            known_tail = next((name[i:] for i in range(1, len(name) - 1) if textlayer.is_drug(name[i:])), "")
            if known_tail and "含" not in name[:len(name) - len(known_tail)]:
                name = known_tail
        sentence = text[sentence_start:m.start()]
        tail = text[m.end():textlayer.clause_end(text, m.end()) + 8]
        route = route or next((r for r in (*vocab.ROUTE_CUES, *_ADMIN) if r in sentence or r in tail[:8]), "")
        known = name.endswith(_STRONG_ENDINGS) or name.startswith(_DRUG_PREFIXES)
        if not (known or route or textlayer.is_drug(name)):
            # free words before the name (今日新开阿仑膦酸钠片): the longest tail the lexicon knows as a drug;
            # not after 含 (每1ml含布洛芬20mg states a strength, not a dose given)
            tail_name = next((name[i:] for i in range(len(name) - 1)
                              if textlayer.is_drug(name[i:]) or textlayer.is_drug(generic_name(name[i:]))), "")
            if "含" in name[:len(name) - len(tail_name)]:
                tail_name = ""
            if not tail_name:
                continue
            name = tail_name
        fm = _FREQ.search(tail[:12])
        found = text.rfind(name, max(0, m.start() - 20), m.start())
        start = found if found >= 0 else m.start()
        end = m.end() + (fm.end() if fm else 0)
        out.append(
            Claim(
                "drug", start, end, text[start:end], key=generic_name(name), value=float(m.group("v")),
                value_text=m.group("v"), unit=canonical_unit(m.group("unit")),
                extra={"name": name, "route": route, "freq": _per_day(fm.group(0)) if fm else None},
            )
        )
    return out


# a drug named after a verb of taking or giving it, which the lexicon may not know (口服厄贝沙坦控制血压)
_GIVEN_DRUG = re.compile(r"(?:口服|服用|自服|嚼服|含服|静滴|静推|静注|滴注|肌注|注射|吸入|给予|予以|加用|改用|换用|应用|使用|联用|联合)"
                         r"(?P<name>[\u4e00-\u9fa5A-Za-z]{2,12}?)(?=控制|降压|降糖|止痛|镇痛|退热|治疗|抗感染|抗凝|补铁|预防|等|及|和|与|、|，|。|；|\s|$)")
# a name ending in a dosage form after a lay verb of taking (含了西地碘含片, 吃了布洛芬缓释胶囊, 贴了止痛贴):
# the form says it is a drug even when the lexicon does not know the name
_DOSAGE_FORM = r"(?:含片|泡腾片|缓释片|控释片|肠溶片|咀嚼片|片|缓释胶囊|胶囊|颗粒|冲剂|口服液|糖浆|喷雾剂|气雾剂|滴眼液|滴耳液|滴鼻液|软膏|乳膏|凝胶|栓|贴剂|膏药)"
_TAKEN_FORM = re.compile(r"(?:吃|服|含|喷|贴|抹|擦|涂|滴|塞|用)(?:了|过)(?:点|些|几[片粒]|[一两二三][片粒])?"
                         rf"(?P<name>[\u4e00-\u9fa5A-Za-z]{{2,10}}?{_DOSAGE_FORM})(?=[，。；、,;\s]|后|等|和|及|都|也|$)")
# a name between a verb of giving and a route (已予达那唑口服, 给予甲泼尼龙静滴): a drug even when its
# ending is a single character, the route says so
_GIVEN_BY_ROUTE = re.compile(r"(?:予以|给予|予|加用|改用|换用)(?P<name>[\u4e00-\u9fa5]{2,8}?)"
                             r"(?=口服|静滴|静脉滴注|静推|静注|肌注|肌内注射|皮下注射|雾化吸入|泵入)")
# what a word names when it is a kind of drug, not one drug (降压药, 头孢类抗生素, 非甾体抗炎药, 钙剂)
_DRUG_CLASS = re.compile(r"(?:药|药物|类|剂|制剂|抗生素|抗菌素|激素|中药|中成药|草药|保健品|疫苗)$"
                         r"|^(?:NSAIDs?|ACEI|ARB|ARNI|PPI|CCB|SGLT2i?|DPP-4i?|GLP-1RA|DOAC|NOAC)$", re.I)


def is_drug_class(name: str) -> bool:
    return bool(_DRUG_CLASS.search(name))


# A drug named without a dose is a claim that the patient takes, took or was given it (予头孢曲松抗感染,
# 加用莫西沙星, 口服奥美拉唑护胃, 化疗（吉西他滨+顺铂）, 停用阿司匹林) whatever the verb; 未用X is the same
# claim negated (the text layer's polarity). Not a claim of use: knowledge (X用于Y, 禁用X, 纳洛酮拮抗阿片类),
# an allergy (青霉素过敏, 对头孢类过敏), a susceptibility (对头孢曲松敏感, 氨苄西林耐药), a test of the drug
# (青霉素皮试, 地高辛浓度); advice and plans (建议停用X, 拟予X) are marked by ``_mark_context``.
_NOT_TAKING = re.compile(r"富含|含有|用于|作用|适用|可用|选用|禁用|慎用|常用|首选|用法|用量|为首选|拮抗|解毒|属于|禁止|不要|不宜|避免|勿|忌")
_NOT_USE_AFTER = re.compile(r"[\u4e00-\u9fa5、及和与]{0,3}?(?:过敏|敏感|耐药|中介|皮试|浓度|血药|药敏|不耐受)")
_NOT_USE_IN_CLAUSE = re.compile(r"过敏|敏感|耐药|药敏|皮试")
# the verbs of use, in the drug's clause: taken (口服, 吸入, 吃), given (予, 加用, 静滴, 化疗（…）), changed or
# stopped (改用, 停用), not used (未用, 没吃过); a drug in an explanation has none of them
_USE_BEFORE = re.compile(r"服|吃|喂|吸入|注射|外用|含化|含(?:了|过|着)|贴敷|涂抹|雾化|停用|停药|停掉|自行|予|给予|加用|改用|换用|改为|换为|使用|应用|"
                         # prescribed or given in lay words: 开过X, 开了X, 打了X, 输过X, 挂了X (a drip), 点了X (drops)
                         r"开(?:了|过|的|药)|(?:打|输|挂|点|上|擦|抹)(?:了|过)|"
                         r"联用|联合|静滴|静推|静注|滴注|输注|泵入|肌注|治疗|化疗|方案|"
                         r"(?:未|没|没有|从未|在|已|曾|正|一直|长期|规律)(?:使)?用|用(?:了|过|着)")
_USE_AFTER = re.compile(r"(?:\s*[+＋、和及与/]\s*[\u4e00-\u9fa5A-Za-z]{2,10}?)*\s*(?:口服|吸入|注射|皮下|肌注|含服|嚼服|外用|片|胶囊|缓释|控释|每日|每晚|每周|qd|bid|tid|静滴|静推|"
                        r"静注|滴注|输注|泵入|治疗|抗感染|抗凝|降压|降糖|止痛|镇痛|解痉|护胃|抑酸|退热|退烧|止泻|止吐|止咳|化痰|平喘|通便|无效|有效|后|维持|已停|"
                        r"停用|用了|吃了)", re.I)


def _taking(text: str, cs: int, start: int, end: int, need_verb: bool = True) -> bool:
    """The text says the patient takes, took or was given (or did not take) the drug at ``start:end``;
    ``need_verb=False`` (a record's medication list names drugs bare): only not named otherwise."""
    ce = textlayer.clause_end(text, end)
    if cs > 0 and text[cs - 1] in "（(":
        # a drug in brackets (化疗（吉西他滨+顺铂）, 抗凝（华法林）): the words before the bracket govern it
        cs = textlayer.clause_start(text, cs - 1)
    before, after = text[cs:start], text[end:ce]
    if _NOT_TAKING.search(before) or _NOT_TAKING.match(after.lstrip()):
        return False
    if need_verb and textlayer.prohibition_pattern().search(before):
        return False  # 不能给孩子吃阿司匹林: advice, not a drug the patient did not take
    if _NOT_USE_AFTER.match(after) or _NOT_USE_IN_CLAUSE.search(text, cs, ce):
        return False
    return not need_verb or bool(_USE_BEFORE.search(before) or _USE_AFTER.match(after))


def names_use(text: str, start: int, end: int) -> bool:
    """Whether a record's mention of a drug at ``start:end`` (normalized text) can be its use: not
    knowledge, an allergy, a susceptibility or a drug test (a medication list names drugs bare)."""
    cs = textlayer.clause_start(text, start)
    return _taking(text, cs, start, end, need_verb=False)


def drug_mentions(text: str, taken: list[Claim]) -> list[Claim]:
    """Drugs named without a dose (长期服用地高辛): the lexicon's drug names as the text layer finds
    them, and names after a verb of taking or giving that end like a drug. Kind ``drug`` with no
    value; polarity from the text layer's cues (未服用抗凝药 is absent). Only where the text says the
    patient takes or took it (``_taking``): a drug in an explanation or a plan is not a claim."""
    spans = [(c.start, c.end) for c in taken]
    found: dict[tuple[int, int], tuple[str, str]] = {}
    for norm, surface, start, end in textlayer.drugs(text):
        found[(start, end)] = (norm, surface)
    for m in _GIVEN_DRUG.finditer(text):
        name = m.group("name")
        if name.endswith(_STRONG_ENDINGS) and not any(s < m.end("name") and m.start("name") < e for s, e in found):
            found[(m.start("name"), m.end("name"))] = (generic_name(name), name)
    for m in _TAKEN_FORM.finditer(text):
        if not any(s < m.end("name") and m.start("name") < e for s, e in found):
            found[(m.start("name"), m.end("name"))] = (generic_name(m.group("name")), m.group("name"))
    for m in _GIVEN_BY_ROUTE.finditer(text):
        name = m.group("name")
        if name.endswith(vocab.DRUG_ENDINGS) and not any(s < m.end("name") and m.start("name") < e for s, e in found):
            found[(m.start("name"), m.end("name"))] = (generic_name(name), name)
    out = []
    ctx = textlayer.context(text) if found else None
    for (start, end), (norm, surface) in sorted(found.items()):
        if any(s < end and start < e for s, e in spans):
            continue  # a dose claim or a lab value (胰岛素22.06mU/L) covers it already
        if _DOSE.match(text, end) or MEASURE.match(text, end) or re.match(r"\s*[\d.]+\s*(?:mU|U/|ng|pg|nmol|mmol|μmol)", text[end:end + 12]):
            continue
        cs = textlayer.clause_start(text, start)
        if not _taking(text, cs, start, end):
            continue
        polarity, owner = textlayer.polarity_at(ctx, start, end)
        key = generic_name(surface) if not is_drug_class(surface) else surface
        out.append(Claim("drug", start, end, surface, key=key or norm, polarity=polarity, owner=owner,
                         extra={"name": surface, "no_dose": True, "class": is_drug_class(surface)}))
    return out


# ------------------------------------------------------------------------ demographics

_SEX = re.compile(
    r"(?:(?:患者|病人|患儿|病儿)[，,、\s]*(?:为|系)?\s*(?P<a>男|女)(?!方|友))"
    r"|(?:(?P<b>男|女)(?:性)?(?:病人|病儿|患儿|患者)?\s*[，,、/\s]\s*(?:\d+(?:\.\d+)?\s*(?:岁|个月|月|天|周|y)))"
    r"|(?:\d+\s*岁[，,、\s]*(?:的)?(?:青年|老年|中年)?(?P<c>男|女)性)"
    r"|(?:(?P<d>男|女)性(?:患者|病人|病儿|患儿))"
    r"|(?:^|[，。\n：:])\s*(?P<e>男|女)\s*(?=[，,])"
    r"|(?:性别[：:]\s*(?P<f>男|女))"
    r"|(?:(?P<g>男|女)(?:婴|童|孩|性患儿|性婴儿)(?:儿)?(?![科装]))"
)
_AGE = re.compile(
    r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>岁|y(?![a-z])|个月|月龄|月|天|周)(?![前内来时起余后])"
    # an age at a life event (50岁绝经, 13岁初潮, 25岁结婚, 40岁确诊糖尿病) is not the patient's age now
    r"(?!\s*(?:绝经|停经|初潮|月经初潮|来月经|结婚|婚|生育|分娩|确诊|诊断|发病|起病|患病|患有?|开始|出现|行|曾))"
)


# an age after a life event (初潮13岁, 绝经年龄50岁) or before / after a relative (10岁女儿, 有1子（5岁）)
_EVENT_AGE_BEFORE = re.compile(r"(?:初潮|绝经|结婚|婚龄|生育|分娩|停经)(?:年龄|时)?(?:于|为|是|在|：|:)?\s*$")
_RELATIVES = r"(?:儿子|女儿|子女|孙子|孙女|外孙|弟弟|妹妹|哥哥|姐姐|丈夫|妻子|配偶|爱人|之子|之女|[长次幼]子|[长次幼]女)"
_RELATIVE_AGE = re.compile(r"\s*(?:的)?" + _RELATIVES)
_RELATIVE_BRACKET = re.compile(r"(?:" + _RELATIVES + r"|[一二两三四1-9]\s*[子女]|[子女]儿?)\s*[（(]\s*$")


def _sentence_start_nl(text: str, pos: int) -> int:
    return max(text.rfind("。", 0, pos), text.rfind("\n", 0, pos), 0)


def demographics(text: str) -> list[Claim]:
    out = []
    for m in _SEX.finditer(text):
        group = next(g for g in "abcdefg" if m.group(g))
        start = m.start(group)
        if textlayer.family_before(text, _sentence_start_nl(text, start), start):
            continue
        out.append(Claim("sex", start, start + 1, text[start:start + 1], key="sex", value_text=m.group(group)))
    for m in _AGE.finditer(text):
        unit = "岁" if m.group("unit") == "y" else m.group("unit")
        before = text[max(0, m.start() - 8):m.start()]
        if unit != "岁" and not re.search(r"(男|女|性|患儿|病儿|婴|男童|女童|男孩|女孩|出生)[，,、/\s]*$", before):
            continue  # 3个月 is an age only right after the sex; otherwise a duration
        if unit == "岁" and re.search(r"(于|在|自|从)\s*$", before):
            continue
        if re.search(r"(?:[>＜<≥≤\-–~～至]|未满|不满|年满|满|超过|小于|大于|低于|高于|不到)\s*$", before):
            continue  # a threshold or a range (>65岁, 3–17岁, 未满18岁都不让用), not the patient's age
        if textlayer.family_before(text, _sentence_start_nl(text, m.start()), m.start()):
            continue
        if _EVENT_AGE_BEFORE.search(before) or _RELATIVE_AGE.match(text, m.end()) or _RELATIVE_BRACKET.search(before):
            continue  # 初潮13岁, 与丈夫及10岁女儿同住, 有1子（5岁）: another person's age or an age at an event
        years = float(m.group("n")) * {"岁": 1, "个月": 1 / 12, "月龄": 1 / 12, "月": 1 / 12, "天": 1 / 365,
                                       "周": 7 / 365}[unit]
        out.append(Claim("age", m.start(), m.end(), m.group(0), key="age", value=years, value_text=m.group("n"),
                         unit=unit))
    return out


# -------------------------------------------------------------------------- laterality

_PARTS = "|".join(sorted((re.escape(p) for p in vocab.BODY_PARTS), key=len, reverse=True))
# an ordinal may stand between the side and the part (右足第一跖趾关节, 左第5肋)
_SIDE = re.compile(rf"(?<![左右双两])(?P<side>左|右|双|两)(?:侧)?(?:[、和及]\s*[左右]侧?)?"
                   rf"(?:[手足]?第[一二三四五六七八九十\d]{{1,2}})?(?P<part>{_PARTS})")
# the side after the organ: 颈左后部, 肝右叶, 胸骨左缘, 肺右下叶, 伸舌右偏
_SIDE_AFTER = re.compile(rf"(?P<part>胸骨|{_PARTS})(?P<side>左|右)(?:侧)?(?=[前后上下内外中缘叶部侧顶底壁极偏移])")
# a lung with its zone or lobe: 右下肺, 双肺中下野, 右肺下叶, 左肺上叶舌段, 肺右下叶
_LUNG = re.compile(r"(?<![左右双两])(?P<side>左|右|双|两)(?:侧)?(?P<zone>上|中下|中|下)?肺(?:(?P<lobe>上|中下|中|下)(?:叶|野))?"
                   r"|肺(?P<side2>左|右)(?P<lobe2>上|中|下)叶")
_SIDE_WORD = {"两": "双"}
# the side a finding is worse on: 下腹压痛、反跳痛，以左侧为重; 斑片影，右下肺为著 reads through _LUNG
_PREDOMINANT = re.compile(r"以(?P<side>左|右)侧?(?:为|更)?(?:重|著|主|甚|明显)")


# the segment of a sided organ named right after it: 下极, 上段, 后叶, 前壁 (direction words only are compared)
_SEGMENT = re.compile(r"侧?(?P<dir>[上中下前后]{1,2})(?:叶|段|极|壁|份|1/3|三分之一)")


def _side_context(text: str, start: int, end: int) -> str:
    """The clause around a side mention with every side word removed: what the side qualifies."""
    cs, ce = textlayer.clause_start(text, start), textlayer.clause_end(text, end)
    return re.sub(r"[左右双]侧?", "", text[cs:ce])


def laterality(text: str) -> list[Claim]:
    """Sides attached to body parts; a lung's side carries its zone or lobe (``zone``: 上/中/下), so
    右肺上叶 and 右肺下叶 differ and 右下肺 reads as 右肺下叶."""
    out = []
    for m in _LUNG.finditer(text):
        side = m.group("side") or m.group("side2")
        zone = m.group("lobe") or m.group("lobe2") or m.group("zone") or ""
        out.append(Claim("laterality", m.start(), m.end(), m.group(0), key="肺", side=_SIDE_WORD.get(side, side),
                         extra={"context": _side_context(text, m.start(), m.end()), "zone": zone}))
    for m in _PREDOMINANT.finditer(text):
        # what is worse on that side is named in the clause before: keep it as the context
        cs = textlayer.clause_start(text, m.start())
        before = text[textlayer.clause_start(text, cs - 1):cs] if cs > 0 else ""
        context = re.sub(r"[左右双]侧?", "", before + text[cs:m.start()])
        out.append(Claim("laterality", m.start(), m.end(), m.group(0), key="以侧为重", side=m.group("side"),
                         extra={"context": context}))
    for m in _SHIFT.finditer(text):
        if any(c.start < m.end() and m.start() < c.end for c in out):
            continue
        extra = {"context": _side_context(text, m.start(), m.end())}
        if m.group("zone"):
            extra["zone"] = m.group("zone")  # 心界向左下扩大
        out.append(Claim("laterality", m.start(), m.end(), m.group(0), key=m.group("part") + "偏向",
                         side=m.group("side"), extra=extra))
    for m in _TURN.finditer(text):
        out.append(Claim("laterality", m.start(), m.end(), m.group(0), key=m.group("move") or m.group("move2"),
                         side=m.group("side") or m.group("side2"),
                         extra={"context": _side_context(text, m.start(), m.end()), "movement": True}))
    lungs = [(c.start, c.end) for c in out if c.key == "肺"]
    shifts = [(c.start, c.end) for c in out if c.key.endswith("偏向")]
    for rx in (_SIDE, _SIDE_AFTER):
        for m in rx.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in shifts):
                continue  # 气管右偏 is the trachea's direction, read above
            if text[m.end("side"):m.end("side") + 1] in ("右", "左"):
                continue  # 左右 is not a side
            if text[m.start("side") - 1:m.start("side")] in ("左", "右"):
                continue
            if m.group("part") == "肺" and any(s <= m.start("part") < e for s, e in lungs):
                continue
            side = m.group("side")
            zone = _SEGMENT.match(text, m.end())
            extra = {"context": _side_context(text, m.start(), m.end())}
            if zone:
                extra["zone"] = zone.group("dir")  # 右肾下极, 左输尿管上段, 肝右后叶: the part of the organ
            out.append(Claim("laterality", m.start(), m.end(), m.group(0), key=m.group("part"),
                             side=_SIDE_WORD.get(side, side), extra=extra))
    return out


# the direction of a movement or a position that brings a symptom on (向右翻身时眩晕, 左侧卧位时加重):
# compared only with the same movement's direction in the record
_TURN = re.compile(r"(?:向|朝)(?P<side>左|右)侧?(?P<move>翻身|转头|扭头|转颈|转身|侧卧|侧身|倾倒|歪倒)"
                   r"|(?<![左右双两])(?P<side2>左|右)侧?(?P<move2>侧卧)")
# a midline structure pushed, or a border enlarged, toward a side (中线左移, 纵隔向右侧移位, 气管右偏, 心界向左下
# 扩大): the side is a direction, compared only with the same structure's direction in the record
_SHIFT = re.compile(r"(?P<part>中线结构|中线|纵隔|气管|心界|心浊音界|心尖搏动|悬雍垂|脊柱)(?:明显|稍|轻度|略)?(?:向|偏向|移向|偏)?"
                    r"(?P<side>左|右)(?:侧)?(?P<zone>下|上)?(?:方)?(?:移位|偏移|移|偏斜|偏|扩大|扩|凸|侧凸|侧弯)")


# --------------------------------------------------------------------------- durations

_KEY_NOISE = re.compile(r"主诉|现病史|病史|既往|在外院|外院|患者|病人|患儿|出现|开始|发现|近|前|来|于|余|约|反复|自|因|曾|记录示|[\s“”\"'、]")


_KEY_NUMBERS = re.compile(r"(?<![A-Za-z])\d+(?:\.\d+)?\s*[A-Za-zμ/%^×]*")  # not the 2 of T2DM


_KEY_CONDITION = re.compile(r"^.*(?:(?<!小)时|之后|以后)")


def clause_key(clause: str) -> str:
    """What a duration qualifies, without durations, quantities (约600ml) and filler words."""
    return _KEY_NOISE.sub("", _KEY_NUMBERS.sub("", DURATION.sub("", clause)))


def _is_duration(text: str, m: re.Match[str]) -> bool:
    # not a duration of this illness: 20支/日, 1～2包/天, dates (2016年7月), thresholds (晨僵>1小时,
    # 病程超过6周), ranges (3–7天), windows ahead (停药后1个月内)
    before, after = text[max(0, m.start() - 2):m.start()], text[m.end():m.end() + 2]
    wider = text[max(0, m.start() - 3):m.start()]
    if before[-1:] in ("/", "-", "–", "~", "～", ">", "<", "≥", "≤") or before.endswith(("超过", "大于", "小于", "不足")) \
            or wider.endswith(("至少", "最少", "不少于", "不超过", "最多", "最长", "满")):
        return False  # a threshold or a required course (巩固治疗至少3年), not how long the illness has lasted
    if re.match(r"\s*[\u4e00-\u9fa5]{1,4}?(?:约|为)?\s*\d", text[m.end():m.end() + 8]) and text[m.end():m.end() + 1] not in "前后余多":
        return False  # a collection window of a measurement: 12小时尿量约200ml, 24小时尿蛋白6.8g
    if after.startswith(("内", "以内", "以上", "以下")):
        return False
    return not re.match(r"\d{4}", m.group("n"))


def durations(text: str) -> list[Claim]:
    """Each duration keyed by the words it qualifies: the stretch of its clause since the previous
    duration (上腹痛1个月，加重3天 → 上腹痛 / 加重), else what follows it (3年前出现咳嗽 → 咳嗽)."""
    found = [m for m in DURATION.finditer(text) if _is_duration(text, m)]
    out = []
    for i, m in enumerate(found):
        days = duration_days(m.group("n"), m.group("unit"))
        if days is None:
            continue
        cs, ce = textlayer.clause_start(text, m.start()), textlayer.clause_end(text, m.end())
        if 0 < cs and text[cs - 1] in "）)" and not text[cs:m.start()].strip():
            # 抗结核治疗（含利福平）1月余: the bracket is an aside, the duration qualifies the words before it
            opened = max(text.rfind("（", 0, cs - 1), text.rfind("(", 0, cs - 1))
            if opened > 0:
                cs = textlayer.clause_start(text, opened)
        prev_end = max([p.end() for p in found[:i] if p.end() > cs] + [cs])
        nxt = min([p.start() for p in found[i + 1:] if p.start() < ce] + [ce])
        lead = text[prev_end:m.start()]
        cond = _KEY_CONDITION.search(lead)
        if cond:
            lead = lead[cond.end():]  # 呕吐时停10分钟 / 服药后30分钟: the duration qualifies what follows the condition
        before, after = clause_key(re.sub(r"[（(][^）)]*[）)]", "", lead)), clause_key(text[m.end():nxt])
        # what follows is the key only when nothing precedes (3年前出现咳嗽), not 停经7周、突发腹痛
        keys = [k for k in ((before, after) if len(before) >= 2 else (after,)) if len(k) >= 2]
        key = keys[0] if keys else ""
        if len(key) < 2 and cs > 1:
            # a bare "3天" clause qualifies the one before it: 腹痛，3天
            key = clause_key(text[textlayer.clause_start(text, cs - 1):cs - 1])
        if len(key) < 2:
            continue
        approx = bool(m.group("more") or m.group("more2"))
        out.append(Claim("duration", m.start(), m.end(), m.group(0), key=key, value=days, value_text=m.group("n"),
                         unit=m.group("unit"), extra={"approx": approx, "clause": (cs, ce), "keys": keys or [key]}))
    return out


# ---------------------------------------------------------------------------- findings

_ORGANISM = re.compile(
    r"(?:培养|涂片|检出|查见|镜检|PCR|抗原|核酸)[^。；，\n]{0,6}?(?:回报|报告|结果为?|示|提示|(?:同样|亦|也|均)?为|检出|见|阳性[：:]?)?"
    r"(?P<org>[\u4e00-\u9fa5]{2,10}?(?:菌|病毒|支原体|衣原体|螺旋体|原虫))"
)


# the specimen a culture or smear was taken from, in the words before it (穿刺脓液培养, 血培养, 痰涂片), by one name
_SPECIMEN = re.compile(r"(?P<s>脑脊液|胸腔积液|腹腔积液|胸水|腹水|关节液|疱液|胆汁|引流液|分泌物|咽拭子|骨髓|脓液|脓|痰|尿|血|粪便|粪|便)"
                       r"[^，。；,;\n血痰尿脓便]{0,4}$")
_SPECIMEN_NAME = {"胸腔积液": "胸水", "腹腔积液": "腹水", "脓": "脓液", "粪": "粪便", "便": "粪便"}


def _specimen(text: str, pos: int) -> str:
    m = _SPECIMEN.search(text, max(0, pos - 8), pos)
    return _SPECIMEN_NAME.get(m.group("s"), m.group("s")) if m else ""


def organisms(text: str) -> list[Claim]:
    """Culture and detection results (血培养示金黄色葡萄球菌): a result the record must contain; extra
    ``specimen``: what was cultured (血, 痰, 脓液), where the words say."""
    out = []
    for m in _ORGANISM.finditer(text):
        # the organism's name starts after the verb the lazy match may have kept (两套均为肺炎克雷伯菌)
        lead = re.match(r"[^为是出见示]*[为是出见示]", m.group("org"))
        start = m.start("org") + (lead.end() if lead and len(m.group("org")) - lead.end() >= 3 else 0)
        org = text[start:m.end("org")]
        polarity, owner = textlayer.polarity_at(textlayer.context(text), start, m.end("org"))
        out.append(Claim("finding", start, m.end("org"), org, key=org, polarity=polarity, owner=owner,
                         extra={"type": "organism", "specimen": _specimen(text, m.start())}))
    return out


# between a test's name and its result: what the name targets in brackets (血小板相关抗体（GPⅡb/Ⅲa）阳性) or
# the word for testing or its method (HEV RNA检测阳性, VZV-DNA PCR阳性)
_RESULT_ASIDE = r"(?:[（(][^（()）阳阴+＋\-－]{1,16}[)）])?(?:\s?(?:PCR|qPCR|测序)\s?)?(?:检测|检查|测定)?"
_EXAM_RESULT = re.compile(
    _RESULT_ASIDE + r"\s*[:：]?\s*(?:[\d.]+\s*(?:度|°)\s*)?(?:呈|为|示|结果为?|结果示)?\s*"  # 尿妊娠试验：阴性
    r"(?P<r>强阳性|弱阳性|阳性|阴性|[（(]\s*[+＋]\s*[)）]|[（(]\s*[-－]\s*[)）])"
)


_LIST_RESULT = re.compile(r"(?:\s*[、和及与]\s*[^、和及与，,。；;\n：:]{1,12}?)+\s*(?:均|都|皆)?" + _EXAM_RESULT.pattern)
_TEST_BY_FORM = re.compile(r"(?P<name>(?<![\u4e00-\u9fa5A-Za-z])[\u4e00-\u9fa5A-Za-z0-9\-]{1,10}?\s?(?:抗体|抗原|试验|核酸|DNA|RNA|IgM|IgG))"
                           r"(?=" + _RESULT_ASIDE + r"\s*[:：]?\s*(?:呈|为|示)?\s*(?:强阳性|弱阳性|阳性|阴性|[（(]\s*[+＋-－]\s*[)）]))")


def _result_match(text: str, end: int) -> re.Match[str] | None:
    # the result given once after a list of tests (ANA、抗dsDNA、抗心磷脂抗体阴性 / 均阴性) is each one's
    return _EXAM_RESULT.match(text, end) or _LIST_RESULT.match(text, end)


def _result_polarity(m: re.Match[str]) -> str:
    return "absent" if ("阴" in m.group("r") or "-" in m.group("r") or "－" in m.group("r")) else "present"


def result_after(text: str, end: int) -> str | None:
    """The polarity of a qualitative result written right after a test's name ending at ``end``
    (阳性 → present, 阴性 → absent, also after a list of tests), or None."""
    m = _result_match(text, end)
    return _result_polarity(m) if m else None


# a test's result written as a direction (甲状腺摄碘率明显升高, 眼压增高): the test was done, which the record
# must show; only for tests that are neither an analyte (血沉增快 may stand for a recorded ESR value), a
# panel (肝功能异常 for recorded ALT) nor an imaging study (read by ``exam_results``)
_DIRECTION = re.compile(r"\s*(?:明显|显著|轻度|稍|略|均)?(?:升高|增高|降低|减低|下降|增快|减慢|延长|缩短|异常)")


def _directed_result(text: str, surface: str, end: int) -> re.Match[str] | None:
    if analytes.analyte_in(surface) or analytes.panel_groups(surface) or re.search(_MODALITY, surface):
        return None
    return _DIRECTION.match(text, end)


def qualitative_results(text: str) -> list[Claim]:
    """A test with its qualitative result (Coombs试验阳性, 便潜血(+)): a result the record must hold.
    阳性 is a present finding, 阴性 an absent one, keyed by the test's canonical name."""
    out = []
    named = textlayer.exams(text)
    # a test the lexicon does not list, named by what it detects (抗血小板抗体阳性, 冷凝集试验阴性); it
    # replaces a shorter test name inside it (血小板 in 抗血小板抗体)
    forms = [(m.group("name"), m.group("name"), m.start("name"), m.end("name")) for m in _TEST_BY_FORM.finditer(text)
             if not any(s <= m.start() and m.end() <= e for _, _, s, e in named)]
    named = [n for n in named if not any(s <= n[2] and n[3] <= e for _, _, s, e in forms)] + forms
    for norm, surface, start, end in named:
        m = _result_match(text, end)
        if not m:
            m = _directed_result(text, surface, end)
            if m:
                out.append(Claim("finding", start, m.end(), text[start:m.end()], key=norm, polarity="present",
                                 extra={"type": "exam_result", "name": surface}))
            continue
        polarity = _result_polarity(m)
        out.append(Claim("finding", start, m.end(), text[start:m.end()], key=norm, polarity=polarity,
                         extra={"type": "exam_result", "name": surface}))
    return out


# an analyte stated as raised or lowered with no value (肌钙蛋白I明显升高, 血钾降低): the test was done,
# which the record must show by a value or the analyte's name; vital signs are read as findings
_ANALYTE_DIRECTION = re.compile(r"(?:明显|显著|轻度|稍|略|进行性|持续)?(?:升高|增高|降低|减低|下降)")
_VALUE_NEXT = re.compile(r"\s*(?:至|到|达|为|约)*\s*\d")


def analyte_directions(text: str) -> list[Claim]:
    """Analytes written with a direction and no value: kind ``finding``, type ``analyte_direction``."""
    out = []
    for m in _ANALYTE_DIRECTION.finditer(text):
        if _VALUE_NEXT.match(text, m.end()):
            continue  # 肌钙蛋白升高至2.3ng/mL: the value is the claim
        run = text[max(0, m.start() - 16):m.start()]
        found = analytes.analyte_in(run)
        if not found or len(run) - found[2] != len(found[1]):
            continue  # the name must end where the direction starts
        a = analytes.get(found[0])
        if a is None or a.group == "vital":
            continue
        start = m.start() - len(found[1])
        if start > 0 and re.match(r"[A-Za-z0-9/.%μ^×·\-]", text[start - 1]):
            continue  # the L of 168U/L升高: a unit's letter, the direction is the value's
        polarity, owner = textlayer.polarity_at(textlayer.context(text), start, m.end())
        out.append(Claim("finding", start, m.end(), text[start:m.end()], key=found[0], polarity=polarity, owner=owner,
                         extra={"type": "analyte_direction", "name": found[1]}))
    return out


def _mark_diagnosis(claim: Claim, text: str, prefix: str, cs: int, ce: int) -> None:
    """A disease the writer states as this patient's diagnosis (诊断：X, 初步诊断为X, 考虑X, X可能性大) is
    a ``diagnosis`` claim, checked against the record's diagnosis list; one named as a differential
    (需与X鉴别, 排除X, X待排, 不除外X, X？) or in any other diagnostic wording stays an ``opinion``."""
    after = text[claim.end:ce]
    # the differential cue may come before the disease in the sentence (鉴别诊断：X) or after it in its
    # clause (需与X相鉴别, X待排); a question mark only where a diagnosis is being stated (诊断：X？)
    differential = [c for c in vocab.DIFFERENTIAL_CUES if c in prefix or c in text[cs:ce]]
    if any(c not in "？?" for c in differential):
        claim.opinion = True
        return
    stated = vocab.DIAGNOSIS_STATEMENT.search(prefix) or vocab.DIAGNOSIS_LIKELY.match(after)
    if not stated and not any(c in prefix for c in vocab.DIAGNOSIS_CUES):
        return
    if stated and not differential and claim.polarity in ("present", "uncertain") and claim.owner == "patient":
        claim.diagnosis = True
    else:
        claim.opinion = True


# a family member who acts for the patient is not the owner of what is found: 其母替其洗澡时发现包块
_FAMILY_ACTS_FOR = re.compile(r"(?:母亲|父亲|其母|其父|家属|家人|妈妈|爸爸|奶奶|爷爷|外婆|外公|姥姥)"
                              r"(?:替|给|帮|为|陪|带)(?:他|她|其|患儿|孩子|病人|患者)")
# an item of a list that a verb of its own affirms: 无腹泻、偶有恶心 (恶心 is present)
_AFFIRM_ITEM = re.compile(r"(?:偶有|偶感|偶尔|时有|伴有|伴|有|出现|可见|自觉|感到|感觉)")
# 否认高血压，糖尿病史: a bare list of names closed by 史 continues the denial of the clause before
_BARE_HISTORY = re.compile(r"[\u4e00-\u9fa5、及和]+史")


def _polarity_owner(text: str, f: textlayer.FindingMention, cs: int, ce: int) -> tuple[str, str]:
    """The text layer's polarity and owner, corrected where a list or a family word misleads it."""
    polarity, owner = f.polarity, f.owner  # a list closed by 家族史 is the text layer's to read
    if owner == "family" and _FAMILY_ACTS_FOR.search(text, cs, f.start):
        owner = "patient"
    if polarity == "absent":
        item = max(text.rfind("、", cs, f.start) + 1, cs)
        if item > cs and _AFFIRM_ITEM.match(text, item) and not textlayer.context(text).negation_cues(item, f.start):
            polarity = "present"
    elif polarity == "present" and f.kind == "disease" and cs > 1 and text[cs - 1] in "，," \
            and _BARE_HISTORY.fullmatch(text, cs, ce) and not re.match(r"有|患|曾|既往|伴", text[cs:ce]):
        prev = text[textlayer.clause_start(text, cs - 1):cs - 1]
        if re.match(r"(否认|无)", prev) and "史" not in prev:
            polarity = "absent"
    return polarity, owner


# the last side word in the clause before a finding, with no other part named between:
# 右侧少量胸腔积液, 左侧腘静脉及小腿肌间静脉血栓形成
_SIDE_IN_CLAUSE = re.compile(r"(左|右|双|两)侧?(?!.*[左右双两])")


def _side_before(text: str, cs: int, start: int) -> str:
    """A side the text layer did not attach: a 左侧/右侧/双侧 earlier in the finding's clause."""
    m = _SIDE_IN_CLAUSE.search(text, max(cs, start - 10), start)
    if not m or text[m.end():m.end() + 1] in "较比" or re.search(r"[较比于]", text[m.end():start]):
        return ""  # 左小腿较右侧略肿胀: a comparison, not the finding's side
    return _SIDE_WORD.get(m.group(1), m.group(1))


def findings(text: str) -> list[Claim]:
    out = organisms(text) + qualitative_results(text) + analyte_directions(text)
    for f in textlayer.findings(text):
        if f.text.startswith(("高", "低")) and text[f.start - 1:f.start] == "最":
            continue  # 最高血压238/137mmHg is a value, not 高血压
        if f.text.endswith(("饮", "喝")) and text[f.end:f.end + 1] == "水":
            continue  # 多饮水, 多喝水: an instruction to drink, not the symptom 多饮
        cs, ce = textlayer.clause_start(text, f.start), textlayer.clause_end(text, f.end)
        sentence = text[_sentence_start(text, f.start):ce]
        polarity, owner = _polarity_owner(text, f, cs, ce)
        claim = Claim("finding", f.start, f.end, f.text, key=f.norm, polarity=polarity, owner=owner,
                      side=f.side or _side_before(text, cs, f.start),
                      extra={"type": f.kind, "clause_text": text[cs:ce], "sentence": sentence})
        prefix = text[_sentence_start_nl(text, f.start):f.start]
        if f.kind == "disease":
            _mark_diagnosis(claim, text, prefix, cs, ce)
        out.append(claim)
    return out


# imaging, endoscopy, pathology and tracing results (胸部CT示右肺下叶实变影, 头颅MRI未见异常): the
# record must hold the examination, and what it showed
_MODALITY = (r"PET-CT|CDFI|多普勒|CTPA|CTA|CTU|CT|MRCP|MRA|MRI|MR|磁共振|核磁|DSA|ECT|B超|彩超|超声心动图|心超|超声|X线|X光|胸片|平片|"
             r"正斜片|正侧位片|正位片|侧位片|斜位片|DR|"
             r"造影|胃镜|肠镜|结肠镜|支气管镜|膀胱镜|宫腔镜|腹腔镜|喉镜|鼻咽镜|鼻内镜|鼻窦镜|耳内镜|阴道镜|裂隙灯|KUB|内镜|心电图|动态心电图|脑电图|肌电图|活检|病理|骨髓穿刺|"
             r"骨髓涂片|骨穿|骨密度|眼底检查|眼底|钼靶|免疫组化|免疫组织化学|"
             # sampling, catheter, pressure and nuclear studies report a result too (肾上腺静脉采血提示…)
             r"静脉采血|静脉取血|AVS|IPSS|心导管|测压|显像")
EXAM_MENTION = re.compile(rf"(?P<region>[\u4e00-\u9fa5]{{0,6}}?)(?<![A-Za-z])(?P<mod>{_MODALITY})(?P<qual>[+＋]?(?:平扫|增强|三维重建|检查|扫描|平片|片|报告))*")
# what introduces the result: 示/提示/见… (also after a comma: 行胃镜检查，见胃窦溃疡), a colon, or a normal
# or negative result written straight after the name (心电图正常, 头颅CT无异常, 胸片未见异常)
# where the examination found it may come before the cue (KUB平片于左输尿管走行区见结石影)
_RESULT_CUE = re.compile(r"\s*(?:[，,]\s*)?(?:于[\u4e00-\u9fa5A-Za-z0-9]{1,12}?(?=可见|见))?(?:结果)?(?:示|提示|显示|可见|见|报告|回报|发现|表现为|证实|证明|确诊|明确为?)|\s*[：:]"
                         r"|\s*(?=未见|无明显|未发现|无异常|无特殊|大致正常|基本正常|正常|阴性)")
_NEXT_EXAM = re.compile(rf"[，,；;]\s*[\u4e00-\u9fa5]{{0,6}}?(?:{_MODALITY})(?:平扫|增强|检查)*\s*(?:示|提示|显示|可见|见|：|:)")
_REGION_NOISE = re.compile(r"^(?:.*?(?:行|查|做|复查|急诊|床边|床旁|入院|外院|当地|我院|本院|再次|进一步|完善))")


def exam_phrase(m: re.Match[str]) -> tuple[str, str]:
    """(region, modality) of an examination mention, without the verbs before it (复查胸部CT → 胸部, CT)."""
    region = _REGION_NOISE.sub("", m.group("region"))
    region = re.split(r"[及和与、或]", region)[-1]  # 超声及CT: the CT has no region of its own
    return region, m.group("mod")


# a clause after the finding that gives the writer's reading or what was done (…伴粪石，考虑急性阑尾炎;
# 胸片未见异常，已予阿莫西林口服): not what the examination showed
_CONTENT_STOP = re.compile(r"[，,](?=\s*(?:考虑|诊断|初步诊断|拟诊|符合|结合|遂|已予|予以|给予|予|已行|收入|收住|转入))")


def exam_results(text: str) -> list[Claim]:
    """An examination with what it showed. Kind ``result``: key = modality, extra region and the
    content (to the end of the sentence)."""
    out = []
    for m in EXAM_MENTION.finditer(text):
        cue = _RESULT_CUE.match(text, m.end())
        if not cue:
            continue
        region, mod = exam_phrase(m)
        end = len(text)
        for stop in "。；;\n":
            pos = text.find(stop, cue.end())
            if pos >= 0:
                end = min(end, pos)
        opinion = _CONTENT_STOP.search(text, cue.end(), end)
        end = opinion.start() if opinion else end
        later = _NEXT_EXAM.search(text, cue.end(), end)  # 超声示…，钼靶示…: each its own result
        content = text[cue.end():later.start() if later else end].strip(" ，,")
        content = re.sub(r"[（(][^）)]*[）)]", "", content)  # a bracketed aside is the writer's comment
        if len(re.sub(r"[^\u4e00-\u9fa5]", "", content)) < 2:
            continue
        start = m.start() + len(m.group("region")) - len(region)
        out.append(Claim("result", start, end, text[start:end], key=mod,
                         extra={"region": region, "content": content, "exam": text[start:m.end()]}))
    return out


# ----------------------------------------------------------------------------- all

_CONDITIONAL = re.compile(r"(^|[，。；：、,\s（(·•\-])(如|若|假如|倘若|要是|万一|一旦)(?!何|下|实|期|今|此|前所述)")


# what an instruction tells the patient to do when a sign appears, later in the sign's sentence:
# an urging word (请, 应, 马上, 赶紧, 及时 ...) then going for care within a few characters (请到儿科就诊,
# 应停药就诊, 马上打120, 带孩子回来复诊), or a fixed phrase (即诊, 随诊, 拨打120). Not 因胸痛来我院就诊,
# which reports why the patient came: the urging word is required.
_URGE = r"(?:请|先|应|应当|应该|要|需|须|务必|马上|立即|立刻|赶紧|赶快|尽快|尽早|及时|直接|随时|就|再(?!次)|可以|可(?!能))"
_CARE = (r"(?:就诊|就医|看医生|看病|看急诊|急诊|复诊|门诊|来院|到院|回院|来医院|去医院|到医院|回医院|上医院|回来|"
         r"来看|来复查|打120|拨打120|叫120|呼叫120|停药|问[\u4e00-\u9fa5]{0,4}医生|咨询医生|告诉(?:医生|大夫|我们)|"
         # 去产科看, 到皮肤科复诊, 上医院急诊: going to a named department or place
         r"(?:去|到|上|来|回)[\u4e00-\u9fa5]{0,5}?(?:科|门诊|医院|急诊|诊所))")
_SEEK_CARE_RX = re.compile(rf"{_URGE}[\u4e00-\u9fa5]{{0,6}}?{_CARE}|即诊|随诊|速诊|拨打120|回来复诊|回来看|来医院看")
# 出现急性尿潴留就医: a sign introduced by 出现 and going for care later in its sentence, no urging word needed
# (not 出现胸痛，遂来我院就诊: the care must follow the signs at once, as an instruction's does)
_APPEARS = re.compile(r"(?:出现|发生)[^。；;，,]{0,24}$")
_CARE_AT_ONCE = re.compile(r"^(?:[、和及或与][^，。；,;]{1,10})*(?:时|后)?(?:及时|立即|马上|尽快|要|应)?"
                           r"(?:就医|就诊|来院|到院|去医院|来医院|到医院|看医生)")
# what the patient is told to watch for (注意牙龈出血、黑便; 警惕有无胸闷): signs to look out for, not findings
_WATCH_BEFORE = re.compile(r"(?:注意|留意|警惕|观察|监测|当心|小心|关注)(?:有无|是否|有没有)?(?:[\u4e00-\u9fa5]{1,12}[、和及或与，,])*"
                           r"[\u4e00-\u9fa5]{0,4}$")
# a harm a drug or act may cause (会引起幻觉、意识不清; 可致急性肾损伤; 人会晕倒; 轻的没力气、心慌): what may
# happen, not what has
# (not 活动后可出现胸闷, the patient's own recurring symptom: 出现 only after 可能/容易)
_HARM_BEFORE = re.compile(r"(?:(?:会|可|可能|容易|易|能)(?:引起|导致|致|造成|诱发|让|使|加重|引发)|(?:可能|容易|易)(?:会)?(?:出现|发生))"
                          r"(?:[\u4e00-\u9fa5]{1,12}[、和及或与，,])*[\u4e00-\u9fa5]{0,6}$"
                          r"|(?:可能会|容易)$|(?:轻的|重的|轻者|重者|严重的|严重时|严重者)(?:[\u4e00-\u9fa5]{1,12}[、和及或与])*$")
# a later time (以后再怀孕, 今后如果再出血): a plan for what may come, not a present finding
_FUTURE_BEFORE = re.compile(r"(?:以后|今后|将来|日后|下次)(?:再|如果|要是|若|一旦)?[\u4e00-\u9fa5]{0,4}$")
# a sign then what to do about it (便秘就用开塞露, 疼的话可以吃一片): a condition, not a finding
_THEN_ACT_AFTER = re.compile(r"(?:了)?(?:的话|时|的时候)?[，,]?(?:就|可以|可|要|需|请|马上|立即|赶紧|先)"
                             r"(?:用|吃|服|涂|抹|喷|去|来|打|拨|停|喝|找|含)")

# a value then 以上/以下 and what to do in its clause: a threshold of an instruction, not a result
_THRESHOLD_THEN = re.compile(r"[^，。；,;]{0,8}?(?:以上|以下|或以上|或更多)[^，。；,;]{0,3}?(?:就|时|则|即|应|要|需|请)")


# a finding named as a risk (终止妊娠出血、子宫破裂风险显著增加): what may happen, not what has
_RISK_AFTER = re.compile(r"(?:[、和及或与][\u4e00-\u9fa5]{1,10}){0,4}?(?:等)?(?:严重|较高|很高|极高|更高|明显)?(?:的)?"
                         r"(?:风险|危险性|的危险|概率|发生率)")
# a term compared with a number (血糖高于13.9就测血酮): a threshold, not the finding 血糖高
_COMPARED_AFTER = re.compile(r"于\s*\d")
# a sign set as the measure or the exception of an instruction (练到不痛为度, 不喘也要吸, 不疼了也别停药):
# what to do whether or not it is there, not what the patient has
_MEASURE_AFTER = re.compile(r"(?:了)?(?:为度|为限|为准|为宜)|(?:了)?(?:也|都)(?:要|得|需|需要|应|应该|必须|别|不要|不能|不可|继续|坚持|照样|照常)")
# the features of a named reaction listed in brackets (双硫仑样反应（潮红、心悸、胸闷…）): what the
# reaction looks like, not what the patient has
_FEATURES_OF = re.compile(r"(?:反应|征象|副作用|不良反应|过敏|中毒|综合征)[（(][^）)]*$")


def _sentence_end(text: str, pos: int) -> int:
    ends = [i for i in (text.find(ch, pos) for ch in "。！？!?\n") if i >= 0]
    return min(ends) if ends else len(text)


def _sentence_start(text: str, pos: int) -> int:
    return max(text.rfind("。", 0, pos), text.rfind("\n", 0, pos), text.rfind("；", 0, pos), 0)


def _cue_regex(cues: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(c) for c in sorted(cues, key=len, reverse=True)))


_ADVICE_RX = _cue_regex(vocab.ADVICE_CUES)
_GENERIC_RX = _cue_regex(tuple(c for c in vocab.GENERIC_CUES if c not in ("者", "时", "以上", "以下")))
_EXCLUDING_RX = _cue_regex(vocab.EXCLUDING_VERBS)
_SECTION_RX = re.compile("|".join(
    f"(?P<{name}>{'|'.join(re.escape(c) for c in sorted(cues, key=len, reverse=True))})"
    for cues, name in ((vocab.GENERAL_SECTIONS, "general"), (vocab.ADVICE_SECTIONS, "advice"),
                       (vocab.PATIENT_SECTIONS, "patient"))
))
# 者 / 时 / 以上 right after a claim: 50岁以上好发, 发作时, 吸烟者; not the 时 of a duration (胸痛2小时)
_AFTER_CUE = re.compile(r"以上|以下|以内|(?<!小)时|者")
_LIKELY_WORDS = re.compile(r"可能性大|可能性较大|可能性很大|可能大")
_ACTION_RX = re.compile("(" + "|".join(re.escape(v) for v in vocab.ACTION_VERBS) + ").?$")
_ACTION_LIST_RX = re.compile("(?:" + "|".join(re.escape(v) for v in vocab.ACTION_VERBS)
                             + r")(?:[\u4e00-\u9fa5]{1,10}[、和及或与])+$")


# the regimen the patient is on, described (抗结核方案中除利福平外还包括吡嗪酰胺): 方案 there is no plan
_REGIMEN_DESCRIBED = re.compile(r"方案(?=中|里)")
_REGIMEN_INCLUDES = re.compile(r"(方案[中里][^，。；]{0,12}?)包括")


_HABITUAL = re.compile(r"每次|每当|每逢|每于")


def _sections(text: str) -> tuple[list[int], list[str]]:
    """Where each section-like heading word starts, and its kind, in order."""
    found = [(m.start(), m.lastgroup or "") for m in _SECTION_RX.finditer(text)]
    return [p for p, _ in found], [k for _, k in found]


def _mark_context(text: str, claims: list[Claim]) -> None:
    positions, kinds = _sections(text)
    for c in claims:
        start = _sentence_start(text, c.start)
        before = text[start:c.start]
        sentence = text[start:textlayer.clause_end(text, c.end)]
        if _ADVICE_RX.search(_REGIMEN_DESCRIBED.sub("", before)):
            c.advice = True
        # 者 / 时 / 以上 only right around the claim: 50岁以上好发, 发作时, 吸烟者
        if c.diagnosis:
            sentence = _LIKELY_WORDS.sub("", sentence)  # 可能 in X可能性大 states the diagnosis
        if c.kind == "drug":
            sentence = _REGIMEN_INCLUDES.sub(r"\1", sentence)  # the patient's regimen includes X: no generality
        # 每次躺下、向左翻身都会诱发眩晕: what brings on the patient's own episodes, not general knowledge
        habitual = bool(_HABITUAL.search(before))
        # 向右翻身时: a movement is the circumstance of a symptom, its 时 no hypothesis
        after_cue = _AFTER_CUE.search(text, c.end, c.end + 3) and not c.extra.get("movement")
        if (_GENERIC_RX.search(sentence) and not habitual) or after_cue:
            c.general = True
        if c.kind in ("finding", "drug") and (_ACTION_RX.search(text[max(0, c.start - 6):c.start])
                                    or _ACTION_LIST_RX.search(text[max(0, c.start - 24):c.start])):
            c.general = True  # 减轻恶心、上腹不适: the verb's object runs through the list
        cs = textlayer.clause_start(text, c.start)
        if _EXCLUDING_RX.search(text[cs:c.start]) or _CONDITIONAL.search(before):
            c.general = True
        rest = text[c.end:_sentence_end(text, c.end)]
        if c.kind == "finding" and (_SEEK_CARE_RX.search(rest) or _APPEARS.search(before) and _CARE_AT_ONCE.match(rest)):
            c.general = True
        clause_before = text[cs:c.start]
        if c.kind == "finding" and (_WATCH_BEFORE.search(clause_before) or _HARM_BEFORE.search(clause_before)
                                    or _FUTURE_BEFORE.search(clause_before) or _THEN_ACT_AFTER.match(text, c.end)):
            c.general = True
        if c.kind == "finding" and (_RISK_AFTER.match(text, c.end) or _COMPARED_AFTER.match(text, c.end)
                                    or _FEATURES_OF.search(text[max(0, c.start - 40):c.start])
                                    or _MEASURE_AFTER.match(text, c.end)):
            c.general = True
        if c.kind == "vitals" and _MEASURE_AFTER.match(text, c.end):
            c.general = True  # 血压正常也不能自行停药: the exception of an instruction, not a state
        if c.kind == "measurement" and _THRESHOLD_THEN.match(text, c.end):
            c.general = True  # a threshold for acting: 三天长了2公斤（4斤）以上就来医院  # a danger sign: 出现口角歪斜、言语不清，立即拨打120 / 伤口红肿，赶紧回来看
        # a range's first bound (2℃～8℃冷藏) or a storage ceiling (室温≤30℃): a criterion, not a result; a
        # comparison of a patient's value (收缩压<90mmHg, WBC>10×10^9/L) is a claim and stays checked
        if c.kind == "measurement" and (re.match(r"\s*[-–—～~至到]\s*\d", text[c.end:c.end + 4])
                                        or re.search(r"(?:≤|≥|<|>|不超过|不高于|不低于)\s*$",
                                                     text[max(0, c.extra_value_start() - 3):c.extra_value_start()])
                                        and re.search(r"℃|°C|室温|冷藏|储存|贮存|保存", text[max(0, c.start - 8):c.end + 2])):
            c.general = True
        if c.kind == "measurement" and re.search(r"\d\s*(?:℃|°C|%)?\s*[-–—～~至到]\s*$", text[max(0, c.start - 8):c.extra_value_start()]):
            c.general = True  # a range (PSA在4-10ng/ml) is a criterion or a reference, not a result
        i = bisect_left(positions, c.start) - 1
        section = kinds[i] if i >= 0 else ""
        if section == "general":
            c.general = True
        elif section == "advice":
            c.advice = True


_PANEL_NORMAL = re.compile(
    "(?P<name>" + "|".join(sorted(map(re.escape, analytes.PANELS), key=len, reverse=True)) + ")"
    r"(?:检查|检测|化验)?(?:[：:][^。；;\n，,]{0,16}?)?(?:各项)?(?:均|都|皆)?"
    r"(?:正常|未见异常|无异常|无明显异常|大致正常|基本正常|在正常范围内?|正常范围内?)")


def panel_results(text: str) -> list[Claim]:
    """A laboratory panel called normal (凝血功能正常, 凝血功能：PT、APTT均在正常范围): a result the record
    must hold (kind ``result``, extra ``panel``: the analyte groups it reports)."""
    return [Claim("result", m.start(), m.end(), m.group(0), key=m.group("name"),
                  extra={"panel": analytes.panel_groups(m.group("name")), "content": "正常", "region": "",
                         "exam": m.group("name")})
            for m in _PANEL_NORMAL.finditer(text)]


def vital_states(text: str) -> list[Claim]:
    """Vital signs called normal or stable in words (生命体征平稳, 血压正常): kind ``vitals``, held
    against the record's values (extra ``keys``: the analytes covered, ``band``: normal or stable)."""
    return [Claim("vitals", m.start(), m.end(), m.group(0), key=m.group("subjects"),
                  extra={"keys": vitals.subject_keys(m.group("subjects")), "band": vitals.band_of(m.group("state")),
                         "past": bool(vitals.PAST_TIME.search(text, textlayer.clause_start(text, m.start()), m.start()))})
            for m in vitals.VITAL_STATE.finditer(text)]


def extract_claims(text: str) -> list[Claim]:
    """Every claim in an already normalized text, in order of position."""
    measured, dosed = measurements(text), drugs(text)
    claims = [*demographics(text), *measured, *dosed, *drug_mentions(text, [*dosed, *measured]), *laterality(text),
              *durations(text), *findings(text), *exam_results(text), *vital_states(text), *field_values(text)]
    results = [(c.start, c.end) for c in claims if c.kind == "result"]
    claims += [c for c in panel_results(text) if not any(s < c.end and c.start < e for s, e in results)]
    # a dose is not also a measurement, an age is not also a duration
    dose_spans = [(c.start, c.end) for c in claims if c.kind == "drug" and not c.extra.get("no_dose")]
    age_spans = [(c.start, c.end) for c in claims if c.kind == "age"]

    def inside(c: Claim, spans: list[tuple[int, int]]) -> bool:
        return any(s <= c.start < e or s < c.end <= e for s, e in spans)

    claims = [
        c for c in claims
        if not (c.kind == "measurement" and inside(c, dose_spans)) and not (c.kind == "duration" and inside(c, age_spans))
    ]
    _mark_context(text, claims)
    return sorted(claims, key=lambda c: (c.start, c.kind))
