"""Judge prompts are versioned data files; each score stores the hash of the prompt it used.

The answer under judgement is untrusted: it is fenced between <answer> tags and any tag-like
text inside it is neutralised, so an answer cannot close the fence and speak to the judge.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PROMPT_DIR = Path(__file__).parent / "prompts"
PROTOCOL_PROMPTS = {"llmeval": "llmeval_v1", "criteria": "criteria_v2"}

_FENCE = re.compile(r"<\s*/?\s*answer\s*>", re.IGNORECASE)


@dataclass(frozen=True)
class JudgePrompt:
    name: str
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def render(self, **values: str) -> str:
        body = "\n".join(line for line in self.text.splitlines() if not line.startswith("# "))
        for key, value in values.items():
            body = body.replace("{{" + key + "}}", value)
        return body.strip()


@cache
def load_prompt(name: str) -> JudgePrompt:
    path = PROMPT_DIR / f"{name}.txt"
    if not path.is_file():
        known = sorted(p.stem for p in PROMPT_DIR.glob("*.txt"))
        raise ValueError(f"no judge prompt {name!r} (known: {', '.join(known)})")
    return JudgePrompt(name, path.read_text(encoding="utf-8"))


def fence(text: str) -> str:
    """The answer made safe to place between <answer> tags."""
    return _FENCE.sub(lambda m: m.group().replace("<", "‹").replace(">", "›"), text or "（空回答）")


def injection_suspected(text: str) -> bool:
    """Does the answer try to instruct its judge? (The text layer decides: ``medsim.text.injection``;
    what is done about it is ``medsim.judge.screen``'s policy, not the judge's obedience.)"""
    from medsim.text.injection import find_injections

    return find_injections(text or "").suspected
