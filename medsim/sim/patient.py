"""The simulated patient: the protocol the episode loop talks to, and the factory.

Two simulators implement it: ``rule`` (offline, deterministic for a seed; the default) and
``llm:MODEL`` (a chat model grounded in the record, every turn guarded by the fact
checker). Both report what they understood (topics), which record fields they drew on and
which record clauses they disclosed, so information gathering can be scored from the
transcript alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from medsim.scenario.schema import Case, PatientSpec
from medsim.sim.transcript import Turn


@dataclass
class PatientReply:
    text: str
    topics: list[str] = field(default_factory=list)  # topics understood in the clinician's message
    fields: list[str] = field(default_factory=list)  # record fields the answer drew on
    disclosed: list[str] = field(default_factory=list)  # record clauses disclosed (original wording)
    flags: list[dict] = field(default_factory=list)  # guard flags (kind, reason) on an LLM patient turn
    meta: dict[str, Any] = field(default_factory=dict)  # e.g. regenerations, symptoms asked, repeats


@runtime_checkable
class Patient(Protocol):
    name: str

    async def opening(self) -> PatientReply: ...

    async def reply(self, clinician_text: str, history: list[Turn]) -> PatientReply: ...


def patient_spec_of(scenario: Any) -> PatientSpec:
    """A Scenario's PatientSpec; also accepts a PatientSpec or None (defaults)."""
    if scenario is None:
        return PatientSpec()
    if isinstance(scenario, PatientSpec):
        return scenario
    return getattr(scenario, "patient", None) or PatientSpec()


def make_patient(spec: str, scenario: Any, case: Case, *, seed: int,
                 model_resolver: Callable[[str], Any] | None = None) -> Patient:
    """``spec`` is ``"rule"`` or ``"llm:NAME"`` (NAME resolved by ``model_resolver``)."""
    spec = (spec or "rule").strip()
    if spec == "rule":
        from medsim.sim.patient_rule import RulePatient

        return RulePatient(patient_spec_of(scenario), case, seed=seed)
    if spec.startswith("llm:") and spec[4:].strip():
        name = spec[4:].strip()
        if model_resolver is None:
            raise ValueError(f"patient {spec!r} needs a model resolver to find model {name!r}")
        from medsim.sim.patient_llm import LLMPatient

        return LLMPatient(patient_spec_of(scenario), case, model_resolver(name), seed=seed, model_name=name)
    raise ValueError(f"unknown patient {spec!r}: use 'rule' or 'llm:MODEL'")
