"""Unit spellings and conversions: the one place the text layer and the fact checker share."""

import pytest

from medsim.text.units import canonical_unit, molar_mass, same_quantity, to_base, to_si


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
    assert same_quantity(0.5, "g", 500, "mg")
    assert not same_quantity(0.5, "g", 50, "mg")
    assert same_quantity(5, "mg", 5, "mL") is None  # a mass and a volume do not compare


@pytest.mark.parametrize(
    ("value", "unit", "si"),
    [
        (13.5, "g/dL", (135.0, "g/L")),
        (156, "umol/L", (156e-6, "mol/L")),
        (5.0, "×109/L", (5e9, "/L")),
        (5000, "10^6/L", (5e9, "/L")),
        (3, "mIU/mL", (3.0, "U/L")),
        (2, "万单位", (20000.0, "U")),
        (120, "mmHg", (120, "mmHg")),
    ],
)
def test_to_si_reduces_compound_lab_units(value, unit, si):
    got = to_si(value, unit)
    assert got[1] == si[1] and got[0] == pytest.approx(si[0])


def test_precision_as_printed_decides_equality():
    assert same_quantity(54.2, "μmol/L", 0.0542, "mmol/L", a_text="54.2", b_text="0.0542")
    assert same_quantity(38.2, "℃", 38.6, "℃", a_text="38.2", b_text="38.6") is False
    assert same_quantity(12.3, "×10^9/L", 12.30, "×10^9/L", a_text="12.3", b_text="12.30")


def test_molar_and_mass_concentrations_meet_through_the_molar_mass():
    assert molar_mass("TBIL") == molar_mass("总胆红素") == 584.66
    assert same_quantity(1.0, "mg/dL", 17.1, "μmol/L", b_text="17.1", molar_mass=molar_mass("总胆红素"))
    assert same_quantity(1.0, "mg/dL", 17.1, "μmol/L") is None
    assert molar_mass("血常规") is None


def test_canonical_unit_spellings():
    assert canonical_unit("mmhg") == "mmHg"
    assert canonical_unit("次/min") == "次/分"
    assert canonical_unit("°C") == "℃"
    assert canonical_unit("︒C") == "℃"
    assert canonical_unit("秒") == "s"
    assert canonical_unit("微摩尔/升") == "μmol/L"
