"""`medsim text seg|ner|neg|deid` and `medsim deid`: tables, JSON, bad input."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from cli.text_cmd import app, deid_command

runner = CliRunner()
RECORD = "患者张三，男，45岁，手机13812345678。否认高血压、糖尿病史。WBC 5.0×109／L，右下腹痛3天。"


@pytest.fixture
def record_file(tmp_path):
    p = tmp_path / "record.txt"
    p.write_text(RECORD, encoding="utf-8")
    return p


def test_seg_json(record_file):
    res = runner.invoke(app, ["seg", str(record_file), "--json"])
    assert res.exit_code == 0
    tokens = json.loads(res.stdout)
    assert {"text": "5.0×109／L", "kind": "lab_value"}.items() <= next(t for t in tokens if t["kind"] == "lab_value").items()


def test_ner_json_from_stdin():
    res = runner.invoke(app, ["ner", "-", "--json"], input="拜阿司匹林100mg qd")
    assert res.exit_code == 0
    ents = json.loads(res.stdout)
    assert ents[0]["type"] == "drug" and ents[0]["norm"] == "阿司匹林"
    assert ents[1]["type"] == "dose" and ents[1]["value"] == 100 and ents[1]["unit"] == "mg"


def test_neg_table_and_json(record_file):
    res = runner.invoke(app, ["neg", str(record_file)])
    assert res.exit_code == 0 and "absent" in res.stdout and "高血压" in res.stdout
    res = runner.invoke(app, ["neg", str(record_file), "--json"])
    findings = {f["norm"]: f for f in json.loads(res.stdout)}
    assert findings["高血压"]["polarity"] == "absent" and findings["腹痛"]["laterality"] == "右"


def test_deid_table_and_json(record_file):
    res = runner.invoke(app, ["deid", str(record_file)])
    assert res.exit_code == 0 and "mobile" in res.stdout
    res = runner.invoke(app, ["deid", str(record_file), "--json"])
    data = json.loads(res.stdout)
    assert "13812345678" not in data["text"] and data["counts"]["mobile"] == 1


def test_markup_in_input_is_escaped():
    res = runner.invoke(app, ["seg", "-"], input="[bold red]发热[/bold red]")
    assert res.exit_code == 0
    assert "bold" in res.stdout  # printed literally, not interpreted


def test_missing_file_is_exit_2_without_traceback(tmp_path):
    res = runner.invoke(app, ["ner", str(tmp_path / "nope.txt")])
    assert res.exit_code == 2
    assert "file not found" in res.output and "Traceback" not in res.output


def test_non_utf8_is_exit_2(tmp_path):
    bad = tmp_path / "gbk.txt"
    bad.write_bytes("发热".encode("gbk"))
    res = runner.invoke(app, ["neg", str(bad)])
    assert res.exit_code == 2 and "UTF-8" in res.output


def test_unavailable_backend_is_exit_2_with_install_hint(monkeypatch):
    import sys

    from medsim.text import BackendUnavailable, segmenters

    def boom(name):
        raise BackendUnavailable("the pkuseg backend is not installed: run `pip install ...`")

    monkeypatch.setattr(segmenters, "get_segmenter", boom)
    monkeypatch.setattr(sys.modules["medsim.text.tokenize"], "get_segmenter", boom)
    res = runner.invoke(app, ["seg", "-", "--backend", "pkuseg"], input="发热")
    assert res.exit_code == 2 and "pip install" in res.output


def test_deid_command_writes_text_and_report(record_file, tmp_path, capsys):
    out, report = tmp_path / "out.txt", tmp_path / "report.json"
    deid_command(str(record_file), out, report)
    text = out.read_text(encoding="utf-8")
    assert "张三" not in text and "13812345678" not in text
    rep = json.loads(report.read_text(encoding="utf-8"))
    assert rep["counts"] == {"mobile": 1, "name": 1}
    assert {r["original"] for r in rep["replacements"]} == {"张三", "13812345678"}


def test_deid_command_to_stdout(record_file, capsys):
    deid_command(str(record_file), None, None)
    assert "13812345678" not in capsys.readouterr().out


def test_cli_module_import_is_cheap():
    code = "import sys, cli.text_cmd; print('jieba' in sys.modules, 'medsim.text' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_lines_mode_one_array_per_input_line():
    res = runner.invoke(app, ["neg", "-", "--lines"], input="现在没发烧就是咳嗽\n\n否认高血压、糖尿病史\n")
    assert res.exit_code == 0
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(rows) == 3 and rows[1] == []
    assert [(r["norm"], r["polarity"]) for r in rows[0]] == [("发热", "absent"), ("咳嗽", "present")]
    assert {r["polarity"] for r in rows[2]} == {"absent"}
    assert rows[0][1]["start"] == 7  # offsets are within the line


def test_ner_lines_from_a_file(tmp_path):
    p = tmp_path / "texts.txt"
    p.write_text("拜阿司匹林100mg qd\n吃了感冒灵颗粒\n", encoding="utf-8")
    res = runner.invoke(app, ["ner", str(p), "--lines"])
    assert res.exit_code == 0
    first, second = (json.loads(line) for line in res.stdout.splitlines())
    assert first[0]["norm"] == "阿司匹林" and second[0]["type"] == "drug"


def test_lines_mode_bad_byte_is_exit_2(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_bytes("咳嗽\n".encode() + b"\xff\xfe\n")
    res = runner.invoke(app, ["neg", str(p), "--lines"])
    assert res.exit_code == 2 and f"{p}:2:1: byte 0xff is not UTF-8" in res.output


def test_seg_lines_keeps_quantities_whole_per_line():
    res = runner.invoke(app, ["seg", "-", "--lines"], input="血压150/90mmHg\n\n阿莫西林0.5g tid\n")
    assert res.exit_code == 0
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(rows) == 3 and rows[1] == []
    assert {"text": "150/90mmHg", "start": 2, "end": 12} == {k: rows[0][1][k] for k in ("text", "start", "end")}
    assert "0.5g" in [t["text"] for t in rows[2]]
