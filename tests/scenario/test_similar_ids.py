"""A mistyped id gets the id it most likely meant: the same number without zero padding or in another
case first (inp-1 is inp-01, not inp-41), else ids that look alike; nothing when nothing is close."""

from __future__ import annotations

from medsim.scenario.registry import similar_ids

IDS = [f"inp-{i:02d}" for i in range(1, 45)]


def test_an_unpadded_or_upper_case_number_means_the_padded_id() -> None:
    assert similar_ids("inp-1", IDS) == ["inp-01"]
    assert similar_ids("INP_7", IDS) == ["inp-07"]
    assert similar_ids("tri-1", ["tri-001", "tri-010", "tri-021", "tri-031"]) == ["tri-001"]


def test_otherwise_ids_that_look_alike_and_nothing_for_a_stranger() -> None:
    assert similar_ids("inp-4x", IDS)[0].startswith("inp-4")
    assert similar_ids("mc-009", IDS) == []


def test_the_cli_suggests_the_padded_id() -> None:
    from tests.inproc import medsim

    said = medsim("score", "diagnosis", "--case", "inp-1", "--answer", "{}")
    assert said.returncode == 2 and "did you mean inp-01?" in said.stderr and "inp-41" not in said.stderr


def test_show_lists_case_ids_and_an_unknown_case_is_a_clear_error() -> None:
    from tests.inproc import medsim

    shown = medsim("show", "triage")
    assert shown.returncode == 0 and "case ids: tri-001, tri-002" in shown.stdout
    missing = medsim("show", "diagnosis", "--case", "inp-999")
    assert missing.returncode == 2 and "no case 'inp-999' in scenario diagnosis" in missing.stderr
    assert "internal error" not in missing.stderr and "Traceback" not in missing.stderr


def test_text_given_where_a_file_is_expected_gets_the_stdin_hint() -> None:
    from tests.inproc import medsim

    said = medsim("text", "neg", "患者否认胸痛")
    assert said.returncode != 0 and "pipe it and use -" in said.stderr
