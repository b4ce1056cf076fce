"""Guard for an LLM-played patient: flag an utterance that invents, leaks or jumps ahead.

- ``invented_finding``: the patient reports a symptom, sign, value, medicine or allergen the
  record does not contain.
- ``contradicted_fact``: the patient says what the record says otherwise, either way — 发烧
  where the record says 无发热, "以前没过敏过" with a recorded mango reaction, "平时吃的药只有
  感冒药" with 无长期用药, 不抽烟 with 吸烟40年 (``guard_history``: allergies, medicines, habits,
  family and own past history, read through the text layer).
- ``diagnosis_leak``: the patient names the case's diagnosis, which a patient cannot know
  (unless that name is already in a section the patient has disclosed, e.g. a past history).
- ``unrevealed_result``: the patient quotes a test or vital-sign result before that section was
  disclosed (ordered and revealed by the oracle).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz

from medsim.facts import textlayer
from medsim.facts.check import judge
from medsim.facts.claims import analyte_of
from medsim.facts.guard_history import history_flags, of_a_relative, site_pain_in_record
from medsim.facts.record import index_record, index_text
from medsim.scenario.schema import RECORD_FIELDS, Case
from medsim.text import get_lexicon

GuardKind = Literal["invented_finding", "contradicted_fact", "diagnosis_leak", "unrevealed_result"]
_RESULT_FIELDS = ("tests", "vitals", "physical_exam")
_BARE_VALUE = re.compile(r"(?P<name>[\u4e00-\u9fa5A-Za-z]{1,8}?)(?:是|有|为|:|：)?\s*(?P<v>\d+(?:\.\d+)?)(?![\d.])")
_QUALIFIERS = re.compile(r"^(急性|慢性|亚急性|原发性|继发性|左侧|右侧|双侧|左|右|疑似|可疑)+")


_UNSURE = re.compile(r"没注意|不清楚|不知道|记不清|说不上来|不太清楚|不记得|没留意")


def _same_quantity_in(claim, text: str) -> bool:
    """The claim's number with its unit appears in ``text`` (3kg in 体重下降约3kg)."""
    said = re.findall(r"\d+(?:\.\d+)?\s*[a-zA-Zμ%℃]+", claim.text)
    return bool(said) and all(re.sub(r"\s", "", q) in re.sub(r"\s", "", text) for q in said)


def _clause_bounds(text: str, pos: int) -> tuple[int, int]:
    start = max(text.rfind(p, 0, pos) for p in "，。；？！,") + 1
    ends = [i for i in (text.find(p, pos) for p in "，。；？！,") if i >= 0]
    return start, min(ends) if ends else len(text)


@dataclass
class GuardFlag:
    kind: GuardKind
    span: tuple[int, int]  # in the utterance
    reason: str  # Chinese, then English


def _diagnosis_terms(case: Case) -> list[str]:
    terms = []
    for d in case.diagnosis:
        d = re.sub(r"[（(].*?[)）]", "", d).strip(" ，,。")
        core = _QUALIFIERS.sub("", d)
        terms.extend(t for t in {d, core} if len(t) >= 2)
    return terms


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


def _disease_leaks(case: Case, utterance: str, disclosed_text: str) -> list[GuardFlag]:
    """Diseases the patient names (any polarity, a question too) that are the case's diagnosis, or
    a kind or a parent of it in the lexicon (疝气 → 腹股沟疝, the parent of 腹股沟斜疝); failing
    that, the name's characters in order (嵌顿疝 in 嵌顿性腹股沟斜疝)."""
    diagnoses = _diagnosis_terms(case)
    lex = get_lexicon()
    flags = []
    for f in textlayer.findings(utterance):
        if f.kind != "disease" or f.text in disclosed_text or f.norm in disclosed_text:
            continue  # a name the patient's own record gave them (父亲死于“心梗”), however said
        for name in {f.text, f.norm}:
            if len(name) < 2 or name in disclosed_text:
                continue
            if any(name in d or lex.related(name, d) or (len(name) >= 3 and _subsequence(name, d))
                   for d in diagnoses):
                flags.append(GuardFlag("diagnosis_leak", (f.start, f.end),
                                       f"患者说出了诊断“{f.text}”，患者不应知道 / the patient names the diagnosis {f.text}"))
                break
    return flags


def _leaks(case: Case, utterance: str, disclosed_text: str) -> list[GuardFlag]:
    flags = []
    for term in _diagnosis_terms(case):
        if term in disclosed_text:
            continue  # the patient may repeat a name the record gave them (既往高血压)
        pos = utterance.find(term)
        if pos < 0 and len(term) >= 4:
            al = fuzz.partial_ratio_alignment(term, utterance, score_cutoff=88)
            pos, end = (al.dest_start, al.dest_end) if al else (-1, -1)
        else:
            end = pos + len(term)
        if pos >= 0 and not any(f.span[0] <= pos < f.span[1] for f in flags):
            flags.append(GuardFlag("diagnosis_leak", (pos, end),
                                   f"患者说出了诊断“{term}”，患者不应知道 / the patient names the diagnosis {term}"))
    for flag in _disease_leaks(case, utterance, disclosed_text):
        if not any(f.span[0] < flag.span[1] and flag.span[0] < f.span[1] for f in flags):
            flags.append(flag)
    return flags


def check_patient_turn(case: Case, utterance: str, *, disclosed_fields: Iterable[str] | None = None) -> list[GuardFlag]:
    """Flags for one simulated-patient utterance. ``disclosed_fields``: record sections revealed so
    far (None: every section but the diagnosis, so only inventions and leaks are flagged)."""
    disclosed = set(RECORD_FIELDS) - {"diagnosis"} if disclosed_fields is None else set(disclosed_fields)
    disclosed_text = "\n".join(case.record_section(f) or "" for f in disclosed if f != "diagnosis")
    flags = _leaks(case, utterance, disclosed_text)
    for h in history_flags(case, utterance):
        if not any(f.span[0] < h.span[1] and h.span[0] < f.span[1] for f in flags):
            flags.append(GuardFlag(h.kind, h.span, h.reason))  # type: ignore[arg-type]

    # the patient knows their own record, except the diagnosis: hold the utterance against the rest
    record = case.model_copy(update={"diagnosis": []}).full_record_text()
    rec = index_record(record)
    out = index_text(utterance)
    hidden = [f for f in _RESULT_FIELDS if f not in disclosed]
    hidden_text = "\n".join(case.record_section(f) or "" for f in hidden)
    hidden_keys_all = {c.key for c in index_text(hidden_text).claims} if hidden else set()
    # what the patient's own story already holds (体温最高39.2℃ in the hpi) is theirs to say
    told_keys = {c.key for c in index_text(disclosed_text).claims if c.kind == "measurement"}
    for claim in out.claims:
        span = out.orig_span(claim.start, claim.end)
        if any(f.span[0] <= span[0] < f.span[1] for f in flags):
            continue
        if claim.kind == "measurement" and hidden and claim.key in hidden_keys_all and claim.key not in told_keys:
            flags.append(GuardFlag("unrevealed_result", span,
                                   f"患者提前说出了尚未揭示的检查结果“{claim.text}” / "
                                   f"the patient quotes a result not yet revealed: {claim.text}"))
            continue
        if claim.kind not in ("finding", "measurement", "drug") or claim.polarity != "present" or claim.owner != "patient":
            continue
        if of_a_relative(utterance, span[0]):
            continue  # a relative's illness; the history check holds family statements against the record
        if _UNSURE.search(utterance, *_clause_bounds(utterance, span[0])):
            continue  # 发烧这个我没注意: a patient who does not know says nothing of the record
        verdict = judge(claim, rec)
        if verdict is not None and verdict.status != "supported":
            if verdict.status == "unsupported" and site_pain_in_record(claim.key, record):
                continue  # 胸口痛 for 右侧胸部隐痛: the same pain in a patient's words
            if verdict.status == "unsupported" and claim.kind == "measurement" and _same_quantity_in(claim, disclosed_text):
                continue  # 瘦了大概3kg for 体重下降约3kg: the record's own figure in other words
            kind = "contradicted_fact" if verdict.status in ("contradicted", "value_mismatch") else "invented_finding"
            flags.append(GuardFlag(kind, span,
                                   f"病历中没有或与之矛盾：“{claim.text}”（{verdict.zh}） / "
                                   f"not in the record or contradicting it: {claim.text} ({verdict.en})"))
    if hidden:
        hidden_keys = {c.key for c in index_text(hidden_text).claims if c.kind == "measurement"}
        # a value said without its unit (白细胞5.0) is still a result
        for m in _BARE_VALUE.finditer(utterance):
            found = analyte_of(m.group("name"))
            after = utterance[m.end():m.end() + 2]
            if re.match(r"\s*(?:年|个月|月|天|周|岁|次|小时|分钟|多年)", after) or m.group("v") in disclosed_text:
                continue  # 高血压15年 is a duration; a number the patient's own record gives them is theirs
            if found and found[0] in hidden_keys and found[0] not in told_keys and not any(f.span[0] <= m.start("v") < f.span[1] for f in flags):
                start = m.start("name") + m.group("name").rfind(found[1])
                said = utterance[start:m.end()]
                flags.append(GuardFlag("unrevealed_result", (start, m.end()),
                                       f"患者提前说出了尚未揭示的检查结果“{said}” / "
                                       f"the patient quotes a result not yet revealed: {said}"))
    for test in case.tests if "tests" in hidden else []:
        for name in (test.name, *test.aliases):
            m = re.search(re.escape(name) + r"[^。，；]{0,4}(提示|显示|示|结果|报告|说)", utterance)
            if m and not any(f.span[0] <= m.start() < f.span[1] for f in flags):
                flags.append(GuardFlag("unrevealed_result", (m.start(), m.end()),
                                       f"患者提前说出了{name}的结果 / the patient quotes the {name} result before it was revealed"))
    return sorted(flags, key=lambda f: f.span)
