"""Make untrusted text (model output, case files, user input) safe to print in a terminal.

Model text must never drive the terminal: rich markup is escaped and control characters —
ANSI escape sequences, OSC hyperlinks, bells, carriage returns that overwrite a line — are
replaced by a visible placeholder.
"""

from __future__ import annotations

import re

from rich.markup import escape

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def plain(text: object) -> str:
    """Control characters removed (shown as ␛-like placeholders), markup NOT escaped."""
    return _CONTROL.sub(lambda m: "␛" if m.group() == "\x1b" else "�", str(text))


def safe(text: object) -> str:
    """For rich markup strings: control characters removed and markup escaped."""
    return escape(plain(text))
