"""medsim.text.doses: doses written for a drug, and an answer's doses against the case's."""

from medsim.text.doses import dose_conflicts, drug_doses


def _read(text):
    return [(d.drug, d.low, d.high, d.unit, d.per_day, d.loading, d.daily) for d in drug_doses(text)]


def test_doses_with_ranges_units_and_frequencies():
    assert _read("阿莫西林0.5–1g口服每8小时1次，疗程5–7天") == [("阿莫西林", 500.0, 1000.0, "mg", 3.0, False, False)]
    assert _read("阿司匹林100mg qd，氯吡格雷75mg qd") == [("阿司匹林", 100.0, 100.0, "mg", 1, False, False),
                                                     ("氯吡格雷", 75.0, 75.0, "mg", 1, False, False)]
    assert _read("甲巯咪唑10–30mg/d") == [("甲巯咪唑", 10.0, 30.0, "mg", None, False, True)]


def test_loading_dose_is_told_from_the_maintenance_dose():
    loading, maintenance = drug_doses("替格瑞洛负荷量180mg，之后90mg每日两次")
    assert loading.loading and loading.low == 180.0
    assert not maintenance.loading and maintenance.per_day == 2.0


def test_what_is_not_a_dose_given():
    # a ceiling is not a dose; the weight-based dose is read per kg (see test_text_doses_per_kg)
    assert [(d.low, d.unit) for d in drug_doses("阿替普酶0.9mg/kg，最大不超过90mg")] == [(0.9, "mg/kg")]
    assert drug_doses("布洛芬混悬液100ml:2g，即每1ml含布洛芬20mg，一次4ml") == []  # strengths and a volume
    assert drug_doses("胰岛素0.1U/kg/h持续静脉泵入") == []


def test_each_dose_belongs_to_its_own_drug():
    doses = drug_doses("雷贝拉唑20mg bid＋阿莫西林1g bid＋呋喃唑酮100mg bid")
    assert [(d.drug, d.low) for d in doses if d.drug == "阿莫西林"] == [("阿莫西林", 1000.0)]


def test_wrong_frequency_or_dose_conflicts_with_the_case():
    gold = ["替格瑞洛180mg负荷后90mg每日两次"]
    assert [d.text for d, _ in dose_conflicts("替格瑞洛90mg每日一次", gold)] == ["90mg每日一次"]
    assert dose_conflicts("替格瑞洛90mg bid", gold) == []
    cap = ["阿莫西林0.5–1g口服每8小时1次"]
    assert dose_conflicts("阿莫西林1g tid", cap) == []  # inside the range
    assert len(dose_conflicts("阿莫西林0.5g口服每日1次", cap)) == 1
    assert len(dose_conflicts("阿昔洛韦200mg每日5次", ["阿昔洛韦800mg 每日5次"])) == 1


def test_what_cannot_be_compared_is_not_judged():
    assert dose_conflicts("阿司匹林300mg嚼服", ["阿司匹林100mg每日一次"]) == []  # a loading dose the case does not give
    assert dose_conflicts("甲巯咪唑10mg bid", ["甲巯咪唑10–30mg/d"]) == []  # 20 mg a day, inside the day's range
    assert dose_conflicts("二甲双胍0.5g bid", ["阿司匹林100mg qd"]) == []  # the case doses another drug
    # a dose given in parts: 10% as a bolus, the rest by infusion
    assert dose_conflicts("阿替普酶6.3mg静推，其余56.7mg静滴1小时", ["阿替普酶63mg"]) == []
