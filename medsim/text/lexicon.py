"""Typed clinical lexicons, lay synonyms and cue lists, loaded once from ``lexicons/``.

Every file is plain text with a ``# source:`` / ``# licence:`` header. Typed lists are
``canonical|alias|alias``; lay synonyms are ``lay<TAB>standard``; cue lists are one cue a
line (with ``<TAB>pre|post|prefix|end`` where the position matters); ``broader_terms.txt`` links a
subtype to its parent (``narrower<TAB>broader``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from medsim.paths import lexicons_dir

# file stem → entity type; the order is the priority when one surface has several types
TYPED_FILES: dict[str, str] = {
    "diseases": "disease",
    "symptoms": "symptom",
    "exams": "exam",
    "drugs": "drug",
    "procedures": "procedure",
    "departments": "department",
    "body_parts": "body_part",
}
ENTITY_TYPES = (
    "disease", "symptom", "drug", "exam", "procedure", "body_part", "department",
    "lab_value", "vital", "dose", "duration", "frequency", "demographic",
)

# Short Latin aliases (N, K, P, TB, PT…) are lab labels, never free-text terms: "N 78%" is a
# neutrophil share but a bare "P" or "TB" in prose is not a finding. These few are safe.
_FREE_SHORT_LATIN = {"CT", "MR", "DR", "B超"}


def _is_label_only(term: str) -> bool:
    return term.isascii() and len(term) <= 2 and term.upper() not in _FREE_SHORT_LATIN


def _data_lines(path: Path) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def _key(term: str) -> str:
    """Lookup key: Latin letters compared case-insensitively (cea == CEA, 头颅mri == 头颅MRI)."""
    return term.upper()


@dataclass
class Lexicon:
    """All lexicons in memory. Use :func:`get_lexicon` to get the shared instance."""

    # surface key → (canonical, types)
    entries: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    by_type: dict[str, set[str]] = field(default_factory=dict)
    label_only: set[str] = field(default_factory=set)
    lay_synonyms: dict[str, str] = field(default_factory=dict)
    standard_to_lay: dict[str, list[str]] = field(default_factory=dict)
    negation_pre: list[str] = field(default_factory=list)
    negation_post: list[str] = field(default_factory=list)
    negation_prefix: list[str] = field(default_factory=list)  # 非: only the term written onto it
    negation_end: list[str] = field(default_factory=list)  # 没有 closing its clause: 喝酒抽烟都没有
    uncertainty_pre: list[str] = field(default_factory=list)
    uncertainty_post: list[str] = field(default_factory=list)
    pseudo_negations: list[str] = field(default_factory=list)
    family_markers: list[str] = field(default_factory=list)
    historical_markers: list[str] = field(default_factory=list)
    narrator_markers: list[str] = field(default_factory=list)
    broader: dict[str, set[str]] = field(default_factory=dict)  # canonical -> its direct parents
    # canonical procedure -> the conditions it is done for alone (心脏支架 → 冠心病): procedure_conditions.txt
    procedure_conditions: dict[str, set[str]] = field(default_factory=dict)
    # one-character symptom verbs (烧 → 发热): read alone or right after a negation only
    symptom_verbs: dict[str, str] = field(default_factory=dict)
    # each typed file's lines as written, (head, other names), in file order: for callers that
    # need a file's own groupings (the patient's lay speech), not the merged lookup tables
    groups: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)
    lay_pairs: list[tuple[str, str]] = field(default_factory=list)  # (standard, lay), file order
    # keys that came from chineseblue_terms.tsv (names marked in public NER train data), not
    # from medsim's own files: they name things, they are not the patient's speech
    external: set[str] = field(default_factory=set)
    max_term_len: int = 1
    # first two characters of every key (lay phrases too): a cheap filter before lookups
    heads: set[str] = field(default_factory=set)

    # -- queries ---------------------------------------------------------------
    def lookup(self, surface: str) -> tuple[str, tuple[str, ...]] | None:
        """(canonical, types) for a typed-lexicon surface form, or None."""
        return self.entries.get(_key(surface))

    def own_type_of(self, term: str) -> str | None:
        """Type from medsim's own lexicon files only (not the external name list)."""
        if _key(term) in self.external:
            return None
        return self.type_of(term)

    def canonical(self, term: str) -> str | None:
        """Standard term for a synonym, brand name, abbreviation or lay phrase."""
        hit = self.entries.get(_key(term))
        if hit:
            return hit[0]
        std = self.lay_synonyms.get(term)
        if std is not None:
            hit = self.entries.get(_key(std))
            return hit[0] if hit else std
        return None

    def type_of(self, term: str) -> str | None:
        hit = self.entries.get(_key(term))
        if hit:
            return hit[1][0]
        std = self.lay_synonyms.get(term)
        if std is not None:
            hit = self.entries.get(_key(std))
            return hit[1][0] if hit else None
        return None

    def terms(self, type_: str) -> set[str]:
        """Canonical terms of one type (disease, symptom, drug, exam, …)."""
        return set(self.by_type.get(type_, set()))

    def surfaces(self) -> list[str]:
        """Every surface form of every typed term plus the lay phrases (for the segmenter)."""
        out = [canon_surface for canon_surface in self._surface_text.values()]
        out.extend(self.lay_synonyms)
        return out

    def aliases(self, term: str) -> list[str]:
        """Every written form of a term's canonical entry (synonyms, abbreviations, brands)."""
        canon = self.canonical(term)
        if canon is None:
            return []
        return list(self._alias_index().get(canon, ()))

    def _alias_index(self) -> dict[str, list[str]]:
        """canonical → its surface forms, in entry order; built on first use and again if entries grew
        (one pass instead of a scan of every entry per call: the concept pattern asks for thousands)."""
        built = getattr(self, "_aliases", None)
        if built is None or built[0] != len(self.entries):
            index: dict[str, list[str]] = {}
            for k, (c, _) in self.entries.items():
                index.setdefault(c, []).append(self._surface_text[k])
            built = (len(self.entries), index)
            self._aliases = built
        return built[1]

    def lay_terms_for(self, standard: str) -> list[str]:
        """Lay phrases a patient might use for a standard term (empty if none known)."""
        canon = self.canonical(standard) or standard
        return list(self.standard_to_lay.get(canon, []))

    def is_a(self, narrower: str, broader: str) -> bool:
        """``narrower`` is a kind of ``broader`` (transitively): 腹股沟斜疝 is a 腹股沟疝 and a 腹外疝."""
        target = self.canonical(broader) or broader
        seen: set[str] = set()
        todo = [self.canonical(narrower) or narrower]
        while todo:
            for parent in self.broader.get(todo.pop(), ()):
                if parent == target:
                    return True
                if parent not in seen:
                    seen.add(parent)
                    todo.append(parent)
        return False

    def conditions_of(self, procedure: str) -> set[str]:
        """The conditions a procedure tells (放过心脏支架 → 冠心病): it is done for nothing else."""
        return set(self.procedure_conditions.get(self.canonical(procedure) or procedure, ()))

    def related(self, a: str, b: str) -> bool:
        """Same term, or one a kind of the other (疝气 → 腹股沟疝 relates to 嵌顿性腹股沟斜疝)."""
        ca, cb = self.canonical(a) or a, self.canonical(b) or b
        return ca == cb or self.is_a(ca, cb) or self.is_a(cb, ca)

    _surface_text: dict[str, str] = field(default_factory=dict, repr=False)


def _load(folder: Path) -> Lexicon:
    lex = Lexicon()
    for stem, type_ in TYPED_FILES.items():
        path = folder / f"{stem}.txt"
        if not path.exists():
            continue
        canon_set = lex.by_type.setdefault(type_, set())
        file_groups = lex.groups.setdefault(type_, [])
        for line in _data_lines(path):
            names = [n.strip() for n in line.split("|") if n.strip()]
            canon = names[0]
            file_groups.append((canon, names[1:]))
            canon_set.add(canon)
            for name in names:
                k = _key(name)
                prev = lex.entries.get(k)
                if prev is None:
                    lex.entries[k] = (canon, (type_,))
                    lex._surface_text[k] = name
                elif type_ not in prev[1]:
                    # keep the first canonical; remember the extra type for context rules
                    lex.entries[k] = (prev[0], prev[1] + (type_,))
                lex.heads.add(k[:2])
                if _is_label_only(name):
                    lex.label_only.add(k)
                lex.max_term_len = max(lex.max_term_len, len(name))
    lay = folder / "lay_synonyms.txt"
    _load_lay(lex, lay)
    _load_external(lex, folder / "chineseblue_terms.tsv")
    _load_cues(lex, folder)
    return lex


# a head term written after one of these names its opposite (非小细胞肺癌, 不稳定型心绞痛); 无 and 未
# do not (无痛胃镜 is a 胃镜, 无创通气 a 通气)
_NEGATING_PREFIX = frozenset("非不")
# heads whose prefix is the whole diagnosis (病毒感染, 支原体感染, 呼吸道感染 are not one thing):
# a longer external name ending in one keeps its own name
_OPEN_HEADS = {"感染"}


def _load_external(lex: Lexicon, path: Path) -> None:
    """Names marked in public NER train data, typed; medsim's own entries win on a clash."""
    if not path.exists():
        return
    for line in _data_lines(path):
        name, _, type_ = line.partition("\t")
        name, type_ = name.strip(), type_.strip()
        k = _key(name)
        if not name or type_ not in ENTITY_TYPES or k in lex.entries or lex.lay_synonyms.get(name):
            continue
        # a longer name whose head is a medsim term (急性戊型病毒性肝炎 → 病毒性肝炎) keeps that
        # term as its canonical form, so what links to it (synonyms, is-a, the fact checker) still does
        canon = name
        for i in range(1, len(k) - 1):
            own = lex.entries.get(k[i:])
            if own is not None and k[i - 1] in _NEGATING_PREFIX:
                break  # 非手术治疗 is not a 手术, 慢性非萎缩性胃炎 not a 萎缩性胃炎: the name stands alone
            if own is not None and _key(own[0]) not in lex.external and own[0] not in _OPEN_HEADS:
                canon, type_ = own[0], own[1][0]
                break
        lex.entries[k] = (canon, (type_,))
        lex._surface_text[k] = name
        lex.by_type.setdefault(type_, set()).add(canon)
        lex.external.add(k)
        lex.heads.add(k[:2])
        lex.max_term_len = max(lex.max_term_len, len(name))


def _load_lay(lex: Lexicon, lay: Path) -> None:
    if lay.exists():
        for line in _data_lines(lay):
            parts = line.split("\t")
            if len(parts) != 2:
                continue
            lay_term, std = parts[0].strip(), parts[1].strip()
            lex.lay_synonyms[lay_term] = std
            if lay_term and std:
                lex.lay_pairs.append((std.split("|")[0].split()[0], lay_term))
            lex.heads.add(lay_term[:2])
            lex.max_term_len = max(lex.max_term_len, len(lay_term))
            canon = lex.canonical(std) or std
            lex.standard_to_lay.setdefault(canon, []).append(lay_term)


def _load_cues(lex: Lexicon, folder: Path) -> None:
    for stem, kind in (("negation_cues", "negation"), ("uncertainty_cues", "uncertainty")):
        path = folder / f"{stem}.txt"
        if path.exists():
            for line in _data_lines(path):
                cue, _, pos = line.partition("\t")
                pos = pos.strip()
                if pos not in ("post", "prefix", "end") or (pos in ("prefix", "end") and kind != "negation"):
                    pos = "pre"
                getattr(lex, f"{kind}_{pos}").append(cue.strip())
    for stem, attr in (
        ("pseudo_negations", "pseudo_negations"),
        ("family_markers", "family_markers"),
        ("historical_markers", "historical_markers"),
        ("narrator_markers", "narrator_markers"),
    ):
        path = folder / f"{stem}.txt"
        if path.exists():
            setattr(lex, attr, _data_lines(path))
    path = folder / "symptom_verbs.txt"
    if path.exists():
        for line in _data_lines(path):
            verb, _, std = line.partition("\t")
            if verb.strip() and std.strip():
                lex.symptom_verbs[verb.strip()] = lex.canonical(std.strip()) or std.strip()
    path = folder / "broader_terms.txt"
    if path.exists():
        for line in _data_lines(path):
            narrow, _, broad = line.partition("\t")
            if broad.strip():
                key = lex.canonical(narrow.strip()) or narrow.strip()
                lex.broader.setdefault(key, set()).add(lex.canonical(broad.strip()) or broad.strip())
    path = folder / "procedure_conditions.txt"
    if path.exists():
        for line in _data_lines(path):
            procedure, _, condition = (x.strip() for x in line.partition("\t"))
            if condition:
                key = lex.canonical(procedure) or procedure
                lex.procedure_conditions.setdefault(key, set()).add(lex.canonical(condition) or condition)


_lock = threading.Lock()


@cache
def _cached(folder: str) -> Lexicon:
    return _load(Path(folder))


def get_lexicon() -> Lexicon:
    """The shared lexicon (loaded on first use, then cached)."""
    with _lock:
        return _cached(str(lexicons_dir()))


def thuocl_words() -> list[str]:
    """THUOCL medical words (MIT) for the segmenter dictionary only: they carry no type."""
    path = lexicons_dir() / "thuocl_medical_words.txt"
    return _data_lines(path) if path.exists() else []
