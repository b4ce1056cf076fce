"""Negation, uncertainty, family and past history, on sentences as physicians write them."""

import pytest

from medsim.text import analyze


def _f(text):
    return {f.entity.norm: f for f in analyze(text).findings}


def test_denial_covers_a_list_joined_by_dunhao():
    f = _f("否认高血压、糖尿病史。")
    assert f["高血压"].polarity == "absent" and f["糖尿病"].polarity == "absent"
    assert f["高血压"].historical and f["糖尿病"].historical
    assert f["高血压"].cue == "否认"


def test_denial_of_infectious_and_surgical_history():
    f = _f("否认肝炎、结核等传染病史，否认手术、外伤史，否认药物过敏史。")
    assert f["病毒性肝炎"].polarity == "absent"
    assert f["结核病"].polarity == "absent"
    assert f["手术"].polarity == "absent"
    assert f["外伤"].polarity == "absent"


def test_no_obvious_cause_is_not_a_negation():
    f = _f("3天前无明显诱因出现胸痛，呈压榨样，伴大汗。")
    assert f["胸痛"].polarity == "present"
    assert f["多汗"].polarity == "present"


def test_wu_negates_every_item_in_its_list():
    f = _f("无发热、咳嗽，有腹痛。")
    assert f["发热"].polarity == "absent" and f["咳嗽"].polarity == "absent"
    assert f["腹痛"].polarity == "present"


def test_scope_ends_at_comma():
    f = _f("无发热，咳嗽、咳痰2天。")
    assert f["发热"].polarity == "absent"
    assert f["咳嗽"].polarity == "present" and f["咳痰"].polarity == "present"


@pytest.mark.parametrize("contrast", ["但", "但是", "然而", "而"])
def test_scope_ends_at_contrast_words(contrast):
    f = _f(f"无发热{contrast}有咳嗽")
    assert f["发热"].polarity == "absent"
    assert f["咳嗽"].polarity == "present"


def test_bu_ban_and_ji():
    f = _f("不伴恶心、呕吐，无腹泻及黑便。")
    assert all(f[k].polarity == "absent" for k in ("恶心", "呕吐", "腹泻", "黑便"))


def test_physical_exam_negations():
    f = _f("双肺呼吸音清，未闻及干湿啰音。腹软，无压痛及反跳痛，Murphy征阴性。")
    assert f["干湿啰音"].polarity == "absent"
    assert f["压痛"].polarity == "absent" and f["反跳痛"].polarity == "absent"
    assert f["Murphy征"].polarity == "absent"


def test_results_normal_or_negative():
    f = _f("胸片未见异常。尿蛋白(-)，肥达反应阴性，尿常规、粪常规未见明显异常。")
    assert f["胸片"].polarity == "absent" and f["胸片"].cue == "未见异常"
    assert f["尿蛋白"].polarity == "absent" and f["尿蛋白"].cue == "(-)"
    assert f["肥达反应"].polarity == "absent"
    assert f["尿常规"].polarity == "absent" and f["粪常规"].polarity == "absent"


def test_fullwidth_negative_sign():
    assert _f("尿糖（－）")["尿糖"].polarity == "absent"


def test_positive_result_stays_present():
    assert _f("PPD试验阳性")["结核菌素试验"].polarity == "present"


@pytest.mark.parametrize(
    ("text", "term", "cue"),
    [
        ("考虑肠梗阻可能", "肠梗阻", None),
        ("疑似急性阑尾炎", "急性阑尾炎", "疑似"),
        ("肺癌待排", "肺癌", "待排"),
        ("不除外肺栓塞", "肺栓塞", "不除外"),
        ("主动脉夹层不除外", "主动脉夹层", "不除外"),
        ("左侧隐睾伴恶变？", "隐睾", "？"),
        ("可疑胆囊结石", "胆囊结石", "可疑"),
    ],
)
def test_uncertainty(text, term, cue):
    f = _f(text)[term]
    assert f.polarity == "uncertain"
    if cue:
        assert f.cue == cue


def test_bu_chu_wai_is_uncertainty_not_negation():
    assert _f("不除外心肌梗死")["心肌梗死"].polarity == "uncertain"


def test_family_history():
    f = _f("父亲有高血压，母亲体健。")
    assert f["高血压"].owner == "family" and f["高血压"].polarity == "present"
    f = _f("其母患糖尿病20年。")
    assert f["糖尿病"].owner == "family"


def test_family_history_section():
    f = _f("家族史：父亲死于肺癌，母亲患糖尿病。\n个人史：无吸烟。患者诉腹痛。")
    assert f["肺癌"].owner == "family" and f["糖尿病"].owner == "family"
    assert f["腹痛"].owner == "patient"


def test_denied_family_history():
    f = _f("否认家族遗传病史。")
    (finding,) = f.values()
    assert finding.polarity == "absent" and finding.owner == "family"


def test_family_member_in_another_clause_does_not_own_the_finding():
    f = _f("4个月前母亲替他洗澡时，发现右侧上腹部无痛性肿块。")
    assert f["肿块"].owner == "patient"
    assert f["肿块"].polarity == "present"  # 无痛性 is a pseudo-negation


def test_past_history():
    f = _f("既往曾患肺结核，已治愈。10年前行阑尾切除术。")
    assert f["肺结核"].historical
    assert f["阑尾切除术"].historical
    assert not _f("今日出现胸痛")["胸痛"].historical


def test_patient_present_finding_defaults():
    f = _f("患者咳嗽")["咳嗽"]
    assert (f.polarity, f.owner, f.historical, f.cue) == ("present", "patient", False, None)


def test_pseudo_negations_inside_findings():
    f = _f("四肢无力，胸部不适，不明原因发热。")
    assert f["肢体无力"].polarity == "present"
    assert f["胸闷"].polarity == "present"
    assert f["发热"].polarity == "present"


def test_finding_exposes_entity_shortcuts():
    text = "否认高血压"
    (f,) = analyze(text).findings
    assert (f.norm, f.text, f.type) == ("高血压", "高血压", "disease")
    assert text[f.start : f.end] == "高血压"


def test_questions_and_other_pseudo_negations_do_not_negate():
    assert _f("有无发热？")["发热"].polarity != "absent"
    assert _f("患者不能耐受手术")["手术"].polarity == "present"


def test_sign_negative_in_fullwidth_brackets():
    f = _f("双侧巴氏征（-），左下肢直腿抬高试验阳性。")
    assert f["病理征"].polarity == "absent" and f["病理征"].entity.laterality == "双侧"
    assert f["直腿抬高试验"].polarity == "present"


def test_years_ago_is_past_history_for_operations_not_for_the_present_complaint():
    f = _f("10年前行阑尾切除术。1年前无明显诱因出现腰痛。")
    assert f["阑尾切除术"].historical
    assert not f["腰痛"].historical


# --- defects found by other engineers -----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["（母亲代述）患儿呕吐3天，伴发热。", "患儿母亲代诉：患儿发热2天。", "由其父亲陪同就诊，患儿咳嗽1周。",
     "病史由家属代述，患者昨日起头痛。"],
)
def test_narrator_note_is_not_family_history(text):
    # who tells the story is not whose illness it is
    assert all(f.owner == "patient" for f in analyze(text).findings)


def test_family_history_still_found_after_a_narrator_note():
    f = _f("（母亲代述）患儿发热2天。父亲有高血压。")
    assert f["发热"].owner == "patient"
    assert f["高血压"].owner == "family"


@pytest.mark.parametrize("text", ["育龄期女性，非妊娠。", "非妊娠期女性，停经史无。", "患者为非妊娠女性。"])
def test_fei_negates_the_condition_it_prefixes(text):
    assert _f(text)["妊娠"].polarity == "absent"


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("长期口服非甾体抗炎药止痛，近1周黑便。", "黑便"),
        ("非感染性腹泻3天。", "腹泻"),
        ("诊断为非霍奇金淋巴瘤。", "非霍奇金淋巴瘤"),
        ("胸部CT示非典型肺炎，发热。", "发热"),
        ("腹痛非常剧烈，伴呕吐。", "呕吐"),
        ("腹痛非常剧烈，伴呕吐。", "腹痛"),
    ],
)
def test_fei_in_names_and_adverbs_negates_nothing(text, term):
    assert _f(text)[term].polarity == "present"


def test_fei_reaches_only_the_term_it_prefixes():
    f = _f("非妊娠期女性，下腹痛伴阴道流血。")
    assert f["妊娠"].polarity == "absent"
    f = _f("非甾体抗炎药、奥美拉唑")
    assert f["非甾体抗炎药"].polarity == "present"


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("有没有腹泻？", ("腹泻",)),
        ("有没有腹泻", ("腹泻",)),
        ("有无黑便", ("黑便",)),
        ("询问有无发热、咳嗽。", ("发热", "咳嗽")),
        ("是否有胸痛", ("胸痛",)),
    ],
)
def test_a_question_is_asked_not_absent(text, terms):
    f = _f(text)
    for t in terms:
        assert f[t].polarity == "uncertain", t


@pytest.mark.parametrize(
    ("text", "present"),
    [
        ("高热不退、抽搐1次。", ("发热", "抽搐")),
        ("腹痛不缓解、呕吐。", ("腹痛", "呕吐")),
        ("咳嗽不止、咳痰。", ("咳嗽", "咳痰")),
        ("原因不明的发热、皮疹。", ("发热", "皮疹")),
        ("便血不止，头晕。", ("便血", "头晕")),
    ],
)
def test_persistence_words_name_the_finding_and_negate_nothing(text, present):
    f = _f(text)
    for t in present:
        assert f[t].polarity == "present", t


def test_a_real_denial_after_a_persistence_word_still_negates():
    f = _f("高热不退，无抽搐。")
    assert f["发热"].polarity == "present" and f["抽搐"].polarity == "absent"


@pytest.mark.parametrize(
    ("text", "term"),
    [("病人无睡眠呼吸暂停。", "睡眠呼吸暂停"), ("无意识障碍、四肢抽搐、大小便失禁等。", "大小便失禁"),
     ("剧烈活动时不自主尿外漏，无尿频。", "尿失禁")],
)
def test_lexicon_gaps_found_in_cmb_records(text, term):
    f = _f(text)
    assert term in f
    assert f[term].polarity == ("present" if "尿外漏" in text else "absent")


def test_any_stretch_is_judged_like_a_finding():
    from medsim.text.negation import FindingContext

    a = analyze("肝脾肋下未触及，Murphy(-)，其母患糖尿病。")
    ctx = FindingContext(a.normalized, a.entities)
    text = a.normalized.text
    start = text.index("，Murphy")  # a fuzzy match may start on the comma before
    assert ctx.at(start, start + 7).polarity == "absent"
    assert ctx.has_family_marker(0, len(text))
    assert ctx.negation_cues(0, text.index("，")) == ["未触及"]


@pytest.mark.parametrize(("text", "marked", "polarity"), [
    ("晚上不咳了，白天偶尔咳两声", "不咳了", "absent"),  # a marked stretch headed by a negation of a symptom verb
    ("这两天一直没吐过", "没吐过", "absent"),
    ("孩子不舒服，一直哭闹", "不舒服", "present"),  # discomfort is the finding, not its denial
    ("孩子最近不怎么咳", "不怎么咳", "present"),  # 不怎么: a degree word, not a denial
])
def test_negation_at_the_head_of_a_marked_stretch(text, marked, polarity):
    from medsim.text.analysis import judge_spans

    s = text.index(marked)
    assert judge_spans(text, [(s, s + len(marked))])[0].polarity == polarity


def test_a_child_who_will_not_eat_has_poor_appetite():
    f = _f("孩子这两天不吃饭，精神也差")
    assert f["食欲不振"].polarity == "present"
    assert _f("孩子没食欲")["食欲不振"].polarity == "present"


@pytest.mark.parametrize(("text", "marked", "polarity"), [
    ("晚上咳嗽，就是不停的咳嗽", "咳嗽", "present"),  # 不停 / 不断: on and on, not a denial
    ("孩子不断咳", "咳", "present"),
    ("白天没怎么哭闹", "哭闹", "present"),  # 没怎么 / 不咋: a degree word, spoken forms
    ("晚上不咋咳", "咳", "present"),
    ("食欲不如感冒前好", "感冒", "present"),  # a comparison
    ("木有发烧", "发烧", "absent"),  # spoken and dialect forms of 没有
    ("莫有呕吐", "呕吐", "absent"),
    ("沒有發燒，也沒有喘", "喘", "absent"),  # traditional characters read as simplified
    ("听起来不知道是痰还是刚吃下去的奶", "痰", "uncertain"),  # the speaker does not know which
    ("昨晚睡得不踏实~哭了好几次", "哭", "present"),  # a tilde ends a clause in chat
])
def test_spoken_forms_of_negation_and_degree(text, marked, polarity):
    from medsim.text.analysis import judge_spans

    s = text.rindex(marked)
    assert judge_spans(text, [(s, s + len(marked))])[0].polarity == polarity



@pytest.mark.parametrize(("text", "marked", "polarity"), [
    ("孩子主要是流鼻涕", "流鼻涕", "present"),  # 主要是 holds 要是 but sets no condition
    ("宝贝目前主要是消化不良的表现", "消化不良", "present"),
    ("要是发烧了怎么办", "发烧", "uncertain"),  # a real 要是 still hedges
    ("是不是消化不好引起的腹泻", "腹泻", "present"),  # the cause is asked, the effect is there
    ("是不是消化不好引起的腹泻", "消化不好", "uncertain"),
    ("会不会是受凉导致的呕吐", "呕吐", "present"),
])
def test_a_hedge_covers_what_it_asks_not_a_word_it_sits_in(text, marked, polarity):
    from medsim.text.analysis import judge_spans

    s = text.index(marked)
    assert judge_spans(text, [(s, s + len(marked))])[0].polarity == polarity


@pytest.mark.parametrize("text,family,own", [
    ("否认高血压、冠心病及脑卒中家族史。", {"高血压", "冠心病", "脑卒中"}, set()),
    ("有2型糖尿病家族史，本人血糖正常。", {"糖尿病"}, {"血糖"}),
    # the list closes at a word that is not an item: only the last item is the family's
    ("既往高血压、吸烟及早发冠心病家族史。", {"冠心病"}, {"高血压"}),
    ("合并慢阻肺，母亲哮喘，乳腺癌家族史。", {"哮喘", "乳腺癌"}, {"慢阻肺"}),
])
def test_a_list_closed_by_family_history_is_the_familys_up_to_its_first_non_item(text, family, own):
    found = {f.text: f.owner for f in analyze(text).findings}
    assert {t for t, o in found.items() if o == "family"} >= family, found
    assert all(found.get(t) == "patient" for t in own), found


def test_a_sign_written_with_a_negation_word_is_present_and_blocks_no_list():
    from medsim.text import analyze

    # 哭无泪 is the dehydrated child's sign, not a denial that runs on over the list after it
    got = {f.norm: f.polarity for f in analyze("呕吐腹泻2天，哭无泪、精神萎靡、手脚冰凉").findings}
    assert got.get("泪少") == "present" and got.get("四肢发凉") == "present"


def test_a_negative_screen_after_a_list_denies_each_item():
    from medsim.text import analyze

    got = {f.norm: f.polarity for f in analyze("HIV、梅毒等病因筛查均阴性").findings}
    assert got.get("梅毒") == "absent"
    got = {f.norm: f.polarity for f in analyze("结核、狼疮等继发因素初筛阴性").findings}
    assert got.get("系统性红斑狼疮") == "absent"
