"""A narrow adapter between the patient simulator and the text layer (``medsim.text``).

The simulator needs four things from Chinese text: normalisation, tokens, lay→canonical
synonyms, and findings with polarity (present / absent / uncertain, patient or family).
The text layer provides normalisation, tokens (its medical dictionary and protected spans:
doses, vitals and lab values stay whole) and findings; this module adds the simulator's own
lay vocabulary (``vocab``) on top, and a built-in negation scope that gives the same answer
on every machine for matching facts against what was said (``simple_findings``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

import medsim.text
from medsim.sim import vocab
from medsim.text.lexicon import TYPED_FILES


@dataclass(frozen=True)
class Finding:
    term: str  # canonical term
    polarity: str  # "present" | "absent" | "uncertain"
    family: bool  # belongs to family history
    start: int
    end: int


# ------------------------------------------------------------------ normalisation

def normalize(text: str) -> str:
    """The text layer's normalisation (full-width → half-width, units unified), lower-case ASCII;
    Chinese punctuation kept (it splits clauses)."""
    return medsim.text.normalize(text).text.lower()


def tokens(text: str) -> list[str]:
    """Word tokens from the text layer's segmenter (medical dictionary, protected spans whole)."""
    return medsim.text.words(text)


# ----------------------------------------------------------------------- synonyms

@cache
def lay_to_canonical() -> dict[str, str]:
    """Every known surface form (lay or clinical) → canonical symptom / condition term."""
    table: dict[str, str] = {}
    for canon, (_lay, forms) in vocab.SYMPTOMS.items():
        table[canon] = canon
        for form in forms:
            table.setdefault(form, canon)
    for canon, forms in vocab.CONDITIONS.items():
        table.setdefault(canon, canon)
        for form in forms:
            table.setdefault(form, canon)
    for path_name in ("lay_synonyms.txt", "symptoms.txt"):
        for canon, aliases in lexicon_groups(path_name):
            # join the group to whichever of its names is already known, so 大汗淋漓 and
            # 大汗 land on one canonical term even when two lists chose different heads
            base = next((table[n] for n in (canon, *aliases) if n in table), canon)
            for alias in (canon, *aliases):
                if len(alias) >= 2:
                    table.setdefault(alias, base)
    return table


def lexicon_groups(name: str) -> list[tuple[str, list[str]]]:
    """A lexicon file's lines as (head, other names), in file order, from the text layer's
    loaded lexicon (one parser for every reader): ``lay_synonyms.txt`` gives (standard, [lay])."""
    lexicon = medsim.text.get_lexicon()
    if name == "lay_synonyms.txt":
        return [(standard, [lay]) for standard, lay in lexicon.lay_pairs]
    return lexicon.groups.get(TYPED_FILES[name.removesuffix(".txt")], [])


@cache
def _surface_pattern() -> re.Pattern[str]:
    forms = sorted(lay_to_canonical(), key=len, reverse=True)
    return re.compile("|".join(re.escape(f) for f in forms if f))


def find_terms(text: str) -> list[tuple[str, int, int]]:
    """Longest non-overlapping known terms in ``text``: (canonical, start, end)."""
    table = lay_to_canonical()
    out: list[tuple[str, int, int]] = []
    for m in _surface_pattern().finditer(text):
        form = m.group(0)
        split = _split_compound(form, table)
        if split:  # 恶心呕吐 is two findings, each with its own answer
            cut = m.start() + len(split[0])
            out += [(table[split[0]], m.start(), cut), (table[split[1]], cut, m.end())]
        else:
            out.append((table[form], m.start(), m.end()))
    return out


def _split_compound(form: str, table: dict[str, str]) -> tuple[str, str] | None:
    if table[form] in vocab.SYMPTOMS or len(form) < 4:
        return None
    for i in range(2, len(form) - 1):
        left, right = form[:i], form[i:]
        if left in table and right in table and table[left] in vocab.SYMPTOMS and table[right] in vocab.SYMPTOMS:
            return left, right
    return None


# ----------------------------------------------------------------------- findings

_CLAUSE_SPLIT = re.compile(r"[，。；;！!？?\n]|,(?!\d)")
_NEG = ("否认", "无", "未", "没有", "没", "不伴", "未见", "未出现", "未诉")
_PSEUDO = ("无明显诱因", "无诱因", "无明显原因", "未予重视", "未予诊治", "未诊治", "不能缓解", "未缓解", "不缓解",
           "未见好转", "无好转", "无缓解", "不能自行缓解", "无明显变化", "无变化")
_UNCERTAIN = ("可疑", "疑似", "不除外", "待排", "似有")
_CONTRAST = ("但", "但是", "然而", "却")
_FAMILY = ("父", "母", "兄", "姐", "弟", "妹", "家族", "家人", "家里", "子女", "儿子", "女儿", "祖")


def findings(text: str) -> list[Finding]:
    """Terms in ``text`` with polarity, through the text layer's ``analyze``."""
    return list(_findings_cached(text))


@lru_cache(maxsize=4096)
def _findings_cached(text: str) -> tuple[Finding, ...]:
    # record clauses are asked about again and again within and across episodes
    return tuple(_findings(text))


def _findings(text: str) -> list[Finding]:
    via_layer = _layer_findings(text)
    # the layer's lexicon and the simulator's lay vocabulary overlap but differ: a term
    # only the simulator knows still gets the built-in polarity
    known = {f.term for f in via_layer}
    return via_layer + [f for f in _own_findings(text) if f.term not in known]


@cache
def finding_terms() -> frozenset[str]:
    """Canonical terms that are findings (symptoms, diseases): not body parts, drugs or exams."""
    table = lay_to_canonical()
    names = set(vocab.SYMPTOMS) | set(vocab.CONDITIONS)
    for lexicon in ("symptoms.txt", "diseases.txt"):
        names |= {table.get(canon, canon) for canon, _ in lexicon_groups(lexicon)}
    return frozenset(names)


def simple_findings(text: str) -> list[Finding]:
    """Findings with the built-in negation scope only (no text layer): the same answer on
    every machine, for matching facts against what was said."""
    return _own_findings(text)


def _own_findings(text: str) -> list[Finding]:
    out: list[Finding] = []
    pos = 0
    for clause in _CLAUSE_SPLIT.split(text):
        start = text.find(clause, pos) if clause else pos
        pos = start + len(clause)
        if not clause:
            continue
        masked = clause
        for pseudo in _PSEUDO:
            masked = masked.replace(pseudo, "＿" * len(pseudo))
        family = any(f in clause for f in _FAMILY) and ("家族" in clause or "父" in clause or "母" in clause)
        for canon, s, e in find_terms(clause):
            if canon not in finding_terms():
                continue
            before = masked[:s]
            # scope: a contrast word after the cue ends it
            cut = max((before.rfind(c) for c in _CONTRAST), default=-1)
            scope = before[cut + 1:] if cut >= 0 else before
            polarity = "present"
            if any(cue in scope for cue in _NEG):
                polarity = "absent"
            elif any(cue in scope for cue in _UNCERTAIN):
                polarity = "uncertain"
            out.append(Finding(canon, polarity, family, start + s, start + e))
    return out


def _layer_findings(text: str) -> list[Finding]:
    table = lay_to_canonical()
    out = []
    for f in medsim.text.analyze(text).findings:
        if f.type not in ("symptom", "disease"):
            continue  # body parts and procedures are findings to the layer, not symptoms here
        term = table.get(f.norm, f.norm)
        out.append(Finding(term, f.polarity, f.owner == "family", f.start, f.end))
    return out


def clauses(text: str) -> list[str]:
    """Record text split into clauses at Chinese punctuation (numbers' decimal commas kept)."""
    return [c.strip() for c in _CLAUSE_SPLIT.split(text or "") if c and c.strip()]


# ----------------------------------------------------------------------- sentences

_SENTENCE_END = re.compile(r"[。；;！!？?\n]")


def sentences(text: str) -> list[list[str]]:
    """Record text as sentences (split at 。；), each a list of its clauses: a clause's
    details (最高39.2℃, 呈持续性) follow it inside its sentence, never across one."""
    return [cs for part in _SENTENCE_END.split(text or "") if (cs := clauses(part))]


# --------------------------------------------------------------------- similarity

_UNIT = re.compile(r"\d+(?:\.\d+)?|[a-z]+|[\u4e00-\u9fff℃%]")


def bigrams(text: str) -> set[str]:
    """Character bigrams of ``text`` (a number is one unit: 39.2℃ → 39.2|℃), never across
    punctuation. Chinese phrases reworded a little (视力无下降 / 视力下降) still share most."""
    out: set[str] = set()
    for piece in re.split(r"[^\w.℃%]+|_", normalize(text)):
        units = _UNIT.findall(piece)
        out |= {units[i] + units[i + 1] for i in range(len(units) - 1)}
        if len(units) == 1 and len(units[0]) >= 2:
            out.add(units[0])
    return out
