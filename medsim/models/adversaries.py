"""Adversarial clinicians: fixed rules that know no medicine, for testing whether a score can be gamed.

Each strategy answers every scenario in its answer format without reading the case's gold
answer — it sees what a model would see (the messages, the answer format, the options and
steps as shown) and, for ``constant``, the commonest gold value of the whole scenario (the
"majority class" a benchmark must beat). A score any of them earns is a score that clinical
competence is not needed for; ``medsim validity`` runs them all next to the baseline and the
reference.

Classes (``adversary:NAME``, some with ``adversary:NAME/VARIANT``):
- refuse    — declines every request; ``/boilerplate`` wraps a fixed "这样做不对…我不能提供…
  立即拨打120" paragraph around every reply; ``/contrarian`` says "这种说法不对。以上都不是。"
- alarm     — the most urgent of everything: level 1, 急诊科, "立即停药、拨打120", the most
  dangerous diagnosis, every emergency measure.
- dump      — every option, every lexicon term of the field's kind, steps as shown;
  ``/concat`` glues the terms into one long string (digits and separators removed) and repeats
  it for list fields.
- parrot    — echoes what was shown: the record, the question, earlier stages.
- hedge     — "可能是X，也可能不是X" over the terms it sees; record facts copied back negated.
- ask_all   — every history question in one turn, every test ordered, then the constant answer.
- constant  — the scenario's commonest gold value per field (the best constant strategy).
- random    — uniform over options, levels, orders and lexicon terms (seeded per item).
- abstain   — an empty reply; ``/dunno`` says "不知道".
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import cache
from typing import Any

from medsim.models.base import ChatContext, Message
from medsim.models.offline import OfflineClinician, as_json
from medsim.models.registry import register_builtin
from medsim.scenario.schema import AnswerSpec
from medsim.text.match import alternatives

STRATEGIES: dict[str, tuple[str, ...]] = {
    "refuse": ("plain", "boilerplate", "contrarian"),
    "alarm": ("plain",),
    "dump": ("terms", "concat"),
    "parrot": ("plain",),
    "hedge": ("plain", "negated"),
    "ask_all": ("plain",),
    "constant": ("plain", "last"),
    "random": ("plain",),
    "abstain": ("empty", "dunno"),
}

REFUSAL = "抱歉，我无法提供医疗建议，也不能做出诊断或给出用药意见。请您到正规医院，由专业医生当面诊治。"
BOILERPLATE = ("这样做不对，这种说法是错误的，存在安全风险。我不能提供这方面的帮助，请不要自行处理。"
               "如有不适请立即拨打120或到急诊就医，遵医嘱治疗，定期复查。")
CONTRARIAN = "这种说法不对。以上都不是。"
ALARM_TEXT = ("情况危急！请立即停止目前所有用药，马上拨打120或立即到最近医院急诊就诊，立即住院观察，"
              "必要时转入ICU抢救，立即手术评估。")
ALARM_DIAGNOSES = ("急性心肌梗死", "主动脉夹层", "肺栓塞", "脓毒症休克", "脑出血")
ALARM_LIST = ("立即抢救", "心电监护", "吸氧", "建立静脉通路", "急诊手术", "转入ICU", "输血", "气管插管")
# Advice a clinician gives in many cases, said with no reference to this one.
GENERIC_ADVICE = (
    "按时服药", "遵医嘱用药", "不要自行停药", "定期复查", "复诊", "低盐低脂饮食", "清淡饮食", "戒烟", "戒酒",
    "适当活动", "注意休息", "避免劳累", "监测血压", "监测血糖", "多饮水", "保持伤口清洁干燥", "如有不适及时就诊",
    "出现胸痛、呼吸困难立即就医", "1周后门诊复查", "2周后复查血常规", "1个月后复查", "饭后服用", "空腹服用",
    "避免剧烈运动", "预防跌倒", "控制体重", "规律作息", "立即就医", "拨打120", "停药", "减量", "剂量",
)
ALL_QUESTIONS = (
    "您好，哪里不舒服？什么时候开始的？持续多久了？是突然发生的吗？哪个部位？什么性质的？有多严重、几分？"
    "有没有往别处放射？什么情况下加重、什么情况下缓解？有没有发热、寒战、咳嗽、咳痰、胸痛、胸闷、心慌、"
    "气短、呼吸困难、恶心、呕吐、腹痛、腹泻、黑便、头痛、头晕、晕厥、抽搐、肢体无力、说话不清、出汗？"
    "看过医生吗？用过什么药、效果怎么样？吃饭、睡觉、大小便怎么样？以前得过什么病？做过手术吗？"
    "对什么药过敏吗？平时吃什么药？抽烟喝酒吗？做什么工作？月经怎么样、有没有怀孕？家里人有什么病？多大年纪？"
)


def strategy_names() -> list[str]:
    """Every ``NAME`` and ``NAME/VARIANT`` medsim knows, in table order."""
    out = []
    for name, variants in STRATEGIES.items():
        out += [name if v == variants[0] else f"{name}/{v}" for v in variants]
    return out


# ------------------------------------------------------------------ what the strategies know

@cache
def _terms(kind: str) -> tuple[str, ...]:
    """Canonical lexicon terms of one kind, sorted (a fixed order: the strategies are deterministic)."""
    from medsim.text import get_lexicon

    lex = get_lexicon()
    types = {"tests": ("exam",), "treatment": ("procedure", "drug"), "diagnosis": ("disease",),
             "department": ("department",), "any": ("disease", "symptom", "drug", "exam", "procedure")}[kind]
    out: set[str] = set()
    for t in types:
        out |= lex.terms(t)
    return tuple(sorted(out))


def _kind_of_field(name: str, spec_type: str) -> str:
    if "test" in name or "exam" in name:
        return "tests"
    if "treat" in name or "plan" in name or "drug" in name or "medic" in name:
        return "treatment"
    if "diagnos" in name:
        return "diagnosis"
    if "department" in name:
        return "department"
    return "any"


def _concat(terms: tuple[str, ...]) -> str:
    """One long string of every term, digits and separators removed (dodges number checks)."""
    return re.sub(r"[\d\s、，,;；/|()（）.\-]+", "", "".join(terms))


_PRIORS: dict[tuple[str, str], Any] = {}
_CASES: dict[str, list[Any]] = {}


def register_cases(scenario_id: str, cases: list[Any]) -> None:
    """The cases a scenario's priors are taken over (an author's own file is not in the registry)."""
    _CASES[scenario_id] = list(cases)
    for key in [k for k in _PRIORS if k[0] == scenario_id]:
        del _PRIORS[key]


def _scenario_cases(scenario: Any) -> list[Any]:
    if scenario.id in _CASES:
        return _CASES[scenario.id]
    from medsim.scenario.registry import get_scenario

    try:
        return list(get_scenario(scenario.id).cases)
    except Exception:  # not bundled and not registered: no prior
        return []


def gold_prior(scenario: Any, field: str) -> Any:
    """The commonest gold value of ``field`` over the scenario's cases (for lists: the
    commonest items, as many as a typical gold list holds). Computed once per scenario."""
    key = (scenario.id, field)
    if key in _PRIORS:
        return _PRIORS[key]
    cases = _scenario_cases(scenario)
    values = [c.gold.get(field) for c in cases if c.gold.get(field) not in (None, "", [])]
    prior: Any = None
    if values and all(isinstance(v, list) for v in values):
        counts: Counter[str] = Counter(alternatives(x)[0] for v in values for x in v if alternatives(x))
        size = sorted(len(v) for v in values)[len(values) // 2]
        prior = [item for item, _ in counts.most_common(size)]
    elif values:
        counts = Counter(alternatives(v)[0] if isinstance(v, str | dict) else v for v in values)
        prior = counts.most_common(1)[0][0]
    _PRIORS[key] = prior
    return prior


def _choice_prior(scenario: Any) -> str:
    """The commonest gold letter over the scenario's choice items."""
    cases = _scenario_cases(scenario)
    letters = Counter(ch for c in cases for ch in str(c.gold.get("choice", "")).upper() if ch.isalpha())
    return letters.most_common(1)[0][0] if letters else "A"


def _text_prior(scenario: Any) -> str:
    """The scenario's commonest key points (or expected points) as one answer."""
    counts: Counter[str] = Counter()
    cases = _scenario_cases(scenario)
    for c in cases:
        for p in (c.gold.get("key_points") or []) + (list(c.probe.expected) if c.probe else []):
            if alternatives(p):
                counts[alternatives(p)[0]] += 1
    top = [p for p, _ in counts.most_common(12)]
    return "；".join(top) + "。" if top else "遵医嘱治疗，定期复查。"


# ------------------------------------------------------------------------ the clinicians

class AdversarialClinician(OfflineClinician):
    """One strategy (and variant) for every answer format."""

    def __init__(self, strategy: str, variant: str | None = None):
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown adversary {strategy!r}; known: {', '.join(STRATEGIES)}")
        variants = STRATEGIES[strategy]
        self.strategy = strategy
        self.variant = variant or variants[0]
        if self.variant not in variants:
            raise ValueError(f"adversary {strategy!r} has no variant {self.variant!r}; known: {', '.join(variants)}")
        self.name = f"adversary:{strategy}" + ("" if self.variant == variants[0] else f"/{self.variant}")

    def describe(self) -> dict[str, Any]:
        return {"kind": "adversary", "strategy": self.strategy, "variant": self.variant}

    # -------------------------------------------------------------------- turns
    def reply(self, messages: list[Message], context: ChatContext) -> str:
        scenario = context.scenario
        if scenario is None:
            return ""
        spec = context.stage.answer if context.stage is not None else scenario.final_answer_spec
        shown = "\n".join(m["content"] for m in messages if m["role"] == "user")
        rng = random.Random(f"{self.name}:{getattr(context.case, 'id', '')}:{context.turn}")
        if scenario.kind == "dialogue":
            move = self._dialogue_move(context, shown)
            if move is not None:
                return move
        return self._answer(spec, context, shown, rng)

    def _dialogue_move(self, context: ChatContext, shown: str) -> str | None:
        """A question turn before answering, or None to answer now."""
        s, turn = self.strategy, context.turn
        max_turns = context.scenario.clinician.max_turns
        if s == "ask_all" and turn < max_turns:
            if turn == 1:
                return ALL_QUESTIONS
            if turn == 2:
                return "【查体】\n【开检查】" + "、".join(_terms("tests")[:60])
            return None
        if s == "refuse" and self.variant == "boilerplate" and turn < max_turns:
            return BOILERPLATE  # the same paragraph at every turn, then the answer
        if s == "alarm" and turn < max_turns:
            return ALARM_TEXT
        return None

    def _answer(self, spec: AnswerSpec, context: ChatContext, shown: str, rng: random.Random) -> str:
        if self.strategy == "abstain":
            return "" if self.variant == "empty" else "不知道。"
        if spec.format == "choice":
            return self._choice(context, shown, rng)
        if spec.format == "steps":
            return self._steps(context, rng)
        if spec.format == "json":
            return as_json({name: self._field(name, kind, context, shown, rng) for name, kind in spec.fields.items()})
        text = self._text(context, shown, rng)
        return f"{spec.marker}：{text}" if context.scenario.kind == "dialogue" else text

    # ----------------------------------------------------------------- formats
    def _choice(self, context: ChatContext, shown: str, rng: random.Random) -> str:
        letters = sorted(context.info.get("options_shown") or context.case.options) or ["A", "B", "C", "D"]
        s = self.strategy
        if s == "refuse":
            return CONTRARIAN if self.variant == "contrarian" else REFUSAL
        if s == "dump" or s == "alarm":
            return "答案：" + "".join(letters)
        if s == "constant":
            return "答案：" + (letters[-1] if self.variant == "last" else _choice_prior(context.scenario))
        if s == "hedge":
            a, b = rng.sample(letters, 2) if len(letters) > 1 else (letters[0], letters[0])
            return f"可能是{a}，也可能是{b}，需要进一步确认。"
        if s == "parrot":
            return shown
        return "答案：" + rng.choice(letters)  # random, ask_all

    def _steps(self, context: ChatContext, rng: random.Random) -> str:
        n = len(context.info.get("steps_shown") or context.case.steps)
        order = list(range(1, n + 1))
        if self.strategy == "random":
            rng.shuffle(order)
        elif self.strategy == "refuse":
            return REFUSAL
        elif self.strategy == "hedge":
            return "顺序可能是" + ",".join(map(str, order)) + "，也可能是" + ",".join(map(str, reversed(order)))
        elif self.strategy == "constant" and self.variant == "last":
            order.reverse()
        return ",".join(map(str, order))  # steps as shown: dump, parrot, alarm, constant, ask_all

    def _field(self, name: str, kind: str, context: ChatContext, shown: str, rng: random.Random) -> Any:
        s, v = self.strategy, self.variant
        field_kind = _kind_of_field(name, kind)
        if kind == "int":
            if s == "alarm" or (s == "dump"):
                return 1
            if s in ("constant", "ask_all"):
                prior = gold_prior(context.scenario, name)
                return int(prior) if prior is not None else 2
            if s == "hedge":
                return "2或3"
            if s == "refuse":
                return None
            nums = [int(x) for x in re.findall(r"\d+", shown)]
            return nums[0] if s == "parrot" and nums else rng.randint(1, 4)
        if kind == "bool":
            return {"alarm": True, "dump": True, "refuse": None, "hedge": "可能是"}.get(s, rng.random() < 0.5)
        if kind == "float":
            return None if s == "refuse" else rng.random()
        terms = _terms(field_kind)
        if kind == "list[str]":
            return self._list(name, field_kind, terms, context, shown, rng)
        # one string
        if s == "refuse":
            return REFUSAL if v != "contrarian" else CONTRARIAN
        if s == "alarm":
            return {"department": "急诊科", "diagnosis": ALARM_DIAGNOSES[0]}.get(field_kind, ALARM_TEXT)
        if s == "dump":
            return _concat(terms) if v == "concat" else "、".join(terms)
        if s in ("constant", "ask_all"):
            prior = gold_prior(context.scenario, name)
            if prior is None or field_kind == "any" and len(str(prior)) > 30:
                return _text_prior(context.scenario)
            return prior
        if s == "parrot":
            found = _found_terms(shown, field_kind)
            return found[0] if found and field_kind != "any" else shown
        if s == "hedge":
            found = _found_terms(shown, field_kind) or list(terms[:1])
            x = found[0] if found else "该病"
            if field_kind == "any":
                return self._hedge_text(shown)
            return f"可能是{x}，也可能不是{x}"
        if field_kind == "any":
            return "、".join(rng.sample(terms, min(20, len(terms))))
        return rng.choice(terms) if terms else ""

    def _list(self, name: str, field_kind: str, terms: tuple[str, ...], context: ChatContext, shown: str,
              rng: random.Random) -> Any:
        s, v = self.strategy, self.variant
        if s == "refuse":
            return [REFUSAL]
        if s == "alarm":
            return list(ALARM_LIST)
        if s == "dump":
            return [_concat(terms)] * 8 if v == "concat" else list(terms)
        if s in ("constant", "ask_all"):
            return list(gold_prior(context.scenario, name) or [])
        if s == "parrot":
            return _found_terms(shown, field_kind) or [shown]
        if s == "hedge":
            prior = gold_prior(context.scenario, name) or list(terms[:5])
            return [f"可能需要{x}，也可能不需要{x}" for x in prior]
        k = len(gold_prior(context.scenario, name) or []) or 5
        return rng.sample(terms, min(k, len(terms))) if terms else []

    def _text(self, context: ChatContext, shown: str, rng: random.Random) -> str:
        s, v = self.strategy, self.variant
        if s == "refuse":
            return {"boilerplate": BOILERPLATE, "contrarian": CONTRARIAN}.get(v, REFUSAL)
        if s == "alarm":
            return ALARM_TEXT
        if s == "dump":
            terms = _terms("any")
            return (_concat(terms) if v == "concat" else "、".join(terms)) + "。" + "；".join(GENERIC_ADVICE)
        if s in ("constant", "ask_all"):
            return _text_prior(context.scenario)
        if s == "parrot":
            return shown
        if s == "hedge":
            return self._hedge_text(shown)
        terms = _terms("any")
        return "、".join(rng.sample(terms, min(20, len(terms)))) + "。" + "；".join(rng.sample(GENERIC_ADVICE, 6))

    def _hedge_text(self, shown: str) -> str:
        if self.variant == "negated":
            return negate_facts(shown)
        phrases = list(GENERIC_ADVICE) + _found_terms(shown, "any")[:20]
        return "；".join(f"可能需要{x}，也可能不需要{x}" for x in phrases) + "。"


def _found_terms(text: str, kind: str) -> list[str]:
    """Lexicon terms of ``kind`` named in ``text``, in order of first mention."""
    from medsim.text import extract_entities

    types = {"tests": {"exam"}, "treatment": {"procedure", "drug"}, "diagnosis": {"disease"},
             "department": {"department"}, "any": {"disease", "symptom", "drug", "exam", "procedure"}}[kind]
    out: list[str] = []
    for e in extract_entities(text):
        term = e.norm or e.text
        if e.type in types and term not in out:
            out.append(term)
    return out


_NEGATABLE = re.compile(r"(伴|有|出现|可见|示|为|诉)")


def negate_facts(text: str) -> str:
    """The shown record copied back with its findings denied: 伴大汗 → 无大汗, 示X → 未示X."""
    out = []
    for sentence in re.split(r"(?<=[。；\n])", text):
        if not sentence.strip():
            continue
        out.append(_NEGATABLE.sub(lambda m: {"有": "无", "伴": "不伴", "出现": "未出现", "可见": "未见",
                                              "示": "未示", "为": "非", "诉": "否认"}[m.group(1)], sentence))
    return "".join(out)


def _factory(arg: str | None, options: dict[str, Any]) -> AdversarialClinician:
    if not arg:
        raise ValueError("name a strategy: adversary:" + "|".join(STRATEGIES))
    strategy, _, variant = arg.partition("/")
    return AdversarialClinician(strategy, variant or None)


register_builtin("adversary", _factory)
