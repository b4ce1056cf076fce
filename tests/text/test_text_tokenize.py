"""Tokenization: protected spans stay whole whatever the backend; offsets into the original."""

import subprocess
import sys

import pytest

from medsim.text import BackendUnavailable, tokenize, words


def _kinds(text, backend="jieba"):
    return {t.text: t.kind for t in tokenize(text, backend)}


RECORD = "体温： T 37.8℃，P 101次／分，呼吸22次/分，BP 100/60mmHg。血常规：WBC 5.0×109／L，N 78％，肌酐156μmol/L。"


def test_vitals_and_lab_values_are_single_tokens():
    k = _kinds(RECORD)
    assert k["37.8℃"] == "vital"
    assert k["101次／分"] == "vital"
    assert k["100/60mmHg"] == "vital"
    assert k["5.0×109／L"] == "lab_value"
    assert k["156μmol/L"] == "lab_value"


def test_lab_value_with_exponent_forms():
    assert _kinds("白细胞12.3×10^9/L")["12.3×10^9/L"] == "lab_value"
    assert _kinds("PLT 210*10^9/L")["210*10^9/L"] == "lab_value"


def test_doses_and_frequencies():
    k = _kinds("阿司匹林100mg qd，头孢曲松2g ivgtt q12h，氯化钾缓释片1g bid，布洛芬0.2g prn，美托洛尔25mg tid")
    assert k["100mg"] == "dose" and k["2g"] == "dose" and k["1g"] == "dose"
    for f in ("qd", "q12h", "bid", "prn", "tid"):
        assert k[f] == "freq"


def test_chinese_frequencies():
    k = _kinds("每日3次，每8小时1次，必要时口服")
    assert k["每日3次"] == "freq" and k["每8小时1次"] == "freq" and k["必要时"] == "freq"


def test_durations_and_dates():
    k = _kinds("3天前出现胸痛，持续2小时，咳嗽3月余，高血压十余年，于2023年3月5日入院，2023-03-08复查")
    assert k["3天"] == "duration"
    assert k["2小时"] == "duration"
    assert k["3月余"] == "duration"
    assert k["十余年"] == "duration"
    assert k["2023年3月5日"] == "date"
    assert k["2023-03-08"] == "date"


def test_words_that_only_look_like_durations_stay_words():
    ws = [t.text for t in tokenize("半月板损伤，百日咳")]
    assert "半月" not in ws and "百日" not in ws


def test_st_segment_is_not_a_frequency():
    kinds = {t.text: t.kind for t in tokenize("ST段抬高，hs-CRP 5mg/L")}
    assert kinds.get("ST") != "freq"
    assert kinds.get("hs-CRP") == "word"


def test_offsets_point_into_the_original_text():
    for t in tokenize(RECORD):
        assert RECORD[t.start : t.end] == t.text


def test_medical_compounds_kept_by_the_user_dictionary():
    ws = words("右侧腹股沟斜疝嵌顿，尿常规及血细胞分析未见异常")
    assert "腹股沟斜疝" in ws
    assert "尿常规" in ws
    assert "血细胞分析" in ws


def test_words_drop_punctuation_and_give_normalized_forms():
    ws = words("WBC 5.0×109／L，N 78％。")
    assert "，" not in ws and "。" not in ws
    assert "5.0×10^9/L" in ws


def test_importing_the_package_does_not_load_jieba():
    code = "import sys, medsim.text; medsim.text.normalize('x'); print('jieba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(ValueError, match="jieba"):
        tokenize("发热", backend="nope")


def test_missing_optional_backend_says_what_to_install(monkeypatch):
    import builtins

    from medsim.text import segmenters

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name in ("pkuseg", "spacy"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    segmenters._build.cache_clear()
    try:
        with pytest.raises(BackendUnavailable, match="pip install --no-build-isolation pkuseg==0.0.25"):
            tokenize("发热", backend="pkuseg")
        with pytest.raises(BackendUnavailable, match="pip install spacy"):
            tokenize("发热", backend="spacy")
    finally:
        segmenters._build.cache_clear()


@pytest.mark.parametrize("backend", ["pkuseg", "spacy"])
def test_optional_backends_keep_protected_spans(backend):
    pytest.importorskip(backend)
    k = _kinds(RECORD, backend)
    assert k["5.0×109／L"] == "lab_value"
    assert k["100/60mmHg"] == "vital"
    for t in tokenize(RECORD, backend):
        assert RECORD[t.start : t.end] == t.text
