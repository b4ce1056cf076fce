"""bench/eval_external.py: the text layer on CMDD / cEHRNER / cMedQANER laid out like
../shared/data/ext. Small hand-made folders check the figures and the JSON object; the real
data, when ../shared is there, checks that every split present is read."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXT = ROOT.parent / "shared" / "data" / "ext"


@pytest.fixture(scope="module")
def ev():
    spec = importlib.util.spec_from_file_location("eval_external", ROOT / "bench" / "eval_external.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _utt(speaker, sentence, term=None, status=None):
    label = ["O"] * len(sentence)
    if term:
        i = sentence.index(term)
        label[i] = "B"
        for k in range(i + 1, i + len(term)):
            label[k] = "I"
    return {"speaker": speaker, "sentence": sentence, "label": "".join(label),
            "normalized": [term] if term else [], "type": [status] if term else []}


def _data(tmp_path: Path, split: str = "heldout") -> Path:
    cmdd = tmp_path / "cmdd" / split
    cmdd.mkdir(parents=True)
    dialogue = [
        _utt("医生", "宝宝有没有发烧？", "发烧", "2"),
        _utt("患者", "没有"),
        _utt("患者", "现在没发烧就是咳嗽", "咳嗽", "1"),
        _utt("患者", "是肺炎吗？", "肺炎", "3"),
    ]
    (cmdd / f"{split}_0.json").write_text(json.dumps({"data-split": split, "example-id": "1",
                                                      "dialogue-content": dialogue}, ensure_ascii=False), encoding="utf-8")
    ehr = tmp_path / "chineseblue" / "cEHRNER"
    ehr.mkdir(parents=True)
    text = "患者口服阿司匹林，无腹痛。"
    rec = {"text": text, "mention_data": [{"mention": "阿司匹林", "label": "药物", "offset": str(text.index("阿司匹林"))},
                                          {"mention": "腹痛", "label": "症状", "offset": str(text.index("腹痛"))},
                                          {"mention": "患者口", "label": "解剖部位", "offset": "0"}]}
    (ehr / f"{split}.json").write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    return tmp_path


def test_json_object_has_the_issue_shape(ev, tmp_path, capsys):
    data = _data(tmp_path)
    assert ev.main(["--data", str(data), "--split", "heldout", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"cmdd", "cehrner"}  # no cMedQANER file for this split: left out
    pat = out["cmdd"]["patient"]
    assert pat["n"] == 2 and pat["accuracy"] == 1.0
    assert set(pat["precision"]) == set(pat["recall"]) == {"present", "absent", "uncertain"}
    doc = out["cmdd"]["doctor"]
    assert doc["n"] == 1 and doc["accuracy"] == 1.0  # the question takes the patient's 没有
    assert "end_to_end" in out["cmdd"]
    ehr = out["cehrner"]
    assert ehr["n"] == 3 and ehr["by_type"]["drug"] == 1.0 and ehr["by_type"]["symptom"] == 1.0
    assert ehr["exact_by_type"]["drug"] == 1.0
    assert 0 < ehr["recall"] <= 1 and ehr["exact"] <= ehr["recall"]


def test_tables_print_confusion_and_samples(ev, tmp_path, capsys):
    assert ev.main(["--data", str(_data(tmp_path)), "--split", "heldout"]) == 0
    out = capsys.readouterr().out
    assert "CMDD patient utterances, gold spans" in out and "confusion" in out
    assert "cEHRNER records, entity recall" in out
    assert "no 'heldout' split" in out  # cMedQANER said to be missing


def test_a_split_no_dataset_has_is_exit_2_naming_the_splits(ev, tmp_path, capsys):
    data = _data(tmp_path, "heldout")
    assert ev.main(["--data", str(data), "--split", "dev"]) == 2
    err = capsys.readouterr().err
    assert "no dataset has a split named 'dev'" in err and "heldout" in err


def test_missing_folder_is_exit_2(ev, tmp_path, capsys):
    assert ev.main(["--data", str(tmp_path / "nope")]) == 2
    assert "data folder not found" in capsys.readouterr().err


@pytest.mark.skipif(not (EXT / "cmdd" / "dev").is_dir(), reason="external data not at ../shared/data/ext")
def test_real_dev_split_reads_every_dataset(ev, capsys):
    assert ev.main(["--data", str(EXT), "--split", "dev", "--json", "--half", "odd"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"cmdd", "cehrner", "cmedqaner"}
    assert out["cmdd"]["patient"]["n"] > 500 and out["cehrner"]["n"] > 100 and out["cmedqaner"]["n"] > 100
