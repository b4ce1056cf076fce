"""Does this text name this term, or state this point — and where? The text layer's matching.

Scorers ask here whether an answer names a gold term (a diagnosis, a test, a department) or
states a gold point (discharge advice, a correction), by meaning rather than by substring:

- ``match_term``: one answer item against a gold term with ``|`` alternatives — exact, the same
  canonical term (lexicon synonyms, abbreviations, lay forms), bounded containment (the item is
  one concept: 急性前壁心肌梗死（Killip I级） names 急性心肌梗死, a string holding many diseases
  names none), a more specific gold read as a subsequence (右肺上叶癌 in 右肺上叶中央型肺癌), a
  fuzzy ratio. Conflicting modifiers (急性/陈旧性, 1型/2型, 良性/恶性) never match; the side
  (左/右/双侧) is compared with the gold's and with the case's side, whichever alternative matched.
- ``find_point``: is a point stated, affirmed, in the text? Prohibitions of speech and of records
  (不要, 别, 千万别, 避免, 勿, 否认…) negate the advice after them; a prohibition point (避免饮酒,
  戒烟) is met by the prohibited act negated (不要喝酒); a hedge (可能需要X) states nothing; a
  point affirmed and also denied (可能需要X，也可能不需要X) is a self-contradiction, not met.
  Equivalent times and instructions (明早 = 明天早上 = 次日晨; 马上 = 立即) are rewritten to one
  form first (``lexicons/advice_synonyms.txt``).
- ``answer_budget``: how much an answer's length and term count exceed what the task needs, so
  scorers can charge padding (a dump of every term is not an answer).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from rapidfuzz import fuzz

from medsim.paths import lexicons_dir

FUZZY_THRESHOLD = 85.0  # rapidfuzz ratio (0–100); 急性心肌梗死 vs 急性前壁心肌梗死 is 85.7

_PUNCT = re.compile(r"[\s\"'“”‘’`*#（）()【】\[\]<>《》「」『』。．.,，、;；:：!！?？~～]+")
_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")


def normalize(text: Any) -> str:
    """NFKC (full-width → half-width), lower case, no spaces or punctuation (a decimal point kept)."""
    if text is None:
        return ""
    text = _DECIMAL.sub("\x02", unicodedata.normalize("NFKC", str(text)))
    return _PUNCT.sub("", text).replace("\x02", ".").lower()


def alternatives(gold: Any) -> list[str]:
    """'主诊断|同义' → ['主诊断', '同义']; a list is a list of alternatives; a mapping element
    (``{any: [...], optional: true}``) gives its ``any``."""
    if isinstance(gold, dict):
        return alternatives(gold.get("any", gold.get("term", "")))
    if isinstance(gold, list | tuple):
        out: list[str] = []
        for g in gold:
            out.extend(alternatives(g))
        return out
    return [a.strip() for a in str(gold).split("|") if a.strip()]


# ------------------------------------------------------------------ lexicon meaning

@cache
def _lexicon() -> Any:
    from medsim.text.lexicon import get_lexicon

    return get_lexicon()


@lru_cache(maxsize=8192)
def canonical_forms(term: str) -> frozenset[str]:
    """The term's normalized forms: itself and the lexicon's canonical term (synonyms, brand names,
    abbreviations, lay phrases). Two terms are synonyms when their forms meet."""
    norm = normalize(term)
    forms = {norm}
    lex = _lexicon()
    for surface in {term.strip(), norm}:
        canon = lex.canonical(surface)
        if canon:
            forms.add(normalize(canon))
    if norm in _class_heads():
        forms.add(_class_heads()[norm])
    forms.discard("")
    return frozenset(forms)


@lru_cache(maxsize=4096)
def surface_forms(term: str) -> frozenset[str]:
    """Every written form of the term's concept, normalized: itself, its lexicon synonyms,
    abbreviations and brands, and the other names of its drug class (抑酸药 for PPI)."""
    norm = normalize(term)
    forms = {norm}
    lex = _lexicon()
    for surface in {term.strip(), norm}:
        forms |= {normalize(a) for a in lex.aliases(surface)}
    head = _class_heads().get(norm)
    if head:
        forms |= {alias for alias, h in _class_heads().items() if h == head}
    return frozenset(f for f in forms if f)


def concept_forms(term: str) -> frozenset[str]:
    """Every written form of the term and, for a drug, of the classes it belongs to: what an answer
    may call 阿托伐他汀 when it recommends or refuses it (他汀, 他汀类), 磷霉素 (抗生素, 抗菌药物)."""
    forms = set(surface_forms(term))
    for kind in _drug_kinds(_drug_parts(term)):
        forms |= surface_forms(kind)
    return frozenset(f for f in forms if len(f) >= 2)


def synonyms(a: str, b: str) -> bool:
    return bool(canonical_forms(a) & canonical_forms(b))


_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9\-]*")


def said_in(part: str, *texts: Any) -> bool:
    """Whether ``texts`` say what ``part`` says, in their words or its own: each abbreviation and
    lexicon term of the part is named in them by some form of its concept (IMN for 特发性膜性肾病,
    CSDH for 慢性硬膜下血肿), and what is left of the part is written in them as it stands (Ⅱ期)."""
    said = "".join(normalize(t) for t in texts if t)
    if not said:
        return False
    lex = _lexicon()
    needed: list[str] = []
    chunks: list[str] = []
    pos = 0
    raw = str(part)
    for m in _LATIN_RUN.finditer(raw):
        canon = lex.canonical(m.group(0))
        if canon is None:
            continue  # an abbreviation the lexicon does not know is looked for as written
        needed.append(canon)
        chunks.append(raw[pos:m.start()])
        pos = m.end()
    chunks.append(raw[pos:])
    rest: list[str] = []
    for chunk in map(normalize, chunks):
        at = 0
        for m in _concept_pattern().finditer(chunk):
            needed.append(lex.canonical(m.group(0)) or m.group(0))
            rest.append(chunk[at:m.start()])
            at = m.end()
        rest.append(chunk[at:])
    for concept in needed:
        forms = surface_forms(concept) | canonical_forms(concept)
        if not any(len(f) >= 2 and f in said for f in forms):
            return False
    return all(r in said for r in rest if r)


def lexicon_source() -> str:
    return "medsim.text lexicon"


def tokens(text: str) -> tuple[list[str], str]:
    """Content tokens of ``text`` (the text layer's segmenter) and the tokenization used."""
    from medsim.text.tokenize import words

    toks = [normalize(t) for t in words(text)]
    return [t for t in toks if t], "medsim.text.words"


@cache
def _concept_pattern() -> re.Pattern[str]:
    """Every typed lexicon term of a clinical kind (≥ 2 characters), longest first."""
    lex = _lexicon()
    names: set[str] = set()
    for kind in ("disease", "symptom", "drug", "exam", "procedure"):
        for canon in lex.terms(kind):
            names.add(normalize(canon))
            names |= {normalize(a) for a in lex.aliases(canon)}
    names = {n for n in names if len(n) >= 2 and not n.isascii()}
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))


QUOTE_MIN_CHARS = 16


def _content_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LN"  # letters (Han included) and digits


def content_chars(text: str) -> int:
    """How many letters and digits a text has (what ``strip_quoted`` counts)."""
    return sum(1 for ch in text if _content_char(ch))


def strip_quoted(text: str, sources: list[str], min_chars: int = QUOTE_MIN_CHARS) -> tuple[str, int]:
    """``text`` without the stretches it copies word for word (``min_chars`` characters or more,
    spaces and punctuation aside, so pieces of the record rejoined with other separators are
    still copies) from ``sources`` — the question, the record, what the patient said — and how
    many characters went. Echoing the case back says nothing the case did not: a point is met by
    what the answer itself says. Each copied stretch becomes a sentence break."""
    pool = "\n".join("".join(ch for ch in src if _content_char(ch)) for src in sources if src)
    if not text or len(pool) < min_chars:
        return text, 0
    kept = [(i, ch) for i, ch in enumerate(text) if _content_char(ch)]
    flat = "".join(ch for _, ch in kept)
    quoted = [False] * len(flat)
    i = 0
    while i + min_chars <= len(flat):
        if flat[i:i + min_chars] in pool:
            j = i + min_chars
            while j < len(flat) and flat[i:j + 1] in pool:
                j += 1
            for k in range(i, j):
                quoted[k] = True
            i = j
        else:
            i += 1
    if not any(quoted):
        return text, 0
    marked = [k for k, q in enumerate(quoted) if q]
    # a copied stretch runs from its first to its last copied character, separators inside it too
    drop: set[int] = set()
    run_start = prev = None
    for k in marked + [None]:
        if k is not None and prev is not None and k == prev + 1:
            prev = k
            continue
        if run_start is not None:
            drop |= set(range(kept[run_start][0], kept[prev][0] + 1))
        run_start = prev = k
    out, was_dropped = [], False
    for i, ch in enumerate(text):
        if i in drop:
            if not was_dropped:
                out.append("。")
            was_dropped = True
            continue
        was_dropped = False
        out.append(ch)
    return "".join(out), len(marked)


def drugs_in(text: str) -> set[str]:
    """Generic names of the drugs (and drug classes) a text names."""
    lex = _lexicon()
    out = {c for c in concepts_in(text) if lex.type_of(c) == "drug"}
    norm = normalize(text)
    out |= {_class_heads()[alias] for alias in _class_heads() if len(alias) >= 2 and alias in norm}
    return out


@lru_cache(maxsize=4096)
def _drug_parts(drug: str) -> frozenset[str]:
    """The generic drugs a mention is made of: 阿奇霉素干混悬剂 → 阿奇霉素; 布地奈德福莫特罗 →
    布地奈德, 福莫特罗; a class name (钙剂) is its own part."""
    norm = normalize(drug)
    lex = _lexicon()
    parts = {norm} | {c for c in concepts_in(norm) if lex.type_of(c) == "drug"}
    parts |= {m for members in _drug_classes().values() for m in members if len(m) >= 2 and m in norm}
    return frozenset(parts | {_class_heads()[p] for p in parts if p in _class_heads()})


def _drug_kinds(parts: frozenset[str]) -> set[str]:
    """The classes the parts belong to (阿奇霉素 → 大环内酯类, 抗生素)."""
    return {_class_heads().get(name, name) for name, members in _drug_classes().items()
            if any(p in members for p in parts)}


def same_medicine(a: str, b: str) -> bool:
    """Whether two drug mentions name one medicine at different grain: the product and its generic
    (阿奇霉素干混悬剂, 阿奇霉素), a combination and a component, a class and its member (钙片 and
    碳酸钙D3片). Two members of one class are not one medicine (厄贝沙坦 is not 缬沙坦)."""
    pa, pb = _drug_parts(a), _drug_parts(b)
    return bool(pa & pb) or bool(pa & _drug_kinds(pb)) or bool(pb & _drug_kinds(pa))


def names_a_drug_of(text: str, drugs: set[str]) -> bool:
    """Whether ``text`` names one of ``drugs`` at any grain (product, generic or class)."""
    said = drugs_in(text) if text else set()
    return any(same_medicine(d, s) for d in drugs for s in said)


def concepts_in(text: str) -> list[str]:
    """Canonical clinical terms named in ``text`` (normalized), in order, each once."""
    out: list[str] = []
    for m in _concept_pattern().finditer(normalize(text)):
        canon = normalize(_lexicon().canonical(m.group(0)) or m.group(0))
        if canon not in out:
            out.append(canon)
    return out


# the kinds of term that are about one patient's illness and care; symptoms and signs (发热, 出血)
# are everyone's danger signs
CASE_TERM_TYPES = ("disease", "drug", "procedure", "exam")


def case_terms_in(text: str, types: tuple[str, ...] = CASE_TERM_TYPES) -> list[str]:
    """The concepts of ``text`` that name an illness, a drug, a procedure or a test (not symptoms)."""
    lex = _lexicon()
    return [c for c in concepts_in(text) if lex.type_of(c) in types]


_BOTH_WAYS = re.compile(r"可能(需要|是|会|要|有|)([^，。；,;！!？?\n]{1,20}?)[，,；;]\s*(?:但|而|)?也(?:有)?可能(?:不|没|没有)\1?\2")


def both_ways(text: str) -> list[str]:
    """What a text says both ways (可能需要用药，也可能不需要用药; 可能严重，也可能不严重): it
    commits to nothing on it. A differential (可能是X，也可能是Y) is not both ways."""
    return [m.group(2) for m in _BOTH_WAYS.finditer(unicodedata.normalize("NFKC", text or ""))]


# --------------------------------------------------------------------- side and site

# A side word is 左/右/双 written onto a part of the body that has sides (左下肢, 右肺上叶, 双侧).
_SIDED_PARTS = (
    "侧", "肺", "肾", "输尿管", "上肢", "下肢", "手", "足", "膝", "髋", "肩", "肘", "腕", "踝", "眼", "耳", "乳",
    "附件", "卵巢", "输卵管", "睾丸", "腹股沟", "颈", "胸", "下腹", "上腹", "腹", "半身", "额", "颞", "顶", "枕",
    "基底节", "丘脑", "小脑", "大脑", "侧脑室", "壳核", "锁骨", "肋", "股", "胫", "腓", "桡", "尺", "肱", "心",
    "室", "房", "束支", "冠", "颌", "腮腺", "扁桃体", "鼻", "面", "髂", "腰", "背", "肝", "半结肠", "叶", "主支气管",
    "支气管", "上肺", "中肺", "下肺", "顶叶", "额叶", "颞叶", "枕叶", "大腿", "小腿", "前臂", "上臂", "臀", "腋", "甲状腺", "髌", "跟",
)
_SIDE_RE = re.compile(r"(左右两侧|左右|两侧|双侧|双|左|右)(?=" + "|".join(sorted(_SIDED_PARTS, key=len, reverse=True)) + ")")
_SIDE_NORM = {"左": "左", "右": "右", "双": "双", "双侧": "双", "两侧": "双", "左右": "双", "左右两侧": "双"}


@cache
def _sided_drug_names() -> tuple[str, ...]:
    """Drug names that begin with 左/右 (左氧氟沙星, 右美沙芬): not a side."""
    lex = _lexicon()
    names = {normalize(n) for canon in lex.terms("drug") for n in (canon, *lex.aliases(canon))}
    return tuple(sorted((n for n in names if n[:1] in "左右"), key=len, reverse=True))


def sides(text: str) -> set[str]:
    """The sides a (normalized or raw) text names: {'左'}, {'右'}, {'双'} or several."""
    t = normalize(text)
    for drug in _sided_drug_names():
        t = t.replace(drug, "药" * len(drug))
    return {_SIDE_NORM[m.group(1)] for m in _SIDE_RE.finditer(t)}


def strip_sides(text: str) -> str:
    t = normalize(text)
    for drug in _sided_drug_names():
        if drug in t:
            return t
    return _SIDE_RE.sub("", t).removeprefix("侧")


def flip_side(text: str) -> str:
    """The text with its side words swapped (左下肢 → 右下肢); drug names (左氧氟沙星) kept."""
    raw = str(text or "")
    masked = raw
    for drug in _sided_drug_names():
        masked = re.sub(re.escape(drug), lambda m: "药" * len(m.group(0)), masked, flags=re.I)
    out = list(raw)
    for m in _SIDE_RE.finditer(masked):
        word = m.group(1)
        if word in ("左", "右"):
            out[m.start()] = "右" if word == "左" else "左"
    return "".join(out)


def wrong_side_items(items: list[str], gold: list[Any], *, side: set[str] | None = None) -> list[str]:
    """Items that name one side and would meet a gold element on the other side: 左侧腹股沟超声 where
    the gold (or the case) has the right. Both sides, 双 and side-less items are not wrong-sided."""
    out = []
    for item in items:
        said = sides(item)
        if said not in ({"左"}, {"右"}):
            continue
        flipped = flip_side(item)
        # an item left over because another item took its element (复律前经食管超声排除左心耳血栓 beside
        # TEE后电复律) meets that element as written: it is not a wrong side
        if flipped != item and any(match_term(flipped, g, side=side).ok and not match_term(item, g, side=side).ok
                                   for g in gold):
            out.append(item)
    return out


_MODALITY = re.compile(r"pet-?ct|ct|mri|mr|b超|彩超|超声|x线|平片|造影|核素")
_SITE_MAX = 6  # an order's site is a part of the body (胸部, 肾上腺), not a sentence
_SITE_FILLER = re.compile(r"平扫|增强|薄层|检查|成像|彩色|多普勒|急诊|床旁|[+＋及和、]")


def _modality_site(item: str) -> tuple[str, str] | None:
    """(modality, site) of an imaging or biopsy order: 胸部CT → (ct, 胸部); None when it has no
    modality or names several."""
    t = normalize(item)
    found = _MODALITY.findall(t)
    if len(set(found)) != 1:
        return None
    site = _SITE_FILLER.sub("", _MODALITY.sub("", t)).removesuffix("部")
    return (found[0], site) if site and len(site) <= _SITE_MAX else None


def site_substitutions(extra: list[str], missed: list[Any]) -> list[tuple[str, str]]:
    """Orders made at the wrong site in place of a needed one: (item, gold) where an unmatched item
    has the modality of a missed gold element and another site (胸部CT for a missed 腹部CT, 垂体MRI for
    a missed 肾上腺MRI). An extra at another site beside the needed one is not a substitution."""
    out = []
    for item in extra:
        mine = _modality_site(item)
        if mine is None:
            continue
        for element in missed:
            alts = [_modality_site(a) for a in alternatives(element)]
            same_modality = [a for a in alts if a and a[0] == mine[0]]
            if same_modality and not any(mine[1] in a[1] or a[1] in mine[1] for a in same_modality):
                out.append((item, alternatives(element)[0]))
                break
    return out


def side_conflict(a: str | set[str], b: str | set[str]) -> bool:
    """Both name a side and the sides differ (双 differs from 左 and from 右)."""
    sa = a if isinstance(a, set) else sides(a)
    sb = b if isinstance(b, set) else sides(b)
    return bool(sa) and bool(sb) and not sa & sb


def case_side(*texts: Any) -> set[str]:
    """The side a case's gold and primary diagnosis agree on, or set() when none or several."""
    found: set[str] = set()
    for text in texts:
        for alt in alternatives(text):
            found |= sides(alt)
    return found if len(found) == 1 else set()


# ------------------------------------------------------------------ term matching

# Modifiers that change the disease: both sides naming different members never match.
_CONFLICTS = (
    ("急性", "亚急性", "慢性", "陈旧性", "陈旧"),
    ("i型", "ii型", "iii型", "iv型"),
    ("原发性", "继发性"),
    ("上消化道", "下消化道"),
    ("良性", "恶性"),
    ("高", "低"),
    ("stemi=st段抬高", "nstemi=非st段抬高"),
    ("甲亢=甲状腺功能亢进", "甲减=甲状腺功能减退"),
    ("病毒性", "细菌性", "真菌性", "阿米巴", "支原体", "结核性"),
    ("单纯性", "化脓性", "坏疽性"),
    ("浸润性", "非浸润性"),
    ("甲型=甲流=甲肝", "乙型=乙流=乙肝", "丙型=丙肝", "丁型=丁肝", "戊型=戊肝"),
    ("射血分数降低=hfref", "射血分数保留=hfpef", "射血分数轻度降低=射血分数中间值=hfmref"),
    ("肝内胆管", "肝外胆管=胆总管"),
    ("基底节", "丘脑", "脑叶", "小脑", "脑干", "脑室"),
    ("水平半规管=外半规管", "后半规管", "前半规管=上半规管"),
    ("上叶", "中叶", "下叶"),
    ("阳性", "阴性"),
    # the vessel a study or lesion is on: 冠状动脉CTA is not the 主动脉CTA a dissection needs
    ("主动脉", "冠状动脉=冠脉", "肺动脉", "头颈=颈动脉=颅内动脉=脑血管", "肾动脉", "肠系膜", "下肢动脉=下肢血管"),
)
# Too generic to count as a contained match on their own.
_GENERIC = {"病", "炎", "症", "癌", "感染", "炎症", "疾病", "肿瘤", "疼痛", "综合征", "检查", "治疗", "损伤", "手术",
            "药物", "用药", "对症", "支持", "监测", "一般治疗"}
# How much longer than the gold an item may be and still be that one concept (急性前壁心肌梗死
# killip1级 names 急性心肌梗死); beyond it, an item is a paragraph or a dump.
_EXTRA_CHARS = 24
_OTHER_CONCEPTS = 2
_MORPHEMES = ((re.compile(r"恶性肿瘤|恶性肿物|ca$"), "癌"), (re.compile(r"疼痛|疼"), "痛"))


def _members(text: str, group: tuple[str, ...]) -> set[str]:
    """The members of ``group`` a text names; a member ``a=b`` is one member written two ways."""
    forms = sorted(((f, m.split("=")[0]) for m in group for f in m.split("=")), key=lambda x: len(x[0]), reverse=True)
    found = set()
    for form, member in forms:
        if form in text:
            found.add(member)
            text = text.replace(form, "\0")  # 亚急性 must not also count as 急性
    return found


def element_conflict(norm_item: str, gold: Any) -> str | None:
    """The modifier the item names that the gold element's alternatives, taken together, exclude:
    a gold listing 主动脉CTA and a bare CTA is about the aorta, so 冠状动脉CTA meets neither (the bare
    alternative alone would let any site through, as a side-less alternative once let the wrong
    side through). None when no alternative names a member of the item's group."""
    alts = [normalize(a) for a in alternatives(gold)]
    for group in _CONFLICTS:
        named = _members(norm_item, group)
        if not named:
            continue
        wanted = set().union(*(_members(a, group) for a in alts)) if alts else set()
        if wanted and not named & wanted:
            return "、".join(sorted(named))
    return None


def modifier_conflict(a: str, b: str) -> bool:
    """a and b name different members of one modifier group — site, type, subtype (右侧丘脑出血 vs
    脑出血（右侧基底节区）; 甲型 vs 戊型) — on normalized text; numbers and negations aside."""
    return any((ma := _members(a, group)) and (mb := _members(b, group)) and not ma & mb for group in _CONFLICTS)


def conflicting(a: str, b: str) -> bool:
    """True when a and b name different members of a modifier group (急性 vs 陈旧性), carry
    different numbers (高血压2级 vs 3级), name different sides, or one holds several members of a
    group the other names one of (a string listing 急性、慢性 is not 急性)."""
    na, nb = re.findall(r"\d+", a), re.findall(r"\d+", b)
    if na and nb and sorted(na) != sorted(nb) and not (_within(nb, na) or _within(na, nb)):
        return True  # 高血压2级 vs 3级; but CHA2DS2-VASc 4分 still names CHA2DS2-VASc
    if side_conflict(a, b):
        return True
    for group in _CONFLICTS:
        ma, mb = _members(a, group), _members(b, group)
        if ma and mb and (not ma & mb or len(ma) != len(mb)):
            return True
    return _negated_inside(a, b) or _negated_inside(b, a)


def _within(small: list[str], big: list[str]) -> bool:
    """Every number of ``small`` is among ``big`` (as a multiset), and ``big`` only adds to them."""
    rest = list(big)
    for x in small:
        if x not in rest:
            return False
        rest.remove(x)
    return len(small) >= 2  # one shared number is too little to call the rest an added value


def _negated_inside(longer: str, shorter: str) -> bool:
    """不稳定型心绞痛 holds 稳定型心绞痛 but names its opposite."""
    at = longer.find(shorter)
    return len(shorter) >= 2 and at > 0 and longer[at - 1] in "不非无"


_WAITS_ON = re.compile(r"^[^，。；]{2,24}?(?:以后|之后|后)(?=(?:再|才|可|方可|即可)?(?:加用|开始|启动|改用|加|予|给予|序贯))")


def one_concept(item: str, gold: str) -> bool:
    """``item`` (normalized) contains ``gold`` and is about that one concept: bounded in length
    (a treatment item may carry its route, dose and the disease it treats — 静脉PPI抑酸（奥美拉唑
    40mg每12小时一次） names PPI), and what is left names at most ``_OTHER_CONCEPTS`` other clinical
    terms of the lexicon — a list or a dump of every term is not one concept. The condition an
    order waits on (24小时复查头颅CT无出血后加用阿司匹林) is when, not what: it is not counted."""
    m = _WAITS_ON.match(item)
    if m and gold in item[m.end():]:
        item = item[m.end():]
    if len(item) > len(gold) + max(_EXTRA_CHARS, 2 * len(gold)):
        return False
    rest = item.replace(gold, "\0")
    gold_forms = canonical_forms(gold)
    others = [c for c in concepts_in(rest.replace("\0", "，"))
              if c not in gold_forms and c not in gold and not any(c in f for f in gold_forms)]
    return len(others) <= _OTHER_CONCEPTS


@cache
def _class_heads() -> dict[str, str]:
    """Normalized class name or alias → the class's first name (β阻滞剂 → β受体阻滞剂)."""
    heads: dict[str, str] = {}
    for line in (lexicons_dir() / "drug_classes.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or "\t" not in line:
            continue
        names = [normalize(n) for n in line.partition("\t")[0].split("|") if n.strip()]
        for n in names:
            heads.setdefault(n, names[0])
    return heads


@cache
def _drug_classes() -> dict[str, tuple[str, ...]]:
    """Normalized class name or alias → normalized member names (lexicons/drug_classes.txt)."""
    table: dict[str, tuple[str, ...]] = {}
    for line in (lexicons_dir() / "drug_classes.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or "\t" not in line:
            continue
        names, _, members = line.partition("\t")
        found = tuple(sorted({normalize(m) for m in members.split("|") if m.strip()}, key=len, reverse=True))
        for name in names.split("|"):
            if name.strip():
                table[normalize(name)] = table.get(normalize(name), ()) + found
    return table


def class_member(item: str, gold: str, *, broader: bool = True) -> str | None:
    """The member of the class ``gold`` names that ``item`` names as one concept (哌拉西林他唑巴坦
    4.5g静滴 for 抗生素), or None. Brand names are read through the drug lexicon first. The other
    way too: a gold drug (美托洛尔) is met by an item naming its class (β阻滞剂控室率) — the class is
    what a physician checks; a gold that needs the one drug lists no class alternative and says so
    with ``not``."""
    members = _drug_classes().get(gold)
    if not members and not broader:
        return None
    if not members:
        gold_generic = normalize(_lexicon().canonical(gold) or gold)
        for cls, ms in _drug_classes().items():
            if gold_generic in ms and len(cls) >= 2 and cls in item and one_concept(item, cls):
                return cls
        return None
    generic = {normalize(_lexicon().canonical(c) or c) for c in concepts_in(item)}
    for m in members:
        if (m in item or m in generic) and (m not in item or one_concept(item, m)):
            return m
    return None


def contained_form(item: str, gold: str) -> str | None:
    """A written form of ``gold`` that ``item`` holds as one concept (the gold itself, a lexicon
    synonym, a class alias; equivalent instructions rewritten: 不再吃布洛芬 holds 停用布洛芬)."""
    rewritten = rewrite_equivalents(item)
    forms = sorted(surface_forms(gold) | {gold, rewrite_equivalents(gold)}, key=len, reverse=True)
    for form in forms:
        if len(form) < 2 or form in _GENERIC:
            continue
        for text in (item, rewritten):
            if form in text and _named_not_opposite(text, form) and one_concept(text, form):
                return form
    return None


def _named_not_opposite(text: str, form: str) -> bool:
    """``form`` occurs in ``text`` at least once not as the tail of its opposite (非手术治疗 holds
    手术, 非小细胞肺癌 holds 小细胞肺癌, and neither names it)."""
    at = text.find(form)
    while at >= 0:
        if not (at and text[at - 1] == "非"):
            return True
        at = text.find(form, at + 1)
    return False


def _subsequence(short: str, long: str) -> bool:
    """Every character of ``short`` in order in ``long`` with at most half of ``long`` between
    (右肺上叶癌 in 右肺上叶中央型肺癌): the gold is a more specific form of the item."""
    if len(short) < 3 or len(long) - len(short) > len(long) / 2:
        return False
    it = iter(long)
    return all(ch in it for ch in short)


_REORDER_EXTRA = 8  # how much longer than the gold an item may be and still be the gold's words reordered


def _words_reordered(item: str, gold: str) -> bool:
    """Every word of a gold of two or more words is in the item, in another order or apart, and the
    item is little longer (胰岛素小剂量持续静脉泵 for 小剂量胰岛素; 控制上呼吸道感染 for 控制感染). A word
    written negated (心肌梗死（非急性）) is not there."""
    if len(item) > len(gold) + _REORDER_EXTRA:
        return False
    words = tokens(gold)[0]
    if len(words) < 2 or any(len(w) < 2 for w in words):
        return False
    for w in words:
        at = item.find(w)
        if at < 0 or (at and item[at - 1] in "非不无未没"):
            return False
    return True


def _morph(text: str) -> str:
    for pattern, repl in _MORPHEMES:
        text = pattern.sub(repl, text)
    return text


@dataclass
class Match:
    ok: bool
    how: str = ""  # exact | canonical | contains | specific | fuzzy
    gold: str = ""  # the alternative that matched
    ratio: float = 0.0
    note: str = ""  # e.g. "side not stated", "wrong side"


def match_term(pred: Any, gold: Any, *, fuzzy: float | None = FUZZY_THRESHOLD, contains: bool = True,
               side: set[str] | None = None) -> Match:
    """Does the one answer item ``pred`` name ``gold``, affirmatively? An item that denies or hedges
    the term (不需要血常规, 可能需要手术，也可能不需要) names nothing; see ``_match_term``."""
    m = _match_term(pred, gold, fuzzy=fuzzy, contains=contains, side=side)
    if m.ok and _has_cue(normalize(pred), m.gold):
        hit = find_point(str(pred), m.gold)
        if not hit.met or hit.hedged:
            return Match(False, note="denied or hedged: " + ("hedged" if hit.hedged else "denied"))
    return m


def _has_cue(norm_pred: str, alt: str) -> bool:
    g = normalize(alt)
    cues = prohibition_cues() + hedge_cues()
    return any(c in norm_pred and c not in g for c in cues if len(c) > 1) or any(
        c in norm_pred.replace(g, "") for c in ("不", "别", "勿"))


def _match_term(pred: Any, gold: Any, *, fuzzy: float | None = FUZZY_THRESHOLD, contains: bool = True,
                side: set[str] | None = None) -> Match:
    """Does the one answer item ``pred`` name ``gold`` (one of its ``|`` alternatives)?

    ``side`` is the case's side (``case_side``): an item naming another side matches no
    alternative, even a side-less one (左侧基底节区脑出血 is wrong for a right-sided bleed whose
    gold also lists 脑出血)."""
    p = normalize(pred)
    if not p:
        return Match(False)
    if isinstance(gold, dict) and (clash := excluded_by(p, gold.get("not") or [])):
        return Match(False, note=f"names {clash}, which the gold excludes")
    p_sides = sides(p)
    wanted = set(side or set()) | case_side(gold)
    if p_sides and wanted and not p_sides & wanted:
        return Match(False, note=f"wrong side: {''.join(sorted(p_sides))} for {''.join(sorted(wanted))}")
    if clash := element_conflict(p, gold):
        return Match(False, note=f"names {clash}, which no alternative of the gold names")
    best = Match(False)
    p_core = strip_sides(p)
    for alt in alternatives(gold):
        g = normalize(alt)
        if not g:
            continue
        if p == g:
            return Match(True, "exact", alt, 100.0)
        if conflicting(p, g):
            continue
        note = "side not stated" if sides(g) and not p_sides else ""
        g_core = strip_sides(g)
        if synonyms(str(pred), alt) or (p_core != p or g_core != g) and p_core and g_core and (
                p_core == g_core or synonyms(p_core, g_core)):
            return Match(True, "canonical", alt, 100.0, note)
        if not contains or {p, g, p_core, g_core} & _GENERIC:
            pass
        elif (form := contained_form(p_core, g_core)) is not None:
            best = Match(True, "contains", alt, fuzz.ratio(p, g), note if form == g_core else f"{note} {form}".strip())
            continue
        elif _is_body_part(p_core) or p_core in g_core and names_only_a_part(p_core, g_core):
            continue  # an organ or a piece of the gold's name, not what it names: no looser match either
        elif len(p_core) >= 2 and p_core in g_core and len(p_core) * 2 >= len(g_core):
            best = Match(True, "contains", alt, fuzz.ratio(p, g), note)
            continue
        elif _subsequence(_morph(p_core), _morph(g_core)):
            best = Match(True, "specific", alt, fuzz.ratio(p, g), note)
            continue
        elif _words_reordered(p_core, g_core):
            best = Match(True, "specific", alt, fuzz.ratio(p, g), f"{note} words reordered".strip())
            continue
        if not best.ok and (member := class_member(p_core, g_core)):
            best = Match(True, "member", alt, fuzz.ratio(p, g), f"{member} is a {alt}")
            continue
        if fuzzy is not None and not best.ok:
            r = fuzz.ratio(p, g)
            if r >= fuzzy and r > best.ratio:
                best = Match(True, "fuzzy", alt, r, note)
    return best


_DISEASE_SUFFIXES = {"症", "病"}  # 胆石 for 胆石症: the suffix only says "disease"
# what a disease is, said without where: alone, never the name of a sited disease (出血 for 壳核出血)
_SITELESS_HEADS = {"出血", "结石", "骨折", "梗死", "梗塞", "囊肿", "溃疡", "穿孔", "梗阻", "积液", "破裂", "肿物",
                   "占位", "恶性肿瘤", "良性肿瘤", "肿块", "包块", "狭窄", "血栓", "栓塞", "脓肿", "坏死", "扩张"}


@cache
def _body_part_terms() -> tuple[str, ...]:
    return tuple(sorted({normalize(t) for t in _lexicon().terms("body_part")} - {""}, key=len, reverse=True))


@lru_cache(maxsize=4096)
def _body_part_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where body parts are named in ``text`` (every occurrence of every lexicon body part)."""
    spans = []
    for term in _body_part_terms():
        at = text.find(term)
        while at >= 0:
            spans.append((at, at + len(term)))
            at = text.find(term, at + 1)
    return tuple(spans)


def _is_body_part(text: str) -> bool:
    return _lexicon().type_of(text) == "body_part"


def names_only_a_part(part: str, whole: str) -> bool:
    """``part``, written inside ``whole``, names an organ or a fragment of it rather than what
    ``whole`` names: an organ alone (胆囊, 支气管 for 胆囊结石, 支气管肺癌); a cut through an organ's name
    (囊结石); the disease without the site ``whole`` gives it (结石, 出血, 恶性肿瘤 for 胆囊结石, 脑出血,
    肺恶性肿瘤), where ``part`` names no site of its own (肺癌 for 右肺上叶肺癌 still does); or a
    qualifier that is not a disease of its own (中央型 for 中央型肺癌). 阑尾炎 for 急性阑尾炎 names it."""
    if _is_body_part(part) or part in _SITELESS_HEADS and part != whole:
        return True
    at = whole.find(part)
    if at < 0:
        return False
    spans = _body_part_spans(whole)
    if any(s < at < e for s, e in spans):
        return True
    if not _body_part_spans(part) and any(e <= at for s, e in spans):
        return True
    rest = whole[at + len(part):]
    return bool(rest) and rest not in _DISEASE_SUFFIXES and _lexicon().type_of(part) != "disease"


def ruled_out(item: str) -> bool:
    """The item names what it names only to rule it out (排除胆囊结石, 胆囊结石已排除, 不考虑阑尾炎): every
    finding the text layer reads in it is absent. A suspected one (胆囊结石？, 阑尾炎待排) is not ruled out."""
    from medsim.text.analysis import analyze

    findings = analyze(item).findings
    return bool(findings) and all(f.polarity == "absent" for f in findings)


def excluded_by(norm_item: str, nots: list[str]) -> str | None:
    """The first of a gold's excluded qualifiers (``not: [Stanford A型, 下壁]``) the item names; a
    qualifier written negated (非重症 for 重症) does not count."""
    for phrase in nots:
        q = normalize(phrase)
        at = norm_item.find(q)
        while q and at >= 0:
            if not (at and norm_item[at - 1] in "非不无未"):
                return phrase
            at = norm_item.find(q, at + 1)
    return None


def split_compound(item: str) -> list[str]:
    """A compound list item as its parts: 袖式切除+淋巴结清扫 → both; 尼卡地平降压，目标130–140 → both;
    NOAC抗凝（CHA2DS2-VASc 4分） → both."""
    # a bracket is a part too: NOAC抗凝（CHA2DS2-VASc 4分） names the score as well as the drug
    # a drug and its dose apart (IVIG 2g/kg), and the steps of a regimen (30～50mg/kg/d→3～5mg/kg/d), are parts too
    parts = [p.strip(" 。.") for p in re.split(r"[+＋;；，,、（）()→]|->|(?<=[A-Za-z\u4e00-\u9fff])\s+(?=\d)"
                                              r"|以及|联合|并行|同时|及(?!时)|和(?!缓)", str(item))]
    return [p for p in parts if p and normalize(p)]


_RANK = {"exact": 4, "canonical": 4, "contains": 3, "member": 3, "specific": 2, "fuzzy": 1}


def match_sets(pred: list[Any], gold: list[Any], *, side: set[str] | None = None,
               **kw: Any) -> tuple[list[tuple[str, str, str]], list[str], list[str]]:
    """One-to-one matching of predicted items to gold elements (each may hold alternatives).

    An item written as a compound (袖式切除+淋巴结清扫; 尼卡地平降压，目标130–140) counts as several
    items when two or more of its parts name different gold elements; otherwise it is one item,
    matched whole or by its best part. Items are deduplicated by canonical term, so k copies are
    one. Greedy on match quality, so one vague item cannot take a gold element a precise one
    names. Returns (pairs, unmatched items, unmatched gold) with pairs as (item, gold, how)."""
    units: list[tuple[str, list[str]]] = []  # (item as counted, the texts it may match with)
    for p in dedupe(pred):
        parts = split_compound(p)
        if len(parts) > 1:
            hits = {}
            # 无需送检痰培养和血培养: the whole item denies its parts, so a part it denies names nothing
            affirmed = {part: find_point(str(p), part).met for part in parts}
            for part in parts:
                js = [j for j, g in enumerate(gold) if match_term(part, g, side=side, **kw).ok]
                if js and affirmed[part]:
                    hits[part] = js
            distinct = {j for js in hits.values() for j in js}
            if len(hits) >= 2 and len(distinct) >= 2:
                units += [(part, [part]) for part in hits]
                continue
        # matched whole or by its best part — a part the whole item denies is not offered
        kept = [part for part in parts if affirmed[part]] if len(parts) > 1 else []
        units.append((p, [p, *kept]))
    cands = []
    for i, (_, texts) in enumerate(units):
        for j, g in enumerate(gold):
            best = None
            for text in texts:
                m = match_term(text, g, side=side, **kw)
                if m.ok and (best is None or (_RANK[m.how], m.ratio) > (_RANK[best.how], best.ratio)):
                    best = m
            if best is not None:
                cands.append((_RANK[best.how], best.ratio, -i, -j, i, j, best.how))
    cands.sort(reverse=True)
    used_p: set[int] = set()
    used_g: set[int] = set()
    pairs = []
    for *_, i, j, how in cands:
        if i in used_p or j in used_g:
            continue
        used_p.add(i)
        used_g.add(j)
        pairs.append((units[i][0], _element_text(gold[j]), how))
    return (
        pairs,
        [u for i, (u, _) in enumerate(units) if i not in used_p],
        [_element_text(g) for j, g in enumerate(gold) if j not in used_g],
    )


def _element_text(element: Any) -> str:
    return "|".join(alternatives(element)) if isinstance(element, dict) else str(element)


def dedupe(items: list[Any]) -> list[str]:
    """Items once each, by normalized text and by canonical term (k copies are one item)."""
    out, seen = [], set()
    for it in items:
        key = normalize(it)
        forms = canonical_forms(str(it)) if key else frozenset()
        if key and not (forms & seen):
            seen |= forms | {key}
            out.append(str(it).strip())
    return out


# ------------------------------------------------------ units (4g == 4克 == 4000mg)

_UNIT_WORDS = sorted(
    {"kg", "公斤", "千克", "g", "克", "mg", "毫克", "μg", "ug", "mcg", "微克", "l", "升", "ml", "毫升", "u", "单位",
     "iu", "umol/l", "μmol/l", "mmol/l", "万u", "万单位", "ng", "纳克", "cc", "mmhg", "mg/dl", "g/l", "mg/l", "u/l",
     "ng/ml", "pg/ml"},
    key=len, reverse=True,
)
_QTY = re.compile(r"(\d+(?:\.\d+)?)(" + "|".join(re.escape(u) for u in _UNIT_WORDS) + r")(?![a-z])")


def _convert(value: float, unit: str) -> str:
    from medsim.text.units import to_base

    try:
        v, u = to_base(value, unit)
    except Exception:
        return f"{value:.6g}{unit}"
    return f"{v:.6g}" + normalize(u)


def normalize_units(norm_text: str) -> str:
    """In normalized text, rewrite quantities to base units: 4g, 4克 → 4000mg; 0.5l → 500ml."""
    return _QTY.sub(lambda m: _convert(float(m.group(1)), m.group(2)), norm_text.replace("µ", "μ"))


# ------------------------------------------------------- equivalent instructions

@cache
def _advice_rewrites() -> tuple[re.Pattern[str] | None, dict[str, str]]:
    table: dict[str, str] = {}
    path = lexicons_dir() / "advice_synonyms.txt"
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        names = [normalize(n) for n in line.split("|") if n.strip()]
        for n in names[1:]:
            table.setdefault(n, names[0])
    if not table:
        return None, table
    return re.compile("|".join(re.escape(v) for v in sorted(table, key=len, reverse=True))), table


# The object said first (烟要戒掉, 酒最好戒了): the instruction in its usual order.
# Not together, with what it is not taken with said between (钙片不能跟它一起吃, 别和牛奶同时喝): the
# instruction to keep two things apart, as its points write it (不能一起, 不要同时).
_FRONTED = ((re.compile(r"(?<![戒禁])(烟|酒)(?:要|得|最好|一定要|必须|也要|也得|就)?(?:戒掉|戒了|戒)(?![烟酒])"), r"戒\1"),
            (re.compile(r"(不要|不能|别|不宜|避免|不可)(?:跟|和|与|同)[^，。；,;！!？?]{1,10}?(一起|同时)"), r"\1\2"),
            # the limit said after its object (喝水连汤带粥控制在1500毫升, 血压血糖控制好): the instruction
            (re.compile(r"(?:饮水量|饮水|喝水|喝的水)[^，。；,;！!？?]{0,6}?(?:控制|限制)(?=在|于|到)"), "控制饮水"),
            (re.compile(r"(血压|血糖)(?:和|、)?(?:血压|血糖)?[^，。；,;！!？?]{0,2}?控制(?=好|在|达标|稳定)"), r"控制\1"),
            # stopping on one's own forbidden in other words (不能自己说停就停, 禁止自行骤停抗癫痫药, 千万不能自己停掉)
            (re.compile(r"(?:不要|不能|别|千万别|千万不要|千万不能|禁止|切勿|不可|不得|严禁)(?:自行|自己|擅自|私自)"
                        r"(?:说停就停|骤停|突然停|停掉|停用|停服|停药|停)(?:药)?"),
             # the instruction named before the words as written, which keep their object in the prohibition's
             # scope (不可自行停用华法林 does not say 停用华法林)
             lambda m: ("不要自行停药" + m.group(0)) if m.string[m.end():m.end() + 1] not in "，。；,;！!？?\n"
             else "不要自行停药"),
            # a blood test or a scan said as what the patient comes back to have (每周来抽一次血看血小板,
            # 两周后做个肝脏B超): a recheck
            (re.compile(r"(?:来|回来|回医院|去医院|到医院)?抽(?:一次|一管|个)?血(?:看看?|查查?|化验|复查)"), "复查"),
            (re.compile(r"(?<![叫让])做(?:个|一下|一次|一个)(?=[^，。；,;！!？?]{0,6}?(?:超声|b超|彩超|ct|mri|x线|胸片|心电图|胃镜|肠镜))"),
             "复查"),
            # 避免使用青霉素类药物 avoids 青霉素: the verb of use after a prohibition adds nothing
            (re.compile(r"(避免|禁用|禁止|不宜|慎用)(?:使用|应用|服用)(?=[^，。；,;！!？?])"), r"\1"))


# A harm said as what happens: 血压会一下子掉得很低 is 血压骤降 (a fall that is sudden or deep; 血压会慢慢
# 降到正常 is not).
_SAID_AS_HAPPENING = ((re.compile(r"血压(?:会|就|可能|也)?(?:(?:一下子|一下|突然|猛地|猛然|急剧|骤然)(?:往下)?(?:掉|降|下降)"
                                  r"(?:得|到)?(?:很低|太低|特别低|非常低|厉害)?|(?:往下)?(?:掉|降)(?:得|到)(?:很低|太低|特别低|非常低))"),
                       "血压骤降"),)


# Stopping said with its object fronted by 把 (把阿司匹林也停掉, 把辛伐他汀先停了): the act in its usual order.
_STOP_FRONTED = re.compile(r"把([\u4e00-\u9fa5a-z0-9]{2,10}?)(?:也|都|先|给|暂时|这几天|自行|自己|擅自)*(?:停掉|停了|停用|停服|停)(?![留顿车止])")


# Adding a drug said without 用 (布洛芬加塞来昔布联合止痛, 再加上一种止痛药): 加用 as written in advice.
_ADD_BARE = re.compile(r"(?<![增添追参施附外])(?:再)?加(?:上|服|吃)?(?!用|重|强|快|量|倍|剧|热|压|减)")


# Oxygen dosed by its flow (氧流量调大到5～6升/分): 4 L/min and more by nasal tube is high-flow, high-
# concentration oxygen (FiO2 ≈ 21 + 4 × flow %; 基础护理学: 低流量 1–2 L/min). Not a high-flow nasal
# cannula (经鼻高流量, 30–60 L/min), whose FiO2 is set apart from its flow.
_OXYGEN_FLOW = re.compile(r"(?:吸氧|氧气|氧)(?:流量)?[^，。；,;\d]{0,6}?(?<![\d.])(\d+(?:\.\d+)?)(?:\s*[～~\-–到至]\s*\d+(?:\.\d+)?)?"
                          r"\s*(?:升|l|L)\s*(?:/\s*(?:分钟?|min)|每分钟?)")
HIGH_OXYGEN_FLOW = 4.0
_FLOW_CAP = re.compile(r"不超过|不要超过|不能超过|不宜超过|不高于|低于|小于|最多|最高|<|≤")


def _oxygen_by_flow(text: str) -> str:
    def said(m: re.Match[str]) -> str:
        clause = text[max(0, m.start() - 12):m.end()]
        flow = float(m.group(1))
        after = text[m.end():m.end() + 3]
        if flow < HIGH_OXYGEN_FLOW or flow > 15 or "高流量" in clause or _FLOW_CAP.search(m.group(0)) \
                or after.startswith(("以下", "以内", "之内")):  # a ceiling (不超过5升/分), not the flow given
            return m.group(0)
        return f"给予高浓度吸氧（{m.group(0)}）"
    return _OXYGEN_FLOW.sub(said, text)


def acts_in_order(text: str) -> str:
    """Acts in the order advice writes them (raw text, for what scans a clause for an act): 把X也停掉 →
    停用X; 加塞来昔布 → 加用塞来昔布 (only before a drug's name); oxygen at 4 L/min or more →
    高浓度吸氧."""
    text = _oxygen_by_flow(_STOP_FRONTED.sub(r"停用\1", text or ""))
    out, last = [], 0
    for m in _ADD_BARE.finditer(text):
        after = text[m.end():m.end() + 12]
        if any(normalize(after).startswith(d) for d in drugs_in(after)):
            out += [text[last:m.start()], "加用"]
            last = m.end()
    return "".join(out) + text[last:]


def rewrite_equivalents(norm_text: str) -> str:
    """Equivalent spellings of one instruction or time as one form (明天早上 → 明早, 马上 → 立即)."""
    for fronted, order in (*_FRONTED, *_SAID_AS_HAPPENING):
        norm_text = fronted.sub(order, norm_text)
    pattern, table = _advice_rewrites()
    return pattern.sub(lambda m: table[m.group(0)], norm_text) if pattern else norm_text


@cache
def _advice_cues() -> dict[str, tuple[str, ...]]:
    kinds: dict[str, list[str]] = {}
    for line in (lexicons_dir() / "advice_cues.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cue, _, kind = line.partition("\t")
        kinds.setdefault(kind.strip(), []).append(normalize(cue))
    return {k: tuple(sorted(v, key=len, reverse=True)) for k, v in kinds.items()}


def prohibition_cues() -> tuple[str, ...]:
    return _advice_cues().get("prohibit", ())


def hedge_cues() -> tuple[str, ...]:
    return _advice_cues().get("hedge", ())


# ---------------------------------------------------- negation-aware point matching

_CLAUSE_END = re.compile(r"[。；;，,！!？?\n]")
# A verdict followed by a colon judges what came before it; what follows is the correction.
_VERDICT_COLON = re.compile(r"(不对|不正确|不准确|错误|错了|不是这样的?|不是的|误区|误解|不可取|不科学|说错了)\s*(?:[:：]|——)")
# Phrases that hold a cue character but do not negate what follows: concessives (无论), questions
# (有没有腹泻 asks about it), and findings named with a negative predicate (不明原因的, 出血不止).
_QUESTIONS = ("有没有", "有无", "有否", "是否", "是不是", "会不会", "能不能", "要不要", "可不可以", "用不用",
              "需不需要", "需要不需要")
_NAMED_FINDINGS = ("不明", "不止", "不退", "不缓解", "不能缓解", "不消退", "不好转", "不见好转", "不减轻", "不愈",
                   "不全", "不齐", "不稳", "不清", "不畅", "不佳", "不足", "不振", "不良", "不洁", "不规律", "不均",
                   # a treatment named as not working (如果效果不好，可以加…): the condition, not a denial
                   "效果不好", "不见效", "不管用", "没效果", "没有效果", "效果不明显")
# 别 is a prohibition on its own (别停药, 千万别), not inside 特别, 区别, 分别, 类别, 级别, 性别…
_NOT_PROHIBITIONS = ("特别", "区别", "分别", "类别", "级别", "性别", "个别", "识别", "鉴别", "告别", "辨别", "差别",
                     "派别", "别人", "别的", "别处", "别名", "无论", "不论", "不管", "无明显", "不适", "不舒服",
                     "不良反应", "不仅", "不但", "不只", "不少", "不久", "不断", "非常", "并不少", "毫无疑问",
                     "不同", "不一样", "控制不住", "忍不住", "止不住", "禁不住", "按捺不住",  # 控制不住想X wants X
                     # a wish to die is named, not denied: 有不想活、想伤害自己的念头 states self-harm
                     "不想活", "活不下去",
                     # what has stopped by itself (出血停止后可自行停药) prohibits nothing
                     "停止后", "停止以后", "停止了",
                     # symptoms named with a negative predicate (anuria, no tears, lethargy, no appetite):
                     # the finding itself, not a denial of what follows it in a list of warning signs
                     "无尿", "没尿", "没有尿", "无泪", "没眼泪", "没有眼泪", "没泪", "没精神", "没有精神",
                     "没力气", "没有力气", "没劲", "没胃口", "没有胃口")
_PSEUDO = tuple(sorted((*_NOT_PROHIBITIONS, *_QUESTIONS, *_NAMED_FINDINGS), key=len, reverse=True))
_AFFIRMING = (*_QUESTIONS, *_NAMED_FINDINGS)
# A prohibition reaches the act, not the population after 用于: 禁止用于12岁以下儿童 states 12岁以下.
_SCOPE_STOP = ("用于",)
# A verdict right after a mention, in its clause, negates it: 仰头是不对的, 说法是错误的.
_VERDICT_AFTER = re.compile(
    r"^[的之这种样个些说做方想看法观点是都也其实属于一种常见完全绝对并]{0,8}?"
    r"(?:不对(?![症称劲])|错误|错的|不正确|不准确|不可取|不科学|误区|误解|谣言|不恰当|不妥|没有(?:科学)?依据"
    r"|缺乏(?:科学)?依据|违法|不合法|非法|违规|不允许|不被允许|有害|很危险|危险的|不安全)")
# Characters a gap may never skip: 您不需要和他隔离 does not say 您需要和他隔离.
_GAP_BLOCKERS = set("不没无未非别勿莫否禁忌免停")
DIRECT = 4  # a cue this close before a mention denies it directly (不需要X): a contradiction
NEG_WINDOW = 12  # how far before a mention a cue reaches, within its list item
# A list item (after 、) that starts with one of these is new advice, out of an earlier cue's scope.
_FRESH_ITEM = ("保持", "规律", "坚持", "按时", "定期", "注意", "多", "适当", "继续", "及时", "低", "戒", "控制",
               "监测", "复查", "复诊", "遵医嘱", "每日", "每天", "口服", "服用", "使用", "清淡", "加强", "进行")
# A point that is itself a prohibition (避免饮酒, 戒烟, 不要自行停药): its act, prohibited in the
# text (不要喝酒), meets it. 戒X is a prohibition of X.
_PROHIBITION_POINT = re.compile(r"^(?:避免|不要|不能|不宜|勿|切勿|禁止|禁|忌|戒|别|千万别|千万不要|不可|停止|停用|不用|无需|不必"
                                r"|防止|预防|防)(.{2,})$")


_ABSTAIN = {"烟": "吸烟", "酒": "饮酒"}


def _prohibited_act(point: str) -> str | None:
    """The act a prohibition point forbids: 避免饮酒 → 饮酒, 戒烟 → 吸烟; None for other points."""
    if point[:1] == "戒" and point[1:] in _ABSTAIN:
        return _ABSTAIN[point[1:]]
    m = _PROHIBITION_POINT.match(point)
    return m.group(1) if m else None


_TAKING = re.compile(r"^(?:服用|使用|口服|吃|用|服|喝|饮用|涂|外用|注射)")
# a prohibition of taking it, later in the sentence: 不建议自行服用, 不宜使用, 禁用 (not 不能停用)
_LATER_PROHIBITION = re.compile(r"(?:不建议|不宜|不推荐|避免|不要|不能|禁止|不应)[^，。；]{0,4}?(?:服用|使用|口服|吃|(?<![停])用)"
                                r"|禁用|慎用")


_QUOTED = ("“", "”", "\"", "「", "说法", "传言", "听说")


def _object_of(act: str) -> str:
    """吃布洛芬 → 布洛芬: what a prohibited act is done with."""
    return _TAKING.sub("", act)


def _judged_later(text: str, term: str) -> bool:
    """The term is named and, later in its sentence, prohibited (布洛芬等…，孕期一般不建议自行服用)."""
    if len(term) < 2:
        return False
    for sentence in _sentences(text):
        if any(q in sentence for q in _QUOTED):
            continue  # a claim quoted to be refuted (“…绝对不能用”的说法不对) prohibits nothing
        norm = rewrite_equivalents(normalize_units(normalize(sentence)))
        at = norm.find(term)
        if at >= 0 and _LATER_PROHIBITION.search(norm[at + len(term):]):
            return True
    return False


# A prohibition said first with its object left for the next clause: 今晚千万别吃！西地那非跟…
_BARE_PROHIBITION = re.compile(r"(?:不要|别|不能|不可以|不可|不宜|禁止|切勿|勿)(?:再)?(?:吃|服用|服|用|喝|口服)$")


def _prohibited_before(text: str, act: str) -> bool:
    """The act's verb prohibited without an object at a clause's end, and the next clause opens
    with the act's object (别吃！西地那非… prohibits 吃西地那非)."""
    thing = _object_of(act)  # 吃西地那非 → 西地那非; an act that is not taking something has none
    if len(thing) < 2 or thing == act:
        return False
    flat = ["".join(items) for items in _clauses(text)]
    return any(_BARE_PROHIBITION.search(here) and following.startswith(thing)
               for here, following in zip(flat, flat[1:], strict=False))


def _blank(text: str, phrases: tuple[str, ...]) -> str:
    for p in phrases:
        if p in text:
            text = text.replace(p, " " * len(p))
    return text


# a verb with a potential complement (吃不下, 睡不着, 受不了, 躺不平): its 不 says what cannot be done,
# it forbids nothing after it (生病吃不下饭时可以暂停胰岛素 allows the pause)
_POTENTIAL = re.compile(r"(?:吃|喝|咽|吞|睡|受|走|喘|躺|坐|憋|记|看|听|说|想|起|停|止|忍|吃饭)不(?:下|进|着|了|动|上|过|平|住|清|好|起|来)")


# An absence inside a condition closed by 后 (复查CT无出血后加用阿司匹林, 没有再出血以后再吃) is the
# condition's, not the act's after it. Prohibitions (不要在饭后服) are not absences.
_ABSENCE = ("无", "没有", "未")
_CONDITION_CLOSED = re.compile(r"^[^，。；]{1,8}?(?:以后|之后|后)(?:再|才|可|方可|即可|开始|加用|改用|启动|予|给|用|服|吃)")


def _negated_fallback(prefix: str) -> bool:
    """Does a prohibition cue in ``prefix`` reach its end? Pseudo-negations and potential
    complements (吃不下) are blanked first; a cue followed by 用于 governs the act, not the population
    named after it."""
    prefix = _POTENTIAL.sub(lambda m: " " * len(m.group(0)), _blank(prefix, _PSEUDO))
    for cue in prohibition_cues():
        at = prefix.find(cue)
        while at >= 0:
            rest = prefix[at + len(cue):]
            if not any(stop in rest for stop in _SCOPE_STOP) and not (cue in _ABSENCE and _CONDITION_CLOSED.search(rest)):
                return True
            at = prefix.find(cue, at + 1)
    return False


def _hedged(prefix: str) -> bool:
    prefix = _blank(prefix, _PSEUDO)
    return any(cue in prefix for cue in hedge_cues())


def _affirmed(items: list[str], k: int, offset: int) -> bool:
    """The mention is asked about (有没有腹泻) or named as unexplained (不明原因的…)."""
    if any(a in items[k][max(0, offset - NEG_WINDOW): offset] for a in _AFFIRMING):
        return True
    j = k
    while j > 0 and k - j < 3 and not items[j].startswith(_FRESH_ITEM):
        j -= 1
        if any(a in items[j] for a in _AFFIRMING):
            return True
    return False


# A prohibition after what it forbids, in its clause: 布洛芬、双氯芬酸这类止痛药都别吃了; 酒千万不能喝.
_PROHIBITION_AFTER = re.compile(r"^[^不没别勿禁忌免停]{0,12}?(?:都|也|就|可|千万|一定|最好)?"
                                r"(?:别|不要|不能|不可|不宜|不准|不许|禁止|勿|少)(?:再|继续|乱|随便)?"
                                r"(?:吃|服|用|喝|碰|抽|打|涂|贴|拿|买|做|干|搬|提)")


# A duty not to issue or provide something, with the point qualifying what is refused: 不得出具虚假
# 证明, 不能提供违法服务 state 虚假/违法 as the reason for the refusal, they do not deny it.
_REFUSED_OBJECT = re.compile(r"(?:不得|不能|不可|不会|严禁|禁止|不允许|不准|不予|无法)(?:为[^，。；]{0,4})?"
                             r"(?:出具|开具|提供|伪造|开|写|做)(?:任何)?(?:[^，。；]{0,8}的)?$")


# what a later item's prohibition is followed by when it names its own object (少吃内脏海鲜): new advice
_OWN_OBJECT = re.compile(r"^[^，。；了啊呀哦吧]{2,}")


def _mention_negated(items: list[str], k: int, offset: int, after: str = "", item_left: int | None = None) -> bool:
    if _VERDICT_AFTER.match(after):
        return True
    if (m := _PROHIBITION_AFTER.match(after)) is not None:
        # 低盐、少吃内脏: a later list item that prohibits an object of its own is another instruction;
        # 布洛芬、双氯芬酸这类止痛药都别吃了 prohibits the items before it
        crosses = item_left is not None and m.end() > item_left
        if not (crosses and _OWN_OBJECT.match(after[m.end():])):
            return True
    if _REFUSED_OBJECT.search(items[k][max(0, offset - NEG_WINDOW): offset]):
        return False
    if _negated_fallback(items[k][max(0, offset - NEG_WINDOW): offset]):
        return True
    j = k
    while j > 0 and k - j < 3 and not items[j].startswith(_FRESH_ITEM):
        j -= 1
        if _negated_fallback(items[j]):
            return True
    return False


@dataclass
class PointHit:
    met: bool
    alternative: str = ""
    negated: list[str] | None = None  # alternatives found only in negated clauses
    hedged: bool = False  # met only in hedged words (可能需要X)
    contradicted: bool = False  # affirmed (or hedged) and denied in one sentence


@dataclass
class _Mentions:
    affirmed: bool = False
    denied: bool = False
    hedged: bool = False
    contradicted: bool = False
    denied_direct: bool = False  # a cue written right before the mention (不需要X, 不是X)
    alt: str = ""


_RANGE = re.compile(r"(\d)\s*(?:～|~|〜|–|—|-|到|至)\s*(\d)")
_SPOKEN_UNITS = ((re.compile(r"个小时|个钟头|钟头"), "小时"),
                 (re.compile(r"(?<=[\d一二两三四五六七八九十])个(?:礼拜|星期)"), "周"), (re.compile(r"礼拜|星期"), "周"),
                 (re.compile(r"(?<=[\d一二两三四五六七八九十])回(?![家去来])"), "次"),
                 (re.compile(r"(最多|至多|不超过)(?:吃|服|用|喂|含|喷|给)(?=\s*[\d一二两三四五六七八九十])"), r"\1"),
                 # 一周才吃一次 / 每天只用两次 = 一周一次: 才/只 and the verb add no meaning to a frequency
                 (re.compile(r"(?<=[周天日月])(?:才|只)?(?:吃|服|用|打|喝)(?=[\d一二两三四五六七八九十]次)"), ""),
                 # 日剂量>4g = 超过4g (normalize would drop the sign)
                 (re.compile(r"(?:>|＞|大于|多于)(?=\s*\d)"), "超过"))


def spoken_forms(text: str) -> str:
    """Numbers and times as written and as said alike: 4～6小时 = 4到6个小时 = 4-6小时; 一个礼拜 = 一周;
    一天最多4回 = 4次; 一个礼拜才吃一回 = 一周一次; >4g = 超过4g. Ranges keep their two ends (normalize alone would drop the ～)."""
    text = _RANGE.sub(r"\1-\2", text or "")
    for pattern, form in _SPOKEN_UNITS:
        text = pattern.sub(form, text)
    return text


# A bracket that gives a reason or a harm (避免与奥美拉唑合用（CYP2C19抑制使活性代谢物减少）; 妊娠期禁用（胎儿
# 肾发育不良、羊水过少）) explains the prohibition before it, it is not what is prohibited: it opens a clause of its
# own. A bracket listing what is prohibited (避免NSAIDs（如布洛芬）) stays in the prohibition's scope.
_REASON_BRACKET = re.compile(r"[（(](?=[^）)]{0,40}?(?:致|使|引起|导致|造成|风险|抑制|损害|损伤|升高|增加|减少|降低|减弱"
                             r"|发育|畸形|毒性|出血|死亡))")


# A prohibition's examples in the next clause (先别乱吃，特别是阿司匹林、布洛芬这类): still in its scope.
_EXAMPLES_AFTER_PROHIBITION = re.compile(r"((?:不要|不能|不宜|避免|禁止|切勿|千万别|别|勿)[^，。；,;！!？?\n]{0,8}?)[，,]\s*"
                                         r"(?=特别是|尤其是|尤其|特别|比如|例如)")


def _prepare(text: str) -> str:
    text = _REASON_BRACKET.sub("；", spoken_forms(unicodedata.normalize("NFKC", text or "").lower()))
    text = _EXAMPLES_AFTER_PROHIBITION.sub(r"\1", text)
    return _VERDICT_COLON.sub(r"\1。", text)


@lru_cache(maxsize=256)
def _clauses(text: str) -> tuple[tuple[str, ...], ...]:
    """Clauses, each a tuple of normalized 、-items (equivalents rewritten, quantities in base units)."""
    raw = _prepare(text)
    return tuple(tuple(rewrite_equivalents(normalize_units(normalize(it))) for it in c.split("、"))
                 for c in _CLAUSE_END.split(raw))


@lru_cache(maxsize=64)
def _absent_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Original-text spans the text layer reads as negated findings (否认高血压、糖尿病史 covers both)."""
    from medsim.text.analysis import analyze

    return tuple((f.entity.start, f.entity.end) for f in analyze(text).findings if f.polarity == "absent")


_STATES_NEGATIVE = ("正常", "阴性", "(-)", "（-）", "未见", "无异常", "不高", "不大", "转阴")


def _text_layer_negates(text: str, alt: str) -> bool:
    """Every literal mention of ``alt`` lies inside a finding the text layer negates."""
    needle = alt.strip().lower()
    # a point that states a negative or normal finding itself (甲功正常, 血培养阴性) is not denied
    # by the text layer reading that same finding as absent
    if not needle or any(cue in needle for cue in prohibition_cues()) or any(c in needle for c in _STATES_NEGATIVE):
        return False
    spans = _absent_spans(text or "")
    if not spans:
        return False
    starts = [m.start() for m in re.finditer(re.escape(needle), (text or "").lower())]

    def covered(st: int) -> bool:
        end = st + len(needle)
        return any(min(e, end) - max(s, st) >= len(needle) / 2 for s, e in spans)

    return bool(starts) and all(covered(st) for st in starts)


def _point_form(alt: str) -> str:
    return rewrite_equivalents(normalize_units(normalize(spoken_forms(unicodedata.normalize("NFKC", alt).lower()))))


def _scan(text: str, alt: str, g: str, negation: bool) -> _Mentions:
    """Every mention of ``g`` in ``text``: affirmed, denied or hedged; contradicted when one
    sentence both affirms (or hedges) and denies it (可能需要X，也可能不需要X)."""
    seen = _Mentions(alt=alt)
    for sentence in _sentences(text):
        part = _scan_clauses(sentence, alt, g, negation)
        if part.denied_direct and (part.affirmed or part.hedged):
            seen.contradicted = True
        seen.affirmed |= part.affirmed
        seen.denied |= part.denied
        seen.hedged |= part.hedged
    return seen


_SENTENCE_END = re.compile(r"(?<=[。！!？?\n])")


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text or "") if s.strip()] or [text or ""]


def _scan_clauses(text: str, alt: str, g: str, negation: bool) -> _Mentions:
    seen = _Mentions(alt=alt)
    for items in _clauses(text):
        joined = "".join(items)
        starts = [sum(len(x) for x in items[:i]) for i in range(len(items))]
        pos = joined.find(g)
        while pos >= 0:
            if g[0].isdigit() and pos and (joined[pos - 1].isdigit() or joined[pos - 1] == "."):
                pos = joined.find(g, pos + 1)  # 4000mg is not inside 14000mg
                continue
            k = max(i for i, s in enumerate(starts) if s <= pos and items[i])
            offset = pos - starts[k]
            item_left = starts[k] + len(items[k]) - (pos + len(g))
            if negation and _mention_negated(items, k, offset, joined[pos + len(g):], item_left):
                seen.denied = True
                seen.denied_direct |= _negated_fallback(items[k][max(0, offset - DIRECT): offset])
            elif negation and _hedged(items[k][max(0, offset - NEG_WINDOW): offset]):
                seen.hedged = True
            elif negation and not _affirmed(items, k, offset) and _text_layer_negates(text, alt):
                seen.denied = True
            else:
                seen.affirmed = True
            pos = joined.find(g, pos + 1)
    return seen


@lru_cache(maxsize=4096)
def _lay_forms(alt: str) -> tuple[str, ...]:
    """The other names the symptom lexicon gives a symptom point (心悸: 心慌, 心跳快; 黑便: 柏油样便)."""
    lex = _lexicon()
    if lex.type_of(alt) != "symptom" and lex.type_of(lex.canonical(alt) or "") != "symptom":
        return ()
    # the lexicon's written forms and the patient's lay phrases for it (黑便: 大便发黑, 拉黑便)
    forms = set(surface_forms(alt)) | {normalize(f) for f in lex.lay_terms_for(alt)}
    return tuple(sorted(f for f in forms if len(f) >= 2 and f != normalize(alt)))


def _with_lay_forms(alts: list[str]) -> list[str]:
    out = list(alts)
    for alt in alts:
        out += [f for f in _lay_forms(alt) if f not in out]
    return out


# A general time is met by a narrower one it contains: 明天 by 明早 (明天早上 is rewritten to 明早 in the text,
# so the point 明天 would otherwise no longer find it), 今天 by 今晚.
_NARROWER_TIMES = {"明天": ("明早", "明晚"), "今天": ("今晚",)}


def _with_narrower_times(alts: list[str]) -> list[str]:
    out = list(alts)
    for alt in alts:
        out += [t for t in _NARROWER_TIMES.get(_point_form(alt), ()) if t not in out]
    return out


# A prohibition said with its verb bare at the end of a clause, the object said before it (低钠盐您不能用; 二甲双胍
# 就不能用了; 千万别加了): it prohibits that act. A point that prohibits taking (禁用, 不能使用, 不要再吃) or only says
# "not advisable" (不宜, 不建议, 不适合) is met by such a prohibition of taking; one that prohibits another act
# (不要再加) by its verb prohibited so.
_TAKING_VERBS = ("服用", "使用", "口服", "吃", "用", "服")
_BARE_CUES = ("不要", "别", "不能", "不可以", "不可", "不宜", "禁止", "切勿", "勿", "不适合", "不建议", "不应")
_NOT_ADVISABLE = frozenset(("不宜", "不建议", "不适合", "不推荐", "不应", "避免", "不要", "不能", "不可以", "不可", "禁止",
                            "禁用", "别"))
_ACT_PREFIX = re.compile(r"^(?:再|继续|自行|擅自|随便|乱)")


def _bare_prohibition_verbs(g: str) -> tuple[str, ...]:
    if g in _NOT_ADVISABLE:
        return _TAKING_VERBS
    act = _prohibited_act(g)
    if not act:
        return ()
    core = _ACT_PREFIX.sub("", act).rstrip("了")
    if core in _TAKING_VERBS:
        return _TAKING_VERBS
    return (core,) if len(core) == 1 else ()


def _prohibited_bare(text: str, verbs: tuple[str, ...]) -> bool:
    if not verbs:
        return False
    tail = re.compile("(?:" + "|".join(_BARE_CUES) + r")(?:再|继续|乱|随便)?(?:" + "|".join(map(re.escape, verbs))
                      + r")(?:了|啊|呀|哦)?$")
    return any(tail.search("".join(items)) for items in _clauses(text))


def find_point(text: str, point: Any, *, negation: bool = True) -> PointHit:
    """Is ``point`` (alternatives ``a|b``) stated in ``text``, affirmed and not contradicted?

    Equivalent spellings are rewritten first (明天早上 → 明早); quantities compare in base units
    (4g == 4000mg); a long point may have up to GAP extra characters inside it, never a negation.
    A prohibition (不要, 避免, 千万别, 没必要 …) shortly before a mention, or a verdict right after it
    (是不对的), denies it; a hedge (可能, 也许, 不一定) leaves it undecided. A point that is itself
    a prohibition (避免饮酒, 戒烟) is also met by the act prohibited in the text (不要喝酒). A point
    both affirmed and denied is a self-contradiction and not met.
    """
    negated: list[str] = []
    contradicted = False
    for alt in _with_narrower_times(_with_lay_forms(alternatives(point))):
        g = _point_form(alt)
        if not g:
            continue
        seen = _scan(text, alt, g, negation)
        if negation and not seen.affirmed and _prohibited_bare(text, _bare_prohibition_verbs(g)):
            return PointHit(True, alt)
        # the point not written as such: its act denied meets it (不要喝酒 for 避免饮酒); a point
        # written and then judged wrong (不用再打了是错误的) is denied, not met
        if negation and not seen.affirmed and not seen.denied and (act_form := _prohibited_act(g)):
            act = _scan(text, alt, act_form, negation)
            if says_otherwise(text, alt):
                pass  # the act allowed (瘀斑消退后可自行停药) whatever else seems to deny it
            elif act.denied and not act.affirmed or _judged_later(text, _object_of(act_form)) or _prohibited_before(
                    text, act_form):
                return PointHit(True, alt)
            if act_form in _ABSTAIN.values():  # 酒千万不能再喝了: the drink or smoke itself, denied
                thing = _scan(text, alt, act_form[-1], negation)
                if thing.denied and not thing.affirmed:
                    return PointHit(True, alt)
        if seen.contradicted:
            contradicted = True
            continue
        if seen.affirmed or seen.hedged and not seen.denied:
            return PointHit(True, alt, hedged=not seen.affirmed)
        if seen.denied:
            negated.append(alt)
    if not negated and not contradicted:
        for alt in alternatives(point):
            if _gappy(_clauses(text), _point_form(alt), negation):
                return PointHit(True, alt)
    return PointHit(False, "", negated, contradicted=contradicted)


GAP = 2  # extra characters a long point may have inside it: 保持切口干燥 in 保持切口清洁干燥


def _gappy(clauses: tuple[tuple[str, ...], ...], g: str, negation: bool) -> bool:
    """The point's characters in order within one list item, at most GAP extra characters in
    between, none of them a negation (A不B is not AB). Only for points of 4+ characters without
    digits (饭后 must not match 饭前后)."""
    if len(g) < 4 or any(ch.isdigit() for ch in g):
        return False
    for items in clauses:
        joined = "".join(items)
        base = 0
        for k, item in enumerate(items):
            for start, ch in enumerate(item):
                if ch != g[0]:
                    continue
                j, pos, blocked = 1, start + 1, False
                while j < len(g) and pos < len(item) and pos - start < len(g) + GAP:
                    if item[pos] == g[j]:
                        j += 1
                    elif item[pos] in _GAP_BLOCKERS:
                        blocked = True
                        break
                    pos += 1
                if blocked or j < len(g):
                    continue
                if not negation or (not _mention_negated(list(items), k, start, joined[base + pos:])
                                    and not _hedged(item[max(0, start - NEG_WINDOW): start])):
                    return True
            base += len(item)
    return False


_NO_NEED = ("无需", "无须", "不必", "不用", "不需要", "不需", "没必要", "没有必要", "可以不", "可不", "用不着", "暂不",
            "暂时不", "先不", "禁止", "不宜", "不再")
_PERMIT = re.compile(r"(?:可以|可(?!能)|即可|(?<!可)能|尽管|随意|放心)(?:立即|马上|正常|照常|随意|自由)?"
                     r"(?:恢复|进行|参加|做|吃|喝|服用|使用|继续)?")
_PERMIT_GAP = 8
# words between a no-need cue and what it waives (不必强求完全戒烟, 无需再继续口服): the waiver still reaches it
_NO_NEED_FILLER = re.compile(r"(?:强求|刻意|非得|非要|一定|完全|彻底|马上|立即|立刻|急于|继续|坚持|再|去|进行|长期|规律)+$")
# the thing to keep on with allowed to stop (出院后可停用抗生素, 烧退了就可以停药): the opposite of keeping on
_STOP_ALLOWED = re.compile(r"(?:可以|可|即可|就可以|就可|便可)(?:以)?(?:停用|停掉|停服|停止使用|停止服用|停)(?:了)?$")
# a restriction lifted after the act it named (弯腰搬重物不受限制, 运动不限): the act allowed
_UNRESTRICTED_AFTER = re.compile(r"^[^，。；]{0,6}?(?:不受限制|不受限|不限制|不加限制|不用限制|无需限制|不必限制|无限制|不限|随意|均可|都可以)")
_PERMIT_AFTER = re.compile(r"^[^，。；不没别]{0,6}?(?:也|都|就)?(?:可以|行(?![李程为走动驶业人列])|没关系|没问题|无妨)")
# …or denied, or warned about, right after it (明天喝酒也不行; 明天喝酒会加重肝损伤)
_DENIED_AFTER = re.compile(r"^[^，。；]{0,6}?(?:不行|不可以|不能|不要|不好|不安全|危险|禁止|不允许)"
                           r"|^[^，。；]{0,2}?(?:会|可能|容易|易|导致|加重|引起|增加|伤)")
_WHEN_DONE = re.compile(r"(?:明早|明晚|今晚|明天|现在|下次|下一次|这次)(?:再|就|直接)?$")
# 不要自行停药 forbids stopping on one's own: the act allowed on a lay condition (水肿消退后即可停用,
# D-二聚体正常即可停药) is the opposite, whoever is named as doing it
_ON_ONES_OWN = re.compile(r"^(?:自行|擅自|私自|自己|随意|随便)")
_STOPPING = {"停药": ("停药", "停用", "停掉", "停服")}
# a permission the physician gives (遵医嘱停药, 医生评估后可以停药) is not the patient allowed to do it
_PHYSICIAN = ("医生", "医师", "遵医嘱", "医嘱", "复诊", "评估", "指导")
# A restriction point (限制饮水, 控制饮水): its object urged in quantity (多喝水, 大量饮水, 饮水不少于2500ml)
# or its limit lifted (无需限制饮水, 不限饮水) is the opposite
_RESTRICTION_POINT = re.compile(r"^(?:限制|控制|限|减少)(.{1,6})$")
_MORE = re.compile(r"(?:(?<!过)多|大量|尽量多|尽可能多|多多|足量)$")
_NOT_LESS = re.compile(r"^[^，。；]{0,2}?(?:不少于|不低于|至少|≥|>)")


def _acts_allowed(act: str) -> tuple[str, ...]:
    core = _ON_ONES_OWN.sub("", act)
    return tuple(dict.fromkeys((act, *(_STOPPING.get(core, (core,)) if len(core) >= 2 else ()))))


def says_otherwise(text: str, point: Any, *, acts_only: bool = False) -> str | None:
    """The alternative of ``point`` the text says the opposite of, or None: no need for it (无需复查头颅CT
    for 复查头颅CT), or — for a prohibition point (避免剧烈运动, 不要自行停药) — its act allowed
    (可立即恢复打篮球等剧烈运动; 水肿消退后即可停用), or — for a restriction point (限制饮水) — its object
    urged (多喝水). An opposite, not an omission; read within one clause. ``acts_only``: only a
    prohibition's act allowed (可自行停药 beside 泼尼松 for 泼尼松|不要自行停药), for a point met otherwise."""
    for alt in alternatives(point):
        g = _point_form(alt)
        if len(g) < 2:
            continue
        act = _prohibited_act(g)
        if acts_only and (not act or any(act in _point_form(a) and not _prohibited_act(_point_form(a))
                                         for a in alternatives(point))):
            continue  # a point that also takes the act itself (现在补服|不用补服) has no opposite in it
        restricted = m.group(1) if (m := _RESTRICTION_POINT.match(g)) else None
        for items in _clauses(text):
            clause = "".join(items)
            # 吃不下饭 forbids nothing: potential complements and pseudo-negations blanked once, in the
            # whole clause, so a window's cut cannot leave a bare 不
            plain = _POTENTIAL.sub(lambda m: " " * len(m.group(0)), _blank(clause, _PSEUDO))
            at = clause.find(g)
            while at >= 0:
                lead = _NO_NEED_FILLER.sub("", clause[max(0, at - 12):at])
                if any(lead.endswith((c, c + "再")) for c in _NO_NEED) or _STOP_ALLOWED.search(lead) \
                        and not any(p in clause for p in _PHYSICIAN):
                    return alt
                at = clause.find(g, at + 1)
            if restricted and len(restricted) >= 2:
                at = clause.find(restricted)
                while at >= 0:
                    more = _MORE.search(plain[max(0, at - 4):at])
                    start = at - (min(at, 4) - more.start()) if more else at
                    # 不要多喝水, 避免大量饮水: the urging itself forbidden (not 肾功能不好也要大量饮水)
                    forbidden = plain[max(0, start - DIRECT - 2):start].rstrip("再都也太").endswith(prohibition_cues())
                    if (more or _NOT_LESS.match(clause[at + len(restricted):])) and not forbidden:
                        return alt
                    at = clause.find(restricted, at + 1)
            if act and len(act) >= 2 and not any(p in clause for p in _PHYSICIAN):
                for form in _acts_allowed(act):
                    at = clause.find(form)
                    while at >= 0:
                        before = clause[max(0, at - _PERMIT_GAP - 6):at]
                        shown = plain[max(0, at - _PERMIT_GAP - 6):at]
                        permits = list(_PERMIT.finditer(before))
                        m = permits[-1] if permits else None
                        if m and m.group(0) and len(before) - m.end() <= _PERMIT_GAP \
                                and not shown[:m.start()].rstrip().endswith(prohibition_cues()):
                            return alt
                        # the act allowed after it (明早吃两片也可以) or set for a time as the plan (明早吃两片),
                        # nothing prohibiting it right before
                        if _UNRESTRICTED_AFTER.match(clause[at + len(form):]) \
                                and not shown.rstrip("再都也就").endswith(prohibition_cues()):
                            return alt
                        if (_PERMIT_AFTER.match(clause[at + len(form):]) or _WHEN_DONE.search(before)) \
                                and not _DENIED_AFTER.match(clause[at + len(form):]) \
                                and not shown.rstrip("再都也就").endswith(prohibition_cues()):
                            return alt
                        at = clause.find(form, at + 1)
    return None


def contains_any(text: str, cues: tuple[str, ...] | list[str]) -> list[str]:
    """The cues that occur in ``text`` (normalized, no negation check)."""
    t = normalize(text)
    return [c for c in cues if normalize(c) in t]


# ------------------------------------------------------------------ padding

@dataclass
class Budget:
    """How far an answer exceeds what its task needs; ``factor`` multiplies a score (1 = within)."""

    chars: int
    max_chars: int
    terms: int
    max_terms: int
    factor: float = 1.0
    reasons: list[str] = field(default_factory=list)


def answer_budget(text: str, reference: str | None = None, *, max_chars: int | None = None,
                  min_chars: int = 1200, max_terms: int | None = None) -> Budget:
    """Charge padding: beyond ``max_chars`` (default: 3× the reference, at least ``min_chars``) a
    score shrinks with the square of the excess; naming far more distinct clinical terms than the reference
    (default: 3× + 15) shrinks it too. A correct answer of ordinary length is never charged."""
    chars = len(normalize(text))
    ref_chars = len(normalize(reference or ""))
    limit = max_chars or max(min_chars, 3 * ref_chars)
    terms = len(concepts_in(text)) if chars else 0
    ref_terms = len(concepts_in(reference)) if reference else 5
    term_limit = max_terms or 3 * ref_terms + 15
    budget = Budget(chars, limit, terms, term_limit)
    if chars > limit:
        budget.factor *= (limit / chars) ** 2  # twice the budget earns a quarter
        budget.reasons.append(f"answer {chars} chars, budget {limit}")
    if terms > term_limit:
        budget.factor *= term_limit / terms
        budget.reasons.append(f"names {terms} clinical terms, budget {term_limit}")
    return budget
