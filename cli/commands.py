"""Commands for running, playing, checking and reporting (registered by cli.lazy).

Each command imports its module only when it runs, so ``medsim --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DB_HELP = "The run store (SQLite file)"
Db = Annotated[Path, typer.Option("--db", help=DB_HELP)]
DEFAULT_DB = Path("medsim-runs.sqlite")
Model = Annotated[str | None, typer.Option("--model", "-m", help="baseline | reference | human | scripted:FILE | "
                                                                   "a models.yaml name | any name with --base-url")]
BaseUrl = Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1")]
ModelsFile = Annotated[str | None, typer.Option(help="models.yaml (default: ./models.yaml, ~/.config/medsim/)")]
Patient = Annotated[str, typer.Option(help="Patient simulator: rule | llm:MODEL")]
Seed = Annotated[int, typer.Option(help="Seed for the patient, option and step shuffles")]
TaxonomyOpt = Annotated[str, typer.Option(help="climedbench | mlb | llmeval")]


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        scenarios: Annotated[list[str] | None, typer.Argument(help="Scenario ids or files, or `all`")] = None,
        model: Model = None,
        base_url: BaseUrl = None,
        models_file: ModelsFile = None,
        judge: Annotated[str | None, typer.Option(help="Judge model for checklist scoring")] = None,
        embedder: Annotated[str | None, typer.Option(help="Embeddings model for the similarity scorer")] = None,
        patient: Annotated[str | None, typer.Option(help="Patient simulator: rule | llm:MODEL (default rule)")] = None,
        concurrency: Annotated[int | None, typer.Option(help="Episodes in flight at once (default 8)")] = None,
        limit: Annotated[int | None, typer.Option(help="At most N cases per scenario")] = None,
        repeats: Annotated[int | None, typer.Option(help="Run each case K times (default 1)")] = None,
        seed: Annotated[int | None, typer.Option(help="Seed for the patient, option and step shuffles (default 0)")] = None,
        db: Db = DEFAULT_DB,
        resume: Annotated[str | None, typer.Option(help="Finish an interrupted run (its id) with its stored settings")] = None,
        no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not reuse cached model responses")] = False,
        taxonomy: TaxonomyOpt = "climedbench",
        temperature: Annotated[float | None, typer.Option(
            help="Clinician sampling temperature (default: models.yaml's, else 0)")] = None,
        max_tokens: Annotated[int | None, typer.Option(
            help="Max tokens per clinician reply (default: models.yaml's, else 2048 a dialogue turn, 4096 otherwise)")] = None,
        timeout: Annotated[float | None, typer.Option(
            help="Seconds one whole reply may take, per attempt (default 600)")] = None,
        idle_timeout: Annotated[float | None, typer.Option(
            help="Seconds without a byte, once a reply has begun, before an attempt is given up (default 60; 0: off)")] = None,
        first_byte_timeout: Annotated[float | None, typer.Option(
            help="Seconds an attempt may wait for its first byte while the server reads the prompt "
                 "(default 300, never less than --idle-timeout; 0: off)")] = None,
        max_attempts: Annotated[int | None, typer.Option(help="Attempts per model call (default 4)")] = None,
        stop_after: Annotated[float | None, typer.Option(
            help="Stop the run, resumably, when an endpoint fails every attempt this many seconds (default 120; 0: never)")] = None,
    ) -> None:
        """Run scenarios against a model; store every transcript and score; print the scores."""
        from cli.run_cmd import run_command

        run_command(scenarios or [], model=model, base_url=base_url, models_file=models_file, judge=judge,
                    embedder=embedder, patient=patient, concurrency=concurrency, limit=limit, repeats=repeats,
                    seed=seed, db=db, resume=resume, no_cache=no_cache, taxonomy=taxonomy, temperature=temperature,
                    max_tokens=max_tokens, timeout=timeout, idle_timeout=idle_timeout, max_attempts=max_attempts,
                    stop_after=stop_after, first_byte_timeout=first_byte_timeout)

    @app.command("runs")
    def runs(db: Db = DEFAULT_DB) -> None:
        """List the runs in a store."""
        from cli.run_cmd import runs_command

        runs_command(db)

    @app.command("show-run")
    def show_run(run_id: Annotated[str | None, typer.Argument(help="Run id or a unique part of it (default: the latest run)")] = None,
                 db: Db = DEFAULT_DB, taxonomy: TaxonomyOpt = "climedbench",
                 items: Annotated[bool, typer.Option("--items", help="One line per item: score and why")] = False,
                 scenario: Annotated[str | None, typer.Option(help="Only this scenario's items")] = None) -> None:
        """Show one stored run: its settings and scores (and each item with --items)."""
        from cli.run_cmd import show_run_command

        show_run_command(run_id, db, taxonomy, items, scenario)

    @app.command("play")
    def play(
        scenario: Annotated[str, typer.Argument(help="Scenario id or file")],
        model: Model = "human",
        case: Annotated[str | None, typer.Option(help="Case id (default: a random case for the seed)")] = None,
        base_url: BaseUrl = None,
        models_file: ModelsFile = None,
        patient: Patient = "rule",
        seed: Seed = 0,
        db: Db = DEFAULT_DB,
        judge: Annotated[str | None, typer.Option(help="Judge model for checklist scoring")] = None,
        temperature: Annotated[float | None, typer.Option(
            help="Clinician sampling temperature (default: models.yaml's, else 0, as in run)")] = None,
    ) -> None:
        """An interactive session: watch a model work a case turn by turn, or take the clinician's seat."""
        from cli.play_cmd import play_command

        play_command(scenario, model, case, base_url, models_file, patient, seed, db, judge, temperature)

    @app.command("check")
    def check(
        case: Annotated[str, typer.Option("--case", help="A bundled case id, a case file (FILE#id), or a plain-text 病历 file")],
        text: Annotated[Path, typer.Option("--text", help="The text to check (a file, or - for stdin)")],
        json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output")] = False,
        scenario: Annotated[str | None, typer.Option(help="Look the case id up in this scenario")] = None,
    ) -> None:
        """Check a text against a case record: supported, contradicted, value mismatch, unsupported.

        Exits 1 when any finding is a problem (a claim contradicted, a wrong value, a claim the record
        does not hold, a key fact left out), 0 when there is none."""
        from cli.check_cmd import check_command

        check_command(case, str(text), json_out, scenario)

    @app.command("deid")
    def deid(
        file: Annotated[str, typer.Argument(help="A text file, or - for stdin")],
        out: Annotated[Path | None, typer.Option(help="Write the de-identified text here (default: stdout)")] = None,
        report: Annotated[Path | None, typer.Option(help="Write a JSON report of what was replaced")] = None,
    ) -> None:
        """De-identify a Chinese clinical record (names, ID numbers, phones, addresses, dates…)."""
        from cli.text_cmd import deid_command

        deid_command(file, out, report)

    @app.command("report")
    def report(
        run_id: Annotated[str | None, typer.Argument(help="Run id (default: the latest run)")] = None,
        db: Db = DEFAULT_DB,
        format: Annotated[str, typer.Option("--format", "-f", help="table | json | csv | md | html")] = "table",
        out: Annotated[Path | None, typer.Option(help="Write to this file (html defaults to RUN.html)")] = None,
        taxonomy: TaxonomyOpt = "climedbench",
    ) -> None:
        """Report a run: scenario and dimension scores with CIs, errors, tokens, cost, latency."""
        from cli.report_cmd import report_command

        report_command(run_id, db, format, out, taxonomy)

    @app.command("compare")
    def compare(
        run_ids: Annotated[list[str], typer.Argument(help="Two or more run ids")],
        db: Db = DEFAULT_DB,
        taxonomy: TaxonomyOpt = "climedbench",
        force: Annotated[bool, typer.Option("--force", help="Rank runs even when they scored different items")] = False,
    ) -> None:
        """A leaderboard of runs with paired differences and what they allow one to say."""
        from cli.report_cmd import compare_command

        compare_command(run_ids, db, taxonomy, force)
