"""summary_diagnosis: a summary that writes another diagnosis than the record's is charged."""

from medsim.scoring.summary_diagnosis import stated_diagnoses
from medsim.text.lexicon import get_lexicon
from medsim.text.match import match_sets

from ._util import case, run, transcript

ABSCESS = {"primary_diagnosis": "细菌性肝脓肿（肺炎克雷伯菌）",
           "diagnosis": "细菌性肝脓肿|肺炎克雷伯菌肝脓肿|化脓性肝脓肿"}
APPENDIX = {"primary_diagnosis": "急性化脓性阑尾炎", "diagnosis": "急性化脓性阑尾炎|化脓性阑尾炎"}


def summary(diagnosis: str) -> str:
    return ("入院情况：男，56岁，发热寒战5天。诊治经过：头孢曲松静滴，超声引导下穿刺引流。"
            f"出院诊断：{diagnosis}。出院医嘱：完成抗生素疗程，控制血糖。")


def test_the_diagnosis_section_is_read_at_top_level_in_order():
    text = "【出院诊断】1. 急性胰腺炎（胆源性，轻症）；2. 胆囊结石 【出院医嘱】低脂饮食"
    assert stated_diagnoses(text) == ["急性胰腺炎（胆源性，轻症）", "胆囊结石"]
    assert stated_diagnoses("入院情况：无诊断部分。") == []


def test_another_pathogen_or_pathology_in_the_diagnosis_is_charged():
    wrong = run("summary_diagnosis", case(gold=ABSCESS), transcript(final_text=summary("阿米巴肝脓肿；2型糖尿病")))
    assert wrong.value == 0.25 and "阿米巴肝脓肿" in wrong.reasons[0]
    simple = run("summary_diagnosis", case(gold=APPENDIX), transcript(final_text=summary("急性单纯性阑尾炎")))
    assert simple.value == 0.25


def test_the_record_diagnosis_in_other_words_or_after_another_one_is_not_charged():
    for text in ("化脓性肝脓肿（肺炎克雷伯菌）；2型糖尿病", "2型糖尿病；细菌性肝脓肿", "肺炎克雷伯菌肝脓肿"):
        assert run("summary_diagnosis", case(gold=ABSCESS), transcript(final_text=summary(text))).value == 1.0


def test_an_unread_abbreviation_or_a_missing_section_is_not_judged():
    gold = {"primary_diagnosis": "右乳浸润性导管癌（cT2N0M0，ⅡA期）", "diagnosis": "乳腺癌|浸润性导管癌"}
    # IDC is in the lexicon (浸润性导管癌): read and credited; an abbreviation it lacks is not judged
    assert run("summary_diagnosis", case(gold=gold), transcript(final_text=summary("右乳IDC"))).value == 1.0
    assert run("summary_diagnosis", case(gold=gold), transcript(final_text=summary("右乳QZX"))).value is None
    assert run("summary_diagnosis", case(gold=ABSCESS), transcript(final_text="头孢曲松抗感染，引流。")).value is None


def test_a_term_after_non_is_its_opposite_not_the_term():
    lex = get_lexicon()
    assert lex.canonical("非手术治疗") != "手术"
    assert lex.canonical("慢性非萎缩性胃炎") != "萎缩性胃炎"
    pairs, _, missed = match_sets(["暂不手术，先非手术治疗观察24小时", "禁食、胃肠减压"],
                                  ["穿孔修补|急诊手术|手术", "禁食|胃肠减压"])
    assert missed == ["穿孔修补|急诊手术|手术"]
