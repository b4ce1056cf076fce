"""Small helpers every scorer shares: reading the answer and the gold, the unparsed-answer rule."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from medsim.scoring.base import Score, ScoreInput


def unparsed(name: str, inp: ScoreInput) -> Score | None:
    """A parse failure is the model's fault: 0.0 with the reason. None when there is an answer."""
    t = inp.transcript
    if t.answer is None or (isinstance(t.answer, str | list | dict) and not t.answer):
        why = t.parse_error or "no final answer"
        return Score(name, 0.0, [f"answer not parsed: {why}"], {"parse_error": why})
    return None


def no_gold(name: str, what: str) -> Score:
    """A case without the gold a scorer needs is an authoring error: not scored, not zero."""
    return Score(name, None, [f"case has no {what}"], error=f"case has no {what}")


def gold_value(inp: ScoreInput, key: str) -> Any:
    value = inp.case.gold.get(key)
    return None if value in (None, "", []) else value


def answer_field(inp: ScoreInput, field: str | None) -> Any:
    """The answer's ``field`` when the answer is a dict, else the whole answer."""
    ans = inp.transcript.answer
    if isinstance(ans, dict):
        return ans.get(field) if field else ans
    return ans


def answer_text(inp: ScoreInput, field: str | None = None) -> str:
    """The answer as text: a field of a json answer, all its values, or the text itself."""
    ans = inp.transcript.answer
    if isinstance(ans, dict):
        if field and ans.get(field) not in (None, ""):
            ans = ans[field]
        else:
            ans = "\n".join(str(v) for v in ans.values() if v not in (None, ""))
    if isinstance(ans, list):
        return "、".join(str(a) for a in ans)
    if ans is None:
        return inp.transcript.final_text or ""
    return str(ans)


@dataclass
class Element:
    """One gold element: its ``|`` alternatives, and whether it is optional (credit when present,
    no loss when absent — a guideline-weak or secondary point)."""

    text: str  # alternatives joined by |
    optional: bool = False
    excluded: tuple[str, ...] = ()  # qualifiers an answer item must not name (not: [左侧, Stanford A型])
    decisive: bool = False  # the element the work-up or plan turns on: leaving it out is a wrong answer

    @property
    def gold(self) -> object:
        """What match_term takes: the alternatives, with their exclusions when there are any."""
        return {"any": self.text, "not": list(self.excluded)} if self.excluded else self.text


def elements(gold: Any) -> list[Element]:
    """A gold list as elements: each a string ``A|B`` or ``{any: A|B or [A, B], optional: true,
    not: [qualifiers that make an item wrong]}`` or ``{any: …, decisive: true}``."""
    if gold is None:
        return []
    if not isinstance(gold, list):
        gold = [gold]
    out = []
    for g in gold:
        if isinstance(g, dict):
            alts = g.get("any", "")
            text = "|".join(alts) if isinstance(alts, list) else str(alts)
            out.append(Element(text, bool(g.get("optional", False)), tuple(g.get("not") or ()),
                               bool(g.get("decisive", False))))
        elif str(g).strip():
            out.append(Element(str(g)))
    return out


def specificity_weights(inp: ScoreInput, field: str, els: list[Element]) -> list[float]:
    """How specific each gold element is to its case, from the scenario's case pool: an element
    that half the cases share (复查, 血常规) weighs about a quarter of one only this case has, so a
    constant answer made of the commonest elements earns little while a correct answer still earns
    everything. w = ln((N + 1) / (df + 0.5)), df = cases whose gold shares an alternative. All 1
    without a pool."""
    pool = inp.services.get("case_pool") or []
    if len(pool) < 5:
        return [1.0] * len(els)
    index = _alternative_index(id(pool), field, pool)
    n = len(pool)
    out = []
    for e in els:
        cases: set[int] = set()
        for alt in _alts(e.text):
            cases |= index.get(alt, set())
        out.append(math.log((n + 1) / (max(1, len(cases)) + 0.5)))
    return out


def unique_alternatives(inp: ScoreInput, field: str, els: list[Element], max_cases: int = 2) -> list[str]:
    """The alternatives of ``els`` (as written) that at most ``max_cases`` cases of the pool hold
    in their gold or write in their reference answer: 避免提重物 for a hernia, 胆道造影 after
    bile-duct surgery — not 复查, 休息 or 多饮水, which one gold may list but most references say."""
    pool = inp.services.get("case_pool") or []
    if len(pool) < 5:
        return []
    index = _alternative_index(id(pool), field, pool)
    refs = _reference_texts(id(pool), pool)
    out = []
    for e in els:
        for raw in e.text.split("|"):
            alt = _alts(raw)
            if not alt:
                continue
            cases = set(index.get(alt[0], ())) | {i for i, ref in enumerate(refs) if alt[0] in ref}
            if len(cases) <= max_cases:
                out.append(raw)
    return out


_REFS: dict[int, list[str]] = {}


def _reference_texts(key: int, pool: list) -> list[str]:
    from medsim.text.match import normalize, rewrite_equivalents

    if key not in _REFS:
        if len(_REFS) > 16:
            _REFS.clear()
        _REFS[key] = [rewrite_equivalents(normalize(str(c.reference_answer or ""))) for c in pool]
    return _REFS[key]


def _alts(text: str) -> list[str]:
    from medsim.text.match import normalize, rewrite_equivalents

    return [a for a in (rewrite_equivalents(normalize(x)) for x in text.split("|")) if a]


_INDEX: dict[tuple[int, str], dict[str, set[int]]] = {}


def _alternative_index(key: int, field: str, pool: list) -> dict[str, set[int]]:
    if (key, field) not in _INDEX:
        index: dict[str, set[int]] = {}
        for i, case in enumerate(pool):
            gold = case.probe.expected if field == "probe.expected" and case.probe else case.gold.get(field)
            for e in elements(gold if isinstance(gold, list) else ([gold] if gold else [])):
                for alt in _alts(e.text):
                    index.setdefault(alt, set()).add(i)
        if len(_INDEX) > 64:
            _INDEX.clear()
        _INDEX[(key, field)] = index
    return _INDEX[(key, field)]


_CASE_TERMS: dict[int, tuple[int, dict[str, int]]] = {}  # pool → (its size, how many cases name each term)

CASE_GOLD_FIELDS = ("diagnosis", "primary_diagnosis", "treatment", "key_points")


def case_specific_concepts(inp: ScoreInput, max_cases: int = 3) -> set[str]:
    """Diseases, drugs, procedures and tests of this case's gold (its diagnosis, treatment, key
    points) that at most ``max_cases`` cases of the scenario's pool share: what an answer written
    for this patient names (胆总管结石, T管引流, ERCP) and a fixed paragraph written for anyone
    does not. Empty without a pool of 5 or more."""
    from medsim.text.match import case_terms_in

    pool = inp.services.get("case_pool") or []
    if len(pool) < 5:
        return set()
    key = id(pool)
    if key not in _CASE_TERMS or _CASE_TERMS[key][0] != len(pool):
        df: dict[str, int] = {}
        for c in pool:
            for term in set(case_terms_in(_gold_words(c))):
                df[term] = df.get(term, 0) + 1
        if len(_CASE_TERMS) > 16:
            _CASE_TERMS.clear()
        _CASE_TERMS[key] = (len(pool), df)
    df = _CASE_TERMS[key][1]
    return {c for c in case_terms_in(_gold_words(inp.case)) if df.get(c, 0) <= max_cases}


def _gold_words(case: Any) -> str:
    parts: list[str] = []
    for f in CASE_GOLD_FIELDS:
        parts += [e.text.replace("|", "，") for e in elements(case.gold.get(f))]
    return "，".join(parts)


def case_sources(inp: ScoreInput) -> list[str]:
    """What the case showed the clinician: the question, the record, the patient's and the
    oracle's turns (not the clinician's own earlier answers, which later stages carry)."""
    probe = inp.case.probe
    return [probe.utterance if probe and probe.utterance else "", inp.case.question or "",
            inp.case.full_record_text(), *(t.text for t in inp.transcript.turns if t.speaker in ("patient", "oracle"))]
