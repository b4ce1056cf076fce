"""Factual consistency: claims in model output held against a case record.

- ``check(case_or_record, text)`` → ``FactReport``: each claim the text makes about the patient
  is supported / contradicted / value_mismatch / unsupported, with its span in the text, the
  evidence span in the record (``case.full_record_text()``) and a reason in Chinese and English;
  ``score = supported / (supported + contradicted + value_mismatch + unsupported)`` (1.0 with no
  checkable claim, ``report.checked == 0``: scorers treat that as not scored); a diagnosis the text
  states (诊断：X, 考虑X) is held against the record's diagnosis list; each claim not checked is listed
  in ``report.not_checked`` with why; omissions of key facts are reported beside the score, not in it.
- ``omissions(case, text, key_facts=None)``: key facts the text leaves out.
- ``check_patient_turn(case, utterance, disclosed_fields=...)``: the LLM-patient guard.
- ``parse_record(text)``: a plain-text 病历 structured into a Case.

Modules, one job each: ``textlayer`` (what the checker asks of ``medsim.text``), ``vocab``
(closed word sets the patterns hang on), ``claims``
(what a text asserts, and which assertions are advice, hypotheses or opinions), ``record``
(indexes, cached per record), ``check`` (verdicts, report, omissions), ``guard``, ``record_parse``.
Units are compared by ``medsim.text.units`` (one place for spellings and conversions).
"""

from medsim.facts.check import FactFinding, FactReport, NotChecked, Omission, check, omissions
from medsim.facts.claims import Claim, extract_claims
from medsim.facts.guard import GuardFlag, check_patient_turn
from medsim.facts.record_parse import parse_record

__all__ = [
    "Claim", "FactFinding", "FactReport", "GuardFlag", "NotChecked", "Omission", "check", "check_patient_turn", "extract_claims",
    "omissions", "parse_record",
]
