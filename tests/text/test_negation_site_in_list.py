"""A list item's own site between the joiner and the finding keeps it inside the negation."""

from medsim.text.analysis import findings


def _polarity(text: str) -> dict[str, str]:
    return {f.entity.norm: f.polarity for f in findings(text)}


def test_a_site_after_the_joiner_stays_in_the_list():
    assert _polarity("否认近期感冒及头部外伤") == {"感冒": "absent", "外伤": "absent"}
    assert _polarity("无发热及双下肢水肿")["水肿"] == "absent"


def test_a_new_clause_with_a_site_is_not_negated():
    assert _polarity("无发热，双下肢水肿")["水肿"] == "present"
    assert _polarity("否认高血压，头部外伤3年")["外伤"] == "present"


def test_dark_urine_denied_is_not_anuria():
    # 无尿色加深 (no dark urine) must not read as 无尿 (anuria) present
    assert _polarity("无皮肤巩膜黄染，无尿色加深") == {"黄疸": "absent", "尿色加深": "absent"}
    assert _polarity("24小时无尿")["无尿"] == "present"
