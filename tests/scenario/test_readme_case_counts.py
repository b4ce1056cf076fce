"""scenarios/README.md's table of where the cases come from gives each case file's count: it must be
the count the files hold (a new user compares it with `medsim list`)."""

import re
from pathlib import Path

import yaml

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _count(name: str) -> int:
    data = yaml.safe_load((SCENARIOS / "cases" / name).read_text(encoding="utf-8"))
    return len(data["cases"] if isinstance(data, dict) else data)


def test_the_origin_table_counts_what_each_case_file_holds():
    table = SCENARIOS.joinpath("README.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("|") and ("`cases/" in line or "one file each" in line)]
    checked = 0
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        files = re.findall(r"`cases/([\w.]+\.yaml)`", cells[1])
        counts = [int(n) for n in re.findall(r"\d+", cells[2])]
        if "one file each" in cells[1]:
            names = [s.strip() for s in cells[0].split(",")]
            files = [f"{n}.yaml" for n in names]
        assert len(files) == len(counts), row
        for name, n in zip(files, counts, strict=True):
            assert _count(name) == n, f"{name}: README says {n}, the file holds {_count(name)}"
            checked += 1
    assert checked == 9  # every case file under scenarios/cases
