"""Factual consistency: claims in model output held against a case record.

``check(case_or_record, text)`` → FactReport (supported / contradicted / value_mismatch /
unsupported findings with spans and bilingual reasons, a score in [0, 1], omissions);
``omissions(case, text, key_facts)``; ``check_patient_turn`` guards a simulated patient;
``parse_record`` structures a plain-text 病历 into a Case.
"""

from medsim.facts.check import FactFinding, FactReport, Omission, check, omissions
from medsim.facts.claims import Claim, extract_claims
from medsim.facts.guard import GuardFlag, check_patient_turn
from medsim.facts.record_parse import parse_record

__all__ = [
    "Claim", "FactFinding", "FactReport", "GuardFlag", "Omission", "check", "check_patient_turn", "extract_claims",
    "omissions", "parse_record",
]
