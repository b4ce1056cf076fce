"""What the checker asks of ``medsim.text``, in the checker's terms.

Normalization with offsets, findings with polarity and owner, unitless lab values (pH, INR, 比重),
canonical terms and drug names, and the clause breaks the claim patterns split on. One analysis per
text, cached: findings and lab values are read off the same ``analyze`` call.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from medsim.text import Analysis, analyze, get_lexicon
from medsim.text import normalize as _normalize
from medsim.text.negation import FindingContext

# Stricter than the text layer's clause end: the claim patterns also stop at ： and brackets
# (血常规：WBC…, （母亲代述）), where a key or a context should not run across.
CLAUSE_BREAK = re.compile(r"[，,。；;！!？?\n：:（）()]|但|然而|可是|而是")


@dataclass(frozen=True)
class FindingMention:
    norm: str  # canonical term
    text: str  # surface text
    start: int
    end: int
    polarity: str  # present | absent | uncertain
    owner: str  # patient | family
    kind: str = "symptom"  # symptom | disease
    side: str = ""  # 左 | 右 | 双: the side the text layer attached (左下肢水肿), else empty


SpanMap = Callable[[int, int], tuple[int, int]]


def normalize(text: str) -> tuple[str, SpanMap]:
    """Normalized text and a function mapping a normalized span back to the original text."""
    got = _normalize(text)
    return got.text, got.to_orig


@lru_cache(maxsize=256)
def _analysis(text: str) -> Analysis:
    return analyze(text)


@lru_cache(maxsize=4096)
def canonical(term: str) -> str:
    term = term.strip()
    return get_lexicon().canonical(term) or term


@lru_cache(maxsize=4096)
def aliases(term: str) -> tuple[str, ...]:
    """Every written form of a term's lexicon entry (generic, brand and other names)."""
    return tuple(get_lexicon().aliases(term))


@lru_cache(maxsize=4096)
def same_medicine(a: str, b: str) -> bool:
    """Whether two drug mentions name one medicine at different grain (钙片 and 碳酸钙D3片)."""
    from medsim.text.match import same_medicine as same

    return same(a, b)


def is_drug(term: str) -> bool:
    """The lexicon knows ``term`` as a drug (brand names included)."""
    return get_lexicon().type_of(term) == "drug"


@lru_cache(maxsize=256)
def _breaks(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends of the clause breaks in text, computed once per text (bisected per query)."""
    found = [(m.start(), m.end()) for m in CLAUSE_BREAK.finditer(text)]
    return [a for a, _ in found], [b for _, b in found]


def clause_start(text: str, pos: int) -> int:
    starts, ends = _breaks(text)
    # the last break that ends at or before pos
    i = bisect_right(ends, pos) - 1
    while i >= 0 and starts[i] >= pos:
        i -= 1
    return ends[i] if i >= 0 else 0


def clause_end(text: str, pos: int) -> int:
    starts, _ = _breaks(text)
    i = bisect_left(starts, pos)
    return starts[i] if i < len(starts) else len(text)


def context(text: str) -> FindingContext:
    """The text layer's cues and clause bounds of ``text``; a record's index keeps its own, so
    judging against it never analyzes the record again."""
    # the checker's texts are normalized already and normalizing is idempotent, so offsets agree
    return _analysis(text).context


def polarity_at(ctx: FindingContext, start: int, end: int) -> tuple[str, str]:
    """(polarity, owner) of a stretch the extractor did not take as a finding (a fuzzy match in the
    record, a culture result), by the text layer's cues around it."""
    f = ctx.at(start, end)
    return f.polarity, f.owner


def family_before(text: str, start: int, pos: int) -> bool:
    """A family word between ``start`` and ``pos`` (其父60岁 is not the patient's age)."""
    return context(text).has_family_marker(start, pos)


_FINDING_TYPES = ("symptom", "disease")
_SIDES = {"左": "左", "右": "右", "双侧": "双"}


def findings(text: str) -> list[FindingMention]:
    """Symptom and disease mentions with the text layer's polarity and owner."""
    out = [
        FindingMention(f.norm, f.text, f.start, f.end, f.polarity, f.owner, f.type,
                       _SIDES.get(f.entity.laterality or "", ""))
        for f in _analysis(text).findings
        if f.type in _FINDING_TYPES
    ]
    return sorted(out, key=lambda f: f.start)


def unitless_labs(text: str) -> list[tuple[str, float, int, int]]:
    """(label as written, value, start, end) of lab values printed without a unit (pH 7.32, INR 1.8,
    比重1.020): the checker's own value pattern needs a unit, the text layer reads these by label."""
    out = []
    for e in _analysis(text).entities:
        if e.type == "lab_value" and e.unit is None and e.value is not None:
            out.append((e.text, e.value, e.start, e.end))
    return out


def drugs(text: str) -> list[tuple[str, str, int, int]]:
    """(canonical name, surface text, start, end) of the drugs the text layer finds."""
    return [(e.norm or e.text, e.text, e.nstart, e.nend) for e in _analysis(text).entities if e.type == "drug"]


def exams(text: str) -> list[tuple[str, str, int, int]]:
    """(canonical name, surface text, start, end) of the examinations and tests the text names."""
    return [(e.norm or e.text, e.text, e.nstart, e.nend) for e in _analysis(text).entities if e.type == "exam"]


def body_parts(text: str) -> list[tuple[str, str, int, int]]:
    """(canonical name, surface text, start, end) of the body parts the text names (肝右叶, 脾, 乙状结肠)."""
    return [(e.norm or e.text, e.text, e.nstart, e.nend) for e in _analysis(text).entities if e.type == "body_part"]


@lru_cache(maxsize=1)
def prohibition_pattern() -> re.Pattern[str]:
    """The text layer's prohibitions (不要, 不能, 别, 禁止 …): what follows them in a clause is advice."""
    from medsim.text.match import prohibition_cues

    # the words that forbid, not the plain negations the list also holds (未, 无, 没有, 否认: 未服用X is a claim)
    cues = [c for c in prohibition_cues() if len(c) >= 2 and c not in ("没有", "否认", "停止", "停用", "并非")]
    return re.compile("|".join(re.escape(c) for c in cues) or r"(?!)")
