"""Importers: LLMEval-Med and CMB-Clin from ../shared/data (skipped when absent), generic MCQ."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from medsim.importers.cmb_clin import import_cmb_clin
from medsim.importers.common import ImportFailed, write_import
from medsim.importers.llmeval_med import import_llmeval_med, parse_checklist
from medsim.importers.mcq import import_mcq, parse_mapping
from medsim.scenario.load import load_scenario

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
LLMEVAL = SHARED / "llmeval-med_dataset.json"
CMB = SHARED / "cmb-clin_CMB-test-qa.json"


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*.yaml"))}


@pytest.mark.skipif(not LLMEVAL.exists(), reason="LLMEval-Med is not in ../shared/data")
def test_llmeval_med_imports_every_turn_with_its_quirks(tmp_path: Path) -> None:
    result = import_llmeval_med(LLMEVAL)
    counts = {s.scenario["id"]: len(s.cases) for s in result.scenarios}
    assert counts == {"llmeval_mk": 141, "llmeval_mlu": 213, "llmeval_mr": 102, "llmeval_mse": 109,
                      "llmeval_mtg": 102}
    assert result.skipped == []
    by_id = {s.scenario["id"]: s for s in result.scenarios}
    # MSE keeps its requirements inside the answer: every row gets a checklist from it.
    assert all(c.get("checklist", {}).get("core") for c in by_id["llmeval_mse"].cases)
    # MR has no checklist key at all; NaN checklists and NaN answers are simply absent.
    assert not any("checklist" in c for c in by_id["llmeval_mr"].cases)
    mtg = by_id["llmeval_mtg"].cases
    assert sum("reference_answer" in c for c in mtg) == 102 - 24
    # Role-play rows ("/" answers) carry no reference answer and say why.
    mlu = by_id["llmeval_mlu"].cases
    assert any("role-play" in c.get("notes", "") and "reference_answer" not in c for c in mlu)
    # Multi-turn groups: round k holds rounds 1..k in order, ids unique per category.
    longest = max(mlu, key=lambda c: len(c["turns"]))
    assert len(longest["turns"]) == 5 and longest["id"].endswith("-r5")
    assert len({c["id"] for c in mlu}) == len(mlu)

    first, second = tmp_path / "a", tmp_path / "b"
    write_import(result, first)
    write_import(import_llmeval_med(LLMEVAL), second)
    assert digest(first) == digest(second), "importing twice gives the same files"
    loaded = load_scenario(first / "llmeval_mse.yaml")
    assert loaded.scenario.scoring[0].name == "checklist"


@pytest.mark.skipif(not CMB.exists(), reason="CMB-Clin is not in ../shared/data")
def test_cmb_clin_questions_become_turns(tmp_path: Path) -> None:
    result = import_cmb_clin(CMB)
    cases = result.scenarios[0].cases
    assert len(cases) == 208 and result.skipped == []
    first = next(c for c in cases if c["id"] == "cmb-0-q1")
    assert "右下腹" in first["turns"][0] and first["turns"][0].endswith("简述该病人的诊断及诊断依据。")
    assert "嵌顿性腹股沟斜疝" in first["reference_answer"]
    third = [c for c in cases if c["id"].startswith("cmb-0-")][-1]
    assert len(third["turns"]) == int(third["id"].rsplit("q", 1)[1])
    write_import(result, tmp_path)
    assert len(load_scenario(tmp_path / "cmb_clin.yaml").cases) == 208


def test_mcq_import_maps_fields_and_reports_skips(tmp_path: Path) -> None:
    rows = [
        {"qid": "1", "Question": "成人血清钾的参考范围是", "Options": {"A": "2.5–3.5mmol/L", "B": "3.5–5.3mmol/L"},
         "Answer": "B"},
        {"qid": "2", "Question": "属于袢利尿剂的是", "Options": ["氢氯噻嗪", "呋塞米", "螺内酯", "乙酰唑胺"],
         "Answer": 1},
        {"qid": "3", "Question": "下列属于β受体阻滞剂的是", "Options": "A. 美托洛尔\nB. 氨氯地平\nC. 比索洛尔\nD. 缬沙坦",
         "Answer": "A,C"},
        {"qid": "4", "Question": "缺答案的题", "Options": ["甲", "乙"], "Answer": "E"},
    ]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\nnot json\n", encoding="utf-8")
    mapping = parse_mapping("question=Question,options=Options,answer=Answer,id=qid")
    result = import_mcq(path, mapping, "pharm_mcq", "药理选择题")
    cases = result.scenarios[0].cases
    assert [(c["id"], c["gold"]["choice"]) for c in cases] == [("1", "B"), ("2", "B"), ("3", "AC")]
    assert cases[2]["options"]["C"] == "比索洛尔"
    reasons = dict(result.skipped)
    assert "not among the options" in reasons["line 4"] and "not JSON" in reasons["line 5"]
    write_import(result, tmp_path / "out")
    assert load_scenario(tmp_path / "out" / "pharm_mcq.yaml").scenario.final_answer_spec.format == "choice"


def test_mcq_bad_mapping_is_explained() -> None:
    with pytest.raises(ImportFailed) as caught:
        parse_mapping("question")
    assert "bad --map entry" in str(caught.value) and caught.value.hint


def test_checklist_text_is_split_into_core_and_secondary() -> None:
    text = "核心需求：\n1. 指出应立即停用可疑药物\n2. 建议就医\n次要需求：\n1. 说明过敏反应的常见表现"
    assert parse_checklist(text) == {"core": ["指出应立即停用可疑药物", "建议就医"],
                                     "secondary": ["说明过敏反应的常见表现"]}
    assert parse_checklist(None) is None and parse_checklist("没有要求") is None
