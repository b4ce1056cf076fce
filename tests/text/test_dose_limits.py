"""The label ceilings: every listed drug is a drug the lexicon reads, and a ceiling judges a dose."""

from medsim.text.dose_limits import dose_breaches, limits
from medsim.text.doses import drug_doses
from medsim.text.lexicon import get_lexicon


def test_every_listed_drug_is_a_canonical_drug_of_the_lexicon():
    lex = get_lexicon()
    for drug, lim in limits().items():
        assert lex.canonical(drug) == drug and lex.type_of(drug) == "drug", drug
        assert lim.source.startswith(("说明书", "CLINICAL")), drug
        # the lexicon's drug reader finds the drug written with a dose
        assert drug_doses(f"{drug}1mg每日一次")[0].drug == drug


def test_a_label_dose_passes_and_a_multiple_of_it_does_not():
    assert dose_breaches("左氧氟沙星0.5g每日一次静滴") == []
    (over,) = dose_breaches("左氧氟沙星0.5g每日三次静滴")
    assert "1500" in over.why and "750" in over.why
    assert dose_breaches("噻托溴铵18μg每日一次吸入") == []
    assert dose_breaches("噻托溴铵18μg每日三次吸入")


def test_per_kg_ceilings_apply_to_children_only_and_need_a_weight():
    text = "头孢曲松2g静滴每日一次"
    assert dose_breaches(text, weight_kg=12, age_years=2)  # about 167mg/kg; a child's most is 100
    assert dose_breaches(text, weight_kg=70, age_years=40) == []
    assert dose_breaches(text, age_years=2) == []  # no weight, nothing to divide by


def test_a_weekly_tablet_is_not_read_as_daily():
    (d,) = drug_doses("阿仑膦酸钠70mg每周一次")
    assert abs(d.per_day - 1 / 7) < 1e-9
    assert dose_breaches("阿仑膦酸钠70mg每周一次") == []
