"""What a patient says of their own history, held against the record in both directions.

The fact checker's claims cover findings and values; a simulated patient also talks about its
allergies, medicines, habits, operations and family, where a small model invents and denies
("平时吃的药只有感冒药" with 无长期用药 on record; "以前没过敏过" with a mango reaction). Each
topic is read through the text layer (``medsim.text.analyze``: findings with polarity and owner,
drug entities) and its record section:

- a denial the record contradicts: the patient says none, the section holds one
  (没过敏过 / 曾进食芒果后口周瘙痒; 不抽烟 / 吸烟40年; 家里人都没什么病 / 父亲死于心梗;
  我没有高血压 / 高血压病史10年);
- a claim the record contradicts: the patient says one, the section denies any
  (吃感冒药 / 无长期用药; 对青霉素过敏 / 否认药物过敏史; 抽烟 / 不吸烟);
- a claim the record does not hold: a medicine or allergen the record never names.

A topic the record is silent on is not judged (a record that does not mention smoking does not
say the patient smokes or not). True statements in other words are not flagged: the record's
own drug names, drug classes (降压药 for 硝苯地平), and pain named by its site (胸口痛 for 右侧胸部
隐痛) all count as said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from medsim.scenario.schema import Case
from medsim.text import analyze, get_lexicon

# a section that says "none": 无长期用药, 否认药物及食物过敏史, 不吸烟, 目前未用其他药物
_NONE = re.compile(r"^\s*(?:目前|平素|平时|既往|近期)?\s*(?:无|未|否认|没有|不|从不|未曾)")
_CLAUSES = re.compile(r"[^；;。\n]+")
_FAMILY_WORDS = re.compile(r"家里|家人|家族|家中|亲戚|父|母|爸|妈|爷|奶|姥|外公|外婆|兄|弟|姐|妹|哥|儿子|女儿|孩子他")


@dataclass
class HistoryFlag:
    kind: str  # contradicted_fact | invented_finding
    span: tuple[int, int]
    reason: str


def _clauses(text: str | None) -> list[str]:
    return [c.strip(" ，,") for c in _CLAUSES.findall(text or "") if c.strip(" ，,")]


def _positive(text: str | None) -> list[str]:
    """The clauses of a section that state something (not a denial)."""
    return [c for c in _clauses(text) if not _NONE.match(c)]


def _denies_all(text: str | None) -> bool:
    clauses = _clauses(text)
    return bool(clauses) and all(_NONE.match(c) for c in clauses)


def _flag(kind: str, m: re.Match | tuple[int, int], zh: str, en: str) -> HistoryFlag:
    span = (m.start(), m.end()) if isinstance(m, re.Match) else m
    return HistoryFlag(kind, span, f"{zh} / {en}")


# ------------------------------------------------------------------------------- allergies

_ALLERGY_DENIED = re.compile(r"(?:从来|从|以前|平时|也)?(?:没|不|未|没有)(?:有|发生|出现)?(?:什么|啥)?(?:过|)[^，。；？]{0,6}过敏"
                             r"|对(?:什么|啥)(?:都|也)不过敏|不过敏|没(?:有)?过敏")
_ALLERGY_CLAIM = re.compile(r"对([^，。；？\s]{1,8}?)(?:有点|有些)?过敏(?!性)|([\u4e00-\u9fa5]{2,6}?)过敏(?![史性])")


def _allergies(case: Case, u: str) -> list[HistoryFlag]:
    section = case.allergies
    if not section:
        return []
    known = "\n".join(filter(None, [section, case.past_history, case.hpi, case.personal_history]))
    out = []
    m = _ALLERGY_DENIED.search(u)
    if m:
        clause_start = max(u.rfind(p, 0, m.start()) for p in "，。；？！,") + 1
        scope_drug = "药" in u[clause_start:m.end()]
        positive = _positive(section)
        if scope_drug:
            positive = [c for c in positive if "药" in c or _drugs(c)]
        if positive:
            out.append(_flag("contradicted_fact", m, f"病历记载有过敏（{positive[0]}），患者却说没有过敏",
                             f"says no allergy; the record has one: {positive[0]}"))
        return out
    for m in _ALLERGY_CLAIM.finditer(u):
        what = re.sub(r"^(?:我|他|她|孩子)?(?:对|吃|用)?", "", (m.group(1) or m.group(2) or "").strip())
        if not what or re.search(r"没|不|无", u[max(0, m.start() - 3):m.start()]) or of_a_relative(u, m.end() - 2):
            continue
        drug = bool(_drugs(what)) or "药" in what
        denied_drugs = any(_NONE.match(c) and "药" in c for c in _clauses(section))
        if _denies_all(section) or (drug and denied_drugs and what not in section):
            out.append(_flag("contradicted_fact", m, f"病历记载“{section}”，患者却说{what}过敏",
                             f"claims an allergy to {what}; the record denies any"))
        elif not any(a and a in known for a in (what, *_aliases(what))):
            out.append(_flag("invented_finding", m, f"病历中没有对“{what}”过敏的记载", f"no allergy to {what} on record"))
    return out


# ------------------------------------------------------------------------------- medicines

_MEDS_DENIED = re.compile(r"(?:平时|平常|一直|也|从来)?(?:不|没|没有)(?:怎么)?(?:吃|用|服)(?:过)?(?:什么|啥)?(?:药)|没(?:有)?(?:长期|经常)?(?:吃|用)药")
_MED_WORD = re.compile(r"药(?![物店房])")
_NOT_A_NAME = set("的吃用服些点种有是了过在和、，。；？！我你他她也都就还只平时常天每因来开买拿换停把没完")
_TAKING = re.compile(r"吃|服|用|打|喝|含|贴|涂|擦|药")


def _drugs(text: str) -> set[str]:
    return {e.norm for e in analyze(text).entities if e.type == "drug"}


def _aliases(term: str) -> list[str]:
    lex = get_lexicon()
    canon = lex.canonical(term)
    return [canon, *lex.aliases(canon)] if canon else []


def _drug_classes() -> dict[str, tuple[str, ...]]:
    from medsim.sim.vocab import DRUG_CLASSES  # the lay class words a patient uses (降压药…)

    return DRUG_CLASSES


def _named_in_record(word: str, record_drugs: set[str], record: str) -> bool:
    """A medicine the patient names is the record's: the same drug, a class of one of its drugs
    (降压药 for 硝苯地平), or words the record itself uses (速效救心丸)."""
    stem = word.removesuffix("药")
    if word in record or (len(stem) >= 2 and stem in record):
        return True
    members = _drug_classes().get(word)
    if members and any(m in record or m in record_drugs for m in members):
        return True
    canon = get_lexicon().canonical(word)
    return bool(canon and (canon in record_drugs or canon in record))


def _medications(case: Case, u: str) -> list[HistoryFlag]:
    section = case.medications
    record = "\n".join(filter(None, [case.medications, case.hpi, case.past_history, case.allergies,
                                      case.personal_history, case.chief_complaint]))
    if not section and not record:
        return []
    record_drugs = _drugs(record)
    out = []
    m = _MEDS_DENIED.search(u)
    if m and section and _positive(section) and not _denies_all(section):
        out.append(_flag("contradicted_fact", m, f"病历记载用药“{section}”，患者却说不吃药",
                         f"says no medicines; the record lists: {section}"))
        return out
    if m:
        return out
    said = [(e.norm, e.start, e.end) for e in analyze(u).entities if e.type == "drug"]
    for w in _MED_WORD.finditer(u):
        start = w.start()
        while start > 0 and u[start - 1] not in _NOT_A_NAME and w.start() - start < 4:
            start -= 1
        if start < w.start() and not any(s <= start < e for _, s, e in said):  # 感冒药, 降压药: not a bare 药
            said.append((u[start:w.end()], start, w.end()))
    for word, start, end in said:
        before = u[max(0, start - 6):start]
        if re.search(r"没|不|未|别|停", before) or not _TAKING.search(u[max(0, start - 8):end + 2]):
            continue
        if section and _denies_all(section) and not _named_in_record(word, record_drugs, record):
            out.append(_flag("contradicted_fact", (start, end), f"病历记载“{section}”，患者却说在用{word}",
                             f"says they take {word}; the record says: {section}"))
        elif not _named_in_record(word, record_drugs, record):
            out.append(_flag("invented_finding", (start, end), f"病历中没有用过“{word}”的记载",
                             f"{word} is not in the record"))
    return out


# ------------------------------------------------------------------------------- habits

_HABITS = {
    "smoking": (re.compile(r"(?:不|没|没有|从不|从来不|从没|从来没)(?:怎么)?(?:抽|吸)(?:过)?烟|烟(?:也|都)?(?:不|没)(?:抽|吸)"),
                re.compile(r"(?<![不没])(?:抽|吸)(?:了)?(?:\d+|[一二三四五六七八九十几]+)?(?:多)?(?:年)?(?:的)?烟|烟(?:龄|瘾)"),
                re.compile(r"吸烟|抽烟|烟"), "抽烟", "smoking"),
    "drinking": (re.compile(r"(?:不|没|没有|从不|从来不|滴酒不沾)(?:怎么)?(?:喝|饮)(?:过)?酒|酒(?:也|都)?(?:不|没)(?:喝|沾)"),
                 re.compile(r"(?<![不没])(?:喝|饮)(?:点|些|了)?(?:白|啤|红)?酒"),
                 re.compile(r"饮酒|喝酒|酗酒|酒"), "喝酒", "drinking"),
}
_QUIT_OR_LITTLE = re.compile(r"已戒|戒烟|戒酒|偶|少量|偶尔|社交")


_BOTH_DENIED = re.compile(r"不(?:抽|吸)烟(?:也不|不)?(?:喝|饮)酒|烟酒(?:都|也)?不(?:沾|碰)?|(?:不|没)(?:抽|吸)?烟(?:也)?(?:不|没)?(?:喝|饮)?酒"
                          r"|无烟酒|烟酒不沾")


def _habits(case: Case, u: str) -> list[HistoryFlag]:
    section = case.personal_history or ""
    out = []
    both = _BOTH_DENIED.search(u)
    for denial, claim, record_word, zh, en in _HABITS.values():
        said = [c for c in re.split(r"[，,；;。\n]", section) if c.strip() and record_word.search(c)]
        if not said:
            continue
        record_yes = [c for c in said if not _NONE.match(c) and not re.search(r"不(?:吸|抽|饮|喝)|无烟|无.{0,2}酒|否认", c)]
        m = denial.search(u) or both
        if m and record_yes and not _QUIT_OR_LITTLE.search("".join(record_yes)):
            out.append(_flag("contradicted_fact", m, f"病历记载“{record_yes[0]}”，患者却说不{zh}",
                             f"denies {en}; the record says: {record_yes[0]}"))
            continue
        c = claim.search(u)
        if c and not m and not record_yes:
            out.append(_flag("contradicted_fact", c, f"病历记载“{said[0]}”，患者却说{zh}",
                             f"claims {en}; the record says: {said[0]}"))
    return out


# ------------------------------------------------------------------------------- family and past history

_FAMILY_NONE = re.compile(r"(?:家里|家人|家族|家中|亲戚)[^，。；？]{0,6}(?:都|也)?(?:没|没有|没人|无)(?:什么|啥)?[^，。；？]{0,6}(?:病|毛病)"
                          r"|(?:家里|家人)[^，。；？]{0,4}身体都(?:挺|很|还)?(?:好|健康)")


def _record_findings(text: str | None) -> list:
    return [f for f in analyze(text or "").findings if f.type in ("disease", "symptom", "procedure")]


def _family(case: Case, u: str) -> list[HistoryFlag]:
    section = case.family_history
    if not section:
        return []
    present = [f for f in _record_findings(section) if f.polarity == "present"]
    if not present:
        return []
    m = _FAMILY_NONE.search(u)
    if m:
        return [_flag("contradicted_fact", m, f"病历家族史记载“{section}”，患者却说家里人没有病",
                      f"denies family illness; the record says: {section}")]
    out = []
    for f in analyze(u).findings:
        if f.polarity != "absent" or f.type != "disease":
            continue
        clause = u[max(0, f.start - 12):f.end]
        if not _FAMILY_WORDS.search(clause):
            continue
        if any(_same(f.norm, r.norm) for r in present):
            out.append(_flag("contradicted_fact", (f.start, f.end), f"病历家族史记载“{section}”，患者却否认家里人有{f.text}",
                             f"denies {f.text} in the family; the record says: {section}"))
    return out


def _same(a: str, b: str) -> bool:
    lex = get_lexicon()
    return a == b or lex.related(a, b)


_OWN_SECTIONS = ("chief_complaint", "hpi", "past_history")
# the patient's own "never ill": 以前身体很好，什么病都没有 / 没得过什么病 (什么大病 is left alone:
# a patient may not count a chronic illness as a big one)
_OWN_NONE = re.compile(r"(?:(?:什么|啥)(?:病|毛病)都(?:没|没有)(?:得过|生过|有过|有)?"
                       r"|(?:没|没有|从没|从来没)(?:得过|生过|有过|有)(?:什么|啥)(?:病|毛病)"
                       r"|身体一直(?:都)?(?:挺|很|还|蛮)?(?:好|健康))"
                       r"(?=$|[，。；！!,.;\s]|[呢啊呀的])")  # the clause ends there: not 没有过这么疼
_RECORD_HEALTHY = re.compile(r"既往(?:体健|身体健康|健康)")  # the record says so itself: 既往体健，幼时有湿疹


def _own_none(case: Case, u: str) -> list[HistoryFlag]:
    """"Never ill" where the past history gives the patient a disease (高血压病史10年)."""
    section = case.past_history
    diseases = [f for f in _record_findings(section) if f.owner == "patient" and f.polarity == "present"
                and f.type == "disease" and not _denial_before(section or "", f.start)]
    if not diseases or _RECORD_HEALTHY.search(section or ""):
        return []
    out = []
    for m in _OWN_NONE.finditer(u):
        if _RELATIVE.search(u[max(0, m.start() - 12):m.start()]):
            continue  # 我爸身体一直很好: a relative, the family check's
        out.append(_flag("contradicted_fact", m, f"病历既往史记载“{section}”，患者却说自己没有病",
                         f"says they were never ill; the record says: {section}"))
    return out


def _own_denials(case: Case, u: str) -> list[HistoryFlag]:
    """The patient denies a disease, symptom or operation the record gives the patient (我没有高血压
    with 高血压病史10年; 没做过手术 with 阑尾切除术后)."""
    record = {name: [f for f in _record_findings(case.record_section(name)) if f.owner == "patient"]
              for name in _OWN_SECTIONS}
    out = []
    for f in analyze(u).findings:
        if f.polarity != "absent" or f.type not in ("disease", "symptom", "procedure"):
            continue
        if _FAMILY_WORDS.search(u[max(0, f.start - 12):f.start]) or _lay_pseudo_negation(u, f.start):
            continue
        same = [(name, r) for name, rs in record.items() for r in rs if _same(f.norm, r.norm)
                and not _denial_before(case.record_section(name) or "", r.start)]
        if same and all(r.polarity == "present" for _, r in same):
            name, r = same[0]
            out.append(_flag("contradicted_fact", (f.start, f.end), f"病历记载患者有“{r.text}”，患者却说没有",
                             f"denies {f.text}; the record gives it: {r.text}"))
    return out


_RELATIVE = re.compile(r"爸|妈|父|母|爷|奶|外公|外婆|姥|兄|弟|姐|妹|哥|家里|家人|亲戚|儿子|女儿")


def of_a_relative(utterance: str, pos: int) -> bool:
    """Does the clause before ``pos`` name a relative (我爸是心梗走的: the father's illness)? The
    text layer's family markers are a record's (父亲, 家族史); a patient says 我爸, 家里人."""
    clause_start = max(utterance.rfind(p, 0, pos) for p in "，。；？！,") + 1
    return bool(_RELATIVE.search(utterance, clause_start, pos))


# the lay forms of 无明显诱因 (没什么原因开始…): not a denial of what follows. The text layer's
# pseudo-negation list has the record's forms; until it has these, the guard abstains here.
_LAY_NO_CAUSE = re.compile(r"(?:没|没有|无|不知道)(?:什么|啥|明显)?(?:原因|诱因|缘故|来由)")


def _lay_pseudo_negation(u: str, pos: int) -> bool:
    start = max(u.rfind(p, 0, pos) for p in "，。；？！,") + 1
    return bool(_LAY_NO_CAUSE.search(u, start, pos))


def _denial_before(text: str, pos: int) -> bool:
    """A denial word earlier in the record clause: where the text layer still reads the finding
    as present (无异常阴道流血, 未规律抗凝), the guard does not call the patient's denial a contradiction."""
    start = max(text.rfind(p, 0, pos) for p in "，。；？！,") + 1
    return bool(re.search(r"无|未|否认|没有|不", text[start:pos]))


def history_flags(case: Case, utterance: str) -> list[HistoryFlag]:
    """Every history statement of ``utterance`` that the record contradicts or does not hold."""
    flags: list[HistoryFlag] = []
    for check in (_allergies, _medications, _habits, _family, _own_denials, _own_none):
        for flag in check(case, utterance):
            if not any(f.span[0] < flag.span[1] and flag.span[0] < f.span[1] for f in flags):
                flags.append(flag)
    return sorted(flags, key=lambda f: f.span)


# ------------------------------------------------------------------------------- pain by its site

def site_pain_in_record(norm: str, record: str) -> bool:
    """``norm`` names pain by its site (胸痛, 头痛, 腹痛), and the record has pain at that site in
    other words (右侧胸部隐痛: the body part 胸部, then a pain): the patient said it in lay words."""
    site = re.sub(r"(?:疼痛|痛|疼)$", "", norm)
    if not site or site == norm:
        return False
    ents = analyze(record).entities
    for i, e in enumerate(ents):
        if e.type != "body_part" or not (e.norm.startswith(site) or e.text.find(site) >= 0):
            continue
        for nxt in ents[i + 1:i + 3]:
            if nxt.type == "symptom" and nxt.norm in ("疼痛", norm) and nxt.start - e.end <= 6:
                return True
    return False
