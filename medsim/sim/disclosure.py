"""The disclosure policy applied to one case: which record fields the patient may speak from.

``volunteered`` fields may be said unprompted (the opening), ``on_ask`` fields only when
asked, ``on_exam`` fields never by the patient (the oracle reveals them), ``never`` fields
never. Demographics, when listed nowhere, count as on_ask: a patient knows their own age.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from medsim.scenario.schema import Case, PatientSpec
from medsim.sim import lay, leak, textlink

# Fields a patient can speak from at all (vitals, exam, tests and diagnosis are not theirs).
PATIENT_FIELDS = (
    "demographics", "chief_complaint", "hpi", "past_history", "personal_history",
    "menstrual_obstetric_history", "family_history", "allergies", "medications",
)


@dataclass
class Policy:
    case: Case
    spec: PatientSpec
    leak_terms: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        known = "\n".join(self.text(f) for f in ("past_history", "medications", "personal_history", "family_history")
                          if self.allowed(f))
        self.leak_terms = leak.leak_terms(self.case, known_text=known)

    def status(self, name: str) -> str | None:
        d = self.spec.disclose
        for group in ("volunteered", "on_ask", "on_exam", "never"):
            if name in getattr(d, group):
                return group
        return "on_ask" if name == "demographics" else None

    def allowed(self, name: str) -> bool:
        """May the patient say anything from this field when asked?"""
        return name in PATIENT_FIELDS and self.status(name) in ("volunteered", "on_ask")

    def text(self, name: str) -> str:
        return self.case.record_section(name) or ""

    def disclosable(self) -> dict[str, str]:
        """The fields the patient may speak from, with their text (for the LLM prompt).

        Clauses the patient cannot know — test results, examination findings, a doctor's
        diagnosis — are left out even when the record writes them inside the hpi.
        """
        out = {}
        for f in PATIENT_FIELDS:
            if not (self.allowed(f) and self.text(f)):
                continue
            if f == "demographics":
                out[f] = self.text(f)
                continue
            kept = [c for c in textlink.clauses(self.text(f))
                    if not lay.is_jargon(c) and not leak.find_leaks(c, self.leak_terms)]
            if kept:
                out[f] = "，".join(kept) + "。"
        return out
