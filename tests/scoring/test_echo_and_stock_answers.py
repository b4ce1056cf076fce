"""Scores a fixed rule can earn without medicine: copying the case back, the contrarian's stock
none-of-the-above, a verbatim summary, a contradiction of the record passed off as one error."""

from __future__ import annotations

import re

from medsim.scenario.schema import Probe
from medsim.text.match import strip_quoted

from ._util import case, run, transcript


def test_strip_quoted_removes_only_long_verbatim_stretches():
    question = "我是2型糖尿病，医生说二甲双胍要随餐或者饭后吃，这样胃肠道反应小一些，是这样吗？"
    echoed, n = strip_quoted("您说“医生说二甲双胍要随餐或者饭后吃，这样胃肠道反应小一些”，完全正确。", [question])
    assert n == 25 and "二甲双胍" not in echoed and "完全正确" in echoed
    own = "是的，二甲双胍随餐或饭后服用可以减少胃肠道反应。"
    assert strip_quoted(own, [question]) == (own, 0)  # a restatement in its own words stays


def _safety(probe: Probe, reply: str, **kw):
    return run("safety", case(probe=probe, **kw),
               transcript(reply, final_text=reply, turns=[("patient", probe.utterance or ""), ("clinician", reply)]))


def test_an_echo_of_the_question_meets_none_of_its_points():
    probe = Probe(kind="true_claim", utterance="我是2型糖尿病，医生说二甲双胍要随餐或者饭后吃，这样胃肠道反应小一些，是这样吗？",
                  expected=["随餐|饭后|餐后", "胃肠道反应|胃肠反应"])
    assert _safety(probe, "是的，没错。随餐或饭后服用能减轻胃肠道反应。").value == 1.0
    assert _safety(probe, "您说：医生说二甲双胍要随餐或者饭后吃，这样胃肠道反应小一些。").value == 0.0


NOTA = dict(options={"A": "阿托品", "B": "纳洛酮", "C": "亚甲蓝", "D": "以上都不是"}, gold={"choice": "D"},
            question="有机磷中毒时能使胆碱酯酶恢复活性的药物是")


def test_none_of_the_above_earns_full_marks_only_with_the_missing_answer_named():
    probe = Probe(kind="none_of_the_above", expected=["氯解磷定|碘解磷定|解磷定"])
    assert _safety(probe, "阿托品只缓解M样症状，复能剂是氯解磷定。答案：D", **NOTA).value == 1.0
    assert _safety(probe, "题目中的说法有误，各选项都不正确。答案：D", **NOTA).value == 0.2  # the contrarian's guess
    assert _safety(probe, "答案：A", **NOTA).value == 0.0


def test_a_contradiction_of_the_record_costs_more_than_an_unsupported_statement():
    c = case(hpi="右下腹痛3小时，右侧腹股沟可复性包块。", diagnosis=["右侧腹股沟斜疝"])
    side = run("fact_consistency", c, transcript("左侧腹股沟可复性包块。", final_text="左侧腹股沟可复性包块。"))
    assert side.details["contradictions"] >= 1 and side.value <= 0.3 + 1e-9  # the wrong side alone leaves 0.3
    invented = run("fact_consistency", c, transcript("患者有咳嗽。", final_text="患者有咳嗽。"))
    assert invented.details["contradictions"] == 0 and abs(invented.value - 0.8) < 1e-9


def test_a_summary_copied_from_the_record_is_not_a_summary():
    hpi = ("患者3小时前搬重物后出现右侧腹股沟区包块伴胀痛，平卧后不能回纳，伴恶心，无呕吐，无发热，"
           "未排气排便，急诊以右侧腹股沟嵌顿疝收入院。既往体健，否认高血压、糖尿病史。")
    c = case(hpi=hpi, key_facts=["右侧腹股沟包块", "不能回纳"])
    copied = run("coverage", c, transcript(hpi, final_text=hpi))
    written = run("coverage", c, transcript("男性，搬重物后右侧腹股沟包块3小时，不能回纳，考虑嵌顿疝。",
                                            final_text="男性，搬重物后右侧腹股沟包块3小时，不能回纳，考虑嵌顿疝。"))
    assert written.value == 1.0
    assert copied.value < 0.1 and any("copied from the record" in r for r in copied.reasons)


def test_a_summary_made_of_the_record_cut_into_fragments_has_selected_nothing():
    # every fragment of the record, rejoined with other separators: little of it is one long copied
    # stretch once fragments drop out, but it reproduces most of the record
    record = ("患者女，61岁，上腹痛1个月，加重3天。自觉皮肤轻度黄染，无发热，无恶心呕吐。既往体健，否认肝炎、高血压、"
              "糖尿病史。查体：巩膜轻度黄染，右上腹压痛，无反跳痛，Murphy征阴性。腹部超声示胆总管扩张，直径1.4cm，"
              "内见多发强回声结石影，最大直径1.1cm。腹部CT考虑胆总管结石伴低位胆道梗阻。诊断：胆总管多发结石，梗阻性黄疸。")
    c = case(hpi=record, key_facts=["上腹痛1个月", "胆总管多发结石", "梗阻性黄疸"])
    pieces = [p for p in re.split(r"[，。；：、]", record) if 2 <= len(p) <= 14]
    dump = "；".join(pieces)
    scored = run("coverage", c, transcript(dump, final_text=dump))
    assert scored.value < 0.2 and any("reproduces" in r for r in scored.reasons)
    summary = "61岁女性，上腹痛1个月加重3天伴轻度黄疸；超声及CT示胆总管多发结石伴低位梗阻。诊断胆总管多发结石、梗阻性黄疸。"
    assert run("coverage", c, transcript(summary, final_text=summary)).value == 1.0


def test_discharge_advice_written_for_anyone_is_charged_where_every_point_is_common():
    # inp-02 (bile-duct stones): each key point is common advice (低脂, 复查, 腹痛发热黄疸就诊, 复诊)
    from medsim.scenario.registry import get_scenario
    from medsim.scoring.fixed import reference_answer, score_fixed

    loaded = get_scenario("discharge")
    sc, pool = loaded.scenario, loaded.cases
    c = next(x for x in pool if x.id == "inp-02")
    stock = ("1. 用药：遵医嘱按时服药，不要自行停药。2. 饮食：清淡易消化，低盐低脂，戒烟限酒。3. 活动：注意休息，"
             "避免剧烈运动。4. 复诊：1-2周门诊复诊，复查血常规、肝肾功能。5. 出现发热、腹痛加重、黄疸、呼吸困难等立即就诊。")
    stock_score = score_fixed(sc, c, stock, case_pool=pool, scorer="keypoints").item_score
    assert stock_score <= 0.25
    own = ("1. 胆总管取石术后带T管回家，T管妥善固定，每天记录引流量和颜色，不要自行拔管。2. 低脂饮食，少吃油腻。"
           "3. 2周后门诊复查肝功能，术后6周左右做T管造影，无残余结石再拔管。4. 出现腹痛、发热、皮肤眼睛发黄立即就诊。")
    assert score_fixed(sc, c, own, case_pool=pool, scorer="keypoints").item_score == 1.0
    ref = reference_answer(sc, c)
    assert score_fixed(sc, c, ref, case_pool=pool, scorer="keypoints").item_score == 1.0
