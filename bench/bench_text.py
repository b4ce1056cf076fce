"""Characters per second of medsim's full text analysis against bare jieba, same text, same run.

    python bench/bench_text.py [--repeats 5] [--file TEXT]

The text is the CMB-Clin case descriptions from ../shared/data when present (real records),
else the bundled case files. Both sides are warmed up first (dictionaries loaded), then each
is timed ``--repeats`` times, interleaved, and the best time of each is kept. Full analysis = normalize + protected
spans + jieba with the medical dictionary + entities + negation. Aim: ratio >= 0.3.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))
CMB = ROOT.parent / "shared" / "data" / "cmb-clin_CMB-test-qa.json"


def load_text(path: str | None) -> tuple[str, str]:
    if path:
        return Path(path).read_text(encoding="utf-8"), path
    if CMB.exists():
        cases = json.loads(CMB.read_text(encoding="utf-8"))
        return "\n".join(c["description"] for c in cases), f"{CMB.name} (descriptions)"
    files = sorted((ROOT / "scenarios" / "cases").glob("*.yaml"))
    return "\n".join(f.read_text(encoding="utf-8") for f in files), "scenarios/cases/*.yaml"


def best_times(fns, text: str, repeats: int) -> list[float]:
    """Best wall time of each function; runs are interleaved so load spikes hit both sides."""
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for k, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn(text)
            best[k] = min(best[k], time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--file")
    args = ap.parse_args()

    import jieba

    from medsim.text import analyze

    jieba.setLogLevel(logging.WARNING)
    text, source = load_text(args.file)
    jieba.lcut("预热")
    analyze("预热：WBC 5.0×10^9/L，否认高血压。")
    t_jieba, t_full = best_times([jieba.lcut, analyze], text, args.repeats)
    a = analyze(text)
    n = len(text)
    print(f"text: {source}, {n:,} characters; best of {args.repeats}")
    print(f"bare jieba.lcut       {n / t_jieba:>12,.0f} chars/s")
    print(f"medsim analyze()      {n / t_full:>12,.0f} chars/s  "
          f"({len(a.tokens):,} tokens, {len(a.entities):,} entities, {len(a.findings):,} findings)")
    print(f"ratio analyze/jieba   {t_jieba / t_full:>12.2f}x   (aim >= 0.30x)")


if __name__ == "__main__":
    main()
