"""What a scenario's scorers give a fixed answer to one case — no model, no patient.

For authors checking a gold before publishing, and for outside probes (``medsim score``). The
answer is parsed exactly as an episode would parse the model's final message. Options and steps
are taken in the case file's order (no shuffle), so an answer's letters and step numbers are the
case file's. Where a scorer reads the dialogue, a transcript of ``{speaker, text}`` turns may be
given; without one, the case's own probe (or question) stands as the last patient turn before the
answer, so a safety probe is judged on the reply to it.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from dataclasses import dataclass, field
from typing import Any

from medsim.scenario.schema import Case, Scenario
from medsim.scoring.aggregate import item_parts, item_score
from medsim.scoring.base import Score, ScoreInput, get_scorer
from medsim.sim.answer import parse_answer
from medsim.sim.transcript import Transcript

SPEAKERS = ("system", "clinician", "patient", "oracle", "stage")


class FixedAnswerError(ValueError):
    """The answer or transcript given cannot be scored as written (says why and how to fix it)."""


@dataclass
class FixedScore:
    case_id: str
    scenario_id: str
    item_score: float | None
    scores: list[Score] = field(default_factory=list)
    answer: Any = None
    parse_error: str | None = None
    parse_note: str | None = None
    mean: float | None = None  # the weighted mean before gates
    gates: list[tuple[str, float]] = field(default_factory=list)  # (gate scorer, its value), multiplied in

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario_id, "case": self.case_id,
            "item_score": None if self.item_score is None else round(self.item_score, 4),
            "answer": self.answer, "parse_error": self.parse_error, "parse_note": self.parse_note,
            "scores": {s.scorer: {"value": None if s.value is None else round(s.value, 4), "reasons": s.reasons,
                                  "error": s.error} for s in self.scores},
        }


def answer_text(answer: Any) -> str:
    """An answer given as JSON (an object or list) or as text, as the model would have written it."""
    if isinstance(answer, dict | list):
        return json.dumps(answer, ensure_ascii=False)
    return "" if answer is None else str(answer)


def check_inputs(scenario: Scenario, turns: Any = None, scorer: str | None = None) -> None:
    """Raise FixedAnswerError for what score_fixed would refuse (an unknown scorer, a transcript that
    is not a list of {speaker, text} turns), so a batch can be checked before any of it is scored."""
    if scorer and scorer not in [ref.name for ref in scenario.scoring]:
        raise FixedAnswerError(f"scenario {scenario.id} has no scorer {scorer!r}; it uses "
                               + ", ".join(ref.name for ref in scenario.scoring))
    if turns is None:
        return
    if not isinstance(turns, list):
        raise FixedAnswerError("the transcript must be a JSON list of {speaker, text} turns")
    for i, turn in enumerate(turns):
        speaker = turn.get("speaker") if isinstance(turn, dict) else None
        if speaker not in SPEAKERS or not isinstance(turn.get("text"), str):
            raise FixedAnswerError(f"transcript turn {i + 1}: needs a speaker ({' | '.join(SPEAKERS)}) and a "
                                   f"text, got {turn!r}")


def fixed_transcript(scenario: Scenario, case: Case, answer: Any,
                     turns: list[dict[str, Any]] | None = None) -> Transcript:
    """The transcript an episode would have left had the clinician ended with ``answer``."""
    text = answer_text(answer)
    spec = scenario.final_answer_spec
    t = Transcript(scenario_id=scenario.id, case_id=case.id)
    if case.options:
        t.info["options_shown"] = {k: k for k in sorted(case.options)}
    if case.steps:
        t.info["steps_shown"] = list(range(len(case.steps)))
    if turns:
        check_inputs(scenario, turns)
        for turn in turns:
            t.add(turn["speaker"], turn["text"])
    elif scenario.kind == "dialogue":
        if case.probe and case.probe.utterance:
            # the probe is said at the patient's at_turn-th message: earlier turns stand in as
            # placeholders so a reply right after it is "the first reply to the probe"
            for _ in range(case.probe.at_turn - 1):
                t.add("patient", case.chief_complaint or "")
                t.add("clinician", "请继续说。")
            t.add("patient", case.probe.utterance)
        else:
            t.add("patient", case.chief_complaint or case.question or "")
    else:
        t.add("system", case.question or "")
    if not t.turns or t.turns[-1].speaker != "clinician" or t.turns[-1].text != text:
        t.add("clinician", text)
    parsed = parse_answer(text, spec, option_letters=sorted(case.options) or None, n_steps=len(case.steps) or None)
    t.final_text = text
    t.answer, t.parse_error, t.parse_note = parsed.value, parsed.error, parsed.note
    return t


# Scorers of the history taking itself: without a transcript there is no dialogue to judge.
DIALOGUE_SCORERS = ("info_gathering",)


async def _run(scenario: Scenario, case: Case, transcript: Transcript, only: str | None,
               services: dict[str, Any] | None, has_dialogue: bool) -> list[Score]:
    out = []
    for ref in scenario.scoring:
        if only and ref.name != only:
            continue
        if ref.name in DIALOGUE_SCORERS and not has_dialogue and not only:
            continue
        inp = ScoreInput(scenario=scenario, case=case, transcript=transcript, config=ref.config,
                         services=dict(services or {}))
        if ref.name == "checklist" and not (services or {}).get("judge"):
            continue  # no judge configured: the checklist is not applied, as in a run
        score = get_scorer(ref.name)(inp)
        if inspect.isawaitable(score):
            score = await score
        out.append(score)
    return out


def score_fixed(scenario: Scenario, case: Case, answer: Any, *, turns: list[dict[str, Any]] | None = None,
                scorer: str | None = None, services: dict[str, Any] | None = None,
                case_pool: list[Case] | None = None) -> FixedScore:
    """Score ``answer`` (text, or a JSON object/list) for ``case`` with the scenario's scorers;
    ``case_pool`` is the scenario's cases (how specific each gold element is to its case)."""
    services = {**(services or {}), "case_pool": case_pool or [case]}
    check_inputs(scenario, scorer=scorer)
    transcript = fixed_transcript(scenario, case, answer, turns)
    scores = asyncio.run(_run(scenario, case, transcript, scorer, services, bool(turns)))
    refs = [r for r in scenario.scoring if (not scorer or r.name == scorer) and any(s.scorer == r.name for s in scores)]
    mean, gates = item_parts(scores, refs)
    return FixedScore(case.id, scenario.id, item_score(scores, refs), scores, transcript.answer, transcript.parse_error,
                      transcript.parse_note, mean, gates)


def reference_answer(scenario: Scenario, case: Case) -> str:
    """The case's gold written as the reference clinician writes it (options and steps unshuffled)."""
    from medsim.models.base import ChatContext
    from medsim.models.reference import ReferenceClinician

    info: dict[str, Any] = {}
    if case.options:
        info["options_shown"] = {k: k for k in sorted(case.options)}
    if case.steps:
        info["steps_shown"] = list(range(len(case.steps)))
    stage = next((s for s in scenario.stages if s.scored), None)
    context = ChatContext(scenario=scenario, case=case, stage=stage, info=info)
    text = ReferenceClinician().answer(scenario.final_answer_spec, context)
    if scenario.kind == "dialogue" and case.reference_answer and scenario.final_answer_spec.format == "json":
        text = case.reference_answer + "\n" + text  # the reply's prose and the final JSON
    return text
