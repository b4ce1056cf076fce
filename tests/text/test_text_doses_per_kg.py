"""medsim.text.doses: weight-based doses are read per kg, and as a mass when the weight is known."""

from medsim.text.doses import dose_conflicts, drug_doses

# Kawasaki disease, 15kg child: IVIG 2g/kg as one infusion; aspirin 30–50mg/(kg·d), then 3–5mg/(kg·d)
KAWASAKI = ["静脉丙种球蛋白2g/kg（30g）单次输注，阿司匹林30～50mg/(kg·d)，热退48～72小时后减为3～5mg/(kg·d)"]
# acute ischaemic stroke, 70kg: alteplase 0.9mg/kg = 63mg
STROKE = ["阿替普酶0.9mg/kg（63mg）静脉溶栓"]


def test_per_kg_doses_are_read_per_dose_or_per_day():
    ivig, = [d for d in drug_doses("丙种球蛋白2g/kg单次输注") if d.drug == "人免疫球蛋白"]
    assert (ivig.low, ivig.unit, ivig.daily) == (2000.0, "mg/kg", False)
    asa = drug_doses("阿司匹林30～50mg/(kg·d)，分3次口服")
    assert [(d.low, d.high, d.unit, d.daily) for d in asa] == [(30.0, 50.0, "mg/kg", True)]
    assert drug_doses("胰岛素0.1U/kg/h持续静脉泵入") == []  # a rate, not a dose


def test_with_the_weight_a_per_kg_dose_is_a_mass():
    asa = drug_doses("阿司匹林3～5mg/kg/d", weight_kg=15)
    assert [(d.low, d.high, d.unit, d.daily) for d in asa] == [(45.0, 75.0, "mg", True)]


def test_a_divided_ivig_course_is_not_the_single_2g_per_kg_dose():
    got = dose_conflicts("丙种球蛋白400mg/kg每日一次×5天", KAWASAKI, weight_kg=15)
    assert [d.text for d, _ in got] == ["400mg/kg"]
    assert dose_conflicts("IVIG 2g/kg", KAWASAKI, weight_kg=15) == []
    # both aspirin steps of the case are read, so either is right
    assert dose_conflicts("阿司匹林30～50mg/(kg·d)；热退后阿司匹林3～5mg/(kg·d)", KAWASAKI, weight_kg=15) == []


def test_a_total_past_the_weight_based_dose_conflicts():
    assert [d.text for d, _ in dose_conflicts("阿替普酶静脉溶栓，总量90mg", STROKE, weight_kg=70)] == ["90mg"]
    assert dose_conflicts("阿替普酶按70kg算共63mg", STROKE, weight_kg=70) == []
    # the total and then its parts (10% bolus, the rest over an hour) add up
    split = "阿替普酶静脉溶栓，0.9mg/kg，总量63mg（6.3mg静推1分钟，余56.7mg于60分钟内泵入）"
    assert dose_conflicts(split, STROKE, weight_kg=70) == []


def test_per_kg_is_compared_with_per_kg_without_the_weight():
    iron = ["元素铁每日3–6mg/kg，分2–3次口服"]  # iron-deficiency anaemia in a toddler
    assert len(dose_conflicts("元素铁每日15mg/kg，分3次口服", iron)) == 1
    assert dose_conflicts("口服铁剂每日4mg/kg", iron) == []


def test_a_drug_and_its_dose_written_apart_are_two_parts_of_the_item():
    from medsim.text.match import match_sets, split_compound

    assert split_compound("IVIG 2g/kg") == ["IVIG", "2g/kg"]
    assert split_compound("ASA 30～50mg/kg/d→3～5mg/kg/d") == ["ASA", "30～50mg/kg/d", "3～5mg/kg/d"]
    gold = ["丙种球蛋白|IVIG", "2g/kg|30g", "阿司匹林"]
    pairs, _, missed = match_sets(["IVIG 2g/kg", "阿司匹林"], gold)
    assert missed == [] and len(pairs) == 3
