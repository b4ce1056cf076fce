"""Correct answers in other words must score as the reference does; close wrong answers must not.

    python bench/eval_paraphrases.py [--set tune|holdout|holdout2|holdout3|holdout4|holdout5|holdout6|holdout7|all] [--scenario ID] [--misses] [--json]
    python bench/eval_paraphrases.py --judge MODEL [--base-url URL] [--protocol criteria|llmeval] [--runs N] [--per-scenario N] …

Reads tests/scoring/data/paraphrases/*_{set}.jsonl (written by independent physician reviewers,
see its README), scores every answer with the scenario's deterministic scorers (no dialogue) and
the reference answer of the same case, and prints per scenario: correct answers scoring ≥ 0.9 of
the reference, close wrong answers scoring ≤ 0.3 of it.

With ``--judge`` (issue 12.6) only the scenarios a judge grades (those with a ``checklist``
scorer) are read, and each answer is scored three ways on the same targets: by the rules alone
(the offline default), by the judge alone (the checklist scorer's value against the reference's),
and by the scenario's whole score with the judge in it — so rules and judge are measured on the
same answers. ``--protocol criteria`` grades per criterion (HealthBench-style) where the scenario
says llmeval; ``--runs`` overrides the judge runs per grading (a slow local model: 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "tests" / "scoring" / "data" / "paraphrases"
CORRECT_MIN, WRONG_MAX = 0.9, 0.3
# holdout2: a second held-out set on cases neither earlier reviewer used, by a new reviewer;
# holdout3: a third, on cases none of them used, by two more reviewers; holdout4: a fourth (stop 23), by
# two more, on the cases left unused and a few used ones with answers of their own; holdout5: a fifth
# (stop 24), by two more, on cases of their choice (every case had been used) with answers of their own;
# holdout6 (stop 27): a sixth, by two more, committed before its first run on the stop-27 scorers;
# holdout7 (stop 28): a seventh, by two more, committed before its first run
PARTS = ("tune", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7")
# the set not yet tuned on is scored only when named (--set holdout7): `--set all` is every set a change
# may be tuned on, so a tuning loop over `all` cannot spend the honest set by accident
UNSPENT = ("holdout7",)


def load(which: str) -> list[dict]:
    parts = [p for p in PARTS if p not in UNSPENT] if which == "all" else [which]
    rows = []
    for part in parts:
        for path in sorted(DATA.glob(f"*_{part}.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    rows.append({**json.loads(line), "part": part})
    return rows


def _on_target(label: str, value: float | None, reference: float | None) -> tuple[float, bool]:
    """(ratio to the reference, whether it meets its label's target)."""
    value, reference = value or 0.0, reference or 0.0
    # compared as printed (3 places): one contradiction leaves 1 − 0.7, which in floating point
    # is 0.30000000000000004 and must not fail a ≤ 0.3 target
    ratio = round(value / reference, 3) if reference else 0.0
    return ratio, (ratio >= CORRECT_MIN if label == "correct" else ratio <= WRONG_MAX)


def _judged(scenario, protocol: str | None, runs: int | None):
    """The scenario with its checklist scorer set as asked (a copy: the registry's stays as it is)."""
    scoring = []
    for ref in scenario.scoring:
        if ref.name == "checklist":
            config = {**ref.config, **({"protocol": protocol} if protocol else {}), **({"runs": runs} if runs else {})}
            ref = ref.model_copy(update={"config": config})
        scoring.append(ref)
    return scenario.model_copy(update={"scoring": scoring})


def judged_scenarios() -> list[str]:
    from medsim.scenario.registry import get_scenario, scenario_ids

    return [sid for sid in scenario_ids() if any(r.name == "checklist" for r in get_scenario(sid).scenario.scoring)]


def evaluate(rows: list[dict], judge=None, protocol: str | None = None, runs: int | None = None,
             progress=None) -> dict:
    from medsim.scenario.registry import get_scenario
    from medsim.scoring.fixed import reference_answer, score_fixed

    refs: dict[tuple[str, str], tuple] = {}
    out = []
    for n, row in enumerate(rows, 1):
        loaded = get_scenario(row["scenario"])
        case = next(c for c in loaded.cases if c.id == row["case"])
        key = (row["scenario"], row["case"])
        judged = _judged(loaded.scenario, protocol, runs) if judge else None

        def both(answer: str, case=case, loaded=loaded, judged=judged):
            rules = score_fixed(loaded.scenario, case, answer, case_pool=loaded.cases)
            if judged is None:
                return rules, None
            return rules, score_fixed(judged, case, answer, case_pool=loaded.cases, services={"judge": judge})

        if key not in refs:
            refs[key] = both(reference_answer(loaded.scenario, case))
        got, got_judged = both(row["answer"])
        ref, ref_judged = refs[key]
        ratio, ok = _on_target(row["label"], got.item_score, ref.item_score)
        result = {**row, "score": round(got.item_score or 0.0, 3), "reference": round(ref.item_score or 0.0, 3),
                  "ratio": ratio, "ok": ok, "reasons": {s.scorer: s.reasons[:3] for s in got.scores}}
        if got_judged is not None:
            result["judge"] = _judge_result(row["label"], got_judged, ref_judged)
        out.append(result)
        if progress:
            progress(n, len(rows))
    summary: dict = defaultdict(lambda: {"correct": [0, 0], "wrong": [0, 0]})
    judged_summary: dict = defaultdict(lambda: {f"{way}_{label}": [0, 0] for way in ("judge", "combined")
                                                for label in ("correct", "wrong")} | {"errors": 0})
    for r in out:
        cell = summary[r["scenario"]][r["label"]]
        cell[0] += r["ok"]
        cell[1] += 1
        if "judge" in r:
            cells = judged_summary[r["scenario"]]
            for way in ("judge", "combined"):
                cells[f"{way}_{r['label']}"][0] += r["judge"][f"{way}_ok"]
                cells[f"{way}_{r['label']}"][1] += 1
            cells["errors"] += bool(r["judge"]["error"])
    result = {"rows": out, "summary": dict(summary)}
    if judge is not None:
        result["judged"] = dict(judged_summary)
    return result


def _judge_result(label: str, got, ref) -> dict:
    """The judge alone (checklist value against the reference's) and the whole score with the judge."""
    def checklist(fixed):
        return next((s for s in fixed.scores if s.scorer == "checklist"), None)

    mine, theirs = checklist(got), checklist(ref)
    error = (mine.error if mine else "no checklist score") or (theirs.error if theirs else "no checklist score")
    if not error and not theirs.value:
        error = "the judge gave the reference answer 0: no ratio to take"
    judge_ratio, judge_ok = _on_target(label, mine.value if mine else None, theirs.value if theirs else None)
    combined_ratio, combined_ok = _on_target(label, got.item_score, ref.item_score)
    return {"value": None if not mine or mine.value is None else round(mine.value, 3),
            "reference": None if not theirs or theirs.value is None else round(theirs.value, 3),
            "ratio": judge_ratio, "judge_ok": bool(judge_ok and not error),
            "combined_ratio": combined_ratio, "combined_ok": bool(combined_ok and not error),
            "error": error, "reasons": (mine.reasons[:3] if mine else [])}


def _sample(rows: list[dict], per_scenario: int | None) -> list[dict]:
    """At most ``per_scenario`` correct and as many wrong answers per scenario, spread over its cases
    (a slow judge cannot grade every answer; the same rows every time)."""
    if not per_scenario:
        return rows
    picked, seen = [], defaultdict(int)
    # round-robin over cases, so the sample is not one case's answers
    by_case: dict = defaultdict(list)
    for r in rows:
        by_case[(r["scenario"], r["label"], r["case"])].append(r)
    while any(by_case.values()):
        for key in sorted(by_case):
            if by_case[key] and seen[key[:2]] < per_scenario:
                picked.append(by_case[key].pop(0))
                seen[key[:2]] += 1
            elif by_case[key]:
                by_case[key].clear()
    order = {id(r): i for i, r in enumerate(rows)}
    return sorted(picked, key=lambda r: order[id(r)])


def _fraction(cell: list[int]) -> str:
    return f"{cell[0]:>4}/{cell[1]:<4} {cell[0] / max(1, cell[1]):.2f}"


def _print_judged(result: dict, judge_name: str) -> None:
    print(f"\njudge {judge_name}: the same answers, three ways (correct ≥0.9×ref · wrong ≤0.3×ref)")
    print(f"{'scenario':20} {'rules: correct':>16} {'wrong':>14} {'judge: correct':>16} {'wrong':>14}"
          f" {'with judge: correct':>20} {'wrong':>14} {'errors':>7}")
    tot: dict = defaultdict(lambda: [0, 0])
    for sid in sorted(result["judged"]):
        rules, judged = result["summary"][sid], result["judged"][sid]
        cells = [rules["correct"], rules["wrong"], judged["judge_correct"], judged["judge_wrong"],
                 judged["combined_correct"], judged["combined_wrong"]]
        for i, c in enumerate(cells):
            tot[i][0] += c[0]
            tot[i][1] += c[1]
        tot["errors"][0] += judged["errors"]
        print(f"{sid:20} " + " ".join(f"{_fraction(c):>15}" for c in cells) + f" {judged['errors']:>7}")
    print(f"{'all':20} " + " ".join(f"{_fraction(tot[i]):>15}" for i in range(6)) + f" {tot['errors'][0]:>7}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="tune", choices=[*PARTS, "all"])
    ap.add_argument("--scenario")
    ap.add_argument("--misses", action="store_true", help="print every answer that fails its target")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--judge", help="grade with this judge too: a models.yaml name, or any name with --base-url")
    ap.add_argument("--base-url", help="the judge's OpenAI-compatible endpoint")
    ap.add_argument("--models-file", help="models.yaml (default: ./models.yaml, ~/.config/medsim/)")
    ap.add_argument("--protocol", choices=["criteria", "llmeval"],
                    help="the judge protocol for every judged scenario (default: as each scenario says)")
    ap.add_argument("--runs", type=int, help="judge runs per grading (default: as each scenario says)")
    ap.add_argument("--per-scenario", type=int,
                    help="with --judge: at most N correct and N wrong answers per scenario, spread over its cases")
    args = ap.parse_args()
    for flag, value in (("--runs", args.runs), ("--per-scenario", args.per_scenario)):
        if value is not None and value < 1:
            ap.error(f"{flag} {value}: give a whole number ≥ 1")
    if (args.base_url or args.protocol or args.runs or args.per_scenario) and not args.judge:
        ap.error("--base-url, --protocol, --runs and --per-scenario go with --judge MODEL")
    rows = [r for r in load(args.set) if not args.scenario or r["scenario"] == args.scenario]
    judge = None
    if args.judge:
        judged = judged_scenarios()
        if args.scenario and args.scenario not in judged:
            ap.error(f"{args.scenario} is not graded by a judge (no checklist scorer); judged: {', '.join(judged)}")
        rows = _sample([r for r in rows if r["scenario"] in judged], args.per_scenario)
        judge = _resolve_judge(ap, args)
    progress = None
    if judge is not None:
        def progress(done: int, total: int) -> None:
            if done == total or done % 5 == 0:
                print(f"graded {done}/{total}", file=sys.stderr, flush=True)
    from medsim.models.base import ModelCallError

    try:
        result = evaluate(rows, judge, args.protocol, args.runs, progress)
    except ModelCallError as exc:
        sys.exit(f"the judge could not be reached: {exc.reason}")
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    tot = {"correct": [0, 0], "wrong": [0, 0]}
    print(f"{'scenario':20} {'correct ≥0.9×ref':>18} {'wrong ≤0.3×ref':>16}")
    for sid in sorted(result["summary"]):
        s = result["summary"][sid]
        for k in tot:
            tot[k][0] += s[k][0]
            tot[k][1] += s[k][1]
        print(f"{sid:20} {s['correct'][0]:>7}/{s['correct'][1]:<4} {s['correct'][0] / max(1, s['correct'][1]):.2f}"
              f" {s['wrong'][0]:>7}/{s['wrong'][1]:<4} {s['wrong'][0] / max(1, s['wrong'][1]):.2f}")
    print(f"{'all':20} {tot['correct'][0]:>7}/{tot['correct'][1]:<4} {tot['correct'][0] / max(1, tot['correct'][1]):.2f}"
          f" {tot['wrong'][0]:>7}/{tot['wrong'][1]:<4} {tot['wrong'][0] / max(1, tot['wrong'][1]):.2f}")
    if judge is not None:
        _print_judged(result, args.judge)
    if args.misses:
        for r in result["rows"]:
            if not r["ok"]:
                print(f"\n[{r['label']}/{r['variant']}] {r['scenario']} {r['case']}: {r['score']} "
                      f"(ref {r['reference']}) — {r['why']}\n  {r['answer'][:300]}\n  {r['reasons']}")
            if "judge" in r and not r["judge"]["judge_ok"]:
                j = r["judge"]
                print(f"\n[judge {r['label']}/{r['variant']}] {r['scenario']} {r['case']}: {j['value']} "
                      f"(ref {j['reference']}) {j['error'] or ''}\n  {r['answer'][:300]}\n  {j['reasons']}")


def _resolve_judge(ap: argparse.ArgumentParser, args):
    """The judge as a run resolves it; a dead endpoint is said now, not after minutes of retries."""
    import asyncio

    from medsim.models.config import ConfigError, resolve_model
    from medsim.models.preflight import endpoint_problem

    try:
        judge = resolve_model(args.judge, base_url=args.base_url, models_file=args.models_file, flag="--judge")
    except ConfigError as exc:
        ap.error(str(exc))

    async def look():
        problem = await endpoint_problem(judge)
        close = getattr(judge, "aclose", None)
        if close:
            await close()  # its HTTP client belongs to this short-lived event loop
        return problem

    problem = asyncio.run(look())
    if problem:
        sys.exit(f"the judge {args.judge} cannot be used: {problem}")
    return judge


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    main()
