"""Findings read in a consultation: a clinician's question takes the patient's answer."""

from medsim.text import polarity_model
from medsim.text.dialogue import judge_dialogue, rule_dialogue


def _turns(*pairs):
    """(speaker, text, term) → turns with the term's span marked."""
    out = []
    for speaker, text, term in pairs:
        spans = [(text.index(term), text.index(term) + len(term))] if term else []
        out.append((speaker, text, spans))
    return out


def test_question_takes_a_bare_no():
    turns = _turns(("doctor", "宝宝有没有发烧？", "发烧"), ("patient", "没有", None))
    assert rule_dialogue(turns)[0][0].polarity == "absent"


def test_question_takes_a_yes_or_the_symptom_named_back():
    yes = _turns(("医生", "有没有咳嗽？", "咳嗽"), ("患者", "有的，晚上咳得厉害", None))
    assert rule_dialogue(yes)[0][0].polarity == "present"
    named = _turns(("doctor", "拉肚子吗？", "拉肚子"), ("patient", "今天拉了三次，不过不吐", None))
    assert rule_dialogue(named)[0][0].polarity == "present"


def test_unanswered_question_stays_uncertain():
    turns = _turns(("doctor", "有没有呕吐？", "呕吐"), ("doctor", "孩子多大了？", None))
    assert rule_dialogue(turns)[0][0].polarity == "uncertain"


def test_a_disease_the_clinician_explains_is_not_said_of_the_patient():
    turns = _turns(("doctor", "支气管炎的话没有肺炎严重", "支气管炎"))
    assert rule_dialogue(turns)[0][0].polarity == "uncertain"
    stated = _turns(("doctor", "宝宝这个是支气管炎", "支气管炎"))
    assert rule_dialogue(stated)[0][0].polarity == "present"


def test_patient_turns_are_read_as_said():
    turns = _turns(("patient", "现在没发烧就是咳嗽", "咳嗽"))
    assert [f.polarity for f in judge_dialogue(turns)[0]] == ["present"]


def test_learned_model_ships_and_scores_features():
    assert polarity_model.available(), "medsim/text/polarity_weights.json.gz must ship with the package"
    label, p = polarity_model.predict(["bias", "r=absent", "w=p", "c=没有"])
    assert label in polarity_model.LABELS and 1 / 3 <= p <= 1.0
    turns = _turns(("doctor", "有没有发烧？", "发烧"), ("patient", "没有", None))
    assert judge_dialogue(turns)[0][0].polarity == "absent"


def test_training_learns_a_separable_signal():
    samples = [(["bias", "cue=没"], "absent")] * 20 + [(["bias", "cue=吗"], "uncertain")] * 20 \
        + [(["bias"], "present")] * 20
    w = polarity_model.train(samples, epochs=8)
    assert polarity_model.predict(["bias", "cue=没"], w)[0] == "absent"
    assert polarity_model.predict(["bias", "cue=吗"], w)[0] == "uncertain"
    assert polarity_model.predict(["bias"], w)[0] == "present"


def test_concept_matches_a_symptom_written_in_other_words():
    from medsim.text.analysis import judge_spans
    from medsim.text.dialogue import concept

    def one(text, term):
        s = text.index(term)
        return concept(judge_spans(text, [(s, s + len(term))])[0])

    assert one("晚上咳得厉害", "咳得") == one("孩子咳嗽三天了", "咳嗽")
    assert one("吃完奶就吐出来", "吐出来") == one("今天呕吐两次", "呕吐")
    assert one("昨晚烧到39度", "烧") == one("孩子发烧了", "发烧")
    assert one("孩子咳嗽三天了", "咳嗽") != one("今天呕吐两次", "呕吐")


def test_context_features_read_the_other_mentions_of_the_same_symptom():
    from medsim.text.dialogue import context_features

    turns = _turns(("patient", "孩子拉肚子三天了，一天拉五六次", "拉肚子"),
                   ("doctor", "宝宝拉肚子多是消化不良引起的", "拉肚子"),
                   ("doctor", "平时有没有湿疹？", "湿疹"))
    found = rule_dialogue(turns)
    labels = {(0, 0): "present", (1, 0): "uncertain", (2, 0): "uncertain"}
    feats = context_features(turns, found, labels, 1, 0)
    assert "Xd|ob=present" in feats and "Xd|nbo=present" in feats  # the parent said it before
    assert "X|own=uncertain" in feats
    assert "Xd|none" in context_features(turns, found, labels, 2, 0)  # nobody else names 湿疹


def test_clinician_restating_what_the_parent_reported_is_present():
    assert polarity_model.context_weights() is not None, "the second reading's weights must ship"
    turns = _turns(("patient", "孩子拉肚子三天了，一天拉五六次，水样的", "拉肚子"),
                   ("doctor", "宝宝拉肚子，大便水样，要注意补液防止脱水", "拉肚子"))
    assert [fs[0].polarity for fs in judge_dialogue(turns)] == ["present", "present"]


def test_a_no_to_everything_asked_covers_each_finding():
    text = "有没有感冒的表现？如鼻塞？流涕？咳嗽？"
    spans = [(text.index(t), text.index(t) + len(t)) for t in ("鼻塞", "流涕", "咳嗽")]
    turns = [("doctor", text, spans), ("patient", "没受凉，这些都没有", [])]
    assert [f.polarity for f in rule_dialogue(turns)[0]] == ["absent"] * 3
    fine = _turns(("doctor", "宝宝有哭闹吗？", "哭闹"), ("patient", "这些都是正常的", None))
    assert rule_dialogue(fine)[0][0].polarity == "absent"


def test_an_answer_that_denies_the_asked_words_is_a_no():
    hoarse = _turns(("doctor", "宝宝嗓子哑吗？", "嗓子哑"), ("patient", "嗓子不哑，感觉有痰", None))
    assert rule_dialogue(hoarse)[0][0].polarity == "absent"
    bloated = _turns(("doctor", "肚子胀吗", "肚子胀"), ("patient", "不胀", None))
    assert rule_dialogue(bloated)[0][0].polarity == "absent"
    yes = _turns(("doctor", "大便稀吗", "大便稀"), ("patient", "嗯，有点稀", None))
    assert rule_dialogue(yes)[0][0].polarity == "present"


def test_concept_keeps_infections_and_body_parts_apart():
    from medsim.text.analysis import judge_spans
    from medsim.text.dialogue import concept

    def of(text, term):
        s = text.index(term)
        return concept(judge_spans(text, [(s, s + len(term))])[0])

    assert of("查血是病毒感染", "病毒感染") != of("查血是细菌感染", "细菌感染")
    assert of("考虑呼吸道感染", "呼吸道感染") != of("考虑支原体感染", "支原体感染")
    assert of("嗓子有点哑", "嗓子有点哑") != "咽部"  # the hoarseness, not the throat
    assert of("咳得厉害", "咳得") == "咳嗽"


def test_a_question_about_how_a_finding_is_takes_it_as_given():
    # 咳嗽厉害吗 — 不厉害: the no answers the attribute; the cough is there
    turns = _turns(("doctor", "咳嗽厉害吗？", "咳嗽"), ("patient", "不是很厉害", None))
    assert rule_dialogue(turns)[0][0].polarity == "present"
    spared = _turns(("doctor", "除了腹泻还有其他症状吗？", "腹泻"), ("patient", "没有了", None))
    assert rule_dialogue(spared)[0][0].polarity == "present"
    # a question about the finding itself still takes the answer
    asked = _turns(("doctor", "咳嗽吗？", "咳嗽"), ("patient", "不咳", None))
    assert rule_dialogue(asked)[0][0].polarity == "absent"


def test_why_features_name_the_reason_a_mention_is_uncertain():
    from medsim.text.polarity_model import why_features

    def why(text, term):
        s = text.index(term)
        return why_features("p", text, s, s + len(term), 0, len(text))

    assert "why=guess" in why("好像有点发烧", "发烧")
    assert "why=worry" in why("担心是肺炎", "肺炎")
    assert "why=cond" in why("要是拉肚子怎么办", "拉肚子")
    assert "whyr=q_self" in why("是拉肚子吗", "拉肚子")
    assert "whyr=q_how" in why("大便带血怎么办", "大便带血")
    assert not any(f.startswith("why=") for f in why("宝宝咳嗽三天了", "咳嗽"))


def test_a_question_word_before_the_finding_in_its_clause_takes_the_answer():
    # 有没有 heads the clause, no question mark after the finding: the answer still decides
    turns = _turns(("doctor", "大便有没有粘液或者血丝", "血丝"), ("patient", "没有", None))
    assert rule_dialogue(turns)[0][0].polarity == "absent"
    # a finding in an earlier clause of the sentence is not what was asked
    told = _turns(("doctor", "宝宝咳嗽两天了，有痰吗？", "咳嗽"), ("patient", "没有", None))
    assert rule_dialogue(told)[0][0].polarity == "present"


def test_a_later_reply_answers_a_question_the_first_reply_passed_over():
    # the first reply answers something else; the second names the asked symptom
    second = _turns(("doctor", "宝宝还发烧吗？", "发烧"), ("patient", "今天拉了两次", None),
                    ("patient", "发烧没有了", None))
    assert rule_dialogue(second)[0][0].polarity == "absent"
    # the clinician asks on before the parent replies to both
    asked_on = _turns(("doctor", "有没有呕吐？", "呕吐"), ("doctor", "孩子多大了？", None),
                      ("patient", "一岁了，没有呕吐", None))
    assert rule_dialogue(asked_on)[0][0].polarity == "absent"
    # a bare no after another question may answer that one: the asked finding stays open
    bare = _turns(("doctor", "有没有呕吐？", "呕吐"), ("doctor", "吃过药吗？", None), ("patient", "没有", None))
    assert rule_dialogue(bare)[0][0].polarity == "uncertain"
