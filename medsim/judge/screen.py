"""What a scorer is shown of an answer that speaks to its grader, and what is recorded about it.

The text layer finds grader-directed text (``medsim.text.injection``); this module applies the
policy, so resistance never rests on a judge's obedience:

- ``strip`` (default): every scorer, the judge included, scores the answer with those spans
  removed; the item is flagged.
- ``cap``: the judge sees the answer as written, and its value is capped at ``injection_cap``
  (default 0): an answer that tries to talk its grader into a score earns at most that.
- ``flag``: nothing is changed, the item is only flagged (for measuring how far a judge is
  moved, as ``medsim judge calibrate`` does).

The flag lives in the stored transcript (``transcript.info["injection"]``) and in the judge's
score details, so every report can count it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from medsim.text.injection import KIND_ZH, InjectionReport, find_injections

POLICIES = ("strip", "cap", "flag")
DEFAULT_POLICY = "strip"


class PolicyError(ValueError):
    pass


def check_policy(policy: str | None) -> str:
    policy = policy or DEFAULT_POLICY
    if policy not in POLICIES:
        raise PolicyError(f"unknown injection policy {policy!r} (strip | cap | flag)")
    return policy


@dataclass
class Screened:
    original: str
    text: str  # what the scorer is shown
    report: InjectionReport
    policy: str

    @property
    def flagged(self) -> bool:
        return self.report.suspected

    def info(self) -> dict[str, Any]:
        return {**self.report.as_dict(), "policy": self.policy}

    def reason(self) -> str:
        kinds = "、".join(KIND_ZH[k] for k in self.report.kinds)
        action = {"strip": "已移除后评分", "cap": "评分封顶", "flag": "仅标记"}[self.policy]
        return f"回答含对评审的指令（{kinds}）：{action} / answer instructs its grader ({', '.join(self.report.kinds)})"


def screen(text: str | None, policy: str | None = None, *, allowed_keys: frozenset[str] = frozenset()) -> Screened:
    policy = check_policy(policy)
    text = text or ""
    report = find_injections(text, allowed_keys=allowed_keys)
    shown = report.stripped() if report.suspected and policy == "strip" else text
    return Screened(text, shown, report, policy)


def cap(value: float | None, screened: Screened, limit: float = 0.0) -> float | None:
    if value is None or screened.policy != "cap" or not screened.flagged:
        return value
    return min(value, limit)


def _strip_value(value: Any, keys: frozenset[str]) -> Any:
    if isinstance(value, str):
        return find_injections(value, allowed_keys=keys).stripped()
    if isinstance(value, dict):
        return {k: _strip_value(v, keys) for k, v in value.items()}
    if isinstance(value, list):
        return [_strip_value(v, keys) for v in value]
    return value


def screen_transcript(transcript: Any, allowed_keys: frozenset[str] = frozenset()) -> tuple[Any, dict[str, Any] | None]:
    """(a copy of the transcript for the rule scorers, with grader-directed text removed from
    every clinician turn and from the answer; the flag to store) — the transcript itself when
    nothing was found. The stored transcript keeps what the model wrote."""
    reports = {t.index: find_injections(t.text, allowed_keys=allowed_keys)
               for t in transcript.turns if t.speaker == "clinician"}
    final = find_injections(transcript.final_text or "", allowed_keys=allowed_keys)
    flagged = {i: r for i, r in reports.items() if r.suspected}
    if not flagged and not final.suspected:
        return transcript, None
    shown = copy.deepcopy(transcript)
    for turn in shown.turns:
        if turn.index in flagged:
            turn.text = flagged[turn.index].stripped()
    if final.suspected:
        shown.final_text = final.stripped()
        shown.answer = _strip_value(shown.answer, allowed_keys)
    kinds = sorted({k for r in [*flagged.values(), final] for k in r.kinds})
    spans = final.as_dict()["spans"] if final.suspected else []
    for index, report in flagged.items():
        if report.text != (transcript.final_text or ""):
            spans += [{**s, "turn": index} for s in report.as_dict()["spans"]]
    return shown, {"kinds": kinds, "spans": spans, "turns": sorted(flagged)}


def answer_keys(scenario: Any) -> frozenset[str]:
    """JSON keys the scenario's answer format asks for: an answer may use them as it likes."""
    try:
        fields = scenario.final_answer_spec.fields or {}
    except AttributeError:
        return frozenset()
    return frozenset(str(k).lower() for k in fields)
