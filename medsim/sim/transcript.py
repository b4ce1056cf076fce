"""What an episode produces: the turns, the stage reveals, the parsed final answer.

A transcript is plain data. The episode loop writes it, scorers read it, the store keeps it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Speaker = Literal["system", "clinician", "patient", "oracle", "stage"]


@dataclass
class Turn:
    index: int
    speaker: Speaker
    text: str
    # Free-form facts about the turn: the topics a patient answer covered, the tests an oracle
    # revealed, fact-check flags on an LLM patient turn, tokens and latency of a model turn.
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class Transcript:
    scenario_id: str
    case_id: str
    turns: list[Turn] = field(default_factory=list)
    final_text: str | None = None  # the clinician's last message, where the answer was sought
    answer: Any = None  # the parsed final answer (dict for json, list of letters, list of steps, str)
    parse_error: str | None = None  # why the final answer could not be parsed, if it could not
    parse_note: str | None = None  # how it was read when not valid as written (repaired JSON, key: value lines)
    stop_reason: str = "answered"  # answered | turn_limit | time_limit | error | quit
    error: str | None = None  # a model call that failed after retries: never scored as zero
    stage_answers: dict[str, Any] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)  # information-gathering facts, simulator stats

    def add(self, speaker: Speaker, text: str, **meta: Any) -> Turn:
        turn = Turn(index=len(self.turns), speaker=speaker, text=text, meta=dict(meta))
        self.turns.append(turn)
        return turn

    def by(self, speaker: Speaker) -> list[Turn]:
        return [t for t in self.turns if t.speaker == speaker]

    def clinician_text(self) -> str:
        return "\n".join(t.text for t in self.by("clinician"))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Transcript:
        turns = [Turn(**t) for t in data.get("turns", [])]
        return cls(**{**data, "turns": turns})
