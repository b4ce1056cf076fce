"""How much of the CMB-Clin clinical vocabulary the lexicons recognise.

Three measures, each a share of gold items in which the text layer finds an entity of the
right type (no partial credit):

- diagnoses: the disease named in each case title (``案例分析-腹外疝`` → 腹外疝) holds a
  disease entity;
- complaints: each phrase of a 主诉 line (split at ，、；及并伴, durations removed) holds a
  symptom or disease entity;
- exams: each item label of the 辅助检查 section (``血常规：…``, ``（2）多普勒超声检查``)
  holds an exam entity.

Cases with an even id were read while the lexicons were curated; odd ids were not, so the
odd figures are the honest held-out ones. Usage::

    python -m medsim.text.coverage ../shared/data/cmb-clin_CMB-test-qa.json [--misses]
    python -m medsim.text.coverage scenarios/cases [--misses]     # the bundled cases
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from medsim.text.analysis import analyze

_TITLE = re.compile(r"案例分析[-－—]\s*(.+)$")
_CC = re.compile(r"主诉\s*\n\s*(.+)")
_SPLIT = re.compile(r"[，,、；;。及并伴和]")
_DURATION = re.compile(r"(?:\d+(?:\.\d+)?|[一二两三四五六七八九十半数几]+)\+?(?:个)?(?:余|多)?(?:年|个月|月|周|天|日|小时|h|分钟)(?:余|多)?")
# an item label counts as an examination when it names one (检查, 超声, CT, 常规…)
_EXAM_WORD = re.compile(r"检查|检测|分析|超声|CT|MRI|MR|片|镜|造影|常规|功能|图|试验|测定|显像|扫描|B超|X线|培养|活检|病理|标志物|指标")
# complaint phrases that are modifiers, not findings (加重, 发现…): not counted
_NOT_FINDING = {"加重", "发现", "自扪", "再发", "复发", "反复", "再次发作", "突发", "进行性加重", "加剧"}
_NUMBERING = re.compile(r"^[（(]?\d+[）)]\s*|^\d+[.、]\s*")


def _has(text: str, types: set[str]) -> bool:
    return any(e.type in types for e in analyze(text).entities)


def _title_dx(title: str) -> str | None:
    m = _TITLE.search(title)
    if not m:
        return None
    dx = re.sub(r"(一例|的诊疗|的体外循环管理|导致的.*|病人.*)$", "", m.group(1)).strip()
    return dx or None


def _exam_labels(description: str) -> list[str]:
    out = []
    for block in re.split(r"\n(?=辅助检查)", description)[1:]:
        for line in block.splitlines()[1:]:
            line = _NUMBERING.sub("", line.strip())
            if not line or line.startswith(("现病史", "体格检查")):
                if line.startswith(("现病史", "体格检查")):
                    break
                continue
            label = re.split(r"[：:]", line, maxsplit=1)[0].strip()
            if 2 <= len(label) <= 14 and _EXAM_WORD.search(label) and not re.search(r"[\d。]", label):
                out.append(label)
    return out


def measure(path: str | Path) -> dict[str, dict[str, object]]:
    cases = json.loads(Path(path).read_text(encoding="utf-8"))
    results: dict[str, dict[str, object]] = {}
    for measure_name in ("diagnoses", "complaints", "exams"):
        for split in ("seen", "held_out"):
            results[f"{measure_name}/{split}"] = {"hit": 0, "total": 0, "misses": []}
    for case in cases:
        split = "seen" if int(case["id"]) % 2 == 0 else "held_out"
        items: list[tuple[str, str, set[str]]] = []
        dx = _title_dx(case.get("title", ""))
        if dx:
            items.append(("diagnoses", dx, {"disease"}))
        m = _CC.search(case["description"])
        if m:
            for phrase in _SPLIT.split(_DURATION.sub("", m.group(1))):
                phrase = phrase.strip(" 。")
                if len(phrase) >= 2 and phrase not in _NOT_FINDING:
                    items.append(("complaints", phrase, {"symptom", "disease"}))
        for label in _exam_labels(case["description"]):
            items.append(("exams", label, {"exam"}))
        for name, text, types in items:
            r = results[f"{name}/{split}"]
            r["total"] += 1
            if _has(text, types):
                r["hit"] += 1
            else:
                r["misses"].append(text)
    for r in results.values():
        r["share"] = round(r["hit"] / r["total"], 3) if r["total"] else None
    return results


def measure_cases(folder: str | Path) -> dict[str, dict[str, object]]:
    """The same measures on the bundled YAML cases: diagnosis items, 主诉 phrases, test names."""
    import yaml

    results = {k: {"hit": 0, "total": 0, "misses": []} for k in ("diagnoses", "complaints", "exams")}

    def count(name: str, text: str, types: set[str]) -> None:
        r = results[name]
        r["total"] += 1
        if _has(text, types):
            r["hit"] += 1
        else:
            r["misses"].append(text)

    for path in sorted(Path(folder).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for case in data.get("cases", []) if isinstance(data, dict) else []:
            if not isinstance(case, dict):
                continue
            dx = case.get("diagnosis")
            for item in dx if isinstance(dx, list) else ([dx] if isinstance(dx, str) else []):
                count("diagnoses", str(item), {"disease"})
            cc = case.get("chief_complaint")
            if isinstance(cc, str):
                for phrase in _SPLIT.split(_DURATION.sub("", cc)):
                    phrase = phrase.strip(" 。")
                    if len(phrase) >= 2 and phrase not in _NOT_FINDING:
                        count("complaints", phrase, {"symptom", "disease"})
            for test in case.get("tests") or []:
                if isinstance(test, dict) and isinstance(test.get("name"), str):
                    count("exams", test["name"], {"exam"})
    for r in results.values():
        r["share"] = round(r["hit"] / r["total"], 3) if r["total"] else None
    return results


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    target = Path(argv[0])
    res = measure_cases(target) if target.is_dir() else measure(target)
    print(f"{'measure':<22} {'hit':>4} {'total':>5} {'share':>6}")
    for key, r in res.items():
        print(f"{key:<22} {r['hit']:>4} {r['total']:>5} {r['share']!s:>6}")
    if "--misses" in argv:
        for key, r in res.items():
            print(key, "misses:", "、".join(r["misses"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
