"""Hold a text's claims against a record: supported, contradicted, value mismatch, unsupported.

Consistency score = supported / (supported + contradicted + value_mismatch + unsupported) over the
checkable claims (claims inside advice, plans, differentials or uncertain statements are not facts
about the record and are skipped); 1.0 when a text makes no checkable claim (``FactReport.checked``
is 0 then: callers that score should treat it as "nothing checkable", not as full marks). Every
skipped claim is listed in ``not_checked`` with why. Omissions of key facts are reported beside the
score, never inside it: a short answer is not an unfaithful one.

A diagnosis the text states (诊断：X, 初步诊断为X, 考虑X, X可能性大) is held against the record's
diagnosis list (``Case.diagnosis``, or the 诊断 section of a plain-text record): supported when it
names a listed diagnosis (or a kind or parent of one, 嵌顿疝 for 嵌顿性腹股沟斜疝) or a condition the
record gives the patient (既往高血压); contradicted when the record denies it (否认高血压); otherwise
**unsupported**, never contradicted, even when it competes with the record's primary diagnosis: a
second diagnosis can be a comorbidity, and the checker cannot tell a rival from an addition, so it
reports what it knows (the record does not hold it) and names the record's diagnoses in the reason.
With no diagnosis list in the record the claim is not checked. Differentials (需与X鉴别, 排除X, X待排,
不除外X) are reasoning and are never checked.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal

from rapidfuzz import fuzz

from medsim.facts import textlayer
from medsim.facts.claims import Claim, names_use, result_after
from medsim.facts.record import ClaimIndex, index_record, index_text
from medsim.scenario.schema import Case
from medsim.text import analytes, get_lexicon, vitals
from medsim.text.patterns import degree_gapped
from medsim.text.units import molar_mass, same_quantity, to_si

Status = Literal["supported", "contradicted", "value_mismatch", "unsupported"]
STATUSES: tuple[Status, ...] = ("supported", "contradicted", "value_mismatch", "unsupported")
KIND_ZH = {"finding": "症状/疾病", "diagnosis": "诊断", "measurement": "检查数值", "drug": "用药", "sex": "性别", "age": "年龄",
           "laterality": "左右侧别", "duration": "病程时间",
           "result": "检查结果", "vitals": "生命体征", "range": "检查数值"}


@dataclass
class FactFinding:
    status: Status
    kind: str
    key: str
    text: str  # the claim as the output writes it
    span: tuple[int, int]  # in the output text
    evidence: tuple[int, int] | None  # in the record text
    evidence_text: str
    reason_zh: str
    reason_en: str


@dataclass
class Omission:
    key_fact: str
    reason_zh: str
    reason_en: str
    missing: list[str] = field(default_factory=list)


@dataclass
class NotChecked:
    """A claim the checker saw but did not hold against the record, and why."""

    kind: str
    text: str
    span: tuple[int, int]  # in the output text
    reason_zh: str
    reason_en: str


@dataclass
class FactReport:
    findings: list[FactFinding]
    counts: dict[str, int]
    score: float
    omissions: list[Omission] = field(default_factory=list)
    skipped: int = 0  # claims not checked: advice, plans, differentials, uncertain statements
    not_checked: list[NotChecked] = field(default_factory=list)  # each skipped claim, with why

    @property
    def checked(self) -> int:
        """Claims that got a verdict (the score's denominator)."""
        return sum(self.counts.get(s, 0) for s in STATUSES)

    def statuses(self) -> set[str]:
        return {f.status for f in self.findings}

    def problems(self) -> list[FactFinding]:
        return [f for f in self.findings if f.status != "supported"]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Verdict:
    status: Status
    evidence: Claim | tuple[int, int] | None
    zh: str
    en: str


_SENTENCES = re.compile(r"[^。！？!?\n；;，,]+[。！？!?\n；;，,]?")
_NOT_A_GIVEN = re.compile(r"[？?]|吗|呢|是不是|会不会|能不能|可不可以|要不要|听说|据说|网上|别人说|有人说|是否")


def record_text_of(case_or_record: Case | str) -> str:
    """The record the text is held against: the case's record, plus what the question itself told
    the model (空腹血糖8.2mmol/L in a patient's question is a given, not an invention)."""
    if isinstance(case_or_record, str):
        return case_or_record
    text = case_or_record.full_record_text()
    extra = [case_or_record.question or ""]
    if case_or_record.probe and case_or_record.probe.utterance:
        extra.append(case_or_record.probe.utterance)
    # only what the asker states as fact: not their questions, not hearsay (听说糖尿病人不能吃水果)
    extra = ["".join(s for s in _SENTENCES.findall(e) if not _NOT_A_GIVEN.search(s)) for e in extra]
    extra = [e for e in extra if e.strip() and e not in text]
    return "\n".join([text, *(f"问题：{e}" for e in extra)]) if extra else text


# --------------------------------------------------------------------------- matchers

def _similar_key(a: str, b: str) -> bool:
    if a == b:
        return True
    if min(len(a), len(b)) >= 2 and (a in b or b in a):
        return True
    return min(len(a), len(b)) >= 3 and fuzz.ratio(a, b) >= 85


def _dims(c: Claim) -> list[tuple[str, str]]:
    return list(c.extra.get("dims") or [(c.value_text, c.unit)])  # type: ignore[arg-type]


def _same_dims(a: list[tuple[str, str]], b: list[tuple[str, str]]) -> bool | None:
    """Equal sizes after unit conversion (in order, or in any order for a dimension); None when
    the kinds differ (a length against a volume)."""
    if len(a) != len(b):
        return None if len(a) > len(b) or len(a) == 1 else _same_dims(a, b[:len(a)])

    def equal(pairs: list[tuple[tuple[str, str], tuple[str, str]]]) -> bool | None:
        out = [same_quantity(float(x), ux, float(y), uy, a_text=x, b_text=y) for (x, ux), (y, uy) in pairs]
        return None if None in out else all(out)

    straight = equal(list(zip(a, b, strict=True)))
    if straight or straight is None or len(a) == 1:
        return straight
    return equal(list(zip(sorted(a, key=lambda d: float(d[0])), sorted(b, key=lambda d: float(d[0])), strict=True)))


def _context_score(a: str, b: str) -> float:
    if not a or not b:
        return 0.0
    return max(fuzz.ratio(a, b), _bigram_recall(a, b), fuzz.partial_ratio(a, b) if min(len(a), len(b)) >= 3 else 0.0)


def _same_subject(c: Claim, r: Claim) -> bool | None:
    """Whether two sizes measure the same sided part (右肾长径48mm and the record's 右8.4cm in 双肾缩小):
    True for one part on the same side (or a bilateral record), False on opposite sides, None when
    either does not say."""
    part_c, part_r = c.extra.get("part"), r.extra.get("part")
    if not part_c or part_c != part_r:
        return None
    side_c, side_r = c.extra.get("side"), r.extra.get("side")
    if side_c == side_r or "双" in (side_c, side_r):
        return True
    return False


def _size(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    """A size held against the record's sizes of the same kind: the one measuring the most similar
    thing (by the words around it). Same value: supported; a similar thing with another value:
    value mismatch; nothing alike: not checked (sizes are too freely worded for absence to count)."""
    context = str(c.extra.get("context", ""))
    mine = _dims(c)
    scored = []
    for r in rec.of("measurement"):
        if not r.extra.get("compare_only"):
            continue
        same = _same_dims(mine, _dims(r))
        if same is None:
            continue
        score = _context_score(context, str(r.extra.get("context", "")))
        subject = _same_subject(c, r)
        if subject is False:
            continue  # the same part on the other side (右肾 vs the record's 左8.6cm) measures another thing
        scored.append((100.0 if subject else score, same, r))
    if not scored:
        return None
    for score, same, r in sorted(scored, key=lambda t: -t[0]):
        if same and (score >= 30 or len(mine) > 1):
            return _Verdict("supported", r, f"大小与病历一致：{rec.text[r.start:r.end]}",
                            f"size matches the record: {rec.text[r.start:r.end]}")
    # a dimension with all but one number the same is the same thing with one number changed
    alike = [r for _, _, r in scored if len(_dims(r)) == len(mine)]
    near = [(score, r) for score, _, r in scored
            if len(mine) > 1 and len(_dims(r)) == len(mine) and (score >= 30 or len(alike) == 1)
            and sum(bool(_same_dims([a], [b])) for a, b in zip(mine, _dims(r), strict=True)) == len(mine) - 1]
    if near:
        r = max(near, key=lambda t: t[0])[1]
        shown = rec.text[r.start:r.end]
        return _Verdict("value_mismatch", r, f"大小与病历不符：病历为 {shown}", f"size differs from the record: {shown}")
    score, _, r = max(scored, key=lambda t: t[0])
    if (score >= 60 and len(context) >= 2) or _same_subject(c, r):
        shown = rec.text[r.start:r.end]
        return _Verdict("value_mismatch", r, f"大小与病历不符：病历为 {shown}", f"size differs from the record: {shown}")
    return None


# a systolic or diastolic pressure claimed alone (收缩压68mmHg) is one half of the record's BP 68/40mmHg
_BP_PART = {"sbp": 0, "dbp": 1}
_DIFFERENCE = re.compile(r"相差|之差|差值|压差|差别")


def _bp_part(key: str, rec: ClaimIndex) -> list[Claim]:
    out = []
    for r in rec.of("measurement", "bp"):
        value = r.value if _BP_PART[key] == 0 else r.value2
        if value is not None:
            out.append(replace(r, key=key, value=value, value2=None, value_text=f"{value:g}"))
    return out


def _measurement(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    if c.key == "size":
        return _size(c, rec)
    cands = rec.of("measurement", c.key)
    if not cands and c.key in _BP_PART:
        if _DIFFERENCE.search(c.text):
            return None  # 两上肢收缩压相差36mmHg: a difference, no recorded value to hold it against
        cands = _bp_part(c.key, rec)
    if not cands and analytes.get(c.key) is None:
        cands = [r for r in rec.of("measurement") if analytes.get(r.key) is None and _similar_key(c.key, r.key)]
    name = str(c.extra.get("name", c.key))
    if not cands and analytes.get(c.key) is None and c.unit == "次/分":
        # a rate under a name no analyte has (心电图是窦速118次/分): the record's rate of that value
        cands = [r for r in rec.of("measurement") if r.unit == c.unit and r.value == c.value]
    if not cands and c.extra.get("compare_only"):
        return _size(c, rec)  # the record may give it under a generic name (胆总管扩张，直径1.5cm)
    if not cands and c.extra.get("cmp"):
        # ≥7.0mmol/L with nothing recorded to compare: a criterion, not a result; a size or a volume
        # the record does not give under that name: nothing to compare
        return None
    if cands and c.side:
        sided = _sided(c, cands, rec)
        if isinstance(sided, _Verdict):
            return sided
        cands = sided
    if cands:
        comparable = []
        if c.extra.get("cmp") and not any(r.extra.get("cmp") for r in cands):
            # "PSA>10ng/ml" holds when the recorded value is above 10
            # it holds when any recorded value of the same dimension meets it: a record can give the
            # same measure twice (血压最高170/100mmHg in the history, BP 68/40mmHg on arrival)
            failed = None
            for r in cands:
                vc = to_si(c.value or 0.0, c.unit)
                vr = to_si(r.value or 0.0, r.unit)
                if vc[1] != vr[1]:
                    continue
                holds = vr[0] > vc[0] if c.extra["cmp"] in (">", "≥") else vr[0] < vc[0]
                shown = rec.text[r.start:r.end]
                if holds:
                    return _Verdict("supported", r, f"与病历一致：病历为 {shown}", f"holds for the record's {shown}")
                failed = failed or r
            if failed is not None:
                shown = rec.text[failed.start:failed.end]
                return _Verdict("value_mismatch", failed, f"与病历数值不符：病历为 {shown}",
                                f"does not hold for the record's {shown}")
        mass = _molar_mass(c)
        for r in cands:
            same = same_quantity(c.value or 0.0, c.unit, r.value or 0.0, r.unit, a_text=c.value_text,
                                 b_text=r.value_text, molar_mass=mass,
                                 rel_tol=0.02 if c.extra.get("restated") else 0.001)
            if same is None:
                continue
            if same and (c.value2 is None or r.value2 is None or abs(c.value2 - r.value2) < 0.5):
                return _Verdict("supported", r, f"与病历一致：{name}", f"matches the record: {name}")
            comparable.append(r)
        if comparable:
            r = comparable[0]
            shown = rec.text[r.start:r.end]
            return _Verdict("value_mismatch", r, f"数值与病历不符：病历为 {shown}",
                            f"value differs from the record, which has {shown}")
        r = cands[0]
        return _Verdict("unsupported", r, f"单位无法与病历数值换算：病历为 {rec.text[r.start:r.end]}",
                        "units cannot be compared with the record's value")
    pos = rec.text.find(name) if len(name) >= 2 else -1
    if pos >= 0:
        return _Verdict("unsupported", (pos, pos + len(name)), f"病历提到{name}但未给出该数值",
                        f"the record mentions {name} but gives no such value")
    return _Verdict("unsupported", None, f"病历中没有{name}的结果", f"no {name} result in the record")


def _equal_value(c: Claim, r: Claim) -> bool:
    return bool(same_quantity(c.value or 0.0, c.unit, r.value or 0.0, r.unit, a_text=c.value_text, b_text=r.value_text)) \
        and (c.value2 is None or r.value2 is None or abs(c.value2 - r.value2) < 0.5)


def _sided(c: Claim, cands: list[Claim], rec: ClaimIndex) -> list[Claim] | _Verdict:
    """A value taken on one limb (右上肢164/102mmHg) against the record's values of each side: the other
    side's value is a wrong side; the same side's values are the ones to compare with."""
    mine = [r for r in cands if r.side == c.side]
    other = [r for r in cands if r.side and r.side != c.side]
    if other and not any(_equal_value(c, r) for r in mine):
        r = next((r for r in other if _equal_value(c, r)), None)
        if r is not None:
            shown = rec.text[r.start:r.end]
            return _Verdict("contradicted", r, f"侧别与病历相反：病历为“{shown}”", f"wrong side: the record has {shown}")
    return mine or cands


def _molar_mass(c: Claim) -> float | None:
    """g/mol of the claim's analyte, by the label it was written with or the key's other spellings."""
    for name in (str(c.extra.get("name", "")), *analytes.names(c.key)):
        mass = molar_mass(name) if name else None
        if mass:
            return mass
    return None


def _locate(term: str, text: str) -> tuple[int, int] | None:
    """Where ``term`` is in ``text``: exactly, or (4+ characters) by fuzzy alignment."""
    if len(term) < 2:
        return None
    pos = text.find(term)
    if pos >= 0:
        return pos, pos + len(term)
    if len(term) >= 4:
        al = fuzz.partial_ratio_alignment(term, text, score_cutoff=80)
        if al is not None:
            return al.dest_start, al.dest_end
    return None


def _locate_one_char(c: Claim, term: str, text: str) -> tuple[int, int] | None:
    """A one-character finding (静息亦喘) is too short to look up alone: found where the record has it
    with the same neighbouring character as the claim's clause (亦喘)."""
    clause = str(c.extra.get("clause_text", ""))
    at = clause.find(term)
    if len(term) != 1 or at < 0:
        return None
    for pair, offset in ((clause[max(0, at - 1):at + 1], 1), (clause[at:at + 2], 0)):
        pos = text.find(pair) if len(pair) == 2 else -1
        if pos >= 0:
            return pos + offset, pos + offset + 1
    return None


def _locate_gapped(term: str, text: str) -> tuple[int, int] | None:
    """Where the characters of a finding of 4+ characters stand in order within one stretch of a
    clause, words between them (撕裂样痛 in 撕裂样疼痛, 阴道流血 in 阴道少量暗红色流血, 淋巴结肿大 in
    淋巴结未扪及肿大, 尿频尿急尿痛 in 尿频、尿急、尿痛); the stretch is at most twice the term's length."""
    if len(term) < 4 or not all("\u4e00" <= ch <= "\u9fa5" for ch in term):
        return None
    limit = 2 * len(term) + 2
    pos = text.find(term[:2])
    while pos >= 0:
        # each next character at its earliest place: the shortest stretch from here, no clause break in it
        window = _CLAUSE_BREAK.split(text[pos:pos + limit], maxsplit=1)[0]
        at = 2
        for ch in term[2:]:
            at = window.find(ch, at) + 1
            if at == 0:
                break
        else:
            return pos, pos + at
        pos = text.find(term[:2], pos + 1)
    return None


_CLAUSE_BREAK = re.compile(r"[，。；;,\n]")


def _locate_degree(c: Claim, term: str, text: str) -> tuple[int, int] | None:
    """Where the record writes the finding, or one of its lexicon names, with a degree word inside
    (精神较差 for 精神差, 精神稍萎靡 for its alias 精神萎靡): the text layer reads terms whole."""
    names = (term, *textlayer.aliases(c.key)) if term == c.key else (term,)
    for name in dict.fromkeys(names):
        pattern = degree_gapped(name)
        m = pattern.search(text) if pattern else None
        if m:
            return m.start(), m.end()
    return None


def _clause_support(c: Claim, rec: ClaimIndex) -> tuple[int, int] | None:
    """A record stretch that reads like the claim's whole clause and has the claim's polarity."""
    clause = c.extra.get("clause_text")
    if not isinstance(clause, str) or len(clause) < 6:
        return None
    al = fuzz.partial_ratio_alignment(clause, rec.text, score_cutoff=72)
    if al is None:
        return None
    if rec.context.negation_cues(al.dest_start, al.dest_end):
        return None  # the look-alike stretch is itself negated (无头晕、心慌)
    polarity, owner = textlayer.polarity_at(rec.context, al.dest_start, al.dest_end)
    if polarity == c.polarity and owner == c.owner:
        return al.dest_start, al.dest_end
    return None


_HISTORY_CUES = ("既往", "病史", "史", "患有", "确诊", "长期", "曾")
# a disease named as a test's finding (X线示骨折, CT提示脑出血) is a result the record must hold
_RESULT_CONTEXT = re.compile(r"(X线|CT|MRI|MR|B超|超声|彩超|胃镜|肠镜|病理|活检|造影|心电图|胸片|平片|DSA|ECT|PET)"
                             r"[^，。；]{0,6}?(示|提示|显示|见|报告|为)")


def _bare_head_of(r: Claim, c: Claim, text: str) -> bool:
    """The record's mention is only the two-character head of the disease claimed (肾病 for
    微小病变型肾病): it does not name that kind, unless the record gives the rest beside it
    (腺癌，中分化 for 中分化腺癌)."""
    if not (c.diagnosis or c.extra.get("type") == "disease") or not (len(r.key) <= 2 < len(c.key) and r.key in c.key):
        return False
    rest = c.key.replace(r.key, "", 1)
    return rest not in text[max(0, r.start - len(rest) - 6):r.end + len(rest) + 6]


def _finding_mentions(c: Claim, rec: ClaimIndex) -> list[Claim]:
    exact = rec.of("finding", c.key)
    if exact:
        return exact
    if c.extra.get("type") == "organism":
        # an organism is that species or none: 肺炎链球菌 is not the record's 肺炎 (nor 肺炎克雷伯菌)
        return [r for r in rec.of("finding") if c.key in r.key]
    similar = [r for r in rec.of("finding") if _similar_key(c.key, r.key) and not _bare_head_of(r, c, rec.text)]
    if similar:
        return similar
    # a kind of the claimed finding that the record gives the patient (呕血 for 呕吐 in 吐了1次咖啡色的
    # 东西): it is the claimed finding; a narrower one the record denies (无呕血) says nothing of it
    return [r for r in _kinds_of(c.key, rec) if r.polarity == "present"]


def _kinds_of(key: str, rec: ClaimIndex) -> list[Claim]:
    """The record's findings that are kinds of ``key`` by the lexicon's hierarchy, in record order;
    kept on the record's index, since every output asks it of the same findings."""
    kinds = rec.kinds.get(key)
    if kinds is None:
        lex = get_lexicon()
        kinds = rec.kinds[key] = [r for r in rec.of("finding") if lex.is_a(r.key, key)]
    return kinds


_SIDE_EN = {"左": "left", "右": "right", "双": "both sides"}


def _side_fits(claimed: str, recorded: str) -> bool:
    """A recorded side that does not deny the claimed one: the same, none given, or both sides."""
    return not recorded or recorded == claimed or recorded == "双"


def _inside_test_name(term: str, text: str, span: tuple[int, int]) -> bool:
    from medsim.text.match import case_terms_in, normalize

    window = text[max(0, span[0] - 6): span[1] + 6]
    key = normalize(term)
    return any(key in t and t != key for t in case_terms_in(window, ("exam",)))


# a test's name: "X阴性" about it is a result (尿培养阴性, 继发因素筛查阴性), not the absence of a finding
_TEST_NAME = re.compile(r"(?:培养|筛查|检查|试验|检测|抗体|抗原|染色|涂片|镜检|核酸|PCR|化验|常规)$")
_NEGATIVE_RESULT = re.compile(r"阴性|[（(]\s*[-－]\s*[)）]|未见|未检出|无菌生长|正常|无异常")
_POSITIVE_RESULT = re.compile(r"(?<!弱)阳性|[（(]\s*[+＋]+\s*[)）]|检出(?!限)|(?:培养|分离)出|生长(?!.{0,2}无)|异常(?<!无异常)")


def _negative_test(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    """A negative result of a named test held against the record's result for that test, read from
    the rest of the record's line after the name."""
    if c.polarity != "absent" or not _TEST_NAME.search(c.key):
        return None
    at = rec.text.find(c.key)
    if at < 0:
        return None
    line_end = rec.text.find("\n", at)
    result = rec.text[at + len(c.key):line_end if line_end >= 0 else len(rec.text)]
    # 无菌生长, 未见异常, 未见明显异常: negative however worded (their 生长 and 异常 are not findings)
    result = re.sub(r"无菌生长|未见(?:明显)?异常|无(?:明显)?异常", "阴性", result)
    if _POSITIVE_RESULT.search(result):
        return _Verdict("contradicted", None, f"病历中{c.key}结果不是阴性", f"the record's {c.key} is not negative")
    if _NEGATIVE_RESULT.search(result):
        return _Verdict("supported", None, f"与病历一致：{c.text}", f"matches the record: {c.text}")
    return None


# a finding that is a recorded vital sign read against its threshold (心动过缓 for P 42次/分, 高热 for
# T 39.2℃): the record states it as a number, not as a word
_VITAL_FINDINGS: dict[str, tuple[str, float, float]] = {
    # key: (measurement, low, high), read on its first value (the systolic of a blood pressure)
    "心动过缓": ("heart_rate", 0, 60),
    "心动过速": ("heart_rate", 100.5, 400),
    "低血压": ("bp", 0, 90),
    "发热": ("temperature", 37.3, 46),
}
_FEVER_GRADES = (("高热", 39.0, 46), ("低热", 37.3, 38.0))


def _vital_sign(c: Claim, rec: ClaimIndex) -> Claim | None:
    rule = _VITAL_FINDINGS.get(c.key)
    if rule is None:
        return None
    name, low, high = rule
    if c.key == "发热":
        low, high = next(((lo, hi) for word, lo, hi in _FEVER_GRADES if word in c.text), (low, high))
    for r in rec.of("measurement", name):
        if r.value is not None and low <= r.value < high:
            return r
    return None


_FAMILY_NEXT = re.compile(r"等?病?家族")


def _latest_vital(key: str, rec: ClaimIndex) -> Claim | None:
    """The record's last value of a vital sign: the examination's, after any history value."""
    values = [r for r in rec.of("measurement", key) if r.value is not None and r.checkable]
    return values[-1] if values else None


def _denied_vital(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    """A denial (无发热, 无心动过速) against the record's last value of that vital sign, when it lies in
    the finding's range: the measured value outweighs a denial in words."""
    rule = _VITAL_FINDINGS.get(c.key)
    if rule is None or c.polarity != "absent" or c.owner != "patient":
        return None
    name, low, high = rule
    r = _latest_vital(name, rec)
    if r is None or not low <= r.value < high:  # type: ignore[operator]
        return None
    shown = rec.text[r.start:r.end]
    return _Verdict("contradicted", r, f"病历记载 {shown}，不是无“{c.text}”", f"the record has {shown}, not no {c.text}")


def _vitals(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    """Vital signs called normal or stable, against the record's last value of each one covered; one
    set in the past (孕20周前血压正常) only against the record's own words."""
    keys = [str(k) for k in c.extra.get("keys", ())]  # type: ignore[union-attr]
    band = str(c.extra.get("band", "normal"))
    past = bool(c.extra.get("past"))
    recorded = [] if past else [r for r in (_latest_vital(k, rec) for k in keys) if r is not None]
    for r in recorded:
        if vitals.out_of_band(r.key, r.value, r.value2, band):  # type: ignore[arg-type]
            shown = rec.text[r.start:r.end]
            return _Verdict("contradicted", r, f"病历记载 {shown}，不是“{c.text}”", f"the record has {shown}, not {c.text}")
    if recorded:
        shown = "，".join(rec.text[r.start:r.end] for r in recorded)
        return _Verdict("supported", recorded[0], f"与病历一致：{shown}", f"matches the record's {shown}")
    for m in vitals.VITAL_STATE.finditer(rec.text):  # the record says so in words too (生命体征平稳)
        if set(keys) <= set(vitals.subject_keys(m.group("subjects"))):
            return _Verdict("supported", (m.start(), m.end()), f"与病历一致：{c.text}", f"matches the record: {c.text}")
    if past:
        return None
    return _Verdict("unsupported", None, f"病历没有记载{c.key}", f"the record gives no {c.key}")


def _field_range(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    """A count per field or a voltage, against the record's value of the same name and unit: both
    bounds (and a comparison sign) must agree."""
    same = [r for r in rec.of("range") if r.unit == c.unit and (r.key == c.key or _similar_key(r.key, c.key))]
    if not same:
        return None
    for r in same:
        if (r.value, r.value2, r.extra.get("cmp")) == (c.value, c.value2, c.extra.get("cmp")):
            return _Verdict("supported", r, f"与病历一致：{rec.text[r.start:r.end]}", f"matches the record: {rec.text[r.start:r.end]}")
    shown = rec.text[same[0].start:same[0].end]
    return _Verdict("value_mismatch", same[0], f"数值与病历不符：病历为 {shown}", f"value differs from the record, which has {shown}")


def _earlier_list_item(c: Claim) -> bool:
    """The claim is the family's only as an earlier item of a list that 家族史 closes (过敏性鼻炎 in
    有过敏性鼻炎及哮喘家族史), not the item the 家族史 stands on."""
    clause = str(c.extra.get("clause_text") or c.extra.get("sentence") or "")
    at = clause.find(c.text)
    return at >= 0 and "家族" in clause[at:] and not _FAMILY_NEXT.match(clause, at + len(c.text))


def _present_kind(c: Claim, rec: ClaimIndex) -> Claim | None:
    """A narrower kind of the claimed finding that the record gives the same owner (便后滴鲜血 for 便血);
    looked up only when a verdict turns on it."""
    return next((r for r in _kinds_of(c.key, rec) if r.owner == c.owner and r.polarity == "present"
                 and r.key != c.key), None)


def _analyte_done(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    """An analyte said to be raised or lowered: None when the record has its value or names it (the
    direction is not read against reference ranges), unsupported when the record never tested it."""
    if rec.of("measurement", c.key) or any(len(n) >= 2 and n in rec.text for n in analytes.names(c.key)):
        return None
    name = str(c.extra.get("name", c.key))
    return _Verdict("unsupported", None, f"病历中没有{name}的检查结果", f"the record has no {name} result")


def _finding(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    if c.extra.get("type") == "analyte_direction":
        return _analyte_done(c, rec)
    denied = _denied_vital(c, rec)
    if denied is not None:
        return denied
    same = _finding_mentions(c, rec)
    if same and c.extra.get("specimen") and c.polarity == "present":
        grown = [r for r in same if r.extra.get("type") == "organism" and r.extra.get("specimen")]
        if grown and not any(r.extra.get("specimen") == c.extra["specimen"] for r in grown) \
                and len(grown) == len([r for r in same if r.extra.get("type") == "organism"]):
            # 脓液培养出肺炎克雷伯菌 where the record grew it from blood only: another culture, not recorded
            shown = "、".join(dict.fromkeys(str(r.extra["specimen"]) for r in grown))
            return _Verdict("unsupported", grown[0], f"病历中{c.text}来自{shown}标本，没有{c.extra['specimen']}的结果",
                            f"the record grew {c.text} from {shown}, not from {c.extra['specimen']}")
    if not same:
        # the record may word it so the finding extractor missed it: look for the words themselves
        for term in dict.fromkeys((c.key, c.text)):
            span = _locate(term, rec.text) or _locate_gapped(term, rec.text) or _locate_degree(c, term, rec.text) \
                or _locate_one_char(c, term, rec.text)
            if span and _inside_test_name(term, rec.text, span):
                span = None  # 妊娠 in 尿妊娠试验：阴性 is the test, not the finding
            if span:
                polarity, owner = textlayer.polarity_at(rec.context, *span)
                if any(cue not in term for cue in rec.context.negation_cues(*span, prefix=False)):
                    polarity = "absent"  # a fuzzy match can swallow the cue: 淋巴结无肿大
                if c.extra.get("type") == "exam_result":
                    recorded = result_after(rec.text, span[1])  # 抗dsDNA、抗心磷脂抗体阴性
                    if recorded is None and c.polarity == "absent":
                        # no 阳性/阴性 after the test's name: its line may say more (尿培养：大肠埃希菌), or give
                        # values only (甲状腺功能：TSH…), which a negative result cannot be held against
                        return _negative_test(c, rec)
                    polarity = recorded or polarity
                same = [Claim("finding", span[0], span[1], term, key=c.key, polarity=polarity, owner=owner)]
                break
    label = c.text
    if not same and c.polarity == "present":
        vital = _vital_sign(c, rec)
        if vital is not None:
            shown = rec.text[vital.start:vital.end]
            return _Verdict("supported", vital, f"与病历一致：病历为 {shown}", f"matches the record's {shown}")
    if not same:
        sentence = str(c.extra.get("sentence", ""))
        clause = str(c.extra.get("clause_text", ""))
        if c.extra.get("type") == "disease" and not any(cue in sentence for cue in _HISTORY_CUES) \
                and not _RESULT_CONTEXT.search(clause):
            return None  # a disease the record does not name is the writer's reasoning unless stated as history
        if c.polarity == "absent":
            return _Verdict("unsupported", None, f"病历未记载“{label}”的有无", f"the record says nothing of {label}")
        return _Verdict("unsupported", None, f"病历中没有“{label}”", f"{label} is not in the record")
    mine = [r for r in same if r.owner == c.owner]
    agreeing = [r for r in mine if r.polarity == c.polarity]
    if agreeing and c.side and c.polarity == "present" and not any(_side_fits(c.side, r.side) for r in agreeing):
        # the record has the finding on the other side only (左侧胸腔积液 vs 右侧少量胸腔积液)
        r = agreeing[0]
        shown = rec.text[r.start:r.end]
        where = rec.text[max(0, r.start - 4):r.end] if r.side not in shown else shown
        return _Verdict("contradicted", r, f"侧别与病历不符：病历为“{where}”（{r.side}侧）",
                        f"wrong side: the record has it on the {_SIDE_EN.get(r.side, r.side)} ({where})")
    if agreeing and c.polarity == "absent" and not any(rec.text[r.start:r.end] == c.text for r in agreeing) \
            and (kind := _present_kind(c, rec)) is not None:
        # 无便血 against a record that denies only one form (无黏液脓血便) and gives another (便后滴鲜血)
        return _Verdict("contradicted", kind, f"病历记载有“{rec.text[kind.start:kind.end]}”",
                        f"the record reports {rec.text[kind.start:kind.end]}")
    for r in agreeing:
        return _Verdict("supported", r, f"与病历一致：{label}", f"matches the record: {label}")
    test_verdict = _negative_test(c, rec)
    if test_verdict:
        return test_verdict
    opposite = [r for r in mine if r.polarity in ("present", "absent") and r.polarity != c.polarity
                # 无继发性高血压 does not deny the recorded 高血压: absence of a narrower kind
                and not (c.polarity == "absent" and r.key != c.key and r.key in c.key)]
    if opposite and c.polarity == "present":
        # the record's denial is of one place or form (头面部无皮疹, 无黏液脓血便) and it gives the patient
        # a kind of the finding elsewhere (成簇水疱, 便后滴鲜血): the claim holds
        if (kind := _present_kind(c, rec)) is not None:
            return _Verdict("supported", kind, f"与病历一致：{label}", f"matches the record: {label}")
        # the extractor may have missed a differently worded positive mention (淋巴结可见肿大)
        support = _clause_support(c, rec)
        if support:
            return _Verdict("supported", support, f"与病历一致：{label}", f"matches the record: {label}")
    if opposite:
        r = opposite[0]
        if c.polarity == "present":
            return _Verdict("contradicted", r, f"病历记载为无/否认“{label}”", f"the record denies {label}")
        return _Verdict("contradicted", r, f"病历记载有“{label}”", f"the record reports {label}")
    other = [r for r in same if r.owner != c.owner and r.polarity == "present"]
    if other and c.polarity == "present" and c.owner == "family" and _earlier_list_item(c):
        return None  # 有过敏性鼻炎及哮喘家族史: whose the first item is, the words do not settle
    if other and c.polarity == "present":
        r = other[0]
        if c.owner == "patient":
            return _Verdict("contradicted", r, f"“{label}”在病历中属家族史，不是患者本人",
                            f"{label} is family history in the record, not the patient's")
        return _Verdict("contradicted", r, f"“{label}”在病历中是患者本人的，不是家族史",
                        f"{label} is the patient's own in the record, not family history")
    return None  # only uncertain mentions in the record: nothing to hold the claim against


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


_DX_QUALIFIERS = re.compile(r"[（(].*?[)）]|^\s*\d+[.、]\s*")


# qualifiers that make two diagnoses different ones however many words they share
_OPPOSED_QUALIFIERS = (("上", "下"), ("左", "右"), ("急性", "慢性"), ("原发", "继发"), ("良性", "恶性"), ("1型", "2型"),
                       ("升", "降"), ("显性", "隐性"), ("高", "低"), ("前", "后"))


def _opposed(name: str, diagnosis: str) -> bool:
    """The name becomes (part of) the diagnosis only by swapping one qualifier for its opposite
    (上消化道出血 / 下消化道出血, 1型糖尿病 / 2型糖尿病)."""
    for a, b in _OPPOSED_QUALIFIERS:
        for x, y in ((a, b), (b, a)):
            if x in name and y in diagnosis and x not in diagnosis:
                swapped = name.replace(x, y)
                if len(swapped) >= 3 and swapped in diagnosis:
                    return True
    return False


@lru_cache(maxsize=1024)
def _listed_names(diagnosis: str) -> frozenset[str]:
    """A listed diagnosis and the diseases the text layer reads in it; per record, so cached."""
    return frozenset({diagnosis} | {f.norm for f in textlayer.findings(diagnosis) if f.kind == "disease"})


def _names_listed(c: Claim, diagnosis: str) -> bool:
    """The claim names the listed diagnosis, a kind of it or what it is a kind of: by the lexicon's
    terms and hierarchy, containment (肠梗阻 in 急性肠梗阻) or the characters in order (嵌顿疝 in
    嵌顿性腹股沟斜疝)."""
    lex = get_lexicon()
    listed = _listed_names(diagnosis)
    for name in {c.key, c.text}:
        if _opposed(name, diagnosis):
            return False  # 上消化道出血 is not 下消化道出血, whatever the shared words
        for d in listed:
            if _opposed(name, d):
                continue
            if _similar_key(name, d) or lex.related(name, d):
                return True
        if len(name) >= 3 and any(_subsequence(name, d) for d in _qualified_forms(diagnosis)):
            return True
    return False


_BRACKETED = re.compile(r"^(?P<head>[^（(]+)[（(](?P<inner>[^）)]+)[）)]")


def _qualified_forms(diagnosis: str) -> list[str]:
    """The diagnosis and, when it carries qualifiers in brackets, each qualifier put before its head:
    急性胰腺炎（胆源性，轻症） is also 胆源性急性胰腺炎, as a writer may word it."""
    forms = [diagnosis]
    m = _BRACKETED.match(diagnosis)
    if m:
        forms += [q.strip() + m.group("head") for q in re.split(r"[，,、；;]", m.group("inner")) if q.strip()]
    return forms


def _diagnosis(c: Claim, rec: ClaimIndex, diagnoses: list[str] | None) -> _Verdict | None:
    label = c.text
    for d in diagnoses or []:
        if _names_listed(c, d):
            span = _locate(d, rec.text)
            return _Verdict("supported", span, f"与病历诊断一致：{d}", f"matches the record's diagnosis: {d}")
    mine = [r for r in _finding_mentions(c, rec) if r.owner == c.owner and not r.diagnosis]
    for r in mine:
        if r.polarity == "present":
            return _Verdict("supported", r, f"病历记载患者有“{label}”", f"the record gives the patient {label}")
    for r in mine:
        if r.polarity == "absent":
            return _Verdict("contradicted", r, f"病历记载为无/否认“{label}”", f"the record denies {label}")
    if not diagnoses:
        return None  # the record gives no diagnosis to hold it against
    listed = "；".join(diagnoses)
    return _Verdict("unsupported", None, f"病历诊断为“{listed}”，不支持“{label}”",
                    f"the record's diagnosis is {listed}; it does not support {label}")


def _record_drugs(c: Claim, rec: ClaimIndex) -> list[Claim]:
    """The record's mentions of the claim's drug: dosed or not, by its generic name, a similar
    name (美托洛尔 in 琥珀酸美托洛尔缓释片) or any written form of it found in the record text."""
    same = rec.of("drug", c.key) or [r for r in rec.of("drug") if _similar_key(c.key, r.key)]
    if same:
        return same
    same = [r for r in rec.of("drug") if textlayer.same_medicine(c.key, r.key)]
    if same:
        return same
    # the record's other mentions count only where it says the drug was used (not 对头孢曲松敏感, 青霉素过敏)
    for canon, surface, start, end in textlayer.drugs(rec.text):
        # a medicine the record names without a dose the claim patterns read (碳酸钙D3片每日1片)
        if (textlayer.same_medicine(c.key, canon) or textlayer.same_medicine(c.key, surface)) \
                and names_use(rec.text, start, end):
            polarity, owner = textlayer.polarity_at(rec.context, start, end)
            return [Claim("drug", start, end, surface, key=c.key, polarity=polarity, owner=owner,
                          extra={"name": surface, "no_dose": True})]
    for term in dict.fromkeys((str(c.extra.get("name", "")), c.key, *textlayer.aliases(c.key))):
        for m in re.finditer(re.escape(term), rec.text) if len(term) >= 2 else ():
            if not names_use(rec.text, m.start(), m.end()):
                continue
            polarity, owner = textlayer.polarity_at(rec.context, m.start(), m.end())
            return [Claim("drug", m.start(), m.end(), term, key=c.key, polarity=polarity, owner=owner,
                          extra={"name": term, "no_dose": True})]
    return _misspelt_in_record(c, rec)


def _misspelt_in_record(c: Claim, rec: ClaimIndex) -> list[Claim]:
    """The drug written in the record with one character wrong (亚安培南 for 亚胺培南), where it says
    the drug was used: a stretch of the name's length that differs in one character and is not
    itself another drug the lexicon knows (阿洛西林 is not a misspelt 阿莫西林)."""
    for term in dict.fromkeys((str(c.extra.get("name", "")), c.key)):
        n = len(term)
        if n < 4:
            continue
        for i in range(len(rec.text) - n + 1):
            piece = rec.text[i:i + n]
            if piece[0] != term[0] and piece[-1] != term[-1]:
                continue
            if sum(a != b for a, b in zip(piece, term, strict=True)) != 1 or textlayer.is_drug(piece):
                continue
            if not all("\u4e00" <= ch <= "\u9fa5" for ch in piece) or not names_use(rec.text, i, i + n):
                continue
            polarity, owner = textlayer.polarity_at(rec.context, i, i + n)
            return [Claim("drug", i, i + n, piece, key=c.key, polarity=polarity, owner=owner,
                          extra={"name": piece, "no_dose": True})]
    return []


def _drug_named(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    """A drug named without a dose: held against the drugs the record names, whatever their dose."""
    name = str(c.extra.get("name", c.key))
    found = _record_drugs(c, rec)
    given = [r for r in found if r.polarity != "absent"]
    if c.polarity == "absent":
        # 未服用抗凝药: only a record that gives the drug can deny it
        if found and not any(r.polarity == "absent" for r in found) and given:
            r = given[0]
            return _Verdict("contradicted", r, f"病历记载使用了{name}：{rec.text[r.start:r.end]}",
                            f"the record has {name}: {rec.text[r.start:r.end]}")
        return _Verdict("supported", found[0], f"与病历一致：未用{name}", f"matches the record: no {name}") \
            if found else None
    if given:
        return _Verdict("supported", given[0], f"与病历一致：{name}", f"matches the record: {name}")
    if found:
        r = found[0]
        return _Verdict("contradicted", r, f"病历记载未使用{name}：{rec.text[r.start:r.end]}",
                        f"the record says {name} was not used: {rec.text[r.start:r.end]}")
    if c.extra.get("class"):
        return None  # a kind of drug (降压药, 抗生素): the record may name its members in any words
    return _Verdict("unsupported", None, f"病历中没有使用{name}的记录", f"the record has no {name}")


def _drug(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    if c.extra.get("no_dose"):
        return _drug_named(c, rec)
    name = str(c.extra.get("name", c.key))
    dosed = [r for r in rec.of("drug") if not r.extra.get("no_dose")]
    cands = [r for r in dosed if r.key == c.key] or [r for r in dosed if _similar_key(c.key, r.key)]
    for r in cands:
        same = same_quantity(c.value or 0.0, c.unit, r.value or 0.0, r.unit, a_text=c.value_text, b_text=r.value_text)
        if same:
            f1, f2 = c.extra.get("freq"), r.extra.get("freq")
            if f1 is not None and f2 is not None and f1 != f2:
                return _Verdict("value_mismatch", r, f"用药频次与病历不符：病历为 {rec.text[r.start:r.end]}",
                                f"frequency differs from the record: {rec.text[r.start:r.end]}")
            return _Verdict("supported", r, f"与病历一致：{name}", f"matches the record: {name}")
    if cands:
        r = cands[0]
        return _Verdict("value_mismatch", r, f"剂量与病历不符：病历为 {rec.text[r.start:r.end]}",
                        f"dose differs from the record: {rec.text[r.start:r.end]}")
    for term in (c.key, name):
        pos = rec.text.find(term) if len(term) >= 2 else -1
        if pos >= 0:
            return _Verdict("unsupported", (pos, pos + len(term)), f"病历提到{term}，但没有该剂量",
                            f"the record mentions {term} but not this dose")
    return _Verdict("unsupported", None, f"病历中没有使用{name}的记录", f"the record has no {name}")


def _sex(c: Claim, rec: ClaimIndex) -> _Verdict:
    cands = rec.of("sex")
    if not cands:
        return _Verdict("unsupported", None, "病历未记载性别", "the record gives no sex")
    r = cands[0]
    if r.value_text == c.value_text:
        return _Verdict("supported", r, f"性别一致：{c.value_text}", f"sex matches: {c.value_text}")
    return _Verdict("contradicted", r, f"性别与病历不符：病历为{r.value_text}", f"sex contradicts the record ({r.value_text})")


def _age(c: Claim, rec: ClaimIndex) -> _Verdict:
    cands = rec.of("age")
    if not cands:
        return _Verdict("unsupported", None, "病历未记载年龄", "the record gives no age")
    r = cands[0]
    a, b = c.value or 0.0, r.value or 0.0
    tolerance = 0.5 if min(a, b) >= 2 else 0.1 * max(a, b) + 1e-9
    if abs(a - b) <= tolerance:
        return _Verdict("supported", r, f"年龄一致：{c.text}", f"age matches: {c.text}")
    return _Verdict("contradicted", r, f"年龄与病历不符：病历为{rec.text[r.start:r.end]}",
                    f"age contradicts the record ({rec.text[r.start:r.end]})")


def _same_place(c: Claim, r: Claim) -> bool:
    """The record mention ``r`` puts the claim's part on the same side (a bilateral record covers
    either side) and, for a lung, in an overlapping zone (右下肺 = 右肺下叶; 双肺中下野 covers 下)."""
    if r.side != c.side and r.side != "双":
        return False
    zc, zr = str(c.extra.get("zone", "")), str(r.extra.get("zone", ""))
    return not zc or not zr or bool(set(zc) & set(zr))


def _laterality(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    cands = rec.of("laterality", c.key)
    if not cands:
        return None  # the record gives no side for this part: nothing to hold it against
    if c.side == "双" and {r.side for r in cands if _same_place(Claim(c.kind, 0, 0, "", side=r.side,
                                                                      extra=c.extra), r)} >= {"左", "右"}:
        return _Verdict("supported", cands[0], f"侧别一致：{c.text}", f"both sides are recorded: {c.text}")
    # the record mention that says the same thing (右侧阴囊空虚 vs 左侧阴囊空虚 / 右侧阴囊内可扪及睾丸)
    context = str(c.extra.get("context", ""))

    def similarity(r: Claim) -> float:
        other = str(r.extra.get("context", ""))
        return max(fuzz.ratio(context, other), _bigram_recall(context, other))

    scored = sorted(((similarity(r), r) for r in cands), key=lambda p: -p[0])
    best_score, best = scored[0]
    if best_score >= 50 and len(context) >= 3:
        close = [r for s, r in scored if s >= best_score - 5]
        if any(_same_place(c, r) for r in close):
            return _Verdict("supported", best, f"侧别一致：{c.text}", f"side matches: {c.text}")
        r = close[0]
    else:
        for r in cands:
            if _same_place(c, r):
                return _Verdict("supported", r, f"侧别一致：{c.text}", f"side matches: {c.text}")
        r = cands[0]
    shown = rec.text[r.start:r.end + (3 if r.key != "肺" and not r.key.endswith("偏向") and r.extra.get("zone") else 0)]
    if r.side == c.side:
        return _Verdict("contradicted", r, f"部位（肺叶/肺野/节段）与病历不符：病历为“{shown}”",
                        f"wrong lobe or zone: the record has {shown}")
    return _Verdict("contradicted", r, f"侧别与病历相反：病历为“{shown}”", f"wrong side: the record has {shown}")


def _key_score(a: str, b: str) -> float:
    short, long = sorted((a, b), key=len)
    if len(short) >= 2 and short in long and len(short) / len(long) >= 0.4:
        return 90.0  # 血便 in 再次排血便, not 发热 in 发热伴持续抽搐
    score = fuzz.ratio(a, b)
    if min(len(a), len(b)) >= 3:
        score = max(score, fuzz.partial_ratio(a, b))
    return score


def _bigram_recall(a: str, b: str) -> float:
    grams = {a[i:i + 2] for i in range(len(a) - 1)}
    return 100.0 * sum(g in b for g in grams) / len(grams) if grams else 0.0


def _main_events(c: Claim) -> list[str]:
    """A duration's keys and, of each, what comes before 伴 (血便约600ml伴神志淡漠: the bleed is what is timed)."""
    keys = [str(k) for k in c.extra.get("keys", [c.key])]  # type: ignore[union-attr]
    return keys + [k.split("伴")[0] for k in keys if "伴" in k[2:]]


def _duration(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    cands = []
    for r in rec.of("duration"):
        # the claim's own key (what precedes it, else what follows) against every key of the record's
        score = max(_key_score(c.key, b) for b in r.extra.get("keys", [r.key]))
        if score >= 80:
            cands.append((score, r))
    if not cands:
        return None
    for _, r in cands:
        a, b = c.value or 0.0, r.value or 0.0
        slack = 0.35 if (c.extra.get("approx") or r.extra.get("approx")) else 0.1
        if abs(a - b) <= slack * max(a, b):
            return _Verdict("supported", r, f"时间一致：{c.text}", f"duration matches: {c.text}")
    # the record holds the same span for the same event worded apart (8小时前转移至右下腹 = 约8小时前疼痛转移并
    # 固定于右下腹): half the words of one key in the other, at the same value
    for r in rec.of("duration"):
        a, b = c.value or 0.0, r.value or 0.0
        if abs(a - b) <= 0.1 * max(a, b) and any(
                max(_bigram_recall(k, rk), _bigram_recall(rk, k)) >= 50
                for k in _main_events(c) for rk in _main_events(r)):
            return _Verdict("supported", r, f"时间一致：{c.text}", f"duration matches: {c.text}")
    r = max(cands, key=lambda p: p[0])[1]
    return _Verdict("contradicted", r, f"时间与病历不符：病历为{r.text}", f"duration contradicts the record ({r.text})")


_MODALITY_CLASS = {"B超": "超声", "彩超": "超声", "心超": "超声", "超声心动图": "超声", "X光": "X线", "胸片": "X线", "平片": "X线",
                   "磁共振": "MRI", "核磁": "MRI", "MR": "MRI", "结肠镜": "肠镜", "骨穿": "骨髓穿刺", "骨髓涂片": "骨髓穿刺",
                   "眼底": "眼底检查", "动态心电图": "心电图", "CTPA": "CT", "CTA": "CT", "CTU": "CT", "PET-CT": "CT",
                   "MRCP": "MRI", "MRA": "MRI", "正斜片": "X线", "正侧位片": "X线", "正位片": "X线", "侧位片": "X线",
                   "斜位片": "X线", "DR": "X线", "CDFI": "超声", "多普勒": "超声", "静脉取血": "静脉采血", "AVS": "静脉采血",
                   "IPSS": "静脉采血", "KUB": "X线", "鼻咽镜": "鼻内镜", "鼻窦镜": "鼻内镜"}
_REGION_SYNONYMS = (("头颅", "头部", "颅脑", "头", "颅"), ("胸部", "胸", "肺部", "肺", "胸腔"),
                    ("腹部", "腹", "上腹部", "全腹", "下腹部", "肝胆", "腹盆腔"), ("心脏", "心"), ("泌尿系", "肾", "双肾"))


def _regions_fit(a: str, b: str) -> bool:
    """One examination region names the other's: empty, contained, a shared pair of characters, or
    the same region in other words (头颅 = 头部 = 颅脑)."""
    if not a or not b or a in b or b in a:
        return True
    if any(a[i:i + 2] in b for i in range(len(a) - 1)):
        return True
    return any(any(w in a for w in group) and any(w in b for w in group) for group in _REGION_SYNONYMS)


def _record_exams(rec: ClaimIndex) -> list[tuple[str, str, int, int, str]]:
    """(modality class, region, start, end, what follows to the end of its line) of every
    examination the record names, computed once per record."""
    if rec.exams is None:
        from medsim.facts.claims import EXAM_MENTION, exam_phrase

        found = []
        for m in EXAM_MENTION.finditer(rec.text):
            region, mod = exam_phrase(m)
            if not region:  # CT肺动脉造影: the region follows the modality
                region = re.sub(r"^(?:检查|平扫|增强|扫描|示|提示)+", "", re.match(r"[\u4e00-\u9fa5]{0,5}", rec.text[m.end():]).group(0))
                region = re.split(r"检查|示|提示|见|：", region)[0]
            line_end = rec.text.find("\n", m.end())
            line_end = len(rec.text) if line_end < 0 else line_end
            follow = rec.text[m.end():line_end]
            if len(follow.strip(" ：:（）()0123456789")) < 3:  # a heading: the result is on the next line
                nxt = rec.text.find("\n", line_end + 1)
                follow = rec.text[m.end():len(rec.text) if nxt < 0 else nxt]
            found.append((_MODALITY_CLASS.get(mod, mod), region, m.start(), m.end(), follow))
        rec.exams = found
    return rec.exams


_RESULT_NOISE = re.compile(r"[^\u4e00-\u9fa5]")
_FILLER = set("左右双侧约及和与伴可为的")


def _content_recall(content: str, other: str) -> float:
    """How much of the content's wording (Chinese characters; numbers, sides and fillers aside) is
    in ``other``: its character pairs found there, or its characters less a margin for reordering
    (未见出血 for 未见颅内出血)."""
    core = _RESULT_NOISE.sub("", content)
    plain = _RESULT_NOISE.sub("", other)
    grams = {core[i:i + 2] for i in range(len(core) - 1)}
    chars = set(core) - _FILLER
    if not grams or not chars:
        return 1.0
    pairs = sum(g in plain for g in grams) / len(grams)
    return max(pairs, sum(ch in plain for ch in chars) / len(chars) - 0.2)


# the opposite segments of one structure (升结肠 / 降结肠, 上叶 / 下叶, 上段 / 下段, 近端 / 远端)
_SEGMENT_PAIRS = (("升", "降"), ("上", "下"), ("前", "后"), ("近", "远"))


def _swapped_place(content: str, report: str) -> tuple[str, str] | None:
    """A place in the content the report names only with the opposite segment word: (said, recorded)."""
    for a, b in _SEGMENT_PAIRS:
        for x, y in ((a, b), (b, a)):
            for m in re.finditer(rf"{x}(?=[\u4e00-\u9fa5]{{2}})", content):
                part = content[m.end():m.end() + 2]
                if y + part in report and x + part not in report:
                    return x + part, y + part
            # a segment noun alone (肝右前叶 against 肝右后叶, 上极 against 下极)
            for m in re.finditer(rf"{x}(?=[叶段极壁])", content):
                part = content[m.end()]
                organ = content[max(0, m.start() - 2):m.start()]
                if y + part in report and x + part not in report and (not organ or organ[-1] in report):
                    return x + part, y + part
    return None


_SIDE_AND_SEGMENT = re.compile(r"[左右双两侧上下前后中内外]")


def _part_missing(content: str, report: str) -> str | None:
    """A body part the content names whose characters (sides and segments aside: 肝右叶 fits 肝右后叶)
    the report does not hold, or None."""
    starts = [f.start for f in textlayer.findings(content)]
    for _, surface, _, end in textlayer.body_parts(content):
        if not any(0 <= s - end <= 4 for s in starts):
            continue  # only a part a finding is placed in (脾脓肿, 肝右叶囊肿), not one a measure names (动静脉比)
        core = _SIDE_AND_SEGMENT.sub("", surface) or surface
        if not all(ch in report for ch in core):
            return surface
    return None


def _denied_in_report(content: str, exam: tuple[str, str, int, int, str], rec: ClaimIndex) -> str | None:
    """A finding the content affirms that the examination's report names only to deny it (超声提示胎盘早剥
    against 胎盘未见早剥征象, 心电图示T波高尖 against 未见T波高尖), or None."""
    report, at = exam[4], exam[3]
    for f in textlayer.findings(content):
        if f.polarity != "present":
            continue
        for term in dict.fromkeys((f.text, f.norm)):
            positions = [m.start() for m in re.finditer(re.escape(term), report)] if len(term) >= 2 else []
            if not positions:
                continue
            polarities = {textlayer.polarity_at(rec.context, at + p, at + p + len(term))[0] for p in positions}
            if polarities == {"absent"}:
                return f.text
            break
    # a finding the text layer does not list (T波高尖): the content's own words, denied where the report has them
    core = _RESULT_NOISE.sub("", content)
    pos = report.find(core) if len(core) >= 3 else -1
    if pos >= 0 and textlayer.polarity_at(rec.context, at + pos, at + pos + len(core))[0] == "absent":
        return content
    # ... or one finding of several the content affirms (胰腺肿大伴渗出，可见胰腺坏死及胰周积液 against
    # 未见胰腺坏死及积液): each affirmed part, or its head noun (阑尾周围脓肿 → 脓肿), that the report
    # names only to deny it
    for clause in _RESULT_CLAUSES.split(content):
        if _RESULT_DENIES.search(clause):
            continue  # 未见脓肿及游离气体, 肾静脉及腔静脉内未见癌栓: a denial reaches the whole list
        for part in _RESULT_PARTS.split(clause):
            part = _RESULT_LEAD.sub("", part.strip())
            if not part:
                continue
            words = _RESULT_NOISE.sub("", part)
            for term in dict.fromkeys((words, words[-2:])):
                if len(term) < 2:
                    continue
                positions = [m.start() for m in re.finditer(re.escape(term), report)]
                if positions and {textlayer.polarity_at(rec.context, at + p, at + p + len(term))[0]
                                  for p in positions} == {"absent"}:
                    return part
                if positions:
                    break
    return None


_RESULT_CLAUSES = re.compile(r"[，,；;。]")
_VALUED = re.compile(r"\d\s*(?:cm|mm|ml|mL|L\b|%|mmol|μmol|mg|g/|U/|次/分|℃)")
_RESULT_PARTS = re.compile(r"[、]|及|和|并|伴")
_RESULT_LEAD = re.compile(r"^(?:可见|可及|见|示|提示|显示|发现|有|呈)+")
_RESULT_DENIES = re.compile(r"未|无|没有|不|非|正常|阴性|[（(]\s*[-－]\s*[)）]")


def _panel(c: Claim, rec: ClaimIndex) -> _Verdict:
    """A panel called normal: the record must name a panel of its groups or give one of their values
    (whether the values are normal is the measurement checks' to say)."""
    groups = set(c.extra["panel"])
    for name, its in analytes.PANELS.items():
        pos = rec.text.find(name) if groups & set(its) else -1
        if pos >= 0:
            return _Verdict("supported", (pos, pos + len(name)), f"病历有{name}结果", f"the record has a {name} result")
    for r in rec.of("measurement"):
        a = analytes.get(r.key)
        if a is not None and a.group in groups:
            return _Verdict("supported", r, f"病历有{c.key}的数值", f"the record gives {c.key} values")
    return _Verdict("unsupported", None, f"病历中没有{c.key}的结果", f"the record has no {c.key} result")


def _result(c: Claim, rec: ClaimIndex) -> _Verdict | None:
    """An examination's result: the record must name the examination (same kind, a region that
    fits) and hold what the text says it showed (most of its wording, in that examination's
    report or anywhere in the record)."""
    if c.extra.get("panel"):
        return _panel(c, rec)
    mod = _MODALITY_CLASS.get(c.key, c.key)
    region = str(c.extra.get("region", ""))
    exam = str(c.extra.get("exam", c.key))
    content = str(c.extra.get("content", ""))
    same = [e for e in _record_exams(rec) if e[0] == mod and _regions_fit(region, e[1])]
    negative = re.match(r"(?:未见|未发现|无|正常|无明显|均正常)", content)
    if not same:
        return _Verdict("unsupported", None, f"病历中没有{exam}的结果", f"the record has no {exam} result")
    best = max(same, key=lambda e: _content_recall(content, e[4]))
    if negative:
        # a normal or negative report of a recorded examination: not an invention (a wrong one
        # is the negation and finding checks' to catch)
        return _Verdict("supported", (best[2], best[3]), f"病历有{exam}结果", f"the record has a {exam} result")
    swapped = _swapped_place(content, best[4])
    if swapped:
        return _Verdict("contradicted", (best[2], best[3]), f"部位与病历不符：病历{exam}为“{swapped[1]}”，不是“{swapped[0]}”",
                        f"wrong site: the record's {exam} has {swapped[1]}, not {swapped[0]}")
    denied = _denied_in_report(content, best, rec)
    if denied:
        # affirming what the report denies is saying the opposite of the record, not an addition to it
        return _Verdict("contradicted", (best[2], best[3]), f"病历中{exam}未见“{denied}”",
                        f"the record's {exam} reports no {denied}")
    # the organ the content names must be the report's (脾脓肿 is not the record's 肝右后叶脓肿)
    elsewhere = _part_missing(content, best[1] + best[4])
    if elsewhere and any(_part_missing(content, e[1] + e[4]) is None for e in same):
        best = next(e for e in same if _part_missing(content, e[1] + e[4]) is None)
        elsewhere = None
    if elsewhere and any(_part_missing(content, e[1] + e[4]) is None for e in _record_exams(rec)):
        elsewhere = None  # another of the record's reports names that part (a record that splits its findings)
    if elsewhere:
        return _Verdict("unsupported", (best[2], best[3]), f"病历中{exam}的结果没有“{elsewhere}”的所见",
                        f"the record's {exam} reports nothing on {elsewhere}")
    # a clause of the content that gives a value (最浅处离体表约30mm) is the measurement check's, not
    # wording to find in the report
    worded = "，".join(p for p in re.split(r"[，,；;。、]", content) if p and not _VALUED.search(p)) or content
    if max(_content_recall(t, best[4]) for t in (content, worded)) >= 0.5 \
            or max(_content_recall(t, rec.text) for t in (content, worded)) >= 0.75:
        return _Verdict("supported", (best[2], best[3]), f"病历有{exam}结果：{content}", f"the record has this {exam} result")
    return _Verdict("unsupported", (best[2], best[3]), f"病历中{exam}的结果没有“{content}”",
                    f"the record's {exam} result does not say {content}")


_MATCHERS = {"measurement": _measurement, "result": _result, "finding": _finding, "drug": _drug, "sex": _sex, "age": _age,
             "laterality": _laterality, "duration": _duration, "vitals": _vitals,
             "range": _field_range}


# ------------------------------------------------------------------------------ check

def judge(claim: Claim, rec: ClaimIndex, diagnoses: list[str] | None = None) -> _Verdict | None:
    """The verdict on one claim, or None when the record has nothing to hold it against.
    ``diagnoses``: the record's diagnosis list, for a diagnosis the text states."""
    if claim.diagnosis:
        return _diagnosis(claim, rec, diagnoses)
    return _MATCHERS[claim.kind](claim, rec)


_NO_VERDICT = {
    "finding": ("病历中没有可对照的记载（未作为病史或检查结果陈述的疾病视为推理）",
                "nothing in the record to hold it against (a disease not stated as history or a result is reasoning)"),
    "duration": ("病历中没有同一症状的时间可对照", "the record gives no duration for the same thing"),
    "laterality": ("病历未记载该部位的侧别", "the record gives no side for this part"),
    "measurement": ("阈值或标准，病历中没有可比较的数值", "a threshold or criterion with no recorded value to compare"),
    "vitals": ("过去某时的生命体征，病历没有同一时间的记载", "a vital sign at a past time the record does not describe"),
    "drug": ("药物类别或未用药的陈述，病历中没有可对照的记载", "a drug class, or a drug not taken, that the record does not mention"),
}


def _why_not(claim: Claim, diagnoses: list[str] | None) -> tuple[str, str]:
    if claim.diagnosis and not diagnoses:
        return "病历没有诊断可对照", "the record gives no diagnosis to hold it against"
    return _NO_VERDICT.get(claim.kind, ("病历中没有可对照的记载", "nothing in the record to hold it against"))


def record_diagnoses(case_or_record: Case | str) -> list[str]:
    """The record's diagnosis list: the case's, else the 诊断 section of its plain-text record."""
    if isinstance(case_or_record, Case) and case_or_record.diagnosis:
        return [d for d in case_or_record.diagnosis if d.strip()]
    text = case_or_record.record_text if isinstance(case_or_record, Case) else case_or_record
    return list(_diagnosis_section(text)) if text else []


@lru_cache(maxsize=1024)
def _diagnosis_section(record_text: str) -> tuple[str, ...]:
    """The diagnoses under the 诊断 heading of a plain-text record, parsed once per record."""
    from medsim.facts.record_parse import diagnosis_list, sections

    return tuple(diagnosis_list(sections(record_text).get("diagnosis", "")))


@lru_cache(maxsize=1024)
def _normalized(diagnoses: tuple[str, ...]) -> tuple[str, ...]:
    """The record's diagnoses normalized as its text is, once per record rather than per check."""
    return tuple(textlayer.normalize(d)[0] for d in diagnoses)


def _finding_of(claim: Claim, verdict: _Verdict, out: ClaimIndex, rec: ClaimIndex) -> FactFinding:
    ev = verdict.evidence
    if isinstance(ev, Claim):
        ev_span: tuple[int, int] | None = rec.orig_span(ev.start, ev.end)
    elif isinstance(ev, tuple):
        ev_span = rec.orig_span(*ev)
    else:
        ev_span = None
    span = out.orig_span(claim.start, claim.end)
    kind = "diagnosis" if claim.diagnosis else claim.kind
    return FactFinding(
        status=verdict.status, kind="diagnosis" if claim.diagnosis else claim.kind, key=claim.key, text=out.original[span[0]:span[1]], span=span,
        evidence=ev_span, evidence_text=rec.original[ev_span[0]:ev_span[1]] if ev_span else "",
        reason_zh=f"[{KIND_ZH.get(kind, kind)}] {verdict.zh}", reason_en=f"[{kind}] {verdict.en}",
    )


def score_of(counts: dict[str, int]) -> float:
    total = sum(counts.get(s, 0) for s in STATUSES)
    return 1.0 if total == 0 else counts.get("supported", 0) / total


def check(case_or_record: Case | str, text: str, *, key_facts: list[str] | None = None,
          prescribing: bool = False) -> FactReport:
    """Check every claim in ``text`` against the record; omissions of ``key_facts`` (default: the case's).

    ``prescribing``: the text prescribes (a discharge instruction, a treatment plan), so a drug the
    record does not hold is a new prescription, not an invented history; a drug the record holds is
    still held to its dose."""
    rec = index_record(record_text_of(case_or_record))
    out = index_text(text)
    diagnoses = list(_normalized(tuple(record_diagnoses(case_or_record))))
    findings: list[FactFinding] = []
    not_checked: list[NotChecked] = []
    for claim in out.claims:
        why = claim.skip_reason
        verdict = judge(claim, rec, diagnoses) if why is None else None
        if prescribing and verdict is not None and claim.kind == "drug" and verdict.status == "unsupported":
            verdict, why = None, ("新开的处方，不是病历事实", "a new prescription, not a fact about the record")
        if verdict is None:
            zh, en = why or _why_not(claim, diagnoses)
            span = out.orig_span(claim.start, claim.end)
            kind = "diagnosis" if claim.diagnosis else claim.kind
            not_checked.append(NotChecked(kind, out.original[span[0]:span[1]], span, zh, en))
            continue
        findings.append(_finding_of(claim, verdict, out, rec))
    counts = {s: sum(1 for f in findings if f.status == s) for s in STATUSES}
    if key_facts is None and isinstance(case_or_record, Case):
        key_facts = case_or_record.key_facts
    missing = omissions(case_or_record, text, key_facts=key_facts or [])
    counts["omission"] = len(missing)
    return FactReport(findings, counts, score_of(counts), missing, len(not_checked), not_checked)


def _compact(text: str) -> str:
    return "".join(ch for ch in textlayer.normalize(text)[0] if ch.isalnum() or ch in ".%/^×")


def omissions(case_or_record: Case | str, text: str, key_facts: list[str] | None = None) -> list[Omission]:
    """Key facts the text leaves out: each key fact's claims are checked against the *text*.

    A key fact is covered when its words appear in the text, or when every checkable claim it
    makes is supported by the text; a claim the text does not make (unsupported) or states
    otherwise is what is missing.
    """
    if key_facts is None:
        key_facts = [] if isinstance(case_or_record, str) else list(case_or_record.key_facts)
    if not key_facts:
        return []
    out = index_text(text)
    compact_text = _compact(text)
    result = []
    for fact in key_facts:
        compact_fact = _compact(fact)
        if compact_fact and compact_fact in compact_text:
            continue
        fact_idx = index_text(fact)
        # a size or volume is compared when both sides name it alike; a key fact's wording of it
        # (胆囊内1.8cm结石) need not be the summary's (胆囊结石，直径1.8cm), so it does not decide coverage
        claims = [c for c in fact_idx.claims if c.checkable and not c.extra.get("compare_only")]
        missing = []
        for claim in claims:
            verdict = judge(claim, out)
            if verdict is None or verdict.status != "supported":
                missing.append(fact_idx.text[claim.start:claim.end])
        if claims and not missing:
            continue
        if not claims and compact_fact and fuzz.partial_ratio(compact_fact, compact_text) >= 80:
            continue
        result.append(Omission(fact, f"未提及关键事实：{fact}", f"key fact left out: {fact}", missing))
    return result
