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
        floors_out: Annotated[Path | None, typer.Option(help=(
            "Write each scenario's floors (best constant, chance, best adversary, baseline) to this JSON file; "
            "the bundled ones are scenarios/floors.json, shown beside every score in reports"))] = None,
    ) -> None:
        """Run clinicians that know no medicine (refuse, dump, hedge, parrot…) over scenarios next to the
        baseline and the reference; flag every score that needs no competence. Exit 1 when any is flagged."""
        import os

        from cli.validity_cmd import validity_command

        validity_command(scenarios or [], strategy, seed, as_json, variants, out, workers or os.cpu_count() or 1,
                         floors_out)

    @app.command("score")
    def score(
        scenario: Annotated[str, typer.Argument(help="Scenario id or file")],
        case_id: Annotated[str | None, typer.Option("--case", help="Case id (with --answer)")] = None,
        answer: Annotated[str | None, typer.Option(help="The answer: text, or a JSON object/list as the model would write it")] = None,
        answers: Annotated[Path | None, typer.Option(help=(
            "JSON Lines, one object a line with `case` and `answer` (optional `scorer`, `transcript`); "
            "- reads stdin. One JSON result a line"))] = None,
        transcript: Annotated[Path | None, typer.Option(help="JSON list of {speaker, text} turns before the answer")] = None,
        scorer: Annotated[str | None, typer.Option(help="Only this scorer of the scenario")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table")] = False,
        judge: Annotated[str | None, typer.Option(help=(
            "Grade checklist scorers with this judge model (a models.yaml name, or any name with --base-url); "
            "default: the offline rules"))] = None,
        base_url: Annotated[str | None, typer.Option(help="The judge's OpenAI-compatible endpoint")] = None,
        models_file: Annotated[str | None, typer.Option(help="models.yaml (default: ./models.yaml, ~/.config/medsim/)")] = None,
    ) -> None:
        """What the scenario's scorers give a fixed answer to one case — no model needed (a judge only with
        --judge). Options and steps are in the case file's order. Without --transcript the case's probe (or
        question) is the last patient turn."""
        from cli.score_cmd import score_command

        score_command(scenario, case_id, answer, answers, transcript, scorer, as_json, judge, base_url, models_file)
