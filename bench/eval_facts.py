"""Evaluate the fact checker on labelled statements (default tests/facts/data/facts_eval.jsonl).

    python bench/eval_facts.py [--data PATH] [--cases PATH] [--misses N] [--json]

Case ids ``cmb-N`` are CMB-Clin cases (``--cases``); any other id is a bundled case from
scenarios/cases/*.yaml (inp-21 and so on). Items may carry a ``category`` (analyte, side, drug,
result, size, summary): the figures are then also printed per category.

A statement is *flagged* with a status when the checker reports at least one finding with that
status; a faithful statement (expected ``supported``) is a false alarm when any finding is not
supported. Omission items run ``omissions()`` with their key fact. Per error type (label):
recall = share of its items flagged with the expected status; precision = TP / (TP + FP) where
FP counts the supported-expected items (faithful, unit_equal) flagged with that same status.
Also printed: the claim-level false-alarm rate (flagged claims / all claims in faithful statements),
which matters for long summaries where one flagged claim flags the whole statement.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from medsim.facts import check, omissions  # noqa: E402
from medsim.facts.record_parse import cmb_case  # noqa: E402

DATA = ROOT / "tests" / "facts" / "data" / "facts_eval.jsonl"
CASES = ROOT.parent / "shared" / "data" / "cmb-clin_CMB-test-qa.json"


def load_items(path: Path) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if "_header" not in r]


CLAIMS: dict[int, tuple[int, int]] = {}  # id(item) -> (claims checked, claims not supported)


def load_cases(cmb_path: Path) -> dict:
    """CMB-Clin cases by ``cmb-N`` plus every bundled case by its id."""
    from medsim.scenario.load import load_case_file

    raw = json.loads(cmb_path.read_text(encoding="utf-8"))
    cases = {f"cmb-{c['id']}": cmb_case(c) for c in raw}
    for path in sorted((ROOT / "scenarios" / "cases").glob("*.yaml")):
        for case in load_case_file(path)[0]:
            cases.setdefault(case.id, case)
    return cases


def predict(case, item: dict) -> set[str]:
    """The statuses the checker flags on one item."""
    report = check(case, item["statement"], key_facts=[])
    CLAIMS[id(item)] = (len(report.findings), len(report.problems()))
    got = {f.status for f in report.findings}
    if item.get("key_fact"):
        flagged = {"omission"} if omissions(case, item["statement"], [item["key_fact"]]) else set()
        return flagged if item["expected"] == "omission" else flagged | got
    return got


def evaluate(items: list[dict], cases: dict) -> dict:
    results = []
    for item in items:
        got = predict(cases[item["case_id"]], item)
        if item["expected"] == "supported":
            ok = not (got - {"supported"})
        else:
            ok = item["expected"] in got
        results.append((item, got, ok))
    supported_items = [(i, g) for i, g, _ in results if i["expected"] == "supported"]
    table = {}
    for label in sorted({i["label"] for i in items}):
        rows = [(i, g, ok) for i, g, ok in results if i["label"] == label]
        n = len(rows)
        tp = sum(ok for _, _, ok in rows)
        if label in ("faithful", "unit_equal"):
            table[label] = {"n": n, "correct": tp, "accuracy": tp / n if n else 0.0,
                            "false_alarm_rate": 1 - tp / n if n else 0.0}
            continue
        expected = rows[0][0]["expected"]
        fp = sum(1 for i, g in supported_items if expected in g)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / n if n else 0.0
        table[label] = {"n": n, "tp": tp, "fp": fp, "precision": p, "recall": r,
                        "f1": 2 * p * r / (p + r) if p + r else 0.0}
    errors = [(i, g, ok) for i, g, ok in results if i["expected"] != "supported"]
    tp = sum(ok for _, _, ok in errors)
    flagged_faithful = sum(1 for i, g in supported_items if g - {"supported"})
    detected = sum(1 for i, g, _ in errors if g - {"supported"})
    p = detected / (detected + flagged_faithful) if detected + flagged_faithful else 0.0
    r = tp / len(errors) if errors else 0.0
    claims = [CLAIMS.get(id(i), (0, 0)) for i, _ in supported_items]
    n_claims = sum(c for c, _ in claims)
    overall = {"n": len(results), "errors": len(errors), "precision": p, "recall": r,
               "f1": 2 * p * r / (p + r) if p + r else 0.0,
               "false_alarm_rate": flagged_faithful / len(supported_items) if supported_items else 0.0,
               # per claim: of the claims in faithful statements, the share flagged
               "claim_false_alarm_rate": sum(b for _, b in claims) / n_claims if n_claims else 0.0,
               "claims_in_supported_items": n_claims}
    misses = [{"case_id": i["case_id"], "label": i["label"], "statement": i["statement"], "expected": i["expected"],
               "got": sorted(g), **({"key_fact": i["key_fact"]} if i.get("key_fact") else {})}
              for i, g, ok in results if not ok]
    by_category = {}
    for cat in sorted({i["category"] for i in items if i.get("category")}):
        rows = [(i, ok) for i, _, ok in results if i.get("category") == cat]
        err = [ok for i, ok in rows if i["expected"] != "supported"]
        fine = [ok for i, ok in rows if i["expected"] == "supported"]
        by_category[cat] = {"n": len(rows), "errors": len(err), "caught": sum(err),
                            "recall": sum(err) / len(err) if err else None,
                            "faithful": len(fine), "false_alarms": len(fine) - sum(fine),
                            "false_alarm_rate": (len(fine) - sum(fine)) / len(fine) if fine else None}
    return {"per_label": table, "overall": overall, "per_category": by_category, "misses": misses}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--cases", type=Path, default=CASES)
    ap.add_argument("--misses", type=int, default=40, help="how many misses to list (-1: all)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    items = load_items(args.data)
    cases = load_cases(args.cases)
    t0 = time.perf_counter()
    res = evaluate(items, cases)
    res["seconds"] = round(time.perf_counter() - t0, 2)
    if args.json:
        print(json.dumps(res, ensure_ascii=False, indent=1))
        return
    print(f"{len(items)} statements, {Counter(i['label'] for i in items).most_common()}")
    print(f"{'label':<16}{'n':>5}{'P':>8}{'R':>8}{'F1':>8}   (faithful rows: false-alarm rate)")
    for label, row in res["per_label"].items():
        if "f1" in row:
            print(f"{label:<16}{row['n']:>5}{row['precision']:>8.3f}{row['recall']:>8.3f}{row['f1']:>8.3f}")
        else:
            print(f"{label:<16}{row['n']:>5}{'':>8}{'':>8}{'':>8}   false alarms {row['false_alarm_rate']:.3f}")
    o = res["overall"]
    print(f"{'overall':<16}{o['n']:>5}{o['precision']:>8.3f}{o['recall']:>8.3f}{o['f1']:>8.3f}"
          f"   false alarms on supported items {o['false_alarm_rate']:.3f}  ({res['seconds']} s)")
    print(f"claim-level false alarms: {o['claim_false_alarm_rate']:.3f} of {o['claims_in_supported_items']} claims "
          "in supported statements")
    if res["per_category"]:
        print(f"\n{'category':<16}{'n':>5}{'errors':>8}{'recall':>8}{'faithful':>10}{'false alarms':>14}")
        for cat, row in res["per_category"].items():
            rec = f"{row['recall']:.3f}" if row["recall"] is not None else "-"
            fa = f"{row['false_alarms']} ({row['false_alarm_rate']:.3f})" if row["faithful"] else "-"
            print(f"{cat:<16}{row['n']:>5}{row['errors']:>8}{rec:>8}{row['faithful']:>10}{fa:>14}")
    by = defaultdict(int)
    for m in res["misses"]:
        by[m["label"]] += 1
    print(f"\nmisses: {len(res['misses'])} {dict(by)}")
    limit = len(res["misses"]) if args.misses < 0 else args.misses
    for m in res["misses"][:limit]:
        extra = f"  key_fact={m['key_fact']}" if m.get("key_fact") else ""
        print(f"  {m['case_id']:<7} {m['label']:<15} want {m['expected']:<14} got {','.join(m['got']) or '-':<28} {m['statement']}{extra}")


if __name__ == "__main__":
    main()
