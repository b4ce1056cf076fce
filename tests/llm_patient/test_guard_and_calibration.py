"""The LLM patient qualified before use: the guard catches the failure kinds real small models
showed, true statements in a patient's words pass, info_gathering credits only what was said,
and `medsim patient calibrate` reports it all against stub patients served over real HTTP."""

from __future__ import annotations

import asyncio
import json

import pytest

from medsim.models.openai_compat import OpenAICompatModel
from medsim.scenario.registry import find_case
from medsim.sim.disclosure import Policy
from medsim.sim.info import conveys, info_gathering
from medsim.sim.patient_calibration import calibrate_patient, load_cases
from medsim.sim.patient_guard import guard_turn
from medsim.sim.patient_llm import LLMPatient, system_prompt
from medsim.sim.transcript import Transcript
from medsim.testing import stubs
from medsim.testing.openai_server import OpenAIServer
from tests.cli.conftest import run_medsim


def flags(case_id: str, utterance: str) -> list[dict]:
    scenario, case = find_case(case_id)
    return guard_turn(Policy(case, scenario.patient), utterance)[0]


@pytest.mark.parametrize("case_id,utterance,kind", [
    ("tri-002", "平时吃的药只有感冒药。", "contradicted_fact"),        # 无长期用药
    ("tri-002", "以前没过敏过。", "contradicted_fact"),                # 曾进食芒果后口周瘙痒
    ("tri-002", "我对青霉素过敏。", "contradicted_fact"),              # 否认药物过敏史
    ("tri-001", "我平时不吃药。", "contradicted_fact"),                # 硝苯地平、二甲双胍
    ("tri-001", "我平时吃阿司匹林。", "invented_finding"),             # not on record
    ("tri-001", "我不抽烟。", "contradicted_fact"),                    # 吸烟40年
    ("tri-001", "我没有高血压。", "contradicted_fact"),                # 高血压病史10年
    ("tri-001", "家里人身体都挺好的，没有什么病。", "contradicted_fact"),  # 父亲死于心梗
    ("con-003", "我没发烧。", "contradicted_fact"),
    ("tri-001", "我以前身体很好，什么病都没有。", "contradicted_fact"),  # 高血压病史10年；2型糖尿病5年
    ("tri-001", "没得过什么病。", "contradicted_fact"),
    ("tri-001", "您好，我是你的医生。", "role_break"),
    ("tri-001", "主诉：胸痛2小时，伴大汗、头晕。", "role_break"),
    ("tri-001", "硝苯地平缓释片 30mg qd。", "role_break"),
    ("tri-003", "我头好疼，浑身没劲。", "role_break"),                 # unconscious: the family speaks
])
def test_the_guard_catches_each_failure_kind(case_id: str, utterance: str, kind: str) -> None:
    assert kind in {f["kind"] for f in flags(case_id, utterance)}, flags(case_id, utterance)


@pytest.mark.parametrize("case_id,utterance", [
    ("con-003", "胸口痛。"),                                  # 深吸气时右侧胸部隐痛
    ("con-003", "吸气的时候右边胸口有点疼。"),
    ("tri-001", "抽了四十年烟了。"),
    ("tri-001", "平时吃降压药，还有二甲双胍。"),
    ("tri-001", "我爸是心梗走的。"),                          # the family history, not a leak
    ("tri-002", "吃芒果嘴巴周围会痒。"),
    ("tri-002", "对药物不过敏。"),                            # true: the mango reaction is food
    ("tri-002", "我不抽烟也不喝酒。"),
    ("con-003", "发烧三天了，最高39度多。"),                  # the hpi's own 最高39.2℃, not a result
    ("tri-003", "他昨天开始就吃不下饭，晚上照样打了胰岛素。"),
    ("con-003", "发烧这个我没注意。"),
    ("tri-002", "我以前身体很好，什么病都没有。"),            # 既往体健 (a childhood eczema aside)
    ("tri-001", "没得过什么大病，就是血压高。"),
    ("tri-001", "我爸身体一直很好。"),
    ("tri-001", "胸口疼得厉害，什么病都没有过这么疼。"),
])
def test_true_statements_in_a_patients_words_are_not_flagged(case_id: str, utterance: str) -> None:
    assert flags(case_id, utterance) == []


def test_a_family_member_speaks_for_an_unconscious_patient() -> None:
    scenario, case = find_case("tri-003")
    prompt = system_prompt(Policy(case, scenario.patient))
    assert "家属" in prompt.splitlines()[0] and "我疼" in prompt.splitlines()[0]


def test_info_gathering_credits_only_what_the_patient_said() -> None:
    """A history question answered with anything used to disclose the whole section."""
    scenario, case = find_case("tri-001")

    class Says:
        name = "scripted"

        def __init__(self, text: str) -> None:
            self.text = text

        async def chat(self, messages, **kw):
            from medsim.models.base import ChatResult

            return ChatResult(content=self.text)

    said = asyncio.run(LLMPatient(scenario.patient, case, Says("以前身体挺好的。"), seed=0)
                       .reply("以前得过什么病吗？", []))
    assert said.disclosed == []  # nothing of 高血压病史10年 / 2型糖尿病5年 was said
    told = asyncio.run(LLMPatient(scenario.patient, case, Says("有高血压十年了，还有糖尿病五年。"), seed=0)
                       .reply("以前得过什么病吗？", []))
    assert any("高血压" in d for d in told.disclosed) and any("糖尿病" in d for d in told.disclosed)

    transcript = Transcript(scenario.id, case.id)
    transcript.add("clinician", "以前得过什么病吗？")
    # a turn claiming the whole section was disclosed, as the old LLM patient reported it
    transcript.add("patient", "以前身体挺好的。", disclosed=["高血压病史10年", "2型糖尿病5年"],
                   sim={"guard": "facts"})
    result = info_gathering(case, transcript)
    assert "高血压及糖尿病史" in result["missed"] and result["elicited"] == []


def test_conveys_reads_meaning_not_characters() -> None:
    assert conveys("否认药物过敏史", "没有对什么药过敏过")
    assert not conveys("否认药物过敏史", "对青霉素过敏")
    assert conveys("深吸气时右侧胸部隐痛", "吸气时右边胸口痛")
    assert not conveys("发热3天，体温最高39.2℃", "发烧了")
    assert not conveys("无发热", "有点发烧")


def _model(server: OpenAIServer) -> OpenAICompatModel:
    return OpenAICompatModel("stub-patient", base_url=server.base_url, api_key="EMPTY", max_attempts=1)


def test_calibration_finds_an_unruly_patient_unfit_and_a_faithful_one_fit() -> None:
    cases = load_cases()
    with OpenAIServer(reply=stubs.unruly_patient) as srv:
        model = _model(srv)
        bad = asyncio.run(calibrate_patient("llm:stub", cases, resolver=lambda n: model))
    m = bad.metrics
    assert not bad.fit and bad.verdict.startswith("not fit: breaks character")
    assert {"doctor", "record", "speechless"} <= set(m["role_breaks_by_role"])
    assert m["contradicted_rate"] > 0 and m["regeneration_rate"] > 0.5
    assert {"contradicted_fact", "invented_finding"} <= set(bad.examples)
    replies = {(r.case, r.text) for r in bad.replies}
    assert ("tri-002", "平时吃的药只有感冒药。") in replies
    with OpenAIServer(reply=stubs.faithful_patient) as srv:
        model = _model(srv)
        good = asyncio.run(calibrate_patient("llm:stub", cases, resolver=lambda n: model))
    assert good.fit, (good.reasons, good.examples)
    rule = asyncio.run(calibrate_patient("rule", cases))
    assert rule.metrics["turns"] == good.metrics["turns"] == 6 * 15


def test_patient_calibrate_cli_against_a_stub_over_http() -> None:
    with OpenAIServer(reply=stubs.unruly_patient) as srv:
        result = run_medsim("patient", "calibrate", "--patient", "llm:stub", "--base-url", srv.base_url,
                            "--case", "triage:tri-002", "--case", "triage:tri-003")
        data = run_medsim("patient", "calibrate", "--patient", "llm:stub", "--base-url", srv.base_url,
                          "--case", "triage:tri-002", "--json")
    assert result.returncode == 1, result.stderr
    assert "verdict: not fit: breaks character" in result.stdout and "平时吃的药只有感冒药" in result.stdout
    parsed = json.loads(data.stdout)
    assert parsed["model"]["base_url"] == srv.base_url and parsed["metrics"]["turns"] == 15
    bad = run_medsim("patient", "calibrate", "--patient", "llm:x", "--case", "tri-001")
    assert bad.returncode == 2 and "SCENARIO:CASE_ID" in bad.stderr
    missing = run_medsim("patient", "calibrate", "--case", "triage:nope")
    assert missing.returncode == 2 and "no case nope" in missing.stderr


def test_a_run_with_an_llm_patient_reports_its_break_and_regeneration_rates(tmp_path) -> None:
    db = tmp_path / "runs.sqlite"
    with OpenAIServer(reply=stubs.unruly_patient) as srv:
        result = run_medsim("run", "triage", "--model", "baseline", "--patient", "llm:stub", "--base-url",
                            srv.base_url, "--limit", "2", "--db", str(db))
    assert result.returncode == 0, result.stderr + result.stdout
    assert "LLM patient llm:stub:" in result.stdout and "role break(s)" in result.stdout
    summary = json.loads(run_medsim("report", "--format", "json", "--db", str(db)).stdout)
    sim = summary["simulators"]["llm:stub"]
    assert sim["role_breaks"] > 0 and 0 < sim["break_rate"] <= 1 and sim["regeneration_rate"] > 0
