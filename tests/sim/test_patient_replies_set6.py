"""Reply classes a physician faulted on reply check set 6 (tests/sim/data/reply_check6_verdicts_after.jsonl):
family history told through a procedure, another person's history answered for a family question,
the part of the periods asked, a site's pain denied, chart wording in lay speech."""

from __future__ import annotations

import sys
from pathlib import Path

from medsim.sim import lay
from medsim.sim.patient_rule import RulePatient

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import ask_bundled as ask  # noqa: E402
from patient_cases import pid_case, spec, stemi_case  # noqa: E402


def ask_case(case, question: str) -> str:
    p = RulePatient(spec(), case, seed=0)
    p.opening_sync()
    return p.reply_sync(question).text


def test_a_relatives_procedure_tells_the_condition_it_is_done_for():
    case = stemi_case().model_copy(update={"family_history": "父亲65岁时行冠脉搭桥术，母亲体健。"})
    for question in ("家里有人得过冠心病吗？", "家里有心脏病的吗？"):
        reply = ask_case(case, question)
        assert reply.startswith("有") and "搭桥" in reply, reply
    # a condition the procedure does not tell is still not heard of
    assert "搭桥" not in ask_case(case, "家里有人得过糖尿病吗？")
    # a procedure denied tells nothing
    denied = stemi_case().model_copy(update={"family_history": "父母体健，未行心脏支架。"})
    assert not ask_case(denied, "家里有人得过冠心病吗？").startswith("有")


def test_a_family_question_is_not_answered_from_the_patients_own_history():
    # 否认糖尿病、冠心病史 is the patient's: a relative's diabetes is asked, not theirs
    reply = ask_case(stemi_case(), "家里有人得过糖尿病吗？")
    assert "家里" in reply and "冠心病" not in reply, reply
    # and the patient's own is still told from their own history
    assert "没有糖尿病" in ask_case(stemi_case(), "您有糖尿病吗？")


def test_the_part_of_the_periods_asked_is_told_not_the_whole_history():
    case = pid_case()
    history = case.menstrual_obstetric_history
    reply = ask_case(case, "末次月经是哪天？")
    assert "上次" in reply or "末次" in reply or "天前" in reply, (history, reply)
    assert "第一次来月经" not in reply, reply
    # what the record holds no word on, a woman knows of herself: no pain with her periods
    reply = ask("consultation", "con-027", "来月经的时候疼不疼？")
    assert "第一次来月经" not in reply and "不怎么疼" in reply, reply


def test_a_site_pain_with_its_kind_written_in_between_is_not_denied():
    # 伴脐周阵发性隐痛: 肚子疼不疼 is yes, said where
    reply = ask("triage", "tri-019", "肚子疼不疼？")
    assert reply.startswith("有") and "肚脐" in reply and "没有肚子疼" not in reply, reply


def test_chart_labels_of_urine_swelling_and_periods_are_said_plainly():
    for clause, chart in (("患者1年来逐渐出现排尿等待、射程变短", "排尿等待"), ("排尿后仍有尿不尽感", "尿不尽感"),
                          ("无尿路刺激征", "刺激征"), ("双下肢水肿，晨轻暮重", "晨轻暮重"), ("尿量较前略减少", "较前"),
                          ("无经间期出血", "经间期"), ("同餐者2人有类似腹泻", "同餐者")):
        said = lay.clause_to_lay(clause)
        assert chart not in said, said
    assert "有2个人也这样" in lay.clause_to_lay("同餐者2人有类似腹泻")


def test_a_complaint_that_got_worse_says_since_when():
    said = lay.complaint_to_lay("反复咳嗽咳痰10年，加重伴气短3天")
    assert "最近3天更厉害了" in said and "更厉害了还有" not in said, said


def test_each_part_of_a_compound_question_is_answered():
    # the second question of two, on another function, is not dropped
    reply = ask("consultation", "con-017", "腿脚肿不肿？晚上起夜多不多？")
    assert "不肿" in reply and "起夜" in reply, reply


def test_an_operation_in_the_obstetric_history_is_an_operation_she_had():
    reply = ask("triage", "tri-019", "做过什么手术没有？")
    assert "结扎" in reply and "没做过手术" not in reply, reply


def test_tea_is_not_alcohol_and_before_sleep_is_not_the_sleep():
    assert "茶" not in ask("consultation", "con-017", "喝酒吗？")
    reply = ask("consultation", "con-017", "晚上睡前喝不喝茶？")
    assert "茶" in reply and "睡眠" not in reply, reply


def test_a_denied_list_is_told_for_the_parts_asked():
    # 无咳嗽、腹泻、尿频尿痛 asked about the bowels: the diarrhoea only
    reply = ask("diagnosis", "inp-28", "大便怎么样？")
    assert "拉肚子" in reply and "咳嗽" not in reply, reply
    # two symptoms written together are said as two
    assert "老想上厕所、小便的时候疼" in lay.clause_to_lay("无尿频尿痛")


def test_when_a_named_finding_began_is_told_from_its_own_clause():
    # 3天前出现右上腹持续性隐痛 beside 5天前…发热: the pain asked, the pain's start told
    reply = ask("diagnosis", "inp-28", "右上腹疼是哪天开始的？")
    assert "3天前" in reply, reply


def test_the_colour_of_what_one_passes_is_answered_as_its_colour():
    # 无肉眼血尿 answers 尿颜色像不像洗肉水; the record's 黄色水样便 answers 大便什么颜色
    reply = ask("diagnosis", "inp-32", "尿颜色怎么样，有没有像洗肉水？")
    assert "没有尿血" in reply and "泡沫" not in reply, reply
    assert "黄色" in ask("triage", "tri-019", "大便是什么颜色？")
    # 咖啡色 is a colour, not a drink
    assert "咖啡" not in ask("triage", "tri-012", "吐出来的是鲜红的，还是咖啡色的？")


def test_whether_a_medicine_taken_for_this_illness_helped():
    # 自服蒙脱石散2次, no effect written: the diarrhoea brought her here, so it is not gone
    reply = ask("triage", "tri-019", "吃的药管用吗？")
    assert "蒙脱石散" in reply and "没完全好" in reply, reply
    # a medicine taken now and then for relief is not said to fail
    assert "没完全好" not in ask("consultation", "con-024", "吃过什么药没有？吃了管用不？")


def test_worse_when_doing_something_is_asked_as_what_makes_it_worse():
    # 深呼吸时加重: 翻身、吸气的时候疼得厉害不厉害 is answered by it, not by the pain score
    reply = ask("diagnosis", "inp-28", "吸气、咳嗽、翻身的时候疼得厉害不厉害？")
    assert "深呼吸" in reply and "几分" not in reply, reply
    # 不敢翻身和深呼吸 is what makes it worse: never 没发现怎么着会更厉害
    reply = ask("triage", "tri-013", "动一动、咳嗽或者深吸气的时候疼得厉害不厉害？")
    assert "不敢" in reply and "没发现" not in reply, reply
    # a score asked beside it is still given
    assert "分" in ask("diagnosis", "inp-23", "深吸气的时候疼得厉害吗？疼的话打几分？")
