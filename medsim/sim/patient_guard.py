"""The guard on an LLM patient's turn: does it leak the diagnosis, invent a finding, or quote a
result it was never given?

The fact checker's ``medsim.facts.guard.check_patient_turn`` is the guard (inventions,
contradictions, results not yet revealed); the simulator adds its own diagnosis-name list
on top (``leak``: lay names and core disease names too). If the checker cannot be imported
or fails, a minimal built-in check stands in, so an LLM patient is never run unguarded:
diagnosis terms, symptoms said to be present that the disclosable record never mentions,
and lab-style values.
"""

from __future__ import annotations

import re
from typing import Any

from medsim.sim import leak, textlink
from medsim.sim.disclosure import Policy

_VALUE = re.compile(r"\d+(\.\d+)?\s*(mmol|μmol|umol|g/l|u/l|×10|x10|mg/dl|ng/ml|pg/ml|iu)", re.IGNORECASE)


def guard_turn(policy: Policy, utterance: str) -> tuple[list[dict[str, Any]], str]:
    """Flags on ``utterance`` as dicts (kind, span, reason), and which guard produced them."""
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
        if not any(_overlap(f["span"], span) for f in out):
            out.append({"kind": "diagnosis_leak", "span": span, "reason": f"患者说出了诊断“{term}”"})
    return out


def _overlap(a: Any, b: Any) -> bool:
    return bool(a) and bool(b) and a[0] < b[1] and b[0] < a[1]


def _as_dict(flag: Any) -> dict[str, Any]:
    if isinstance(flag, dict):
        return {"kind": flag.get("kind", "flag"), "span": flag.get("span"), "reason": flag.get("reason", "")}
    span = getattr(flag, "span", None)
    return {"kind": str(getattr(flag, "kind", "flag")), "span": list(span) if isinstance(span, tuple) else span,
            "reason": str(getattr(flag, "reason", ""))}
