"""Agreement between judge verdicts and physicians' labels: the statistics LLMEval-Med and
MLB report (accuracy, precision, recall, F1, Cohen's κ, the confusion matrix).

Labels come as CSV with columns ``scenario, case_id, label`` (optional ``repeat``, and
``criterion`` for per-criterion labels, numbered from 1). A label is usable / not usable:
1, 0, yes, no, true, false, 可用, 不可用, 满足, 不满足.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medsim.store.db import Store

TRUE = {"1", "yes", "y", "true", "usable", "可用", "满足", "是"}
FALSE = {"0", "no", "n", "false", "not usable", "unusable", "不可用", "不满足", "否"}


class LabelsError(Exception):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


@dataclass
class Agreement:
    n: int
    tp: int
    fp: int
    fn: int
    tn: int
    unmatched_labels: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.n if self.n else 0.0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def kappa(self) -> float:
        """Cohen's κ: agreement beyond what the two raters' base rates give by chance."""
        if not self.n:
            return 0.0
        observed = self.accuracy
        judge_yes = (self.tp + self.fp) / self.n
        human_yes = (self.tp + self.fn) / self.n
        expected = judge_yes * human_yes + (1 - judge_yes) * (1 - human_yes)
        return (observed - expected) / (1 - expected) if expected < 1 else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {"n": self.n, "accuracy": self.accuracy, "precision": self.precision, "recall": self.recall,
                "f1": self.f1, "kappa": self.kappa,
                "confusion": {"judge_yes_human_yes": self.tp, "judge_yes_human_no": self.fp,
                              "judge_no_human_yes": self.fn, "judge_no_human_no": self.tn},
                "unmatched_labels": self.unmatched_labels}


def agreement(pairs: list[tuple[bool, bool]], unmatched: list[str] | None = None) -> Agreement:
    """(judge verdict, human label) pairs → the statistics."""
    tp = sum(j and h for j, h in pairs)
    fp = sum(j and not h for j, h in pairs)
    fn = sum(h and not j for j, h in pairs)
    tn = sum(not j and not h for j, h in pairs)
    return Agreement(len(pairs), tp, fp, fn, tn, unmatched or [])


def _label(value: str, where: str) -> bool:
    text = value.strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise LabelsError(f"{where}: label {value!r} is neither usable nor not usable",
                      hint="use 1/0, yes/no, true/false, 可用/不可用 or 满足/不满足")


def read_labels(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise LabelsError(f"labels file not found: {path}") from None
    rows = list(csv.DictReader(text.splitlines()))
    if not rows:
        raise LabelsError(f"{path}: no labels", hint="a CSV with a header: scenario,case_id,label")
    missing = {"scenario", "case_id", "label"} - set(rows[0])
    if missing:
        raise LabelsError(f"{path}: missing column(s) {', '.join(sorted(missing))}",
                          hint="columns: scenario,case_id,label[,repeat][,criterion]")
    out = []
    for number, row in enumerate(rows, 2):
        where = f"{path}:{number}"
        out.append({"scenario": row["scenario"].strip(), "case_id": row["case_id"].strip(),
                    "repeat": int(row.get("repeat") or 0), "criterion": int(row["criterion"]) if row.get("criterion")
                    else None, "label": _label(row["label"], where)})
    return out


def judge_verdicts(store: Store, run_id: str) -> dict[tuple, bool]:
    """(scenario, case, repeat[, criterion]) → the judge's verdict, from the stored checklist scores."""
    verdicts: dict[tuple, bool] = {}
    for row in store.scores(run_id):
        if row["scorer"] != "checklist" or row["value"] is None:
            continue
        key = (row["scenario_id"], row["case_id"], row["repeat"])
        details = row["details"]
        if "usable" in details:
            verdicts[key] = bool(details["usable"])
        for index, item in enumerate(details.get("criteria", []), 1):
            verdicts[(*key, index)] = bool(item["met"])
    return verdicts


def agree(store: Store, run_id: str, labels_path: Path) -> Agreement:
    verdicts = judge_verdicts(store, run_id)
    if not verdicts:
        raise LabelsError(f"run {run_id} has no judge verdicts",
                          hint="run it with --judge MODEL on scenarios that use the checklist scorer")
    pairs, unmatched = [], []
    for label in read_labels(labels_path):
        key: tuple = (label["scenario"], label["case_id"], label["repeat"])
        if label["criterion"] is not None:
            key = (*key, label["criterion"])
        if key in verdicts:
            pairs.append((verdicts[key], label["label"]))
        else:
            unmatched.append(":".join(map(str, key)))
    if not pairs:
        raise LabelsError("no label matches a judged item of this run",
                          hint="check the scenario and case_id columns against `medsim show-run RUN`")
    return agreement(pairs, unmatched)
