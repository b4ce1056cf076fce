"""How often the LLM-patient guard flags the rule patient — a patient that only says the record.

The rule patient speaks from the record clause by clause in lay words, so every flag on it is
either a false alarm of the guard or a real slip of the rule patient (record voice, a
parenthesis read aloud). ``medsim patient calibrate``'s six default cases were looked at while
writing the guard ("tune"); the other triage and consultation cases were measured once before
the guard was tuned on them too ("held": first 52/930 = 0.056 flagged); the inpatient cases
(the staged scenarios' shared pool, asked with the default patient settings) were left untouched
for a later honest figure ("untouched").

    python bench/eval_patient_guard.py            # flag rates by kind, tune and held cases
    python bench/eval_patient_guard.py --show     # and every flagged reply
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    from medsim.scenario.registry import get_scenario
    from medsim.sim.patient_calibration import CASES, calibrate_patient

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args(argv)
    tune = set(CASES)
    groups: dict[str, list] = {"tune": [], "held": [], "untouched": []}
    for sid in ("triage", "consultation"):
        loaded = get_scenario(sid)
        for case in loaded.cases:
            groups["tune" if (sid, case.id) in tune else "held"].append((loaded.scenario, case))
    inpatient = get_scenario("test_ordering")  # the first stage: the patient's history, nothing revealed
    groups["untouched"] = [(inpatient.scenario, case) for case in inpatient.cases]
    for name, cases in groups.items():
        result = asyncio.run(calibrate_patient("rule", cases))
        kinds = Counter(f["kind"] if f["kind"] != "role_break" else f"role_break:{f.get('role')}"
                        for r in result.replies for f in r.kept_flags)
        flagged = sum(bool(r.kept_flags) for r in result.replies)
        print(f"{name}: {len(cases)} cases, {len(result.replies)} replies, {flagged} flagged "
              f"({flagged / max(1, len(result.replies)):.3f}); by kind: {dict(kinds)}")
        if args.show:
            for r in result.replies:
                for f in r.kept_flags:
                    print(f"   {r.case} {r.question} | {r.text} | {f['kind']}: {f.get('reason', '')[:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
