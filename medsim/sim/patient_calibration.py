"""Qualify a simulated patient before using it: ask it a fixed set of history questions on a
fixed set of cases and count how often it breaks the role, invents or contradicts the record,
leaks the diagnosis, needs regenerating, or answers nothing.

Every reply goes through the same guard a run uses (``patient_guard.guard_turn``: the fact
checker's inventions and contradictions through the text layer, both directions — what the
record says and what it does not — the diagnosis leak list, and role breaks). For an LLM patient
the figures are taken on its *first* attempt at each turn (what the model does) and on the turn
it kept after regeneration (what a run records); for the rule patient, on its replies as given,
so a user can pick rule or LLM patient on the same figures.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from medsim.sim.patient import make_patient
from medsim.sim.patient_guard import guard_turn
from medsim.sim.transcript import Turn

# history questions as clinicians ask them, in plain words; fixed so figures compare across patients
QUESTIONS = (
    "您哪里不舒服？",
    "这种情况有多长时间了？",
    "具体是什么感觉？能说说吗？",
    "有没有发烧？",
    "以前得过什么病吗？比如高血压、糖尿病？",
    "平时在吃什么药吗？",
    "对什么药或者食物过敏吗？",
    "抽烟喝酒吗？",
    "家里人有什么病吗？",
    "以前做过手术吗？",
    "来医院之前吃过什么药没有？",
    "大小便怎么样？",
    "您是做什么工作的？",
    "还有哪里不舒服吗？",
)
# triage and consultation cases: chest pain in shock, anaphylaxis with a food allergy, an
# unconscious diabetic (the family speaks), pneumonia, chronic cough, a young child (a parent speaks)
CASES = (("triage", "tri-001"), ("triage", "tri-002"), ("triage", "tri-003"), ("consultation", "con-003"),
         ("consultation", "con-004"), ("consultation", "con-028"))

INVENTED = {"invented_finding", "contradicted_fact", "unrevealed_result", "test_result"}
LEAK = {"diagnosis_leak"}
_UNKNOWN = re.compile(r"不清楚|不知道|没注意|记不清|说不上来|不太清楚|没太听明白|不明白")

# what a patient fit for scoring must reach: a run keeps at most 5% of turns flagged, the model
# rarely needs the guard, and it answers most questions
MAX_KEPT_FLAGGED = 0.05
MAX_ROLE_BREAKS = 0.10
MAX_REGENERATED = 0.30
MAX_UNKNOWN = 0.50


@dataclass
class Reply:
    scenario: str
    case: str
    question: str
    text: str
    first_flags: list[dict[str, Any]]  # on the model's first attempt (the rule patient: its reply)
    kept_flags: list[dict[str, Any]]  # on the turn kept
    regenerations: int = 0
    unknown: bool = False
    first_text: str | None = None  # an LLM patient's first attempt (its first_flags are on this text)


@dataclass
class PatientCalibration:
    patient: str
    model: dict[str, Any] | None
    cases: list[str]
    replies: list[Reply] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    verdict: str = ""
    fit: bool = False
    reasons: list[str] = field(default_factory=list)
    examples: dict[str, list[dict[str, str]]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _kinds(flags: list[dict[str, Any]]) -> set[str]:
    return {f["kind"] for f in flags}


def _rate(n: int, d: int) -> float:
    return n / d if d else 0.0


def metrics_of(replies: list[Reply]) -> dict[str, Any]:
    n = len(replies)
    first = [_kinds(r.first_flags) for r in replies]
    kept = [_kinds(r.kept_flags) for r in replies]
    roles = Counter(f.get("role", "?") for r in replies for f in r.first_flags if f["kind"] == "role_break")
    return {
        "turns": n,
        "role_break_rate": _rate(sum("role_break" in k for k in first), n),
        "role_breaks_by_role": dict(roles),
        "invented_rate": _rate(sum(bool(k & INVENTED) for k in first), n),
        "contradicted_rate": _rate(sum("contradicted_fact" in k for k in first), n),
        "leak_rate": _rate(sum(bool(k & LEAK) for k in first), n),
        "regeneration_rate": _rate(sum(r.regenerations > 0 for r in replies), n),
        "kept_flagged_rate": _rate(sum(bool(k) for k in kept), n),
        "kept_role_break_rate": _rate(sum("role_break" in k for k in kept), n),
        "kept_invented_rate": _rate(sum(bool(k & INVENTED) for k in kept), n),
        "kept_leak_rate": _rate(sum(bool(k & LEAK) for k in kept), n),
        "unknown_rate": _rate(sum(r.unknown for r in replies), n),
    }


def decide(m: dict[str, Any]) -> tuple[bool, str, list[str]]:
    reasons = []
    if m["role_break_rate"] > MAX_ROLE_BREAKS:
        roles = ", ".join(f"{k} {v}" for k, v in m["role_breaks_by_role"].items())
        reasons.append(f"breaks character on {m['role_break_rate']:.0%} of turns ({roles}; max {MAX_ROLE_BREAKS:.0%})")
    if m["kept_flagged_rate"] > MAX_KEPT_FLAGGED:
        reasons.append(f"keeps flagged replies on {m['kept_flagged_rate']:.0%} of turns after regeneration "
                       f"(invented or contradicted {m['kept_invented_rate']:.0%}, leaks {m['kept_leak_rate']:.0%}, "
                       f"role breaks {m['kept_role_break_rate']:.0%}; max {MAX_KEPT_FLAGGED:.0%})")
    if m["invented_rate"] > MAX_KEPT_FLAGGED and not reasons:
        reasons.append(f"invents or contradicts the record on {m['invented_rate']:.0%} of first attempts")
    if m["regeneration_rate"] > MAX_REGENERATED:
        reasons.append(f"needs regenerating on {m['regeneration_rate']:.0%} of turns (max {MAX_REGENERATED:.0%})")
    if m["unknown_rate"] > MAX_UNKNOWN:
        reasons.append(f"answers 不知道/不清楚 to {m['unknown_rate']:.0%} of questions (max {MAX_UNKNOWN:.0%})")
    if not reasons:
        return True, "fit", []
    return False, "not fit: " + reasons[0].split(" (")[0], reasons


def _examples(replies: list[Reply], per_kind: int = 3) -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {}
    for r in replies:
        for f in r.first_flags:
            kind = f["kind"] if f["kind"] != "role_break" else f"role_break:{f.get('role')}"
            bucket = out.setdefault(kind, [])
            if len(bucket) < per_kind:
                said = r.first_text if r.first_text is not None else r.text
                bucket.append({"case": r.case, "question": r.question, "reply": said, "reason": f.get("reason", ""),
                               **({"kept": r.text} if said != r.text else {})})
    return out


Progress = Callable[[int, int], None]


async def calibrate_patient(spec: str, cases: list[tuple[Any, Any]], *, resolver: Callable[[str], Any] | None = None,
                            questions: tuple[str, ...] | list[str] = QUESTIONS, seed: int = 0,
                            progress: Progress | None = None) -> PatientCalibration:
    """Ask ``questions`` of the ``spec`` patient (``rule`` or ``llm:NAME``) on each (scenario,
    case), in order, as one consultation per case."""
    from medsim.sim.disclosure import Policy
    from medsim.sim.patient import patient_spec_of

    model = None
    if spec.startswith("llm:") and resolver is not None:
        described = getattr(resolver(spec[4:]), "describe", None)
        model = described() if callable(described) else {"name": spec[4:]}
        model = {k: model.get(k) for k in ("name", "model", "base_url")}
    result = PatientCalibration(patient=spec, model=model, cases=[c.id for _, c in cases])
    total, done = len(cases) * (len(questions) + 1), 0
    for scenario, case in cases:
        patient = make_patient(spec, scenario, case, seed=seed, model_resolver=resolver)
        policy = Policy(case, patient_spec_of(scenario))
        history: list[Turn] = []
        for question in (None, *questions):
            if question is None:
                reply = await patient.opening()
            else:
                history.append(Turn(len(history), "clinician", question))
                reply = await patient.reply(question, history)
            history.append(Turn(len(history), "patient", reply.text))
            meta = reply.meta or {}
            if "guard" in meta:  # an LLM patient guards itself: its first attempt and its kept turn
                kept = list(reply.flags)
                first = list(meta.get("first_flags") or [])
            else:  # the rule patient: the run's guard on what it said
                kept = guard_turn(policy, reply.text)[0]
                first = kept
            result.replies.append(Reply(scenario.id, case.id, question or "（开场）", reply.text, first, kept,
                                        int(meta.get("regenerations", 0) or 0),
                                        bool(_UNKNOWN.search(reply.text)) and question is not None,
                                        meta.get("first_text") if "guard" in meta else None))
            done += 1
            if progress:
                progress(done, total)
    result.metrics = metrics_of(result.replies)
    result.fit, result.verdict, result.reasons = decide(result.metrics)
    result.examples = _examples(result.replies)
    return result


def load_cases(pairs: tuple[tuple[str, str], ...] | list[tuple[str, str]] = CASES) -> list[tuple[Any, Any]]:
    from medsim.scenario.registry import get_scenario

    out = []
    for scenario_id, case_id in pairs:
        loaded = get_scenario(scenario_id)
        case = next((c for c in loaded.cases if c.id == case_id), None)
        if case is None:
            raise KeyError(f"no case {case_id} in scenario {scenario_id}")
        out.append((loaded.scenario, case))
    return out
