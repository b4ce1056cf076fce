"""Unit conversion for the fact checker."""

from medsim.text.units import canonical_unit, same_quantity, to_base


def test_mass_to_mg():
    assert to_base(0.5, "g") == (500.0, "mg")
    assert to_base(500, "mg") == (500.0, "mg")
    assert to_base(100, "μg") == (0.1, "mg")
    assert to_base(100, "ug") == (0.1, "mg")
    assert to_base(1, "毫克") == (1.0, "mg")


def test_volume_to_ml():
    assert to_base(1.5, "L") == (1500.0, "mL")
    assert to_base(10, "ml") == (10.0, "mL")


def test_lab_units_kept_but_spelled_once():
    assert to_base(156, "umol/L") == (156, "μmol/L")
    assert to_base(156, "µmol/l") == (156, "μmol/L")
    assert to_base(5.0, "×109/L") == (5.0, "×10^9/L")
    assert to_base(3.2, "mmol/l") == (3.2, "mmol/L")
    assert to_base(37.8, "℃") == (37.8, "℃")


def test_same_quantity():
    assert same_quantity((0.5, "g"), (500, "mg"))
    assert not same_quantity((0.5, "g"), (50, "mg"))
    assert not same_quantity((5, "mg"), (5, "mL"))


def test_canonical_unit_spellings():
    assert canonical_unit("mmhg") == "mmHg"
    assert canonical_unit("次/min") == "次/分"
    assert canonical_unit("°C") == "℃"
