"""``medsim check``: a raw record file, a text with markup and escape sequences, --json, exit codes."""

from __future__ import annotations

import json

import pytest

from cli.check_cmd import check_command

RECORD = "性别：男  年龄：58岁\n主诉：右下腹痛3天。\n现病史：3天前出现右下腹痛，伴发热，无恶心、呕吐。\n辅助检查：\n血常规：WBC 12.3×10^9/L\n"


@pytest.fixture
def files(tmp_path):
    record = tmp_path / "record.txt"
    record.write_text(RECORD, encoding="utf-8")
    text = tmp_path / "answer.txt"
    text.write_text("58岁男性，[bold]左下腹痛3天\x1b]8;;http://x\x07，WBC 21.3×10^9/L，伴恶心。", encoding="utf-8")
    return record, text


def test_renders_escaped_and_exits_1_on_problems(files, capsys):
    record, text = files
    with pytest.raises(SystemExit) as exc:
        check_command(str(record), str(text), False, None)
    assert exc.value.code == 1
    out = capsys.readouterr().out
    assert "\x1b]8" not in out and "\x07" not in out  # no terminal control from the model's text
    assert "[bold]左下腹痛" in out  # markup shown literally, not interpreted
    assert "矛盾" in out and "数值不符" in out


def test_json(files, capsys):
    record, text = files
    with pytest.raises(SystemExit):
        check_command(str(record), str(text), True, None)
    data = json.loads(capsys.readouterr().out)
    assert {f["status"] for f in data["findings"]} >= {"contradicted", "value_mismatch"}
    span = next(f["span"] for f in data["findings"] if f["status"] == "value_mismatch")
    assert text.read_text(encoding="utf-8")[span[0]:span[1]].startswith("WBC")


def test_all_supported_exits_0(tmp_path, files, capsys):
    record, _ = files
    good = tmp_path / "good.txt"
    good.write_text("58岁男性，右下腹痛3天，伴发热。", encoding="utf-8")
    check_command(str(record), str(good), False, None)
    assert "一致" in capsys.readouterr().out


def test_unknown_case_is_a_usage_error(files, capsys):
    _, text = files
    with pytest.raises(SystemExit) as exc:
        check_command("no-such-case-id", str(text), False, None)
    assert exc.value.code == 2
    assert "no bundled case" in capsys.readouterr().err


def test_issue_example_lists_invented_facts_and_not_checked_claims(tmp_path, capsys):
    # inp-01 is an incarcerated inguinal hernia: chest pain and an MI are invented
    text = tmp_path / "answer.txt"
    text.write_text("胸痛2小时。诊断：急性前壁心肌梗死。需与急性阑尾炎鉴别。", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        check_command("inp-01", str(text), False, None)
    assert exc.value.code == 1
    out = capsys.readouterr().out
    assert "consistency 0.00" in out and "无依据 2" in out
    assert "not checked" in out
    # each claim not checked is listed with why, not only counted
    section = out[out.index("未核查"):]
    assert "2小时" in section and "急性阑尾炎" in section
    assert "鉴别诊断或推理" in section and "the record gives no duration" in section


def test_json_lists_not_checked(files, capsys):
    record, _ = files
    answer = record.parent / "a.txt"
    answer.write_text("右下腹痛3天。建议口服布洛芬0.3g bid。", encoding="utf-8")
    check_command(str(record), str(answer), True, None)
    data = json.loads(capsys.readouterr().out)
    [n] = data["not_checked"]
    assert n["text"].startswith("布洛芬") and n["reason_en"].startswith("advice")
