"""Fact-checking throughput: record–response pairs checked per second, against bare jieba.

    python bench/bench_facts.py [--pairs N] [--rounds R]

Responses are 500-character texts cut from the 74 CMB-Clin records (every one distinct, so no
response is served from the cache), each with a few altered facts. The record side is indexed
once per case and cached, as it is in a run (one record, many outputs); the cold cost of
indexing the 74 records is printed separately. The baseline is ``jieba.lcut`` on the same
response texts in the same run; the ratio is checker speed / jieba speed. The text layer's
``analyze`` on the same responses is timed too, to show how much of the checker it is.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CASES = ROOT.parent / "shared" / "data" / "cmb-clin_CMB-test-qa.json"


def responses(records: list[str], n: int, rng: random.Random) -> list[tuple[int, str]]:
    """n distinct 500-character responses: a window of a record with some facts altered."""
    out = []
    for k in range(n):
        i = k % len(records)
        flat = re.sub(r"\s+", "", records[i])
        flat = (flat * (1 + 500 // max(len(flat), 1)))
        start = rng.randrange(0, max(1, len(flat) - 500))
        text = flat[start:start + 480]
        text = text.replace("左", "右", 1) if rng.random() < 0.5 else text.replace("无", "有", 1)
        text += f"复查血钾{3 + rng.random():.2f}mmol/L，体温{36 + rng.random() * 3:.1f}℃。"
        out.append((i, text[:500]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best of each side counts")
    args = ap.parse_args()

    import jieba

    from medsim.facts import check
    from medsim.facts.record_parse import cmb_case

    jieba.setLogLevel(60)
    cases = [cmb_case(c) for c in json.loads(CASES.read_text(encoding="utf-8"))]
    rng = random.Random(7)
    pairs = responses([c.full_record_text() for c in cases], args.pairs, rng)
    chars = sum(len(t) for _, t in pairs)

    jieba.lcut("预热分词词典")  # dictionary load is not part of either measurement
    check(cases[0], "预热：患者男，49岁。", key_facts=[])  # lexicon and jieba load, likewise

    t0 = time.perf_counter()
    for case in cases:
        check(case, "体温36.5℃。", key_facts=[])
    cold = time.perf_counter() - t0

    # Alternate the two measurements and keep each side's best round: the machine is shared, and
    # a burst of load during one side's turn would otherwise decide the ratio.
    from medsim.text import analyze

    t_check, t_jieba, t_text = float("inf"), float("inf"), float("inf")
    for _ in range(args.rounds):
        from medsim.facts.record import index_text

        index_text.cache_clear()  # responses are analysed afresh each round; records stay indexed
        t0 = time.perf_counter()
        for i, text in pairs:
            check(cases[i], text, key_facts=[])
        t_check = min(t_check, time.perf_counter() - t0)
        t0 = time.perf_counter()
        for _, text in pairs:
            jieba.lcut(text)
        t_jieba = min(t_jieba, time.perf_counter() - t0)
        t0 = time.perf_counter()
        for _, text in pairs:
            analyze(text)
        t_text = min(t_text, time.perf_counter() - t0)

    print(f"{len(pairs)} record–response pairs, {chars / len(pairs):.0f} chars per response, {len(cases)} records")
    print(f"record indexing (cold, once per record): {cold / len(cases) * 1000:.1f} ms per record")
    print(f"fact check : {len(pairs) / t_check:8.1f} pairs/s  {chars / t_check / 1000:8.1f} k chars/s")
    print(f"bare jieba : {len(pairs) / t_jieba:8.1f} texts/s  {chars / t_jieba / 1000:8.1f} k chars/s")
    print(f"text layer analyze() alone on the responses: {len(pairs) / t_text:8.1f} texts/s "
          f"({t_text / t_check:.0%} of the checker's time)")
    print(f"ratio (checker / jieba): {t_jieba / t_check:.3f}x")


if __name__ == "__main__":
    main()
