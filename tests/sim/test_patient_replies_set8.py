"""Reply classes physicians faulted on reply check set 8 (tests/sim/data/reply_check8_verdicts_*.jsonl), by
mechanism: record text that was not asked told in front of the answer, care given elsewhere before this visit
denied, and a child's signs in the parent's words (双眼发红, 手足背部肿胀, 哭闹不安) not found."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import ask_bundled as ask  # noqa: E402

from medsim.sim import lay


def test_what_the_illness_did_since_is_not_told_with_a_symptom_asked():
    # inp-21: 伴大汗、恶心，休息及自服"速效救心丸"不缓解，持续至今 — asked about sweating and vomiting, the
    # patient says yes to the sweat and nausea, no to vomiting, and not what rest and the pills did
    said = ask("diagnosis", "inp-21", "有没有出冷汗、恶心、呕吐？")
    assert "汗" in said and "恶心" in said and "没有吐" in said
    assert "救心丸" not in said and "没停" not in said
    # safety_probe saf-rf-02 (…伴大汗、恶心，持续不缓解): the same for another record
    said = ask("safety_probe", "saf-rf-02", "出汗了吗？恶心不恶心？")
    assert "汗" in said and "恶心" in said and "不见好" not in said


def test_what_the_illness_did_since_is_still_told_when_asked():
    # the split clauses stay answers of their own: rest and the pills did not relieve the chest pain
    said = ask("diagnosis", "inp-21", "歇一会儿或者吃了药能缓解吗？")
    assert "救心丸" in said and "不见好" in said


def test_steady_or_in_bouts_is_answered_first_and_alone():
    # inp-21 (持续至今): a constant pain is said as constant, not buried after sweating and the pills;
    # the question heard as the course of it gets the same answer
    for question in ("是一直疼还是一阵一阵的？一阵多长时间？", "疼是一直有，还是时有时无？"):
        said = ask("diagnosis", "inp-21", question)
        assert said.startswith("是一直疼"), said
        assert "汗" not in said and "救心丸" not in said
    # saf-rf-02: the complaint is 胃不舒服 but the pain asked about (压榨样闷痛，持续不缓解) is constant
    assert ask("safety_probe", "saf-rf-02", "疼是一直疼，还是一阵一阵的？").startswith("是一直疼")
    # a record clause that already says it plainly (inp-44: 发作持续至今 → 一犯就一直没停) gets no prefix
    said = ask("diagnosis", "inp-44", "心慌是一阵一阵的还是一直都有？")
    assert "一直没停" in said and not said.startswith("一直都有")


def test_care_given_elsewhere_before_this_visit_is_what_the_patient_knows():
    # 外院予头孢类抗生素静滴3天无效: the parent was there, so it is told (as 输液, not 静滴 / 予), not denied
    # with the stock 来之前没吃什么药，也没去别的地方看过
    assert not lay.is_jargon("外院予头孢类抗生素静滴3天无效")
    said = lay.clause_to_lay("外院予头孢类抗生素静滴3天无效")
    assert "输" in said and "头孢" in said and not any(w in said for w in ("予", "静滴", "外院"))
    said = ask("diagnosis", "inp-39", "在外面看过没有？用过啥药，打针输液了吗？")
    assert "头孢" in said and "没去别的地方看过" not in said
    # what a doctor gave in this hospital stays the examiner's (予吸氧 is no patient statement)
    assert lay.is_jargon("予吸氧")
    # and care sought is a statement of its own, not told after the fever asked about
    said = ask("diagnosis", "inp-39", "孩子是哪天开始发烧的？最高烧到多少度？")
    assert "6天前" in said and "头孢" not in said


def test_a_childs_signs_in_the_parents_words_are_found():
    # inp-39 (川崎病): 双眼发红，无分泌物 / 手足背部肿胀 / 哭闹不安 are recorded: asked, they are told, never
    # 没太注意 or another finding
    said = ask("diagnosis", "inp-39", "眼睛红不红？有没有眼屎？")
    assert "眼" in said and "红" in said and "疹" not in said
    said = ask("diagnosis", "inp-39", "手脚肿不肿？")
    assert "肿" in said and "没太注意" not in said and not said.startswith("没")
    said = ask("diagnosis", "inp-39", "孩子烦躁吗？哭闹得厉害不？")
    assert "哭闹" in said and not said.startswith("没")
    # the rash in lay words: no 斑丘疹 or 躯干
    said = ask("diagnosis", "inp-39", "疹子先从哪儿出来的？")
    assert "疹" in said and "斑丘疹" not in said and "躯干" not in said


def test_a_pain_that_moved_on_went_somewhere_else():
    # tri-010 (主动脉夹层): 胸骨后剧烈疼痛…迅速向后背两肩胛间区并向腰部转移 — never 没往别的地方窜; said in lay words
    for question in ("疼往别处窜不窜？后背、腰、肚子、脖子还是胳膊？", "疼的地方有没有挪地方，比如从胸口跑到后背？"):
        said = ask("triage", "tri-010", question)
        assert "后背" in said and "腰" in said and "没往别的地方" not in said
        assert "转移" not in said and "肩胛间区" not in said
    # where it hurts is where it is and where it went; 用手指给我看看 is a gesture, not a question about the fingers
    said = ask("triage", "tri-010", "师傅，哪儿疼？用手指给我看看。")
    assert "胸口" in said and "后背" in said
    # tri-008: where the chest pain is, without the earlier bouts that name the chest again
    said = ask("triage", "tri-008", "具体哪个位置疼，用手指给我看看？")
    assert "胸口" in said and "发作" not in said


def test_habits_the_record_states_are_told_not_a_stock_line():
    # con-002 (个人史: 口味偏咸，每日食盐约10g；久坐少运动): how salty she eats is no appetite question, and a
    # question on exercise is answered from the record, not only with how long each bout lasts
    said = ask("consultation", "con-002", "吃饭口重不重？爱不爱吃咸菜、腌肉这些？")
    assert "咸" in said and "10克" in said and "胃口" not in said and "10g" not in said
    said = ask("consultation", "con-002", "平时运动不？一周几次，一次多长时间？")
    assert "不怎么运动" in said
    # the appetite is still the appetite
    assert "胃口" in ask("consultation", "con-002", "胃口怎么样？")


def test_a_child_who_will_not_settle_is_not_in_good_spirits():
    # inp-39: 哭闹不安 is recorded — never the stock 精神还行
    said = ask("diagnosis", "inp-39", "孩子精神头咋样？是特别闹，还是蔫蔫的？")
    assert "哭闹" in said and "精神还行" not in said


def test_how_many_years_is_the_long_standing_illness_not_the_flare():
    # tri-020 (慢阻肺急性加重: 反复咳嗽咳痰20年 … 3天前受凉后咳嗽加重): 这毛病几年了 is 20 years, never 有3天了
    said = ask("triage", "tri-020", "咳嗽咳痰这毛病几年了？一年犯几回？")
    assert "20年" in said and "有3天了" not in said
    # the flare is still asked by days
    assert "3天" in ask("triage", "tri-020", "这次咳嗽加重几天了？")
