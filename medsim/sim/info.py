"""Information gathering in one episode: which key facts the clinician drew out, how many
questions it asked, which it asked twice, and how many turns it took to decide.

Read from the transcript alone. A key fact counts as *elicited* when a patient or oracle
turn after the clinician's first message disclosed record content matching it (the
``disclosed`` list each such turn carries in ``turn.meta``); a fact disclosed before the
clinician said anything (the opening) was *volunteered*: it is reported, and left out of
the fraction, since nothing had to be asked for it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from rapidfuzz import fuzz

from medsim.sim import textlink
from medsim.sim.topics import classify

_PUNCT = re.compile(r"[\s，。、；：！？,.;:!?（）()“”\"'【】\[\]]+")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_ORDER_TAG = re.compile(r"【[^】]*】[^\n？?]*")
_QUESTION_WORD = re.compile(r"吗|呢|多久|多长|什么|怎么|怎样|哪|有没有|是否|有无|几|多少|会不会|是不是|能不能")
_NOT_A_REPEAT = {"greeting", "ending"}
FUZZY = 85.0  # partial_ratio for a fact phrased a little differently from the record clause


def _compact(text: str) -> str:
    return _PUNCT.sub("", unicodedata.normalize("NFKC", text or "")).lower()


def fact_matches(fact: str, disclosed: str) -> bool:
    """Does the disclosed record text convey ``fact``? Exact (punctuation-blind) containment,
    or the fact's numbers all present and either its named terms all present (lexicon
    synonyms folded: 大汗淋漓 ~ 大汗) or a close fuzzy match."""
    f, d = _compact(fact), _compact(disclosed)
    if not f or not d:
        return False
    if f in d:
        return True
    numbers = _NUMBER.findall(f)
    if any(n not in _NUMBER.findall(d) for n in numbers):
        return False
    fact_terms = {t for t, _, _ in textlink.find_terms(f)} - {"疼痛"}
    if fact_terms and fact_terms <= {t for t, _, _ in textlink.find_terms(d)}:
        # terms alone are enough only when the fact is little more than the terms
        covered = sum(e - s for _, s, e in textlink.find_terms(f))
        if covered >= 0.5 * len(f) or numbers:
            return True
    if len(f) >= 4 and fuzz.partial_ratio(f, d) >= FUZZY:
        return True
    return len(f) >= 4 and _in_order(textlink.tokens(f), d)


def _in_order(words: list[str], text: str) -> bool:
    """Every word of the fact in the text, in order, gaps allowed (心电图ST段抬高 in
    心电图：V1-V4导联ST段弓背向上抬高)."""
    pos = 0
    for word in words:
        word = _compact(word)
        if not word:
            continue
        found = text.find(word, pos)
        if found < 0:
            return False
        pos = found + len(word)
    return True


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


def info_gathering(case: Any, transcript: Any) -> dict[str, Any]:
    facts = list(getattr(case, "key_facts", None) or [])
    first_fact_turn: dict[str, int] = {}
    volunteered: list[str] = []
    clinician_turns = 0
    questions_per_turn: list[int] = []
    seen: dict[str, int] = {}
    repeated: list[dict[str, Any]] = []
    for turn in transcript.turns:
        if turn.speaker == "clinician":
            clinician_turns += 1
            questions_per_turn.append(count_questions(turn.text))
            for key in dict.fromkeys(_keys(turn.text)):
                if key in seen:
                    repeated.append({"key": key, "turn": turn.index, "first": seen[key]})
                else:
                    seen[key] = turn.index
            continue
        if turn.speaker not in ("patient", "oracle"):
            continue
        disclosed = turn.meta.get("disclosed")
        if disclosed is None:
            disclosed = [turn.text] if turn.speaker == "oracle" else []
        text = "\n".join(str(d) for d in disclosed)
        for fact in facts:
            if fact in first_fact_turn or fact in volunteered or not text:
                continue
            if any(fact_matches(fact, d) for d in disclosed) or fact_matches(fact, text):
                if clinician_turns == 0:
                    volunteered.append(fact)
                else:
                    first_fact_turn[fact] = turn.index
    elicitable = [f for f in facts if f not in volunteered]
    elicited = [f for f in elicitable if f in first_fact_turn]
    info = getattr(transcript, "info", {}) or {}
    decided = getattr(transcript, "stop_reason", None) == "answered"
    turns_to_decision = info.get("turns_to_decision", clinician_turns) if decided else None
    return {
        "key_facts": len(facts),
        "elicited": elicited,
        "volunteered": volunteered,
        "missed": [f for f in elicitable if f not in first_fact_turn],
        "elicited_at_turn": first_fact_turn,
        "fraction": (len(elicited) / len(elicitable)) if elicitable else None,
        "questions": sum(questions_per_turn),
        "questions_per_turn": questions_per_turn,
        "repeats": len(repeated),
        "repeated": repeated,
        "clinician_turns": clinician_turns,
        "turns_to_decision": turns_to_decision,
    }
