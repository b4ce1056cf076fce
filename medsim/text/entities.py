"""Clinical entities: lexicon terms (disease, symptom, drug, …), measurements with value and
unit (lab values, vitals, doses), frequencies, durations, demographics; laterality attached."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import accumulate

from medsim.text.lexicon import Lexicon, _key, get_lexicon
from medsim.text.measures import (
    LABEL_FILLERS,
    VITAL_LABELS,
    duration,
    frequency,
    numbers,
    unit_of,
)
from medsim.text.normalize import Normalized, normalize
from medsim.text.tokenize import Token, tokenize_normalized

MAX_NGRAM = 5
_LATERAL_PREFIX = ("双侧", "两侧", "左侧", "右侧", "双", "左", "右")
_LATERAL_NORM = {"双侧": "双侧", "两侧": "双侧", "双": "双侧", "左侧": "左", "左": "左", "右侧": "右", "右": "右"}
_LATERAL_BEFORE = re.compile(r"(双侧|两侧|左侧|右侧|双|左|右)$")
_LATERAL_TYPES = {"body_part", "disease", "symptom", "procedure"}
_SEX_RE = re.compile(
    r"(?:(?<=性别：)|(?<=[，。；：\s(]))(男|女)(?:性)?(?=[，。；\s)\d]|患|病|婴|孩|童|$)|(男|女)(?:孩|婴|童|性)"
)
_VALUE_PART = re.compile(r"\d+(?:\.\d+)?(?:\s*(?:/|[-~～至])\s*\d+(?:\.\d+)?)?")
# a patient puts an adverb between the body part and the pain (头还是疼, 膝盖一直疼, 肚子有点痛): the part
# and 疼/痛 together must still be a lexicon or lay term (头疼, 膝盖疼, 肚子痛) for the stretch to be one
_PAIN_ADVERB = re.compile(r"(?:不怎么|不太|没有|也不|也没|都不|都没|还不|一直|还是|仍然|依然|总是|老是|经常|时常|偶尔|有点儿|有点|有些|特别|非常|挺|很|还|仍|也|又|不|没)(?=[疼痛])")
_AGE_RE = re.compile(r"(\d+(?:\.\d+)?)岁(?:(\d+)个?月)?|(\d+)个?月龄")


# Names the lexicons cannot list one by one, told by how they end: a medicine's form (感冒灵颗粒,
# 氧氟沙星滴耳液, 消炎药), an operation or treatment (额肌悬吊术, 溶石治疗), a test (基因检测), an
# inflammation or tumour (睾丸炎, 腺癌). The head before the ending is one to three word tokens.
_SUFFIX_TYPES: list[tuple[str, re.Pattern]] = [
    ("drug", re.compile(r"(?:颗粒|口服液|胶囊|软胶囊|肠溶片|缓释片|泡腾片|分散片|咀嚼片|片剂|片|丸|散|膏|乳膏|软膏|凝胶|"
                        r"糖浆|合剂|冲剂|注射液|注射剂|针剂|滴眼液|滴鼻液|滴耳液|喷雾剂|气雾剂|混悬液|混悬剂|干混悬剂|"
                        r"洗剂|溶液|栓剂|贴剂|药水|药膏|药)$")),
    ("procedure", re.compile(r"(?:切除术|根治术|吻合术|置换术|成形术|修补术|移植术|造口术|造瘘术|引流术|"
                             r"消融术|介入术|探查术|术|治疗|疗法)$")),
    ("exam", re.compile(r"(?:检查|检测|化验|试验|造影|筛查|测定|镜检)$")),
    ("disease", re.compile(r"(?:炎|癌|瘤|综合征|综合症|结石|囊肿|息肉|溃疡)$")),
]
# the last characters of every ending above (a cheap filter before the regexes)
_SUFFIX_LAST_CHARS = frozenset("粒液囊片丸散膏胶浆剂针栓水药术疗法查测验影镜检定炎癌瘤征症石肿肉疡")
# words that qualify any test or treatment and name none (进一步检查, 对症治疗)
_GENERIC_HEADS = {
    "进一步", "相关", "相应", "必要", "其他", "其它", "全面", "详细", "定期", "复查", "一些", "这个", "那个", "什么",
    "哪些", "各种", "各项", "所有", "有关", "对症", "积极", "继续", "及时", "配合", "规范", "系统", "正规", "保守",
    "常规", "进行", "接受", "需要", "建议", "专业", "一般", "简单", "这种", "那种", "哪种", "牙",
}
# a verb or function word is not the head of a name: 吃/用/服 + 药 is taking medicine
_HEAD_STOP = set("吃用服喝开买拿换停喂给上打的了和与及或是在做有无没不要能会就还也都很太去来把被让")
_SUFFIX_STOP = {
    "用药", "服药", "吃药", "换药", "停药", "买药", "开药", "喂药", "上药", "拿药", "医药", "农药", "火药",
    "配药", "抓药", "西药房", "中药房", "药", "片", "丸", "散", "膏", "栓", "术", "治疗", "疗法", "检查", "检测",
    "化验", "试验", "筛查", "测定", "炎", "癌", "瘤", "手术", "技术", "艺术", "学术", "算术", "美术", "武术",
    "战术", "魔术", "话术", "心术", "马术", "发炎", "消炎", "一片", "两片", "半片", "照片", "图片", "名片",
    "卡片", "刀片", "切片", "唱片", "影片", "片子", "鸡精散", "分散", "解散", "扩散", "松散", "拆散", "失散",
    "冲散", "打散", "离散", "药膏", "溶液", "进一步治疗", "对症治疗", "积极治疗", "继续治疗", "进行治疗",
    "及时治疗", "配合治疗", "检查检查", "做检查", "去检查", "再检查",
}
# one-character symptom verbs a patient writes alone (没吐, 又烧了, 有时疼): read as findings only after
# a negation or an adverb, or before an aspect word, so 咽痒 or 吐字 are not taken apart
_VERB_ENTITY = {"咳", "吐", "烧", "喘", "疼", "痛", "晕"}
_VERB_CONTEXT_BEFORE = {"不", "没", "没有", "还", "又", "也", "在", "会", "一直", "老是", "总是", "经常", "就",
                        "都", "再", "开始", "有点", "有些", "有时", "怎么", "偶尔", "时常", "一阵", "很", "特别", "非常"}
_VERB_CONTEXT_AFTER = {"了", "过", "着", "得", "的", "出", "出来", "起来"}


@dataclass(slots=True)
class Entity:
    type: str
    text: str  # as written in the original text
    start: int  # original-text offsets
    end: int
    norm: str  # canonical form
    value: float | None = None
    unit: str | None = None
    name: str | None = None  # canonical test or vital name for measurements, drug for doses
    laterality: str | None = None  # "左" | "右" | "双侧"
    value2: float | None = None  # diastolic pressure, or the upper end of a range
    nstart: int = 0  # normalized-text offsets (for the clause logic)
    nend: int = 0


def _entity(norm: Normalized, ns: int, ne: int, type_: str, canon: str, **kw) -> Entity:
    s, e = norm.to_orig(ns, ne)
    return Entity(type_, norm.orig[s:e], s, e, canon, nstart=ns, nend=ne, **kw)


def _lookup(lex: Lexicon, s: str) -> tuple[str, tuple[str, ...]] | None:
    hit = lex.lookup(s)
    if hit:
        return hit
    std = lex.lay_synonyms.get(s)
    if std is not None:
        return lex.lookup(std)
    return None


def _followed_by_value(tokens: list[Token], j: int) -> bool:
    for k in range(j, min(j + 3, len(tokens))):
        t = tokens[k]
        if t.kind in ("lab_value", "vital", "dose"):
            return True
        if t.kind == "number":
            # a unit, a % or a decimal is needed: "N 78%", "K 3.5" are values, "L4、5" is a vertebra
            return not t.norm[-1].isdigit() or "." in t.norm
        if t.norm not in LABEL_FILLERS:
            return False
    return False


def _term_entities(norm: Normalized, tokens: list[Token], lex: Lexicon) -> list[Entity]:
    out: list[Entity] = []
    n = len(tokens)
    i = 0
    while i < n:
        tok = tokens[i]
        if tok.kind != "word":
            i += 1
            continue
        # longest run of adjacent word tokens first
        j_max = i + 1
        while j_max < n and j_max - i < MAX_NGRAM and tokens[j_max].kind == "word" and tokens[j_max].nstart == tokens[j_max - 1].nend:
            j_max += 1
        matched = False
        heads = lex.heads
        # the run's strings, one per end, built once: runs[k] joins tokens i..i+k
        runs = list(accumulate(t.norm for t in tokens[i:j_max]))
        # a term starts with a lexicon head or a side; every run of two or more characters begins
        # with the longest run's first two, so that head is looked up once
        lateral = tok.norm[0] in "双两左右"
        run_head = lateral or _key(runs[-1][:2]) in heads
        for j in range(j_max, i, -1):
            s = runs[j - i - 1]
            if len(s) > lex.max_term_len + 2:
                continue
            if not (run_head if len(s) >= 2 else lateral or _key(s) in heads):
                continue
            hit = _lookup(lex, s)
            prefix = ""
            if hit is None and len(s) > 1 and s[0] in "双两左右":
                for p in _LATERAL_PREFIX:
                    if s.startswith(p) and len(s) > len(p):
                        hit = _lookup(lex, s[len(p):])
                        if hit:
                            prefix = p
                            break
            if hit is None:
                continue
            key = _key(s)
            if key in lex.label_only and not _followed_by_value(tokens, j):
                continue
            ns, ne = tok.nstart, tokens[j - 1].nend
            types = hit[1]
            type_ = types[0]
            if len(types) > 1 and j < n:
                nxt = tokens[j].kind
                if nxt == "dose" and "drug" in types:
                    type_ = "drug"
                elif nxt in ("lab_value", "number") and "exam" in types:
                    type_ = "exam"
            ent = _entity(norm, ns, ne, type_, hit[0])
            if prefix:
                ent.laterality = _LATERAL_NORM[prefix]
            out.append(ent)
            i = j
            matched = True
            break
        if matched:
            continue
        # a long token the segmenter glued together: look for terms inside it
        if len(tok.norm) >= 3:
            out.extend(_inner_terms(norm, tok, lex))
        i += 1
    return out


def _inner_terms(norm: Normalized, tok: Token, lex: Lexicon) -> list[Entity]:
    out = []
    s = tok.norm
    if s.isascii():
        return out
    heads = lex.heads
    p = 0
    while p < len(s) - 1:
        if _key(s[p : p + 2]) not in heads:
            p += 1
            continue
        for L in range(min(lex.max_term_len, len(s) - p), 1, -1):
            sub = s[p : p + L]
            hit = _lookup(lex, sub)
            if hit and _key(sub) not in lex.label_only:
                out.append(_entity(norm, tok.nstart + p, tok.nstart + p + L, hit[1][0], hit[0]))
                p += L
                break
        else:
            p += 1
    return out


def _adverb_pain(norm: Normalized, lex: Lexicon) -> list[Entity]:
    out = []
    text = norm.text
    for m in _PAIN_ADVERB.finditer(text):
        pain = text[m.end()]
        if text[m.end() : m.end() + 2] in ("疼爱", "痛快", "痛苦"):
            continue
        for n in (3, 2, 1):
            start = m.start() - n
            part = text[max(0, start) : m.start()]
            if start < 0 or not all("\u4e00" <= c <= "\u9fa5" for c in part):
                continue
            hit = _lookup(lex, part + pain)
            if hit and "symptom" in hit[1]:
                out.append(_entity(norm, start, m.end() + 1, "symptom", hit[0]))
                break
    return out


# how a pain is written between its site and 痛 (脐周阵发性隐痛, 右上腹持续性胀痛, 胸背部像撕裂一样剧痛)
_PAIN_QUALITY = re.compile(r"(?:(?:持续性|阵发性|间断性|间歇性|发作性|反复)(?:加剧的?|加重的?)?)?"
                           r"(?:像[\u4e00-\u9fa5]{1,4}(?:一样|似的))?"
                           r"(?:隐|胀|绞|刺|钝|闷|酸|坠|灼|剧|烧灼样|针刺样|刀割样|撕裂样|压榨样|压榨性|搏动性|剧烈|轻微)?"
                           r"(?=疼痛|痛|疼)")


def _qualified_pain(norm: Normalized, lex: Lexicon) -> list[Entity]:
    """A site's pain with its kind written in between (脐周阵发性隐痛 is a 腹痛), or said with 疼 (右上腹疼):
    the site and 痛 are the term."""
    out = []
    text = norm.text
    for m in _PAIN_QUALITY.finditer(text):
        if m.end() == m.start() and not text.startswith("疼", m.end()):
            continue  # 脐周痛 itself is a lexicon term; 右上腹疼 is said for it
        end = m.end() + (2 if text.startswith("疼痛", m.end()) else 1)
        for n in (4, 3, 2):
            start = m.start() - n
            site = text[max(0, start):m.start()]
            if start < 0 or not all("\u4e00" <= c <= "\u9fa5" for c in site):
                continue
            hit = _lookup(lex, site + "痛") or (_lookup(lex, site[:-1] + "痛") if site.endswith("部") else None)
            if hit and "symptom" in hit[1]:
                out.append(_entity(norm, start, end, "symptom", hit[0]))
                break
    return out


# a direction written inside a term (口角向右歪斜, 眼球偏向右侧凝视): the term is the words on both sides
SIDE_INSIDE = re.compile(r"(?<=[\u4e00-\u9fa5])(?:偏)?向([左右])(?:侧)?(?=[\u4e00-\u9fa5])")
_SIDE_TYPES = ("symptom", "disease", "sign")


def without_inner_side(text: str) -> str:
    """``text`` with the sides written inside terms taken out (口角向右歪斜 → 口角歪斜), for readers that
    match their own vocabulary on it (the simulator's lay terms)."""
    return SIDE_INSIDE.sub("", text)


def _side_inside(norm: Normalized, lex: Lexicon) -> list[Entity]:
    out = []
    text = norm.text
    for m in SIDE_INSIDE.finditer(text):
        found = None
        for n in (3, 2):
            left = text[max(0, m.start() - n):m.start()]
            for k in (3, 2, 1):
                right = text[m.end():m.end() + k]
                if len(left) < n or len(right) < k:
                    continue
                hit = _lookup(lex, left + right)
                if hit and any(t in _SIDE_TYPES for t in hit[1]):
                    found = (m.start() - n, m.end() + k, hit)
                    break
            if found:
                break
        if found:
            start, end, hit = found
            kind = next(t for t in hit[1] if t in _SIDE_TYPES)
            # no laterality: 向右 is the direction the mouth is pulled, not the weak side (口角向右歪斜 is a
            # left facial palsy), so it must not be held against a side written elsewhere
            out.append(_entity(norm, start, end, kind, hit[0]))
    return out


def _label_before(tokens: list[Token], i: int) -> tuple[str | None, int]:
    """The word printed before a value (skipping 为/：), and its token index."""
    k = i - 1
    hops = 0
    while k >= 0 and hops < 3:
        t = tokens[k]
        if t.norm in LABEL_FILLERS:
            k -= 1
            hops += 1
            continue
        if t.kind == "word":
            return t.norm, k
        return None, -1
    return None, -1


def _measurement(norm: Normalized, tokens: list[Token], i: int, lex: Lexicon, drugs: list[Entity]) -> Entity | None:
    tok = tokens[i]
    kind = tok.kind
    text = tok.norm
    if kind == "freq":
        abbr, per_day = frequency(text)
        return _entity(norm, tok.nstart, tok.nend, "frequency", abbr, value=per_day)
    if kind == "duration":
        value, unit = duration(text)
        return _entity(norm, tok.nstart, tok.nend, "duration", text, value=value, unit=unit)
    if kind not in ("lab_value", "vital", "dose", "number"):
        return None
    nums = numbers(_VALUE_PART.match(text).group(0)) if _VALUE_PART.match(text) else []
    if not nums:
        return None
    unit = unit_of(text)
    label, li = _label_before(tokens, i)
    start = tokens[li].nstart if li >= 0 else tok.nstart
    vital_name = VITAL_LABELS.get(label.upper()) if label else None
    lab_hit = lex.lookup(label) if label else None
    lab_name = lab_hit[0] if lab_hit and "exam" in lab_hit[1] else None
    value2 = nums[1] if len(nums) > 1 else None

    if kind == "vital" or (kind == "number" and unit == "%" and vital_name == "血氧饱和度"):
        if lab_name and not vital_name:  # PaO2 55mmHg is a blood-gas value, not a vital sign
            return _entity(norm, start, tok.nend, "lab_value", lab_name, value=nums[0], unit=unit, name=lab_name, value2=value2)
        name = vital_name
        if name is None:
            name = {"℃": "体温", "mmHg": "血压" if value2 is not None else None}.get(unit or "")
        if name is None and unit == "次/分":
            name = "心率"
        ns = start if vital_name else tok.nstart
        return _entity(norm, ns, tok.nend, "vital", name or text, value=nums[0], unit=unit, name=name, value2=value2)
    bare_decimal = kind == "number" and unit is None and "." in text  # K 3.5 printed without its unit
    if kind == "lab_value" or (kind == "number" and (unit == "%" or bare_decimal) and lab_name):
        ns = start if lab_name else tok.nstart
        return _entity(norm, ns, tok.nend, "lab_value", lab_name or text, value=nums[0], unit=unit, name=lab_name, value2=value2)
    if kind == "dose":
        drug = None
        for d in reversed(drugs):
            if d.nend <= tok.nstart and tok.nstart - d.nend <= 12:
                drug = d.norm
                break
            if d.nend <= tok.nstart:
                break
        return _entity(norm, tok.nstart, tok.nend, "dose", text, value=nums[0], unit=unit, name=drug, value2=value2)
    return None


def _demographics(norm: Normalized) -> list[Entity]:
    out = []
    text = norm.text
    for m in _SEX_RE.finditer(text):
        sex = m.group(1) or m.group(2)
        out.append(_entity(norm, m.start(), m.end(), "demographic", sex, name="性别"))
    for m in _AGE_RE.finditer(text):
        if m.group(3):
            value = float(m.group(3)) / 12
        else:
            value = float(m.group(1)) + (float(m.group(2)) / 12 if m.group(2) else 0.0)
        out.append(_entity(norm, m.start(), m.end(), "demographic", m.group(0), value=value, unit="岁", name="年龄"))
    return out


def _attach_laterality(norm: Normalized, ents: list[Entity]) -> None:
    text = norm.text
    prev_side: tuple[str, int] | None = None  # (side, normalized end) of the last lateral body part
    for e in ents:
        if e.type not in _LATERAL_TYPES:
            continue
        if e.laterality is None:
            if e.text[:1] in "左右双" or e.text[:2] == "两侧":
                for p in _LATERAL_PREFIX:
                    if e.text.startswith(p):
                        e.laterality = _LATERAL_NORM[p]
                        break
            else:
                m = _LATERAL_BEFORE.search(text, max(0, e.nstart - 2), e.nstart)
                if m:
                    e.laterality = _LATERAL_NORM[m.group(1)]
        # a finding right after a sided body part takes its side: 左下肢 水肿
        if e.laterality is None and e.type in ("symptom", "disease") and prev_side:
            side, pend = prev_side
            gap = text[pend : e.nstart]
            if len(gap) <= 6 and not any(c in gap for c in "，。；"):
                e.laterality = side
        if e.type == "body_part" and e.laterality:
            prev_side = (e.laterality, e.nend)


def _is_cjk(s: str) -> bool:
    return bool(s) and all("\u4e00" <= c <= "\u9fa5" for c in s)


@cache
def _not_name_words() -> frozenset[str]:
    """Cue words (negation, hedges, history…) and place words: never part of a name."""
    lex = get_lexicon()
    words = set(lex.negation_pre + lex.negation_post + lex.uncertainty_pre + lex.uncertainty_post)
    words.update(lex.pseudo_negations + lex.historical_markers + lex.family_markers + lex.negation_end)
    words.update(("当地", "外院", "本院", "我院", "医院", "门诊", "住院", "术后", "术前", "今", "现", "再", "仍"))
    return frozenset(words)


_FUNCTION_CHARS = set("为以于与及其之因由行示见经予对向后前内外中上下里间时将已曾再又即则并而")
@cache
def _not_name_start() -> re.Pattern:
    words = sorted(_not_name_words(), key=len, reverse=True)
    return re.compile("|".join(re.escape(w) for w in words))


# jieba's part-of-speech tags of words that can start or continue a name: nouns, names, unknown pieces
_NAME_TAGS = ("n", "nz", "ng", "nr", "nrt", "nrfg", "ns", "nt", "vn", "j", "l", "i", "eng", "x")


def _name_part(word: str, type_: str = "") -> bool:
    """A word that may be part of a drug, test or disease name (中分化, 蒲地蓝), not 为 / 进一步 / 保守."""
    if word in _not_name_words() or word in _GENERIC_HEADS:
        return False
    if get_lexicon().lookup(word) is not None:
        return True
    from medsim.text.segmenters import jieba_word_tags

    tag = jieba_word_tags().get(word)
    if tag is None:  # an unknown piece of a name (蒲地蓝, 额 肌), not a stray 为 / 中 / 内
        return len(word) > 1 or word not in _FUNCTION_CHARS
    # an operation is named by what is done: 悬吊, 切除, 修补 are verbs
    return tag in _NAME_TAGS or (type_ == "procedure" and tag == "v")


def _suffix_entities(norm: Normalized, tokens: list[Token], lex: Lexicon, taken: list[Entity]) -> list[Entity]:
    """Names the lexicons miss, typed by their ending (see _SUFFIX_TYPES); also one-character
    symptom verbs (疼, 痒, 没吐). Only tokens no lexicon entity covers are read."""
    covered = bytearray(len(norm.text) + 1)
    for e in taken:
        covered[e.nstart : e.nend] = b"\1" * (e.nend - e.nstart)
    out: list[Entity] = []
    n = len(tokens)
    ends = _SUFFIX_LAST_CHARS
    i = 0
    while i < n:
        tok = tokens[i]
        w = tok.norm
        # cheap tests first: most tokens end in no suffix and are no symptom verb
        if (tok.kind != "word" or not (w[-1] in ends or len(w) == 1 or (len(w) == 2 and w[0] in "不没"))
                or not _is_cjk(w)
                or any(covered[tok.nstart : tok.nend])):
            i += 1
            continue
        if len(w) == 1 and w in _VERB_ENTITY and w in lex.symptom_verbs:
            prev = tokens[i - 1].norm if i > 0 and tokens[i - 1].nend == tok.nstart else ""
            nxt = tokens[i + 1].norm if i + 1 < n and tokens[i + 1].nstart == tok.nend else ""
            if prev in _VERB_CONTEXT_BEFORE or nxt in _VERB_CONTEXT_AFTER:
                if not (w in "疼痛" and nxt[:1] in ("爱", "快", "苦")):
                    out.append(_entity(norm, tok.nstart, tok.nend, "symptom", lex.symptom_verbs[w]))
            i += 1
            continue
        if len(w) == 2 and w[0] in "不没" and w[1] in _VERB_ENTITY and w[1] in lex.symptom_verbs:  # 没吐 / 不烧 as one token
            out.append(_entity(norm, tok.nstart + 1, tok.nend, "symptom", lex.symptom_verbs[w[1]]))
            i += 1
            continue
        for type_, rx in _SUFFIX_TYPES:
            if not rx.search(w):
                continue
            # the suffix may be its own token (感冒灵 / 颗粒): take up to three word tokens before it
            k, head = i, w
            while k > 0 and len(head) < 10:
                p = tokens[k - 1]
                if (p.kind != "word" or p.nend != tokens[k].nstart or not _is_cjk(p.norm) or covered[p.nend - 1]
                        or p.norm in _HEAD_STOP or p.norm[-1] in _HEAD_STOP or i - k >= 3 or not _name_part(p.norm, type_)):
                    break
                k -= 1
                head = p.norm + head
            m = rx.search(head)
            stem = head[: m.start()]
            if (not stem or _not_name_start().match(stem) or stem in _GENERIC_HEADS or head in _SUFFIX_STOP
                    or (m.end() - m.start() == 1 and len(head) < 3)):
                continue
            ent = _entity(norm, tokens[k].nstart, tok.nend, type_, head)
            out.append(ent)
            covered[ent.nstart : ent.nend] = b"\1" * (ent.nend - ent.nstart)
            break
        i += 1
    return out


def entities_from(norm: Normalized, tokens: list[Token]) -> list[Entity]:
    """Entities of an already normalized and tokenized text."""
    lex = get_lexicon()
    terms = _term_entities(norm, tokens, lex)
    terms.extend(_suffix_entities(norm, tokens, lex, terms))
    drugs = [e for e in terms if e.type == "drug"]
    out = list(terms)
    for i, tok in enumerate(tokens):
        if tok.kind != "word" and tok.kind != "punct":
            m = _measurement(norm, tokens, i, lex, drugs)
            if m is not None:
                out.append(m)
    out.extend(_demographics(norm))
    out.extend(_adverb_pain(norm, lex))
    out.extend(_qualified_pain(norm, lex))
    out.extend(_side_inside(norm, lex))
    out.sort(key=lambda e: (e.nstart, -(e.nend - e.nstart)))
    # a measurement swallows the exam term that labels it (WBC 5.0×10^9/L is one lab value)
    kept: list[Entity] = []
    for e in out:
        if kept and e.nstart < kept[-1].nend and e.nend <= kept[-1].nend:
            continue
        kept.append(e)
    _attach_laterality(norm, kept)
    return [e for e in kept if not _local_warmth(norm, e)]


# 局部红肿发热, 关节红肿发热, 皮肤发热: a warm spot the examiner or patient feels, not a fever
_LOCAL_BEFORE = re.compile(r"(局部|红肿|肿胀|皮肤|皮温|关节|伤口|患处)[^，。；,;、]{0,2}$")


def _local_warmth(norm: Normalized, e: Entity) -> bool:
    return e.norm == "发热" and local_warmth_at(norm.text, e.nstart)


def local_warmth_at(text: str, start: int) -> bool:
    """Does the 发热 at ``start`` describe a warm spot (局部红肿发热) rather than a fever?"""
    return bool(_LOCAL_BEFORE.search(text[max(0, start - 6):start]))


def extract_entities(text: str, backend: str = "jieba") -> list[Entity]:
    """All entities in ``text`` with original-text offsets."""
    norm = normalize(text)
    return entities_from(norm, tokenize_normalized(norm, backend))
