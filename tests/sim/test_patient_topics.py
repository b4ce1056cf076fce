"""Topic understanding of the rule patient, measured on the labelled question set."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from medsim.sim.topic_nn import BANK_PATH
from medsim.sim.topics import TOPICS, classify, classify_rules

# The training bank ships with the package (medsim/sim/topic_examples.yaml: the lists already
# absorbed into the rules, which the nearest-neighbour fallback also searches). Fresh held-out
# lists stay here in tests/sim/data/heldout.yaml, outside the package, so the classifier can
# never read a list it is measured on.
BANK = yaml.safe_load(BANK_PATH.read_text(encoding="utf-8"))
HELDOUT = yaml.safe_load((Path(__file__).parent / "data" / "heldout.yaml").read_text(encoding="utf-8"))
DATA = {**BANK, **HELDOUT}
# Lists that reached 0.9 are asserted; a list below it is measured and printed only (its first
# measurement is recorded in the YAML), so a fresh list's honest figure stays visible.
ASSERTED = ["questions", "heldout", "heldout2", "heldout3", "heldout4"]
MEASURED = ["heldout5", "heldout6", "heldout7"]


def test_no_heldout_list_is_in_the_training_bank():
    assert not set(BANK) & set(HELDOUT)
    bank_questions = {item["q"] for items in BANK.values() for item in items}
    assert not bank_questions & {item["q"] for items in HELDOUT.values() for item in items}


def accuracy(items: list[dict]) -> tuple[float, list[tuple]]:
    """Exact-set accuracy: topics and the named symptoms/conditions must all match."""
    misses = []
    for item in items:
        parsed = classify(item["q"])
        ok = (set(parsed.topics) == set(item["topics"])
              and set(parsed.symptoms) == set(item.get("symptoms", []))
              and set(item.get("conditions", [])) <= set(parsed.conditions))
        if not ok:
            misses.append((item["q"], item["topics"], parsed.topics, parsed.symptoms))
    return 1 - len(misses) / len(items), misses


def test_question_set_is_large_and_labelled_with_known_topics():
    items = sum((DATA[part] for part in ASSERTED + MEASURED), [])
    assert len(DATA["questions"]) >= 200
    for item in items:
        assert set(item["topics"]) <= set(TOPICS), item
    # every topic the patient understands has several phrasings
    counts = {t: sum(t in i["topics"] for i in items) for t in TOPICS}
    assert min(counts.values()) >= 3, counts


@pytest.mark.parametrize("part", ASSERTED)
def test_topic_accuracy(part):
    acc, misses = accuracy(DATA[part])
    print(f"{part}: topic accuracy {acc:.3f} on {len(DATA[part])} questions; misses: {misses}")
    assert acc >= 0.9, misses


# Lists that have not reached 0.9 yet are measured and printed, not asserted.
@pytest.mark.parametrize("part", MEASURED)
def test_topic_accuracy_measured(part):
    acc, misses = accuracy(DATA[part])
    print(f"{part}: topic accuracy {acc:.3f} on {len(DATA[part])} questions; misses: {misses}")


def test_lay_synonym_and_colloquial_forms():
    assert classify("心口疼不疼？").symptoms == ["胸痛"]
    assert classify("拉不拉肚子？").symptoms == ["腹泻"]
    assert classify("啥时候开始的？").topics == ["onset"]
    assert classify("哪儿疼？").topics == ["site"]


def test_sentences_are_classified_separately():
    parsed = classify("平时吃什么药？有没有过敏？")
    assert parsed.topics == ["medications", "allergies"]  # in the order asked


def test_order_tags_do_not_look_like_questions():
    from medsim.sim.patient_rule import _ORDER_TAG

    assert classify(_ORDER_TAG.sub("", "【开检查】血常规、心电图\n还有别的不舒服吗？")).topics == ["associated"]


def test_one_character_body_part_needs_a_word_of_its_own():
    from medsim.sim.topics import named_items

    assert "Ｂ" not in named_items("是不是像有块石头压着？")[2]  # 头 inside 石头
    assert "Ｂ" not in named_items("馒头吃得下吗？")[2]
    assert named_items("头哪个部位疼？")[2].startswith("Ｂ")
    assert classify("头哪个部位疼？前额还是后脑勺？").topics == ["site"]


def test_a_household_object_is_not_family_history():
    assert "family_history" not in classify("家里有体温计吗？").topics
    assert classify("家里有没有测过血压？").topics == ["vitals"]
    assert classify("家里有没有人得过糖尿病？").topics == ["family_history"]
    assert classify("家里有这病吗？").topics == ["family_history"]
    assert classify("家里有高血压的吗？").topics == ["family_history"]


def test_nearest_neighbour_fallback():
    from medsim.sim import topic_nn

    # phrasings no cue pattern catches are answered from their nearest bank questions
    for question, topic in (("您今年高龄？", "age"), ("以往有啥大病没？", "past_history")):
        parsed = classify(question)
        assert parsed.topics == [topic] and parsed.fuzzy, (question, parsed)
    assert topic_nn.nearest_topics("抽烟吗") == ["smoking"]  # a bank question finds itself
    # an acknowledgement asks nothing: no guess
    assert classify("嗯嗯").topics == [] and not classify("嗯嗯").fuzzy
    assert classify("是吗？").topics == []
    # a final answer in JSON asks nothing
    assert classify('{"diagnosis": "急性冠脉综合征"}').topics == []
    # the bank is read from the package directory (shipped as package data)
    assert topic_nn.BANK_PATH.parent.name == "sim" and len(topic_nn.index().examples) >= 500


def test_published_topic_names_are_the_classifiers():
    """scenarios/README.md publishes the topic names: the table and TOPICS are the same set, in order."""
    import re

    readme = (Path(__file__).resolve().parents[2] / "scenarios" / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Patient topics", 1)[1].split("\n## ", 1)[0]
    published = re.findall(r"^\| `([a-z_]+)` \|", section, re.M)
    assert tuple(published) == TOPICS


@pytest.mark.parametrize("question, topics", [
    # a closing 吧 / 呢 / 么 asks as 吗 does
    ("发烧吧？", ["associated"]),
    ("孩子头疼么？", ["associated"]),
    # a previous doctor's examination is a test; drips, injections, a course of medicine are treatment
    ("上个医生听诊了吗？", ["tests"]),
    ("大夫给听过肺没有？", ["tests"]),
    ("输了几天液了？", ["treatment"]),
    ("在诊所打了几天针？", ["treatment"]),
    ("中间停过药吗？", ["treatment"]),
    ("医生有没有排除肺炎？", ["treatment"]),
    # 多大 / 多久 / 几天: age, how long, or since when it is better
    ("孩子现在三个月大吗？", ["age"]),
    ("疼了多大一会儿？", ["duration"]),
    ("体温正常几天了？", ["course"]),
    ("间隔多久烧一次？", ["course"]),
    # how bad: whether it stops sleep, whether the symptom is heavy
    ("咳嗽影响孩子睡觉吗？", ["severity"]),
    ("拉肚子症状重吗？", ["severity"]),
    # still there is a named symptom asked yes/no (TOPICS.md: associated); the first time is the course
    ("还有没有咳嗽？", ["associated"]),
    ("宝宝还发热吗？", ["associated"]),
    ("这是第一次发烧吗？", ["course"]),
    # how often, on and off: the course
    ("咳嗽勤吗？", ["course"]),
    ("有没有超过三次？", ["course"]),
    ("拉绿色的大便是持续性的还是间断性的呢？", ["course"]),
    # 一天大概 / 一天大便 are no age; stool frequency beside its look is both
    ("一天大概咳多少痰？是白泡沫痰、黄脓痰，还是带血？", ["character"]),
    ("大便一天几次？什么颜色？", ["general", "character"]),
    # urine and night urination are the general question; sweating in sleep is a sign
    ("宝宝小便量少吗？", ["general"]),
    ("夜里起几次夜？", ["general"]),
    ("晚上睡觉出不出汗？", ["associated"]),
    # when: 是前天发热的吗; what is wrong: 主要是发烧，对吗
    ("是前天发热的吗？", ["onset"]),
    ("宝贝主要是发烧，对吗？", ["chief_complaint"]),
    # what this illness was called: a diagnosis asked as a confirmation or an alternative
    ("还是说是感冒？", ["treatment"]),
    ("那种肺炎呢？", ["treatment"]),
    ("支气管炎还是肺炎？", ["treatment"]),
    # a hospital stay and a course of treatment in days; going to hospital for a check
    ("住了几天了？", ["treatment"]),
    ("小儿止咳糖浆现在服用多久了？", ["treatment"]),
    ("有没有带宝宝去医院检查？", ["treatment", "tests"]),
    ("在当地医院查血常规了吗？", ["tests"]),
    # an examination's finding; 医生给孩子 is no childbirth question
    ("医生给孩子听肺部有湿啰音吗？", ["tests"]),
    # a relative's own symptom is a contact; the parent spoken to is not asked about
    ("孩子妈妈有没有腹泻？", ["triggers"]),
    ("妈妈，宝宝有没有发烧？", ["associated"]),
    # a food new to the child; how long a feed lasts
    ("第一次吃奶粉吗？", ["triggers"]),
    ("每次吃奶，吃多长时间？", ["general"]),
    # a weight change is the general question; the weight in kg is a measured value
    ("胃口怎么样，这两年体重是轻了还是重了？", ["general"]),
    ("体重多少斤？", ["vitals"]),
    # a laboratory result named by its analyte
    ("尿常规里白细胞高吗？", ["tests"]),
    ("c反应蛋白多少？", ["tests"]),
    # sputum asked on its own is the cough's character; in a chain of yes/no symptoms, one more symptom
    ("有痰吗？", ["character"]),
    ("嗓子疼不疼？咳不咳？有痰没？", ["associated"]),
    # signs whose words read as the bowels or sleep
    ("放屁多不多？", ["associated"]),
    ("睡觉的时候哭闹吗？", ["associated"]),
    # stool frequency is the bowels (TOPICS.md: general, how often)
    ("大便一天几次？", ["general"]),
    # a new food as what brought it on
    ("最近新添加了什么辅食吗？", ["triggers"]),
    # the amount asked right after a habit is the habit's (not eating or drinking in general)
    ("喝酒不？一次喝多少？", ["drinking"]),
    # why they are in hospital is the complaint; whether they are in hospital is treatment
    ("您这次住院主要是因为什么？", ["chief_complaint"]),
    ("孩子现在是住院了吗？", ["treatment"]),
])
def test_real_doctor_phrasing(question, topics):
    assert classify(question).topics == topics, (question, classify(question))


def test_every_symptom_of_a_yes_no_list_is_heard_even_when_two_mask_alike():
    from medsim.sim.topics import classify

    # 发烧 and 咳嗽 mask alike (two characters each): each clause is read where it stands
    assert classify("有没有发烧，咳嗽？").symptoms == ["发热", "咳嗽"]
    assert set(classify("发烧，咳嗽，流鼻涕，拉肚子不").symptoms) == {"发热", "咳嗽", "流涕", "腹泻"}


@pytest.mark.parametrize("question, topics", [
    # the open question, however it is put (TOPICS.md chief_complaint); 还有什么症状 stays associated
    ("孩子有哪些症状呢？", ["chief_complaint"]),
    ("宝宝是什么情况？", ["chief_complaint"]),
    ("除了发烧还有什么症状？", ["associated"]),
    ("什么情况下会加重？", ["triggers"]),
    # when it began, set against birth or a day of life (onset), not how long it has lasted
    ("从出生就这样吗？", ["onset"]),
    ("宝宝第几天出现黄染的？", ["onset"]),
    # when the care was is the care's question, not the illness's onset
    ("什么时候看的医生？", ["treatment"]),
    # a symptom at the start asked yes/no; 有没 asks as 有没有 does (有没有没劲 keeps its 没劲)
    ("刚开始的时候有没发热？", ["associated"]),
    ("手脚有没有没劲？", ["associated"]),
    # a condition now, or after a test or a doctor, is this illness's, not past history
    ("目前身上有荨麻疹吗？", ["associated"]),
    ("拍胸片了吗？有气管炎和肺炎吗？", ["tests"]),
    ("以前得过肺炎吗？", ["past_history"]),
    ("宝宝湿疹多吗？", ["severity"]),
    # a doctor seen and a test done, asked in one sentence: both
    ("反复发热一个月，看过医生吗，检查过吗？", ["treatment", "tests"]),
    # a compound of clauses that each ask: every part heard
    ("宝宝咳嗽厉害吗，有没有发热？", ["severity", "associated"]),
    ("现在咳嗽的厉害吗，服用了哪些药物？", ["severity", "treatment"]),
    # after the medicine, how the named complaint has gone is the course too
    ("现在还在吃药吗？咳嗽有没有减轻些？", ["treatment", "course"]),
    ("来之前吃过药没？管用不？", ["treatment"]),
    # a temperature in ℃ (folded from 度) is a measured value
    ("还是可以达到39度以上吗？", ["vitals"]),
    # advice with nothing asked is the visit's ending
    ("如果没有脱水的情况可以继续口服药物。", ["ending"]),
])
def test_topics7_classes(question, topics):
    assert classify(question).topics == topics, (question, classify(question))


@pytest.mark.parametrize("question,topics", [
    # a period said back as a question is how long it has lasted (几个月了？ of a baby stays the age)
    ("咳嗽有两周？", ["duration"]),
    ("宝宝几个月了？", ["age"]),
    ("现在宝宝是五十天了吧？", ["age"]),
    # 大夫 is 医生: what the doctor said is this illness's care
    ("大夫怎么说的？", ["treatment"]),
    # a medicine named by its symptom (咳嗽药, 退烧药) is a medicine, not the symptom asked
    ("给孩子吃的止泻药是什么药？", ["treatment"]),
    # care sought or bought: a pharmacy, 就医, a course of medicine said back in days
    ("药是在药房买的吗？", ["treatment"]),
    ("这些药都吃了两天了？", ["treatment"]),
    ("到医院看过吗？", ["treatment"]),
    # supplements a child takes daily are regular medicines
    ("平时有没有吃伊可新？", ["medications"]),
    # the bowels' frequency is the general question, a follow-up count with it
    ("小便次数怎么样？", ["general"]),
    # jaundice measured is a test result, not the sign asked yes/no
    ("测过黄疸值吗？", ["tests"]),
    # which came first is how it began
    ("是先发烧后咳嗽的吗？", ["onset"]),
    ("是洗完澡后发现的吗？", ["onset"]),
    # whether it happened before, the object first; how often a year
    ("这样的情况以前出现过吗？", ["course"]),
    ("一年大概病几次？", ["course"]),
    # causes the patient can tell: hygiene, weather, a breast-feeding mother's food
    ("餐具有消毒吗？", ["triggers"]),
    ("最近气温变化大吗？", ["triggers"]),
    ("妈妈最近吃辣的了吗？", ["triggers"]),
    # an open question for other symptoms beside a general one keeps both
    ("还有别的不舒服吗，睡觉怎么样？", ["associated", "general"]),
    # a sign at a body part is asked yes/no; the place alone is the site
    ("宝宝嘴里有异味吗？", ["associated"]),
    ("是肚脐这里吗？", ["site"]),
    # a rate counted is a measured value
    ("心率每分钟多少次？", ["vitals"]),
    # birth history; who is speaking asks nothing; advice said asks nothing
    ("生下来胎便正常吗？", ["past_history"]),
    ("你是孩子的爸爸吧？", []),
    ("这个药可以继续服用", ["ending"]),
    # the complaint's kind named with it, a discharge's smell, a breathing sound described: its character
    ("是痉挛性咳嗽吗？", ["character"]),
    ("大便有没有腥臭味？", ["character"]),
    ("痰是咕噜咕噜的声音还是嘶嘶的声音？", ["character"]),
    ("喘的时候有没有呼噜呼噜的声音？", ["associated"]),
    ("有没有口臭？", ["associated"]),
    # 去医院检查没 asks (a closing 没), it is no arrangement
    ("去医院看过没？", ["treatment"]),
])
def test_topics8_classes(question, topics):
    assert classify(question).topics == topics, (question, classify(question))


@pytest.mark.parametrize("question,topics", [
    # what a stool holds or is like, named without the word 大便, is its character
    ("大便里有没有黏液？", ["character"]),
    ("拉的是水样的吗？", ["character"]),
    # the time of day it is worse or comes is its pattern, the course (one time asked yes/no: severity)
    ("宝宝什么时候咳得最厉害？", ["course"]),
    ("是不是晚上睡下后容易咳？", ["course"]),
    ("夜里咳嗽重吗？", ["severity"]),
    # whether it has come down, how the recovery goes, how a named complaint is now: the course
    ("热度有没有退下来？", ["course"]),
    ("目前鼻塞怎么样？", ["course"]),
    ("肺炎恢复得怎么样？", ["course"]),
    # a clause of its own asks the past beside the family
    ("以前有没有得过肺炎，家里有没有人哮喘？", ["past_history", "family_history"]),
    # the doctor as the one who examined: the tests; a visit beside the examination stays asked
    ("医生给孩子查过哪些化验？", ["tests"]),
    ("看过医生吗，听诊过肺吗？", ["treatment", "tests"]),
    # the diagnosis considered is this illness's care
    ("当地医院考虑是什么病？", ["treatment"]),
    # 多大 of a thing is its size (a rash's extent; a nodule's, by imaging), of the child the age
    ("疹子有多大？", ["site"]),
    ("结节多大？", ["tests"]),
    ("孩子多大了？", ["age"]),
    # the evening of a day it was found
    ("是昨晚出现的吗？", ["onset"]),
    # much wind is a sign; passing wind at all is the bowels' everyday function
    ("放屁多不多？", ["associated"]),
    ("今天有排气吗？", ["general"]),
    # a sign at a feed or at passing urine is the illness's sign, not the feeding
    ("喂奶的时候会呛吗？", ["associated"]),
    ("小便的时候哭闹吗？", ["associated"]),
    # a feed straight before it is what brings it on
    ("喝完奶就吐吗？", ["triggers"]),
    # a medicine's first time is the treatment, not the illness's course
    ("这个药是第一次用吗？", ["treatment"]),
])
def test_topics9_classes(question, topics):
    assert classify(question).topics == topics, (question, classify(question))
    assert classify_rules(question).topics == topics, (question, classify_rules(question))
