"""Reply classes a physician faulted on reply check set 9 (tests/sim/data/reply_check9_verdicts_before.jsonl),
by mechanism: a recorded regimen denied as 没吃什么药, others with the illness not told, a finding denied
elsewhere told as a yes, a trigger written as 换戴…后出现 missed, a listed finding's onset cut to the finding,
chart words for a rash, and a weight asked in 斤 told in 公斤."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import ask_bundled as ask  # noqa: E402


def test_a_recorded_regimen_is_never_denied():
    # con-022: 用药史 外用“膏药”; inp-10: 抗结核治疗1月余（含利福平）
    for scenario, case, question, drug in [
        ("consultation", "con-022", "贴过膏药、吃过止疼药没有？管用不？", "膏药"),
        ("diagnosis", "inp-10", "最近吃过啥药、中药、保健品没有？", "利福平"),
        ("diagnosis", "inp-10", "在这之前看过医生吗，查过肝功能、B超没有？用了啥药，管用不？", "利福平"),
    ]:
        reply = ask(scenario, case, question)
        assert drug in reply and "没吃什么药" not in reply, (case, reply)


def test_a_record_without_medicines_still_says_none():
    # tri-034: 用药史 未用药
    reply = ask("triage", "tri-034", "自己抹过啥药膏没有？抹了管用不？")
    assert "没吃什么药" in reply or "没用过" in reply


def test_others_with_the_illness_are_told_from_the_story():
    # con-028: 所在幼儿园班里近1周有2名小朋友患“手足口病”
    reply = ask("consultation", "con-028", "上幼儿园没有？班上有没有别的孩子得手足口病？")
    assert "2" in reply and "手足口" in reply and "没查过" not in reply


def test_a_finding_denied_elsewhere_is_not_told_as_a_yes():
    # tri-034: 左手腕出现红斑、丘疹 … 无其他部位皮疹
    for question in ("另一只手、脖子、腰上这些地方，也有没有类似的疹子？", "身上其他地方有没有疹子"):
        reply = ask("triage", "tri-034", question)
        assert reply.startswith("没有") and "有，" not in reply, reply
    assert ask("triage", "tri-034", "有没有起疹子？").startswith("有")


def test_a_trigger_before_the_onset_is_told():
    # 3天前换戴新金属表带后左手腕出现红斑、丘疹: the new strap is what it followed, not 没什么原因
    for question in ("当时在干啥？", "有什么诱因吗？", "疹子是三天前啥时候起的，当时在干啥？"):
        reply = ask("triage", "tri-034", question)
        assert "表带" in reply and "没干什么" not in reply and "没什么" not in reply, (question, reply)


def test_rash_chart_words_are_said_plainly_to_a_low_literacy_patient():
    reply = ask("triage", "tri-034", "疹子是三天前啥时候起的？")
    assert "丘疹" not in reply and "红斑" not in reply and "3天前" in reply


def test_weight_asked_in_jin_is_told_in_jin():
    # con-028 vitals weight_kg 15: a mother says 30斤 when asked 多少斤
    assert "30斤" in ask("consultation", "con-028", "现在体重多少斤？")
    assert "15公斤" in ask("consultation", "con-028", "孩子多重？")


def test_treatments_without_a_medicine_are_answered_as_such():
    # con-022 records only 外用“膏药”: 理疗、针灸 were not had, and no medicine list answers them
    reply = ask("consultation", "con-022", "做过理疗、针灸、推拿，或者打过封闭针没有？")
    assert reply.startswith("没做过") and "理疗" in reply and "膏药" not in reply
    assert "贴膏药" in ask("consultation", "con-022", "贴过膏药、吃过止疼药没有？管用不？")


def test_choking_and_falls_asked_plainly_are_answered():
    # tri-009: a record silent on choking and falls; asked with 呛不呛 / 跌过跤 they are denied, not
    # answered with the appetite or the cough
    reply = ask("triage", "tri-009", "吃东西、喝水的时候呛不呛？")
    assert "不呛" in reply
    reply = ask("triage", "tri-009", "最近跌过跤没有，头有没有磕着？")
    assert "咳嗽" not in reply and reply.startswith("没")


def test_how_bad_a_finding_said_by_its_verb_is():
    # 咳得厉害不厉害: the cough's clause, not 没听明白; 肿得厉害吗 with no swelling recorded: denied
    reply = ask("triage", "tri-009", "咳得厉害不厉害？")
    assert "咳" in reply and "没太听明白" not in reply
    assert "肿" in ask("triage", "tri-009", "肿得厉害吗？") and "没太听明白" not in ask("triage", "tri-009", "肿得厉害吗？")


def test_night_pain_is_told_from_the_story():
    # con-022: 夜间明显，压到右肩会痛醒
    reply = ask("consultation", "con-022", "晚上疼不疼，会不会疼醒？能不能压着右边睡？")
    assert "痛醒" in reply or "疼醒" in reply
    assert "几分我也说不上来" not in reply


def test_an_adult_told_by_a_relative_is_not_called_the_child():
    assert "孩子" not in ask("triage", "tri-009", "睡得好不好？")
    assert "孩子" in ask("consultation", "con-028", "睡得好不好？")


def test_which_came_first_is_answered_for_each():
    # con-028: 1天前出现发热 … 今晨发现手心、脚心及臀部出现红色小疱疹
    reply = ask("consultation", "con-028", "先发烧还是先起的疹子？")
    assert "发烧" in reply and "疱疹" in reply
    assert "没太听明白" not in ask("consultation", "con-028", "疹子是先出在嘴里还是先出在手脚上？")


def test_an_allergy_word_inside_another_question_is_not_answered_twice():
    reply = ask("diagnosis", "inp-02", "做过手术没有？对啥药过敏不？")
    assert reply.count("过敏") == 1
    # 抗过敏的药 is a medicine asked about, not the allergy history
    assert "过敏" not in ask("triage", "tri-034", "吃没吃过抗过敏的药，比如氯雷他定、西替利嗪？")


def test_itch_asked_by_its_verb_is_told():
    # tri-034: 瘙痒明显 (a finding whose verb, 痒, has no stem of its own)
    reply = ask("triage", "tri-034", "痒得厉害不厉害？夜里会不会痒醒？")
    assert "痒" in reply and "没太听明白" not in reply


def test_a_denial_in_the_history_answers_a_fall():
    # con-010: 否认近期感冒及头部外伤 (the site between 及 and the finding keeps it in the denial)
    reply = ask("consultation", "con-010", "这几天晕的时候摔倒过没有？")
    assert reply.startswith("没") and "没太注意" not in reply


def test_feeling_unwell_is_not_a_medicine_taken():
    # tri-030: 有轻度阵发性肚子不舒服 (服 of 舒服), 未用药
    reply = ask("triage", "tri-030", "最近吃过消炎药、抗生素吗？")
    assert "没吃" in reply and "不舒服" not in reply


def test_a_childs_birth_is_told_from_the_record_or_not_made_up():
    # inp-38: 足月顺产，出生体重3.2kg; inp-39: no birth history recorded (never a made-up 足月顺产)
    reply = ask("diagnosis", "inp-38", "孩子是足月生的吗？顺产还是剖的？")
    assert "足月" in reply and "3.2" in reply
    reply = ask("diagnosis", "inp-39", "孩子是足月生的吗？顺产还是剖的，生下来有啥问题没有？")
    assert "足月" not in reply and "发烧" not in reply


def test_an_exposure_asked_is_answered_as_one():
    # tri-034 (程序员; no exposure recorded): 碰过油漆、胶水 is not answered with the job alone, and the
    # strap's 接触处 is no chemical contact
    reply = ask("triage", "tri-034", "最近碰过啥花草、油漆、胶水或者化学品没有？")
    assert reply.startswith("没碰过") and "程序员" not in reply and "表带" not in reply
    reply = ask("triage", "tri-034", "您是干啥工作的，平时接触化学品、油漆没有？")
    assert "程序员" in reply and "没碰过" in reply


def test_weeping_skin_is_not_vaginal_fluid():
    # tri-034 (a man's rash, 无渗液): 流不流水 is the rash's; tri-005 (7 weeks pregnant): 下面流水 stays hers
    reply = ask("triage", "tri-034", "起没起水泡，流不流水，结没结痂？")
    assert "下面" not in reply and "水疱" in reply and "流水" in reply
    assert "下面" in ask("triage", "tri-005", "下面有没有流水？")


def test_general_questions_do_not_grow_denials_and_swelling_is_found_by_its_verb():
    # 尿少没少 / 瘦没瘦 are the general topic's own items (no 没有尿量减少 appended); tri-012 vomited blood
    # (呕鲜红色血2次): never 没有吐; con-023's 局部红肿发热 answers 肿得厉害吗 (never 不肿)
    assert "没有尿量减少" not in ask("diagnosis", "inp-23", "小便怎么样，尿少没少？大便正常吗？")
    assert "没有吐" not in ask("triage", "tri-012", "吐出来的是鲜红的，还是暗红、咖啡色的？里头有没有血块或者吃的东西？")
    reply = ask("consultation", "con-023", "脚趾头红不红、热不热、肿得厉害吗？")
    assert "肿" in reply and "不肿" not in reply


def test_a_finding_the_story_tells_is_known_when_asked_by_name():
    # con-031: 体检发现乙肝表面抗原阳性 a month ago; 否认其他肝病史 denies other liver disease, not this one;
    # 以前从未查过乙肝 is not a denial of hepatitis B
    for question in ("有没有乙肝？", "以前有没有乙肝？"):
        reply = ask("consultation", "con-031", question)
        assert reply.startswith("有") and "没有乙肝" not in reply, reply
    assert "没有乙肝" not in ask("consultation", "con-031", "以前查过乙肝莫得？")
    assert "乙肝" not in ask("consultation", "con-031", "好嘛，先去抽个血查个乙肝两对半和肝功。")
    # others with it (班里有2名小朋友患手足口病) are not the child's own history; an umbrella's kinds
    # (房颤 for 冠心病) are not the patient's history either
    assert not ask("consultation", "con-028", "以前得过手足口病吗？").startswith("有")
    assert "房颤" not in ask("diagnosis", "inp-44", "有没有高血压、糖尿病、冠心病、甲亢？")


def test_a_check_up_finding_patient_asked_how_they_feel_tells_it():
    # con-031 (体检发现乙肝表面抗原阳性…; 自觉偶有乏力、食欲稍差): 平时有没有哪里不舒服 is not the check-up again
    reply = ask("consultation", "con-031", "平时有莫得哪里不舒服？")
    assert "没劲" in reply and "体检" not in reply and "刚才说过" not in reply
