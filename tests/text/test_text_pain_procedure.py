"""Meaning the reply check set 6 showed missing from the text layer: a site's pain with its kind
written in between, a procedure that tells its condition, a bracket that names the finding before it."""

from __future__ import annotations

from medsim.text import analyze, extract_entities, get_lexicon


def _polarity(text: str) -> dict[str, str]:
    return {f.norm: f.polarity for f in analyze(text).findings}


def test_a_site_pain_with_its_kind_in_between_is_the_site_pain():
    assert _polarity("伴中上腹阵发性绞痛")["腹痛"] == "present"
    assert _polarity("3天前出现右下腹持续性胀痛")["腹痛"] == "present"
    assert _polarity("无上腹部隐痛")["腹痛"] == "absent"
    assert _polarity("胸骨后压榨样疼痛")["胸痛"] == "present"
    # a pain with no site before its kind stays a plain pain, and a word that is no site adds none
    assert "腹痛" not in _polarity("持续性隐痛")
    assert "腹痛" not in _polarity("心里很痛")


def test_a_procedure_done_for_one_condition_tells_that_condition():
    lexicon = get_lexicon()
    assert lexicon.conditions_of("心脏支架") == {"冠状动脉粥样硬化性心脏病"}
    assert lexicon.conditions_of("冠脉搭桥") == {"冠状动脉粥样硬化性心脏病"}
    # a procedure with more than one use tells no condition
    assert lexicon.conditions_of("透析") == set()
    assert lexicon.conditions_of("阑尾切除术") == set()
    found = {e.norm for e in extract_entities("父亲60岁时放过支架") if e.type == "procedure"}
    assert found == {"经皮冠状动脉介入治疗"}


def test_a_bracket_naming_a_denied_finding_is_denied_too():
    assert _polarity("未发生过完全尿不出（急性尿潴留）")["尿潴留"] == "absent"
    assert _polarity("出现尿不出（急性尿潴留）")["尿潴留"] == "present"
