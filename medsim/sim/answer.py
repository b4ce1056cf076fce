"""Tolerant parsing of a model's final answer, and the seeded display permutations.

Models wrap answers in prose, code fences and Chinese punctuation. Everything here is
forgiving and never raises on model output: a failure comes back as ``ParsedAnswer.error``.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from medsim.scenario.schema import AnswerSpec
from medsim.text.options import is_none_option, says_none_of_the_above


@dataclass
class ParsedAnswer:
    value: Any
    error: str | None = None
    # How a JSON answer was read when it was not valid JSON as written. The score reads it anyway
    # (a clinical answer is not wrong for a stray Chinese comma), but format adherence is the
    # user's to see, not ours to hide.
    note: str | None = None


def parse_answer(
    text: str | None,
    spec: AnswerSpec,
    *,
    option_letters: list[str] | None = None,
    n_steps: int | None = None,
    options: dict[str, str] | None = None,
) -> ParsedAnswer:
    """Parse ``text`` by ``spec.format``.

    json: value is a dict with every declared field (None where missing); error names the
    missing fields, and value is None only when no field at all could be read.
    choice: a list of display letters (``options``, display letter → text as shown, lets a
    conclusion that names an option's text rather than its letter be read).
    steps: a list of display numbers (1-based). text: str.
    """
    try:
        if text is None or not text.strip():
            return ParsedAnswer(None, "empty answer")
        if spec.format == "json":
            return _parse_json_answer(text, spec.fields)
        if spec.format == "choice":
            letters = extract_choices(text, option_letters, options)
            return ParsedAnswer(letters, None) if letters else ParsedAnswer(None, "no option letter found")
        if spec.format == "steps":
            steps = extract_steps(text, n_steps)
            return ParsedAnswer(steps, None) if steps else ParsedAnswer(None, "no step numbers found")
        body = text_after_marker(text, spec.marker)
        return ParsedAnswer(body, None) if body else ParsedAnswer(None, "empty answer after marker")
    except Exception as exc:  # model output must never crash the loop
        return ParsedAnswer(None, f"unparseable answer ({type(exc).__name__}: {exc})")


def text_after_marker(text: str, marker: str | None) -> str:
    """The text after the last ``marker`` (e.g. 最终答案), else the whole text."""
    if marker and marker in text:
        text = text.rsplit(marker, 1)[1]
        text = text.lstrip(" \t:：】]」』*#")
    return text.strip()


# ------------------------------------------------------------------- permutations

def shuffle_steps(n: int, seed: int | None) -> list[int]:
    """Original step indices (0-based) in display order; identity when ``seed`` is None."""
    order = list(range(n))
    if seed is not None:
        random.Random(f"steps:{seed}").shuffle(order)
        if n > 1 and order == sorted(order):  # shown in the right order the task is no task
            order = order[1:] + order[:1]
    return order


def shuffle_options(letters: list[str], seed: int | None) -> dict[str, str]:
    """{display letter: original letter}; identity when ``seed`` is None."""
    letters = list(letters)
    originals = list(letters)
    if seed is not None:
        random.Random(f"options:{seed}").shuffle(originals)
    return dict(zip(letters, originals, strict=True))


# ------------------------------------------------------------------------- numbers

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}
_ROMAN_CHARS = {"Ⅰ": 1, "Ⅱ": 2, "Ⅲ": 3, "Ⅳ": 4, "Ⅴ": 5, "Ⅵ": 6, "Ⅶ": 7, "Ⅷ": 8, "Ⅸ": 9, "Ⅹ": 10,
                "ⅰ": 1, "ⅱ": 2, "ⅲ": 3, "ⅳ": 4, "ⅴ": 5}
_ASCII_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10}


def cn_number(s: str) -> int | None:
    """一 → 1, 十二 → 12, 二十 → 20 (up to 99, enough for levels and step numbers)."""
    if not s or any(ch not in _CN_DIGITS and ch != "十" for ch in s):
        return None
    if "十" not in s:
        return _CN_DIGITS[s] if len(s) == 1 else None
    tens, _, ones = s.partition("十")
    t = _CN_DIGITS.get(tens, None) if tens else 1
    o = _CN_DIGITS.get(ones, None) if ones else 0
    return None if t is None or o is None else t * 10 + o


# Level-like tokens: digits, Ⅱ, II, 二. ASCII Roman numerals only standing alone.
_INT_TOKEN = re.compile(
    r"(?P<d>\d+)|(?P<r>[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩⅰⅱⅲⅳⅴ])|(?<![A-Za-z])(?P<a>VIII|VII|VI|IV|IX|III|II|I|V|X)(?![A-Za-z])"
    r"|(?P<c>[一二两三四五六七八九十]{1,3})"
)


# the first number offered with another as a choice ("1或2", "2-3级", "3/4"): not one number
_CHOICE_AFTER = re.compile(r"\s*级?\s*(?:或者|或|还是|-|–|—|~|～|至|到|/)\s*(?:\d|[ⅠⅡⅢⅣⅤ]|[一二两三四五]|I|V)")


def coerce_int(value: Any) -> int | None:
    """2, 2.0, "2级", "Ⅱ级", "二级", "II", "level 2" → 2. The first number-like token wins, unless it
    is offered with another as a choice ("1或2", "2-3"): that is no one number, so None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, list) and value:
        return coerce_int(value[0])
    if not isinstance(value, str):
        return None
    text = unicodedata.normalize("NFKC", value) if not any(ch in _ROMAN_CHARS for ch in value) else value
    for m in _INT_TOKEN.finditer(text):
        if _CHOICE_AFTER.match(text, m.end()):
            return None
        if m.group("d"):
            return int(m.group("d"))
        if m.group("r"):
            return _ROMAN_CHARS[m.group("r")]
        if m.group("a"):
            return _ASCII_ROMAN[m.group("a")]
        n = cn_number(m.group("c"))
        if n is not None:
            return n
    return None


def coerce_float(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        m = re.search(r"-?\d+(?:\.\d+)?", unicodedata.normalize("NFKC", value))
        if m:
            return float(m.group())
        n = coerce_int(value)
        return float(n) if n is not None else None
    return None


_TRUE = ("是", "有", "阳性", "需要", "对", "true", "yes", "y", "1", "存在")
_FALSE = ("否", "无", "没有", "阴性", "不需要", "不是", "错", "false", "no", "n", "0", "不存在", "未")


def coerce_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return bool(value)
    if not isinstance(value, str):
        return None
    s = unicodedata.normalize("NFKC", value).strip().lower().rstrip("。.!！")
    # Negatives first: 不是 contains 是, 没有 contains 有.
    for word in _FALSE:
        if s == word or (len(word) > 1 and s.startswith(word)) or (word in "否无未" and s.startswith(word)):
            return False
    for word in _TRUE:
        if s == word or (len(word) > 1 and s.startswith(word)) or (word in "是有" and s.startswith(word)):
            return True
    return None


_LIST_SPLIT = re.compile(r"[、,，;；/\n]|\s+和\s*|和|及|以及|与")
_ITEM_PREFIX = re.compile(r"^\s*(?:\(?\d+[.、)）]|[（(]?[一二三四五六七八九十]+[、.)）]|[-*•·])\s*")


def coerce_list(value: Any) -> list[str]:
    """A JSON list, or "血常规、心电图" / "1. 血常规 2. 心电图" split into items."""
    if value is None:
        return []
    if isinstance(value, list | tuple):
        items = []
        for v in value:
            items.extend(coerce_list(v) if isinstance(v, list | tuple) else [str(v).strip()])
        return [i for i in items if i]
    text = str(value)
    text = re.sub(r"(?<=\S)\s+(?=\d+[.、)）]\s*\S)", "\n", text)  # "1. a 2. b" → lines
    parts = (_ITEM_PREFIX.sub("", p).strip(" 。.") for p in _LIST_SPLIT.split(text))
    return [p for p in parts if p]


def coerce(value: Any, kind: str) -> Any:
    """Coerce a raw value to a declared field type; None when it cannot be read."""
    if kind == "int":
        return coerce_int(value)
    if kind == "float":
        return coerce_float(value)
    if kind == "bool":
        return coerce_bool(value)
    if kind == "list[str]":
        return coerce_list(value)
    if value is None:
        return None
    if isinstance(value, list):
        return "、".join(str(v) for v in value)
    return str(value).strip()


# ---------------------------------------------------------------------------- json

def _parse_json_answer(text: str, fields: dict[str, str]) -> ParsedAnswer:
    obj = extract_json(text, expected=list(fields))
    note = None
    if obj is None:
        obj = _key_value_lines(text, list(fields))
        note = KEY_VALUE_NOTE if obj else None
    elif not _valid_as_written(text, obj):
        note = REPAIRED_NOTE
    if not obj:
        return ParsedAnswer(None, "no JSON object found")
    obj = _unnest(obj, list(fields))
    lowered = {str(k).strip().lower(): v for k, v in obj.items()}
    value: dict[str, Any] = {}
    missing, bad = [], []
    for name, kind in fields.items():
        raw = obj.get(name, lowered.get(name.lower()))
        if raw is None:  # a model that answered in Chinese keys: {"分诊级别": 2, "科室": "心内科"}
            raw = next((obj[k] for k in KEY_ALIASES.get(name, ()) if obj.get(k) is not None), None)
        if raw is None or raw == "" or raw == []:
            missing.append(name)
            value[name] = None
            continue
        coerced = coerce(raw, kind)
        if coerced is None:
            bad.append(f"{name}={raw!r} is not {kind}")
        value[name] = coerced
    problems = ([f"missing fields: {', '.join(missing)}"] if missing else []) + bad
    if all(v is None for v in value.values()):
        return ParsedAnswer(None, "; ".join(problems) or "no field found", note)
    return ParsedAnswer(value, "; ".join(problems) or None, note)


REPAIRED_NOTE = "not valid JSON as written: read after repair (quotes, Chinese punctuation, commas or braces)"
KEY_VALUE_NOTE = "no JSON object: read from 'field: value' lines"


def _valid_as_written(text: str, obj: dict[str, Any]) -> bool:
    """Whether ``obj`` is what a fenced or bare {...} span of ``text`` gives to a strict JSON parser."""
    for candidate in [m.group(1) for m in _FENCE.finditer(text)] + _brace_spans(text, close_open=False):
        try:
            if json.loads(candidate.strip()) == obj:
                return True
        except ValueError:
            continue
    return False


# Chinese key names models use for medsim's field names (tolerated, not required).
KEY_ALIASES: dict[str, tuple[str, ...]] = {
    "level": ("分诊级别", "分诊等级", "级别", "等级", "分级", "分诊分级", "triage_level"),
    "department": ("科室", "分诊科室", "就诊科室", "推荐科室", "dept"),
    "diagnosis": ("诊断", "主要诊断", "初步诊断", "primary_diagnosis"),
    "primary_diagnosis": ("主要诊断", "诊断", "第一诊断"),
    "tests": ("检查", "检查项目", "入院检查", "辅助检查"),
    "treatment": ("治疗", "治疗方案", "处理"),
    "sex": ("性别", "gender"),
    "age": ("年龄",),
    "chief_complaint": ("主诉",),
    "allergy": ("过敏史", "过敏", "allergies"),
    "smoking": ("吸烟", "是否吸烟", "吸烟史"),
    "advice": ("建议", "医嘱", "处理建议"),
}


def _unnest(obj: dict[str, Any], fields: list[str]) -> dict[str, Any]:
    """{"answer": {"level": 2, …}} → the inner object, when the outer one holds no field."""
    if any(f in obj for f in fields):
        return obj
    inner = [v for v in obj.values() if isinstance(v, dict)]
    return inner[0] if len(inner) == 1 and any(f in inner[0] for f in fields) else obj


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)


def json_objects(text: str) -> list[Any]:
    """Every JSON value found in ``text`` (fenced or bare braces), repaired if need be, in order.
    Model answers and judge verdicts both arrive as JSON wrapped in prose."""
    text = text.replace("｛", "{").replace("｝", "}")
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + _brace_spans(text)
    return [obj for obj in map(_loads_tolerant, candidates) if obj is not None]


def extract_json(text: str, expected: list[str] | None = None) -> dict[str, Any] | None:
    """The JSON object in ``text``: fenced or bare, repaired if need be.

    When several objects parse, the one holding most ``expected`` keys wins (ties: the last,
    since models give examples before their answer).
    """
    best, best_key = None, (-1, -1)
    for i, obj in enumerate(json_objects(text)):
        if not isinstance(obj, dict):
            continue
        hits = sum(1 for k in (expected or []) if k in obj or k.lower() in {str(x).lower() for x in obj})
        key = (hits, i)
        if key > best_key:
            best, best_key = obj, key
    return best


def _brace_spans(text: str, close_open: bool = True) -> list[str]:
    """Every balanced top-level {...} span; braces inside quoted strings are ignored. With
    ``close_open``, an object left open at the end is closed and tried too."""
    spans, depth, start, quote = [], 0, -1, ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = ""
            continue
        if ch in "\"“" and depth:
            quote = '"' if ch == '"' else "”"
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                spans.append(text[start : i + 1])
    if close_open and depth and start >= 0:  # an unclosed object at the end: try closing it
        spans.append(text[start:] + "}" * depth)
    return spans


def _loads_tolerant(s: str) -> Any:
    s = s.strip()
    try:
        return json.loads(s)
    except ValueError:
        pass
    try:
        return json.loads(_repair(s))
    except ValueError:
        return None


_PUNCT_OUTSIDE = {"：": ":", "，": ",", "［": "[", "］": "]", "、": ",", "；": ","}


def _repair(s: str) -> str:
    """Make near-JSON parse: curly/single quotes, Chinese punctuation outside strings,
    trailing commas, bare keys, Python literals."""
    out: list[str] = []
    quote = ""
    i = 0
    while i < len(s):
        ch = s[i]
        if quote:
            if ch == "\\" and i + 1 < len(s):
                out.append(s[i : i + 2])
                i += 2
                continue
            if ch == quote or (quote == "”" and ch == "“") or (quote == "’" and ch == "‘"):
                out.append('"')
                quote = ""
            elif ch == '"':
                out.append('\\"')
            else:
                out.append(ch)
            i += 1
            continue
        if ch in "\"“”'‘’":
            quote = {"“": "”", "”": "”", "‘": "’", "’": "’"}.get(ch, ch)
            out.append('"')
        else:
            out.append(_PUNCT_OUTSIDE.get(ch, ch))
        i += 1
    if quote:
        out.append('"')
    r = "".join(out)
    r = re.sub(r"(?m)(?<![:\"])//[^\n\"]*$|/\*.*?\*/", "", r)  # // and /* */ comments
    # bare values: {"level": Ⅱ级, "department": 心内科} → quoted
    r = re.sub(r"(:\s*)(?!true\b|false\b|null\b|-?\d+(?:\.\d+)?\s*[,}\]\n])([^\s\"\[{][^,}\]\n]*?)(\s*[,}\]\n])",
               lambda m: f'{m.group(1)}"{m.group(2).strip()}"{m.group(3)}', r)
    r = re.sub(r"\[([^\[\]{}\"]*)\]", _quote_array_items, r)  # [血常规, 心电图]
    r = re.sub(r",\s*([}\]])", r"\1", r)  # trailing commas
    r = re.sub(r'([{,]\s*)([A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]*)\s*:', r'\1"\2":', r)  # bare keys
    r = re.sub(r"(?<![\w\"])True(?![\w\"])", "true", r)
    r = re.sub(r"(?<![\w\"])False(?![\w\"])", "false", r)
    r = re.sub(r"(?<![\w\"])None(?![\w\"])", "null", r)
    return r


def _quote_array_items(m: re.Match[str]) -> str:
    items = [i.strip() for i in m.group(1).split(",")]
    literal = re.compile(r"-?\d+(?:\.\d+)?|true|false|null")
    return "[" + ", ".join(i if not i or literal.fullmatch(i) else json.dumps(i, ensure_ascii=False)
                           for i in items) + "]"


def _key_value_lines(text: str, fields: list[str]) -> dict[str, Any]:
    """Last resort: ``level: 2`` / ``"department"：心内科`` lines without braces."""
    found: dict[str, Any] = {}
    for name in fields:
        hits = list(re.finditer(rf"[\"'“]?{re.escape(name)}[\"'”]?\s*[:：=]\s*([^\n,，;；}}]+)", text, re.I))
        if hits:
            m = hits[-1]
            found[name] = m.group(1).strip().strip("\"'“”")
    return found


# -------------------------------------------------------------------------- choice

_SEP = r"(?:\s*(?:[、,，/和与及]|或者|或|and|or)\s*|\s*)"  # A或E names both: a hedge between options
# Words that open a conclusion: what follows them is the answer, whatever was reasoned before.
_CONCLUDE = re.compile(r"综上所述|综上|因此|所以|故(?:选|答案|本题)?|总之|结论|最终|答案|我选|应选|"
                       r"\b(?:therefore|thus|hence|so the answer)\b", re.I)
# A letter whose own clause says it is wrong is reasoned away, not chosen.
_REJECTED = re.compile(r"错|不对|不正确|不符|不选|排除|不是|不恰当|不属于|不能|wrong|incorrect|not", re.I)


def shown_options(options: dict[str, str], layout: dict[str, Any] | None) -> dict[str, str]:
    """{display letter: option text as the model saw it} (options may be shuffled)."""
    shown = (layout or {}).get("options_shown") or {k: k for k in sorted(options)}
    return {display: options[original] for display, original in shown.items() if original in options}


def _norm_option(text: str) -> str:
    return re.sub(r"[\s。.，,；;：:！!？?、（）()“”\"'《》]", "", unicodedata.normalize("NFKC", text))


def _named_options(segment: str, options: dict[str, str] | None) -> list[str]:
    """Options whose text the segment names ("以上都不是"), longest first; one contained in a
    longer named one is not named itself. A segment that says none of the above in other words
    (以上均不是, 以上选项都不正确, 都不是: ``medsim.text.options``) names the none-of-the-above option."""
    if not options:
        return []
    body = _norm_option(segment)
    named = [(k, _norm_option(v)) for k, v in options.items()]
    hits = [(k, v) for k, v in named if len(v) >= 2 and v in body]
    hits = [(k, v) for k, v in hits if not any(v != w and v in w for _, w in hits)]
    if not hits and says_none_of_the_above(segment):  # 以上均不是 for an option reading 以上都不是
        return sorted(k for k, v in options.items() if is_none_option(v))
    return sorted(k for k, _ in hits)


def _conclusion(text: str, list_line: re.Pattern[str]) -> str | None:
    """The part of the answer that concludes: after the last concluding word, if it is in the
    last two lines; else the last line, unless that is one item of a list of options."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return None
    tail = "\n".join(lines[-2:])
    cues = list(_CONCLUDE.finditer(tail))
    if cues:
        return tail[cues[-1].end():]
    last = lines[-1]
    if list_line.match(last) and sum(1 for ln in lines if list_line.match(ln)) > 1:
        return None
    return last


def extract_choices(text: str, letters: list[str] | None = None, options: dict[str, str] | None = None) -> list[str]:
    """The chosen option letters (upper case, order of appearance, no duplicates).

    Prefers an explicit marker (答案：B, 选B, 正确答案是 C 项; the last one when several),
    then the last line holding only letters (B．, A、C、D, BD), then the conclusion — the
    letters its clauses do not reject, or the option it names by text ("综上，以上都不是"
    chooses that option alone, however many letters the reasoning went through) — then a
    leading "B．…", then every standalone capital letter (so a model listing every option
    gets every option, and is scored as having chosen them all).
    """
    if not text:
        return []
    valid = [c.upper() for c in (letters or list("ABCDEFGH"))]
    cls = "".join(valid) + "".join(valid).lower()
    text = unicodedata.normalize("NFKC", text)
    letter = rf"[{cls}]"
    # later letters of a group must themselves look like answers, not "A选项错误"
    group = rf"(?P<g>{letter}(?:{_SEP}{letter}(?=[{cls}]|\s*(?:[、,，/和与及。.;；:：!！?？)\]】]|项|$)))*)"
    tail = r"(?![A-Za-z0-9])"

    def pick(g: str) -> list[str]:
        out: list[str] = []
        for ch in re.findall(letter, g):
            up = ch.upper()
            if up not in out:
                out.append(up)
        return out

    marker = re.compile(
        r"(?P<neg>不|非|排除|而不是|并非)?"
        r"(?:(?:(?:正确|最终|最佳|标准|参考)?答案|答)[\s*】\]]*(?:应该是|应该为|应为|应是|应选|应当是|可能是|是|为|选择?|:)?"
        r"|(?<!不)选择?(?!项)|故选|应选|(?:[Tt]he\s+)?(?:[Cc]orrect\s+|[Ff]inal\s+)?[Aa]nswer\s*(?:is|:)?)"
        rf"[\s*]*[:：]?[\s*]*[(（【\[]?[\s*]*{group}{tail}",
    )
    hits = [m for m in marker.finditer(text) if not m.group("neg")]
    if hits:
        return pick(hits[-1].group("g"))
    # "C 项正确" / "B选项正确" / "(B)是正确的"
    after = re.compile(rf"(?<![A-Za-z0-9]){group}\s*(?:项|选项)?\s*(?:是)?(?:正确|为正确|对)(?!吗)")
    hits = list(after.finditer(text))
    if hits:
        return pick(hits[-1].group("g"))
    line_only = re.compile(rf"^[\s*#>]*[(（【\[]?\s*{group}\s*[)）】\]]?\s*[.。、:：]?\s*[*]*$")
    for line in reversed(text.splitlines()):
        m = line_only.match(line)
        if m:
            return pick(m.group("g"))
    list_line = re.compile(rf"^\s*[(（【\[]?[{''.join(valid)}][)）】\]]?\s*[.、:：)．]")
    concluding = _conclusion(text, list_line)
    if concluding is not None:
        # the last clause that chooses something is the choice: "分析了A、B、C、D，我认为是主动脉夹层"
        for clause in reversed([c for c in re.split(r"[，,。；;！!？?\n]", concluding) if c.strip()]):
            chosen = []
            for m in re.finditer(rf"(?<![A-Za-z0-9]){letter}(?![A-Za-z0-9])", clause):
                if not _REJECTED.search(clause[m.end():]) and m.group().upper() not in chosen:
                    chosen.append(m.group().upper())
            chosen = chosen or _named_options(clause, options)
            if chosen:
                return chosen
    lines = [ln for ln in text.splitlines() if ln.strip()]
    lead = re.compile(rf"^\s*[(（【\[]?(?P<g>[{''.join(valid)}](?:{_SEP}[{''.join(valid)}])*)[)）】\]]?\s*[.、:：)]")
    leading = [lead.match(ln) for ln in lines]
    if leading and leading[0] and sum(1 for m in leading if m) == 1:  # one "B．…" line, not a list
        return pick(leading[0].group("g"))
    standalone = re.findall(rf"(?<![A-Za-z0-9])[{''.join(valid)}](?![A-Za-z0-9])", text)
    return pick("".join(standalone))


# --------------------------------------------------------------------------- steps

_NUM = r"(?:\d+|(?<![\u4e00-\u9fff])[一二三四五六七八九十]{1,3}(?![\u4e00-\u9fff]))"
_STEP_SEP = r"(?:->|=>|→|⇒|>|＞|—+>?|-|,|，|、|;|；)"  # spaces belong to the tokens
_STEP_TOK = rf"\s*[(（\[]?(?:步骤|第)?\s*{_NUM}\s*步?[)）\]]?\s*"  # 3, (3), 步骤3, 第3步
_CIRCLED = {chr(0x2460 + i): f" {i + 1} " for i in range(20)}  # ①…⑳ (NFKC would glue them: ③①② → 312)


def _num(tok: str) -> int | None:
    return int(tok) if tok.isdigit() else cn_number(tok)


def extract_steps(text: str, n: int | None = None) -> list[int]:
    """Display step numbers in the order given: "3,1,2,4", "3→1→2→4", "第一步：3 …", 三、一、二.

    Numbers outside 1..n and repeats are dropped (first occurrence kept).
    """
    if not text:
        return []
    text = unicodedata.normalize("NFKC", "".join(_CIRCLED.get(ch, ch) for ch in text))
    # 1. "第一步：3 …" lines: the number after the ordinal is the answer.
    labelled = re.findall(
        r"第\s*(?:\d+|[一二三四五六七八九十]{1,3})\s*步\s*(?:[:：.]|\s)\s*(?:步骤|第)?\s*"
        r"(\d+|[一二三四五六七八九十]{1,3}(?![\u4e00-\u9fff]))",
        text,
    )
    seqs: list[list[int]] = []
    if len(labelled) >= 2:
        seqs.append([x for x in map(_num, labelled) if x is not None])
    else:
        # 2. the longest run of numbers joined by separators (ties: the last, after any reasoning)
        body = text_after_marker(text, "答案") if "答案" in text else text
        for m in re.finditer(rf"{_STEP_TOK}(?:{_STEP_SEP}?{_STEP_TOK})+", body):
            seqs.append([x for x in (_num(t) for t in re.findall(_NUM, m.group())) if x is not None])
        # 3. lines that start with a number: "3. 切开皮肤"
        if not seqs or max(len(s) for s in seqs) < 2:
            lead = [re.match(rf"^\s*(?:步骤)?\s*({_NUM})\s*(?:[.、:：)）]|$)", ln) for ln in text.splitlines()]
            nums = [_num(m.group(1)) for m in lead if m]
            seqs.append([x for x in nums if x is not None])

    def clean(seq: list[int]) -> list[int]:
        out: list[int] = []
        for x in seq:
            if (n is None or 1 <= x <= n) and x >= 1 and x not in out:
                out.append(x)
        return out

    cleaned = [clean(s) for s in seqs]
    best: list[int] = []
    for s in cleaned:
        if len(s) >= len(best):
            best = s
    return best
