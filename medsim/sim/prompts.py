"""What the clinician model is shown: system instructions, single-turn prompts, stage reveals.

Templates use ``{name}`` placeholders (the scenario README lists them). Unknown placeholders
and literal braces (JSON examples in instructions) are left as written, so an author can put
``{"level": 1}`` in a prompt without escaping it.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from medsim.scenario.schema import RECORD_SECTIONS, Case, Scenario, Stage
from medsim.text.options import is_none_option

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_TITLES = dict(RECORD_SECTIONS)

ORDER_TAG = "【开检查】"
EXAM_TAG = "【查体】"


def item_seed(seed: int, case_id: str, repeat: int = 0) -> int:
    """A per-item seed, stable across runs and processes (``hash()`` is salted per process)."""
    digest = hashlib.sha256(f"{seed}:{case_id}:{repeat}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def display_layout(scenario: Scenario, case: Case, seed: int) -> dict[str, Any]:
    """How options and steps are shown for this item: the permutations scorers map back through."""
    from medsim.sim.answer import shuffle_options, shuffle_steps

    info: dict[str, Any] = {}
    if case.steps:
        # Steps are always shuffled: shown in the right order, the task would be no task.
        info["steps_shown"] = shuffle_steps(len(case.steps), seed)
    if case.options:
        # Options are shuffled unless a scorer says shuffle: false: a fixed position (none of the
        # above always last) is a pattern a model can learn without reading the question.
        shuffle = not any(ref.config.get("shuffle") is False for ref in scenario.scoring)
        info["options_shown"] = shuffle_options(sorted(case.options), seed if shuffle else None)
    return info


# A none-of-the-above option shown anywhere but last says so in words that do not depend on
# its position.
NONE_ANYWHERE = "其余选项都不正确"


def option_text(text: str, last: bool) -> str:
    return text if last or not is_none_option(text) else NONE_ANYWHERE


def format_options(case: Case, layout: dict[str, Any]) -> str:
    shown = layout.get("options_shown") or {k: k for k in sorted(case.options)}
    last = list(shown)[-1] if shown else None
    return "\n".join(f"{display}. {option_text(case.options[original], display == last)}"
                     for display, original in shown.items())


def format_steps(case: Case, layout: dict[str, Any]) -> str:
    order = layout.get("steps_shown") or list(range(len(case.steps)))
    return "\n".join(f"{number}. {case.steps[original]}" for number, original in enumerate(order, 1))


def render(template: str, case: Case, layout: dict[str, Any]) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "question":
            return case.question or ""
        if name == "options":
            return format_options(case, layout)
        if name == "steps":
            return format_steps(case, layout)
        if name == "record":
            return case.full_record_text()
        if name in _TITLES:
            return case.record_section(name) or ""
        return match.group(0)

    return _PLACEHOLDER.sub(value, template).strip()


def reveal_text(case: Case, fields: list[str]) -> str:
    """Record sections as the clinician sees them at a stage: 主诉：……"""
    lines = []
    for name in fields:
        text = case.record_section(name)
        if text:
            lines.append(f"{_TITLES[name]}：{text}")
    return "\n".join(lines)


def stage_message(case: Case, stage: Stage, layout: dict[str, Any]) -> str:
    revealed = reveal_text(case, list(stage.reveal))
    prompt = render(stage.prompt, case, layout)
    return f"{revealed}\n\n{prompt}" if revealed else prompt


def answer_reminder(scenario: Scenario) -> str:
    spec = scenario.final_answer_spec
    if spec.format == "json":
        example = ", ".join(f'"{name}": …' for name in spec.fields)
        return f"请现在给出最终答案，只输出 JSON：{{{example}}}"
    if spec.format == "choice":
        return "请现在给出最终答案（选项字母）。"
    if spec.format == "steps":
        return "请现在按正确顺序给出步骤编号。"
    return f"请现在给出最终答案，以“{spec.marker}：”开头。"
