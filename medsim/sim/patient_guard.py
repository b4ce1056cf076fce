"""The guard on an LLM patient's turn: does it leak the diagnosis, invent a finding, or quote a
result it was never given?

The fact checker's ``medsim.facts.guard.check_patient_turn`` is the guard (inventions,
contradictions, results not yet revealed); the simulator adds its own diagnosis-name list
on top (``leak``: lay names and core disease names too), and what only a simulator can get
wrong — breaking the role (``role_breaks``): speaking as the doctor ("您好，我是你的医生",
"建议你做个心电图"), reading the record aloud (section labels such as "主诉：…", prescription
abbreviations, a long stretch copied from the record, the record's third person 患者…), or
speaking for oneself when the record says the patient cannot (unconscious, a young child:
the family member with them answers). If the checker cannot be imported
or fails, a minimal built-in check stands in, so an LLM patient is never run unguarded:
diagnosis terms, symptoms said to be present that the disclosable record never mentions,
and lab-style values.
"""

from __future__ import annotations

import re
from typing import Any

from medsim.scenario.schema import RECORD_SECTIONS
from medsim.sim import lay, leak, textlink
from medsim.sim.disclosure import Policy

_VALUE = re.compile(r"\d+(\.\d+)?\s*(mmol|μmol|umol|g/l|u/l|×10|x10|mg/dl|ng/ml|pg/ml|iu)", re.IGNORECASE)


def guard_turn(policy: Policy, utterance: str) -> tuple[list[dict[str, Any]], str]:
    """Flags on ``utterance`` as dicts (kind, span, reason), and which guard produced them."""
    flags, guard = _fact_flags(policy, utterance)
    breaks = role_breaks(policy, utterance)
    flags = [f for f in flags if not any(_overlap(f.get("span"), b["span"]) for b in breaks)] + breaks
    return sorted(flags, key=lambda f: tuple(f["span"] or (0, 0))), guard


def _fact_flags(policy: Policy, utterance: str) -> tuple[list[dict[str, Any]], str]:
    try:
        from medsim.facts.guard import check_patient_turn  # type: ignore[import-not-found]
    except Exception:
        check_patient_turn = None
    if check_patient_turn is not None:
        try:
            flags = check_patient_turn(policy.case, utterance, disclosed_fields=list(policy.disclosable()))
            out = [_as_dict(f) for f in flags]
            # the diagnosis rule is the simulator's own promise, with its fuller list of names
            # (心梗 for 急性前壁ST段抬高型心肌梗死): a leak it finds replaces any other flag on
            # the same words
            for leak_flag in _leaks(policy, utterance):
                out = [f for f in out if not _overlap(f.get("span"), leak_flag["span"])]
                out.append(leak_flag)
            return sorted(out, key=lambda f: tuple(f["span"] or (0, 0))), "facts"
        except Exception as exc:  # a checker bug must not end the episode
            return builtin_flags(policy, utterance) + [
                {"kind": "guard_error", "span": None, "reason": f"facts guard failed: {exc!r}"}], "builtin"
    return builtin_flags(policy, utterance), "builtin"


def builtin_flags(policy: Policy, utterance: str) -> list[dict[str, Any]]:
    flags = _leaks(policy, utterance)
    known = "\n".join(policy.disclosable().values())
    known_terms = {t for t, _, _ in textlink.find_terms(known)}
    for f in textlink.findings(utterance):
        if f.polarity == "present" and not f.family and f.term not in known_terms and f.term != "疼痛":
            flags.append({"kind": "invented_finding", "span": [f.start, f.end],
                          "reason": f"病历中没有“{f.term}”：患者不应自述未记载的症状"})
    for m in _VALUE.finditer(utterance):
        flags.append({"kind": "test_result", "span": [m.start(), m.end()],
                      "reason": f"患者说出了检验数值“{m.group(0)}”，检查结果只应由检查给出"})
    return flags


def _leaks(policy: Policy, utterance: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for term in leak.find_leaks(utterance, policy.leak_terms):  # longest first
        start = utterance.find(term)
        span = [start, start + len(term)]
        if _of_a_relative(utterance, start) and term in "\n".join(policy.disclosable().values()):
            continue  # 我爸是心梗走的: the family history the patient was told, not the patient's diagnosis
        if not any(_overlap(f["span"], span) for f in out):
            out.append({"kind": "diagnosis_leak", "span": span, "reason": f"患者说出了诊断“{term}”"})
    return out


# ------------------------------------------------------------------------- breaking the role

# the doctor's side of the conversation: introducing oneself as the clinician, advising, ordering,
# diagnosing, asking the patient's questions
_AS_DOCTOR = re.compile(
    r"我是(?:你|您)的?(?:主治|接诊|值班)?(?:医生|大夫|医师)|我是(?:医生|大夫|医师)(?![吗吧？?])"
    r"|(?:建议|推荐)(?:你|您)(?:先|最好|尽快|马上)?(?:去|做|查|吃|服|用|住院|复查|检查|休息|多)"
    r"|(?:你|您)(?:需要|必须|应该|得)(?:做|查|住院|服用|吃|打|输液|手术|去)"
    r"|(?:我|我们)(?:给|帮)(?:你|您)(?:开|安排|做|查)"
    r"|(?:你|您)(?:今天)?(?:哪里|哪儿|什么地方)不舒服|(?:你|您)(?:有什么|哪里)(?:症状|不适)"
    r"|初步(?:诊断|考虑)|(?:诊断|考虑)(?:为|是)[^，。？]{0,8}(?:可能|吧)?[，。]|(?:你|您)(?:这是|得的是|患的是)")
# record voice: section labels, prescription shorthand, the record's own third person
_LABELS = "|".join(title for _, title in RECORD_SECTIONS) + "|主诉|现病史|既往史|个人史|婚育史|月经史|用药史|体格检查|辅助检查|初步诊断"
_RECORD_VOICE = re.compile(
    rf"(?:^|[\n。；，\s【\[])(?:{_LABELS})\s*[:：】\]]"
    r"|(?<![A-Za-z])(?:qd|bid|tid|qid|qn|qod|prn|po|ivgtt|iv|im|ih|q\d+h)(?![A-Za-z])"
    r"|^患者|[，。]患者(?:于|自|\d)")
_FIRST_PERSON_SYMPTOM = re.compile(r"我(?:现在|就是|觉得|感觉|还是|一直|有点|也|还|又|老是)?(?:头|胸|心口|肚子|胃|腰|嗓子|浑身|全身)?"
                                   r"(?:有点|很|特别|好)?(?:疼|痛|难受|晕|不舒服|喘|憋|恶心|想吐|没劲|发冷|冷)")
_COPY_LEN = 14  # characters copied from the record in one stretch: a patient retells, never recites
# what makes a copied stretch the record's voice rather than the patient's own words (a chief
# complaint is often the patient's words already: 吃海鲜后全身起疹子)
# (a dose is not one: patients read their pill boxes — "氨氯地平5mg一天一次" is a patient's sentence)
_RECORD_MARK = re.compile(r"否认|病史|伴|未(?:服|见|诉|及|闻)|诉|mmHg|mmol|[（(]|予|示|查体|来诊|就诊"
                          r"|突发|压榨样|放射|淋漓|无明显诱因", re.IGNORECASE)


def role_breaks(policy: Policy, utterance: str) -> list[dict[str, Any]]:
    """Where the utterance stops being the patient speaking (each a ``role_break`` flag with its
    ``role``: doctor | record | speechless)."""
    out: list[dict[str, Any]] = []

    def add(role: str, start: int, end: int, reason: str) -> None:
        span = [start, end]
        if not any(_overlap(f["span"], span) for f in out):
            out.append({"kind": "role_break", "role": role, "span": span, "reason": reason})

    for m in _AS_DOCTOR.finditer(utterance):
        add("doctor", m.start(), m.end(), f"患者说话像医生：“{m.group()}” / speaks as the doctor")
    for m in _RECORD_VOICE.finditer(utterance):
        start = m.start() + (1 if m.group()[:1] in "\n。；，【[ " and m.group()[:1] else 0)
        add("record", start, m.end(), f"患者在念病历：“{m.group().strip()}” / reads the record aloud")
    copied = _copied_from_record(policy, utterance)
    if copied and _RECORD_MARK.search(utterance, *copied):
        add("record", *copied, f"患者照搬病历原文：“{utterance[copied[0]:copied[1]]}” / recites the record")
    if lay.subject_for(policy.case) != "我":
        m = _FIRST_PERSON_SYMPTOM.search(utterance)
        if m and not re.search(r"我(?:爸|妈|老伴|丈夫|妻子|儿子|女儿|家|孩子|们)", utterance[m.start():m.start() + 3]):
            add("speechless", m.start(), m.end(),
                f"病历记载患者本人无法叙述（由家属代述），回答却以患者本人口吻说“{m.group()}” / "
                "speaks as the patient, who cannot speak")
    return out


def _copied_from_record(policy: Policy, utterance: str) -> tuple[int, int] | None:
    """The first stretch of ``_COPY_LEN`` characters of the utterance that the record holds verbatim."""
    record = "\n".join(t for t in policy.disclosable().values() if t)
    if len(utterance) < _COPY_LEN or not record:
        return None
    for i in range(len(utterance) - _COPY_LEN + 1):
        piece = utterance[i:i + _COPY_LEN]
        if piece in record and not piece.isdigit():
            end = i + _COPY_LEN
            while end < len(utterance) and utterance[i:end + 1] in record:
                end += 1
            return i, end
    return None


def _of_a_relative(utterance: str, pos: int) -> bool:
    try:
        from medsim.facts.guard_history import of_a_relative
    except Exception:  # the built-in guard stands alone
        return False
    return of_a_relative(utterance, pos)


def _overlap(a: Any, b: Any) -> bool:
    return bool(a) and bool(b) and a[0] < b[1] and b[0] < a[1]


def _as_dict(flag: Any) -> dict[str, Any]:
    if isinstance(flag, dict):
        return {"kind": flag.get("kind", "flag"), "span": flag.get("span"), "reason": flag.get("reason", "")}
    span = getattr(flag, "span", None)
    return {"kind": str(getattr(flag, "kind", "flag")), "span": list(span) if isinstance(span, tuple) else span,
            "reason": str(getattr(flag, "reason", ""))}
