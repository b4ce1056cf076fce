"""Reply classes a physician faulted on reply check set 5 (tests/sim/data/reply_check5_verdicts_after.jsonl):
chart wording in lay speech, a neighbouring topic's stock line beside the answer, a detail the record
holds not found, a whole section told for one question, and compound questions answered in part."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import re

from patient_cases import ask_bundled as ask  # noqa: E402

from medsim.sim import lay


def test_amounts_of_what_the_body_put_out_are_said_as_people_guess_them():
    # nobody weighs stool or measures vomited blood: grams and mL become words, the size kept
    assert "g" not in lay.clause_to_lay("量约300g") and "多" in lay.clause_to_lay("量约300g")
    said = lay.clause_to_lay("总量约600mL")
    assert "mL" not in said and "毫升" not in said and "一大碗" in said
    assert "一点" in lay.clause_to_lay("咯血约20ml")
    # what one drinks and a dose keep their figures
    assert "3000" in lay.clause_to_lay("每日饮水约3000mL")
    assert "0.5g" in lay.clause_to_lay("二甲双胍0.5g每日三次")


def test_chart_forms_are_said_in_lay_words():
    cases = {
        "乙型肝炎病史20年": ("乙肝", "20年", "得"),
        "高血压病史10年": ("高血压", "10年", "得"),
        "量、色如常": ("跟平时一样",),
        "已放置宫内节育器": ("环",),
        "咳黄脓痰，量中等": ("不多不少",),
        "铝碳酸镁咀嚼片 按需": ("铝碳酸镁", "的时候"),
        "酸水反流至咽部": ("嗓子",),
        "3小时前呕鲜红色血2次": ("吐了2次", "鲜红"),
        "饭后即躺下": ("吃完饭就躺",),
    }
    for clause, wanted in cases.items():
        said = lay.clause_to_lay(clause, literacy="low")
        assert all(w in said for w in wanted), (clause, said)
        assert not re.search(r"病史|如常|放置|按需|反流至|呕|即|病\d|等$", said), (clause, said)
    assert lay.clause_to_lay("无腹泻、尿道炎病史").endswith("尿道炎")  # not 尿道炎病
    assert "没有" in lay.clause_to_lay("活动时无胸闷") and "无力" in lay.clause_to_lay("活动后无力")


def test_a_finding_with_no_lay_name_is_denied_in_lay_words():
    reply = ask("consultation", "con-006", "打嗝多吗？")  # 无嗳气 in the record
    assert "嗳气" not in reply and "嗝" in reply and reply.startswith("没")
    assert "呛咳" not in ask("diagnosis", "inp-23", "平时喝水呛不呛？")


def test_no_appetite_stock_line_beside_a_question_that_only_names_eating():
    # 吃饭喝水呛不呛 asks about choking, 吐的里头有没有吃的东西 about the vomit: not about appetite
    assert "胃口" not in ask("diagnosis", "inp-23", "平时吃饭喝水呛不呛？")
    assert "胃口" not in ask("triage", "tri-012", "吐出来的是鲜红的，还是暗红、咖啡色的？里头有没有血块或者吃的东西？")
    # asked about appetite itself, it is told (nausea in the record: not the stock line)
    assert "吃" in ask("diagnosis", "inp-43", "最近胃口、睡觉怎么样？")
    assert "吃饭" in ask("consultation", "con-006", "最近吃饭、睡觉怎么样？")


def test_how_much_one_drinks_is_told_from_the_personal_history():
    reply = ask("diagnosis", "inp-43", "平时水喝得多不多？一天大概喝几杯？")  # 平素饮水少
    assert "喝水少" in reply and "没太听明白" not in reply


def test_symptoms_asked_of_the_past_are_not_answered_with_the_whole_section():
    reply = ask("triage", "tri-012", "以前吐过血、拉过黑便没有？")  # 否认消化道出血史
    assert "110/70" not in reply and "肝硬化" not in reply and "以前没" in reply


def test_compound_questions_hear_every_finding_named():
    reply = ask("consultation", "con-024", "眼睛干、嘴干吗？")  # 无口干眼干
    assert "眼" in reply and ("口干" in reply or "嘴干" in reply) and "没" in reply
    reply = ask("consultation", "con-024", "晒太阳起不起疹子？掉头发多不多？")  # 无光过敏、脱发
    assert "晒" in reply and "头发" in reply and "没" in reply
    reply = ask("consultation", "con-006", "咽东西噎不噎？咽的时候疼不疼？")  # 无吞咽困难、吞咽痛
    assert "没" in reply and "烧心" not in reply and "火辣辣" not in reply
    reply = ask("triage", "tri-012", "平时刷牙出血、鼻子出血吗？身上碰一下容易青吗？")
    assert "牙" in reply and "鼻" in reply and "青" in reply


def test_a_drug_taken_now_and_then_answers_what_was_taken():
    # 间断口服“双氯芬酸钠”止痛 in the medication list: never 没吃什么药
    reply = ask("consultation", "con-024", "吃过什么药没有？止疼药、激素吃过吗？吃了管用不？")
    assert "双氯芬酸钠" in reply and "没吃什么药" not in reply
    # the regular drugs beside an intermittent one (氨氯地平 qd; 阿司匹林 qd（间断）) are not what was taken for this
    reply = ask("triage", "tri-007", "来之前吃过啥药没有？阿司匹林、安宫牛黄丸之类的？")
    assert "阿司匹林" in reply and "氨氯地平" not in reply and "没吃什么药" not in reply


def test_how_long_a_thing_lasts_is_not_how_long_the_illness_has_gone_on():
    # 晨起手指僵硬…持续1个多小时才能缓解; the complaint's 4个月 is no answer
    reply = ask("consultation", "con-024", "早上起来手发僵，要多长时间才能活动开？超不超过一个钟头？")
    assert "1个多小时" in reply and "4个月" not in reply
    # how long each bout lasts, not in the record: not the illness's duration either
    reply = ask("consultation", "con-006", "一个礼拜犯几回？每回难受多长时间？")
    assert "4到5次" in reply and "4个月" not in reply
    # 干了多少年了, of the job
    reply = ask("consultation", "con-024", "在纺织厂干什么活？干了多少年了？")
    assert "纺织" in reply and "4个月" not in reply


def test_other_symptoms_asked_under_an_aspect_are_answered_as_symptoms():
    # 吐血之前有没有恶心、干呕得特别厉害: not the aggravating-factor stock line; neither is in the record
    reply = ask("triage", "tri-012", "吐血之前有没有恶心、干呕得特别厉害？")
    assert "恶心" in reply and "干呕" in reply and "没" in reply and "更厉害" not in reply
    # 恶心吐了没有: nausea is in the record (伴恶心), vomiting is not
    reply = ask("triage", "tri-022", "恶心吐了没有？吐了几回，吐的是啥？")
    assert "有，恶心" in reply and "没有吐" in reply


def test_what_makes_it_worse_or_better_is_answered_from_clauses_on_what_was_asked():
    # 活动后减轻 answers 活动以后是好点了还是更疼; the feet's 行走时疼痛 answers neither it nor the weather
    reply = ask("consultation", "con-024", "活动活动以后是好点了，还是更疼？歇着的时候疼不疼？")
    assert "活动" in reply and "前掌" not in reply
    reply = ask("consultation", "con-024", "阴天下雨或者碰凉水，会不会加重？")
    assert "前掌" not in reply and "走路" not in reply


def test_a_question_heard_as_no_topic_is_answered_from_the_clause_it_names():
    # 握拳困难 is in the record: 攥 and 握 are one meaning, so no 没太听明白
    reply = ask("consultation", "con-024", "拳头攥得紧不紧？拧毛巾、系扣子费不费劲？")
    assert "握拳" in reply and "没太听明白" not in reply


def test_when_meals_are_taken_is_told_from_the_personal_history():
    # 晚餐常在9点以后，饭后即躺下: asked when dinner is and how soon after it they lie down — not 睡觉还可以
    reply = ask("consultation", "con-006", "晚饭一般几点吃？吃完多久上床睡觉？")
    assert "9点" in reply and "躺" in reply and "睡觉还可以" not in reply


def test_a_bare_complaint_word_is_not_an_answer():
    # 咳嗽 alone, a clause of the complaint, tells nothing a question about it asks
    reply = ask("diagnosis", "inp-23", "胸口疼不疼？深吸气或者咳嗽的时候疼得厉害吗？疼的话打几分？")
    assert not reply.endswith("咳嗽。") and "胸" in reply
    reply = ask("diagnosis", "inp-23", "咳嗽什么时候最厉害，白天还是夜里？")  # the record does not say when
    assert reply != "咳嗽。" and "感冒药" not in reply and "深吸气" not in reply
    # the clause that says when answers when (偶有夜间呛咳)
    assert re.search("夜|晚上", ask("consultation", "con-006", "一般白天还是夜里难受得厉害？"))
