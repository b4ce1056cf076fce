"""Lexicon coverage of CMB-Clin and the bundled cases (figures printed with -s)."""

from pathlib import Path

import pytest

from medsim.text.coverage import measure, measure_cases

CMB = Path(__file__).resolve().parents[3] / "shared" / "data" / "cmb-clin_CMB-test-qa.json"
CASES = Path(__file__).resolve().parents[2] / "scenarios" / "cases"


@pytest.mark.skipif(not CMB.exists(), reason="CMB-Clin data is read from ../shared, not shipped")
def test_cmb_clin_coverage():
    res = measure(CMB)
    for key, r in res.items():
        print(key, r["hit"], r["total"], r["share"])
    for key, r in res.items():
        assert r["share"] >= 0.8, (key, r["misses"])


@pytest.mark.skipif(not any(CASES.glob("*.yaml")), reason="no bundled cases yet")
def test_bundled_cases_coverage():
    res = measure_cases(CASES)
    for key, r in res.items():
        print(key, r["hit"], r["total"], r["share"])
    for key, r in res.items():
        assert r["share"] >= 0.8, (key, r["misses"])
