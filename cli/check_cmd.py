"""``medsim check --case CASE --text FILE [--json]``: a text held against a case record.

CASE is a bundled case id (``--scenario`` narrows the search), a case file (YAML/JSONL; ``FILE#id``
picks a case), or a plain-text record (a raw 病历 with 主诉：现病史：… headings). The text's claims
are printed with their spans highlighted; every string that came from a file or a model is escaped.
Exit status: 0 when every claim is supported, 1 when something is contradicted, mismatched or
unsupported, 2 on bad input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

STATUS_STYLE = {"supported": "green", "contradicted": "bold red", "value_mismatch": "bold magenta",
                "unsupported": "yellow"}
STATUS_ZH = {"supported": "一致", "contradicted": "矛盾", "value_mismatch": "数值不符", "unsupported": "无依据"}


def _read_text(path: str) -> str:
    from cli.console import fail

    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        return data.decode("utf-8-sig")
    except FileNotFoundError:
        fail(f"file not found: {path}", hint="give the text to check as a UTF-8 file, or - for stdin")
    except UnicodeDecodeError as exc:
        from cli.errors import UTF8_HINT, not_utf8

        fail(not_utf8("stdin" if path == "-" else path, exc), hint=UTF8_HINT)
    raise AssertionError("unreachable")


def resolve_case(spec: str, scenario: str | None = None):
    """A Case from a bundled id, a case file (``FILE#id``) or a plain-text record."""
    from cli.console import fail, fail_no_case

    path_part, _, wanted = spec.partition("#")
    path = Path(path_part)
    if path.is_file():
        if path.suffix in {".yaml", ".yml", ".jsonl"}:
            from medsim.scenario.load import load_case_file

            cases, _source, problems, _ = load_case_file(path)
            if problems and not cases:
                fail(f"{problems[0]}", hint=f"run `medsim validate {path}`")
            if wanted:
                match = [c for c in cases if c.id == wanted]
                if not match:
                    fail_no_case(wanted, str(path), [c.id for c in cases])
                return match[0]
            if len(cases) != 1:
                fail(f"{path} holds {len(cases)} cases", hint=f"pick one: {path}#{cases[0].id if cases else 'ID'}")
            return cases[0]
        from medsim.facts.record_parse import parse_record

        return parse_record(_read_text(str(path)), case_id=path.stem.replace(" ", "_") or "record",
                            source=f"plain-text record {path.name}")
    if scenario:
        from medsim.scenario.registry import get_scenario

        loaded = get_scenario(scenario)
        for case in loaded.cases:
            if case.id == spec:
                return case
        fail_no_case(spec, f"scenario {scenario}", [c.id for c in loaded.cases], show=scenario)
    from medsim.scenario.registry import find_case

    try:
        return find_case(spec)[1]
    except LookupError as exc:  # UnknownName: its message lists every id, so say it shortly
        close = getattr(exc, "suggestions", None) or []
        hint = ("did you mean " + " or ".join(close) + "? " if close else "") + \
            "CASE is a bundled case id, a case file (FILE#id) or a plain-text 病历 file"
        fail(f"no bundled case, case file or record file called {spec!r}", hint=hint)
        raise


def _highlighted(text: str, findings):
    from rich.text import Text

    from cli.safe import plain

    body = Text(plain(text))  # plain() keeps length, so spans stay valid; Text is never parsed as markup
    for f in findings:
        body.stylize(f"{STATUS_STYLE[f.status]} underline", *f.span)
    return body


def render(case, text: str, report) -> None:
    from rich.panel import Panel
    from rich.table import Table

    from cli.console import console
    from cli.safe import safe

    counts = report.counts
    console.print(
        f"[bold]case[/] {safe(case.id)}   [bold]consistency[/] {report.score:.2f}   "
        + "  ".join(f"[{STATUS_STYLE[s]}]{STATUS_ZH[s]} {counts.get(s, 0)}[/]" for s in STATUS_STYLE)
        + f"   [dim]omissions {counts.get('omission', 0)}, not checked {report.skipped}[/]"
    )
    console.print(Panel(_highlighted(text, report.findings), title="text", title_align="left"))
    if report.findings:
        table = Table(show_lines=False, expand=True)
        for col in ("status", "kind", "claim", "record evidence", "reason"):
            table.add_column(col, overflow="fold")
        order = {"contradicted": 0, "value_mismatch": 1, "unsupported": 2, "supported": 3}
        for f in sorted(report.findings, key=lambda f: (order[f.status], f.span)):
            table.add_row(
                f"[{STATUS_STYLE[f.status]}]{STATUS_ZH[f.status]}[/]", safe(f.kind),
                f"{safe(f.text)} [dim]@{f.span[0]}[/]", safe(f.evidence_text) or "[dim]—[/]",
                f"{safe(f.reason_zh)}\n[dim]{safe(f.reason_en)}[/]",
            )
        console.print(table)
    if report.not_checked:
        # what the checker saw but did not hold against the record, and why: a count alone hides it
        table = Table(title="未核查 / not checked", title_justify="left", show_lines=False, expand=True)
        for col in ("kind", "claim", "why not checked"):
            table.add_column(col, overflow="fold")
        for n in report.not_checked:
            table.add_row(safe(n.kind), f"{safe(n.text)} [dim]@{n.span[0]}[/]",
                          f"{safe(n.reason_zh)}\n[dim]{safe(n.reason_en)}[/]")
        console.print(table)
    for m in report.omissions:
        console.print(f"[yellow]遗漏[/] {safe(m.key_fact)}  [dim]{safe(m.reason_en)}[/]")


def check_command(case: str, text: str, json_out: bool, scenario: str | None) -> None:
    """Check the claims in TEXT against CASE; print findings (or JSON) and exit 0/1."""
    from cli.console import EXIT_FAIL, fail
    from cli.errors import describe

    try:
        the_case = resolve_case(case, scenario)
        body = _read_text(text)
        from medsim.facts import check

        report = check(the_case, body)
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - every user-caused error becomes a message, not a traceback
        message, hint = describe(exc)
        fail(message, hint=hint)
        return
    if json_out:
        out = {"case": the_case.id, **report.to_dict()}
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    else:
        render(the_case, body, report)
    if report.problems():
        sys.exit(EXIT_FAIL)
