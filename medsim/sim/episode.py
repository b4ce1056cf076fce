"""The episode loop: (scenario, case, clinician, patient) -> transcript.

One loop serves ``medsim run`` and ``medsim play``. It knows nothing of scoring or storage:
it returns the transcript and the model calls it made. A model call that fails after its
retries ends the episode with ``transcript.error`` set; the caller records it as an error,
never as a zero.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from medsim.models.base import ChatContext, ChatModel, ChatResult, Message, ModelCallError
from medsim.scenario.schema import AnswerSpec, Case, Scenario
from medsim.sim.answer import ParsedAnswer, parse_answer, shown_options
from medsim.sim.info import count_questions
from medsim.sim.oracle import Oracle, usage_hint
from medsim.sim.prompts import (
    answer_reminder,
    display_layout,
    item_seed,
    render,
    stage_message,
)
from medsim.sim.transcript import Transcript, Turn


class QuitEpisode(Exception):
    """The human at the keyboard left the session (``/quit``)."""


@dataclass
class EpisodeSettings:
    seed: int = 0
    repeat: int = 0
    patient: str = "rule"  # "rule" | "llm:MODEL"
    temperature: float | None = None
    max_tokens: int | None = None


@dataclass
class EpisodeResult:
    transcript: Transcript
    calls: list[dict[str, Any]] = field(default_factory=list)
    patient_name: str | None = None


@dataclass
class Hooks:
    """Callbacks for an interactive view; all optional."""

    on_turn: Callable[[Turn], None] | None = None
    on_token: Callable[[str], None] | None = None
    on_call_start: Callable[[str], None] | None = None  # role about to be called
    on_budget: Callable[[int, int], None] | None = None  # questions left, question budget (dialogue)


def call_record(role: str, result: ChatResult | None, model: str, error: str | None = None,
                attempts: int = 1) -> dict[str, Any]:
    if result is None:
        return {"role": role, "model": model, "error": error, "attempts": attempts}
    return {
        "role": role, "model": result.model or model, "prompt_tokens": result.usage.prompt_tokens,
        "completion_tokens": result.usage.completion_tokens, "estimated": result.usage.estimated,
        "latency_s": result.latency_s, "cost": result.cost, "cached": result.cached, "attempts": result.attempts,
    }


class _Episode:
    def __init__(self, scenario: Scenario, case: Case, clinician: ChatModel, settings: EpisodeSettings,
                 hooks: Hooks, model_resolver: Callable[[str], ChatModel] | None):
        self.scenario = scenario
        self.case = case
        self.clinician = clinician
        self.settings = settings
        self.hooks = hooks
        self.model_resolver = model_resolver
        self.seed = item_seed(settings.seed, case.id, settings.repeat)
        self.layout = display_layout(scenario, case, self.seed)
        self.transcript = Transcript(scenario_id=scenario.id, case_id=case.id, info=dict(self.layout))
        self.calls: list[dict[str, Any]] = []
        self.started = time.monotonic()
        self.clinician_turns = 0
        self.patient: Any = None

    # --------------------------------------------------------------- helpers
    def add(self, speaker: str, text: str, **meta: Any) -> Turn:
        turn = self.transcript.add(speaker, text, **meta)  # type: ignore[arg-type]
        if self.hooks.on_turn:
            self.hooks.on_turn(turn)
        return turn

    async def ask_clinician(self, messages: list[Message], stage: Any = None) -> str:
        self.clinician_turns += 1
        context = ChatContext(scenario=self.scenario, case=self.case, stage=stage, info=self.layout,
                              turn=self.clinician_turns)
        if self.hooks.on_call_start:
            self.hooks.on_call_start("clinician")
        try:
            result = await self.clinician.chat(
                messages, temperature=self.settings.temperature, max_tokens=self.settings.max_tokens,
                # Each repeat its own seed: the same seed would make a repeat a cache hit.
                seed=self.settings.seed + self.settings.repeat, json_mode=False, on_token=self.hooks.on_token,
                context=context)
        except ModelCallError as exc:
            self.calls.append(call_record("clinician", None, self.clinician.name, exc.reason, exc.attempts))
            raise
        self.calls.append(call_record("clinician", result, self.clinician.name))
        self.add("clinician", result.content, tokens=result.usage.completion_tokens,
                 latency_s=round(result.latency_s, 3), cached=result.cached)
        return result.content

    def parse(self, text: str, spec: AnswerSpec) -> ParsedAnswer:
        return parse_answer(text, spec, option_letters=sorted(self.case.options) or None,
                            n_steps=len(self.case.steps) or None,
                            options=shown_options(self.case.options, self.layout) if self.case.options else None)

    def keep_answer(self, text: str, parsed: ParsedAnswer) -> None:
        t = self.transcript
        t.final_text, t.answer, t.parse_error, t.parse_note = text, parsed.value, parsed.error, parsed.note

    def finish(self, text: str, spec: AnswerSpec) -> None:
        self.keep_answer(text, self.parse(text, spec))

    def time_left(self) -> bool:
        limit = self.scenario.clinician.time_limit_s
        return limit is None or time.monotonic() - self.started < limit

    # ------------------------------------------------------------------ kinds
    async def single_turn(self) -> None:
        template = self.scenario.clinician.prompt or "{question}\n{options}"
        messages: list[Message] = [{"role": "system", "content": self.scenario.clinician.instructions.strip()}]
        # Imported multi-turn items script the user's messages; the model answers each in turn
        # and its last answer is scored, with the whole conversation kept for the judge.
        prompts = list(self.case.turns) or [render(template, self.case, self.layout)]
        text = ""
        for index, prompt in enumerate(prompts):
            self.add("system", prompt, round=index + 1)
            messages.append({"role": "user", "content": prompt})
            text = await self.ask_clinician(messages)
            messages.append({"role": "assistant", "content": text})
        self.finish(text, self.scenario.clinician.answer)

    async def staged(self) -> None:
        messages: list[Message] = [{"role": "system", "content": self.scenario.clinician.instructions.strip()}]
        for stage in self.scenario.stages:
            if not self.time_left():
                self.transcript.stop_reason = "time_limit"
                return
            content = stage_message(self.case, stage, self.layout)
            self.add("stage", content, stage=stage.id, reveal=list(stage.reveal))
            messages.append({"role": "user", "content": content})
            text = await self.ask_clinician(messages, stage)
            parsed = self.parse(text, stage.answer)
            self.transcript.stage_answers[stage.id] = parsed.value
            if stage.scored:
                self.keep_answer(text, parsed)
            # Later stages see what a clinician would have: the record as revealed and the model's own
            # earlier answers, never the gold (a discharge stage must not read the gold treatment).
            messages.append({"role": "assistant", "content": text})

    def _answered(self, text: str) -> bool:
        spec = self.scenario.final_answer_spec
        if spec.format == "text":
            return spec.marker in text
        value = self.parse(text, spec).value
        if spec.format == "json":
            return isinstance(value, dict) and any(v not in (None, "", []) for v in value.values())
        return bool(value)

    async def dialogue(self) -> None:
        from medsim.sim.patient import make_patient

        scenario, case = self.scenario, self.case
        patient = make_patient(self.settings.patient, scenario, case, seed=self.seed,
                               model_resolver=self.model_resolver)
        self.patient = patient
        self.transcript.info["patient"] = patient.name
        disclose = scenario.patient.disclose
        oracle = Oracle(case, scenario.oracle, exam_fields=list(disclose.on_exam))
        system = scenario.clinician.instructions.strip()
        if disclose.on_exam and "【" not in system:
            system += "\n" + usage_hint()
        messages: list[Message] = [{"role": "system", "content": system}]
        probe = case.probe
        patient_messages = 0

        def with_probe(text: str) -> tuple[str, bool]:
            if probe and probe.utterance and patient_messages == probe.at_turn:
                return (f"{text}{probe.utterance}" if text else probe.utterance), True
            return text, False

        opening = await patient.opening()
        self._record_patient_calls(patient)
        patient_messages += 1
        text, probed = with_probe(opening.text)
        self.add("patient", text, **self._patient_meta(opening, probed))
        messages.append({"role": "user", "content": text})

        # The budget counts questions: a turn that only orders tests or an examination is free, up to
        # as many free turns as the budget (so a clinician that only orders still comes to an end).
        budget = scenario.clinician.max_turns
        asked = free = 0
        while True:
            if asked >= budget or free > budget:
                self.transcript.stop_reason = "turn_limit"
                break
            if not self.time_left():
                self.transcript.stop_reason = "time_limit"
                break
            reply = await self.ask_clinician(messages)
            messages.append({"role": "assistant", "content": reply})
            if self._answered(reply):
                self.finish(reply, scenario.final_answer_spec)
                self.transcript.stop_reason = "answered"
                return
            parts = []
            oracle_reply = oracle.respond(reply)
            if oracle_reply:
                self.add("oracle", oracle_reply.text, tests=oracle_reply.tests, exam=oracle_reply.exam,
                         unknown=oracle_reply.unknown, disclosed=[oracle_reply.text])
                parts.append(oracle_reply.text)
            # the patient answers whatever the message asks besides its orders
            questions = oracle_reply is None or bool(count_questions(reply))
            asked += questions
            free += not questions
            if questions:
                answer = await patient.reply(reply, self.transcript.turns)
                self._record_patient_calls(patient)
                patient_messages += 1
                text, probed = with_probe(answer.text)
                self.add("patient", text, **self._patient_meta(answer, probed))
                parts.append(text)
            messages.append({"role": "user", "content": "\n".join(parts)})
            if self.hooks.on_budget:
                self.hooks.on_budget(budget - asked, budget)
        # Out of turns or time: one last request for the answer, so a slow history-taker is
        # scored on what it concluded rather than not at all.
        nudge = "（问诊结束）" + answer_reminder(scenario)
        self.add("system", nudge)
        messages.append({"role": "user", "content": nudge})
        reply = await self.ask_clinician(messages)
        self.finish(reply, scenario.final_answer_spec)

    def _patient_meta(self, reply: Any, probed: bool) -> dict[str, Any]:
        meta = {"topics": list(reply.topics), "fields": list(reply.fields), "disclosed": list(reply.disclosed)}
        if reply.flags:
            meta["flags"] = list(reply.flags)
        if reply.meta:
            meta["sim"] = dict(reply.meta)
        if probed:
            meta["probe"] = True
        return meta

    def _record_patient_calls(self, patient: Any) -> None:
        for call in getattr(patient, "drain_calls", lambda: [])():
            self.calls.append({"role": "patient", **call})

    async def run(self) -> EpisodeResult:
        try:
            if self.scenario.kind == "single_turn":
                await self.single_turn()
            elif self.scenario.kind == "staged":
                await self.staged()
            else:
                await self.dialogue()
        except ModelCallError as exc:
            self.transcript.error = exc.reason
            self.transcript.stop_reason = "error"
        self.transcript.info["turns_to_decision"] = self.clinician_turns
        self.transcript.info["elapsed_s"] = round(time.monotonic() - self.started, 3)
        if self.patient is not None:
            from medsim.sim.info import info_gathering

            # How often the simulator regenerated or flagged a turn: a score can be trusted
            # or discounted by it. Information gathering is kept with the transcript.
            self.transcript.info["patient_stats"] = dict(getattr(self.patient, "stats", {}) or {})
            self.transcript.info["info_gathering"] = info_gathering(self.case, self.transcript)
        return EpisodeResult(self.transcript, self.calls, self.transcript.info.get("patient"))


async def run_episode(scenario: Scenario, case: Case, clinician: ChatModel, *,
                      settings: EpisodeSettings | None = None, hooks: Hooks | None = None,
                      model_resolver: Callable[[str], ChatModel] | None = None) -> EpisodeResult:
    """Run one episode to its end and return the transcript with the model calls made."""
    episode = _Episode(scenario, case, clinician, settings or EpisodeSettings(), hooks or Hooks(), model_resolver)
    return await episode.run()
