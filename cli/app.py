"""The ``medsim`` command: parses arguments, calls the library, renders with rich.

Start-up matters (``medsim --help`` is typed often): command modules are imported only when
their command runs, so jieba, spaCy and openai stay unloaded for --help and list.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer


def _flags_take_no_value() -> None:
    """Typer's help shows a type for every option, so a flag reads `--no-cache <bool>` as if it
    wanted a value. A flag takes none: show none."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich

    def display_type_rich(self, ctx):  # type: ignore[no-untyped-def]
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_take_no_value()

app = typer.Typer(
    name="medsim",
    help="Evaluate large language models in Chinese clinical work (medsim 中文临床大模型评测).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        import medsim

        print(f"medsim {medsim.__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="Print the version and exit")] = False) -> None:
    """Evaluate large language models in Chinese clinical work (medsim 中文临床大模型评测)."""


# ------------------------------------------------------------------ scenarios

@app.command("validate")
def validate(
    paths: Annotated[list[Path] | None, typer.Argument(help="Scenario files or folders (default: all bundled)")] = None,
    phi: Annotated[bool, typer.Option(help="Warn when a case looks like it still holds PHI")] = True,
) -> None:
    """Check scenario and case files; print file:line:col: field: message for each problem."""
    from cli.scenario_cmds import validate_command

    validate_command(paths or [], phi=phi)


@app.command("list")
def list_scenarios() -> None:
    """List the bundled scenarios: id, 中文名, dimension, kind, cases."""
    from cli.scenario_cmds import list_command

    list_command()


@app.command("show")
def show(scenario: Annotated[str, typer.Argument(help="Scenario id or file")],
         case: Annotated[str | None, typer.Option(help="Show this case instead of the first")] = None) -> None:
    """Show a scenario readably, with a sample case."""
    from cli.scenario_cmds import show_command

    show_command(scenario, case)


@app.command("new")
def new(
    scenario_id: Annotated[str, typer.Argument(help="Id of the new scenario (lower case, a-z0-9_)")],
    kind: Annotated[str, typer.Option(help="dialogue | single_turn | staged")] = "dialogue",
    directory: Annotated[Path, typer.Option("--dir", help="Folder to write into")] = Path("."),
) -> None:
    """Write a scenario scaffold (and its case file) that validates as written."""
    from cli.scenario_cmds import new_command

    new_command(scenario_id, kind, directory)


@app.command("schema")
def schema(
    out: Annotated[Path | None, typer.Option(help="Folder to write the JSON Schemas to")] = None,
    check: Annotated[bool, typer.Option(help="Exit 1 if the committed schemas differ from the models")] = False,
) -> None:
    """Export the JSON Schema of scenario, case and taxonomy files."""
    from cli.scenario_cmds import schema_command

    schema_command(out, check)


# ------------------------------------------------------------------- sub-apps

def _add_optional_commands() -> None:
    """Commands whose modules are written by other parts of the project, registered lazily."""
    from cli import lazy

    lazy.register(app)


_add_optional_commands()


def main() -> None:
    """Entry point: every error a user can cause ends in a message and exit code, not a traceback."""
    from cli.console import EXIT_USAGE, err_console
    from cli.safe import safe

    try:
        app(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted[/]")
        sys.exit(130)
    except Exception as exc:  # the last line of defence; MEDSIM_DEBUG=1 shows the traceback
        if os.environ.get("MEDSIM_DEBUG"):
            raise
        from cli.errors import describe

        message, hint = describe(exc)
        err_console.print(f"[bold red]error:[/] {safe(message)}")
        if hint:
            err_console.print(f"[dim]hint:[/] {safe(hint)}")
        sys.exit(EXIT_USAGE)


if __name__ == "__main__":
    main()
