"""Shared term matching for scorers: normalization, synonyms, fuzzy ratio, negation-aware points.

The text layer (``medsim.text``) is optional here: its lexicon, segmenter and negation are
used when present, and a deliberately tiny fallback is used otherwise, so scoring never
depends on another module having landed.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rapidfuzz import fuzz

FUZZY_THRESHOLD = 85.0  # rapidfuzz ratio (0–100); 急性心肌梗死 vs 急性前壁心肌梗死 is 85.7

_PUNCT = re.compile(r"[\s\"'“”‘’`*#（）()【】\[\]<>《》「」『』。．.,，、;；:：!！?？~～]+")


_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")


def normalize(text: Any) -> str:
    """NFKC (full-width → half-width), lower case, no spaces or punctuation."""
    if text is None:
        return ""
    text = _DECIMAL.sub("\x02", unicodedata.normalize("NFKC", str(text)))  # keep 0.5g's point
    return _PUNCT.sub("", text).replace("\x02", ".").lower()


def alternatives(gold: Any) -> list[str]:
    """'主诊断|同义' → ['主诊断', '同义']; a list is a list of alternatives."""
    if isinstance(gold, list | tuple):
        out: list[str] = []
        for g in gold:
            out.extend(alternatives(g))
        return out
    return [a.strip() for a in str(gold).split("|") if a.strip()]


# ------------------------------------------------------------------ the text layer

@lru_cache(maxsize=1)
def _lexicon() -> Any:
    try:
        from medsim.text import get_lexicon  # type: ignore[attr-defined]

        return get_lexicon()
    except Exception:  # not written yet, or failed to load: use the fallback
        return None


# Tiny fallback until the lexicon lands: department aliases only (keep it tiny).
_FALLBACK_ALIASES = {
    "心内科": ["心内", "心血管内科", "心脏内科", "心血管科"],
    "急诊科": ["急诊", "急诊内科", "急诊医学科"],
    "呼吸内科": ["呼吸科", "呼吸与危重症医学科"],
    "消化内科": ["消化科"],
    "神经内科": ["神内", "神经科"],
    "内分泌科": ["内分泌代谢科"],
    "肾内科": ["肾脏内科", "肾病科"],
    "普外科": ["普通外科"],
    "骨科": ["骨外科"],
    "感染科": ["感染性疾病科", "传染科"],
}
_FALLBACK = {normalize(alias): canon for canon, aliases in _FALLBACK_ALIASES.items() for alias in [canon, *aliases]}


def canonical_forms(term: str) -> set[str]:
    """The term's normalized forms: itself, the lexicon's canonical term, the fallback alias's.

    Two terms are synonyms when their forms meet; keeping all three means a lexicon that
    returns unknown terms unchanged does not hide the fallback."""
    norm = normalize(term)
    forms = {norm, normalize(_FALLBACK.get(norm, norm))}
    lex = _lexicon()
    if lex is not None:
        try:
            canon = lex.canonical(term)
            if canon:
                forms.add(normalize(canon))
        except Exception:
            pass
    forms.discard("")
    return forms


def synonyms(a: str, b: str) -> bool:
    return bool(canonical_forms(a) & canonical_forms(b))


def lexicon_source() -> str:
    return "medsim.text lexicon" if _lexicon() is not None else "built-in fallback aliases"


@lru_cache(maxsize=1)
def _words_fn() -> Any:
    try:
        from medsim.text import words  # type: ignore[attr-defined]

        words("测试")  # a backend that cannot load fails here, not mid-scoring
        return words
    except Exception:
        return None


def tokens(text: str) -> tuple[list[str], str]:
    """Content tokens of ``text`` and the tokenization used: medsim words, else characters."""
    fn = _words_fn()
    if fn is not None:
        try:
            toks = [normalize(t) for t in fn(text)]
            return [t for t in toks if t], "medsim.text.words"
        except Exception:
            pass
    return [ch for ch in normalize(text)], "characters"


# ------------------------------------------------------------------ term matching

# Modifiers that change the disease: both sides naming different members never match.
_CONFLICTS = (
    ("急性", "亚急性", "慢性", "陈旧性", "陈旧"),
    ("左", "右", "双"),
    ("i型", "ii型", "iii型", "iv型"),
    ("原发性", "继发性"),
    ("上消化道", "下消化道"),
    ("良性", "恶性"),
    ("高", "低"),
    ("stemi", "nstemi", "非st段抬高", "st段抬高"),
    ("甲亢", "甲减", "甲状腺功能亢进", "甲状腺功能减退"),
)
# Too generic to count as a contained match on their own.
_GENERIC = {"病", "炎", "症", "癌", "感染", "炎症", "疾病", "肿瘤", "疼痛", "综合征", "检查", "治疗", "损伤"}


def _members(text: str, group: tuple[str, ...]) -> set[str]:
    found = set()
    for m in sorted(group, key=len, reverse=True):
        if m in text:
            found.add(m)
            text = text.replace(m, "\0")  # 亚急性 must not also count as 急性
    return found


def conflicting(a: str, b: str) -> bool:
    """True when a and b name different members of a modifier group (急性 vs 陈旧性), or both
    carry numbers and the numbers differ (高血压2级 vs 高血压3级, CKD 3期 vs 4期) — the lexicon
    maps such variants to one canonical term, so this check comes first."""
    na, nb = re.findall(r"\d+", a), re.findall(r"\d+", b)
    if na and nb and sorted(na) != sorted(nb):
        return True
    for group in _CONFLICTS:
        ma, mb = _members(a, group), _members(b, group)
        if ma and mb and not ma & mb:
            return True
    return _negated_inside(a, b) or _negated_inside(b, a)


def _negated_inside(longer: str, shorter: str) -> bool:
    """不稳定型心绞痛 holds 稳定型心绞痛 but names its opposite: a 不/非/无 written straight onto
    the shorter term turns containment into contradiction."""
    at = longer.find(shorter)
    return len(shorter) >= 2 and at > 0 and longer[at - 1] in "不非无"


@dataclass
class Match:
    ok: bool
    how: str = ""  # exact | canonical | contains | fuzzy
    gold: str = ""  # the alternative that matched
    ratio: float = 0.0


def match_term(
    pred: Any,
    gold: Any,
    *,
    fuzzy: float | None = FUZZY_THRESHOLD,
    contains: bool = True,
) -> Match:
    """Does ``pred`` name ``gold`` (one of its ``|`` alternatives)?

    Exact after normalization, then the same canonical term, then containment either way
    (neither side generic), then fuzzy ratio ≥ ``fuzzy``. Conflicting modifiers (急性 vs
    陈旧性, 左 vs 右, 1型 vs 2型) block every rule but exact.
    """
    p = normalize(pred)
    if not p:
        return Match(False)
    best = Match(False)
    for alt in alternatives(gold):
        g = normalize(alt)
        if not g:
            continue
        if p == g:
            return Match(True, "exact", alt, 100.0)
        if conflicting(p, g):
            continue
        if synonyms(str(pred), alt):
            return Match(True, "canonical", alt, 100.0)
        if contains and min(len(p), len(g)) >= 2 and (p in g or g in p) and not ({p, g} & _GENERIC):
            best = Match(True, "contains", alt, fuzz.ratio(p, g))
            continue
        if fuzzy is not None:
            r = fuzz.ratio(p, g)
            if r >= fuzzy and r > best.ratio and not best.ok:
                best = Match(True, "fuzzy", alt, r)
    return best


def match_sets(pred: list[Any], gold: list[Any], **kw: Any) -> tuple[list[tuple[str, str, str]], list[str], list[str]]:
    """One-to-one matching of predicted items to gold items (each gold may hold alternatives).

    Greedy on match quality (exact/canonical before contains before fuzzy), so one vague
    prediction cannot take a gold item a precise one names. Returns (pairs, unmatched
    predictions, unmatched gold) with pairs as (pred, gold, how).
    """
    rank = {"exact": 3, "canonical": 3, "contains": 2, "fuzzy": 1}
    cands = []
    for i, p in enumerate(pred):
        for j, g in enumerate(gold):
            m = match_term(p, g, **kw)
            if m.ok:
                cands.append((rank[m.how], m.ratio, -i, -j, i, j, m.how))
    cands.sort(reverse=True)
    used_p: set[int] = set()
    used_g: set[int] = set()
    pairs = []
    for *_, i, j, how in cands:
        if i in used_p or j in used_g:
            continue
        used_p.add(i)
        used_g.add(j)
        pairs.append((str(pred[i]), str(gold[j]), how))
    return (
        pairs,
        [str(p) for i, p in enumerate(pred) if i not in used_p],
        [str(g) for j, g in enumerate(gold) if j not in used_g],
    )


def dedupe(items: list[Any]) -> list[str]:
    out, seen = [], set()
    for it in items:
        key = normalize(it)
        if key and key not in seen:
            seen.add(key)
            out.append(str(it).strip())
    return out


# ------------------------------------------------------ units (4g == 4克 == 4000mg)

# Fallback conversions (the text layer's medsim.text.units.to_base is used when present).
_UNIT_BASE = {
    "kg": ("mg", 1e6), "公斤": ("mg", 1e6), "千克": ("mg", 1e6),
    "g": ("mg", 1e3), "克": ("mg", 1e3),
    "mg": ("mg", 1.0), "毫克": ("mg", 1.0),
    "μg": ("mg", 1e-3), "ug": ("mg", 1e-3), "mcg": ("mg", 1e-3), "微克": ("mg", 1e-3),
    "l": ("ml", 1e3), "升": ("ml", 1e3),
    "ml": ("ml", 1.0), "毫升": ("ml", 1.0),
    "u": ("u", 1.0), "单位": ("u", 1.0), "iu": ("u", 1.0),
    "umol/l": ("μmol/l", 1.0), "μmol/l": ("μmol/l", 1.0), "mmol/l": ("mmol/l", 1.0),
}
# Longest spellings first so mmol/l is not read as m + mol; lab units before bare l.
_UNIT_WORDS = sorted(
    set(_UNIT_BASE) | {"万u", "万单位", "ng", "纳克", "cc", "mmhg", "mg/dl", "g/l", "mg/l", "u/l", "ng/ml", "pg/ml"},
    key=len, reverse=True,
)
_QTY = re.compile(r"(\d+(?:\.\d+)?)(" + "|".join(re.escape(u) for u in _UNIT_WORDS) + r")(?![a-z])")


@lru_cache(maxsize=1)
def _to_base_fn() -> Any:
    try:
        from medsim.text.units import to_base  # type: ignore[import-not-found]

        return to_base
    except Exception:
        return None


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def _convert(value: float, unit: str) -> str:
    fn = _to_base_fn()
    if fn is not None:
        try:
            v, u = fn(value, unit)
            return _fmt(v) + normalize(u)
        except Exception:
            pass
    base, factor = _UNIT_BASE.get(unit, (unit, 1.0))
    return _fmt(value * factor) + base


def normalize_units(norm_text: str) -> str:
    """In normalized text, rewrite quantities to base units: 4g, 4克 → 4000mg; 0.5l → 500ml."""
    return _QTY.sub(lambda m: _convert(float(m.group(1)), m.group(2)), norm_text.replace("µ", "μ"))


# ---------------------------------------------------- negation-aware point matching

_CLAUSE_END = re.compile(r"[。；;，,！!？?\n]")
# A verdict followed by a colon judges what came before it; what follows is the correction, a
# clause of its own: 不对：应该头稍前倾 states 头稍前倾.
_VERDICT_COLON = re.compile(r"(不对|不正确|不准确|错误|错了|不是这样的?|不是的|误区|误解|不可取|不科学)\s*(?:[:：]|——)")
# Single characters are kept few: 别 (特别) and 非 (非布司他) would negate too much.
_NEG_CUES = ("不要", "不宜", "不应", "不可", "不能", "不用", "不必", "无需", "无须", "勿", "禁止", "禁用",
             "避免", "切忌", "别吃", "别用", "千万别", "未", "没有", "不", "无", "否认", "停止", "停用",
             "没必要", "用不着", "并非", "错误的做法", "错误做法", "错误的方法")
# Phrases that hold a cue character but do not negate what follows: concessives (无论), questions
# (有没有腹泻 asks about it), and findings named with a negative predicate (不明原因的, 出血不止,
# 高热不退, 肾功能不全, 意识不清): those name the finding, and do not carry over a 、-list.
_QUESTIONS = ("有没有", "有无", "有否", "是否", "是不是", "会不会", "能不能", "要不要", "可不可以", "用不用",
              "需不需要", "需要不需要")
_NAMED_FINDINGS = ("不明", "不止", "不退", "不缓解", "不能缓解", "不消退", "不好转", "不见好转", "不减轻", "不愈",
                   "不全", "不齐", "不稳", "不清", "不畅", "不佳", "不足", "不振", "不良", "不洁", "不规律", "不均")
_PSEUDO = tuple(sorted(("无论", "不论", "不管", "无明显", "不适", "不舒服", "不良反应", "不仅", "不但", "不只",
                        *_QUESTIONS, *_NAMED_FINDINGS), key=len, reverse=True))
# These mark the mention as asked about or present whatever the text layer's negation says
# (it reads 有没有腹泻 and 高热不退、抽搐 as absent findings).
_AFFIRMING = (*_QUESTIONS, *_NAMED_FINDINGS)
# A prohibition reaches the act, not the population after 用于: 禁止用于12岁以下儿童 states 12岁以下.
_SCOPE_STOP = ("用于",)
# A verdict right after a mention, in its clause, negates it: 仰头是不对的, 多喝骨头汤补钙的说法是错误的.
_VERDICT_AFTER = re.compile(
    r"^[的之这种样个些说做方想看法观点是都也其实属于一种常见完全绝对并]{0,8}?"
    r"(?:不对(?![症称劲])|错误|错的|不正确|不准确|不可取|不科学|误区|误解|谣言|不恰当|不妥|没有(?:科学)?依据"
    r"|缺乏(?:科学)?依据)")
# Characters a gap may never skip: 您不需要和他隔离 does not say 您需要和他隔离.
_GAP_BLOCKERS = set("不没无未非别勿莫否禁忌免停")


# A cue negates a mention at most this many characters later in its own list item: enough
# for 不要在饭后服用药物, short enough for a long item not to reach back too far.
NEG_WINDOW = 12
# A list item (after 、) that starts with one of these is new advice, out of an earlier cue's
# scope: 低盐饮食、避免饮酒、规律复查 — 规律复查 is not negated; 避免饮酒、吸烟 — 吸烟 is.
_FRESH_ITEM = ("保持", "规律", "坚持", "按时", "定期", "注意", "多", "适当", "继续", "及时", "低", "戒", "控制",
               "监测", "复查", "复诊", "遵医嘱", "每日", "每天", "口服", "服用", "使用", "清淡", "加强", "进行")


def _negated_fallback(prefix: str) -> bool:
    """Does a cue in ``prefix`` reach its end? Pseudo-negations are blanked first; a cue
    followed by 用于 governs the act, not the population named after it."""
    for p in _PSEUDO:
        prefix = prefix.replace(p, " " * len(p))
    for cue in _NEG_CUES:
        at = prefix.find(cue)
        while at >= 0:
            if not any(stop in prefix[at + len(cue):] for stop in _SCOPE_STOP):
                return True
            at = prefix.find(cue, at + 1)
    return False


def _affirmed(items: list[str], k: int, offset: int) -> bool:
    """The mention is asked about (有没有腹泻、皮疹) or named as unexplained (不明原因的…): in its
    own item or, across a 、-list, in the items a cue would carry over from."""
    if any(a in items[k][max(0, offset - NEG_WINDOW) : offset] for a in _AFFIRMING):
        return True
    j = k
    while j > 0 and k - j < 3 and not items[j].startswith(_FRESH_ITEM):
        j -= 1
        if any(a in items[j] for a in _AFFIRMING):
            return True
    return False


def _mention_negated(items: list[str], k: int, offset: int, after: str = "") -> bool:
    """Is the mention at ``offset`` in list item ``k`` of a clause negated? ``after`` is the
    rest of the clause after the mention (a verdict there negates it)."""
    if _VERDICT_AFTER.match(after):
        return True
    if _negated_fallback(items[k][max(0, offset - NEG_WINDOW) : offset]):
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


def _clauses(text: str) -> list[list[str]]:
    """Clauses, each a list of normalized 、-items (quantities in base units)."""
    raw = _VERDICT_COLON.sub(r"\1。", unicodedata.normalize("NFKC", text or "").lower())
    return [[normalize_units(normalize(it)) for it in c.split("、")] for c in _CLAUSE_END.split(raw)]


@lru_cache(maxsize=64)
def _absent_spans(text: str) -> tuple[tuple[int, int], ...] | None:
    """Original-text spans the text layer reads as negated findings (否认高血压、糖尿病史 covers
    both); None without the text layer."""
    try:
        from medsim.text import analyze  # type: ignore[attr-defined]

        return tuple((f.entity.start, f.entity.end) for f in analyze(text).findings if f.polarity == "absent")
    except Exception:
        return None


def _text_layer_negates(text: str, alt: str) -> bool:
    """True when every literal mention of ``alt`` lies inside a finding the text layer negates."""
    needle = alt.strip().lower()
    if not needle or any(cue in needle for cue in _NEG_CUES):  # 禁用华法林 states the negation itself
        return False
    spans = _absent_spans(text or "")
    if not spans:
        return False
    starts = [m.start() for m in re.finditer(re.escape(needle), (text or "").lower())]

    def covered(st: int) -> bool:  # a negated finding covering at least half of the mention
        end = st + len(needle)
        return any(min(e, end) - max(s, st) >= len(needle) / 2 for s, e in spans)

    return bool(starts) and all(covered(st) for st in starts)


def find_point(text: str, point: Any, *, negation: bool = True) -> PointHit:
    """Is ``point`` (alternatives ``a|b``) stated in ``text`` and not negated?

    Both sides are normalized and their quantities put in base units, so 4g matches 4000mg;
    a long point may have up to GAP extra characters inside it (see _gappy), never a negation.
    A cue (不要, 避免, 没必要, 勿 …) shortly before the mention in its clause negates it, and
    carries over a 、-list unless an item starts new advice; a verdict right after it
    (是不对的, 的说法是错误的) negates it too. Pseudo-negations (无论, 无明显, 不适, 有没有,
    不明原因, 出血不止) do not negate; a prohibition does not reach the population after 用于;
    a verdict before a colon (不对：…) does not reach past it. A cue inside the point itself
    (避免饮酒) is part of the point.
    """
    clauses = _clauses(text)
    negated: list[str] = []
    for alt in alternatives(point):
        g = normalize_units(normalize(alt))
        if not g:
            continue
        seen_negated = False
        for items in clauses:
            joined = "".join(items)
            starts = [sum(len(x) for x in items[:i]) for i in range(len(items))]
            pos = joined.find(g)
            while pos >= 0:
                if g[0].isdigit() and pos and (joined[pos - 1].isdigit() or joined[pos - 1] == "."):
                    pos = joined.find(g, pos + 1)  # 4000mg is not inside 14000mg
                    continue
                k = max(i for i, s in enumerate(starts) if s <= pos and items[i])
                offset = pos - starts[k]
                if not negation or not _mention_negated(items, k, offset, joined[pos + len(g):]):
                    if negation and not _affirmed(items, k, offset) and _text_layer_negates(text, alt):
                        seen_negated = True  # e.g. 否认…、…史 lists
                        break
                    return PointHit(True, alt)
                seen_negated = True
                pos = joined.find(g, pos + 1)
        if seen_negated:
            negated.append(alt)
    if not negated:
        for alt in alternatives(point):
            hit = _gappy(clauses, normalize_units(normalize(alt)), negation)
            if hit:
                return PointHit(True, alt)
    return PointHit(False, "", negated)


GAP = 2  # extra characters a long point may have inside it: 保持切口干燥 in 保持切口清洁干燥


def _gappy(clauses: list[list[str]], g: str, negation: bool) -> bool:
    """The point's characters in order within one list item, at most GAP extra characters in
    between, none of them a negation (A不B is not AB). Only for points of 4+ characters
    without digits (饭后 must not match 饭前后)."""
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
                if not negation or not _mention_negated(items, k, start, joined[base + pos:]):
                    return True
            base += len(item)
    return False


def contains_any(text: str, cues: tuple[str, ...] | list[str]) -> list[str]:
    """The cues that occur in ``text`` (normalized, no negation check)."""
    t = normalize(text)
    return [c for c in cues if normalize(c) in t]
