"""Scores a fixed rule can earn without medicine: copying the case back, the contrarian's stock
none-of-the-above, a verbatim summary, a contradiction of the record passed off as one error."""

from __future__ import annotations

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
