"""A clinician that replies from a file, in order — for demos and tests (``--model scripted:PATH``).

File formats, chosen by extension:

* ``.yaml`` / ``.yml`` — a list of replies, or a mapping
  ``{replies: [...], cases: {CASE_ID: [...] or "one reply"}}``;
* ``.jsonl`` — one JSON value a line: a string, or ``{"content": "...", "case": "ID"}``
  (``case`` optional);
* anything else — plain text: replies separated by lines holding only ``---``; a file
  without such a line has one reply per non-empty line.

Replies keyed by case id are used for that case (``context.case.id``), others in order for
everything else. Each list is read in order; when it runs out it starts again (``cycle``),
repeats its last reply (``repeat_last``) or fails (``error``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from medsim.models.base import ChatContext, ChatResult, Message, ModelCallError, Usage
from medsim.models.registry import register_builtin
from medsim.models.tokens import estimate_messages_tokens, estimate_tokens

EXHAUSTED_MODES = ("cycle", "repeat_last", "error")


class ScriptError(ValueError):
    """A script file that cannot be read; the message says where."""


def load_script(path: str | Path) -> tuple[list[str], dict[str, list[str]]]:
    """(replies in order, replies by case id) from a script file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"cannot read script {path}: {exc.strerror or exc}") from exc
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        return _from_yaml(path, text)
    if suffix == ".jsonl":
        return _from_jsonl(path, text)
    return _from_text(text), {}


def _as_list(value: Any, where: str) -> list[str]:
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(x, str | int | float) for x in items):
        raise ScriptError(f"{where}: replies must be strings")
    return [str(x) for x in items]


def _from_yaml(path: Path, text: str) -> tuple[list[str], dict[str, list[str]]]:
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ScriptError(f"{path}: not valid YAML: {exc}") from exc
    if data is None:
        return [], {}
    if isinstance(data, list):
        return _as_list(data, str(path)), {}
    if not isinstance(data, dict) or set(data) - {"replies", "cases"}:
        raise ScriptError(f"{path}: expected a list of replies or a mapping with 'replies' and/or 'cases'")
    replies = _as_list(data.get("replies") or [], f"{path}: replies")
    cases_raw = data.get("cases") or {}
    if not isinstance(cases_raw, dict):
        raise ScriptError(f"{path}: 'cases' must map case ids to replies")
    cases = {str(k): _as_list(v, f"{path}: cases.{k}") for k, v in cases_raw.items()}
    return replies, cases


def _from_jsonl(path: Path, text: str) -> tuple[list[str], dict[str, list[str]]]:
    replies: list[str] = []
    cases: dict[str, list[str]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise ScriptError(f"{path}:{n}: not valid JSON: {exc}") from exc
        if isinstance(item, str):
            replies.append(item)
        elif isinstance(item, dict) and isinstance(item.get("content"), str):
            if item.get("case") is not None:
                cases.setdefault(str(item["case"]), []).append(item["content"])
            else:
                replies.append(item["content"])
        else:
            raise ScriptError(f'{path}:{n}: expected a string or {{"content": "...", "case": "..."}}')
    return replies, cases


def _from_text(text: str) -> list[str]:
    lines = text.splitlines()
    if any(line.strip() == "---" for line in lines):
        blocks, current = [], []
        for line in lines:
            if line.strip() == "---":
                blocks.append("\n".join(current).strip())
                current = []
            else:
                current.append(line)
        blocks.append("\n".join(current).strip())
        return [b for b in blocks if b]
    return [line.strip() for line in lines if line.strip()]


class ScriptedModel:
    """Replies from a list (or a script file), in order, optionally per case."""

    def __init__(
        self,
        replies: list[str] | None = None,
        *,
        cases: dict[str, list[str]] | None = None,
        name: str = "scripted",
        on_exhausted: str = "cycle",
        chunk_chars: int = 8,
        source: str | None = None,
    ):
        if on_exhausted not in EXHAUSTED_MODES:
            raise ValueError(f"on_exhausted must be one of {EXHAUSTED_MODES}")
        self.name = name
        self.replies = list(replies or [])
        self.cases = {k: list(v) for k, v in (cases or {}).items()}
        if not self.replies and not any(self.cases.values()):
            raise ScriptError(f"script {source or name!r} holds no replies")
        self.on_exhausted = on_exhausted
        self.chunk_chars = max(1, chunk_chars)
        self.source = source
        self._cursor: dict[str | None, int] = {}

    @classmethod
    def from_file(cls, path: str | Path, **kwargs: Any) -> ScriptedModel:
        replies, cases = load_script(path)
        kwargs.setdefault("name", f"scripted:{path}")
        return cls(replies, cases=cases, source=str(path), **kwargs)

    def describe(self) -> dict[str, Any]:
        return {"type": "scripted", "name": self.name, "source": self.source, "replies": len(self.replies),
                "cases": len(self.cases), "on_exhausted": self.on_exhausted}

    def _next(self, case_id: str | None) -> str:
        key = case_id if case_id is not None and self.cases.get(case_id) else None
        items = self.cases[key] if key is not None else self.replies
        if not items:
            raise ModelCallError(f"scripted: no reply for case {case_id!r} and no general replies")
        i = self._cursor.get(key, 0)
        self._cursor[key] = i + 1
        if i < len(items):
            return items[i]
        if self.on_exhausted == "cycle":
            return items[i % len(items)]
        if self.on_exhausted == "repeat_last":
            return items[-1]
        raise ModelCallError(f"scripted: the script ran out after {len(items)} replies"
                             + (f" for case {case_id!r}" if key is not None else ""))

    async def chat(
        self,
        messages: list[Message],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        json_mode: bool = False,
        on_token: Callable[[str], None] | None = None,
        context: ChatContext | None = None,
    ) -> ChatResult:
        case = getattr(context, "case", None) if context is not None else None
        case_id = getattr(case, "id", None)
        if case_id is None and isinstance(case, dict):
            case_id = case.get("id")
        content = self._next(None if case_id is None else str(case_id))
        if on_token is not None:  # in pieces, as a streaming endpoint would
            for i in range(0, len(content), self.chunk_chars):
                on_token(content[i : i + self.chunk_chars])
        usage = Usage(estimate_messages_tokens(messages), estimate_tokens(content), True)
        return ChatResult(content=content, usage=usage, model=self.name)


def _factory(arg: str | None, options: dict[str, Any]) -> ScriptedModel:
    if not arg:
        raise ScriptError("scripted needs a file: --model scripted:PATH (YAML, JSONL or text)")
    return ScriptedModel.from_file(arg, on_exhausted=options.get("on_exhausted", "cycle"))


register_builtin("scripted", _factory)
