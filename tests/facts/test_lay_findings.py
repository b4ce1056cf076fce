"""Recorded findings in a family's or a patient's own words: the lay phrase names what the record
writes in clinical terms (嘴唇干 = 口唇干燥, 哭的时候眼泪少 = 哭时泪少), and a finding the record gives
in a narrower kind is the finding (呕咖啡样物 is 呕血, which is vomiting)."""

from __future__ import annotations

import pytest

from medsim.facts import check
from medsim.scenario.schema import Case, Demographics
from medsim.text import analyze, get_lexicon


@pytest.fixture
def dehydrated_infant() -> Case:
    return Case(
        id="t-dehydration", source="synthetic", demographics=Demographics(sex="男", age=1),
        chief_complaint="腹泻3天，尿少半天",
        hpi="患儿3天前出现腹泻，每日8～10次，为蛋花汤样稀水便，伴呕吐2次，半天来尿量明显减少。",
        physical_exam="精神萎靡，前囟凹陷，眼窝明显凹陷，哭时泪少，口唇黏膜干燥，皮肤弹性较差，四肢尚温。",
        diagnosis=["急性腹泻病", "中度脱水"],
    )


@pytest.fixture
def ulcer_bleeding() -> Case:
    return Case(
        id="t-ulcer-bleed", source="synthetic", demographics=Demographics(sex="男", age=45),
        chief_complaint="黑便2天",
        hpi="患者2天前排黑色柏油样便2次，今晨呕咖啡样物1次，约200ml，伴头晕、乏力，起立时眼前发黑。否认腹痛。",
        diagnosis=["十二指肠球部溃疡伴出血"],
    )


@pytest.mark.parametrize(("lay", "term"), [
    ("嘴唇干", "口唇干燥"), ("哭的时候眼泪少", "泪少"), ("囟门凹下去", "前囟凹陷"), ("眼睛凹进去", "眼窝凹陷"),
    ("皮肤没弹性", "皮肤弹性差"), ("拉黑色柏油样大便", "黑便"), ("吐咖啡色", "呕血"), ("手脚冰凉", "四肢发凉"),
])
def test_lay_phrase_reads_as_the_clinical_term(lay, term):
    assert term in {f.norm for f in analyze(f"孩子{lay}。").findings if f.polarity == "present"}


def test_dry_lips_are_not_dry_mouth():
    # 嘴唇干 is a sign on the lips (口唇干燥), not the symptom of a dry mouth (口干)
    assert get_lexicon().canonical("嘴唇干") == "口唇干燥"
    assert get_lexicon().canonical("嘴干") == "口干"


def test_a_family_describing_the_signs_is_supported(dehydrated_infant):
    report = check(dehydrated_infant, "孩子眼睛凹进去了，哭的时候眼泪少，嘴唇干，皮肤没弹性。", key_facts=[])
    assert report.statuses() == {"supported"} and report.checked == 4


def test_a_sign_the_record_does_not_give_is_still_flagged(dehydrated_infant):
    report = check(dehydrated_infant, "孩子手脚冰凉。", key_facts=[])
    assert report.statuses() == {"unsupported"}


def test_lay_words_for_a_bleed_are_supported(ulcer_bleeding):
    report = check(ulcer_bleeding, "病人拉了2次黑色柏油样大便，今早吐了1次咖啡色的东西，站起来时眼前发黑。", key_facts=[])
    assert report.statuses() == {"supported"} and report.checked >= 3


def test_a_narrower_recorded_finding_supports_the_broader_one(ulcer_bleeding):
    assert check(ulcer_bleeding, "患者有呕吐。", key_facts=[]).statuses() == {"supported"}
    # and denying the broader one contradicts the record
    assert check(ulcer_bleeding, "患者无呕吐。", key_facts=[]).statuses() == {"contradicted"}


def test_a_broader_finding_does_not_support_a_narrower_claim():
    case = Case(id="t-vomit", source="synthetic", demographics=Demographics(sex="女", age=30),
                chief_complaint="呕吐1天", hpi="患者1天前进食后出现呕吐3次，为胃内容物。",
                diagnosis=["急性胃肠炎"])
    assert check(case, "患者呕血3次。", key_facts=[]).statuses() == {"unsupported"}


def test_a_one_character_symptom_is_found_with_its_neighbour_in_the_record():
    record = "现病史：5年来活动后气促。3天前受凉后咳黄脓痰，气促明显加重，静息时亦喘，夜间不能平卧。"
    assert check(record, "静息亦喘。", key_facts=[]).statuses() == {"supported"}
