"""medsim's text layer measured on public Chinese medical data written by others.

    python bench/eval_external.py [--data DIR] [--split dev] [--json] [--samples 8]

DIR is laid out like ../shared/data/ext (see its README):
  cmdd/<split>/*.json                    CMDD dialogues (Lin et al., EMNLP 2019; ChineseBLUE, Apache-2.0)
  chineseblue/cEHRNER/<split>.json       records with entity spans (ChineseBLUE, Apache-2.0)
  chineseblue/cMedQANER/<split>.json     patients' questions with entity spans (ChineseBLUE, Apache-2.0)
Any split name works (train, dev, test, …); a dataset without that split is skipped and said so.

CMDD, polarity of symptom mentions (status 1 present, 2 absent, 3 uncertain), patients' and
doctors' utterances apart:
  - gold spans: the annotated stretches are handed to the polarity logic, read in their dialogue
    (``medsim.text.dialogue.judge_dialogue``), so recognition misses do not count;
  - end to end: ``analyze()`` on each utterance alone; a gold mention no finding overlaps is "missed".
cEHRNER / cMedQANER, entity recall: a gold span is found when a medsim entity overlaps it
("recall"), or has exactly its span ("exact"); "typed" also needs a compatible medsim type.
cMedQANER types medsim has no entity type for (crowd, time, feature, physiology) are reported
beside, outside the headline recall.

``--json`` prints one object:
  {"cmdd": {"patient": {"n", "accuracy", "macro_f1", "precision": {label: x}, "recall": {label: x}},
            "doctor": {...}, "end_to_end": {"patient": {...}, "doctor": {...}}},
   "cehrner": {"n", "recall", "exact", "typed", "by_type": {type: recall}, "exact_by_type": {...}},
   "cmedqaner": {...}}
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "ext"

LABELS = ("present", "absent", "uncertain")
STATUS = {"1": "present", "2": "absent", "3": "uncertain"}
SPEAKERS = {"患者": "patient", "医生": "doctor"}

CEHR_TYPES = {
    "疾病和诊断": "disease", "症状": "symptom", "药物": "drug", "实验室检验": "lab_test",
    "影像检查": "imaging", "手术": "surgery", "解剖部位": "body",
}
# which medsim entity types count as the same kind of thing, for the "typed" figure
COMPATIBLE = {
    "disease": {"disease", "symptom"},
    "symptom": {"symptom", "disease"},
    "drug": {"drug", "dose"},
    "lab_test": {"exam", "lab_value"},
    "imaging": {"exam", "procedure"},
    "surgery": {"procedure"},
    "body": {"body_part"},
    "test": {"exam", "lab_value", "procedure"},
    "treatment": {"procedure", "drug"},
    "department": {"department"},
}
QA_OUT_OF_SCOPE = {"crowd", "time", "feature", "physiology"}


class DataError(Exception):
    pass


# -- loading ---------------------------------------------------------------------------------

def bio_spans(label: str) -> list[tuple[int, int]]:
    out, i = [], 0
    while i < len(label):
        if label[i] == "B":
            j = i + 1
            while j < len(label) and label[j] == "I":
                j += 1
            out.append((i, j))
            i = j
        else:
            i += 1
    return out


def load_cmdd(folder: Path, notes: list[str]) -> list[list[dict]]:
    """Dialogues as lists of {speaker, text, gold: [(start, end, label)]}."""
    dialogues, skipped = [], 0
    for path in sorted(folder.glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            turns = doc["dialogue-content"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            notes.append(f"cmdd: {path.name} skipped ({exc.__class__.__name__}: {exc})")
            continue
        dialogue = []
        for u in turns:
            text, label, status = u.get("sentence", ""), u.get("label", ""), u.get("type", [])
            spans = bio_spans(label)
            speaker = SPEAKERS.get(u.get("speaker", ""), "other")
            if len(spans) != len(status) or (spans and spans[-1][1] > len(text)):
                skipped += 1  # labels that do not line up with the sentence
                spans, status = [], []
            gold = [(s, e, STATUS.get(str(t), "?")) for (s, e), t in zip(spans, status, strict=True)]
            dialogue.append({"speaker": speaker, "text": text, "gold": [g for g in gold if g[2] != "?"]})
        dialogues.append(dialogue)
    if skipped:
        notes.append(f"cmdd: {skipped} utterances whose BIO labels and statuses do not line up were left unlabelled")
    return dialogues


def load_ner(path: Path, type_key: str, notes: list[str]) -> list[tuple[str, list[tuple[int, int, str, str]]]]:
    """(text, [(start, end, type, mention)]) per record; offsets checked against the text."""
    out, moved, dropped = [], 0, 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            text = rec["text"]
            mentions = rec.get("mention_data", [])
        except (ValueError, KeyError, TypeError) as exc:
            notes.append(f"{path.name}:{n} skipped ({exc.__class__.__name__})")
            continue
        gold = []
        for m in mentions:
            mention = m.get("mention", "")
            typ = m.get(type_key) or m.get("type") or m.get("label") or "?"
            typ = CEHR_TYPES.get(typ, typ)
            try:
                off = int(m.get("offset", -1))
            except (TypeError, ValueError):
                off = -1
            if not mention:
                continue
            if text[off : off + len(mention)] != mention:
                found = text.find(mention)
                if found < 0:
                    dropped += 1
                    continue
                off = found
                moved += 1
            gold.append((off, off + len(mention), typ, mention))
        out.append((text, gold))
    if moved or dropped:
        notes.append(f"{path.parent.name}/{path.name}: {moved} offsets corrected to the mention's first place, "
                     f"{dropped} mentions not in their text dropped")
    return out


# -- metrics ---------------------------------------------------------------------------------

def polarity_metrics(pairs: list[tuple[str, str]], labels=LABELS) -> dict:
    n = len(pairs)
    conf = Counter(pairs)
    prec, rec, f1s = {}, {}, []
    for lab in labels:
        tp = conf[(lab, lab)]
        pred = sum(v for (g, p), v in conf.items() if p == lab)
        gold = sum(v for (g, p), v in conf.items() if g == lab)
        p = tp / pred if pred else 0.0
        r = tp / gold if gold else 0.0
        prec[lab], rec[lab] = round(p, 4), round(r, 4)
        f1s.append(2 * p * r / (p + r) if p + r else 0.0)
    acc = sum(v for (g, p), v in conf.items() if g == p) / n if n else 0.0
    return {
        "n": n, "accuracy": round(acc, 4), "macro_f1": round(sum(f1s) / len(f1s), 4),
        "precision": prec, "recall": rec,
        "confusion": {g: {p: conf[(g, p)] for p in (*labels, "missed") if conf[(g, p)]} for g in labels},
    }


# -- CMDD ------------------------------------------------------------------------------------

def eval_cmdd(dialogues: list[list[dict]], samples: int, rng: random.Random) -> tuple[dict, dict]:
    from medsim.text import analyze

    judge = _dialogue_judge()
    pairs: dict[str, list] = defaultdict(list)
    e2e: dict[str, list] = defaultdict(list)
    errors: dict[str, list] = defaultdict(list)
    for dialogue in dialogues:
        predicted = judge(dialogue)
        for turn, preds in zip(dialogue, predicted, strict=True):
            who = turn["speaker"]
            if who not in ("patient", "doctor") or not turn["gold"]:
                continue
            text = turn["text"]
            for (s, e, gold), pred in zip(turn["gold"], preds, strict=True):
                pairs[who].append((gold, pred))
                if gold != pred:
                    errors[who].append(f"{gold}→{pred}  {text[:s]}【{text[s:e]}】{text[e:]}")
            findings = analyze(text).findings
            for s, e, gold in turn["gold"]:
                hit = [f for f in findings if f.start < e and s < f.end]
                e2e[who].append((gold, hit[0].polarity if hit else "missed"))
    out = {who: polarity_metrics(pairs[who]) for who in ("patient", "doctor")}
    out["end_to_end"] = {who: polarity_metrics(e2e[who]) for who in ("patient", "doctor")}
    for who in ("patient", "doctor"):
        out["end_to_end"][who]["found"] = round(
            sum(1 for _, p in e2e[who] if p != "missed") / len(e2e[who]), 4) if e2e[who] else 0.0
    samp = {who: rng.sample(errs, min(samples, len(errs))) for who, errs in errors.items()}
    return out, samp


def _dialogue_judge():
    """The library's dialogue reader when it has one, else each utterance on its own."""
    try:
        from medsim.text.dialogue import judge_dialogue
    except ImportError:
        from medsim.text.analysis import judge_spans

        def judge_dialogue(dialogue):
            return [[f.polarity for f in judge_spans(t["text"], [(s, e) for s, e, _ in t["gold"]])] if t["gold"] else []
                    for t in dialogue]
        return judge_dialogue

    def run(dialogue):
        turns = [(t["speaker"], t["text"], [(s, e) for s, e, _ in t["gold"]]) for t in dialogue]
        return [[f.polarity for f in fs] for fs in judge_dialogue(turns)]
    return run


# -- NER -------------------------------------------------------------------------------------

def eval_ner(records, samples: int, rng: random.Random, out_of_scope: set[str]) -> tuple[dict, dict]:
    from medsim.text import extract_entities

    found, exact, typed, total = Counter(), Counter(), Counter(), Counter()
    misses: dict[str, list] = defaultdict(list)
    inexact: dict[str, list] = defaultdict(list)
    for text, gold in records:
        ents = extract_entities(text)
        for s, e, typ, mention in gold:
            total[typ] += 1
            over = [x for x in ents if x.start < e and s < x.end]
            if over:
                found[typ] += 1
                if any(x.start == s and x.end == e for x in over):
                    exact[typ] += 1
                else:
                    inexact[typ].append(f"{mention}  got {'/'.join(x.text for x in over)}")
                if any(x.type in COMPATIBLE.get(typ, set()) for x in over):
                    typed[typ] += 1
            else:
                lo, hi = max(0, s - 12), min(len(text), e + 12)
                misses[typ].append(f"{mention}  …{text[lo:s]}【{mention}】{text[e:hi]}…")
    scope = [t for t in total if t not in out_of_scope]

    def ratio(c: Counter, types) -> float:
        n = sum(total[t] for t in types)
        return round(sum(c[t] for t in types) / n, 4) if n else 0.0

    res = {
        "n": sum(total[t] for t in scope),
        "recall": ratio(found, scope),
        "exact": ratio(exact, scope),
        "typed": ratio(typed, scope),
        "by_type": {t: ratio(found, [t]) for t in sorted(scope, key=lambda t: -total[t])},
        "exact_by_type": {t: ratio(exact, [t]) for t in sorted(scope, key=lambda t: -total[t])},
        "typed_by_type": {t: ratio(typed, [t]) for t in sorted(scope, key=lambda t: -total[t])},
        "count_by_type": {t: total[t] for t in sorted(scope, key=lambda t: -total[t])},
    }
    if out_of_scope & set(total):
        res["outside_scope"] = {t: {"n": total[t], "recall": ratio(found, [t])} for t in sorted(out_of_scope & set(total))}
    samp = {t: rng.sample(m, min(samples, len(m))) for t, m in misses.items()}
    samp.update({f"{t} (span differs)": rng.sample(m, min(samples, len(m))) for t, m in inexact.items()})
    return res, samp


# -- printing --------------------------------------------------------------------------------

def print_polarity(title: str, m: dict) -> None:
    print(f"\n{title}: n={m['n']}  accuracy {m['accuracy']:.3f}  macro-F1 {m['macro_f1']:.3f}"
          + (f"  found {m['found']:.3f}" if "found" in m else ""))
    print(f"  {'label':<10}{'precision':>10}{'recall':>8}   confusion (gold → predicted)")
    for lab in LABELS:
        row = "  ".join(f"{p} {v}" for p, v in m["confusion"].get(lab, {}).items())
        print(f"  {lab:<10}{m['precision'][lab]:>10.3f}{m['recall'][lab]:>8.3f}   {row}")


def print_ner(title: str, m: dict) -> None:
    print(f"\n{title}: n={m['n']}  recall {m['recall']:.3f}  exact {m['exact']:.3f}  typed {m['typed']:.3f}")
    print(f"  {'type':<12}{'n':>6}{'recall':>8}{'exact':>8}{'typed':>8}")
    for t, r in m["by_type"].items():
        print(f"  {t:<12}{m['count_by_type'][t]:>6}{r:>8.3f}{m['exact_by_type'][t]:>8.3f}{m['typed_by_type'][t]:>8.3f}")
    for t, v in m.get("outside_scope", {}).items():
        print(f"  {t:<12}{v['n']:>6}{v['recall']:>8.3f}   (no medsim entity type: outside the headline)")


def print_samples(samples: dict) -> None:
    for key, items in samples.items():
        if items:
            print(f"  sample errors, {key}:")
            for s in items:
                print(f"    {s}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="folder laid out like ../shared/data/ext")
    ap.add_argument("--split", default="dev", help="split name: train, dev, test, … (default dev)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    ap.add_argument("--samples", type=int, default=8, help="sample errors shown per table (default 8)")
    ap.add_argument("--seed", type=int, default=0, help="seed for choosing the sample errors")
    ap.add_argument("--half", choices=("all", "even", "odd"), default="all",
                    help="every other dialogue / record only: keep one half of a split untouched")
    args = ap.parse_args(argv)

    data = Path(args.data)
    if not data.is_dir():
        print(f"error: data folder not found: {data}\nhint: pass --data DIR laid out like ../shared/data/ext",
              file=sys.stderr)
        return 2
    sources = {
        "cmdd": data / "cmdd" / args.split,
        "cehrner": data / "chineseblue" / "cEHRNER" / f"{args.split}.json",
        "cmedqaner": data / "chineseblue" / "cMedQANER" / f"{args.split}.json",
    }
    present = {k: p for k, p in sources.items() if (p.is_dir() and any(p.glob("*.json"))) or p.is_file()}
    if not present:
        splits = sorted({p.name for p in (data / "cmdd").glob("*") if p.is_dir()}
                        | {p.stem for p in data.glob("chineseblue/*/*.json")})
        print(f"error: no dataset has a split named {args.split!r} under {data}\n"
              f"hint: splits found: {', '.join(splits) or 'none'}", file=sys.stderr)
        return 2
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    notes: list[str] = [f"{k}: no {args.split!r} split, skipped" for k in sources if k not in present]
    rng = random.Random(args.seed)

    def half(items: list) -> list:
        return items if args.half == "all" else items[(0 if args.half == "even" else 1) :: 2]

    result: dict = {}
    samples: dict = {}
    if "cmdd" in present:
        result["cmdd"], samples["cmdd"] = eval_cmdd(half(load_cmdd(present["cmdd"], notes)), args.samples, rng)
    if "cehrner" in present:
        result["cehrner"], samples["cehrner"] = eval_ner(half(load_ner(present["cehrner"], "label", notes)),
                                                         args.samples, rng, set())
    if "cmedqaner" in present:
        result["cmedqaner"], samples["cmedqaner"] = eval_ner(half(load_ner(present["cmedqaner"], "type", notes)),
                                                             args.samples, rng, QA_OUT_OF_SCOPE)
    if args.json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
        return 0
    print(f"medsim text layer on external data: {data}, split {args.split}"
          + ("" if args.half == "all" else f", {args.half} half"))
    if "cmdd" in result:
        c = result["cmdd"]
        print_polarity("CMDD patient utterances, gold spans", c["patient"])
        print_samples({"patient": samples["cmdd"].get("patient", [])})
        print_polarity("CMDD doctor utterances, gold spans", c["doctor"])
        print_samples({"doctor": samples["cmdd"].get("doctor", [])})
        print_polarity("CMDD patient utterances, end to end", c["end_to_end"]["patient"])
        print_polarity("CMDD doctor utterances, end to end", c["end_to_end"]["doctor"])
    for key, title in (("cehrner", "cEHRNER records, entity recall"), ("cmedqaner", "cMedQANER questions, entity recall")):
        if key in result:
            print_ner(title, result[key])
            print_samples(samples[key])
    for note in notes:
        print(f"note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
