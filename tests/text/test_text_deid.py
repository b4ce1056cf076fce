"""De-identification: planted identifiers found, look-alikes left, replacements consistent."""

import datetime as dt
import re

import pytest
from text_phi_cases import build, score
from text_phi_handwritten import records as handwritten

from medsim.text import deidentify
from medsim.text.deid import STRUCTURED_KINDS, find_phi, id_check_ok, phi_warnings


def test_gb11643_check_character():
    assert id_check_ok("110101199003074514")
    assert id_check_ok("11010119900307451X") is False
    assert not id_check_ok("110101199003074515")
    assert not id_check_ok("110101199013074514")  # month 13
    assert id_check_ok("430104199001011230")


def test_structured_identifiers_precision_and_recall_on_the_synthetic_set():
    metrics = score(build())
    for kind in STRUCTURED_KINDS:
        assert metrics[kind]["precision"] >= 0.95, (kind, metrics[kind])
        assert metrics[kind]["recall"] >= 0.95, (kind, metrics[kind])


def test_structured_identifiers_on_the_handwritten_set():
    metrics = score(handwritten())
    for kind in STRUCTURED_KINDS:
        if kind in metrics:
            assert metrics[kind]["precision"] >= 0.95 and metrics[kind]["recall"] >= 0.95, (kind, metrics[kind])


def test_lookalikes_are_left_alone():
    text = ("3天前无明显诱因出现发热，入院第3天复查，WBC 12.3×10^9/L，BP 120/80mmHg，"
            "标本号：13812345678，检验条码 430104199001011235，批号20230305，国药准字H20051234。"
            "在当地医院及外院就诊，县医院转入。")
    assert find_phi(text) == []


def test_names_label_anchored_and_masked_forms():
    kinds = {(p.kind, p.original) for p in find_phi("姓名：张三 性别：男\n患者李某某，女，45岁。患者王某，男。")}
    assert ("name", "张三") in kinds and ("name", "李某某") in kinds and ("name", "王某") in kinds


def test_clinical_words_after_family_members_are_not_names():
    assert [p for p in find_phi("父亲高血压，母亲体健。患者高热，") if p.kind == "name"] == []


def test_mobile_is_found_before_landline():
    (p,) = find_phi("电话：13912345678")
    assert p.kind == "mobile" and p.original == "13912345678"


def test_replacements_are_consistent_within_a_record():
    r = deidentify("患者张三，男。张三诉胸痛。联系人：李四，电话13812345678，再次拨打13812345678。", seed=3)
    names = {x.original: x.replacement for x in r.replacements if x.kind == "name"}
    assert "张三" not in r.text and "13812345678" not in r.text
    reps = [x.replacement for x in r.replacements if x.original == "13812345678"]
    assert len(reps) == 2 and reps[0] == reps[1]
    assert len(set(names.values())) == len(names)


def test_dates_shift_together_and_keep_intervals():
    text = "2023年3月5日入院，2023年3月15日出院，2023-04-01复查。"
    r = deidentify(text, seed=7)
    dates = [x for x in r.replacements if x.kind == "date"]
    assert len(dates) == 3

    def parse(s):
        y, m, d = map(int, re.findall(r"\d+", s))
        return dt.date(y, m, d)

    before = [parse(x.original) for x in dates]
    after = [parse(x.replacement) for x in dates]
    assert after[1] - after[0] == before[1] - before[0]
    assert after[2] - after[0] == before[2] - before[0]
    assert after[0] != before[0]
    # the format is kept
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", dates[2].replacement)


def test_same_seed_same_output_different_seed_different_shift():
    text = "于2023年3月5日入院，患者张三。"
    assert deidentify(text, seed=1).text == deidentify(text, seed=1).text
    assert deidentify(text, seed=1).text != deidentify(text, seed=2).text


def test_replacement_offsets_refer_to_the_input():
    text = "身份证号：110101199003074514，住院号：ZY20230145"
    for x in deidentify(text).replacements:
        assert text[x.start : x.end] == x.original


def test_address_and_hospital():
    found = {(p.kind, p.original) for p in find_phi("现住址：浙江省杭州市西湖区文三路123号。曾于北京协和医院就诊。")}
    assert ("address", "浙江省杭州市西湖区文三路123号") in found
    assert ("hospital", "北京协和医院") in found


def test_phi_warnings_flag_identifiers_but_not_masked_names():
    assert phi_warnings("患者张某，男，45岁，3天前出现胸痛。") == []
    warnings = phi_warnings("患者张某，身份证号110101199003074514，手机13812345678")
    assert len(warnings) == 2
    assert any("身份证" in w for w in warnings) and any("13812345678" in w for w in warnings)


def test_deidentified_text_raises_no_warnings():
    text = "姓名：张三\n身份证号：110101199003074514\n电话：13812345678\n2023年3月5日入院"
    assert phi_warnings(deidentify(text).text) == []


def test_structured_identifiers_on_the_heldout_set():
    from text_phi_heldout import records as heldout

    metrics = score(heldout())
    for kind in STRUCTURED_KINDS:
        if kind in metrics:
            assert metrics[kind]["precision"] >= 0.95 and metrics[kind]["recall"] >= 0.95, (kind, metrics[kind])


def test_dates_in_chinese_numerals_shift_too():
    r = deidentify("二〇二二年五月六日复查，二〇二二年十二月三十一日出院", seed=2)
    assert [x.kind for x in r.replacements] == ["date", "date"]
    assert "二〇二二年五月六日" not in r.text


# ------------------------------------------------ names next to a role word, employers

def _names(text):
    return [p.original for p in find_phi(text) if p.kind == "name"]


@pytest.mark.parametrize("text,names", [
    ("主治医师李明查房。", ["李明"]),
    ("家属张秀英陪同。", ["张秀英"]),
    ("其妻张秀英代诉病史。", ["张秀英"]),
    ("由王建国医生接诊。", ["王建国"]),
    ("患者刘德华之子刘强陪同。", ["刘德华", "刘强"]),
    ("责任护士陈丽巡视病房，患者无不适。", ["陈丽"]),
    ("今日由欧阳建华主任主刀行腹腔镜胆囊切除术。", ["欧阳建华"]),
    ("其夫孙志刚诉患者昨晚呕吐3次。", ["孙志刚"]),
    ("联系人黄丽华（女儿），电话13812345678。", ["黄丽华"]),
    ("请周敏护士协助翻身。", ["周敏"]),
])
def test_role_anchored_names(text, names):
    assert _names(text) == names


@pytest.mark.parametrize("text", [
    "主治医师查房，患者一般情况尚可。",
    "家属陪同入院。",
    "其妻代诉病史。",
    "经治医生于今日查房，嘱继续抗感染治疗。",
    "家属同意手术，签署知情同意书。",
    "医生和家属沟通病情，家属表示理解。",
    "由值班医生接诊，护士长巡视病房。",
    "主任查房后指示：完善胃镜检查。",
    "患者向医生诉腹痛加重，管床医生予解痉治疗。",
    "张医生查房后指示：继续抗感染治疗。",
    "患者王某某之子陪同。",
    "其子女均体健。",
])
def test_role_words_without_a_name_take_nothing(text):
    assert [n for n in _names(text) if not n.endswith("某")] == []


@pytest.mark.parametrize("text,employer", [
    ("工作单位：北京市第一中学。", "北京市第一中学"),
    ("职业：教师，工作单位：杭州市西湖区教育局。", "杭州市西湖区教育局"),
    ("患儿就读学校：长沙市育才小学，三年级。", "长沙市育才小学"),
    ("患者就职于华为技术有限公司，长期伏案工作。", "华为技术有限公司"),
])
def test_employer_and_school_are_identifiers(text, employer):
    found = [(p.kind, p.original) for p in find_phi(text)]
    assert ("employer", employer) in found


@pytest.mark.parametrize("text", [
    "职业：教师。",
    "剂量单位：mg。",
    "患者为中学教师，长期伏案工作。",
    "在学校体检时发现血压升高。",
    "计量单位换算：1mmol/L。",
])
def test_occupations_and_unit_words_are_not_employers(text):
    assert [p for p in find_phi(text) if p.kind == "employer"] == []


def test_role_names_are_replaced_consistently():
    r = deidentify("家属张秀英陪同。其妻张秀英代诉病史。工作单位：北京市第一中学。", seed=5)
    assert "张秀英" not in r.text and "北京市第一中学" not in r.text
    reps = {x.replacement for x in r.replacements if x.original == "张秀英"}
    assert len(reps) == 1


# --- names after time words, before verbs learned from jieba's tags, in lists; hospital short names ---


def _names(text):
    return [p.original for p in find_phi(text) if p.kind == "name"]


def _hospitals(text):
    return [p.original for p in find_phi(text) if p.kind == "hospital"]


def test_a_time_word_bounds_a_name_before_a_title():
    assert _names("今日赵立新主任查房，指示完善腹部CT。") == ["赵立新"]
    assert _names("昨日何晓东主任查房后，调整降压方案。") == ["何晓东"]
    assert _names("今晨宋雨婷护士测血压150/90mmHg。") == ["宋雨婷"]


def test_a_department_bounds_a_name_before_a_title():
    assert _names("请心内科黎振华教授会诊。") == ["黎振华"]


def test_a_verb_from_jieba_tags_ends_a_name_after_a_role_word():
    assert _names("患儿由其母马晓燕抱入诊室。") == ["马晓燕"]
    assert _names("责任护士邓倩测体温38.6℃。") == ["邓倩"]
    assert _names("护士陆晓云给予吸氧2L/min。") == ["陆晓云"]
    assert _names("护士马丽巡视病房。") == ["马丽"]  # 巡视 is the verb, not 马丽巡 + 视


def test_a_one_character_verb_that_makes_a_word_with_the_character_before_does_not_end_a_name():
    assert _names("医生和家属沟通病情，家属表示理解。") == []


def test_a_time_word_after_a_name_ends_it():
    assert _names("患者丈夫龙海今日来院，要求办理出院。") == ["龙海"]


def test_function_words_are_not_given_names():
    assert _names("医生应如何识别患者的心理危机信号，医生和患者的对话，由于每位医生的专长不同。") == []


def test_names_in_a_list_after_a_found_name():
    assert _names("医师：唐国栋、韩雪") == ["唐国栋", "韩雪"]
    assert _names("主刀：雷振宇；助手：钟华、谢婷婷；麻醉：安晓峰") == ["雷振宇", "钟华", "谢婷婷", "安晓峰"]
    assert _names("签字人：尹秀珍（患者配偶）") == ["尹秀珍"]


def test_operation_labels_take_only_what_looks_like_a_name():
    assert _names("麻醉：全麻；助手：无。诊断：高血压3级，方案同前。") == []


def test_a_name_after_a_day_word_and_before_a_verb():
    assert _names("今晨潘玉兰测体温37.9℃，予物理降温。") == ["潘玉兰"]
    # 术后/早期 are time words but not days; known words are not names
    assert _names("术后康复训练，早期康复组治疗效果好。昨日康复训练顺利。") == []


def test_words_that_start_with_a_family_name_character_are_not_names():
    text = ("主任查房：既往高血压病史，周围淋巴结未触及，白细胞升高，痰培养示金黄色葡萄球菌，皮肤无黄疸，"
            "予石膏固定，常规换药，方案同前。诊断：帕金森病，桥本甲状腺炎。予金水宝胶囊、王不留行籽。")
    assert _names(text) == []


def test_hospital_short_names_from_the_lexicon():
    assert _hospitals("后于协和风湿免疫科随诊。") == ["协和"]
    assert _hospitals("曾于华西行冠脉造影，后转至华西医院心外科。") == ["华西", "华西医院"]
    assert _hospitals("2018年曾在301医院体检。") == ["301医院"]
    assert _hospitals("出院后于北医三院内分泌科随诊。") == ["北医三院"]


def test_hospital_stems_with_numbered_or_affiliated_endings():
    assert _hospitals("请中山一院心内科会诊。") == ["中山一院"]
    assert _hospitals("2020年于浙大一院行肝移植术。") == ["浙大一院"]
    assert _hospitals("转至安医大二附院。") == ["安医大二附院"]


def test_hospital_short_names_that_run_on_into_something_else_are_not_hospitals():
    assert _hospitals("患者住华西村，在中山市务工，曾登华山，301床，转至市人民医院。") == []


def test_hospital_short_name_lexicon_has_source_and_licence():
    from medsim.paths import lexicons_dir

    head = (lexicons_dir() / "hospital_short_names.txt").read_text(encoding="utf-8").splitlines()[:5]
    assert any(line.startswith("# source:") for line in head)
    assert any(line.startswith("# licence:") for line in head)


def test_the_second_held_out_set_keeps_its_figures():
    from text_phi_heldout2 import records as heldout2

    metrics = score(heldout2())
    for kind, m in metrics.items():
        assert m["precision"] >= 0.95, (kind, m)
    assert metrics["name"]["recall"] >= 0.95 and metrics["hospital"]["recall"] >= 0.95, metrics


def test_medical_words_jieba_tags_as_names_are_not_names():
    # jieba's dictionary tags 麻醉 and 康复 nr; the THUOCL medical list knows them
    assert _names("麻醉方式：全身麻醉；麻醉医师：俞海波。由康复医师评估，康复科会诊。") == ["俞海波"]


def test_more_kin_and_staff_words_anchor_names():
    assert _names("患儿由其外婆尚桂芝抱入急诊室。") == ["尚桂芝"]
    assert _names("康复科季红英治疗师会诊：建议床旁康复训练。") == ["季红英"]
    assert _names("向家属储志勇交代病情。") == ["储志勇"]


def test_a_university_stem_before_a_listed_hospital_name():
    assert _hospitals("患者系复旦中山医院心内科转入。") == ["复旦中山医院"]
