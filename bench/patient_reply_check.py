"""Reply check: typical history questions put to the rule patient of bundled cases.

    python bench/patient_reply_check.py            # write tests/sim/data/reply_check.jsonl, print counts
    python bench/patient_reply_check.py --md       # the same pairs as markdown, for a reviewer
    python bench/patient_reply_check.py --md --out docs/reply_check.md
    python bench/patient_reply_check.py --transcripts   # the three dialect consultations, as markdown
    python bench/patient_reply_check.py --set tests/sim/data/reply_check2.yaml --md --out docs/reply_check2.md

The questions and cases are in tests/sim/data/reply_check.yaml (questions written by the patient
engineer, asked of every case) or, with ``--set``, a file whose cases carry their own questions
(reply_check2.yaml: written by an independent reviewer who saw only each patient's age, sex, job and
chief complaint; its pairs are written beside it as reply_check2.jsonl). Every question goes to a fresh
patient, so each (case, question, reply) row can be judged alone. The markdown gives, per case,
what the patient may know (the record sections it speaks from, never exam or test results),
then a table of question | topics heard | reply, with a column left blank for the reviewer's
verdict (appropriate / partial / wrong). The counts printed are mechanical checks only
(persona tails, 不清楚-type answers, not understood, leaks, record jargon); the verdict is a
physician's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from medsim.scenario.registry import get_scenario  # noqa: E402
from medsim.sim import lay, leak  # noqa: E402
from medsim.sim.patient import make_patient  # noqa: E402

DATA = REPO / "tests" / "sim" / "data"
SET = DATA / "reply_check.yaml"
OUT = DATA / "reply_check.jsonl"

_TAILS = tuple(lay.PERSONA_TAILS)
_UNKNOWN = re.compile(r"不清楚|不知道|没注意|说不好|记不清|看不懂")
_NOT_UNDERSTOOD = "没太听明白"
# record wording a patient does not speak (a clause kept verbatim from the chart)
_JARGON = re.compile(r"胃内容物|抱膝位|巩膜|黄染|阳性|阴性|查体|体格检查|诊断|病史|史[，。]|\d+\s*(mmol|μmol|g/L|U/L|×10)|患者|患儿")


def collect(set_path: Path = SET) -> list[dict]:
    data = yaml.safe_load(set_path.read_text(encoding="utf-8"))
    rows = []
    for entry in data["cases"]:
        # either {scenario, case} with the file's shared questions, or {key: scenario/case, questions}
        scenario_id, case_id = entry["key"].split("/") if "key" in entry else (entry["scenario"], entry["case"])
        loaded = get_scenario(scenario_id)
        case = loaded.case(case_id)
        for number, question in enumerate(entry.get("questions") or data["questions"], 1):
            patient = make_patient("rule", loaded.scenario, case, seed=0)
            asyncio.run(patient.opening())
            reply = asyncio.run(patient.reply(question, []))
            rows.append({
                "scenario": loaded.scenario.id, "case": case.id, "n": number, "question": question,
                "topics": reply.topics, "reply": reply.text,
                "leaks": leak.find_leaks(reply.text, patient.policy.leak_terms),
            })
    return rows


def counts(rows: list[dict]) -> dict[str, int]:
    return {
        "pairs": len(rows),
        "persona tails": sum(any(t in r["reply"] for t in _TAILS) for r in rows),
        "tail only (no answer)": sum(any(r["reply"].strip() == t for t in _TAILS) for r in rows),
        "不清楚-type": sum(bool(_UNKNOWN.search(r["reply"])) for r in rows),
        "not understood": sum(_NOT_UNDERSTOOD in r["reply"] for r in rows),
        "leaks": sum(bool(r["leaks"]) for r in rows),
        "record jargon": sum(bool(_JARGON.search(r["reply"])) for r in rows),
    }


def _record_lines(case) -> list[str]:
    from medsim.scenario.schema import RECORD_SECTIONS

    titles = dict(RECORD_SECTIONS)
    out = []
    for name in ("demographics", "chief_complaint", "hpi", "past_history", "personal_history",
                 "menstrual_obstetric_history", "family_history", "allergies", "medications"):
        text = case.record_section(name)
        if text:
            out.append(f"- **{titles.get(name, name)}**：{text}")
    if case.vitals and case.vitals.pain_score is not None:
        out.append(f"- **疼痛评分（记录于生命体征）**：{case.vitals.pain_score}/10")
    return out


def markdown(rows: list[dict]) -> str:
    lines = ["# Rule patient reply check", "",
             "Each question was put to a fresh simulated patient of the case. Judge each reply as a Chinese "
             "attending would: **A** appropriate (what this patient would say, true to the record), **P** partial "
             "or unnatural, **W** wrong, contradicting the record, or a non-answer. Exam findings and test results "
             "are not the patient's to tell (the examiner reveals them), so they are not listed.", ""]
    c = counts(rows)
    lines += ["Mechanical counts: " + "; ".join(f"{k} {v}" for k, v in c.items()), ""]
    by_case: dict[str, list[dict]] = {}
    for r in rows:
        by_case.setdefault(f"{r['scenario']}/{r['case']}", []).append(r)
    for key, items in by_case.items():
        scenario_id, case_id = key.split("/")
        loaded = get_scenario(scenario_id)
        case = loaded.case(case_id)
        persona = loaded.scenario.patient.persona
        lines += [f"## {case_id} ({scenario_id}; persona: literacy {persona.literacy}, {persona.mood}, {persona.style})",
                  "", *_record_lines(case), "",
                  "| # | question | topics heard | reply | verdict |", "|---|---|---|---|---|"]
        for r in items:
            cells = [str(r["n"]), r["question"], ", ".join(r["topics"]) or "—", r["reply"], ""]
            lines.append("| " + " | ".join(x.replace("|", "／").replace("\n", " ") for x in cells) + " |")
        lines.append("")
    return "\n".join(lines)


TRANSCRIPTS = (("tri-001_northern", "triage", "tri-001"), ("con-031_southwestern", "consultation", "con-031"),
               ("con-028_cantonese_tinged", "consultation", "con-028"))


def transcripts() -> str:
    """Three full consultations, the questions from tests/sim/data/transcripts/*.txt, each asked in
    order of one patient (as `medsim patient ask SCENARIO --case ID --lines FILE` does)."""
    lines = ["# Three consultations in dialect-tinged phrasing (rule patient)", "",
             "Questions written by the medsim patient engineer (tests/sim/data/transcripts/*.txt), asked in order of "
             "one simulated patient, exactly as `medsim patient ask SCENARIO --case ID --lines FILE` does. "
             "Regenerate: `python bench/patient_reply_check.py --transcripts`.", ""]
    for name, scenario_id, case_id in TRANSCRIPTS:
        loaded = get_scenario(scenario_id)
        case = loaded.case(case_id)
        text = (DATA / "transcripts" / f"{name}.txt").read_text(encoding="utf-8")
        header = [x.lstrip("# ") for x in text.splitlines() if x.startswith("#")]
        questions = [x.strip() for x in text.splitlines() if x.strip() and not x.startswith("#")]
        patient = make_patient("rule", loaded.scenario, case, seed=0)
        lines += [f"## {case_id} ({scenario_id}) — {header[0] if header else name}", "", *_record_lines(case), "",
                  "| # | 医生 | topics heard | 患者 |", "|---|---|---|---|",
                  f"| 0 | (opening) | — | {asyncio.run(patient.opening()).text} |"]
        for number, question in enumerate(questions, 1):
            reply = asyncio.run(patient.reply(question, []))
            cells = [str(number), question, ", ".join(reply.topics) or "—", reply.text]
            lines.append("| " + " | ".join(x.replace("|", "／") for x in cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--md", action="store_true", help="print the pairs as markdown for a reviewer")
    parser.add_argument("--out", type=Path, help="write the markdown here instead of stdout")
    parser.add_argument("--no-save", action="store_true", help="do not rewrite reply_check.jsonl")
    parser.add_argument("--set", type=Path, default=SET, help="the question set (default reply_check.yaml)")
    parser.add_argument("--transcripts", action="store_true", help="print the three dialect consultations as markdown")
    args = parser.parse_args()
    if args.transcripts:
        text = transcripts()
        if args.out:
            args.out.write_text(text + "\n", encoding="utf-8")
        else:
            print(text)
        return
    rows = collect(args.set)
    out = OUT if args.set.resolve() == SET.resolve() else args.set.with_suffix(".jsonl")
    if not args.no_save:
        out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    if args.md:
        text = markdown(rows)
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(text + "\n", encoding="utf-8")
        else:
            print(text)
        return
    for key, value in counts(rows).items():
        print(f"{key:24} {value}")
    if not args.no_save:
        print(f"pairs written to {out.resolve().relative_to(REPO)}")


if __name__ == "__main__":
    main()
