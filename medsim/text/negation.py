"""Negation, uncertainty, family history and past history of clinical findings.

Rules, as a physician writes records:
- a *pre* cue (否认, 无, 未见, 不伴…) reaches forward to the end of its clause; a clause ends
  at ，。；！？ or a line break and at contrast words (但, 但是, 然而, 而, 却). 、 和 及 do not end it,
  so 否认高血压、糖尿病史 negates both;
- a *post* cue (阴性, (-), 未见异常, 待排, 可能, ？) applies to the findings right before it,
  joined by 、 和 及;
- a *prefix* cue (非) negates only the term written right onto it: 非妊娠 is not pregnant, but
  非感染性腹泻 is diarrhoea; names that start with 非 (非甾体抗炎药, 非霍奇金淋巴瘤) are lexicon terms;
- a question (有无, 有没有, 是否) asks: what it covers is uncertain, never absent;
- pseudo-negations (无明显诱因, 不明原因, 无痛性, 不退…) are not cues: 无明显诱因出现胸痛 is chest
  pain, 高热不退、抽搐 is fever and a seizure;
- a family marker (父亲, 家族中…) earlier in the clause, or a 家族史 section, makes the
  owner "family" — unless a narrator word follows it (母亲代述, 其父陪同: who tells the history);
  a history marker (既往, 曾…), a trailing 史/病史, or a 既往史 section
  makes the finding historical.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cache

from medsim.text.entities import Entity
from medsim.text.lexicon import get_lexicon
from medsim.text.normalize import Normalized

FINDING_TYPES = {"disease", "symptom", "exam", "drug", "procedure"}
# a tilde between words ends a clause as a comma does in chat (睡得不踏实~哭了好几次); 3~5天 is a range
_CLAUSE_END = re.compile(r"[，。；！？\n]|(?<![\d~])~+(?!\d)|但是|但|然而|(?<![继从进因反然])而(?![且后])|却|不过(?!敏)|可是|只是")
_SECTION = re.compile(r"(家族史|既往史|个人史|婚育史|月经史|现病史|主诉|体格检查|辅助检查|诊断|过敏史|手术史)\s*[：:\n]")
_CONNECT = set("、和及与或并 ：，")  # what may sit between findings a post cue covers (no clause end)
# (the words a reply puts between a finding and its trailing negation: 发烧是没有 / 贫血表现都没有 /
# 咳嗽的症状没有)
# 乙肝、狼疮等继发因素初筛阴性: a screen's words between the list and its result
_POST_GAP = re.compile(r"^[、和及与或并\s：]*(?:检查|结果|均|亦|也|都|示|为|是|倒是|等|继发因素|病因|初筛|筛查|检测|化验"
                       r"|的?(?:表现|症状|情况|现象))*[\s：]*$")
# a negation before a finding reaches the findings listed after it (无发热、咳嗽; 没有鼻塞流鼻涕), not a
# finding that a new predicate, a time or a contrast introduces (没发烧就是咳嗽, 白天没烧晚上37.5)
# (a bracket that names the finding before it, 未发生过完全尿不出（急性尿潴留）, is the same finding's)
_LIST_GAP = re.compile(r"^(?:[、和及与或并也都亦等“”\"'（）()《》\s：]|[（(](?:即|急性|慢性|亚急性)|或者|或是|以及|病?史)*$")
_SCOPE_BREAK = re.compile(
    r"就是|就|只是|只有|光是|才|又|还|然后|后来|之后|以后|以前|之前|时候|时|现在|今天|昨天|前天|晚上|白天|早上|"
    r"中午|下午|上午|夜里|夜间|偶尔|经常|有时|总是|老是|一直|但|可是|不过|而且|所以|因为|因此|引起|导致"
)
# a joiner and the next item's own site before its finding (及头部外伤): see _site_gap
_SITE_GAP = re.compile(r"[、和及与或并]\s*(\S{1,6}?)的?")
# what may close a clause after a trailing negation (喝酒抽烟都没有了 / 呢 / 啊)
_END_TAIL = re.compile(r"^[了呢啊呀哦吧的过嘛哈\s]*$")
# a question's last words: the clause asks (发烧吗, 是肺炎么)
_QUESTION_TAIL = re.compile(r"(?:吗|么|呢|嘛|没)[啊呀哦]?$")
# 发烧好了 / 烧退了: the finding was there and has resolved
_RESOLVED = re.compile(r"(?:也|都|已经|已|就|早就)?(?:好了|退了|好多了|痊愈了?|消失了|没了|止住了|退下来了|好转了)")
_HIST_SUFFIX = re.compile(r"(?:病)?史")
# a list closed by 家族史 is the family's, item by item back to the first word that is not a list
# item: 无高血压、糖尿病及冠心病家族史 (all three), 合并糖尿病、吸烟及早发冠心病家族史 (冠心病 only)
_FAMILY_TAIL = re.compile(r"等?病?家族(?:遗传)?史")
_FAMILY_LIST_GAP = re.compile(r"[、和及与或]{1,2}(?:早发性?|遗传性)?")
# 高血压、糖尿病史: the trailing 史 covers the whole list
_HIST_RUN = re.compile(r"(?:[、和及][^，。；！？\n、和及]{1,10})*等?病?史")
# "1年前出现腰痛" dates the onset of the present illness; "10年前行阑尾切除术" is past history
_ONSET_MARKERS = {"年前", "多年前"}
_CLAUSE_POST = {"？", "?"}
# a question asks about a diagnosis it names (是肺炎吗？); a symptom the patient reports in a question
# (那发烧怎么办？) stays what it is unless a question word is written onto it (有没有发烧)
_QUESTION_HEDGED = {"disease"}
# a condition hedges what it covers even when a negation sits closer: 如果不发烧就不用去
_CONDITIONAL = {"如果", "如果是", "要是", "假如", "假设", "若是", "万一", "一旦", "只要", "的话"}
_BEFORE_IT = re.compile(r"的?(?:之前|以前)")
# a negated copula (不是 / 不符合 / 不属于 / 不算) and a finding that qualifies a later noun (X的Y, X止痛的Y)
_COPULA = re.compile(r"(?:是|符合|属于|算)")
_MODIFIER_OF = re.compile(r"[”’\"']?[\u4e00-\u9fa5]{0,4}?的(?!话)")
# a negated treatment right before a disease: the disease is its object (未抗凝房颤, 未规律治疗的高血压)
_NEGATED_ACTION = re.compile(r"(?:规律|正规|系统|正规地)?(?:抗凝|治疗|控制|服药|用药|诊治|处理|干预|随访)(?:的)?$")
_NO_MORE = re.compile(r"(?:未再|没再|没有再|不再|再未|再无)[^，。；！？]{0,3}$")
# a question word makes the clause ask about the diagnosis it names (肺炎怎么看, 消化不良咋办)
_WH = re.compile(r"怎么|咋|什么|多久|哪|吗|么|呢|嘛")
# an effect named after its asked cause (是不是受凉引起的腹泻): the hedge stops at the causal verb
_CAUSED = re.compile(r"引起的?|导致的?|造成的?|所致的?|诱发的?")
# a hedge word that is only part of another word (主要是 / 需要是 / 只要是 hold 要是): not a cue
_INSIDE_WORD = {"要是": "主需只还就总", "怕": "不可哪"}
_EDGE = set("，。；！？、：:,;!? \n")  # a question mark hedges the whole clause before it


@dataclass(slots=True)
class Finding:
    entity: Entity
    polarity: str = "present"  # present | absent | uncertain
    owner: str = "patient"  # patient | family
    historical: bool = False
    cue: str | None = None

    # shortcuts to the entity, for callers that treat a finding as a mention
    @property
    def norm(self) -> str:
        return self.entity.norm

    @property
    def text(self) -> str:
        return self.entity.text

    @property
    def type(self) -> str:
        return self.entity.type

    @property
    def start(self) -> int:
        return self.entity.start

    @property
    def end(self) -> int:
        return self.entity.end


@dataclass(frozen=True, slots=True)
class _Cue:
    start: int
    end: int
    text: str
    kind: str  # neg_pre | neg_post | neg_prefix | unc_pre | unc_post | family | hist


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


_NEVER = re.compile(r"(?!x)x")


@cache
def _regexes() -> tuple[re.Pattern, dict[str, tuple[str, ...]], re.Pattern, re.Pattern]:
    """One alternation of every cue (longest first) and the roles each cue plays: the same
    string can be pre and post (不除外), pre and end (没有), …; roles are decided by position."""
    lex = get_lexicon()
    groups = [
        ("unc_pre", lex.uncertainty_pre),
        ("unc_post", lex.uncertainty_post),
        ("neg_post", lex.negation_post),
        ("neg_pre", lex.negation_pre),
        ("neg_prefix", lex.negation_prefix),
        ("neg_end", lex.negation_end),
        ("family", lex.family_markers),
        ("hist", lex.historical_markers),
    ]
    roles: dict[str, tuple[str, ...]] = {}
    for kind, ws in groups:
        for w in ws:
            if kind not in roles.get(w, ()):
                roles[w] = roles.get(w, ()) + (kind,)
    pat = re.compile(_alternation(list(roles))) if roles else _NEVER
    pseudo = re.compile(_alternation(lex.pseudo_negations)) if lex.pseudo_negations else _NEVER
    narrator = re.compile(_alternation(lex.narrator_markers)) if lex.narrator_markers else _NEVER
    return pat, roles, pseudo, narrator


def _is_finding_term(s: str) -> bool:
    """What is left of a stretch once a negation is taken out is itself a finding (肚子不疼 → 肚子疼,
    不流鼻涕 → 流鼻涕, 没痰 → 痰): then the negation inside negates it. 精神不好 → 精神好 is not."""
    lex = get_lexicon()
    s = s.strip()
    if not s:
        return False
    for cand in (s, s[1:] if s[0] == "有" and len(s) > 1 else ""):
        if not cand:
            continue
        if cand in lex.symptom_verbs:
            return True
        typ = lex.type_of(cand)
        if typ in FINDING_TYPES:
            return True
    return False


def _has_symptom_verb(s: str) -> bool:
    """A symptom verb written in a stretch (不咳了几声 / 没吐过): with a negation at its head,
    the stretch someone marked as a finding is denied."""
    verbs = get_lexicon().symptom_verbs
    return any(ch in verbs for ch in s)


def _find_cues(text: str, entities: list[Entity]) -> list[_Cue]:
    cue_re, roles, pseudo_re, narrator_re = _regexes()
    pseudo = [(m.start(), m.end()) for m in pseudo_re.finditer(text)]
    pseudo_starts = [ps for ps, _ in pseudo]
    ent_spans = [(e.nstart, e.nend) for e in entities]
    ent_starts = [s for s, _ in ent_spans]
    cues: list[_Cue] = []
    for m in cue_re.finditer(text):
        s, e = m.start(), m.end()
        w = m.group(0)
        kinds = roles[w]
        is_neg = any(k.startswith("neg") for k in kinds)
        if s > 0 and text[s - 1] in _INSIDE_WORD.get(w, ""):
            continue
        if e < len(text) and text[e].isascii() and text[e].isalnum() and not any(ch.isalnum() for ch in w):
            continue  # a dash written into a name (IBS-D, HER-2) is not the sign of a negative result
        if is_neg:
            # pseudo-negations do not nest, so only the last one starting at or before s can cover it
            k = bisect_right(pseudo_starts, s) - 1
            if k >= 0 and any(pseudo[q][1] >= e for q in range(max(0, k - 2), k + 1)):
                continue
            # nor when a pseudo-negation starts inside it: 也不怎么咳 is 也 + 不怎么 (a degree word)
            k2 = bisect_left(pseudo_starts, s + 1)
            if k2 < len(pseudo) and pseudo[k2][0] < e:
                continue
        # inside a finding's own words (四肢无力, 无痛性肉眼血尿) it is not a cue, unless what is
        # left without it is a finding itself (肚子不疼): then it negates that finding
        i = bisect_right(ent_starts, s) - 1
        if i >= 0 and ent_spans[i][0] <= s and e <= ent_spans[i][1] and "unc_post" not in kinds:
            es, ee = ent_spans[i]
            rest = text[es:s] + text[e:ee]
            if (is_neg and "neg_prefix" not in kinds and get_lexicon().type_of(text[es:ee]) is None
                    and (_is_finding_term(rest) or (s == es and _has_symptom_verb(rest)))):
                cues.append(_Cue(s, e, w, "neg_inner"))
            continue
        for kind in kinds:
            if kind == "family" and narrator_re.match(text, e):
                continue  # 母亲代述 / 其父陪同: the family member tells the history, it is not theirs
            cues.append(_Cue(s, e, w, kind))
    return cues


def _sections(text: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of 家族史 / 既往史 sections, ending at the next header or line."""
    heads = list(_SECTION.finditer(text))
    out = []
    for k, m in enumerate(heads):
        end = heads[k + 1].start() if k + 1 < len(heads) else len(text)
        nl = text.find("\n", m.end())
        if nl != -1 and text[m.end() : nl].strip():
            end = min(end, nl)
        out.append((m.end(), end, m.group(1)))
    return out


class FindingContext:
    """Clause bounds, cues and sections of one text, computed once; ``judge`` reads a finding's
    polarity, owner and history off them, ``at`` does the same for any stretch of the text."""

    def __init__(self, norm: Normalized, entities: list[Entity]) -> None:
        self.norm = norm
        text = self.text = norm.text
        self.bound_ends = {m.start(): m.end() for m in _CLAUSE_END.finditer(text)}
        self.bounds = list(self.bound_ends)
        self.cues = _find_cues(text, entities)
        self.cue_starts = [c.start for c in self.cues]
        self.sections = _sections(text)
        self.section_starts = [sec[0] for sec in self.sections]
        self.findings_ents = [e for e in entities if e.type in FINDING_TYPES]
        self.ent_starts = [e.nstart for e in self.findings_ents]

    def at(self, nstart: int, nend: int, type_: str = "symptom") -> Finding:
        """A stretch the entity pass did not take (a fuzzy match, a culture result), judged as a finding.
        Punctuation at its edges is not part of it: a fuzzy match may start on the comma before."""
        text = self.text
        while nstart < nend and text[nstart] in _EDGE:
            nstart += 1
        while nend > nstart and text[nend - 1] in _EDGE:
            nend -= 1
        s, e = self.norm.to_orig(nstart, nend)
        return self.judge(Entity(type_, self.norm.orig[s:e], s, e, self.text[nstart:nend], nstart=nstart, nend=nend))

    def negation_cues(self, nstart: int, nend: int, *, prefix: bool = True) -> list[str]:
        """Negation cues written inside a stretch (pseudo-negations already left out); ``prefix=False``
        leaves out the prefix cues, which negate only the word written onto them (非化脓性充血 is 充血)."""
        lo, hi = bisect_left(self.cue_starts, nstart), bisect_left(self.cue_starts, nend)
        # a cue with two roles (未及: pre and post) is listed twice among the cues, once here
        return list(dict.fromkeys(c.text for c in self.cues[lo:hi] if c.kind.startswith("neg") and c.end <= nend
                                  and (prefix or c.kind != "neg_prefix")))

    def has_family_marker(self, nstart: int, nend: int) -> bool:
        """A family word (not a narrator's: 母亲代述) written inside a stretch."""
        lo, hi = bisect_left(self.cue_starts, nstart), bisect_left(self.cue_starts, nend)
        return any(c.kind == "family" and c.end <= nend for c in self.cues[lo:hi])

    def _in_scope(self, cue: _Cue, e: Entity) -> bool:
        """A pre negation reaches this finding: only a short stretch, or a list of findings, between."""
        text, ents, starts = self.text, self.findings_ents, self.ent_starts
        pos, first = cue.end, True
        between = ents[bisect_left(starts, cue.end) : bisect_left(starts, e.nstart)]
        for x in [*between, e]:
            if x.nend <= pos and x is not e:
                continue
            gap = text[pos : x.nstart] if x.nstart > pos else ""
            if first:
                ok = (len(gap) <= 6 or ("、" in gap and len(gap) <= 12)) and not _SCOPE_BREAK.search(gap)
            else:
                ok = bool(_LIST_GAP.match(gap)) or ("、" in gap and len(gap) <= 8 and not _SCOPE_BREAK.search(gap)) \
                    or _site_gap(gap)
            if not ok:
                return False
            pos, first = max(pos, x.nend), False
        return True

    def _question(self, start: int, ce: int) -> bool:
        """The clause ending at ``ce`` is a question (？ or 吗/么/呢 as its last word)."""
        text = self.text
        if ce < len(text) and text[ce] in "？?":
            return True
        return bool(_QUESTION_TAIL.search(text, max(0, ce - 3), ce) or _WH.search(text, start, ce))

    def judge(self, e: Entity) -> Finding:
        text, bounds, bound_ends, cues = self.text, self.bounds, self.bound_ends, self.cues
        bi = bisect_right(bounds, e.nstart - 1) - 1
        cs = bound_ends[bounds[bi]] if bi >= 0 else 0
        ci = bisect_left(bounds, e.nend)
        ce = bounds[ci] if ci < len(bounds) else len(text)
        f = Finding(e)
        best_pre: _Cue | None = None
        inner: _Cue | None = None
        condition: _Cue | None = None
        lo = bisect_left(self.cue_starts, cs)
        hi = bisect_right(self.cue_starts, ce)  # a closing ？ sits on the boundary itself
        for c in cues[lo:hi]:
            if c.kind == "neg_inner":
                if e.nstart <= c.start and c.end <= e.nend:
                    inner = c
            elif c.end <= e.nstart or (c.kind == "neg_pre" and c.start < e.nstart < c.end < e.nend):
                # (a cue may run into a stretch someone marked: 也【不胀】)
                if c.kind in ("neg_pre", "unc_pre") or (c.kind == "neg_prefix" and c.end == e.nstart):
                    if best_pre is None or c.start >= best_pre.start:
                        best_pre = c
                    if c.text in _CONDITIONAL:
                        condition = c
                elif c.kind == "family":
                    f.owner = "family"
                elif c.kind == "hist" and (c.text not in _ONSET_MARKERS or e.type in ("disease", "procedure")):
                    f.historical = True
        if best_pre is not None and best_pre.kind == "neg_pre" and (
                not self._in_scope(best_pre, e) or _BEFORE_IT.match(text, e.nend)):
            best_pre = None  # 没拉肚子之前发烧了: before the diarrhoea came, not no diarrhoea
        if best_pre is not None and best_pre.kind == "neg_pre" and (
                (_COPULA.match(text, best_pre.end) and _MODIFIER_OF.match(text, e.nend))
                or (e.type == "disease" and _NEGATED_ACTION.match(text, best_pre.end, e.nstart))):
            # 不是膝关节痛的合适止痛药 / 不符合“急性胃肠炎”的诊断: the copula denies the noun the finding
            # qualifies; 未抗凝房颤 / 未规律治疗高血压: the action is what is missing, not the disease
            best_pre = None
        caused = _CAUSED.search(text, best_pre.end, e.nstart) if best_pre is not None else None
        if best_pre is not None and best_pre.kind == "unc_pre" and caused and caused.start() > best_pre.end:
            best_pre = None  # 是不是消化不好引起的腹泻: the cause is asked, the diarrhoea is there (怕引起肺炎: no cause named, the worry is the pneumonia)
        ents, starts = self.findings_ents, self.ent_starts
        clause_ents = ents[bisect_left(starts, e.nstart) : bisect_left(starts, ce)]
        post = _post_cue(text, e, clause_ents, cues[lo:hi], ce)
        if post is not None and post.text in _CLAUSE_POST and e.type not in _QUESTION_HEDGED:
            post = None  # a question mark alone does not hedge a symptom the patient reports
        if post is None and best_pre is None and e.type in _QUESTION_HEDGED and self._question(e.nend, ce):
            post = _Cue(ce, ce, "吗", "unc_post")
        chosen = inner or post or best_pre
        if chosen is not None:
            f.polarity = "absent" if chosen.kind.startswith("neg") else "uncertain"
            f.cue = chosen.text
        # an uncertainty cue anywhere around wins over a bare 无 (不除外 / 待排 / ？)
        if f.polarity == "absent":
            unc = [c for c in (best_pre, post, condition) if c is not None and c.kind.startswith("unc")]
            if unc:
                f.polarity, f.cue = "uncertain", unc[0].text
        if _HIST_RUN.match(text, e.nend):
            f.historical = True
        if f.polarity == "present" and (_RESOLVED.match(text, e.nend)
                                        or _NO_MORE.search(text, max(cs, e.nstart - 7), e.nstart)):
            f.historical = True  # 发烧好了 / 未再出血: had it, resolved
        k = bisect_right(self.section_starts, e.nstart) - 1
        if k >= 0 and e.nstart < self.sections[k][1]:
            name = self.sections[k][2]
            if name == "家族史":
                f.owner = "family"
            elif name in ("既往史", "手术史"):
                f.historical = True
        if f.owner == "patient" and self._family_after(e, ce):
            f.owner = "family"
        return f

    def _family_after(self, e: Entity, ce: int) -> bool:
        """The finding is an item of a list that 家族史 closes (see _FAMILY_TAIL)."""
        text, ents = self.text, self.findings_ents
        pos, i = e.nend, bisect_left(self.ent_starts, e.nend)
        while True:
            if _FAMILY_TAIL.match(text, pos):
                return True
            while i < len(ents) and ents[i].nstart < pos:
                i += 1  # a stretch nested in one already passed
            if i >= len(ents) or ents[i].nstart >= ce or not _FAMILY_LIST_GAP.fullmatch(text, pos, ents[i].nstart):
                return False
            pos, i = ents[i].nend, i + 1


def findings_from(norm: Normalized, entities: list[Entity]) -> list[Finding]:
    ctx = FindingContext(norm, entities)
    return [ctx.judge(e) for e in ctx.findings_ents]


def _post_cue(text: str, e: Entity, ents: list[Entity], cues: list[_Cue], ce: int) -> _Cue | None:
    """A post cue right after this finding, or after the run of findings it belongs to; a
    trailing negation (没有 closing the clause) counts as one."""
    for c in cues:
        if c.start < e.nend or c.kind not in ("neg_post", "unc_post", "neg_end"):
            continue
        if c.kind == "neg_end" and not _END_TAIL.match(text[c.end : ce]):
            continue
        if c.text in _CLAUSE_POST:
            return c
        gap_start = e.nend
        # walk over later findings joined by 、/和/及 up to the cue
        for other in ents:
            if other.nstart >= gap_start and other.nend <= c.start:
                between = text[gap_start : other.nstart]
                if _POST_GAP.match(between) or _HIST_SUFFIX.fullmatch(between.strip("、")):
                    gap_start = other.nend
        between = text[gap_start : c.start]
        if _POST_GAP.match(between) or _HIST_SUFFIX.fullmatch(between):
            return c
        if c.kind != "neg_end":
            return None
    return None


def _site_gap(gap: str) -> bool:
    """A list item with its site between the joiner and the finding (否认近期感冒及头部外伤, 无发热及双下肢水肿):
    the site belongs to the item, so the negation still reaches it."""
    m = _SITE_GAP.fullmatch(gap)
    return bool(m) and get_lexicon().type_of(m.group(1)) == "body_part"
