"""Information gathering counts what the patient did say; the text layer is the patient's
segmenter; a history told by family is told by the family member."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from patient_cases import spec  # noqa: E402

from medsim.scenario.schema import Case, Demographics  # noqa: E402
from medsim.sim import lay, textlink  # noqa: E402
from medsim.sim.info import fact_matches, info_gathering, partly_told  # noqa: E402
from medsim.sim.patient_rule import RulePatient  # noqa: E402
from medsim.sim.transcript import Transcript  # noqa: E402


def hypertension_case() -> Case:
    """Severe hypertension after stopping antihypertensives: the chief complaint gives the
    home reading only in part; the medication list names the drugs, not their class."""
    return Case(
        id="htn-stop-1",
        source="synthetic",
        department="急诊科",
        demographics=Demographics(sex="男", age=70, occupation="退休"),
        chief_complaint="头晕1天，在家量血压190",
        hpi=("患者1天前自觉头晕、头胀，非旋转性，在家自测血压190/105mmHg，休息后无缓解。"
             "无胸痛、胸闷，无肢体无力麻木，无言语不清，无视物模糊。"),
        past_history="高血压病12年；否认糖尿病史。",
        personal_history="不吸烟，不饮酒。",
        family_history="无特殊。",
        allergies="否认药物过敏史。",
        medications="硝苯地平控释片 30mg qd、缬沙坦 80mg qd，已停药4天。",
        diagnosis=["高血压病3级"],
        key_facts=["自测血压190/105mmHg", "停服降压药4天", "无肢体无力及言语不清", "无胸痛"],
    )


def candida_case() -> Case:
    """Vulvovaginal candidiasis: the discharge is described in the clause after the one naming it."""
    return Case(
        id="vvc-1",
        source="synthetic",
        department="妇科",
        demographics=Demographics(sex="女", age=31, occupation="会计"),
        chief_complaint="外阴瘙痒、白带增多4天",
        hpi=("患者4天前起外阴瘙痒、灼痛，白带增多，呈白色稠厚豆腐渣样，无明显异味。"
             "10天前因“咽炎”口服头孢呋辛6天。无发热、下腹痛。"),
        past_history="既往体健；否认糖尿病史。",
        menstrual_obstetric_history="月经规律，末次月经2周前；G0，避孕套避孕。",
        family_history="无特殊。",
        allergies="否认药物过敏史。",
        diagnosis=["外阴阴道假丝酵母菌病"],
        key_facts=["外阴瘙痒灼痛4天", "豆腐渣样白带", "10天前口服头孢呋辛"],
    )


def play(case: Case, questions: list[str]) -> Transcript:
    patient = RulePatient(spec(), case, seed=0)
    t = Transcript("consultation", case.id)
    opening = asyncio.run(patient.opening())
    t.add("patient", opening.text, disclosed=opening.disclosed)
    for q in questions:
        t.add("clinician", q)
        r = asyncio.run(patient.reply(q, t.turns))
        t.add("patient", r.text, topics=r.topics, disclosed=r.disclosed, sim=r.meta)
    t.add("clinician", '{"diagnosis": "x"}')
    t.stop_reason = "answered"
    return t


# ----------------------------------------------------------- 1. information gathering

def test_drug_names_say_their_class():
    # 硝苯地平、缬沙坦 are antihypertensives: 已停药4天 after them says 停服降压药4天
    told = "硝苯地平控释片 30mg qd、缬沙坦 80mg qd\n已停药4天"
    assert fact_matches("停服降压药4天", told)
    assert not fact_matches("停服降压药3天", told)  # the number still has to be right
    assert not fact_matches("停服降糖药4天", told)  # and the class
    assert not fact_matches("停服降压药4天", "二甲双胍 0.5g bid\n已停药4天")


def test_stopped_antihypertensives_told_from_the_medication_list():
    t = play(hypertension_case(), ["平时吃什么药？", "有没有说话不清楚？", "手脚有没有没劲？"])
    said = " ".join(x.text for x in t.turns if x.speaker == "patient")
    assert "已停药4天" in said and "没有说话不清楚" in said
    info = info_gathering(hypertension_case(), t)
    assert "停服降压药4天" in info["elicited"]
    assert "无肢体无力及言语不清" in info["elicited"]  # told over two answers
    assert "无胸痛" in info["missed"]  # never asked, never said
    # the opening gave the home reading (190), no answer the rest: told unasked, not missed
    assert "自测血压190/105mmHg" in info["volunteered"]


def test_home_reading_in_the_opening_completed_later():
    t = play(hypertension_case(), ["在家量的血压具体多少？"])
    info = info_gathering(hypertension_case(), t)
    assert "自测血压190/105mmHg" in info["elicited"]  # completed when asked: drawn out
    assert not partly_told("发热3天最高39.5℃", "发烧3天")  # only numbers may be left out, not 最高


def test_a_detail_clause_is_told_of_the_finding_it_describes():
    # 白带增多 is in the opening; 呈白色稠厚豆腐渣样 describes it, told when asked what it looks like
    case = candida_case()
    told = ["外阴瘙痒、白带增多4天", "呈白色稠厚豆腐渣样"]
    t = Transcript("consultation", case.id)
    t.add("patient", "医生，我外阴痒、白带多4天了。", disclosed=told[:1])
    t.add("clinician", "什么时候开始的？还有哪里不舒服？")
    t.add("patient", "我4天前开始外阴痒、火辣辣地疼。", disclosed=["患者4天前起外阴瘙痒", "灼痛"])
    t.add("clinician", "白带是什么样子的？")
    t.add("patient", "白色稠厚豆腐渣样。", disclosed=told[1:])
    t.add("clinician", '{"diagnosis": "x"}')
    t.stop_reason = "answered"
    info = info_gathering(case, t)
    assert "豆腐渣样白带" in info["elicited"]
    assert "10天前口服头孢呋辛" in info["missed"]


def test_a_detail_without_its_finding_told_does_not_count():
    case = candida_case()
    t = Transcript("consultation", case.id)
    t.add("patient", "医生，我不舒服。", disclosed=[])
    t.add("clinician", "什么样的？")
    t.add("patient", "白色稠厚豆腐渣样。", disclosed=["呈白色稠厚豆腐渣样"])
    t.add("clinician", '{"diagnosis": "x"}')
    t.stop_reason = "answered"
    assert "豆腐渣样白带" in info_gathering(case, t)["missed"]


def test_an_unsaid_finding_beside_a_number_is_not_volunteered():
    # 灼痛 and 头胀 were never said: 外阴瘙痒、白带增多4天 does not convey 外阴瘙痒灼痛4天
    assert not fact_matches("外阴瘙痒灼痛4天", "外阴瘙痒、白带增多4天")
    assert not fact_matches("头晕头胀1天", "头晕1天，在家量血压190")
    assert fact_matches("头晕头胀1天", "患者1天前自觉头晕、头胀")
    info = info_gathering(candida_case(), play(candida_case(), []))
    assert "外阴瘙痒灼痛4天" not in info["volunteered"]


# ----------------------------------------------------------- 2. the text layer

def test_tokens_come_from_the_text_layer():
    from medsim.text import words

    text = "氨氯地平5mg qd，血压190/105mmHg"
    assert textlink.tokens(text) == words(text)
    # the text layer keeps a dose and a vital whole; bare jieba would cut them
    assert any("190/105" in w for w in textlink.tokens(text))


def test_narrator_notes_follow_the_lexicon():
    from medsim.text import get_lexicon

    markers = get_lexicon().narrator_markers
    assert "代述" in markers and "陪同" in markers
    assert lay.strip_narrator("（家属代述）患者1小时前") == "患者1小时前"
    assert lay.strip_narrator("（其妻陪同）患者") == "患者"
    assert lay.strip_narrator("（右侧）") == "（右侧）"


# ----------------------------------------------------------- 3. who speaks

def unconscious_case() -> Case:
    """Hypoglycaemic coma: the wife tells the story."""
    return Case(
        id="coma-1",
        source="synthetic",
        department="急诊科",
        demographics=Demographics(sex="男", age=52, occupation="司机"),
        chief_complaint="被家人发现叫不醒1小时",
        hpi=("（家属代述）患者1小时前被妻子发现在床上呼之不应、全身大汗，无抽搐。"
             "昨日起食欲差，晚饭基本未吃，但晚餐前仍照常注射胰岛素。"),
        past_history="2型糖尿病6年，使用胰岛素；否认高血压史。",
        personal_history="吸烟20年。",
        family_history="母亲患糖尿病。",
        allergies="否认药物过敏史。",
        diagnosis=["低血糖昏迷"],
        key_facts=["全身大汗", "晚餐前仍照常注射胰岛素"],
    )


def aphasic_case() -> Case:
    """A woman who cannot speak since the stroke began; her daughter brings her."""
    return Case(
        id="aphasia-1",
        source="synthetic",
        department="急诊科",
        demographics=Demographics(sex="女", age=74, occupation="退休"),
        chief_complaint="突发右侧肢体无力、失语2小时",
        hpi="患者2小时前看电视时突发右侧肢体无力，不能说话，无抽搐，无呕吐。",
        past_history="心房颤动5年，未规律服药。",
        family_history="无特殊。",
        allergies="否认药物过敏史。",
        diagnosis=["急性脑梗死"],
        key_facts=["突发右侧肢体无力2小时"],
    )


def test_an_unconscious_patient_is_spoken_for_by_family():
    p = RulePatient(spec(), unconscious_case(), seed=0)
    opening = p.opening_sync().text
    onset = p.reply_sync("什么时候发现的？").text
    insulin = p.reply_sync("平时用什么药？").text
    assert "我被家人发现" not in opening and "他" in opening, opening
    assert not onset.startswith("我") and "他" in onset, onset
    assert "我这是" not in opening + onset + insulin
    history = p.reply_sync("他家里人有什么病吗？").text
    assert "他母亲" in history or "他妈妈" in history, history


def test_the_teller_names_the_patient_by_kinship():
    # （儿子代述）父亲…: the son's father is the patient, not the patient's father
    said = lay.clause_to_lay("（儿子代述）父亲2年来记忆力逐渐下降", subject="他")
    assert said.startswith("他2年来") and "父亲" not in said, said
    assert lay.clause_to_lay("母亲患糖尿病", subject="他") == "他母亲得了糖尿病"


def test_a_patient_who_cannot_speak_is_spoken_for():
    p = RulePatient(spec(), aphasic_case(), seed=0)
    opening = p.opening_sync().text
    onset = p.reply_sync("什么时候开始的？").text
    assert "她" in opening and not opening.startswith("医生，我"), opening
    assert "她" in onset and not onset.startswith("我"), onset


def test_a_patient_who_speaks_still_says_i():
    case = hypertension_case()
    p = RulePatient(spec(), case, seed=0)
    assert p.opening_sync().text.startswith("医生，我")
    # brought in by a colleague, but telling it herself; a faint that has passed; a denial
    assert lay.subject_for(case.model_copy(update={"hpi": "患者进食虾后出现全身风团、气促，由同事陪同打车来诊。"})) == "我"
    assert lay.subject_for(case.model_copy(update={"hpi": "患者站立时一过性意识丧失约1分钟，自行清醒。"})) == "我"
    assert lay.subject_for(case.model_copy(update={"hpi": "患者头晕，无意识不清，无言语不清。"})) == "我"
    assert lay.subject_for(case.model_copy(update={"hpi": "家属诉患者今晨起反应迟钝。"})) == "他"
