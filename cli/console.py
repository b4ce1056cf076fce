"""The one rich Console the CLI prints through, and the exit codes it uses."""

from __future__ import annotations

import os
import sys

from rich.console import Console

EXIT_OK = 0
EXIT_FAIL = 1  # the job ran and found something (e.g. a stale schema)
EXIT_USAGE = 2  # bad input: file, flag or id
EXIT_STOPPED = 75  # stopped by the environment (endpoint down, disk full): resumable (sysexits EX_TEMPFAIL)

# Piped or captured output gets a wide console (rich would use 80 columns) so tables stay
# readable in logs; COLUMNS still wins when set.
_WIDTH = None if sys.stdout.isatty() or "COLUMNS" in os.environ else 160
console = Console(highlight=False, width=_WIDTH)
# soft_wrap: a problem line stays one line, so editors and grep can jump to file:line:col.
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, *, hint: str | None = None, code: int = EXIT_USAGE) -> None:
    """Print a clear error (what, and how to fix it) and exit without a traceback."""
    from cli.safe import safe

    err_console.print(f"[bold red]error:[/] {safe(message)}")
    if hint:
        err_console.print(f"[dim]hint:[/] {safe(hint)}")
    sys.exit(code)


def fail_no_case(case_id: str, where: str, ids: list[str], *, show: str | None = None, prefix: str = "") -> None:
    """No case ``case_id`` in ``where`` (a scenario or a file): the likely meant ids, and where to see them all."""
    from medsim.scenario.registry import similar_ids

    close = similar_ids(case_id, ids)
    listed = ", ".join(ids[:8]) + (" …" if len(ids) > 8 else "")
    hint = ("did you mean " + " or ".join(close) + "? " if close else "") + \
        (f"`medsim show {show}` lists its cases ({listed})" if show else f"its cases: {listed}")
    fail(f"{prefix}no case {case_id!r} in {where}", hint=hint)
