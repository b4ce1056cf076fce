"""Stand-in models for tests and demos, served by ``openai_server`` over real HTTP.

They behave like the failures real small models showed, so tests and ``medsim judge calibrate``
/ ``medsim patient calibrate`` can be exercised end to end without a GPU:

Judges (reply to medsim's judge prompts):
- ``obedient_judge``: grades by how much of the reference answer's wording the answer shares
  (so it cannot tell a negated or wrong-dose answer from the gold), and obeys an instruction it
  finds *inside* the answer ("给5分", "score of 5", a ``{"得分": "[5]"}`` object…), as real
  models do.
- ``careful_judge``: checks what matters — the drugs, doses and directions of the reference are
  all there and none is turned around, the checklist points are covered — and never obeys the
  answer.
- ``lazy_judge``: 5/5 and every criterion met, whatever it is shown.

Patients (reply to the LLM patient's system prompt):
- ``faithful_patient``: answers from the record lines of its system prompt, in first person.
- ``unruly_patient``: speaks as the doctor, reads record sections aloud ("主诉：…"), invents
  history ("平时吃的药只有感冒药", "以前没过敏过") and answers for an unconscious patient.

Serve one from the command line::

    python -m medsim.testing.openai_server --port 8011 --reply-fn medsim.testing.stubs:obedient_judge
"""

from __future__ import annotations

import json
import re
from typing import Any

from medsim.testing.openai_server import last_user_message

# --------------------------------------------------------------------------------- judges


def _between(text: str, start: str, end: str) -> str:
    a = text.rfind(start)
    if a < 0:
        return ""
    b = text.find(end, a + len(start))
    return text[a + len(start): b if b >= 0 else len(text)]


def _parts(req: dict[str, Any]) -> tuple[str, str, list[tuple[int, str, str]], bool]:
    """(answer, reference, criteria [(id, label, text)], criteria protocol?) of a judge prompt."""
    prompt = last_user_message(req)
    answer = _between(prompt, "<answer>", "</answer>").strip()
    reference = _between(prompt, "【参考答案】", "【").strip()
    criteria = [(int(i), label, text) for i, label, text in re.findall(r"^(\d+)\. \[(核心|次要|负向)\] (.+)$", prompt, re.M)]
    return answer, reference, criteria, "【评分要点】（逐条" in prompt


def _bigrams(text: str) -> set[str]:
    text = re.sub(r"(?m)^\s*\d+\.\s*", "", text)  # list numbers
    text = re.sub(r"[\s，。；：、！？（）()【】“”\"'：,.;:!?]", "", text)
    return {text[i:i + 2] for i in range(len(text) - 1)}


def _overlap(part: str, whole: str) -> float:
    a = _bigrams(part)
    return len(a & _bigrams(whole)) / len(a) if a else 0.0


def _reply(score: int | None, criteria: list[tuple[int, str, str]], met: list[bool] | None) -> str:
    if met is not None:
        return json.dumps({"results": [{"id": i, "met": ok, "reason": "stub"} for (i, _, _), ok
                                       in zip(criteria, met, strict=True)]}, ensure_ascii=False)
    return json.dumps({"判断依据": "stub", "得分": f"[{score}]"}, ensure_ascii=False)


# what a naive model takes as an order from the answer itself
_OBEY = re.compile(r"5\s*分|五分|满分|最高分|score of 5|5/5|\[5\]|\"得分\"|可用|全部满足|满足全部|approved|met\"?\s*:\s*true"
                   r"|ignore (all )?previous", re.IGNORECASE)


def obedient_judge(req: dict[str, Any]) -> str:
    answer, reference, criteria, per_criterion = _parts(req)
    if _OBEY.search(answer):
        return _reply(5, criteria, [c[1] != "负向" for c in criteria] if per_criterion else None)
    similarity = _overlap(reference, answer) if reference else 0.0
    if per_criterion:
        return _reply(None, criteria, [(_overlap(text, answer) >= 0.4) != (label == "负向") for _, label, text in criteria])
    return _reply(1 + min(4, int(similarity * 5)), criteria, None)


def lazy_judge(req: dict[str, Any]) -> str:
    _, _, criteria, per_criterion = _parts(req)
    return _reply(5, criteria, [c[1] != "负向" for c in criteria] if per_criterion else None)


_DENIAL = re.compile(r"不要|不能|不宜|不建议|避免|禁止|勿|停用|停服|别|不可|不必|继续")
_DOSE = re.compile(r"\d+(?:\.\d+)?\s*(?:mg|g|ml|mL|μg|ug|片|粒|支|滴|单位|IU)")


def _sound(answer: str, reference: str) -> bool:
    """Nothing the reference says is missing, turned around or changed in the answer."""
    from medsim.text import extract_entities

    ref_drugs = {e.norm for e in extract_entities(reference) if e.type == "drug"}
    ans_drugs = {e.norm for e in extract_entities(answer) if e.type == "drug"}
    if ref_drugs - ans_drugs or ans_drugs - ref_drugs:
        return False
    if set(_DOSE.findall(answer)) - set(_DOSE.findall(reference)):
        return False
    if sorted(_DENIAL.findall(answer)) != sorted(_DENIAL.findall(reference)):
        return False
    return _overlap(reference, answer) >= 0.7


def careful_judge(req: dict[str, Any]) -> str:
    answer, reference, criteria, per_criterion = _parts(req)
    sound = _sound(answer, reference) if reference else True
    if per_criterion:
        # it reads the whole answer against the gold: a sound answer meets the rubric, an unsound one
        # meets none of it (and does the harm a negative criterion names)
        return _reply(None, criteria, [sound if label != "负向" else not sound for _, label, _ in criteria])
    return _reply(5 if sound else 2 if _overlap(reference, answer) >= 0.5 else 1, criteria, None)


# --------------------------------------------------------------------------------- patients

def _record(req: dict[str, Any]) -> dict[str, str]:
    system = next((m["content"] for m in req.get("messages", []) if m.get("role") == "system"), "")
    facts = {}
    for line in system.splitlines():
        m = re.match(r"- (.+?)：(.+)", line)
        if m:
            facts[m.group(1)] = m.group(2)
    return facts


_FIELDS = (("过敏", "过敏"), ("药", "平时吃的药"), ("家", "家里人的病"), ("烟|酒|工作", "个人情况"),
           ("以前|既往|得过", "以前的病"), ("多久|怎么|哪|什么时候|开始", "这次发病的经过"))


def _question(req: dict[str, Any]) -> str:
    users = [m["content"] for m in req.get("messages", []) if m.get("role") == "user" and "系统提示" not in m["content"]]
    return users[-1] if users else ""


def faithful_patient(req: dict[str, Any]) -> str:
    """Answers from the record line the question is about, its first clauses put in lay words."""
    from medsim.sim import lay

    facts = _record(req)
    question = _question(req)
    family = "家属" in next((m["content"] for m in req.get("messages", []) if m.get("role") == "system"), "")[:80]
    subject = "他" if family else "我"
    if "开场白" in question:
        chief = next((v for k, v in facts.items() if k.startswith("主诉")), "")
        return f"医生，{lay.clause_to_lay(chief, subject=subject)}。" if chief else "医生，我不太舒服。"
    for cue, name in _FIELDS:
        if re.search(cue, question):
            text = next((v for k, v in facts.items() if k.startswith(name)), "")
            clauses = [c for c in re.split(r"[，。；]", text) if c.strip()][:2]
            said = [lay.clause_to_lay(c, subject=subject) for c in clauses if not lay.is_jargon(c)]
            if said:
                return "，".join(said) + "。"
    return "这个我说不上来。"


def unruly_patient(req: dict[str, Any]) -> str:
    """A small model playing the patient badly: it role-breaks and invents history, and keeps
    doing it when told off (the guard's feedback arrives as a user message)."""
    facts = _record(req)
    question = _question(req)
    system = next((m["content"] for m in req.get("messages", []) if m.get("role") == "system"), "")
    if "开场白" in question:
        return "您好，我是你的医生，今天哪里不舒服？"
    if "家属" in system[:80] and "不舒服" in question:
        return "我头好疼，浑身没劲。"  # the patient cannot speak, yet "I" answer as the patient
    if "过敏" in question:
        return "以前没过敏过。"
    if "药" in question:
        return "平时吃的药只有感冒药。"
    if "家" in question:
        return "家里人身体都挺好的，没有什么病。"
    if "烟" in question:
        return "我不抽烟。"
    chief = next((v for k, v in facts.items() if k.startswith("主诉")), "")
    return f"主诉：{chief.rstrip('。')}。" if chief else "现病史：不详。"
