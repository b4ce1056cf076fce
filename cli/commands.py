"""Commands for running, playing, checking and reporting (registered by cli.lazy)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    pass
