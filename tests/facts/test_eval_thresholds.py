"""Regression guard: the checker's measured quality on the CMB-Clin evaluation sets.

Thresholds sit a little under what ``bench/eval_facts.py`` measures, so a change that loses
recall or raises false alarms fails here. The records are read from ../shared (CMB-Clin,
Apache-2.0); without them the test is skipped.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT.parent / "shared" / "data" / "cmb-clin_CMB-test-qa.json"
DATA = ROOT / "tests" / "facts" / "data"

pytestmark = pytest.mark.skipif(not CASES.exists(), reason="CMB-Clin records not at ../shared/data")


def _eval_module():
    spec = importlib.util.spec_from_file_location("eval_facts", ROOT / "bench" / "eval_facts.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def evaluate():
    mod = _eval_module()
    cases = mod.load_cases(CASES)

    def run(name: str) -> dict:
        return mod.evaluate(mod.load_items(DATA / name), cases)

    return run


# (file, minimum F1 on every error type with at least 5 items, maximum false-alarm rate)
SETS = [
    ("facts_eval.jsonl", 0.95, 0.01),
    ("facts_eval_hand.jsonl", 0.90, 0.03),
    ("facts_eval_heldout.jsonl", 0.85, 0.05),
    # multi-sentence summaries: one lexicon gap flags a whole faithful summary (2 of 15 today)
    ("facts_eval_heldout_summaries.jsonl", 0.85, 0.15),
    # physician-style 150-300-character summaries on 24 further cases: 1 of 26 faithful flagged
    # (F1 0.984 overall, 1.0 on every type with 5+ items, measured after the fixes it prompted)
    ("facts_eval_heldout_summaries2.jsonl", 0.90, 0.05),
    # issue 13.4 categories (bundled inp-N cases too): the development set (tuned on; size F1 0.897 is
    # its weakest type) and the held-out split measured once after the changes (F1 0.947 on its
    # weakest, invented_drug); false alarms 0 on both
    ("facts_eval_categories.jsonl", 0.85, 0.02),
    ("facts_eval_categories_heldout.jsonl", 0.85, 0.03),
]


@pytest.mark.parametrize(("name", "min_f1", "max_false_alarms"), SETS)
def test_quality(evaluate, name, min_f1, max_false_alarms):
    res = evaluate(name)
    low = {label: round(row["f1"], 3) for label, row in res["per_label"].items()
           if "f1" in row and row["n"] >= 5 and row["f1"] < min_f1}
    assert not low, f"F1 below {min_f1}: {low}"
    assert res["overall"]["false_alarm_rate"] <= max_false_alarms
    assert res["overall"]["f1"] >= min_f1


def test_set_size():
    n = 0
    for name, *_ in SETS:
        rows = [json.loads(x) for x in (DATA / name).read_text(encoding="utf-8").splitlines() if x.strip()]
        n += sum(1 for r in rows if "_header" not in r)
    assert n >= 400
