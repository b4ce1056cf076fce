"""CMB-Clin cases as multi-turn consultations: the case description, then one question a turn.

Each question becomes one case whose conversation holds the description with the first
question and every question up to it, so the model answers them in order (as CMB-Clin's
protocol has it) and its answer to the last one is scored against the expert answer.
The file says `answer` where CMB's README says `solution`; both are accepted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from medsim.importers.common import (
    ImportedScenario,
    ImportFailed,
    ImportResult,
    clean,
    read_json_lenient,
    safe_id,
)

SOURCE = "CMB-Clin (FreedomIntelligence/CMB, Apache-2.0); imported by medsim"
INSTRUCTIONS = "你是一名经验丰富的临床医生。请根据病例资料回答问题，回答要准确、全面、条理清楚。"


def import_cmb_clin(path: Path) -> ImportResult:
    data = read_json_lenient(path)
    if not isinstance(data, list):
        raise ImportFailed(f"{path}: expected a JSON array of cases (CMB-Clin CMB-test-qa.json)")
    result = ImportResult()
    cases: list[dict[str, Any]] = []
    for index, record in enumerate(data):
        where = f"case #{index}"
        if not isinstance(record, dict):
            result.skipped.append((where, "not an object"))
            continue
        description = clean(record.get("description"))
        pairs = record.get("QA_pairs") or []
        if not description or not isinstance(pairs, list) or not pairs:
            result.skipped.append((where, "no description" if not description else "no QA_pairs"))
            continue
        case_id = safe_id(str(record.get("id", index)))
        title = clean(record.get("title")) or ""
        questions: list[str] = []
        for number, pair in enumerate(pairs, 1):
            question = clean(pair.get("question")) if isinstance(pair, dict) else None
            answer = clean(pair.get("answer") if "answer" in pair else pair.get("solution")) if question else None
            if not question or not answer:
                result.skipped.append((f"{where} question {number}", "missing question or answer"))
                continue
            questions.append(question)
            turns = [f"{description}\n\n{questions[0]}", *questions[1:]]
            cases.append({"id": f"cmb-{case_id}-q{number}", "source": f"CMB-Clin case id {record.get('id', index)}",
                          "turns": turns, "reference_answer": answer, "notes": title or None})
    if not cases:
        reasons = "; ".join(f"{where}: {why}" for where, why in result.skipped[:5])
        raise ImportFailed(f"nothing to import from {path}: {len(data)} case(s) in the file"
                           + (f", every one skipped ({reasons})" if reasons else ""),
                           hint="give CMB-Clin's CMB-test-qa.json (a JSON array of cases with description and QA_pairs)")
    for case in cases:
        if case["notes"] is None:
            del case["notes"]
    scenario = {
        "id": "cmb_clin", "name": "CMB-Clin 临床病例问答", "name_en": "CMB-Clin case consultations",
        "dimension": "clinical_qa", "kind": "single_turn",
        "description": f"Imported from CMB-Clin: {len(data)} cases as multi-turn consultations.",
        "references": ["Wang et al., CMB: A Comprehensive Medical Benchmark in Chinese, NAACL 2024"],
        "clinician": {"instructions": INSTRUCTIONS, "answer": {"format": "text"}},
        "scoring": [{"checklist": {"protocol": "llmeval", "runs": 1}}, {"rouge": {"weight": 0}}],
    }
    if cases:
        result.scenarios.append(ImportedScenario(scenario, cases, SOURCE))
    result.notes.append("open answers: run with --judge MODEL; ROUGE-L against the expert answer is kept at weight 0")
    return result
