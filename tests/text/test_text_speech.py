"""Polarity in patients' and clinicians' own words (the error classes seen on CMDD, issue 13):
negation scope in unpunctuated speech, 不 as a degree word, time phrases with 没, resolved
symptoms, hypotheticals and worries, questions, trailing negation, negation inside a finding."""

import pytest

from medsim.text import analyze
from medsim.text.analysis import judge_spans


def _f(text):
    return {f.entity.norm: f for f in analyze(text).findings}


@pytest.mark.parametrize(
    ("text", "absent", "present"),
    [
        ("现在没发烧就是咳嗽", "发热", "咳嗽"),  # 就是 opens a new predicate
        ("没有任何感冒症状就是发烧", None, "发热"),
        ("孩子没有鼻塞但是一直流鼻涕", "鼻塞", "流涕"),
        ("今天没吐，晚上又烧了", "呕吐", "发热"),
    ],
)
def test_negation_stops_where_a_new_predicate_starts(text, absent, present):
    f = _f(text)
    if absent:
        assert f[absent].polarity == "absent"
    assert f[present].polarity == "present"


def test_negation_still_covers_a_list():
    f = _f("无发热、咳嗽、咳痰，否认高血压、糖尿病、冠心病等病史。")
    assert {f[k].polarity for k in ("发热", "咳嗽", "咳痰", "高血压", "糖尿病")} == {"absent"}
    assert f["冠状动脉粥样硬化性心脏病"].historical
    assert _f("没有鼻塞流鼻涕")["流涕"].polarity == "absent"


@pytest.mark.parametrize("text", ["输了液之后晚上不太咳嗽了", "平时也不怎么咳嗽", "不是每次都吐，吐一大口"])
def test_bu_as_a_degree_word_leaves_the_finding_present(text):
    assert all(f.polarity == "present" for f in analyze(text).findings)
    assert analyze(text).findings


def test_time_phrases_with_mei_are_not_negations():
    f = _f("吃完没多久就吐了")
    assert f["呕吐"].polarity == "present"


def test_a_potential_complement_is_a_symptom_that_is_there():
    f = _f("有痰咳不出来，晚上睡不好")
    assert f["咳痰"].polarity == "present"


def test_resolved_symptom_is_present_and_historical():
    f = _f("发烧好了，还有点咳嗽")
    assert f["发热"].polarity == "present" and f["发热"].historical
    assert not f["咳嗽"].historical


@pytest.mark.parametrize(
    ("text", "term"),
    [("要是有肠炎怎么办", "肠炎"), ("我怕是消化不良", "功能性消化不良"), ("感觉像有痰", "咳痰"),
     ("如果不发烧就不用去医院", "发热"), ("需排除肺炎", "肺炎"), ("注意观察有无出血", "出血")],
)
def test_hypotheticals_worries_and_rule_outs_are_uncertain(text, term):
    assert _f(text)[term].polarity == "uncertain"


def test_ruled_out_stays_absent():
    assert _f("已排除肺炎")["肺炎"].polarity == "absent"


def test_a_question_hedges_the_diagnosis_it_names_not_the_symptom_reported():
    assert _f("那发烧怎么办？")["发热"].polarity == "present"
    assert _f("是肺炎吗？")["肺炎"].polarity == "uncertain"
    assert _f("他这个是不是细菌感染了呢")  # parsed
    assert _f("有没有发烧？")["发热"].polarity == "uncertain"


def test_trailing_negation_reaches_back_over_its_list():
    f = _f("腹痛恶心都没有")
    assert f["腹痛"].polarity == "absent" and f["恶心"].polarity == "absent"
    # a time word in between: cough at night, none in the daytime
    assert _f("就是晚上咳嗽白天没有")["咳嗽"].polarity == "present"


@pytest.mark.parametrize("text", ["现在发烧是没有", "发烧倒是没有，就是咳嗽", "发烧的症状都没有"])
def test_trailing_negation_reaches_over_a_copula_or_a_noun_of_kind(text):
    # a reply puts 是 / 倒是 / 的症状 / 表现 between the finding and the trailing 没有
    assert _f(text)["发热"].polarity == "absent"


def test_a_trailing_negation_that_compares_or_goes_on_leaves_the_finding():
    assert _f("咳嗽是没有以前厉害")["咳嗽"].polarity == "present"
    assert _f("咳嗽是有的")["咳嗽"].polarity == "present"


def test_negation_written_between_body_part_and_pain():
    f = _f("肚子不疼")
    assert f["腹痛"].polarity == "absent"
    assert _f("头还是疼")["头痛"].polarity == "present"


def test_negation_inside_a_marked_span():
    # CMDD marks 不流鼻涕 or 肚子不胀 as one stretch: the 不 inside negates it
    text = "不流鼻涕，肚子不胀，精神不太好"
    spans = [(0, 4), (5, 9), (10, 15)]
    got = [f.polarity for f in judge_spans(text, spans)]
    assert got == ["absent", "absent", "present"]


def test_lexicon_terms_holding_a_negation_keep_their_meaning():
    assert _f("诊断为非霍奇金淋巴瘤")["非霍奇金淋巴瘤"].polarity == "present"
    assert _f("四肢无力2天")["肢体无力"].polarity == "present"


@pytest.mark.parametrize("text", ["患者未服用美托洛尔。", "没有吃退烧药", "近期未服用非甾体抗炎药"])
def test_a_verb_between_negation_and_drug_stays_in_scope(text):
    assert [f.polarity for f in analyze(text).findings if f.type == "drug"] == ["absent"]


@pytest.mark.parametrize(
    ("text", "term"),
    [("不考虑是肺炎", "肺炎"), ("暂不考虑川崎病", "川崎病"), ("肺炎排除了", "肺炎"), ("川崎病已经排除", "川崎病"),
     ("基本排除肺炎", "肺炎")],
)
def test_a_diagnosis_ruled_out_before_or_after_it_is_absent(text, term):
    f = _f(text)[term]
    assert f.polarity == "absent", (text, f.polarity, f.cue)


def test_considering_and_not_excluding_stay_uncertain():
    assert _f("考虑是肺炎")["肺炎"].polarity == "uncertain"
    assert _f("不能排除肺炎")["肺炎"].polarity == "uncertain"


@pytest.mark.parametrize(
    ("text", "term"),
    [("怕他发烧", "发热"), ("我怕引起肺炎", "肺炎"), ("不知道是不是过敏", "过敏反应"), ("不知道会不会是肺炎", "肺炎")],
)
def test_worry_and_not_knowing_whether_are_uncertain_not_absent(text, term):
    f = _f(text)[term]
    assert f.polarity == "uncertain", (text, f.polarity, f.cue)


def test_a_named_cause_still_leaves_its_effect_present_and_fear_of_cold_is_a_finding():
    assert _f("是不是受凉引起的腹泻")["腹泻"].polarity == "present"
    assert [f.polarity for f in analyze("宝宝怕冷").findings] == ["present"]
