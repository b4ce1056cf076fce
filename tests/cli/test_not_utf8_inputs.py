"""Every file a user hands a command that is not UTF-8 (a GBK export, most often) is named with
the line and column of its first bad byte and the command that converts it; exit 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.inproc import medsim as run_medsim


@pytest.mark.parametrize("args", [
    ["score", "knowledge_exam", "--answers", "{f}"],
    ["patient", "ask", "consultation", "--case", "con-001", "--lines", "{f}"],
    ["check", "--case", "inp-01", "--text", "{f}"],
    ["deid", "{f}"],
    ["text", "seg", "{f}"],
    ["text", "ner", "--lines", "{f}"],
])
def test_a_gbk_input_file_is_named_with_its_line_and_column(tmp_path: Path, args: list[str]) -> None:
    path = tmp_path / "gbk.txt"
    path.write_bytes("第一行\n胸痛三天\n".encode() + "伴出汗".encode("gb18030") + b"\n")
    result = run_medsim(*[a.replace("{f}", str(path)) for a in args])
    assert result.returncode == 2, (args, result.stdout, result.stderr)
    assert f"{path}:3:1: byte 0x" in result.stderr and "is not UTF-8" in result.stderr, result.stderr
    assert "iconv -f GB18030 -t UTF-8" in result.stderr and "Traceback" not in result.stderr
