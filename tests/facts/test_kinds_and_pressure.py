"""A finding's kinds and a blood pressure's halves, read as a physician reads the record."""

from medsim.facts.check import check

RASH = ("现病史：患者4天前右侧腰背部出现刺痛，2天前疼痛处出现成簇水疱，沿肋间分布，未过中线。"
        "双下肢无皮疹。")
BLEED = "现病史：患者2周来排便后手纸带鲜血，无黏液脓血便，无腹痛。"
SHOCK = ("既往史：高血压病史8年，血压最高180/110mmHg。\n"
         "生命体征：T 36.8℃，P 128次/分，R 26次/分，BP 72/44mmHg，SpO2 90%")


def statuses(record: str, text: str) -> list[tuple[str, str]]:
    return [(f.status, f.text) for f in check(record, text).findings]


def test_a_denial_in_one_place_does_not_deny_a_kind_given_elsewhere():
    # the record's 水疱 are a rash; 双下肢无皮疹 denies it only on the legs
    assert ("supported", "皮疹") in statuses(RASH, "右侧腰背部带状分布的皮疹伴神经痛。")


def test_a_denied_form_does_not_deny_bleeding_the_record_gives():
    assert ("supported", "便血") in statuses(BLEED, "患者近2周有便血。")
    # and the broad denial is wrong when the record gives a kind of it
    assert any(s == "contradicted" for s, _ in statuses(BLEED, "患者无便血。"))


def test_a_broad_denial_still_contradicts_when_no_kind_is_recorded():
    record = "体格检查：双下肢无水肿。"
    assert any(s == "contradicted" for s, _ in statuses(record, "患者水肿明显。"))


def test_systolic_and_diastolic_are_the_halves_of_the_recorded_bp():
    assert ("supported", "收缩压72mmHg") in statuses(SHOCK, "收缩压72mmHg，提示休克。")
    assert ("value_mismatch", "收缩压92mmHg") in statuses(SHOCK, "收缩压92mmHg。")
    assert ("supported", "舒张压44mmHg") in statuses(SHOCK, "舒张压44mmHg。")


def test_a_threshold_holds_when_any_recorded_value_meets_it():
    # the history's 180/110 is not the arrival pressure; 72 < 90 holds
    found = statuses(SHOCK, "收缩压<90mmHg，属休克。")
    assert found and all(s == "supported" for s, _ in found if "90" in _)


def test_a_difference_between_arms_is_not_a_pressure_value():
    found = statuses(SHOCK, "两上肢收缩压相差30mmHg。")
    assert not any(s in ("value_mismatch", "contradicted") for s, _ in found)


def test_a_finding_the_record_gives_as_a_vital_sign_is_supported():
    vitals = "生命体征：T 39.4℃，P 44次/分，R 22次/分，BP 84/52mmHg"
    assert ("supported", "心动过缓") in statuses(vitals, "心动过缓，需警惕高钾血症。")
    assert ("supported", "高热") in statuses(vitals, "患者高热。")
    assert ("supported", "低血压") in statuses(vitals, "存在低血压。")
    # the wrong direction is not supported by the number
    assert ("supported", "心动过速") not in statuses(vitals, "心动过速。")
    assert ("supported", "低热") not in statuses(vitals, "低热。")


def test_an_earlier_item_of_a_family_list_is_not_charged_as_the_familys():
    record = "既往史：过敏性鼻炎5年。家族史：母亲有哮喘。"
    found = statuses(record, "有过敏性鼻炎及哮喘家族史。")
    assert ("supported", "哮喘") in found and not any(s == "contradicted" for s, _ in found)
    # the item 家族史 stands on is still held to the record's owner
    assert any(s == "contradicted" for s, _ in statuses(record, "有过敏性鼻炎家族史。"))
