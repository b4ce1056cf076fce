"""A narrow adapter between the patient simulator and the text layer (``medsim.text``).

The simulator needs four things from Chinese text: normalisation, tokens, lay→canonical
synonyms, and findings with polarity (present / absent / uncertain, patient or family).
The text layer provides normalisation, tokens (its medical dictionary and protected spans:
doses, vitals and lab values stay whole) and findings with their polarity; this module adds
only the simulator's own lay vocabulary (``vocab``) on top: where a lay term the layer does not
list sits in a text, the layer's context judges it (there is no second negation pass here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache

import medsim.text
from medsim.sim import vocab
from medsim.text.entities import local_warmth_at, without_inner_side
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
    sided = without_inner_side(text)
    if sided != text:  # 口角向右歪斜 names 口角歪斜 (the side is where, not what)
        known = {t for t, _, _ in out}
        out += [(t, 0, len(text)) for t, _, _ in find_terms(sided) if t not in known]
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

def findings(text: str) -> list[Finding]:
    """Terms in ``text`` with polarity and owner, judged by the text layer (``medsim.text.analyze``).

    The layer finds the terms its lexicon knows; a term only the simulator's lay vocabulary
    knows (嗓子眼疼, 心口疼) is located here and judged by the same layer context, so there is
    one negation logic for the whole project.
    """
    return list(_findings_cached(text))


@lru_cache(maxsize=4096)
def _findings_cached(text: str) -> tuple[Finding, ...]:
    # record clauses are asked about again and again within and across episodes
    analysis = medsim.text.analyze(text)
    table = lay_to_canonical()
    out: list[Finding] = []
    taken: list[tuple[int, int]] = []
    for f in analysis.findings:
        if f.type not in ("symptom", "disease"):
            continue  # body parts and procedures are findings to the layer, not symptoms here
        out.append(Finding(table.get(f.norm, f.norm), f.polarity, f.owner == "family", f.start, f.end))
        taken.append((f.entity.nstart, f.entity.nend))
    known = {f.term for f in out}
    norm = analysis.normalized
    for canon, s, e in find_terms(norm.text):
        if canon in known or canon not in finding_terms() or any(s < te and ts < e for ts, te in taken):
            continue
        if canon == "发热" and local_warmth_at(norm.text, s):
            continue  # 局部红肿发热 is a warm spot, not a fever (the text layer's reading)
        judged = analysis.context.at(s, e)
        start, end = norm.to_orig(s, e)
        out.append(Finding(canon, judged.polarity, judged.owner == "family", start, end))
    # a side written inside a term (口角向右歪斜, 舌向左偏) is where, not what: the term is read with
    # the side taken out, judged by the same layer
    sided = without_inner_side(text)
    if sided != text:
        known = {f.term for f in out}
        out += [replace(f, start=0, end=len(text)) for f in _findings_cached(sided) if f.term not in known]
    return tuple(sorted(out, key=lambda f: f.start))


@cache
def finding_terms() -> frozenset[str]:
    """Canonical terms that are findings (symptoms, diseases): not body parts, drugs or exams."""
    table = lay_to_canonical()
    names = set(vocab.SYMPTOMS) | set(vocab.CONDITIONS)
    for lexicon in ("symptoms.txt", "diseases.txt"):
        names |= {table.get(canon, canon) for canon, _ in lexicon_groups(lexicon)}
    return frozenset(names)


_CLAUSE_SPLIT = re.compile(r"[，。；;！!？?\n]|,(?!\d)")


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
