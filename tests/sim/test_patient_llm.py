"""The LLM patient over real HTTP: the local OpenAI-compatible server and the openai client.

The server's scripted replies play a model that first leaks the diagnosis and invents a
symptom; the guard must catch it, regenerate with the flags fed back, and count it.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import spec, stemi_case  # noqa: E402

from medsim.models.openai_compat import OpenAICompatModel  # noqa: E402
from medsim.sim.disclosure import Policy  # noqa: E402
from medsim.sim.patient import make_patient  # noqa: E402
from medsim.sim.patient_llm import LLMPatient, system_prompt  # noqa: E402
from medsim.sim.transcript import Turn  # noqa: E402
from medsim.testing.openai_server import OpenAIServer, last_user_message  # noqa: E402


def scripted(req: dict) -> str:
    """A patient model: leaks on the first try of a question, behaves when told off."""
    last = last_user_message(req)
    question = [m["content"] for m in req["messages"] if m["role"] == "user" and "系统提示" not in m["content"]][-1]
    if "一直" in question:
        return "我觉得是心肌梗死。"  # leaks on every try: kept and flagged
    if "系统提示" in last:
        return "胸口正中像被压着一样疼，往左肩膀窜。"
    if "开场白" in last:
        return "医生，我胸口疼了3个小时了。"
    if "窜" in last:
        return "我这是心梗吧？还有点拉肚子。"  # diagnosis leak + invented symptom
    if "过敏" in last:
        return "病人：没有什么过敏的。"
    return "这个我不太清楚。"


@pytest.fixture()
def server():
    with OpenAIServer(reply=scripted) as srv:
        yield srv


def make(server, **kw):
    model = OpenAICompatModel("patient-model", base_url=server.base_url, api_key="EMPTY", max_attempts=1)
    return make_patient("llm:patient-model", None, stemi_case(), seed=1, model_resolver=lambda name: model)


def test_prompt_is_grounded_and_withholds_what_the_patient_cannot_know():
    prompt = system_prompt(Policy(stemi_case(), spec()))
    assert "胸骨后压榨样疼痛" in prompt and "吸烟30年" in prompt
    assert "心肌梗死" not in prompt and "ST段" not in prompt.split("【规则】")[0].replace("外院心电图", "")
    assert "150" not in prompt  # vitals are the oracle's


def test_guarded_turns_regenerate_and_count(server):
    patient = make(server)
    assert patient.name == "llm:patient-model"

    async def episode():
        opening = await patient.opening()
        history = [Turn(0, "patient", opening.text)]
        history.append(Turn(1, "clinician", "疼的时候往别处窜吗？"))
        leak = await patient.reply("疼的时候往别处窜吗？", history)
        allergy = await patient.reply("对什么药过敏吗？", history)
        stuck = await patient.reply("一直这样疼吗？", history)
        return opening, leak, allergy, stuck

    opening, leak, allergy, stuck = asyncio.run(episode())
    assert opening.text == "医生，我胸口疼了3个小时了。" and opening.meta["regenerations"] == 0
    assert "胸痛3小时" in opening.disclosed

    # leaked + invented → flagged, fed back, regenerated once, clean
    assert leak.meta["regenerations"] == 1 and not leak.flags
    assert set(leak.meta["rejected_flags"]) >= {"diagnosis_leak"}
    assert "心梗" not in leak.text and "左肩" in leak.text
    assert any("放射" in d for d in leak.disclosed) and leak.topics == ["radiation"]

    assert allergy.text == "没有什么过敏的。"  # role label stripped

    # still leaking after the bounded retries: kept, flagged, counted
    assert stuck.meta["regenerations"] == 2 and stuck.meta["flagged"]
    assert [f["kind"] for f in stuck.flags] == ["diagnosis_leak"]  # one flag for 心肌梗死, not three
    totals = stuck.meta["totals"]
    assert {k: totals[k] for k in ("turns", "regenerations", "flagged_turns", "flags")} == {
        "turns": 4, "regenerations": 3, "flagged_turns": 1, "flags": len(stuck.flags)}
    # what the model did before the guard stepped in: 7 attempts, 4 leaking, 1 inventing, no role break
    assert (totals["attempts"], totals["attempts_leak"], totals["attempts_invented"], totals["role_breaks"]) == (7, 4, 1, 0)

    calls = patient.drain_calls()
    assert len(calls) == 1 + 2 + 1 + 3 and patient.drain_calls() == []
    # the feedback reached the model as a user message
    fed_back = [r for r in server.requests if "系统提示" in r["messages"][-1]["content"]]
    assert len(fed_back) == 3 and "心梗" in fed_back[0]["messages"][-1]["content"]


def test_history_maps_roles_and_skips_oracle_turns(server):
    patient = make(server)
    history = [Turn(0, "patient", "医生，我胸口疼。"), Turn(1, "clinician", "【开检查】心电图"),
               Turn(2, "oracle", "心电图：ST段抬高"), Turn(3, "clinician", "对什么药过敏吗？")]
    asyncio.run(patient.reply("对什么药过敏吗？", history))
    messages = server.requests[-1]["messages"]
    assert [m["role"] for m in messages] == ["system", "assistant", "user", "user"]
    assert all("ST段抬高" not in m["content"] for m in messages[1:])


def test_in_process_model_also_works():
    """Any ChatModel will do: an in-process fake shows the protocol without HTTP."""
    from medsim.models.base import ChatResult

    class Fake:
        name = "fake"

        async def chat(self, messages, **kw):
            return ChatResult(content="有点恶心。")

    patient = LLMPatient(spec(), stemi_case(), Fake(), seed=0)
    reply = asyncio.run(patient.reply("恶心吗？", []))
    # only what was said is disclosed: 恶心, not the 伴大汗 it is listed with
    assert reply.text == "有点恶心。" and not reply.flags and reply.disclosed == ["恶心"]


def test_builtin_guard_stands_in_when_the_fact_checker_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "medsim.facts.guard", None)  # import fails
    from medsim.sim.patient_guard import guard_turn

    policy = Policy(stemi_case(), spec())
    flags, guard = guard_turn(policy, "我是心梗吧，还拉肚子，肌钙蛋白2.3ng/mL。")
    assert guard == "builtin"
    assert {f["kind"] for f in flags} == {"diagnosis_leak", "invented_finding", "test_result"}
    assert guard_turn(policy, "胸口疼，出了一身汗，没有发烧。") == ([], "builtin")
