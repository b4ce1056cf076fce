"""Reply classes a physician faulted on reply check set 7 (tests/sim/data/reply_check7_verdicts_after.jsonl),
by mechanism: chart wording and garbled conversions in lay speech, a late period said as a pregnancy, a warm
joint read as a fever, the pain score given for how bad another finding is, a non-answer to the job, a course
the record calls gradual said as unchanged, and a normal function denied on a silent record."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import ask_bundled as ask  # noqa: E402

from medsim.scenario.registry import get_scenario
from medsim.sim import lay
from medsim.sim.patient_rule import RulePatient
from medsim.text import analyze


def test_chart_words_are_said_in_lay_words():
    # felt / gradually felt, the history-taker's 追问, eyelids, toilet, waking, drinking, effort tolerance
    assert lay.clause_to_lay("感心跳快而乱") == "觉得心跳又快又乱"
    assert "渐感" not in lay.clause_to_lay("患者3个月来渐感乏力") and "慢慢" in lay.clause_to_lay("患者3个月来渐感乏力")
    assert "追问" not in lay.clause_to_lay("追问3天前已有轻度咳嗽")
    assert "眼皮" in lay.clause_to_lay("晨起眼睑浮肿") and "眼睑" not in lay.clause_to_lay("晨起眼睑浮肿")
    said = lay.clause_to_lay("如厕时晕倒1次，数秒后自行清醒")
    assert "如厕" not in said and "厕所" in said and "清醒" not in said
    assert "饮" not in lay.clause_to_lay("每周饮白酒2次") and "喝白酒" in lay.clause_to_lay("每周饮白酒2次")
    assert "耐量" not in lay.clause_to_lay("伴气短、活动耐量下降")
    assert "不规则" not in lay.clause_to_lay("不规则口服布洛芬")
    # a joint named by the chart (第一跖趾关节) is the big toe to the patient
    assert "跖趾" not in lay.clause_to_lay("左足第一跖趾关节红肿") and "大脚趾" in lay.clause_to_lay("左足第一跖趾关节红肿")


def test_a_range_is_said_in_words():
    assert lay.clause_to_lay("每次2–3瓶") == "每次2到3瓶"
    assert "26到32天" in lay.clause_to_lay("周期26–32天")


def test_a_shorter_key_never_garbles_a_longer_term():
    # 放射 (of a pain) is 窜, but 放射性碘 is no spreading pain; 无尿 is no 无 + 尿中排石; 不舒服 took no medicine
    assert "窜" not in lay.clause_to_lay("否认放射性碘治疗史")
    said = lay.clause_to_lay("无尿中排石史")
    assert "排尿" not in said and "石头" in said and said.startswith("没")
    assert lay.clause_to_lay("有轻度阵发性肚子不舒服") == "有点一阵一阵的肚子不舒服"
    assert "吃了" not in lay.clause_to_lay("胃部不舒服")
    assert "吃了" in lay.clause_to_lay("昨晚服布洛芬")  # a medicine taken still is


def test_a_late_period_is_not_said_as_a_pregnancy():
    # 停经7周 is a late period: not 怀孕 until confirmed (by 12 weeks, the first antenatal visit, it is)
    assert "怀孕" not in lay.complaint_to_lay("停经6周，阴道流血1天") and "没来月经" in lay.complaint_to_lay("停经6周，阴道流血1天")
    assert "怀孕34周" in lay.clause_to_lay("停经34周")
    assert "怀孕" not in ask("triage", "tri-005", "哪里不舒服？")


def test_a_warm_joint_is_not_a_fever():
    # 局部红肿发热 of a gouty toe is a warm spot: the text layer reads no fever there, a fever still is one
    assert "发热" not in {f.norm for f in analyze("右膝关节红肿发热").findings}
    assert "发热" not in {f.norm for f in analyze("局部红肿发热").findings}
    assert "发热" in {f.norm for f in analyze("伴发热、寒战").findings}
    reply = ask("consultation", "con-023", "发烧没有？打不打寒战？")
    assert not reply.startswith("有") and "寒战" in reply


def test_how_bad_another_finding_is_gets_no_pain_score():
    # 头发掉得厉害不厉害 asks about the hair, not the pain: no 说不好有多厉害, no score
    reply = ask("consultation", "con-014", "皮肤干不干？头发掉得厉害不厉害？")
    assert "厉害" not in reply and "掉" in reply
    assert "分" not in ask("consultation", "con-023", "脚趾头红不红、热不热、肿得厉害吗？")
    # the pain's own severity still gets it
    assert "8分" in ask("consultation", "con-023", "疼得有多厉害？0到10分，您打几分？")


def test_where_the_pain_goes_is_not_how_bad_it_is():
    reply = ask("diagnosis", "inp-05", "疼得往别处跑不跑？后背、肩膀疼不疼？")
    assert "分" not in reply and "整个肚子" in reply


def test_a_job_the_record_does_not_give_is_still_answered():
    # a patient asked their job says it: never 这个跟我这病有关系吗
    for scenario, case_id, retired in (("diagnosis", "inp-05", False), ("diagnosis", "inp-44", True)):
        reply = ask(scenario, case_id, "您是干什么工作的？")
        assert "有关系吗" not in reply and ("退休" in reply) == retired


def test_a_course_the_record_calls_gradual_is_not_said_unchanged():
    # 半年来渐感乏力: it came on gradually, so never 也没有更重
    reply = ask("consultation", "con-014", "这没劲儿是从什么时候开始的？是慢慢越来越重的吗？")
    assert "没有更重" not in reply and "慢慢" in reply


def test_a_normal_function_is_not_denied_on_a_silent_record():
    # no flatus would be a sign of obstruction the record does not give: asked of a silent record, it goes on
    reply = ask("diagnosis", "inp-05", "疼起来以后还放屁吗？")
    assert "没有放屁" not in reply and "放屁" in reply


def test_a_denial_of_the_others_answers_a_question_about_the_others():
    # 别的关节疼不疼, record 无其他关节肿痛: no, never the gouty toe told as a yes
    reply = ask("consultation", "con-023", "别的关节疼不疼？脚脖子、膝盖、手指头？")
    assert not reply.startswith("有") and "别的关节" in reply and "没" in reply


def test_what_they_were_doing_at_onset_is_answered():
    # the second half of 几点开始疼的？当时在干什么？ is not dropped; a record with no activity at onset says so,
    # and the syncope's 如厕时 (a later event) is not the pain's
    reply = ask("triage", "tri-005", "肚子是几点开始疼的？当时在干什么？")
    assert "3小时" in reply and "没干什么" in reply and "厕所" not in reply
    # a record whose onset followed a meal tells it, as a whole sentence (no 喝啤酒后。 fragment)
    reply = ask("consultation", "con-023", "疼起来的时候在干什么？")
    assert "啤酒" in reply and not reply.rstrip("。").endswith("后")


def test_the_mood_is_heard_as_the_mood():
    # 心情怎么样 asks how the patient feels in spirits: never 具体是什么病我也不知道 for its 是不是
    reply = ask("consultation", "con-014", "心情怎么样？是不是老提不起劲、不想说话？")
    assert "什么病" not in reply and "心情" in reply


def test_the_parts_of_the_periods_asked_are_told_together():
    # 准不准、多少天来一次: both the regularity and the cycle length the record gives
    reply = ask("triage", "tri-005", "平时月经准不准？多少天来一次？")
    assert "按时" in reply and "28到30天" in reply
    # when the last period was, said once: never 记不太准 beside 7周前
    reply = ask("triage", "tri-005", "末次月经是哪天？")
    assert "7周前" in reply and "记不" not in reply


def test_constant_or_in_bouts_is_answered_from_the_record():
    # 一阵一阵的还是一直都有, record 发作持续至今: it has not stopped — never 每回多长时间没注意 beside it
    reply = ask("diagnosis", "inp-44", "心慌是一阵一阵的还是一直都有？每次多长时间？")
    assert "没停" in reply and "没太注意" not in reply and "至今" not in reply
    # a bout-wise complaint says so (有轻度阵发性肚子不舒服)
    assert "一阵一阵" in ask("triage", "tri-030", "肚子疼是一阵一阵的还是一直疼？")
    # the which-clause is said with its sentence: never a bare 一直 for 呈持续性
    reply = ask("triage", "tri-022", "是一直疼，还是一阵一阵的？")
    assert "右下" in reply and reply.strip("。") != "一直"


def test_a_named_content_of_a_discharge_is_answered_from_its_clause():
    # 大便里有没有血丝或者脓, record 无黏液脓血: no — not the stool's colour instead
    reply = ask("triage", "tri-030", "大便里有没有血丝或者脓？")
    assert reply.startswith("没") and "脓" in reply


def test_the_rest_half_of_a_relief_question_is_answered():
    # 歇一会儿或者含点药能缓过来吗: beside the medicine, rest — a palpitation going on since it began (持续至今)
    # was not relieved by it
    reply = ask("diagnosis", "inp-44", "歇一会儿或者含点药能缓过来吗？")
    assert "歇着也没好" in reply and "没停" in reply


def test_the_drinks_asked_are_the_drinks_answered():
    # 甜饮料 asked: no 茶、咖啡 instead; 浓茶、咖啡 beside smoking and drinking is not dropped
    reply = ask("consultation", "con-023", "平时爱喝甜饮料吗？")
    assert "饮料" in reply and "咖啡" not in reply
    reply = ask("diagnosis", "inp-44", "抽烟喝酒吗？喝不喝浓茶、咖啡？")
    assert "抽烟" in reply and "咖啡" in reply


def test_what_was_done_in_an_earlier_episode_is_not_this_time():
    # 1年前…有过1次类似发作，约1周自行缓解，未就诊: asked what medicine was taken this time, not 没去看 of then
    reply = ask("consultation", "con-023", "来之前吃了什么药？止疼药管用不？")
    assert ("没吃" in reply or "没另外吃" in reply) and reply != "没去看。"
    # asked about then, the earlier episode is told
    assert "没去看" in ask("consultation", "con-023", "以前犯的时候去看过没有？")


def test_a_late_period_is_not_the_complaint_whose_site_is_asked():
    # 停经7周，下腹痛3小时: the pain is the complaint; asked left or right, where it began and where it spread
    reply = ask("triage", "tri-005", "具体哪儿疼？左边、右边还是正中间？")
    assert "左下" in reply and "整个肚子" in reply and "晕倒" not in reply


def test_a_colour_like_strong_tea_is_no_drinks_question():
    # 尿颜色是不是像浓茶 asks the urine's colour: no 不怎么喝茶 beside it
    assert "喝" not in ask("diagnosis", "inp-28", "尿颜色是不是像浓茶？")


def test_whether_others_around_have_it_is_answered_about_the_others():
    # 家里人或者幼儿园别的孩子有没有也拉肚子的: the people around, not the child's own story again
    reply = ask("triage", "tri-030", "家里人或者幼儿园别的孩子有没有也拉肚子的？")
    assert "冰淇淋" not in reply and "家里" in reply and "幼儿园" in reply and "没" in reply
    # a record that tells it says it, in lay words
    reply = ask("consultation", "con-003", "周围同事有没有也发烧的？")
    assert "同事" in reply and "无" not in reply and "症状" not in reply


def test_eating_and_drinking_as_usual_is_the_record_s_not_a_stock_line():
    # 进食饮水正常: told as the record says, not 平时吃饭还行
    reply = ask("triage", "tri-030", "还能喝水、吃东西吗？")
    assert "正常" in reply and "平时" not in reply


def test_a_blackout_of_vision_is_not_a_faint():
    # 眼前发黑 (黑矇) is not 晕厥: asked of a woman who fainted, the faint is not told as its yes; a record denying
    # both (无晕厥、黑矇) denies both
    reply = ask("triage", "tri-005", "晕之前有没有眼前发黑、出冷汗、心慌？")
    assert not reply.startswith("有，1小时前") and "心慌" in reply
    reply = ask("diagnosis", "inp-44", "有没有眼前发黑、晕倒？")
    assert "眼前" in reply and "晕倒" in reply and "没有" in reply


def test_what_eased_earlier_recurrences_is_not_what_eases_the_pain_now():
    # 2小时前突发上腹剧痛 … 近半年反复剑突下隐痛，可自行缓解: asked what eases it now, not the old pain's 自己就好了
    reply = ask("diagnosis", "inp-05", "弯着腰、蜷着身子会不会好点？一动、一深呼吸是不是疼得更厉害？")
    assert "自己就好了" not in reply and "活动" in reply


def test_a_bowel_symptom_asked_gets_no_bowels_are_normal_stock_line():
    # 有没有老想解大便、肛门往下坠: the record's 肛门坠胀感, without 大便正常 beside it; asked how the bowels are, it stays
    reply = ask("triage", "tri-005", "有没有老想解大便、肛门往下坠的感觉？")
    assert "大便正常" not in reply and "肛门" in reply and "屁股" not in reply
    assert "大便正常" in ask("triage", "tri-005", "大便怎么样？")


def test_the_body_size_asked_is_not_a_temperature():
    # 多重、多高: the weight the patient knows (the record's 86 kg), never a fever reading for its 多高
    reply = ask("consultation", "con-023", "您现在多重、多高？最近胖了没有？")
    assert "86公斤" in reply and "度" not in reply
    assert "38.4度" in ask("diagnosis", "inp-05", "体温最高多高？")


def test_asked_about_one_finding_the_whole_complaint_is_not_repeated():
    # 晕倒是怎么回事: the faint's own clause, not 停经…下腹痛…晕倒1次 again before it; an open question keeps it
    reply = ask("triage", "tri-005", "晕倒是怎么回事？晕了多长时间？是自己醒过来的吗？")
    assert "醒过来" in reply and "小肚子疼" not in reply
    assert "小肚子疼" in ask("triage", "tri-005", "哪里不舒服？")


def test_an_earlier_episode_is_told_whole():
    # 以前这么疼过没有？每次多久好: when it was, that it went in about a week, that no one saw it
    reply = ask("consultation", "con-023", "以前这么疼过没有？犯过几次，每次多久好？")
    assert "1年前" in reply and "1周" in reply


def test_a_medicine_is_told_once_in_a_reply():
    # the story's 自行不规则口服奥美拉唑 and the list's 近半年不规则自服奥美拉唑 are one medicine; asked the list alone,
    # it is told
    reply = ask("diagnosis", "inp-05", "来之前吃过什么药？打过针没有？管用吗？")
    assert reply.count("奥美拉唑") == 1
    assert "奥美拉唑" in ask("diagnosis", "inp-05", "平时吃什么药？")


def test_how_many_times_so_far_is_told():
    # 一天拉了几回, record 腹泻，共3次: the count
    assert "一共3次" in ask("triage", "tri-030", "一天拉了几回？每回量多不多？")
    # the count of one act is not told for another: the child did not vomit
    reply = ask("triage", "tri-030", "吐不吐？吐了几次，吐的是什么？")
    assert "没有吐" in reply and "3次" not in reply


def test_a_late_period_is_not_listed_among_other_complaints():
    reply = ask("triage", "tri-005", "还有别的不舒服吗？")
    assert "月经" not in reply and "肛门" in reply


def test_a_compound_question_whose_parts_one_clause_answers_is_told_once_in_order():
    # inp-21: 3小时前晨起活动时突发胸骨后压榨样疼痛，向左肩及左上臂放射: the onset clause also says what he was
    # doing, so 当时在干啥 is answered by it, not told again after the spread

    loaded = get_scenario("diagnosis")
    case = next(c for c in loaded.cases if c.id == "inp-21")
    reply = RulePatient(loaded.scenario.patient, case).reply_sync("胸痛是几点开始的？当时在干啥？").text
    assert reply.index("3小时前") < reply.index("左肩")
    assert reply.count("3小时前") == 1 and "活动" in reply
