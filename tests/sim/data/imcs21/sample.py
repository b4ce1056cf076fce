# ruff: noqa  (the annotator's sampler, kept verbatim below this header)
# Source: IMCS-21 dialogue-act data, task DAC, file dac_test.txt (csmust/imcs21, a fork of
# lemuria-wchen/imcs21). Citation: Chen W. et al., "A benchmark for automatic medical consultation
# system: frameworks, tasks and datasets", Bioinformatics 39(1), btac817 (2022). The repository has
# no licence file and the authors ask to be cited: the questions stay in tests, never in the package.
# The sampler as the annotator ran it (from /work/shared/data/ext/imcs21): A = 300 for measuring once, then
# tuning; B = 150 kept untouched for one honest figure at the end.
"""Draw doctor requests (Request-* acts) at random from IMCS-21 dac_test.txt for topic labelling.
Sample A (300): measured once, then tuned on. Sample B (150): kept untouched for a later honest figure."""
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
for name, part in (("sample_a.tsv", pool[:300]), ("sample_b.tsv", pool[300:450])):
    with open(name, "w", encoding="utf-8") as f:
        for i, (q, act) in enumerate(part):
            f.write(f"{i}\t{act}\t{q}\n")

# Samples T1, T2, T3 (pool[700:1600], training labels of the learned topic model) and D
# (pool[1600:1850], held out) were drawn later from this same pool by sample_more.py.
