"""Lexicons: files with headers, synonyms, brands, lay language, departments."""

import pytest

from medsim.paths import lexicons_dir
from medsim.text import get_lexicon

LEXICON_FILES = [
    "diseases.txt", "symptoms.txt", "drugs.txt", "exams.txt", "procedures.txt", "body_parts.txt",
    "departments.txt", "lay_synonyms.txt", "negation_cues.txt", "uncertainty_cues.txt",
    "pseudo_negations.txt", "family_markers.txt", "historical_markers.txt", "thuocl_medical_words.txt",
    "narrator_markers.txt", "broader_terms.txt", "symptom_verbs.txt", "chineseblue_terms.tsv",
]


def test_every_lexicon_file_names_its_source_and_licence():
    folder = lexicons_dir()
    for name in LEXICON_FILES:
        head = (folder / name).read_text(encoding="utf-8")[:600]
        assert "# source:" in head, name
        assert "licence:" in head, name
    assert (folder / "THUOCL_LICENSE.txt").exists()
    assert (folder / "JioNLP_LICENSE.txt").exists()
    assert (folder / "chineseblue_LICENSE.txt").exists()


def test_lexicon_is_cached():
    assert get_lexicon() is get_lexicon()


@pytest.mark.parametrize(
    ("surface", "canonical", "type_"),
    [
        # brand names → generic
        ("拜阿司匹林", "阿司匹林", "drug"), ("波立维", "氯吡格雷", "drug"), ("络活喜", "氨氯地平", "drug"),
        ("倍他乐克", "美托洛尔", "drug"),
        # exam aliases
        ("血细胞分析", "血常规", "exam"), ("CBC", "血常规", "exam"), ("WBC", "白细胞计数", "exam"),
        ("尿常规", "尿常规", "exam"),
        # department short forms
        ("心内", "心血管内科", "department"), ("神外", "神经外科", "department"),
        ("消化内科", "消化内科", "department"),
        # how CMB-Clin records write incontinence and apnoea
        ("漏尿", "尿失禁", "symptom"), ("尿外漏", "尿失禁", "symptom"),
        ("睡眠呼吸暂停", "睡眠呼吸暂停", "symptom"), ("大小便失禁", "大小便失禁", "symptom"),
    ],
)
def test_surface_forms_resolve(surface, canonical, type_):
    lex = get_lexicon()
    assert (lex.canonical(surface), lex.type_of(surface)) == (canonical, type_)


def test_lay_synonyms_both_ways():
    lex = get_lexicon()
    assert lex.canonical("心口疼") == "胸痛"
    assert lex.canonical("拉肚子") == "腹泻"
    assert lex.canonical("血糖高") == "高血糖"
    assert lex.canonical("喘不上气") == "呼吸困难"
    assert lex.canonical("发烧") == "发热"
    assert "拉肚子" in lex.standard_to_lay["腹泻"]
    assert "发烧" in lex.lay_terms_for("发热")


def test_lay_vocabulary_is_rich_and_resolves_to_lexicon_terms():
    lex = get_lexicon()
    assert len(lex.lay_synonyms) >= 300
    resolved = [lay for lay, std in lex.lay_synonyms.items() if lex.type_of(std)]
    assert len(resolved) / len(lex.lay_synonyms) >= 0.95


def test_typed_lists_are_large():
    lex = get_lexicon()
    assert len(lex.terms("disease")) >= 400
    assert len(lex.terms("symptom")) >= 150
    assert len(lex.terms("drug")) >= 300
    assert len(lex.terms("exam")) >= 200
    assert len(lex.terms("procedure")) >= 100


def test_cue_lists_loaded():
    lex = get_lexicon()
    assert "否认" in lex.negation_pre
    assert "阴性" in lex.negation_post
    assert "待排" in lex.uncertainty_post and "疑似" in lex.uncertainty_pre
    assert "无明显诱因" in lex.pseudo_negations
    assert "父亲" in lex.family_markers and "既往" in lex.historical_markers


def test_unknown_term():
    lex = get_lexicon()
    assert lex.canonical("完全不相干的词") is None
    assert lex.type_of("完全不相干的词") is None


def test_aliases_of_a_term():
    lex = get_lexicon()
    assert {"阿司匹林", "拜阿司匹林"} <= set(lex.aliases("拜阿司匹林"))
    assert lex.aliases("完全不相干的词") == []


def test_lay_hernia_is_a_groin_hernia_and_its_kinds_are_narrower():
    lex = get_lexicon()
    # a patient's 疝气 is the bulge in the groin: 腹股沟疝, not every external abdominal hernia
    assert lex.canonical("疝气") == "腹股沟疝"
    assert lex.is_a("腹股沟斜疝", "腹股沟疝")
    assert lex.is_a("腹股沟斜疝", "腹外疝")
    assert lex.is_a("嵌顿性腹股沟斜疝", "腹股沟斜疝")
    assert not lex.is_a("腹股沟疝", "腹股沟斜疝")
    assert not lex.is_a("脐疝", "腹股沟疝")
    assert lex.related("疝气", "嵌顿性腹股沟斜疝")
    assert not lex.related("疝气", "脑疝")


def test_an_infection_of_named_cause_is_not_bacterial():
    from medsim.text.lexicon import get_lexicon

    lex = get_lexicon()
    assert lex.canonical("感染") == "感染"
    assert lex.canonical("支原体感染") != "细菌感染"
    assert lex.is_a("细菌感染", "感染")
    assert lex.canonical("消化不好") == lex.canonical("消化不良")
