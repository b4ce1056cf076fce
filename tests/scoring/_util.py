"""Build Case / Scenario / Transcript objects directly and run one scorer."""

from __future__ import annotations

from typing import Any

from medsim.scenario.schema import AnswerSpec, Case, Scenario
from medsim.scoring.base import Score, ScoreInput, get_scorer
from medsim.sim.transcript import Transcript


def scenario(answer: dict[str, Any] | None = None, scoring: list[Any] | None = None, kind: str = "single_turn",
             **kw: Any) -> Scenario:
    return Scenario(
        id="t", name="测试", name_en="test", dimension="clinical_qa", kind=kind, cases=[],
        clinician={"instructions": "测试", "answer": AnswerSpec(**(answer or {}))},
        scoring=scoring or ["choice"], **kw,
    )


def case(**kw: Any) -> Case:
    return Case(id=kw.pop("id", "c1"), **kw)


def transcript(answer: Any = None, *, parse_error: str | None = None, final_text: str | None = None,
               info: dict[str, Any] | None = None, turns: list[tuple[str, str]] | None = None) -> Transcript:
    t = Transcript(scenario_id="t", case_id="c1", answer=answer, parse_error=parse_error,
                   final_text=final_text, info=info or {})
    for speaker, text in turns or []:
        t.add(speaker, text)  # type: ignore[arg-type]
    return t


def run(name: str, c: Case, t: Transcript, config: dict[str, Any] | None = None,
        sc: Scenario | None = None, services: dict[str, Any] | None = None) -> Score:
    inp = ScoreInput(scenario=sc or scenario(), case=c, transcript=t, config=config or {}, services=services or {})
    return get_scorer(name)(inp)
