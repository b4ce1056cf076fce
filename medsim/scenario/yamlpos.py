"""YAML and JSONL reading that remembers where every value came from.

Parsing goes node by node so each field path maps to a ``line:col``; pydantic's error
locations are then turned into positions an author can jump to. Hostile input is refused
before it can hurt: oversized files, bytes that are not UTF-8, and alias bombs (a few lines
of anchors that expand to billions of nodes). JSONL is read a line at a time, so a question
bank of any realistic size fits; a runaway file or line is still stopped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

MAX_FILE_BYTES = 64 * 1024 * 1024  # YAML is parsed whole: 64 MB is ~100,000 exam items
MAX_JSONL_BYTES = 4 * 1024 ** 3  # JSONL is streamed: only a runaway file meets this
MAX_LINE_BYTES = 4 * 1024 * 1024  # one case on one line: 4 MB is a whole 病历 many times over
MAX_EXPANDED_NODES = 5_000_000  # ~50 nodes a case: far above any real bank, far below an alias bomb

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 10× faster


@dataclass
class Problem:
    """One thing wrong with a file, located as precisely as we can."""

    path: str
    line: int
    col: int
    field: str
    message: str
    severity: str = "error"  # error | warning

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}"
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class FileProblem(Exception):
    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


@dataclass
class Located:
    """Parsed data plus a map from field path (tuple of keys/indices) to (line, col)."""

    data: Any
    positions: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    path: str = ""
    text: str = ""  # the file's text (YAML only), to place a problem inside a multi-line value

    def where(self, loc: tuple) -> tuple[int, int]:
        """The position of ``loc`` or of its nearest ancestor that has one."""
        loc = tuple(loc)
        while loc:
            if loc in self.positions:
                return self.positions[loc]
            loc = loc[:-1]
        return self.positions.get((), (1, 1))


def read_text(path: Path, display: str) -> str:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise FileProblem(Problem(display, 1, 1, "", "file not found")) from None
    if size > MAX_FILE_BYTES:
        raise FileProblem(Problem(
            display, 1, 1, "",
            f"file is {size / 1e6:.1f} MB; medsim reads YAML files of at most {MAX_FILE_BYTES // 2**20} MB "
            "(write the cases as JSONL, one case a line, which has no such limit; or split them into several "
            "files and list them under `cases:`)",
        ))
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FileProblem(Problem(
            display, line, col, "",
            f"byte 0x{raw[exc.start]:02x} is not UTF-8; save the file as UTF-8 (GBK/GB18030 files: "
            "`iconv -f GB18030 -t UTF-8`)",
        )) from None


def _expanded_size(node: yaml.Node, memo: dict[int, int], depth: int = 0) -> int:
    """How many nodes ``node`` stands for once aliases are expanded (shared nodes counted each time)."""
    key = id(node)
    if key in memo:
        return memo[key]
    if depth > 200:
        return MAX_EXPANDED_NODES + 1
    if isinstance(node, yaml.SequenceNode):
        size = 1 + sum(_expanded_size(child, memo, depth + 1) for child in node.value)
    elif isinstance(node, yaml.MappingNode):
        size = 1 + sum(
            _expanded_size(k, memo, depth + 1) + _expanded_size(v, memo, depth + 1) for k, v in node.value
        )
    else:
        size = 1
    memo[key] = min(size, MAX_EXPANDED_NODES + 1)
    return memo[key]


def _collect_positions(node: yaml.Node, loc: tuple, out: dict[tuple, tuple[int, int]]) -> None:
    out.setdefault(loc, (node.start_mark.line + 1, node.start_mark.column + 1))
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            # Point at the key: "field: bad" is read from where the key stands.
            out[loc + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            _collect_positions(value_node, loc + (key,), out)
    elif isinstance(node, yaml.SequenceNode):
        for index, child in enumerate(node.value):
            _collect_positions(child, loc + (index,), out)


def load_yaml(path: Path, display: str | None = None) -> Located:
    display = display or str(path)
    text = read_text(path, display)
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise FileProblem(Problem(display, 1, 1, "", "file is empty"))
        if _expanded_size(node, {}) > MAX_EXPANDED_NODES:
            line = node.start_mark.line + 1
            raise FileProblem(Problem(
                display, line, 1, "",
                "YAML anchors/aliases expand to too many values (an alias bomb?); write the values out",
            ))
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = f"YAML syntax: {exc.problem or exc.context}"
        raise FileProblem(Problem(display, line, col, "", message)) from None
    except yaml.YAMLError as exc:
        raise FileProblem(Problem(display, 1, 1, "", f"YAML: {exc}")) from None
    finally:
        loader.dispose()
    positions: dict[tuple, tuple[int, int]] = {}
    _collect_positions(node, (), positions)
    return Located(data=data, positions=positions, path=display, text=text)


def load_jsonl(path: Path, display: str | None = None) -> Located:
    """One JSON object a line; blank lines and lines starting with # are skipped. Read a
    line at a time: memory holds the parsed cases, never the file's text."""
    display = display or str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise FileProblem(Problem(display, 1, 1, "", "file not found")) from None
    if size > MAX_JSONL_BYTES:
        raise FileProblem(Problem(display, 1, 1, "", f"file is {size / 1e9:.1f} GB; medsim reads JSONL case files "
                                  f"of at most {MAX_JSONL_BYTES // 1024 ** 3} GB (split it)"))
    items: list[Any] = []
    positions: dict[tuple, tuple[int, int]] = {(): (1, 1)}
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if len(raw) > MAX_LINE_BYTES:
                raise FileProblem(Problem(display, number, 1, "", f"line is {len(raw) / 1e6:.1f} MB; one case a line "
                                          f"may take at most {MAX_LINE_BYTES // 2**20} MB (is the file one JSON array "
                                          "rather than JSONL?)"))
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise FileProblem(Problem(
                    display, number, exc.start + 1, "",
                    f"byte 0x{raw[exc.start]:02x} is not UTF-8; save the file as UTF-8 (GBK/GB18030 files: "
                    "`iconv -f GB18030 -t UTF-8`)")) from None
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise FileProblem(Problem(display, number, exc.colno, "", f"JSON: {exc.msg}")) from None
            positions[(len(items),)] = (number, 1)
            items.append(item)
    return Located(data=items, positions=positions, path=display)
