"""Findings in a consultation read turn by turn: a clinician's question takes its answer.

"有没有发烧？" — "没有" makes 发热 absent, "有" or "烧了两天" present; a question nobody answers
stays uncertain. When the first reply says nothing of it (it answers another question, or the
clinician asks on first), a later reply that names the symptom or denies it answers it too.
What a patient says is read as said. A disease the clinician names while explaining
(支气管炎的话没有肺炎严重) is not said of this patient: it stays uncertain unless the clinician
states it (是支气管炎, 诊断为肺炎).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from medsim.text.analysis import analyze, judge_spans
from medsim.text.negation import Finding

PATIENT = {"patient", "患者", "病人", "家属"}
CLINICIAN = {"doctor", "clinician", "医生", "大夫"}

# a bare answer's first words (嗯有的 / 没有呢 / 不是): yes or no to the question before
# (a few words may come first: 今天没有 / 现在不烧了 / 暂时没有)
_LEAD = r"^(?:[嗯恩哦噢啊对]+[，、。！ ]*)?(?:今天|现在|目前|暂时|昨天|这两天|最近|平时|一直|还|也|都|就)*"
_YES = re.compile(_LEAD + r"(?:有的|有|是的|是|对的|对|会|偶尔有|有点|嗯)(?![没不无])")
_NO = re.compile(_LEAD + r"(?:没有|没|无|不是|不会|不|木有)(?!多久|一会|怎么|太|是很)")
# the clinician states a diagnosis of this patient
_STATED = re.compile(r"(?:就是|是|属于|诊断为?|确诊为?|得了|患了|考虑是?)[^，。；！？]{0,4}$")
# a question about how a finding is (咳嗽厉害吗 / 痰多吗 / 发热几天了 / 除了腹泻还有…吗) takes it as
# given: a bare no answers the attribute (不厉害), not the finding
_PRESUPPOSED_AFTER = re.compile(
    r"(?:的情况|的症状)?(?:还|也|都|又|比较|特别|很)?(?:厉害|严重|频繁|多不多|多吗|多不|多了|多少|几天|几次|多久|多长时间"
    r"|之后|以后|后|的时候|时|期间|什么时候|怎么样|什么样|颜色|次数|性状|有痰|黄|稀不稀|加重|好转|减轻|有没有好转|有好转)")
_PRESUPPOSED_BEFORE = re.compile(r"(?:除了|什么时候|这次|目前的|现在的)$")
_ASKS = re.compile(r"有没有|有无|是否|是不是|吗|么|呢|？|\?|[不没](?:[，。！]|$)")


# a no to everything asked (这些都没有, 其他症状都没有, 都不, 一切正常): covers each finding of the question
_ALL_NO = re.compile(r"(?:这些|那些|以上|上述|其他|其它|别的|你说的)[^，。；！？]{0,4}都(?:没有|没|无|不)|^都(?:没有|没|不)"
                     r"|一切正常|都(?:是|挺|很|还)?正常")


def _denies_words(f: Finding, answer: str) -> bool:
    """The answer denies the asked words themselves, or their last character, which the entity
    pass cannot read once a negation splits them (嗓子哑吗 — 嗓子不哑; 肚子胀吗 — 不胀)."""
    surface = f.text.strip()
    tails = {surface, surface[-1:]} if len(surface) > 1 else {surface}
    return any(re.search(r"(?:不|没有|没|无)" + re.escape(t), answer) for t in tails if t)


def _answer_polarity(f: Finding, answers: list[str]) -> str | None:
    """What the patient's next turns say of a finding the clinician asked about: a finding of
    the same symptom (咳 answers 咳嗽), else a no to everything asked, else a bare yes or no."""
    key = concept(f)
    for text in answers:
        for g in analyze(text).findings:
            if g.norm == f.norm or concept(g) == key:
                return g.polarity if g.polarity != "uncertain" else None
        head = text.strip()
        if _ALL_NO.search(head) or _denies_words(f, head):
            return "absent"
        if _NO.match(head):
            return "absent"
        if _YES.match(head):
            return "present"
    return None


def _later_answer(f: Finding, turns, k: int, first: list[str]) -> str | None:
    """When the first reply says nothing of an asked finding (it answers another question, or
    the clinician asks on before the patient replies), what a later reply says of it: a finding
    of the same symptom, the asked words denied, or a no to everything asked — not a bare yes
    or no, which may answer another question."""
    key = concept(f)
    for text in first[1:] + _late_answers(turns, k)[:2]:
        for g in analyze(text).findings:
            if (g.norm == f.norm or concept(g) == key) and g.polarity != "uncertain":
                return g.polarity
        if _ALL_NO.search(text) or _denies_words(f, text):
            return "absent"
    return None


def _answers(turns, k: int) -> list[str]:
    """The patient's turns right after turn ``k`` (up to two, until the clinician speaks again)."""
    out = []
    for sp, t, _ in turns[k + 1 :]:
        if sp in CLINICIAN:
            break
        out.append(t)
        if len(out) == 2:
            break
    return out


def _late_answers(turns, k: int, gap: int = 3) -> list[str]:
    """When the clinician goes on (two or three questions in a row before the patient replies),
    the patient's turns after that run: the reply may answer this turn's question too."""
    j = k + 1
    while j < len(turns) and j <= k + gap and turns[j][0] in CLINICIAN:
        j += 1
    if j == k + 1 or j > k + gap or j >= len(turns):
        return []
    return _answers(turns, j - 1)


def _previous(turns, k: int) -> str:
    return turns[k - 1][1] if k > 0 else ""


def rule_dialogue(turns: Sequence[tuple[str, str, Sequence[tuple[int, int]]]]) -> list[list[Finding]]:
    """The rules alone: each turn read as written, a clinician's question resolved by its answer."""
    out: list[list[Finding]] = []
    for k, (speaker, text, spans) in enumerate(turns):
        found = judge_spans(text, list(spans)) if spans else []
        if speaker in CLINICIAN and found:
            answers = _answers(turns, k)
            asked = bool(_ASKS.search(text))
            for f in found:
                clause_end = _clause_end(text, f.end)
                # the clause asks, by a question word before the finding (有没有粘液【血丝】) or after it
                in_question = asked and bool(_ASKS.search(text[_clause_start(text, f.start) : clause_end + 1]))
                if in_question and f.polarity == "present" and (
                        _PRESUPPOSED_AFTER.match(text, f.end) or _PRESUPPOSED_BEFORE.search(text, max(0, f.start - 4), f.start)):
                    f.cue = "presupposed"
                    continue
                if in_question and f.polarity != "absent":
                    pol = _answer_polarity(f, answers[:1]) or _later_answer(f, turns, k, answers)
                    if pol is not None:
                        f.polarity, f.cue = pol, "answer"
                        continue
                if (f.type == "disease" and f.polarity == "present" and not in_question
                        and not _STATED.search(text[_clause_start(text, f.start) : f.start])):
                    f.polarity, f.cue = "uncertain", "clinician names"
        out.append(found)
    return out


def patient_says(turns, found: list[list[Finding]]) -> dict[str, str]:
    """What the patient says of each finding anywhere in the consultation (the last word wins)."""
    said: dict[str, str] = {}
    for (speaker, _, _), fs in zip(turns, found, strict=True):
        if speaker in PATIENT:
            for f in fs:
                said[f.norm] = f.polarity
    return said


def finding_features(turns, k: int, f: Finding, said: dict[str, str]) -> list[str]:
    """The learned model's features of finding ``f`` of turn ``k``; ``said``: patient_says()."""
    from medsim.text.polarity_model import features

    speaker, text, _ = turns[k]
    answers = _answers(turns, k) if speaker in CLINICIAN else []
    answer = answers[0] if answers else ""
    pol = _answer_polarity(f, answers[:1]) if answers else None
    feats = features("patient" if speaker in PATIENT else "doctor", text, f.start, f.end, f,
                     _previous(turns, k), answer, pol)
    who = "p" if speaker in PATIENT else "d"
    told = said.get(f.norm, "-")
    feats += [f"said={told}", f"w={who}|said={told}", f"said={told}|r={f.polarity}"]
    feats += _mention_features(turns, k, f, who)
    if speaker in PATIENT:
        feats += _reply_features(turns, k, f)
    return feats


# how a clinician's reply opens on what the patient just said: denies a guess (不是 / 不会), grants
# it (是的 / 对), hedges it (可能 / 考虑 / 不一定) or asks on (有没有 / 吗)
_REPLY_OPENS = (("deny", re.compile(r"^[^，。？]{0,4}(?:不是|不会|不用|没有|不像)")),
                ("grant", re.compile(r"^[^，。？]{0,3}(?:是的|对的|对|嗯|是)")),
                ("hedge", re.compile(r"^[^。？]{0,12}(?:可能|考虑|不一定|不排除|怀疑|估计|一般|如果)")),
                ("asks", re.compile(r"^[^。]{0,20}(?:有没有|吗|？|\?)")))


def _reply_features(turns, k: int, f: Finding) -> list[str]:
    """The clinician's next turn after a patient's mention: how it opens and whether it names the
    same words (a guess the clinician takes up, denies or leaves)."""
    nxt = next((t for sp, t, _ in turns[k + 1 : k + 3] if sp in CLINICIAN), None)
    if nxt is None:
        return ["rp=none"]
    out = [f"rp={name}" for name, pat in _REPLY_OPENS if pat.search(nxt)] or ["rp=other"]
    same = f.text in nxt or (bool(f.norm) and f.norm in nxt)
    return out + [f"rpsame={int(same)}"] + [f"{x}|same={int(same)}" for x in out]


def _mention_features(turns, k: int, f: Finding, who: str) -> list[str]:
    """Whether the other side writes the same words before or after this turn (a patient who
    says 拉稀 makes a clinician's 拉稀 theirs, one who never does leaves it an explanation), and
    where the turn sits in the consultation."""
    speaker, text, spans = turns[k]
    surface = text[f.start : f.end]
    mine = speaker in PATIENT
    before = after = False
    for j, (sp, t, _) in enumerate(turns):
        if j == k or (sp in PATIENT) == mine:
            continue
        if surface in t or (f.norm and f.norm in t):
            if j < k:
                before = True
            else:
                after = True
    own = sum(1 for j, (sp, _, _) in enumerate(turns[:k]) if (sp in PATIENT) == mine)
    out = []
    if speaker in CLINICIAN:
        answers = _answers(turns, k)
        head = re.split(r"[，。；！？?!,;]", answers[0])[0] if answers else ""
        out.append(f"ano={int(bool(re.search(r'没|不|无', head)))}")
        out.append(f"ayes={int(bool(re.search(r'有|是|对|嗯', head)))}")
        out.append(f"asame={int(bool(answers) and (surface in answers[0] or f.norm in answers[0]))}")
        out.append(f"alen={min(len(head) // 4, 4)}")
        if not answers:
            late = _late_answers(turns, k)
            out.append(f"la={_answer_polarity(f, late[:1]) or '-'}" if late else "la=none")
    out += [f"w={who}|ob={int(before)}{int(after)}", f"w={who}|ob={int(before)}{int(after)}|r={f.polarity}",
           f"w={who}|turn={min(own, 6)}", f"w={who}|spans={min(len(spans), 4)}"]
    return out


def concept(f: Finding) -> str:
    """The symptom a finding names, for matching its other mentions in a consultation: the
    lexicon's term for its words, else the longest symptom written inside them (咳得 → 咳嗽,
    痰多 → 咳痰, 吐出来 → 呕吐) — not a body part or a broader disease inside them (嗓子有点哑
    is not 咽部, 病毒感染 is not 感染)."""
    return _concept(f.norm, f.text)


@cache
def _concept(norm: str, surface: str) -> str:
    from medsim.text.lexicon import get_lexicon

    lex = get_lexicon()

    def known(s: str) -> str | None:
        return lex.canonical(s) or (lex.symptom_verbs.get(s) if len(s) == 1 else None)

    def symptom_in(s: str) -> str | None:
        if lex.type_of(s) not in (None, "symptom"):
            return None
        return known(s)

    hit = known(surface)
    if hit:
        return hit
    if lex.type_of(norm) == "disease" and len(surface) > len(norm):
        return surface  # a disease the lexicon knows only in part (病毒感染 read as 感染): its own name
    hit = known(norm)
    if hit:
        return hit
    for s in (norm, surface):
        for size in range(len(s) - 1, 0, -1):
            for i in range(len(s) - size + 1):
                hit = symptom_in(s[i : i + size])
                if hit:
                    return hit
    return norm


def context_features(turns, found: list[list[Finding]], labels: dict[tuple[int, int], str],
                     k: int, j: int) -> list[str]:
    """Features of finding ``j`` of turn ``k`` from the first reading of the same symptom's other
    mentions (``labels``: (turn, index) → label): what the other side and the same side say of
    it before and after, the nearest such mention, and this mention's own first reading. A
    clinician's 拉肚子 after the parent's 拉了三次 is the child's; one nobody else names is an
    explanation."""
    who = "p" if turns[k][0] in PATIENT else "d"
    key = concept(found[k][j])
    seen: set[str] = set()
    near: dict[str, tuple[int, str, str]] = {}
    for k2, fs in enumerate(found):
        for j2, g in enumerate(fs):
            if (k2, j2) == (k, j) or (k2, j2) not in labels or concept(g) != key:
                continue
            side = "s" if (turns[k2][0] in PATIENT) == (who == "p") else "o"
            pos = "b" if (k2, j2) < (k, j) else "a"
            lab = labels[(k2, j2)]
            seen.update((f"{side}{pos}={lab}", f"{side}={lab}"))
            if k2 != k and (pos not in near or abs(k2 - k) < near[pos][0]):
                near[pos] = (abs(k2 - k), lab, side)
    out = [f"X{who}|{s}" for s in sorted(seen)] or [f"X{who}|none"]
    out += [f"X{who}|n{pos}{side}={lab}" for pos, (_, lab, side) in sorted(near.items())]
    own = labels.get((k, j), "-")
    out += [f"{x}|own={own}" for x in out] + [f"X|own={own}"]
    return out


def judge_dialogue(turns: Sequence[tuple[str, str, Sequence[tuple[int, int]]]],
                   learned: bool = True) -> list[list[Finding]]:
    """``turns``: (speaker, text, marked spans) in order; speaker "patient"/"患者" or
    "doctor"/"clinician"/"医生". Returns, per turn, the findings of its marked spans.

    With ``learned`` (and the shipped weights present) the rules' verdict is re-weighed by the
    small model in :mod:`medsim.text.polarity_model`, in two readings: each mention alone, then
    again with what the first reading made of the same symptom's other mentions; its cue then
    reads ``learned:<rule cue>``."""
    out = rule_dialogue(turns)
    if not learned:
        return out
    from medsim.text import polarity_model

    if not polarity_model.available():
        return out
    said = patient_says(turns, out)
    feats = {(k, j): finding_features(turns, k, f, said) for k, fs in enumerate(out) for j, f in enumerate(fs)}
    who = {k: "patient" if turns[k][0] in PATIENT else "doctor" for k in range(len(turns))}
    labels = {kj: polarity_model.predict(x, speaker=who[kj[0]])[0] for kj, x in feats.items()}
    second = polarity_model.context_weights()
    if second is not None:
        labels = {(k, j): polarity_model.predict(x + context_features(turns, out, labels, k, j), second,
                                                 speaker=who[k], offsets="context")[0]
                  for (k, j), x in feats.items()}
    for (k, j), label in labels.items():
        f = out[k][j]
        if label != f.polarity:
            f.polarity, f.cue = label, f"learned:{f.cue or ''}"
    return out


_PUNCT = re.compile(r"[，。；！？?!,;]")


def _clause_end(text: str, pos: int) -> int:
    m = _PUNCT.search(text, pos)
    return m.start() if m else len(text)


def _clause_start(text: str, pos: int) -> int:
    starts = [m.end() for m in _PUNCT.finditer(text, 0, pos)]
    return starts[-1] if starts else 0
