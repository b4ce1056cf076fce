"""``medsim text seg|ner|neg|deid`` and ``medsim deid``: the text layer on a file or stdin.

Only typer is imported at module level (``medsim --help`` imports this module); medsim.text
and jieba load when a command runs. Every printed string from the input is escaped.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

FileArg = Annotated[str, typer.Argument(help="A UTF-8 text file, or - for stdin")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines instead of a table")]
BackendOpt = Annotated[str, typer.Option(help="Segmenter: jieba | pkuseg | spacy")]
LinesOpt = Annotated[bool, typer.Option(
    "--lines", help="One text per input line; one JSON array per output line, in order (for evaluation tools)")]

EXIT_USAGE = 2


_TEXT_NOT_FILE = ("FILE is a path; to give the text itself, pipe it and use - "
                  "(echo 患者否认胸痛 | medsim text neg -)")


def _fail(message: str, hint: str | None = None) -> None:
    from rich.console import Console
    from rich.markup import escape

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    err.print(f"[bold red]error:[/] {escape(message)}")
    if hint:
        err.print(f"[dim]hint:[/] {escape(hint)}")
    raise typer.Exit(EXIT_USAGE)


def _read(file: str) -> str:
    """The input text; a clear message and exit code 2 for a missing or non-UTF-8 file."""
    try:
        if file == "-":
            data = sys.stdin.buffer.read()
            where = "stdin"
        else:
            path = Path(file)
            if not path.is_file():
                _fail(f"file not found: {file}", _TEXT_NOT_FILE)
            data = path.read_bytes()
            where = file
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        from cli.errors import UTF8_HINT, not_utf8

        _fail(not_utf8(where, exc), UTF8_HINT)
    except OSError as exc:
        _fail(f"cannot read {file}: {exc.strerror or exc}")
    return ""  # unreachable


def _console():
    from rich.console import Console

    return Console(highlight=False)


def _esc(text: object) -> str:
    from rich.markup import escape

    # control characters would drive the terminal: show them as placeholders
    s = "".join(c if c.isprintable() or c in "\n\t" else "�" for c in str(text))
    return escape(s)


def _print_json(obj: object) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def _backend_guard(fn, *args):
    from medsim.text import BackendUnavailable

    try:
        return fn(*args)
    except BackendUnavailable as exc:
        _fail(str(exc))
    except ValueError as exc:
        _fail(str(exc))


@app.command("seg")
def seg(file: FileArg = "-", json_out: JsonOpt = False, backend: BackendOpt = "jieba", lines: LinesOpt = False) -> None:
    """Segment a text; doses, lab values, vitals, dates and durations stay whole."""
    from medsim.text import tokenize

    if lines:
        _lines(file, backend, _seg_rows)
        return
    text = _read(file)
    if json_out:
        _print_json(_backend_guard(_seg_rows, text, backend))
        return
    tokens = _backend_guard(tokenize, text, backend)
    from rich.table import Table

    shown = sum(1 for t in tokens if t.kind != "punct")
    table = Table("token", "kind", "start", "end",
                  title=f"{shown} tokens ({_esc(backend)}; punctuation not listed, --json has it)")
    for t in tokens:
        if t.kind != "punct":
            table.add_row(_esc(t.text), t.kind, str(t.start), str(t.end))
    _console().print(table)


def _seg_rows(text: str, backend: str) -> list[dict]:
    from medsim.text import tokenize

    return [{"text": t.text, "start": t.start, "end": t.end, "kind": t.kind, "norm": t.norm} for t in tokenize(text, backend)]


def _entity_dict(e) -> dict:
    return {
        "type": e.type, "text": e.text, "start": e.start, "end": e.end, "norm": e.norm, "value": e.value,
        "value2": e.value2, "unit": e.unit, "name": e.name, "laterality": e.laterality,
    }


def _lines(file: str, backend: str, one) -> None:
    """``--lines``: every input line analysed on its own (offsets within the line), one compact
    JSON array written and flushed per line, so a caller can stream texts through one process."""
    from medsim.text import BackendUnavailable

    if file == "-":
        stream, where = sys.stdin.buffer, "stdin"
    else:
        path = Path(file)
        if not path.is_file():
            _fail(f"file not found: {file}", _TEXT_NOT_FILE)
        try:
            stream, where = path.open("rb"), file
        except OSError as exc:
            _fail(f"cannot read {file}: {exc.strerror or exc}")
    out = sys.stdout
    for n, raw in enumerate(stream, 1):
        try:
            line = raw.decode("utf-8-sig" if n == 1 else "utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            _fail(f"{where}:{n}:{exc.start + 1}: byte 0x{raw[exc.start]:02x} is not UTF-8",
                  "save it as UTF-8 (GBK/GB18030 files: `iconv -f GB18030 -t UTF-8 FILE > NEW`)")
        try:
            rows = one(line, backend) if line.strip() else []
        except (BackendUnavailable, ValueError) as exc:
            _fail(str(exc))
        out.write(json.dumps(rows, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()


def _ner_rows(text: str, backend: str) -> list[dict]:
    from medsim.text import extract_entities

    return [_entity_dict(e) for e in extract_entities(text, backend)]


def _neg_rows(text: str, backend: str) -> list[dict]:
    from medsim.text import analyze

    return [
        {**_entity_dict(f.entity), "polarity": f.polarity, "owner": f.owner, "historical": f.historical, "cue": f.cue}
        for f in analyze(text, backend).findings
    ]


@app.command("ner")
def ner(file: FileArg = "-", json_out: JsonOpt = False, backend: BackendOpt = "jieba", lines: LinesOpt = False) -> None:
    """Clinical entities: diseases, symptoms, drugs, exams, lab values, vitals, doses…"""
    from medsim.text import extract_entities

    if lines:
        _lines(file, backend, _ner_rows)
        return
    text = _read(file)
    ents = _backend_guard(extract_entities, text, backend)
    if json_out:
        _print_json([_entity_dict(e) for e in ents])
        return
    from rich.table import Table

    table = Table("type", "text", "norm", "value", "unit", "side", "span", title=f"{len(ents)} entities")
    for e in ents:
        value = "" if e.value is None else (f"{e.value:g}" + (f"/{e.value2:g}" if e.value2 is not None else ""))
        table.add_row(e.type, _esc(e.text), _esc(e.name or e.norm), value, _esc(e.unit or ""), e.laterality or "",
                      f"{e.start}-{e.end}")
    _console().print(table)


@app.command("neg")
def neg(file: FileArg = "-", json_out: JsonOpt = False, backend: BackendOpt = "jieba", lines: LinesOpt = False) -> None:
    """Findings with polarity (present/absent/uncertain), owner and history."""
    from medsim.text import analyze

    if lines:
        _lines(file, backend, _neg_rows)
        return
    text = _read(file)
    if json_out:
        _print_json(_backend_guard(_neg_rows, text, backend))
        return
    analysis = _backend_guard(analyze, text, backend)
    from rich.table import Table

    colours = {"present": "green", "absent": "red", "uncertain": "yellow"}
    table = Table("finding", "type", "polarity", "owner", "history", "cue", title=f"{len(analysis.findings)} findings")
    for f in analysis.findings:
        table.add_row(_esc(f.entity.text) + (f" → {_esc(f.entity.norm)}" if f.entity.norm != f.entity.text else ""),
                      f.entity.type, f"[{colours[f.polarity]}]{f.polarity}[/]", f.owner, "yes" if f.historical else "",
                      _esc(f.cue or ""))
    _console().print(table)


def _deid_report(result, source: str) -> dict:
    from collections import Counter

    counts = Counter(r.kind for r in result.replacements)
    return {
        "source": source,
        "counts": dict(sorted(counts.items())),
        "replacements": [
            {"kind": r.kind, "original": r.original, "replacement": r.replacement, "start": r.start, "end": r.end}
            for r in result.replacements
        ],
    }


@app.command("deid")
def deid(
    file: FileArg = "-",
    json_out: JsonOpt = False,
    seed: Annotated[int, typer.Option(help="Seed for surrogates and the date shift")] = 0,
) -> None:
    """Show what de-identification would replace (use `medsim deid` to write files)."""
    from medsim.text import deidentify

    text = _read(file)
    result = deidentify(text, seed=seed)
    if json_out:
        _print_json({"text": result.text, **_deid_report(result, file)})
        return
    from rich.table import Table

    table = Table("kind", "original", "replacement", "span", title=f"{len(result.replacements)} replacements")
    for r in result.replacements:
        table.add_row(r.kind, _esc(r.original), _esc(r.replacement), f"{r.start}-{r.end}")
    console = _console()
    console.print(table)
    console.print(_esc(result.text))


def deid_command(file: str, out: Path | None, report: Path | None, seed: int = 0) -> None:
    """``medsim deid FILE [--out F] [--report F]``: de-identified text and a JSON report."""
    from medsim.text import deidentify

    text = _read(str(file))
    result = deidentify(text, seed=seed)
    rep = _deid_report(result, str(file))
    try:
        if out is not None:
            Path(out).write_text(result.text, encoding="utf-8")
        else:
            sys.stdout.write(result.text)
            if not result.text.endswith("\n"):
                sys.stdout.write("\n")
        if report is not None:
            Path(report).write_text(json.dumps(rep, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write output: {exc.strerror or exc} ({exc.filename})")
    summary = ", ".join(f"{k} {v}" for k, v in rep["counts"].items()) or "nothing found"
    from rich.console import Console

    Console(stderr=True, highlight=False).print(f"[dim]de-identified: {_esc(summary)}[/]")
