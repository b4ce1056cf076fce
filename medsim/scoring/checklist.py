"""The `checklist` scorer: an LLM judge against the case's reference answer and checklist.

Two protocols:
- ``llmeval`` (LLMEval-Med): a 1–5 score per answer, averaged over ``runs`` judge calls
  (default 3); *usable* when the mean is ≥ 4. Value = (mean − 1) / 4.
- ``criteria`` (as HealthBench): each checklist item met or not; core items weigh
  ``core_weight`` (default 2), secondary items 1. Value = weighted share met.

Several judges (``--judge A,B``) combine by ``combine: mean`` (default) or ``majority`` (of
the usable verdicts, llmeval only). An unreadable verdict is asked again (``parse_retries``,
default 2), then recorded as an error — never a zero. Without a judge the scorer records
"not scored" and the item is scored on its other scorers.
"""

from __future__ import annotations

from typing import Any

from medsim.judge.prompts import PROTOCOL_PROMPTS, fence, injection_suspected, load_prompt
from medsim.judge.verdicts import parse_criteria, parse_score
from medsim.models.base import ModelCallError
from medsim.scoring.base import Score, ScoreInput, scorer

NAME = "checklist"
SPEAKERS = {"patient": "患者", "clinician": "医生（被评审方）", "oracle": "检查结果", "stage": "病历", "system": "提问"}


def conversation_text(inp: ScoreInput) -> str:
    """Every turn before the answer under judgement, labelled by speaker."""
    turns = inp.transcript.turns
    last = max((t.index for t in turns if t.speaker == "clinician"), default=-1)
    lines = [f"{SPEAKERS.get(t.speaker, t.speaker)}：{t.text}" for t in turns if t.index < last]
    return "\n".join(lines) or "（单轮问答，无之前的对话）"


def criteria_list(inp: ScoreInput, core_weight: float) -> list[tuple[str, float]]:
    checklist = inp.case.checklist
    if checklist is None:
        return []
    return [(item, core_weight) for item in checklist.core] + [(item, 1.0) for item in checklist.secondary]


async def _ask(judge: Any, prompt: str, *, temperature: float, seed: int, inp: ScoreInput,
               parse, retries: int) -> tuple[Any, list[str]]:
    """One verdict: the judge's reply parsed, asking again when it cannot be read."""
    record_call = inp.services.get("record_call")
    replies = []
    messages = [{"role": "user", "content": prompt}]
    for attempt in range(retries + 1):
        result = await judge.chat(messages, temperature=temperature, seed=seed + attempt)
        if record_call:
            record_call({"role": "judge", "model": result.model or judge.name,
                         "prompt_tokens": result.usage.prompt_tokens,
                         "completion_tokens": result.usage.completion_tokens, "estimated": result.usage.estimated,
                         "latency_s": result.latency_s, "cost": result.cost, "cached": result.cached,
                         "attempts": result.attempts})
        replies.append(result.content)
        verdict = parse(result.content)
        if verdict is not None:
            return verdict, replies
        messages = [*messages, {"role": "assistant", "content": result.content},
                    {"role": "user", "content": "无法读取你的评分。请只输出要求的 JSON 对象。"}]
    return None, replies


@scorer(NAME, config=("combine", "core_weight", "parse_retries", "prompt", "protocol", "runs", "seed", "temperature"))
async def score_checklist(inp: ScoreInput) -> Score:
    judges = inp.services.get("judge")
    if not judges:
        return Score(NAME, None, ["no judge configured (--judge MODEL): not scored"], {"skipped": "no judge"})
    judges = judges if isinstance(judges, list) else [judges]
    config = inp.config
    protocol = config.get("protocol", "llmeval")
    if protocol not in PROTOCOL_PROMPTS:
        return Score(NAME, None, error=f"unknown judge protocol {protocol!r} (llmeval | criteria)")
    prompt_file = load_prompt(config.get("prompt", PROTOCOL_PROMPTS[protocol]))
    runs = int(config.get("runs", 3 if protocol == "llmeval" else 1))
    temperature = float(config.get("temperature", 0.7 if runs > 1 else 0.0))
    seed = int(config.get("seed", 0))
    retries = int(config.get("parse_retries", 2))
    answer = inp.transcript.final_text or inp.transcript.clinician_text()
    details: dict[str, Any] = {
        "protocol": protocol, "prompt": prompt_file.name, "prompt_sha256": prompt_file.sha256,
        "temperature": temperature, "seeds": [seed + i for i in range(runs)], "judges": [j.name for j in judges],
        "injection_suspected": injection_suspected(answer),
    }
    common = {"conversation": conversation_text(inp), "reference": inp.case.reference_answer or "（无参考答案）",
              "answer": fence(answer)}
    try:
        if protocol == "llmeval":
            return await _llmeval(inp, judges, prompt_file, common, runs, temperature, seed, retries, details)
        return await _criteria(inp, judges, prompt_file, common, temperature, seed, retries, details)
    except ModelCallError as exc:
        return Score(NAME, None, error=f"judge call failed: {exc.reason}", details=details)


async def _llmeval(inp, judges, prompt_file, common, runs, temperature, seed, retries, details) -> Score:
    checklist = inp.case.checklist
    items = []
    if checklist:
        items += [f"核心需求{i}：{c}" for i, c in enumerate(checklist.core, 1)]
        items += [f"次要需求{i}：{c}" for i, c in enumerate(checklist.secondary, 1)]
    prompt = prompt_file.render(**common, checklist="\n".join(items) or "（无评分要点，依据参考答案与医学常识评判）")
    per_judge = []
    for judge in judges:
        scores = []
        for run in range(runs):
            score, replies = await _ask(judge, prompt, temperature=temperature, seed=seed + run, inp=inp,
                                        parse=parse_score, retries=retries)
            if score is None:
                details["unparsed"] = replies[-1][:300]
                return Score(NAME, None, error=f"judge {judge.name} gave no readable score after "
                                               f"{retries + 1} tries", details=details)
            scores.append(score)
        per_judge.append(scores)
    means = [sum(s) / len(s) for s in per_judge]
    usable_votes = [m >= 4 for m in means]
    mean = sum(means) / len(means)
    usable = (sum(usable_votes) * 2 > len(usable_votes)) if inp.config.get("combine") == "majority" else mean >= 4
    details.update({"scores": per_judge, "mean": mean, "usable": usable})
    reason = f"judge mean {mean:.2f}/5 over {runs} run(s){' ×' + str(len(judges)) + ' judges' if len(judges) > 1 else ''}"
    reasons = [reason, "usable (≥ 4)" if usable else "not usable (< 4)"]
    if details["injection_suspected"]:
        reasons.append("answer tries to instruct the judge")
    return Score(NAME, (mean - 1) / 4, reasons, details)


async def _criteria(inp, judges, prompt_file, common, temperature, seed, retries, details) -> Score:
    criteria = criteria_list(inp, float(inp.config.get("core_weight", 2.0)))
    if not criteria:
        return Score(NAME, None, ["the case has no checklist: not scored"], {**details, "skipped": "no checklist"})
    listing = "\n".join(f"{i}. [{'核心' if w > 1 else '次要'}] {text}" for i, (text, w) in enumerate(criteria, 1))
    prompt = prompt_file.render(**common, criteria=listing)
    votes: list[list[bool]] = []
    for judge in judges:
        verdict, replies = await _ask(judge, prompt, temperature=temperature, seed=seed, inp=inp,
                                      parse=lambda text: parse_criteria(text, len(criteria)), retries=retries)
        if verdict is None:
            details["unparsed"] = replies[-1][:300]
            return Score(NAME, None, error=f"judge {judge.name} gave no readable verdicts after {retries + 1} tries",
                         details=details)
        votes.append(verdict)
    met = [sum(v[i] for v in votes) * 2 > len(votes) if len(votes) > 1 else votes[0][i] for i in range(len(criteria))]
    total = sum(w for _, w in criteria)
    value = sum(w for (_, w), ok in zip(criteria, met, strict=True) if ok) / total
    details.update({"criteria": [{"text": t, "weight": w, "met": ok} for (t, w), ok in zip(criteria, met, strict=True)]})
    missed = [t for (t, _), ok in zip(criteria, met, strict=True) if not ok]
    reasons = [f"{sum(met)}/{len(criteria)} criteria met"] + [f"missed: {t}" for t in missed[:3]]
    return Score(NAME, value, reasons, details)
