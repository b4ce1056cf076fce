"""Any multiple-choice set in JSONL (CMExam, CMB-Exam, MedQA-style) as a choice scenario.

``--map question=Question,options=Options,answer=Answer[,id=ID]`` names the fields. Options
may be an object ({"A": "…"}), a list (lettered A, B, …) or a string with lines "A. …";
the answer may be letters ("B", "ACD", "A,C") or a 0-based index.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from medsim.importers.common import ImportedScenario, ImportFailed, ImportResult, clean, safe_id

FIELDS = ("question", "options", "answer", "id")
INSTRUCTIONS = "你是一名临床医生，请回答下面的选择题。先写出答案字母，如“答案：B”，多选题写出全部正确字母。"
_OPTION_LINE = re.compile(r"^\s*([A-Z])\s*[.．、:：)）]\s*(.+)$")


def parse_mapping(spec: str) -> dict[str, str]:
    mapping = {name: name for name in FIELDS}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, sep, value = part.partition("=")
        if not sep or key not in FIELDS or not value:
            raise ImportFailed(f"bad --map entry {part!r}",
                               hint="use --map question=FIELD,options=FIELD,answer=FIELD[,id=FIELD]")
        mapping[key] = value
    return mapping


def _options(value: Any) -> dict[str, str] | None:
    if isinstance(value, dict):
        out = {str(k).strip().upper()[:1]: clean(v) for k, v in value.items()}
    elif isinstance(value, list):
        out = {chr(ord("A") + i): clean(v) for i, v in enumerate(value)}
    elif isinstance(value, str):
        out = {m.group(1): m.group(2).strip() for m in map(_OPTION_LINE.match, value.splitlines()) if m}
    else:
        return None
    out = {k: v for k, v in out.items() if v and "A" <= k <= "Z"}
    return out if len(out) >= 2 else None


def _answer(value: Any, options: dict[str, str]) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        letter = chr(ord("A") + value)
        return letter if letter in options else None
    letters = "".join(sorted(set(re.findall(r"[A-Z]", str(value or "").upper()))))
    return letters if letters and all(ch in options for ch in letters) else None


def import_mcq(path: Path, mapping: dict[str, str], scenario_id: str, name: str) -> ImportResult:
    if not re.match(r"^[a-z][a-z0-9_]*$", scenario_id):
        raise ImportFailed(f"{scenario_id!r} is not a valid scenario id", hint="use lower case, digits and _")
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        raise ImportFailed(f"file not found: {path}") from None
    except UnicodeDecodeError:
        raise ImportFailed(f"{path} is not UTF-8", hint="convert it: iconv -f GB18030 -t UTF-8") from None
    result = ImportResult()
    cases: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            row = json.loads(line, parse_constant=lambda _: None)
        except json.JSONDecodeError as exc:
            result.skipped.append((where, f"not JSON: {exc.msg}"))
            continue
        if not isinstance(row, dict):
            result.skipped.append((where, "not a JSON object"))
            continue
        question = clean(row.get(mapping["question"]))
        options = _options(row.get(mapping["options"]))
        answer = _answer(row.get(mapping["answer"]), options or {})
        problem = ("no question" if not question else "fewer than two options" if not options
                   else f"answer {row.get(mapping['answer'])!r} is not among the options" if not answer else None)
        if problem:
            result.skipped.append((where, problem))
            continue
        case_id = safe_id(str(row.get(mapping["id"]) or f"q{number:05d}"))
        if case_id in seen:
            result.skipped.append((where, f"duplicate id {case_id}"))
            continue
        seen.add(case_id)
        cases.append({"id": case_id, "source": f"{path.name} line {number}", "question": question,
                      "options": options, "gold": {"choice": answer}})
    if not cases:
        raise ImportFailed(f"nothing to import from {path}: {len(result.skipped)} line(s) skipped",
                           hint="check --map: " + ", ".join(f"{k}={v}" for k, v in mapping.items()))
    scenario = {
        "id": scenario_id, "name": name, "name_en": f"Imported multiple choice ({path.name})",
        "dimension": "knowledge_application", "kind": "single_turn",
        "clinician": {"instructions": INSTRUCTIONS, "prompt": "{question}\n{options}", "answer": {"format": "choice"}},
        "scoring": [{"choice": {"partial": False}}],
    }
    result.scenarios.append(ImportedScenario(scenario, cases, f"imported from {path.name} by medsim import mcq"))
    return result
