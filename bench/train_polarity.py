"""Train the dialogue polarity model (medsim/text/polarity_weights.json.gz) on CMDD's train split.

    python bench/train_polarity.py [--data ../shared/data/ext] [--half all|even|odd] [--out PATH]

CMDD (Lin et al., EMNLP 2019; ChineseBLUE, Apache-2.0): every symptom span of every utterance,
its status (1 present, 2 absent, 3 uncertain) the target, the rules' reading of it in its
dialogue (medsim.text.dialogue.rule_dialogue) among the features. Only the train split is read;
``--half even`` trains on every other dialogue so the rest can measure it
(``eval_external.py --split train --half odd`` with ``MEDSIM_POLARITY_WEIGHTS`` pointing at --out).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    import eval_external as ev

    from medsim.text import linear_model
    from medsim.text.dialogue import finding_features, patient_says, rule_dialogue
    from medsim.text.polarity_model import OFFSETS, WEIGHTS, train

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(ev.DEFAULT_DATA))
    ap.add_argument("--half", choices=("all", "even", "odd"), default="all")
    ap.add_argument("--out", default=str(WEIGHTS))
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=0.1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    dialogues = ev.load_cmdd(Path(args.data) / "cmdd" / "train", [])
    if args.half != "all":
        dialogues = dialogues[(0 if args.half == "even" else 1) :: 2]
    samples = []
    for d in dialogues:
        turns = [(t["speaker"], t["text"], [(s, e) for s, e, _ in t["gold"]]) for t in d]
        found_all = rule_dialogue(turns)
        said = patient_says(turns, found_all)
        for k, found in enumerate(found_all):
            for f, (_, _, gold) in zip(found, d[k]["gold"], strict=True):
                if d[k]["speaker"] in ("patient", "doctor"):
                    samples.append((finding_features(turns, k, f, said), gold))
    weights = train(samples, epochs=args.epochs, lr=args.lr, average=True)
    meta = {"source": "CMDD train split (Lin et al., EMNLP 2019; ChineseBLUE, Apache-2.0)",
            "half": args.half, "samples": len(samples), "labels": ["present", "absent", "uncertain"],
            "offsets": {k: list(v) for k, v in OFFSETS.items()},
            "epochs": args.epochs, "lr": args.lr, "average": True}
    linear_model.save(args.out, weights, meta)
    print(f"{len(samples)} findings, {len(weights)} features -> {args.out} ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
