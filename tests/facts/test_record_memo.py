"""What the checker keeps per record (its index, diagnoses, the memo of kinds) must not carry one
output's check into another's."""

from __future__ import annotations

from medsim.facts import check
from medsim.facts.check import record_diagnoses
from medsim.facts.record import index_record

RECORD = "现病史：患者2周来大便带血，便后滴鲜血，无腹痛。\n既往史：否认高血压病史。\n诊断：混合痔"
OUTPUTS = ["患者有便血，无腹痛。", "诊断：混合痔。", "诊断：肛裂。", "患者有高血压病史。", "患者有便血，无腹痛。"]


def _reports(outputs: list[str]) -> list[dict]:
    return [check(RECORD, text, key_facts=[]).to_dict() for text in outputs]


def test_a_record_checked_again_gives_what_a_fresh_record_gives():
    fresh = []
    for text in OUTPUTS:
        index_record.cache_clear()
        fresh += _reports([text])
    warm = _reports(OUTPUTS)
    assert warm == fresh
    assert warm[0] == warm[4]
    statuses = [[f["status"] for f in report["findings"]] for report in warm]
    assert statuses == [["supported", "supported"], ["supported"], ["unsupported"], ["contradicted"],
                        ["supported", "supported"]]


def test_the_diagnosis_list_is_the_callers_own():
    first = record_diagnoses(RECORD)
    assert first == ["混合痔"]
    first.append("肛裂")
    assert record_diagnoses(RECORD) == ["混合痔"]
