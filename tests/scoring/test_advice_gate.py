"""advice: a consultation answer with the right diagnosis and advice that refuses, leaves out or
reverses the case's management is charged; the same management in other words is not."""

from medsim.scenario.registry import get_scenario
from medsim.scoring.fixed import reference_answer, score_fixed
from medsim.text.doses import dose_conflicts

from ._util import case, run, transcript

# streptococcal pharyngitis (Centor 4, rapid antigen positive): penicillin V or amoxicillin for 10 days
PHARYNGITIS = ("阿莫西林 500mg 每日2次口服，疗程10天（青霉素过敏者改用阿奇霉素）；对乙酰氨基酚 0.5g 按需退热止痛；"
               "多饮水、休息。如出现呼吸困难、张口困难或颈部肿胀立即就诊。")
# hypertension found at 12 weeks of pregnancy in a woman on enalapril: ACE inhibitors are
# contraindicated in pregnancy, labetalol is first line
PREGNANCY_BP = "停用依那普利，换为拉贝洛尔 100mg 每日2次口服；家庭血压监测；产科与心内科共同随访。"


def advice(gold: str, said: str) -> float | None:
    return run("advice", case(gold={"advice": gold}), transcript({"diagnosis": "x", "advice": said}),
               {"field": "advice"}).value


def test_refusing_the_treatment_the_case_gives_is_charged_even_by_its_class_name():
    assert advice(PHARYNGITIS, "多半是病毒引起的，不需要用抗菌药，多喝温水、含润喉片即可。") == 0.25
    assert advice(PHARYNGITIS, "暂时先不用吃阿莫西林，观察两天再说。") == 0.25


def test_the_same_treatment_in_other_words_or_another_member_of_its_class_passes():
    assert advice(PHARYNGITIS, "口服阿莫西林，每次0.5g，一天两次，吃满10天；发烧时用扑热息痛。") == 1.0
    assert advice(PHARYNGITIS, "青霉素类抗生素口服10天，按时吃完全程，不要症状一好就停。") == 1.0


def test_advice_with_no_treatment_at_all_is_charged_but_an_unlisted_prescription_is_not():
    assert advice(PHARYNGITIS, "注意休息，清淡饮食，一周后再看看。") == 0.25
    # a drug with a dose the lexicon may not know is still a treatment given, not an omission
    assert advice(PHARYNGITIS, "头孢羟氨苄 0.5g 每日2次，连用10天。") == 1.0


def test_recommending_what_the_case_gives_up_is_charged_and_giving_it_up_in_other_words_is_not():
    assert advice(PREGNANCY_BP, "继续依那普利 10mg 每日1次，监测血压。") == 0.25
    assert advice(PREGNANCY_BP, "怀孕期间依那普利不能再吃了，改成拉贝洛尔，每次100mg，一天两次。") == 1.0
    assert advice(PREGNANCY_BP, "把依那普利换成拉贝洛尔100mg bid，每天自己量血压。") == 1.0


def test_a_condition_or_a_combination_in_the_gold_is_not_a_refusal():
    gold = "塞来昔布 200mg 每日1次，不与其他NSAID同用；保守治疗无效可考虑手术。"
    assert advice(gold, "塞来昔布200mg qd止痛，先保守治疗，暂不考虑手术。") == 1.0


def test_a_case_without_gold_advice_is_not_scored():
    assert run("advice", case(gold={}), transcript({"advice": "休息"})).value is None


def test_one_dose_for_the_whole_course_said_as_a_daily_dose_is_a_wrong_regimen():
    # azithromycin 1g once for uncomplicated chlamydial urethritis
    gold = ["阿奇霉素 1g 单次口服"]
    assert dose_conflicts("阿奇霉素1g 每日1次，连用3天", gold)
    assert not dose_conflicts("阿奇霉素 1g 一次性口服", gold)
    assert not dose_conflicts("阿奇霉素1g 睡前口服，只用一次", gold)
    # a single loading dose beside a maintenance dose: the maintenance dose is still compared as such
    assert not dose_conflicts("阿司匹林 100mg qd", ["阿司匹林 300mg 单次嚼服，之后100mg qd"])


def test_a_combination_tablets_strengths_are_not_read_as_one_components_dose():
    assert not dose_conflicts("缬沙坦/氨氯地平（80mg/5mg）1片 每日1次", ["氨氯地平 5mg qd", "缬沙坦 80mg qd"])


def test_every_bundled_consultation_reference_passes_the_advice_gate():
    loaded = get_scenario("consultation")
    for c in loaded.cases:
        got = score_fixed(loaded.scenario, c, reference_answer(loaded.scenario, c), case_pool=loaded.cases)
        gate = next(s for s in got.scores if s.scorer == "advice")
        assert gate.value == 1.0, (c.id, gate.reasons)


def test_a_medication_consult_that_suggests_a_safer_drug_is_not_charged_for_inventing_it():
    # CKD 3b on an ARB asking about daily ibuprofen: a topical NSAID or short-course paracetamol is
    # the advice a physician gives; the drug is a suggestion, not a claim about the record
    loaded = get_scenario("medication_consult")
    c = next(x for x in loaded.cases if x.id == "mc-019")
    said = ("布洛芬这类止痛药您最好别长期吃，会让肾功能变差，和厄贝沙坦一起用更伤肾。膝盖疼可以先外用双氯芬酸凝胶；"
            "疼得厉害时短期吃对乙酰氨基酚，一天总量不超过2g。请到骨科看看膝关节，肾内科定期复查肾功能。")
    got = score_fixed(loaded.scenario, c, said, case_pool=loaded.cases)
    facts = next(s for s in got.scores if s.scorer == "fact_consistency")
    assert facts.value == 1.0, facts.reasons
    assert got.item_score >= 0.9


# symptomatic gallstones in a fit adult: the case's gold names one operation
GALLSTONES = "择期行腹腔镜胆囊切除术；术前低脂饮食；如出现发热、黄疸、持续腹痛立即就诊。"
# NSAID gastropathy: the gold stops the self-bought ibuprofen and gives a PPI
NSAID_STOP = "停用自行服用的布洛芬；奥美拉唑 20mg 每日1次口服，疗程4–8周；胃镜复查。"


def test_an_operation_named_another_way_is_the_gold_operation_and_refusing_surgery_is_not():
    assert advice(GALLSTONES, "建议手术把胆囊摘掉，可以约时间住院做微创。") == 1.0
    assert advice(GALLSTONES, "结石不大，暂时不需要手术，吃点利胆药观察。") == 0.25


def test_a_drug_the_answer_stops_is_not_advised_however_the_stop_is_said():
    assert advice(NSAID_STOP, "之前自己买的布洛芬先停掉；奥美拉唑每天早上吃一粒，吃一个月以上。") == 1.0
    assert advice(NSAID_STOP, "布洛芬照常吃，加奥美拉唑护胃。") == 0.25
