import pytest

from medsim.scoring.ordering import kendall_tau

from ._util import case, run, scenario, transcript

# ----------------------------------------------------------------- diagnosis

AMI = "急性心肌梗死|AMI"


def _dx(pred, gold=AMI, **config):
    return run("diagnosis_match", case(gold={"diagnosis": gold}), transcript({"diagnosis": pred}), config)


def test_diagnosis_fuzzy_more_specific_matches():
    s = _dx("急性前壁心肌梗死")  # ratio 2·6/14 = 85.7 ≥ 85
    assert s.value == 1.0 and s.details["how"] == "fuzzy" and s.details["ratio"] == 85.7


def test_diagnosis_old_infarct_never_matches_acute():
    assert _dx("陈旧性心肌梗死").value == 0.0
    assert _dx("急性心肌梗死", gold="陈旧性心肌梗死").value == 0.0


def test_diagnosis_hedges_brackets_and_alternatives():
    assert _dx("考虑急性心肌梗死（前壁，Killip I级）").value == 1.0
    assert _dx("AMI").value == 1.0
    assert _dx("社区获得性肺炎", gold="肺炎").value == 1.0  # containment


def test_diagnosis_type_and_side_conflicts():
    assert _dx("1型糖尿病", gold="2型糖尿病").value == 0.0
    assert _dx("左侧腹股沟斜疝", gold="右侧腹股沟斜疝").value == 0.0


def test_diagnosis_side_written_in_brackets_counts():
    zoster = "带状疱疹|左侧胸背部带状疱疹"
    assert _dx("带状疱疹（右侧胸背部）", gold=zoster).value == 0.0
    assert _dx("带状疱疹（左侧T5–T6）", gold=zoster).value == 1.0
    assert _dx("带状疱疹", gold=zoster).value == 1.0  # side not stated is not a wrong side
    assert _dx("社区获得性肺炎（左下肺）", gold="社区获得性肺炎|右下肺炎").value == 0.0
    assert _dx("社区获得性肺炎（右下肺，非重症）", gold="社区获得性肺炎|右下肺炎").value == 1.0


def test_diagnosis_site_and_type_are_checked_against_the_record():
    bleed = case(gold={"diagnosis": "脑出血|高血压性脑出血|右侧基底节区脑出血"}, diagnosis=["脑出血（右侧基底节区）"])
    assert run("diagnosis_match", bleed, transcript({"diagnosis": "右侧丘脑出血"})).value == 0.0
    assert run("diagnosis_match", bleed, transcript({"diagnosis": "高血压性脑出血"})).value == 1.0
    hepatitis = case(gold={"diagnosis": "急性戊型病毒性肝炎|戊型肝炎"}, diagnosis=["急性戊型病毒性肝炎（急性黄疸型）"])
    assert run("diagnosis_match", hepatitis, transcript({"diagnosis": "急性甲型病毒性肝炎"})).value == 0.0
    disc = case(gold={"diagnosis": {"any": "腰椎间盘突出症|L4-5椎间盘突出症", "not": ["L5-S1", "L5/S1"]}},
                diagnosis=["腰椎间盘突出症（L4-5）"])
    assert run("diagnosis_match", disc, transcript({"diagnosis": "腰椎间盘突出症（L5-S1）"})).value == 0.0
    assert run("diagnosis_match", disc, transcript({"diagnosis": "腰椎间盘突出症（L4-5，左侧）"})).value == 1.0


def test_diagnosis_only_the_first_is_scored():
    # a list of differentials is not a diagnosis: the gold further down is reported, not credited
    s = _dx("1. 不稳定型心绞痛 2. 急性心肌梗死 3. 主动脉夹层")
    assert s.value == 0.0 and s.details["gold_rank"] == 1


def test_diagnosis_empty_and_unparsed():
    assert _dx("").value == 0.0
    s = run("diagnosis_match", case(gold={"diagnosis": AMI}), transcript(None, parse_error="no JSON object found"))
    assert s.value == 0.0 and s.reasons[0].startswith("answer not parsed")


def test_diagnosis_without_gold_is_not_scored():
    s = run("diagnosis_match", case(), transcript({"diagnosis": "肺炎"}))
    assert s.value is None and s.error


# -------------------------------------------------------------------- set_f1

TESTS = ["血常规|血细胞分析", "心电图|ECG", "肌钙蛋白", "胸部X线|胸片"]


def _f1(pred):
    return run("set_f1", case(gold={"tests": TESTS}), transcript({"tests": pred}), {"field": "tests"})


def test_set_f1_synonyms_extras_and_duplicates():
    s = _f1(["血细胞分析", "心电图", "心脏彩超", "心电图"])  # dedupe → 3 predicted, 2 right
    assert s.details["precision"] == pytest.approx(2 / 3)
    assert s.details["recall"] == 0.5
    # F-beta, beta 2 by default: (1+4)·P·R / (4·P + R) = 5·(1/3) / (8/3 + 1/2)
    assert s.value == pytest.approx(5 * (2 / 3) * 0.5 / (4 * (2 / 3) + 0.5))
    assert s.details["extra"] == ["心脏彩超"] and s.details["missed"] == ["肌钙蛋白", "胸部X线|胸片"]


def test_set_f1_an_order_on_the_wrong_side_or_site_is_a_stated_error():
    hernia = case(gold={"tests": ["血常规", "右侧腹股沟区超声|腹股沟区超声", "腹部立位X线"]},
                  diagnosis=["右侧嵌顿性腹股沟斜疝"])
    right = run("set_f1", hernia, transcript({"tests": ["血常规", "右侧腹股沟区超声", "腹部立位X线"]}), {"field": "tests"})
    left = run("set_f1", hernia, transcript({"tests": ["血常规", "左侧腹股沟区超声", "腹部立位X线"]}), {"field": "tests"})
    blank = run("set_f1", hernia, transcript({"tests": ["血常规", "腹部立位X线"]}), {"field": "tests"})
    assert right.value == 1.0 and left.details["wrong_side"] == ["左侧腹股沟区超声"]
    assert left.value < 0.3 < blank.value  # the wrong side is worse than leaving the test out
    biliary = case(gold={"tests": ["血常规", "肝功能", "腹部CT|上腹部CT"]})
    chest = run("set_f1", biliary, transcript({"tests": ["血常规", "肝功能", "胸部CT"]}), {"field": "tests"})
    assert chest.details["wrong_site"] and chest.value < 0.3
    both = run("set_f1", biliary, transcript({"tests": ["血常规", "肝功能", "腹部CT", "胸部CT"]}), {"field": "tests"})
    assert not both.details["wrong_site"] and both.value > 0.8  # an extra beside the needed one is only an extra


def test_set_f1_all_right_from_a_chinese_list_string():
    assert _f1("血常规、ECG，肌钙蛋白；胸片").value == 1.0


def test_set_f1_field_defaults_to_the_list_field_of_the_answer_spec():
    sc = scenario({"format": "json", "fields": {"tests": "list[str]"}})
    s = run("set_f1", case(gold={"tests": TESTS}), transcript({"tests": ["血常规"]}), {"beta": 1}, sc)
    assert s.value == pytest.approx(2 * 1 * 0.25 / 1.25)  # beta 1: P 1, R 1/4 → F1 0.4


def test_set_f1_empty_prediction():
    assert _f1([]).value == 0.0


# ------------------------------------------------------------------ ordering

STEPS = ["消毒铺巾", "切开皮肤", "探查腹腔", "关腹"]
SHOWN = [2, 0, 3, 1]  # display 1 = 探查腹腔, 2 = 消毒铺巾, 3 = 关腹, 4 = 切开皮肤


def _ord(answer, shown=SHOWN):
    return run("ordering", case(steps=STEPS), transcript(answer, info={"steps_shown": shown} if shown else {}))


def test_kendall_tau_values():
    assert kendall_tau([0, 1, 2, 3]) == 1.0
    assert kendall_tau([3, 2, 1, 0]) == -1.0
    assert kendall_tau([1, 0, 2, 3]) == pytest.approx(4 / 6)  # 5 concordant, 1 discordant


def test_ordering_maps_display_numbers_back():
    assert _ord([2, 4, 1, 3]).value == 1.0  # originals 0,1,2,3
    assert _ord([3, 1, 4, 2]).value == 0.0  # originals 3,2,1,0: τ = −1
    assert _ord([4, 2, 1, 3]).value == pytest.approx((4 / 6) ** 2)  # one adjacent swap: τ = 4/6


def test_ordering_missing_step_costs_coverage():
    s = _ord([2, 4, 1])  # τ 1 over 3 steps, coverage 3/4
    assert s.value == 0.75 and s.details["missing"] == [3]


def test_ordering_ignores_repeats_and_out_of_range():
    s = _ord([2, 2, 9, 4, 1, 3])
    assert s.value == 1.0 and s.details["invalid"] == [9] and s.details["duplicates"] == [2]


def test_ordering_single_step_of_several_tells_no_order():
    assert _ord([2]).value == 0.0


def test_ordering_text_answer_and_identity_display():
    assert _ord("答案：2→4→1→3").value == 1.0
    assert _ord([1, 2, 3, 4], shown=None).value == 1.0


# ---------------------------------------------------------------- extraction

GOLD = {"sex": "男", "age": 49, "chief_complaint": "右下腹痛并自扪及包块3小时", "allergy": "无",
        "smoking": False, "primary_diagnosis": "右侧嵌顿性腹股沟斜疝"}
EXTRACT = scenario({"format": "json", "fields": {"sex": "str", "age": "int", "chief_complaint": "str",
                                                 "allergy": "str", "smoking": "bool", "primary_diagnosis": "str"}},
                   ["extraction"])


def _ext(pred):
    return run("extraction", case(gold=GOLD), transcript(pred), {}, EXTRACT)


def test_extraction_normalizes_sex_age_none_bool():
    pred = {"sex": "男性", "age": "49岁", "chief_complaint": "右下腹痛并自扪及包块3小时", "allergy": "否认",
            "smoking": "否", "primary_diagnosis": "右侧嵌顿性腹股沟斜疝"}
    s = _ext(pred)
    assert s.value == 1.0, s.details
    assert s.details["how"]["sex"] == "sex" and s.details["how"]["allergy"] == "none"


def test_extraction_one_wrong_field():
    pred = dict(GOLD, sex="M", smoking=True)
    s = _ext(pred)
    assert s.value == pytest.approx(5 / 6) and s.details["fields"]["smoking"] == 0.0


def test_extraction_missing_field_lowers_recall_only():
    pred = {k: v for k, v in GOLD.items() if k != "allergy"}
    s = _ext(pred)
    assert s.details["precision"] == 1.0 and s.details["recall"] == pytest.approx(5 / 6)
    assert s.value == pytest.approx(10 / 11)


def test_extraction_numbers_must_agree_exactly():
    assert _ext(dict(GOLD, age=48)).details["fields"]["age"] == 0.0
    assert _ext(dict(GOLD, age="8个月")).details["fields"]["age"] == 0.0


def test_extraction_text_with_numbers_needs_the_same_numbers():
    from medsim.scoring.extraction import field_credit

    assert field_credit("胸痛3小时", "胸痛2小时") == (0.0, "value")
    assert field_credit("右下腹痛并自扪及包块3小时。", "右下腹痛并自扪及包块3小时")[0] == 1.0
    assert field_credit("肌酐156 umol/L", "肌酐156μmol/L")[0] == 1.0
    assert field_credit("肌酐165μmol/L", "肌酐156μmol/L")[0] == 0.0


CRITICAL = {"critical": ["sex", "age", "allergy", "smoking", "primary_diagnosis"]}


def test_extraction_a_critical_field_stated_wrong_is_charged_a_missing_one_is_not():
    c = case(gold=GOLD)
    wrong_side = run("extraction", c, transcript(dict(GOLD, primary_diagnosis="左侧嵌顿性腹股沟斜疝")), CRITICAL, EXTRACT)
    assert wrong_side.value == pytest.approx(5 / 6 * 0.25) and wrong_side.details["stated_wrong"] == ["primary_diagnosis"]
    smoker = run("extraction", c, transcript(dict(GOLD, smoking=True)), CRITICAL, EXTRACT)
    assert smoker.value < 0.3
    left_out = {k: v for k, v in GOLD.items() if k != "allergy"}
    assert run("extraction", c, transcript(left_out), CRITICAL, EXTRACT).value == pytest.approx(10 / 11)
    # the chief complaint is copied text, not critical: a slip there only loses its credit
    slip = run("extraction", c, transcript(dict(GOLD, chief_complaint="腹痛2天")), CRITICAL, EXTRACT)
    assert slip.value == pytest.approx(5 / 6)


def test_extraction_reads_the_primary_diagnosis_as_a_diagnosis():
    from medsim.scoring.extraction import diagnosis_credit

    alts = "嵌顿性腹股沟斜疝|腹股沟斜疝嵌顿|右侧嵌顿性腹股沟斜疝"
    assert diagnosis_credit("右侧腹股沟斜疝嵌顿", "右侧嵌顿性腹股沟斜疝", alts)[0] == 1.0
    assert diagnosis_credit("腹股沟斜疝嵌顿（左侧）", "右侧嵌顿性腹股沟斜疝", alts) == (0.0, "wrong side")
    pneumonia = "社区获得性肺炎|右下肺炎|细菌性肺炎"
    assert diagnosis_credit("CAP（右肺下叶）", "社区获得性肺炎（右肺下叶）", pneumonia)[0] == 1.0
    assert diagnosis_credit("社区获得性肺炎（左肺下叶）", "社区获得性肺炎（右肺下叶）", pneumonia)[0] == 0.0
    child = "支气管肺炎|社区获得性肺炎|细菌性肺炎"
    assert diagnosis_credit("支气管肺炎（考虑细菌性）", "支气管肺炎（细菌性可能）", child)[0] == 1.0
    assert diagnosis_credit("支气管肺炎（病毒性）", "支气管肺炎（细菌性可能）", child)[0] == 0.0
    bladder = "膀胱癌|膀胱尿路上皮癌|高级别浸润性尿路上皮癌"
    assert diagnosis_credit("膀胱癌（低级别非浸润性尿路上皮癌）", "膀胱癌（高级别浸润性尿路上皮癌）", bladder)[0] == 0.0
    assert diagnosis_credit("胆道闭锁？婴儿肝炎综合征？", "先天性胆道闭锁", "胆道闭锁|先天性胆道闭锁") == (
        0.0, "several diagnoses")
    stemi = {"any": "急性ST段抬高型心肌梗死|急性前壁心肌梗死|STEMI", "not": ["下壁", "后壁", "侧壁"]}
    assert diagnosis_credit("急性前壁STEMI Killip Ⅰ级", "急性ST段抬高型心肌梗死（前壁） Killip Ⅰ级", stemi)[0] == 1.0
    assert diagnosis_credit("急性下壁ST段抬高型心肌梗死", "急性ST段抬高型心肌梗死（前壁） Killip Ⅰ级", stemi)[0] == 0.0


def test_extraction_reads_allergies_by_meaning():
    from medsim.scoring.extraction import allergy_credit

    assert allergy_credit("否认药物过敏史", "无") == (1.0, "none")
    assert allergy_credit("无已知药物及食物过敏", "无")[0] == 1.0
    assert allergy_credit("磺胺", "磺胺类药物")[0] == 1.0
    assert allergy_credit("头孢菌素类", "头孢类抗生素")[0] == 1.0
    assert allergy_credit("青霉素类", "青霉素")[0] == 1.0
    assert allergy_credit("布洛芬", "磺胺类药物")[0] == 0.0
    assert allergy_credit("青霉素", "无")[0] == 0.0
    assert allergy_credit("青霉素", "青霉素、磺胺类药物")[0] == 0.0  # one of the two left out


def test_diagnosis_grades_and_stages_must_agree():
    assert _dx("高血压3级", gold="高血压2级|原发性高血压2级").value == 0.0
    assert _dx("Ⅱ型呼吸衰竭", gold="Ⅰ型呼吸衰竭").value == 0.0
    assert _dx("Ⅱ型呼吸衰竭", gold="Ⅱ型呼吸衰竭|呼吸衰竭").value == 1.0
    assert _dx("2型糖尿病", gold="糖尿病").value == 1.0  # only one side has a number


def test_ordering_reads_renumbered_step_text():
    text = "正确顺序如下：\n1. 消毒铺巾\n2. 切开皮肤\n3. 探查腹腔，明确病变\n4. 关腹"
    s = run("ordering", case(steps=STEPS), transcript([1, 2, 3, 4], final_text=text, info={"steps_shown": SHOWN}))
    assert s.value == 1.0 and s.details["read_from"] == "step text"
    # display numbers that already are the gold order are taken as numbers
    s = run("ordering", case(steps=STEPS), transcript([2, 4, 1, 3], final_text="2,4,1,3", info={"steps_shown": SHOWN}))
    assert s.value == 1.0 and s.details["read_from"] == "numbers"


APPENDIX = ["右下腹麦氏切口切开皮肤及皮下组织", "依次分开腹外斜肌腱膜、腹内斜肌、腹横肌，切开腹膜", "沿结肠带寻找并提出阑尾",
            "分离、结扎、切断阑尾系膜及阑尾动脉", "结扎阑尾根部并切除阑尾", "荷包缝合包埋阑尾残端", "清点器械敷料无误后逐层关腹"]


def test_ordering_reads_steps_written_in_other_words_without_numbers():
    text = ("正确顺序：麦氏切口切开皮肤皮下 → 分开三层腹肌，切开腹膜 → 沿结肠带找到阑尾提出 → 处理阑尾系膜、结扎阑尾动脉"
            " → 结扎根部切除阑尾 → 荷包包埋残端 → 清点后逐层关腹")
    s = run("ordering", case(steps=APPENDIX), transcript(None, parse_error="no step numbers found", final_text=text),
            {"exact_weight": 0.7})
    assert s.details["read_from"] == "own words" and s.value == 1.0
    swapped = text.replace("沿结肠带找到阑尾提出 → 处理阑尾系膜、结扎阑尾动脉", "处理阑尾系膜、结扎阑尾动脉 → 沿结肠带找到阑尾提出")
    s = run("ordering", case(steps=APPENDIX), transcript(None, parse_error="no step numbers found", final_text=swapped),
            {"exact_weight": 0.7})
    assert s.value < 0.3  # the mesentery handled before the appendix is found: a wrong operation
    prose = run("ordering", case(steps=APPENDIX), transcript(None, parse_error="no step numbers found",
                                                            final_text="按外科常规顺序操作即可。"), {"exact_weight": 0.7})
    assert prose.value == 0.0


def test_ordering_exact_weight_a_missing_step_is_not_most_of_the_pathway():
    full = run("ordering", case(steps=STEPS), transcript([2, 4, 1, 3], info={"steps_shown": SHOWN}), {"exact_weight": 0.7})
    short = run("ordering", case(steps=STEPS), transcript([2, 4, 1], info={"steps_shown": SHOWN}), {"exact_weight": 0.7})
    plain = run("ordering", case(steps=STEPS), transcript([2, 4, 1], info={"steps_shown": SHOWN}))
    assert full.value == 1.0 and short.value == pytest.approx(0.3 * 0.75) and plain.value == pytest.approx(0.75)


# ------------------------------------------- gold structure: optional, alternatives, exclusions, ties

def test_optional_element_costs_no_recall_and_earns_precision():
    gold = ["ERCP+EST取石|腹腔镜胆总管探查取石", {"any": "T管引流", "optional": True}, "抗感染"]
    c = case(gold={"treatment": gold}, diagnosis=["胆总管结石伴急性胆管炎"])
    both = run("set_f1", c, transcript({"treatment": ["ERCP取石", "抗感染"]}), {"field": "treatment"})
    assert both.details["recall"] == 1.0 and both.value == 1.0
    with_optional = run("set_f1", c, transcript({"treatment": ["腹腔镜胆总管探查取石", "T管引流", "抗感染"]}),
                        {"field": "treatment"})
    assert with_optional.value == 1.0 and with_optional.details["precision"] == 1.0


def test_compound_item_meets_two_elements():
    c = case(gold={"treatment": ["袖式肺叶切除", "淋巴结清扫"]}, diagnosis=["右肺上叶中央型肺癌"])
    s = run("set_f1", c, transcript({"treatment": ["袖式肺叶切除+淋巴结清扫"]}), {"field": "treatment"})
    assert s.value == 1.0


def test_excluded_qualifier_makes_the_item_wrong():
    gold = {"any": "主动脉夹层|急性主动脉夹层", "not": ["Stanford A型", "A型"]}
    c = case(gold={"diagnosis": gold})
    assert run("diagnosis_match", c, transcript({"diagnosis": "急性主动脉夹层（Stanford B型）"})).value == 1.0
    assert run("diagnosis_match", c, transcript({"diagnosis": "Stanford A型主动脉夹层"})).value == 0.0


def test_wrong_side_fails_even_against_a_sideless_alternative():
    c = case(gold={"diagnosis": "右侧基底节区脑出血|基底节区脑出血|脑出血"}, diagnosis=["右侧基底节区脑出血"])
    assert run("diagnosis_match", c, transcript({"diagnosis": "左侧基底节区脑出血"})).value == 0.0
    assert run("diagnosis_match", c, transcript({"diagnosis": "右侧基底节区脑出血"})).value == 1.0
    assert run("diagnosis_match", c, transcript({"diagnosis": "脑出血"})).value == 1.0  # not wrong, less specific


def test_step_ties_count_either_order():
    c = case(steps=["a", "b", "c", "d"], step_ties=[[2, 3]])
    t = transcript([1, 3, 2, 4], info={"steps_shown": [0, 1, 2, 3]})
    assert run("ordering", c, t).value == 1.0


def test_set_f1_an_item_that_says_no_to_a_needed_element_is_an_opposite():
    hyperk = case(gold={"treatment": ["葡萄糖酸钙", "胰岛素加葡萄糖", "血液透析|透析"]})
    right = run("set_f1", hyperk, transcript({"treatment": ["葡萄糖酸钙静推", "胰岛素+葡萄糖", "急诊血液透析"]}),
                {"field": "treatment"})
    refused = run("set_f1", hyperk, transcript({"treatment": ["葡萄糖酸钙静推", "胰岛素+葡萄糖", "暂不透析，药物控制后观察"]}),
                  {"field": "treatment"})
    assert right.value == 1.0
    assert refused.details["opposite"] and refused.value < 0.3
    cultures = case(gold={"treatment": ["左氧氟沙星", "痰培养|血培养"]})
    denied = run("set_f1", cultures, transcript({"treatment": ["左氧氟沙星", "无需送检痰培养和血培养"]}), {"field": "treatment"})
    assert not any(m["gold"].startswith("痰培养") for m in denied.details["matched"])  # the item denies its parts


# ----------------------------------------------------------------- decisive elements

PE_TESTS = ["D-二聚体", {"any": "CT肺动脉造影|CTPA", "decisive": True, "why": "确诊或排除肺栓塞"},
            "下肢静脉超声", "血气分析", "心电图", "肌钙蛋白"]


def _tests(pred):
    sc = scenario(answer={"format": "json", "fields": {"tests": "list[str]"}}, scoring=["set_f1"])
    return run("set_f1", case(gold={"tests": PE_TESTS}), transcript({"tests": pred}), sc=sc)


def test_leaving_out_the_decisive_test_is_a_wrong_work_up():
    full = _tests(["D-二聚体", "CTPA", "双下肢静脉超声", "动脉血气", "心电图", "肌钙蛋白"])
    without = _tests(["D-二聚体", "双下肢静脉超声", "动脉血气", "心电图", "肌钙蛋白"])
    without_other = _tests(["D-二聚体", "CTPA", "双下肢静脉超声", "心电图", "肌钙蛋白"])
    assert full.value == 1.0
    assert without.details["decisive_missed"] == ["CT肺动脉造影|CTPA"] and without.value < 0.3
    assert "遗漏关键要素" in " ".join(without.reasons)
    assert without_other.value > 0.7  # another element left out costs its share only


def test_an_element_cannot_be_both_optional_and_decisive():
    from medsim.scenario.load import _gold_type_ok

    assert _gold_type_ok([{"any": "CTPA", "decisive": True}], "list[str]")
    assert not _gold_type_ok([{"any": "CTPA", "decisive": True, "optional": True}], "list[str]")
    assert not _gold_type_ok([{"any": "CTPA", "decisive": "yes"}], "list[str]")


HERNIA = ["取右侧腹股沟斜切口", "切开腹外斜肌腱膜", "游离疝囊并高位结扎", "补片修补", "逐层缝合"]


@pytest.mark.parametrize("text, value", [
    ("取右侧腹股沟斜切口 → 切开腹外斜肌腱膜 → 游离疝囊并高位结扎 → 补片修补 → 逐层缝合", 1.0),
    ("取左侧腹股沟斜切口 → 切开腹外斜肌腱膜 → 游离疝囊并高位结扎 → 补片修补 → 逐层缝合", 0.0),  # the other side
])
def test_ordering_the_right_steps_on_the_wrong_side_are_a_wrong_operation(text, value):
    c = case(steps=HERNIA, question="男，62岁，右侧腹股沟斜疝，行无张力疝修补术。")
    got = run("ordering", c, transcript(None, final_text=text), config={"exact_weight": 0.7})
    assert got.value == value, got.reasons
