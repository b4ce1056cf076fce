"""Reply check: typical history questions put to the rule patient of bundled cases.

    python bench/patient_reply_check.py            # write tests/sim/data/reply_check.jsonl, print counts
    python bench/patient_reply_check.py --md       # the same pairs as markdown, for a reviewer
    python bench/patient_reply_check.py --md --out docs/reply_check.md
    python bench/patient_reply_check.py --transcripts   # the three dialect consultations, as markdown
    python bench/patient_reply_check.py --set tests/sim/data/reply_check2.yaml --md --out docs/reply_check2.md
    python bench/patient_reply_check.py --set tests/sim/data/reply_check4.yaml --md --out /tmp/llm.md \
        --patient llm:qwen --base-url http://127.0.0.1:8080/v1     # the same pairs from an LLM patient

The questions and cases are in tests/sim/data/reply_check.yaml (questions written by the patient
engineer, asked of every case) or, with ``--set``, a file whose cases carry their own questions
(reply_check2.yaml: written by an independent reviewer who saw only each patient's age, sex, job and
chief complaint; its pairs are written beside it as reply_check2.jsonl). ``--patient llm:MODEL`` (a
models.yaml name, or any model an OpenAI-compatible ``--base-url`` serves) puts the same questions to
the LLM patient, through the guard a run uses, so a reviewer can judge rule and LLM patient on the same
pairs; its pairs go to ``<set>.<patient>.jsonl`` and its counts add how many turns the guard regenerated
and how many it kept flagged. Every question goes to a fresh
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

from medsim.models.base import ModelCallError  # noqa: E402
from medsim.scenario.registry import get_scenario  # noqa: E402
from medsim.sim import lay, leak  # noqa: E402
from medsim.sim.patient import make_patient  # noqa: E402

DATA = REPO / "tests" / "sim" / "data"
SET = DATA / "reply_check.yaml"
OUT = DATA / "reply_check.jsonl"

_TAILS = tuple(lay.PERSONA_TAILS)
_UNKNOWN = re.compile(r"不清楚|不知道|没太?注意|没太?留意|说不好|说不上来|记不清|看不懂")
_NOT_UNDERSTOOD = "没太听明白"
# record wording a patient does not speak (a clause kept verbatim from the chart)
# (and chart words physicians marked in replies of sets 5-6: 排尿等待, 晨轻暮重, 同餐者, 经间期, 较前, a weighed
# stool 300g — a dose, 0.5g, is the patient's to say)
_JARGON = re.compile(r"胃内容物|抱膝位|巩膜|黄染|阳性|阴性|查体|体格检查|诊断|病史|史[，。]|\d+\s*(mmol|μmol|g/L|U/L|×10)|患者|患儿|"
                     r"排尿等待|射程|尿不尽感|刺激征|泡沫增多|久不消散|晨轻暮重|暮重|同餐者|经间期|神经系统疾病|较前|"
                     r"略减少|需每|呕鲜红色血|解柏油样|(?<![\d.])\d{2,}g(?![a-zA-Z/])|如常|嗳气|饮水呛咳|反流至|纳差|乏力|颜面部|畏寒")


def collect(set_path: Path = SET, spec: str = "rule", resolver=None) -> list[dict]:
    data = yaml.safe_load(set_path.read_text(encoding="utf-8"))
    rows = []
    for entry in data["cases"]:
        # either {scenario, case} with the file's shared questions, or {key: scenario/case, questions}
        scenario_id, case_id = entry["key"].split("/") if "key" in entry else (entry["scenario"], entry["case"])
        loaded = get_scenario(scenario_id)
        case = loaded.case(case_id)
        for number, question in enumerate(entry.get("questions") or data["questions"], 1):
            patient = make_patient(spec, loaded.scenario, case, seed=0, model_resolver=resolver)
            asyncio.run(patient.opening())
            reply = asyncio.run(patient.reply(question, []))
            meta = reply.meta or {}
            rows.append({
                "scenario": loaded.scenario.id, "case": case.id, "n": number, "question": question,
                "topics": list(reply.topics), "reply": reply.text,
                "leaks": leak.find_leaks(reply.text, patient.policy.leak_terms),
                **({"patient": spec, "regenerations": int(meta.get("regenerations", 0) or 0),
                    "kept_flags": sorted({f["kind"] for f in reply.flags})} if spec != "rule" else {}),
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
        **({"regenerated by the guard": sum(r["regenerations"] > 0 for r in rows),
            "kept flagged": sum(bool(r["kept_flags"]) for r in rows)} if rows and "patient" in rows[0] else {}),
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
    who = f"LLM patient ({rows[0]['patient']})" if rows and "patient" in rows[0] else "Rule patient"
    lines = [f"# {who} reply check", "",
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
    parser.add_argument("--patient", default="rule", help="rule (default) or llm:MODEL")
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint serving the LLM patient's MODEL")
    parser.add_argument("--models-file", help="a models.yaml naming MODEL (default: ./models.yaml if present)")
    args = parser.parse_args()
    resolver = None
    if args.patient != "rule":
        if not args.patient.startswith("llm:") or not args.patient[4:].strip():
            sys.exit(f"error: --patient {args.patient!r}: use rule or llm:MODEL")
        from medsim.models.config import ConfigError, resolve_model

        try:
            model = resolve_model(args.patient[4:].strip(), base_url=args.base_url, models_file=args.models_file,
                                  flag="--patient")
        except ConfigError as exc:
            sys.exit(f"error: {exc}")

        def resolver(name: str):
            return model
    elif args.base_url:
        sys.exit("error: --base-url serves an LLM patient: add --patient llm:MODEL")
    if args.transcripts:
        text = transcripts()
        if args.out:
            args.out.write_text(text + "\n", encoding="utf-8")
        else:
            print(text)
        return
    if not args.set.is_file():
        sys.exit(f"error: no question set at {args.set}")
    try:
        rows = collect(args.set, args.patient, resolver)
    except ModelCallError as exc:  # an endpoint that is down or refuses: say so, no traceback
        sys.exit(f"error: the LLM patient's endpoint failed: {exc}")
    out = OUT if args.set.resolve() == SET.resolve() else args.set.with_suffix(".jsonl")
    if args.patient != "rule":
        slug = re.sub(r"[^\w.-]+", "_", args.patient[4:].strip())
        out = out.with_suffix(f".llm_{slug}.jsonl")
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
        shown = out.resolve()
        print(f"pairs written to {shown.relative_to(REPO) if shown.is_relative_to(REPO) else shown}")


if __name__ == "__main__":
    main()
