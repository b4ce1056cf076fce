# Kept as run on 2026-12-01 (from /work/handoff); labels_t1..t3 are training labels, labels_d the held-out sample.
"""Draw more doctor requests from the same shuffled IMCS-21 pool as samples A/B/C (seed 20261201).
pool[0:300]=A, [300:450]=B, [450:700]=C. New: T1,T2,T3 = [700:1000],[1000:1300],[1300:1600] (training
labels for a learned topic classifier), D = [1600:1850] (kept untouched for one honest figure)."""
import random
import sys

classes = open("/work/shared/data/ext/imcs21/dac_class.txt", encoding="utf-8").read().split()
seen, pool = set(), []
for line in open("/work/shared/data/ext/imcs21/dac_test.txt", encoding="utf-8"):
    line = line.rstrip("\n")
    if "\t" not in line:
        continue
    text, label = line.rsplit("\t", 1)
    act = classes[int(label)]
    if not text.startswith("医生：") or not act.startswith("Request-"):
        continue
    q = text[len("医生："):].strip()
    if q and q not in seen:
        seen.add(q)
        pool.append((q, act))
rng = random.Random(20261201)
rng.shuffle(pool)
print(len(pool), file=sys.stderr)
for name, part in (("sample_t1.tsv", pool[700:1000]), ("sample_t2.tsv", pool[1000:1300]),
                   ("sample_t3.tsv", pool[1300:1600]), ("sample_d.tsv", pool[1600:1850])):
    with open(name, "w", encoding="utf-8") as f:  # written beside this script
        for i, (q, act) in enumerate(part):
            f.write(f"{i}\t{act}\t{q}\n")
