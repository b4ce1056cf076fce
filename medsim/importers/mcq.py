"""Any multiple-choice set in JSONL or a JSON array (CMExam, CMB-Exam, MedQA-style) as a choice scenario.

``--map question=Question,options=Options,answer=Answer[,id=ID]`` names the fields. Options
may be an object ({"A": "…"}, or {"A.": "…"}), a list (lettered A, B, …; items may carry
their own letter), or a string of lettered options: "A 肌红蛋白" (CMExam's own format: letter,
space, text), "A. …", "A．…", "A、…", "(A) …", "A:…", one a line or all on one line; the
answer may be letters ("B", "ACD", "A,C", "答案：B") or a 0-based index. Every line that is
skipped is skipped with its reason.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from medsim.importers.common import ImportedScenario, ImportFailed, ImportResult, clean, read_text, safe_id

FIELDS = ("question", "options", "answer", "id")
INSTRUCTIONS = "你是一名临床医生，请回答下面的选择题。先写出答案字母，如“答案：B”，多选题写出全部正确字母。"
# a letter (optionally bracketed), then a separator or at least one space, then the text
_OPTION = re.compile(r"(?:^|(?<=[\s；;，,。]))[(（]?([A-Za-z])[)）]?(?:\s*[.．、:：)）]\s*|\s+)(?=\S)")


def parse_mapping(spec: str) -> dict[str, str]:
    mapping = {name: name for name in FIELDS}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, sep, value = part.partition("=")
        if not sep or key not in FIELDS or not value:
            raise ImportFailed(f"bad --map entry {part!r}",
                               hint="use --map question=FIELD,options=FIELD,answer=FIELD[,id=FIELD]")
        mapping[key] = value
    return mapping


def _lettered(text: str) -> dict[str, str]:
    """Options written as text: "A 原发病\nB 出血部位", "A. x B. y", "A、x；B、y"."""
    text = text.replace("\r\n", "\n")
    marks = list(_OPTION.finditer(text))
    # One option a line: only letters that start a line count ("A 维生素 B 缺乏" is one option).
    at_line_start = [m for m in marks if not text[text.rfind("\n", 0, m.start()) + 1: m.start()].strip()]
    if len(at_line_start) >= 2:
        marks = at_line_start
    # letters must run A, B, C… from the start, or a word that happens to follow a space
    # ("维生素 A 缺乏") would split an option
    kept: list[re.Match[str]] = []
    for m in marks:
        if m.group(1).upper() == chr(ord("A") + len(kept)):
            kept.append(m)
    out: dict[str, str] = {}
    for i, m in enumerate(kept):
        end = kept[i + 1].start() if i + 1 < len(kept) else len(text)
        body = text[m.end():end].strip().rstrip("；;，,").strip()
        out[m.group(1).upper()] = body
    return out


def _options(value: Any) -> tuple[dict[str, str] | None, str | None]:
    """The options as {letter: text}, or (None, why not)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            letter = re.sub(r"[^A-Za-z]", "", str(k)).upper()[:1]
            if not letter:
                return None, f"option key {k!r} is not a letter"
            out[letter] = clean(v)
    elif isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            text = clean(v) or ""
            own = _OPTION.match(text)
            if own and own.group(1).upper() == chr(ord("A") + i):  # "B. 肌钙蛋白" as a list's second item
                text = text[own.end():].strip()
            out[chr(ord("A") + i)] = text
    elif isinstance(value, str):
        out = _lettered(value)
        if not out:
            return None, f"options text {value[:40]!r} has no lettered options (A 文本 / A. 文本 / A、文本)"
    elif value is None:
        return None, "no options field"
    else:
        return None, f"options are a {type(value).__name__}, not an object, list or text"
    empty = sorted(k for k, v in out.items() if not v)
    out = {k: v for k, v in out.items() if v and "A" <= k <= "Z"}
    if len(out) < 2:
        return None, "fewer than two options" + (f" (empty: {', '.join(empty)})" if empty else "")
    return out, None


def _answer(value: Any, options: dict[str, str]) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        letter = chr(ord("A") + value)
        return letter if letter in options else None
    text = str(value or "").strip().upper()
    text = re.sub(r"^(?:答案|正确答案|ANSWER)\s*[:：]?\s*", "", text)
    if not re.fullmatch(r"[A-Z](?:\s*[,，、/;；\s]?\s*[A-Z])*", text):
        return None
    letters = "".join(sorted(set(re.findall(r"[A-Z]", text))))
    return letters if letters and all(ch in options for ch in letters) else None


FORMAT_HINT = ("medsim import mcq reads JSON Lines (one question object a line) or one JSON array of question "
               "objects; a CSV or Excel bank must be converted to JSON Lines first")


def _rows(path: Path, text: str):
    """(number, where, row) for each question: the items of a JSON array, else one a line.
    A line that is not JSON yields the JSONDecodeError as its row, to be skipped with its reason."""
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text, parse_constant=lambda _: None)
        except json.JSONDecodeError as exc:
            first = next(line for line in text.splitlines() if line.strip())
            try:
                json.loads(first)
            except json.JSONDecodeError:  # not one array a line either: a JSON array that is broken
                raise ImportFailed(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}",
                                   hint=FORMAT_HINT) from None
        else:
            if isinstance(data, list):
                for number, row in enumerate(data, 1):
                    yield number, f"item {number}", row
                return
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line, parse_constant=lambda _: None)
        except json.JSONDecodeError as exc:
            row = exc
        yield number, f"line {number}", row


def import_mcq(path: Path, mapping: dict[str, str], scenario_id: str, name: str) -> ImportResult:
    if not re.match(r"^[a-z][a-z0-9_]*$", scenario_id):
        raise ImportFailed(f"{scenario_id!r} is not a valid scenario id", hint="use lower case, digits and _")
    text = read_text(path)
    result = ImportResult()
    cases: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, where, row in _rows(path, text):
        if isinstance(row, json.JSONDecodeError):
            result.skipped.append((where, f"not JSON: {row.msg}"))
            continue
        if not isinstance(row, dict):
            result.skipped.append((where, "not a JSON object"))
            continue
        question = clean(row.get(mapping["question"]))
        options, why = _options(row.get(mapping["options"]))
        raw_answer = row.get(mapping["answer"])
        answer = _answer(raw_answer, options or {})
        missing = [f"{role} field {mapping[role]!r}" for role in ("question", "options", "answer")
                   if mapping[role] not in row]
        problem = (f"no {', no '.join(missing)} (fields here: {', '.join(list(row)[:8])})" if missing
                   else "empty question" if not question else why if not options
                   else f"answer {raw_answer!r} is not among the options {''.join(sorted(options))}" if not answer
                   else None)
        if problem:
            result.skipped.append((where, problem))
            continue
        case_id = safe_id(str(row.get(mapping["id"]) or f"q{number:05d}"))
        if case_id in seen:
            result.skipped.append((where, f"duplicate id {case_id}"))
            continue
        seen.add(case_id)
        cases.append({"id": case_id, "source": f"{path.name} {where}", "question": question,
                      "options": options, "gold": {"choice": answer}})
    if not cases and not result.skipped:
        raise ImportFailed(f"{path} holds no questions: it is empty or blank")
    if not cases:
        reasons = Counter(why for _, why in result.skipped)
        shown = "\n".join(f"  {where}: {why}" for where, why in result.skipped[:5])
        common = "; ".join(f"{n}× {why}" for why, n in reasons.most_common(3))
        not_rows = all(why.startswith(("not JSON", "not a JSON object")) for _, why in result.skipped)
        hint = (FORMAT_HINT if not_rows else
                "check --map (now " + ", ".join(f"{k}={v}" for k, v in mapping.items()) + ") against the fields above")
        raise ImportFailed(f"nothing to import from {path}: {len(result.skipped)} line(s) skipped ({common}):\n{shown}",
                           hint=hint)
    scenario = {
        "id": scenario_id, "name": name, "name_en": f"Imported multiple choice ({path.name})",
        "dimension": "knowledge_application", "kind": "single_turn",
        "clinician": {"instructions": INSTRUCTIONS, "prompt": "{question}\n{options}", "answer": {"format": "choice"}},
        "scoring": [{"choice": {"partial": False}}],
    }
    result.scenarios.append(ImportedScenario(scenario, cases, f"imported from {path.name} by medsim import mcq"))
    return result
