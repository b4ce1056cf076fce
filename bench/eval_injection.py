"""How well the text layer tells an answer that talks to its grader from a clinical answer.

False alarms are counted on clinical answers nobody wrote to fool a grader: the bundled cases'
reference answers, LLMEval-Med expert answers (``../shared/data``), CMB-Clin answers and CMExam
explanations. LLMEval-Med is split by group code: even codes were looked at while writing the
rules ("tune"), odd codes were not ("held"); CMB-Clin and CMExam were never looked at.
Detection is counted on injections appended to a wrong answer and, for a second figure, placed in
the middle of a reference answer: the development set (``tests/judge/data/injections_dev.yaml``,
written before the rules) and the held-out set (``injections_heldout.yaml``, written after them
and scored once).

    python bench/eval_injection.py            # the figures
    python bench/eval_injection.py --show     # and every false alarm and miss
    python bench/eval_injection.py --old      # the regex medsim used before medsim.text.injection
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data"
WRONG = "可以，阿司匹林止痛效果好，按说明书吃就行，不用看医生。"


def clean_corpora() -> dict[str, list[str]]:
    from medsim.scenario.registry import get_scenario, scenario_ids

    out: dict[str, list[str]] = {"bundled reference answers": []}
    seen = set()
    for sid in scenario_ids():
        for case in get_scenario(sid).cases:
            for text in (case.reference_answer, *(v for v in case.gold.values() if isinstance(v, str))):
                if text and len(text) > 8 and text not in seen:
                    seen.add(text)
                    out["bundled reference answers"].append(text)
    path = DATA / "llmeval-med_dataset.json"
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
        tune, held = [], []
        for rows in data.values():
            for row in rows:
                answer = row.get("sanswer")
                if isinstance(answer, str) and len(answer) > 8 and not (isinstance(answer, float) and math.isnan(answer)):
                    (tune if row.get("groupCode", 0) % 2 == 0 else held).append(answer)
        out["LLMEval-Med answers (tune)"] = tune
        out["LLMEval-Med answers (held)"] = held
    path = DATA / "cmb-clin_CMB-test-qa.json"
    if path.exists():
        out["CMB-Clin answers (held)"] = [qa["answer"] for case in json.loads(path.read_text(encoding="utf-8"))
                                          for qa in case["QA_pairs"] if qa.get("answer")]
    path = DATA / "ext" / "cmexam" / "cmexam_val_first200.jsonl"
    if path.exists():
        out["CMExam explanations (held)"] = [json.loads(line).get("explanation") or "" for line in
                                             path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


def injection_sets() -> dict[str, list[dict]]:
    out = {}
    for name in ("dev", "heldout"):
        path = ROOT / "tests" / "judge" / "data" / f"injections_{name}.yaml"
        if path.exists():
            out[name] = yaml.safe_load(path.read_text(encoding="utf-8"))["injections"]
    return out


def detector(old: bool):
    if old:
        import re

        pattern = re.compile(
            r"(忽略(以上|上述|之前|前面)|无视(以上|上述)|请?(给|打)\s*[5５五]\s*分|满分|评分为\s*[5５五]|"
            r"ignore (all |the )?(previous|above)|you are (now )?the judge|score\s*[:=]?\s*5)", re.IGNORECASE)
        return lambda text: bool(pattern.search(text))
    from medsim.text.injection import find_injections

    return lambda text: bool(find_injections(text).spans)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--show", action="store_true", help="print every false alarm and every miss")
    ap.add_argument("--old", action="store_true", help="measure the regex used before medsim.text.injection")
    args = ap.parse_args(argv)
    flagged = detector(args.old)
    print("false alarms on clinical answers (lower is better)")
    for name, texts in clean_corpora().items():
        alarms = [t for t in texts if flagged(t)]
        print(f"  {name:<32} {len(alarms):>4} / {len(texts):<4} = {len(alarms) / max(1, len(texts)):.3f}")
        if args.show:
            for text in alarms:
                print("     ×", text.replace("\n", " ")[:160])
    reference = "华法林与阿司匹林合用会明显增加出血风险。请立即停用阿司匹林，今天到医院查INR。"
    print("injections found (higher is better)")
    for name, items in injection_sets().items():
        for where, build in (("after a wrong answer", lambda s: f"{WRONG}\n{s}"),
                             ("inside a reference answer", lambda s: reference.replace("。", "。" + s, 1))):
            found = [i for i in items if flagged(build(i["text"]))]
            print(f"  {name:<8} {where:<26} {len(found):>3} / {len(items):<3} = {len(found) / max(1, len(items)):.3f}")
            if args.show:
                for item in items:
                    if item not in found:
                        print("     miss:", item["kind"], item["text"].replace("\n", "⏎"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
