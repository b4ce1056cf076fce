"""The LLM patient: a chat model playing the patient, grounded in the record, every turn guarded.

The system prompt holds only what the patient may say (the volunteered and on_ask fields),
the persona, and the disclosure rules. Each turn goes through the guard (``patient_guard``):
a turn that leaks the diagnosis, invents a finding or quotes a result is regenerated with
the flags fed back, at most ``max_regenerations`` times; a turn still flagged is kept and
flagged. ``meta`` carries the counts so a run can say how often each happened.
"""

from __future__ import annotations

import re
from typing import Any

from medsim.models.base import ChatModel, ChatResult, Message
from medsim.scenario.schema import Case, PatientSpec
from medsim.sim import lay, textlink
from medsim.sim.disclosure import Policy
from medsim.sim.info import conveys
from medsim.sim.patient import PatientReply
from medsim.sim.patient_guard import guard_turn
from medsim.sim.topics import classify
from medsim.sim.transcript import Turn

FIELD_ZH = {
    "demographics": "一般情况", "chief_complaint": "主诉（来看病的原因）", "hpi": "这次发病的经过",
    "past_history": "以前的病", "personal_history": "个人情况（抽烟喝酒、工作）",
    "menstrual_obstetric_history": "月经和生育情况", "family_history": "家里人的病", "allergies": "过敏",
    "medications": "平时吃的药",
}
_LITERACY = {"low": "你文化程度不高，不懂医学名词，只用大白话", "medium": "你说话用普通人的日常用语",
             "high": "你文化程度较高，但仍以患者的口吻说话"}
_MOOD = {"calm": "情绪平稳", "anxious": "你很焦虑，担心自己的病情，常会问医生严不严重",
         "irritable": "你有些烦躁、不耐烦"}
_STYLE = {"plain": "回答自然、简短", "terse": "你话很少，每次只回答一句", "talkative": "你爱说话，但不会编造病情",
          "vague_elderly": "你是老人，记性不太好，说话常带“好像”“记不清了”"}


def system_prompt(policy: Policy) -> str:
    spec = policy.spec
    persona = spec.persona
    volunteered = [f for f in spec.disclose.volunteered if policy.allowed(f)]
    subject = lay.subject_for(policy.case)
    if subject == "我":
        who = "你在扮演一位来医院看病的患者，正在和医生对话。请始终以患者本人的身份、用第一人称、口语化的中文回答。"
    else:
        # an unconscious or speechless adult, or a young child: the family member with them speaks
        patient = "孩子" if subject == "孩子" else f"患者（{subject}）"
        who = (f"{patient}现在不能自己说话，你在扮演陪同来看病的家属，正在回答医生的问题。请始终以家属的身份说话，"
               f"用“{subject}”称呼患者，绝不能用患者本人的口吻说“我疼”“我难受”。")
    lines = [
        who,
        f"性格与说话方式：{_LITERACY[persona.literacy]}；{_MOOD[persona.mood]}；{_STYLE[persona.style]}。",
        "",
        "【你知道的关于自己的情况】（来自病历，只能根据这些回答）",
    ]
    for field, text in policy.disclosable().items():
        lines.append(f"- {FIELD_ZH.get(field, field)}：{text}")
    lines += [
        "",
        "【规则】",
        f"1. 开场时只说：{'、'.join(FIELD_ZH.get(f, f) for f in volunteered) or '来看病的原因'}；其他情况医生问到才说，问什么答什么，每次一到三句话。",
        "2. 用老百姓的说法，不用医学术语（例如说“胸口疼”而不是“胸骨后疼痛”，说“喘不上气”而不是“呼吸困难”）。",
        f"3. 上面没有写到的情况，一律回答不知道，例如：“{spec.unknown_reply}”或“这个没注意”。绝不编造症状、病史或数字。",
        "4. 你不知道自己得的是什么病：绝不说出任何诊断或病名（上面写明的既往病除外），也不要猜测。",
        "5. 你不知道任何检查、化验、体格检查的结果和生命体征数值，医生问起就说不知道。",
        "6. 不要扮演医生，不要给出医学建议，不要输出任何说明或括号里的旁白，只输出患者说的话。",
    ]
    return "\n".join(lines)


class LLMPatient:
    def __init__(self, spec: PatientSpec, case: Case, model: ChatModel, *, seed: int = 0,
                 model_name: str | None = None, max_regenerations: int = 2, temperature: float | None = 0.7,
                 max_tokens: int | None = 300):
        self.spec = spec
        self.case = case
        self.model = model
        self.seed = seed
        self.name = f"llm:{model_name or getattr(model, 'name', 'model')}"
        self.policy = Policy(case, spec)
        self.max_regenerations = max_regenerations
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.system = system_prompt(self.policy)
        # per turn (the run's figures) and per attempt (what the model does before the guard steps in)
        self.stats = {"turns": 0, "regenerations": 0, "flagged_turns": 0, "flags": 0, "role_breaks": 0,
                      "attempts": 0, "attempts_role_break": 0, "attempts_invented": 0, "attempts_leak": 0}
        self._calls: list[dict[str, Any]] = []
        self._clauses = self._disclosable_clauses()

    # ------------------------------------------------------------------ protocol

    async def opening(self) -> PatientReply:
        messages: list[Message] = [
            {"role": "system", "content": self.system},
            {"role": "user", "content": "（医生示意你坐下，请你说说为什么来看病。请直接说出你的开场白。）"},
        ]
        return await self._turn(messages, topics=[], turn=0)

    async def reply(self, clinician_text: str, history: list[Turn]) -> PatientReply:
        messages: list[Message] = [{"role": "system", "content": self.system}]
        for turn in history:
            if turn.speaker == "clinician":
                messages.append({"role": "user", "content": turn.text})
            elif turn.speaker == "patient":
                messages.append({"role": "assistant", "content": turn.text})
        if not (messages[-1]["role"] == "user" and messages[-1]["content"] == clinician_text):
            messages.append({"role": "user", "content": clinician_text})
        topics = classify(re.sub(r"【[^】]*】[^\n？?]*", "", clinician_text)).topics
        return await self._turn(messages, topics=topics, turn=sum(t.speaker == "patient" for t in history))

    def drain_calls(self) -> list[dict[str, Any]]:
        """Model calls made since the last drain (the loop records them under role patient)."""
        calls, self._calls = self._calls, []
        return calls

    # ------------------------------------------------------------------ one guarded turn

    async def _turn(self, messages: list[Message], *, topics: list[str], turn: int) -> PatientReply:
        attempt_messages = list(messages)
        regenerations = 0
        history_of_flags: list[list[dict]] = []
        first_text = None
        text, flags, guard = "", [], "builtin"
        for attempt in range(self.max_regenerations + 1):
            result = await self.model.chat(attempt_messages, temperature=self.temperature, max_tokens=self.max_tokens,
                                           seed=self.seed * 1000 + turn * 10 + attempt)
            self._record(result, attempt)
            text = _clean(result.content)
            flags, guard = guard_turn(self.policy, text)
            self._count_attempt(flags)
            if first_text is None:
                first_text = text
            if not flags:
                break
            history_of_flags.append(flags)
            if attempt == self.max_regenerations:
                break
            regenerations += 1
            reasons = "；".join(f["reason"] for f in flags)
            attempt_messages = [*messages, {"role": "assistant", "content": text}, {
                "role": "user",
                "content": f"（系统提示，不是医生说的话：你上一句回答不符合规则：{reasons}。"
                           "请只根据你知道的情况重新回答医生刚才的话，不要说病名，不要编造。只输出患者说的话。）",
            }]
        self.stats["turns"] += 1
        self.stats["regenerations"] += regenerations
        if any(f["kind"] == "role_break" for fl in history_of_flags for f in fl):
            self.stats["role_breaks"] += 1  # a turn on which the model broke character, caught or not
        if flags:
            self.stats["flagged_turns"] += 1
            self.stats["flags"] += len(flags)
        disclosed, fields = self._disclosed(text, topics, flags)
        meta = {"regenerations": regenerations, "flagged": bool(flags), "guard": guard, "disclosure": "inferred",
                "first_flags": history_of_flags[0] if history_of_flags else [],
                "first_text": first_text,  # what the model said before the guard stepped in
                "attempt_flags": [[f["kind"] if f["kind"] != "role_break" else f"role_break:{f.get('role')}"
                                   for f in fl] for fl in history_of_flags],
                "rejected_flags": [f["kind"] for fl in history_of_flags[:regenerations] for f in fl],
                "totals": dict(self.stats)}
        return PatientReply(text=text or self.spec.unknown_reply, topics=topics, fields=fields, disclosed=disclosed,
                            flags=flags, meta=meta)

    def _count_attempt(self, flags: list[dict[str, Any]]) -> None:
        kinds = {f["kind"] for f in flags}
        self.stats["attempts"] += 1
        self.stats["attempts_role_break"] += "role_break" in kinds
        self.stats["attempts_invented"] += bool(kinds & {"invented_finding", "contradicted_fact", "test_result",
                                                          "unrevealed_result"})
        self.stats["attempts_leak"] += "diagnosis_leak" in kinds

    def _record(self, result: ChatResult, attempt: int) -> None:
        self._calls.append({
            "model": result.model or getattr(self.model, "name", ""), "prompt_tokens": result.usage.prompt_tokens,
            "completion_tokens": result.usage.completion_tokens, "estimated": result.usage.estimated,
            "latency_s": result.latency_s, "cost": result.cost, "cached": result.cached, "attempts": result.attempts,
            "regeneration": attempt,
        })

    # ------------------------------------------------------------------ what was disclosed

    def _disclosable_clauses(self) -> list[tuple[str, str]]:
        """(field, piece of the record) the patient may say: clauses, and a list of findings
        (伴大汗淋漓、恶心) split into its findings, so each is credited only when said."""
        from medsim.text import analyze

        out = []
        for field, text in self.policy.disclosable().items():
            for clause in textlink.clauses(text):
                if field != "demographics" and lay.is_jargon(clause):
                    continue
                parts = [p for p in clause.split("、") if p.strip()]
                if len(parts) > 1 and all(analyze(p).findings for p in parts):
                    out += [(field, p) for p in parts]
                else:
                    out.append((field, clause))
        return out

    def _disclosed(self, text: str, topics: list[str], flags: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
        """The record pieces the utterance itself conveys (``info.conveys``: the same findings
        with the same polarity, the same numbers), nothing else: a history question answered with
        anything does not disclose the whole section, and a contradicted piece is not told."""
        if _UNKNOWN.search(text) and len(text) < 12:
            return [], []
        disclosed, fields = [], []
        for field, clause in self._clauses:
            if conveys(clause, text):
                disclosed.append(clause)
                fields.append(field)
        return list(dict.fromkeys(disclosed)), list(dict.fromkeys(fields))


_UNKNOWN = re.compile(r"不清楚|不知道|没注意|记不清|不太清楚|不了解|说不上来")


def _clean(content: str) -> str:
    """Drop a role label or stage directions a model may add (患者：…, （叹气）)."""
    text = (content or "").strip()
    text = re.sub(r"^(患者|病人|我)[:：]\s*", "", text)
    text = re.sub(r"[（(][^）)]{0,20}[）)]", "", text)
    return text.strip().strip('"“”')
