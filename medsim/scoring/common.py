"""Small helpers every scorer shares: reading the answer and the gold, the unparsed-answer rule."""

from __future__ import annotations

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

    @property
    def gold(self) -> object:
        """What match_term takes: the alternatives, with their exclusions when there are any."""
        return {"any": self.text, "not": list(self.excluded)} if self.excluded else self.text


def elements(gold: Any) -> list[Element]:
    """A gold list as elements: each a string ``A|B`` or ``{any: A|B or [A, B], optional: true,
    not: [qualifiers that make an item wrong]}``."""
    if gold is None:
        return []
    if not isinstance(gold, list):
        gold = [gold]
    out = []
    for g in gold:
        if isinstance(g, dict):
            alts = g.get("any", "")
            text = "|".join(alts) if isinstance(alts, list) else str(alts)
            out.append(Element(text, bool(g.get("optional", False)), tuple(g.get("not") or ())))
        elif str(g).strip():
            out.append(Element(str(g)))
    return out
