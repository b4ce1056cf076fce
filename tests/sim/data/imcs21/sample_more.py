"""Draw more doctor requests from the same shuffled IMCS-21 pool as samples A/B/C (seed 20261201).
pool[0:300]=A, [300:450]=B, [450:700]=C. New: T1,T2,T3 = [700:1000],[1000:1300],[1300:1600] (training
labels for a learned topic classifier), D = [1600:1850] (kept untouched for one honest figure).
Run on 2026-12-01; the pool is the one bench/eval_patient_questions.py rebuilds (``pool()``).
A later stop drew E = [1850:2150] the same way (sample_e.tsv), for two annotators labelling the
same requests independently (labels_e1.yaml, labels_e2.yaml), and the stop after it F = [2150:2450]
(sample_f.tsv) for one more independent annotator (labels_f1.yaml), held out, and the stop after
that G = [2450:2750] (sample_g.tsv, labels_g1.yaml), held out the same way; stop 23 drew
H = [2750:3050] (sample_h.tsv, labels_h1.yaml) once G had been run twice, and stop 24
I = [3050:3350] (sample_i.tsv, labels_i1.yaml; the annotator's copy had no act column) once H had been run three times.

    python tests/sim/data/imcs21/sample_more.py OUT_DIR
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
from eval_patient_questions import pool  # noqa: E402

rows = pool()
out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
for name, part in (("sample_t1.tsv", rows[700:1000]), ("sample_t2.tsv", rows[1000:1300]),
                   ("sample_t3.tsv", rows[1300:1600]), ("sample_d.tsv", rows[1600:1850]),
                   ("sample_e.tsv", rows[1850:2150]), ("sample_f.tsv", rows[2150:2450]),
                   ("sample_g.tsv", rows[2450:2750]), ("sample_h.tsv", rows[2750:3050]), ("sample_i.tsv", rows[3050:3350])):
    with open(out / name, "w", encoding="utf-8") as f:
        for i, (q, act) in enumerate(part):
            f.write(f"{i}\t{act}\t{q}\n")
