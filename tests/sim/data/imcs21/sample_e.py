"""Draw sample E from the same shuffled IMCS-21 pool as samples A-D (seed 20261201).
pool[0:300]=A, [300:450]=B, [450:700]=C, [700:1600]=T1-T3, [1600:1850]=D. New: E = [1850:2150],
labelled by two independent annotators (E1, E2) on the same items: held out, measured once, and the
two label sets give the annotators' own agreement."""
import random, sys
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
        seen.add(q); pool.append((q, act))
rng = random.Random(20261201)
rng.shuffle(pool)
print(len(pool), file=sys.stderr)
with open("sample_e.tsv", "w", encoding="utf-8") as f:
    for i, (q, act) in enumerate(pool[1850:2150]):
        f.write(f"{i}\t{act}\t{q}\n")
