"""Authoring commands that check a scenario's scoring: validity (can it be gamed?) and score
(what do the scorers give a fixed answer?). Registered by cli.lazy; heavy imports run inside."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("validity")
    def validity(
        scenarios: Annotated[list[str] | None, typer.Argument(help="Scenario ids or files (default: all bundled)")] = None,
        strategy: Annotated[list[str] | None, typer.Option("--strategy", "-s", help=(
            "Only these adversaries (refuse, alarm, dump, parrot, hedge, ask_all, constant, random, abstain, "
            "or NAME/VARIANT); repeatable"))] = None,
        seed: Annotated[int, typer.Option(help="Seed for option and step shuffles and the random strategy")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the table")] = False,
        variants: Annotated[bool, typer.Option("--variants", help="One row per variant, not per class")] = False,
        out: Annotated[Path | None, typer.Option(help="Also write the JSON report to this file")] = None,
        workers: Annotated[int, typer.Option(help="Processes to run strategies in (default: the CPU count)")] = 0,
    ) -> None:
        """Run clinicians that know no medicine (refuse, dump, hedge, parrot…) over scenarios next to the
        baseline and the reference; flag every score that needs no competence. Exit 1 when any is flagged."""
        import os

        from cli.validity_cmd import validity_command

        validity_command(scenarios or [], strategy, seed, as_json, variants, out, workers or os.cpu_count() or 1)
