"""Rule-patient turns per second, with the bare topic classifier and bare jieba on the same
questions in the same run as reference points (ratios hold on a noisy machine; absolute
numbers do not).

Run: python bench/bench_patient.py [--turns 3000]
Each "turn" is one clinician question answered by the rule patient: topic classification,
record lookup, negation, lay rewriting, leak scrub and persona shaping. The questions are
the labelled questions in medsim/sim/topic_examples.yaml, cycled over two cases and four personas.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "sim")]

from patient_cases import pid_case, spec, stemi_case  # noqa: E402

from medsim.sim import textlink  # noqa: E402
from medsim.sim.patient_rule import RulePatient  # noqa: E402
from medsim.sim.topics import classify  # noqa: E402

PERSONAS = [{}, {"mood": "anxious"}, {"style": "vague_elderly", "literacy": "low"}, {"style": "terse"}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=3000)
    args = parser.parse_args()
    data = yaml.safe_load((REPO / "medsim/sim/topic_examples.yaml").read_text(encoding="utf-8"))
    questions = [q["q"] for q in data["questions"] + data["heldout"] + data["heldout2"] + data["heldout3"]]
    n = args.turns

    import jieba

    jieba.setLogLevel(60)
    jieba.lcut("预热")
    # load the lexicons, compiled patterns and the text layer's segmenter outside the timed
    # region (a one-off ~2 s); the per-clause caches stay cold for the benchmark's cases
    RulePatient(spec(), stemi_case(), seed=0).reply_sync(questions[0])
    textlink.findings("患者无明显诱因出现头痛，伴恶心，无发热。")

    started = time.perf_counter()
    for i in range(n):
        jieba.lcut(questions[i % len(questions)])
    t_jieba = time.perf_counter() - started

    started = time.perf_counter()
    for i in range(n):
        classify(questions[i % len(questions)])
    t_classify = time.perf_counter() - started

    patients = [RulePatient(spec(**p), case, seed=k) for k, (p, case) in
                enumerate((p, c) for p in PERSONAS for c in (stemi_case(), pid_case()))]
    started = time.perf_counter()
    for i in range(n):
        patients[i % len(patients)].reply_sync(questions[i % len(questions)])
    t_patient = time.perf_counter() - started

    print(f"questions: {len(questions)} distinct, {n} turns, {len(patients)} patients")
    print(f"rule patient   {n / t_patient:9.0f} turns/s   ({t_patient / n * 1e6:7.0f} µs per turn)")
    print(f"topics only    {n / t_classify:9.0f} questions/s")
    print(f"bare jieba     {n / t_jieba:9.0f} questions/s   rule patient = {t_jieba / t_patient:.3f}× bare jieba")


if __name__ == "__main__":
    main()
