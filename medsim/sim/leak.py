"""Diagnosis leaks: the words a simulated patient must never say, and removing them.

The terms come from ``case.diagnosis``: each diagnosis as written, stripped of modifiers
(急性, 左侧, (NSTEMI)…), the disease names the lexicon finds inside it, and the lay names
people use for them (心肌梗死 → 心梗). A secondary diagnosis the patient already knows
about — it is written in the disclosable history, e.g. 高血压 in 既往史 — is not a leak; of
the primary diagnosis only the names the history affirms (哮喘病史10年 → 哮喘) may be said. Symptom-named diagnoses (发热待查, 腹痛) are not scrubbed:
the patient must be able to say 发烧 and 肚子疼.
"""

from __future__ import annotations

import re
from functools import cache

from medsim.sim import textlink, vocab

_MODIFIERS = re.compile(
    r"[\(（][^\)）]*[\)）]|^(急性|慢性|亚急性|复发性|初发|原发性|继发性|重度|中度|轻度|重症|左侧|右侧|双侧|左|右|双)+|"
    r"(伴|并|合并).*$|[ⅠⅡⅢⅣIV\d]+(级|期|型)$|待查$|可能$|\?$|？$"
)


@cache
def _disease_lexicon() -> tuple[dict[str, str], dict[str, list[str]]]:
    """alias → canonical, canonical → all its names, from diseases.txt and lay synonyms."""
    alias: dict[str, str] = {}
    names: dict[str, list[str]] = {}
    for canon, aliases in textlink.lexicon_groups("diseases.txt"):
        for a in [canon, *aliases]:
            alias.setdefault(a, canon)
        names.setdefault(canon, []).extend([canon, *aliases])
    for canon, forms in vocab.CONDITIONS.items():
        names.setdefault(canon, []).extend([canon, *forms])
        for f in forms:
            alias.setdefault(f, canon)
    for standard, lays in textlink.lexicon_groups("lay_synonyms.txt"):
        base = alias.get(standard, standard)
        names.setdefault(base, []).extend(lays)
        for lay in lays:
            alias.setdefault(lay, base)
    return alias, names


# Words too general to be "the diagnosis" on their own: saying them names nothing.
_GENERIC = frozenset({
    "感染", "炎症", "肿瘤", "结节", "出血", "损伤", "综合征", "心脏病", "心脏不好", "细菌感染", "急性感染",
    "病毒感染", "疾病", "肿物", "包块", "囊肿",
})
# What happened to the patient, in their words (扭伤, 鱼刺卡了): an event they lived, not a
# doctor's judgement, even when the diagnosis is named after it.
_EVENTS = frozenset({"扭伤", "崴脚", "崴了脚", "摔伤", "烫伤", "烧伤", "咬伤", "割伤", "刺伤", "异物", "鱼刺卡了",
                     "卡鱼刺", "鱼刺卡喉"})
_FAMILY = re.compile(r"父|母|爸|妈|兄|弟|姐|妹|哥|家族|家里|家人|亲属|子女|儿子|女儿|爷|奶|外公|外婆|祖|姑|舅|叔|伯|姨")
_DENIED = re.compile(r"^(否认|无|未|没有)")


def _variants(diagnosis: str) -> set[str]:
    out = {diagnosis.strip()}
    stripped = diagnosis
    for _ in range(3):
        stripped = _MODIFIERS.sub("", stripped).strip()
    if stripped:
        out.add(stripped)
    alias, names = _disease_lexicon()
    # every disease name the lexicon finds inside the diagnosis (心肌梗死 inside
    # 急性前壁ST段抬高型心肌梗死), with all its names, lay ones included (心梗)
    for form, canon in alias.items():
        if form in diagnosis and (len(form) >= 3 or form == stripped) and form not in _GENERIC:
            out.add(form)
            out.update(n for n in names.get(canon, []) if n not in _GENERIC)
    for term in list(out):
        if term.endswith("梗死"):
            out.add(term[:-2] + "梗")
    return {t for t in out if len(t) >= 2 and t not in _EVENTS}


def leak_terms(case, *, known_text: str = "") -> list[str]:
    """Words naming ``case``'s diagnoses that the patient must not say, longest first.

    ``known_text`` is the disclosable history: a secondary diagnosis written there is known
    to the patient and is allowed, and so is a name of the primary one that the history
    affirms (a refill visit for 高血压 whose history reads 高血压病8年).
    """
    table = textlink.lay_to_canonical()
    symptoms = set(vocab.SYMPTOMS) | {c for c, _ in textlink.lexicon_groups("symptoms.txt")}
    # the patient's own complaint is theirs to say (体检发现血压高 → 血压高 may be said,
    # 高血压 may not)
    complaint = getattr(case, "chief_complaint", None) or ""
    terms: set[str] = set()
    # a disease the patient's own history says they have (哮喘病史10年) is theirs to name, even
    # when this visit is about it; the name of this visit's judgement (哮喘急性发作) is not
    owned = [c for c in textlink.clauses(known_text) if not _DENIED.match(c) and not _FAMILY.search(c)]
    for index, diagnosis in enumerate(case.diagnosis or []):
        variants = _variants(diagnosis)
        if index > 0 and any(v in known_text for v in variants):
            continue
        variants = {v for v in variants if not any(v in c for c in owned)}
        terms |= {v for v in variants if v not in symptoms and table.get(v) not in symptoms and v not in complaint}
    return sorted(terms, key=lambda t: (-len(t), t))  # a fixed order: meta must not vary run to run


def _clauses(text: str) -> list[str]:
    return [c for c in re.split(r"(?<=[，。；！？,;!?\n])", text) if c]


# Someone else's illness is exposure history (班里有小朋友得了手足口病), not the patient's.
_CONTACT = re.compile(r"同学|同事|同班|班里|班级|学生|小朋友|同餐|邻居|室友|朋友|同住|周围人|接触者")
# A denied condition (没有消化道出血史, 无踝关节扭伤史) names nothing the patient has.
_DENIAL = re.compile(r"^[（(]?(没有|没|否认|无|未|从没|从未|不)")


def _about_patient(clause: str) -> bool:
    return not (_FAMILY.search(clause) or _CONTACT.search(clause) or _DENIAL.match(clause.strip()))


def _names(term: str, clause: str) -> bool:
    """``term`` said as an illness: 流感疫苗 names a vaccine, not the flu."""
    return any(not clause.startswith("疫苗", m.end()) for m in re.finditer(re.escape(term), clause))


def find_leaks(text: str, terms: list[str]) -> list[str]:
    """Leak terms named in ``text`` about the patient (a relative's or a contact's illness
    is family or exposure history; a denied one is not theirs)."""
    hits: list[str] = []
    for clause in _clauses(text):
        if not _about_patient(clause):
            continue
        hits += [t for t in terms if t and t not in hits and _names(t, clause)]
    return hits


def scrub(text: str, terms: list[str]) -> tuple[str, list[str]]:
    """Drop every clause of ``text`` that names a leak term; return the text and the terms hit."""
    hits = find_leaks(text, terms)
    if not hits:
        return text, []
    kept = [c for c in _clauses(text) if not _about_patient(c) or not any(_names(t, c) for t in hits)]
    return "".join(kept).strip("，"), hits
