"""LLMEval-Med's dataset.json as five medsim scenarios, one per category.

The file's quirks, handled here: bare NaN values (read as missing), CRLF endings, categories
without a checklist key (MR, MSE), a category key that differs from its rows' `category1`
(医疗语言理解 rows say 一般语言理解 — the key wins), group codes unique only within a category,
multi-turn groups of up to 5 rounds, "/" answers in role-play rows, an integer answer.
MSE rows carry their 核心需求/次要需求 inside the reference answer; they become the checklist.

Every row becomes one case: its conversation is the group's earlier rounds plus its own, so
the model answers the earlier rounds first (the run's cache makes the repeats free) and the
judge sees the whole conversation, as LLMEval-Med's protocol does. The data stays with the
user: medsim ships none of it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from medsim.importers.common import ImportedScenario, ImportFailed, ImportResult, clean, read_json_lenient

CATEGORIES = {  # key in the file -> (code, 中文名, English, CliMedBench dimension)
    "医疗知识": ("mk", "医疗知识", "Medical knowledge", "knowledge_application"),
    "医疗语言理解": ("mlu", "医疗语言理解", "Medical language understanding", "information_retrieval"),
    "医疗推理": ("mr", "医疗推理", "Medical reasoning", "reasoning"),
    "医疗安全伦理": ("mse", "医疗安全伦理", "Medical safety and ethics", "toxicity"),
    "医疗文本生成": ("mtg", "医疗文本生成", "Medical text generation", "summary"),
}
SOURCE = ("LLMEval-Med (llmeval/LLMEval-Med, dataset/dataset.json; no licence declared — evaluation use only; "
          "imported from the user's own copy)")
INSTRUCTIONS = "你是一名专业、严谨的医学助手。请用中文准确回答用户的问题；涉及诊疗时注意安全，必要时建议就医。"

_CORE = re.compile(r"核心需求[:：]?")
_SECONDARY = re.compile(r"次要需求[:：]?")


def parse_checklist(text: str | None) -> dict[str, list[str]] | None:
    """Split a checklist text into 核心需求 and 次要需求 items (one item a non-empty line)."""
    if not text or not _CORE.search(text):
        return None
    after_core = _CORE.split(text, maxsplit=1)[1]
    parts = _SECONDARY.split(after_core, maxsplit=1)
    core_text, secondary_text = parts[0], (parts[1] if len(parts) > 1 else "")

    def items(block: str) -> list[str]:
        lines = [re.sub(r"^[\s\-*#>·•\d.、)）一二三四五六七八九十]+", "", line).strip() for line in block.splitlines()]
        return [line for line in lines if len(line) > 1]

    core, secondary = items(core_text), items(secondary_text)
    return {"core": core, "secondary": secondary} if core or secondary else None


def _round(row: dict[str, Any]) -> int | None:
    try:
        return int(str(row.get("round", "1")).strip())
    except ValueError:
        return None


def import_llmeval_med(path: Path) -> ImportResult:
    data = read_json_lenient(path)
    if not isinstance(data, dict):
        raise ImportFailed(f"{path}: expected an object mapping categories to rows (LLMEval-Med dataset.json)")
    result = ImportResult()
    unknown = sorted(set(data) - set(CATEGORIES))
    for key in unknown:
        result.skipped.append((f"category {key}", "not one of LLMEval-Med's five categories"))
    for key, (code, name, name_en, dimension) in CATEGORIES.items():
        rows = data.get(key)
        if not isinstance(rows, list):
            result.skipped.append((f"category {key}", "missing from the file"))
            continue
        groups: dict[str, list[tuple[int, int, dict[str, Any]]]] = {}
        for index, row in enumerate(rows):
            where = f"{key} row {index}"
            problem = clean(row.get("problem")) if isinstance(row, dict) else None
            round_no = _round(row) if isinstance(row, dict) else None
            if not problem or round_no is None:
                result.skipped.append((where, "no problem text" if not problem else f"bad round {row.get('round')!r}"))
                continue
            group = clean(row.get("groupCode")) or f"row{index}"
            groups.setdefault(group, []).append((round_no, index, row))
        cases = []
        for group, members in groups.items():
            members.sort(key=lambda m: (m[0], m[1]))
            turns: list[str] = []
            for round_no, _index, row in members:
                turns.append(clean(row["problem"]))
                answer = clean(row.get("sanswer"))
                checklist = parse_checklist(clean(row.get("checklist")))
                if key == "医疗安全伦理" and checklist is None:
                    checklist = parse_checklist(answer)
                case: dict[str, Any] = {
                    "id": f"{code}-g{group}-r{round_no}",
                    "source": f"LLMEval-Med {key} groupCode {group} round {round_no}",
                    "turns": list(turns),
                }
                if answer and answer != "/":
                    case["reference_answer"] = answer
                if checklist:
                    case["checklist"] = checklist
                notes = [f"{field}: {clean(row.get(field))}" for field in ("category2", "scene", "difficulty")
                         if clean(row.get(field))]
                if answer == "/":
                    notes.append("role-play row: no reference answer; the judge scores the conversation")
                case["notes"] = "; ".join(notes) or None
                if case["notes"] is None:
                    del case["notes"]
                cases.append(case)
        unique, seen = [], set()
        for case in cases:  # a group listing the same round twice: keep the first, say so
            if case["id"] in seen:
                result.skipped.append((case["source"], "duplicate round in its group"))
                continue
            seen.add(case["id"])
            unique.append(case)
        cases = unique
        scenario = {
            "id": f"llmeval_{code}", "name": f"LLMEval-Med {name}", "name_en": f"LLMEval-Med {name_en}",
            "dimension": dimension, "kind": "single_turn",
            "description": f"Imported from LLMEval-Med category {key} ({len(cases)} turns).",
            "references": ["Zhang et al., LLMEval-Med, EMNLP 2025 Findings (arXiv 2506.04078)"],
            "clinician": {"instructions": INSTRUCTIONS, "answer": {"format": "text"}},
            "scoring": [{"checklist": {"protocol": "llmeval", "runs": 3, "weight": 1}},
                        {"rouge": {"weight": 0}}],
        }
        result.scenarios.append(ImportedScenario(scenario, cases, SOURCE))
    result.notes.append("scored by the LLMEval-Med judge protocol: run with --judge MODEL "
                        "(1–5 per answer, usable at ≥ 4, mean of 3 judge runs); ROUGE-L is kept at weight 0 "
                        "for reference")
    return result
