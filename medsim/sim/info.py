"""Information gathering in one episode: which key facts the clinician drew out, how many
questions it asked, which it asked twice, and how many turns it took to decide.

Read from the transcript alone. A key fact counts as *elicited* when a patient or oracle
turn after the clinician's first message disclosed record content matching it (the
``disclosed`` list each such turn carries in ``turn.meta``); a fact disclosed before the
clinician said anything (the opening) was *volunteered*: it is reported, and left out of
the fraction, since nothing had to be asked for it. A fact no turn could convey (the record
holds it only as a result the patient may not quote, and no test returns it) is reported as
*unreachable* and left out too: that is a gap in the case, not in the questioning.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from rapidfuzz import fuzz

from medsim.sim import lay, textlink, vocab
from medsim.sim.topics import classify

_PUNCT = re.compile(r"[\s，。、；：！？,.;:!?（）()“”\"'【】\[\]]+")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_ORDER_TAG = re.compile(r"【[^】]*】[^\n？?]*")
_QUESTION_WORD = re.compile(r"吗|呢|多久|多长|什么|怎么|怎样|哪|有没有|是否|有无|几|多少|会不会|是不是|能不能")
_NOT_A_REPEAT = {"greeting", "ending"}
FUZZY = 85.0  # partial_ratio for a fact phrased a little differently from the record clause


_CN_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_COUNT = re.compile(r"([一二两三四五六七八九十]{1,3})(?=[余多]?(?:个月|个|次|天|日|周|年|小时|分钟|岁|支|粒|片|人|名))")


def _cn_number(text: str) -> str:
    """两次 → 2次, 十余天 → 10余天: counts written in characters compare with digits."""
    def value(m: re.Match) -> str:
        cn = m.group(1)
        if "十" not in cn:
            return str(_CN_DIGIT[cn]) if len(cn) == 1 else cn
        tens, _, ones = cn.partition("十")
        return str(_CN_DIGIT.get(tens, 1) * 10 + _CN_DIGIT.get(ones, 0)) if len(tens) <= 1 and len(ones) <= 1 else cn
    return _CN_COUNT.sub(value, text)


def _compact(text: str) -> str:
    text = _cn_number(_PUNCT.sub("", unicodedata.normalize("NFKC", text or "")).lower())
    text = _DENY_WORD.sub("无", text).replace("突然", "突发")  # 否认乙肝病史 and 无乙肝病史 say the same
    text = _STOP_TAKING.sub("停", text)  # 停服降压药 and 降压药已停药 say the same
    # 在家量血压190 is a home reading as 自测血压190mmHg is (a patient does not say mmHg)
    return _SELF_MEASURED.sub("自测", text).replace("mmhg", "")


_STOP_TAKING = re.compile(r"停(?:服|用)")
_SELF_MEASURED = re.compile(r"在家(?:里)?(?:自己)?(?:测|量)|自己(?:测|量)|自量|自测")


def partly_told(fact: str, text: str) -> bool:
    """``text`` says the fact with some of its numbers left out (在家量血压190 for
    自测血压190/105mmHg), everything else as ``fact_matches`` asks."""
    f, d = _compact(fact), _compact(text)
    numbers = _NUMBER.findall(f)
    present = _NUMBER.findall(d)
    missing = [n for n in numbers if n not in present]
    if not missing or len(missing) == len(numbers):
        return False
    for n in missing:
        f = re.sub(rf"[/／\-–~～至到]?(?<![\d.]){re.escape(n)}(?![\d.])", "", f, count=1)
    return fact_matches(f, d)


def _drug_classes(fact: str, text: str) -> str:
    """The text with each drug of a class the fact names (降压药) said as that class: a
    medication list (氨氯地平、厄贝沙坦，已停药3天) tells what the fact says of the class."""
    for name, members in vocab.DRUG_CLASSES.items():
        if name in fact and name not in text:
            for member in sorted(members, key=len, reverse=True):
                text = text.replace(member, name)
    return text


_DENY_WORD = re.compile(r"否认|没有|(?<![不])未(?!来)")


def fact_matches(fact: str, disclosed: str) -> bool:
    """Does the disclosed record text convey ``fact``?

    Tolerant of wording: punctuation-blind containment; the fact's named terms all present
    (lexicon synonyms folded: 大汗淋漓 ~ 大汗; 哮喘 within 支气管哮喘); a close fuzzy match of
    the fact inside the text; or its words in order within a short span. Never loose on
    substance: every number and body part of the fact must be there (39.2 is not 39.5, 下腹
    is not 胸背部), no named finding may be said the other way or of a relative (无胸闷 is
    not 胸闷, 母亲有高血压 is not 高血压史), and a denied fact needs a denial."""
    f, d = _compact(fact), _compact(disclosed)
    if not f or not d:
        return False
    d = _drug_classes(f, d)
    numbers = _NUMBER.findall(f)
    if any(n not in _NUMBER.findall(d) for n in numbers) or not _quantities(f) <= _quantities(d):
        return False
    if any(who not in d for who in _RELATIVE.findall(f)):
        return False  # 父亲过敏性鼻炎 is not 母亲有过敏性鼻炎
    if _contradicted(fact, disclosed) or (_DENIED_FACT.match(f) and not _NEGATION.search(d)):
        return False
    if f in d:
        at = d.find(f)
        return not (at > 0 and d[at - 1] in _NEG_CHARS and not _NEGATION.match(f))
    if any(part not in d for part in _body_parts(f)):
        return False
    found = [(t, f[s:e]) for t, s, e in textlink.find_terms(f) if t != "疼痛"]
    said = [_said_as(t, form, d) for t, form in found]
    if found and all(said):
        covered = sum(len(form) for _, form in found)
        if covered >= 0.5 * len(f):
            return True
        if numbers and _near([(n,) for n in numbers] + said + _rest(f, found), d, span=len(f) + 12):
            # 发热3天最高39.2℃: the numbers beside the finding, not anywhere; and whatever else
            # the fact says beside them (外阴瘙痒灼痛3天 is not told by 外阴瘙痒、白带增多3天)
            return True
    if len(f) >= 6 and len(d) >= len(f) and fuzz.partial_ratio(f, d) >= FUZZY:
        # (the fact aligned inside the text, never a short text inside it; one character off
        # in four is another finding: 胎动正常 vs 搏动正常)
        return True
    return len(f) >= 4 and _near(textlink.tokens(f), d, span=max(2.5 * len(f), len(f) + 15))


def _rest(fact: str, found: list[tuple[str, str]]) -> list[tuple[str, ...]]:
    """The characters of the fact's words besides its named terms and its numbers (灼, 痛 in
    外阴瘙痒灼痛3天), each to be found near them: a reworded word keeps its characters (漏透
    ~ 漏了, 透析), an unsaid one does not."""
    rest = fact
    for _, form in found:
        rest = rest.replace(form, "|")
    rest = _APPROX.sub("|", _NUMBER.sub("|", _QUANTITY.sub("|", rest)))
    words = [w for w in textlink.tokens(rest) if w != "|" and w not in _FUNCTION_WORDS and len(w) >= 2]
    return [(ch,) for w in words for ch in dict.fromkeys(w)]


# how a number is hedged (超过1小时 ~ 1个多小时, 约3天), and the course a duration already
# says (慢性咳嗽咳痰10年: the 10年 is what makes it 慢性): the number itself is checked already
_APPROX = re.compile(r"超过|大于|多于|以上|大约|约|左右|将近|近|亚急性|急性|慢性")
_NEGATION = re.compile(r"无|未|否认|没有|没|不|排除|阴性")
_QUANTITY = re.compile(r"(\d+(?:\.\d+)?)(?:[–\-~～至到](?:\d+(?:\.\d+)?))?个?[多余]?(个月|月|天|日|周|年|小时|分钟|次|kg|g|ml|支|岁|℃|度|人|名|粒|片)")
_UNIT_FOLD = {"日": "天", "个月": "月", "度": "℃"}


def _quantities(text: str) -> set[tuple[str, str]]:
    """Numbers with their units (2天, 39.2℃): 咳嗽2天 is not conveyed by 咳嗽2个月."""
    return {(m.group(1), _UNIT_FOLD.get(m.group(2), m.group(2))) for m in _QUANTITY.finditer(text)}
_NEG_CHARS = "无未没不"
_DENIED_FACT = re.compile(r"^(既往|近期|平素|目前|近\d+\D{1,2})?(无|不|排除)")  # (after _compact: 否认/未 → 无)
_RELATIVE = re.compile(r"父|母|爸|妈|兄|弟|姐|妹|哥|家族|家里|家人|亲属|子女|儿子|女儿|爷|奶|外公|外婆|祖|姑|舅|叔|伯|姨")


def _said_as(term: str, form: str, text: str) -> tuple[str, ...]:
    """The ways ``text`` says the fact's term ``form`` (canonical ``term``): the very words,
    or forms of the same term at least as specific (哮喘病 ~ 支气管哮喘, 食欲差 ~ 食欲下降);
    a general form does not convey a specific one (头痛 does not say 搏动性头痛)."""
    if form in text:
        return (form,)
    return tuple(dict.fromkeys(text[s:e] for t, s, e in textlink.find_terms(text)
                               if (t == term or term in t) and e - s >= len(form)))


def _terms(text: str) -> set[str]:
    return {t for t, _, _ in textlink.find_terms(text)} - {"疼痛"}


def _body_parts(text: str) -> list[str]:
    from medsim.sim.topics import _body_pattern

    return _body_pattern().findall(text)


def _states(text: str) -> set[tuple[str, str, bool]]:
    """(finding, polarity, of a relative) for each named finding, clause by clause (polarity
    from the text layer)."""
    out = set()
    for clause in textlink.clauses(lay.strip_narrator(text)):  # （母亲代述）: not the mother's illness
        relative = bool(_RELATIVE.search(clause))
        out |= {(x.term, x.polarity, relative) for x in textlink.findings(clause) if x.term != "疼痛"}
    return out


def _contradicted(fact: str, disclosed: str) -> bool:
    """A finding of the fact that the text only ever states the other way (or of a relative)."""
    told = _states(disclosed)
    for term, polarity, relative in _states(fact):
        same = [(p, r) for t, p, r in told if t == term or term in t or t in term]
        if same and (polarity, relative) not in same:
            return True
    return False


# Joining words and the 史 of 病史 carry no content: 无甲状腺手术或放射碘史 is conveyed by
# 否认甲状腺手术及放射性碘治疗史 without its 或.
_FUNCTION_WORDS = frozenset({"或", "及", "和", "与", "等", "史", "伴", "的", "并", "、"})


def _pieces(word: str, text: str) -> tuple[str, ...]:
    """A compound the segmenter kept whole (搏动性头痛) as two words the text has apart (呈搏动性 … 头痛)."""
    if word in text or len(word) < 4:
        return (word,)
    for cut in range(len(word) - 2, 1, -1):  # the head word last and short: 搏动性|头痛, not 搏动|性头痛
        if word[:cut] in text and word[cut:] in text:
            return word[:cut], word[cut:]
    return (word,)


def _near(words: list, text: str, span: float) -> bool:
    """Every word of the fact in the text, in any order, all within ``span`` characters
    (心电图ST段抬高 in 心电图：V1-V4导联ST段弓背向上抬高; 既往类似发作2次 in 既往曾有2次类似发作).
    A word may be a tuple of alternatives (发热 said as 发热 or 发烧)."""
    groups: list[tuple[str, ...]] = []
    for w in words:
        if isinstance(w, tuple):
            groups.append(w)
        elif (w := _word(w)) and w not in _FUNCTION_WORDS:
            groups += [(part,) for part in _pieces(w, text)]  # a compound split needs all its parts
    if not groups or any(not any(a in text for a in g) for g in groups):
        return False
    spots = [[(m.start(), m.end()) for a in g for m in re.finditer(re.escape(a), text)] for g in groups]
    for anchor_start, anchor_end in min(spots, key=len):
        lo, hi = anchor_start, anchor_end
        for group in spots:
            s, e = min(group, key=lambda p: abs(p[0] - anchor_start))
            lo, hi = min(lo, s), max(hi, e)
        if hi - lo <= span:
            return True
    return False


def _word(word: str) -> str:
    word = _compact(word)
    return word[:-1] if len(word) >= 2 and word.endswith("史") else word


def count_questions(text: str) -> int:
    """Questions in one clinician message: clauses ending in ？ or holding a question word.
    Order tags (【开检查】…) are not questions."""
    text = _ORDER_TAG.sub("", text or "")
    count = 0
    for clause in re.split(r"(?<=[？?])|[。！!；;\n，,]", text):
        clause = clause.strip()
        if not clause:
            continue
        if clause.endswith(("？", "?")) or _QUESTION_WORD.search(clause):
            count += 1
    return count


def _keys(text: str) -> list[str]:
    """What a message asks about, finely enough that 有没有发烧 and 有没有咳嗽 differ."""
    parsed = classify(_ORDER_TAG.sub("", text))
    keys = []
    for topic in parsed.topics:
        if topic in _NOT_A_REPEAT:
            continue
        if topic == "associated" and parsed.symptoms:
            keys += [f"associated:{s}" for s in parsed.symptoms]
        elif topic in ("past_history", "family_history") and parsed.conditions:
            keys += [f"{topic}:{c}" for c in parsed.conditions]
        else:
            keys.append(topic)
    return keys


def _answer_turns(turns: list[Any], index: int) -> list[Any]:
    """The patient and oracle turns answering the clinician turn at ``index``."""
    out = []
    for turn in turns[index + 1:]:
        if turn.speaker == "clinician":
            break
        if turn.speaker in ("patient", "oracle"):
            out.append(turn)
    return out


def _disclosed(turn: Any) -> list[str]:
    disclosed = turn.meta.get("disclosed")
    if disclosed is None:
        disclosed = [turn.text] if turn.speaker == "oracle" else []
    disclosed = [str(d) for d in disclosed]
    if turn.speaker == "patient" and _inferred(turn):
        # a model-played patient's disclosures are medsim's reading of what it said: credit only
        # the record content the words themselves convey (a history question answered with
        # anything does not disclose the whole section)
        disclosed = [d for d in disclosed if conveys(d, turn.text)]
    return disclosed


def _inferred(turn: Any) -> bool:
    sim = turn.meta.get("sim") or {}
    return "guard" in sim or sim.get("disclosure") == "inferred"


_SAID_TYPES = ("symptom", "disease", "drug", "procedure")
_NEG_SAID = re.compile(r"不|没|无|未|别|否认")
_KIND_NUMBER = re.compile(r"\d+(?=型)")


def conveys(record_text: str, utterance: str) -> bool:
    """Does ``utterance`` say what ``record_text`` (a piece of the record) says?

    Either as ``fact_matches`` reads it — in the record's words or in the patient's (the clause
    put into lay words) — or through the text layer's meaning: every finding of the record text
    said with the same polarity (胸痛 for 右侧胸部隐痛 by its site; 没过敏过 for 否认药物过敏史),
    and every number of it said too (发热3天 is not told by 发烧了)."""
    if not record_text or not utterance:
        return False
    if fact_matches(record_text, utterance):
        return True
    lay_text = lay.clause_to_lay(record_text)
    if lay_text != record_text and fact_matches(lay_text, utterance):
        return True
    # a number that names a kind (2型糖尿病, 1型) is part of the name, not a quantity to be told
    numbers = _NUMBER.findall(_KIND_NUMBER.sub("", _cn_number(record_text)))
    heard = _NUMBER.findall(_cn_number(utterance))
    if any(n not in heard for n in numbers):
        return False
    # the clause in the patient's words, close to something said, said the same way round
    # (往左肩膀和后背窜 ~ 往左肩膀窜; never 有发烧 for 没有发烧)
    if len(lay_text) >= 4:
        al = fuzz.partial_ratio_alignment(lay_text, utterance, score_cutoff=70)
        if al is not None:
            said_span = utterance[al.dest_start:al.dest_end]
            if bool(_NEG_SAID.search(said_span)) == bool(_NEG_SAID.search(lay_text)):
                return True
    from medsim.facts.guard_history import site_pain_in_record
    from medsim.text import analyze, get_lexicon

    record = [f for f in analyze(record_text).findings if f.type in _SAID_TYPES]
    if not record:
        return False
    said = [f for f in analyze(utterance).findings if f.type in _SAID_TYPES]
    lex = get_lexicon()

    def told(r) -> bool:
        for f in said:
            if f.polarity != r.polarity:
                continue
            if f.norm == r.norm or lex.related(f.norm, r.norm):
                return True
            if r.norm == "疼痛" and site_pain_in_record(f.norm, record_text):
                return True
        return False

    return all(told(r) for r in record)


def _is_repeat(key: str, answers: list[Any], known: set[str]) -> bool:
    """A key asked before is a repeat unless its answer told something not told already: a
    follow-up that draws out a new detail (发热 → 最高几度) is history taking, not a waste.
    The rule patient says per key what it told (``sim.answered``); otherwise the whole turn counts."""
    new: list[str] = []
    for turn in answers:
        per_key = (turn.meta.get("sim") or {}).get("answered")
        told = per_key.get(key, []) if isinstance(per_key, dict) else _disclosed(turn)
        new += [d for d in told if d not in known]
    return not new


def info_gathering(case: Any, transcript: Any) -> dict[str, Any]:
    facts = list(getattr(case, "key_facts", None) or [])
    first_fact_turn: dict[str, int] = {}
    volunteered: list[str] = []
    clinician_turns = 0
    questions_per_turn: list[int] = []
    seen: dict[str, int] = {}
    repeated: list[dict[str, Any]] = []
    known: set[str] = set()  # record content disclosed so far
    opening_told: list[str] = []  # what the patient said before the clinician said anything
    told: list[str] = []  # the same, in order: a fact told over two turns (发热… / 最高39.2℃) counts
    turns = list(transcript.turns)
    record = case.full_record_text() if hasattr(case, "full_record_text") else ""
    answer_turn = _final_answer_turn(transcript)
    heads = _detail_heads(record)
    for turn in turns:
        if turn.speaker == "clinician":
            clinician_turns += 1
            if turn.index == answer_turn:
                continue  # the final answer asks nothing
            questions_per_turn.append(count_questions(turn.text))
            answers = _answer_turns(turns, turns.index(turn))
            for key in dict.fromkeys(_keys(turn.text)):
                if key not in seen:
                    seen[key] = turn.index
                elif _is_repeat(key, answers, known):
                    repeated.append({"key": key, "turn": turn.index, "first": seen[key]})
            continue
        if turn.speaker not in ("patient", "oracle"):
            continue
        disclosed = _disclosed(turn)
        known.update(disclosed)
        told += [d for d in disclosed if d not in told]
        if clinician_turns == 0:
            opening_told += disclosed
        if not disclosed:
            continue
        text = "\n".join(disclosed)
        # what was told so far, in the record's order: the parts of one record sentence told in
        # different turns (胸骨后闷痛 … 呈压迫感) sit together again
        so_far = "\n".join(sorted(told, key=lambda c: (record.find(c) % (len(record) + 1), told.index(c))))
        # a detail told apart from the finding it describes (白带增多 in the opening, then 呈白色
        # 稠厚豆腐渣样 when asked what it looks like) is told of that finding once the finding is told
        told_terms = set().union(*(_terms(t) for t in told))
        described = [f"{head}，{c}" for d in disclosed for c in textlink.clauses(d)
                     if (head := heads.get(c)) and _terms(head) <= told_terms]
        for fact in facts:
            if fact in first_fact_turn or fact in volunteered:
                continue
            if any(fact_matches(fact, d) for d in disclosed + described) or fact_matches(fact, text) \
                    or fact_matches(fact, so_far):
                if clinician_turns == 0:
                    volunteered.append(fact)
                else:
                    first_fact_turn[fact] = turn.index
    # a fact that no answer could convey — the record holds it only in words the patient
    # may not say (a lab value in the hpi) and the oracle has no result for it — is the
    # case's gap, not the clinician's: reported, and left out of the fraction like a volunteered one
    # a fact the opening told in part (在家量血压190 for 自测血压190/105mmHg) and no answer
    # completed: the clinician was told it without asking, so it is not missed either
    opening = "\n".join(opening_told)
    volunteered += [f for f in facts if f not in volunteered and f not in first_fact_turn and opening
                    and partly_told(f, opening)]
    unreachable = [f for f in facts if f not in volunteered and f not in first_fact_turn and not reachable(case, f)]
    elicitable = [f for f in facts if f not in volunteered and f not in unreachable]
    elicited = [f for f in elicitable if f in first_fact_turn]
    info = getattr(transcript, "info", {}) or {}
    decided = getattr(transcript, "stop_reason", None) == "answered"
    turns_to_decision = info.get("turns_to_decision", clinician_turns) if decided else None
    return {
        "key_facts": len(facts),
        "elicited": elicited,
        "volunteered": volunteered,
        "missed": [f for f in elicitable if f not in first_fact_turn],
        "unreachable": unreachable,
        "elicited_at_turn": first_fact_turn,
        "fraction": (len(elicited) / len(elicitable)) if elicitable else None,
        "questions": sum(questions_per_turn),
        "questions_per_turn": questions_per_turn,
        "repeats": len(repeated),
        "repeated": repeated,
        "clinician_turns": clinician_turns,
        "turns_to_decision": turns_to_decision,
    }


def _detail_heads(record: str) -> dict[str, str]:
    """Each record clause that only describes another (呈白色稠厚豆腐渣样: no finding of its
    own) → the clause before it in its sentence that names the finding (白带增多)."""
    heads: dict[str, str] = {}
    for sentence in textlink.sentences(record):
        head = None
        for clause in sentence:
            if _terms(clause):
                head = clause
            elif head is not None:
                heads.setdefault(clause, head)
    return heads


_SPOKEN = ("chief_complaint", "hpi", "past_history", "personal_history", "menstrual_obstetric_history",
           "family_history", "allergies", "medications")
_REVEALED = ("vitals", "physical_exam", "tests")


def reachable(case: Any, fact: str) -> bool:
    """Could any turn convey ``fact``? The record sections a patient speaks from, without the
    clauses no patient says (results, findings, diagnoses: ``lay.is_jargon``), and the
    examination and results the oracle reveals. A case without record sections is not judged."""
    section = getattr(case, "record_section", None)
    if section is None:
        return True
    texts = []
    for name in _SPOKEN:
        clauses = [c for c in textlink.clauses(section(name) or "")
                   if not lay.is_jargon(c, history=name == "past_history")]
        texts.append("\n".join(clauses))
    texts += [section(name) or "" for name in _REVEALED]
    texts = [t for t in texts if t]
    if not texts:
        return True
    return any(fact_matches(fact, t) for t in texts) or fact_matches(fact, "\n".join(texts))


def _final_answer_turn(transcript: Any) -> int | None:
    """The clinician turn that gave the final answer (not a question), if the episode ended on one."""
    final = getattr(transcript, "final_text", None)
    if getattr(transcript, "stop_reason", None) not in ("answered", "turn_limit", "time_limit"):
        return None
    clinician = [t for t in transcript.turns if t.speaker == "clinician"]
    if clinician and (final is None or clinician[-1].text == final):
        last = clinician[-1]
        # without final_text (a hand-built transcript) only a message with no question is the answer
        if final is not None or not _keys(last.text):
            return last.index
    return None
