"""The value each scorer setting takes, so `medsim validate` can say `over_credit: "high"` is wrong
before a run fails on it (or, worse, quietly coerces it). Settings not listed here are free-form.

Kinds: "fraction" a number in [0, 1]; "percent" a number in [0, 100] (fuzzy-match ratios); "number" any number ≥ 0; "count" a whole number ≥ 0;
"text" a string; "flag" true/false; "names" a list of strings.
"""

from __future__ import annotations

from typing import Any

SETTING_KINDS: dict[str, str] = {
    # credits, penalties and thresholds that scale a score
    "over_credit": "fraction", "under_credit": "fraction", "wrong": "fraction", "threshold": "percent",
    "critical_penalty": "fraction", "exact_weight": "fraction", "per_error": "fraction",
    "per_contradiction": "fraction", "repeat_penalty": "fraction", "max_repeat_penalty": "fraction",
    "injection_cap": "fraction",
    "beta": "number", "core_weight": "number", "temperature": "number",
    "max_chars": "count", "max_listed": "count", "max_questions_per_turn": "count", "parse_retries": "count",
    "runs": "count", "seed": "count",
    "field": "text", "answer_field": "text", "fallback": "text", "variant": "text", "protocol": "text",
    "prompt": "text", "combine": "text", "rubric": "text",
    "partial": "flag", "prescribing": "flag", "medications": "flag",
    "fields": "names", "critical": "names",
}

# settings that were removed: validate names them unknown and says why
REMOVED_SETTINGS: dict[str, str] = {
    "under_triage_weight": ("under_triage_weight had no effect and was removed (under-triage already earns "
                            "nothing; tune under_credit / over_credit instead); delete the setting"),
}

_EXAMPLES = {"fraction": "a number from 0 to 1, e.g. 0.3",
             "percent": "a fuzzy-match ratio from 0 to 100, e.g. 85", "number": "a number ≥ 0, e.g. 2",
             "count": "a whole number ≥ 0, e.g. 3", "text": "text, e.g. level", "flag": "true or false",
             "names": "a list of names, e.g. [diagnosis, tests]"}


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _fits(kind: str, value: Any) -> bool:
    if kind == "fraction":
        return _is_number(value) and 0 <= value <= 1
    if kind == "percent":
        return _is_number(value) and 0 <= value <= 100
    if kind == "number":
        return _is_number(value) and value >= 0
    if kind == "count":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind == "text":
        return isinstance(value, str) and bool(value.strip())
    if kind == "flag":
        return isinstance(value, bool)
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def setting_problem(name: str, value: Any) -> str | None:
    """Why ``value`` does not fit setting ``name`` and what it should be, or None when it fits."""
    kind = SETTING_KINDS.get(name)
    if kind is None or _fits(kind, value):
        return None
    return f"{name} must be {_EXAMPLES[kind]} (got {value!r})"
