"""Register the commands that live in their own modules, without importing them at start-up.

Each entry is (module, attribute, kind, name, help). A Typer sub-app must exist to be
registered, but importing a command module costs only typer (heavy imports inside its
functions), so start-up stays fast.
"""

from __future__ import annotations

import importlib

import typer

SUBAPPS = [
    ("cli.text_cmd", "app", "text", "Chinese clinical text tools: seg, ner, neg, deid."),
    ("cli.judge_cmd", "app", "judge", "Judge tools: calibrate a judge, agreement with physicians' labels."),
    ("cli.patient_cmd", "app", "patient", "The simulated patient on its own: calibrate it before use."),
    ("cli.import_cmd", "app", "import", "Import public benchmarks as medsim scenarios."),
    ("cli.patient_cmd", "app", "patient", "The simulated patient on its own: ask a case's patient questions."),
]


def register(app: typer.Typer) -> None:
    for module_name, attr, name, help_text in SUBAPPS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise  # a real bug inside the module: do not hide it
            continue  # that command module is not part of this build
        app.add_typer(getattr(module, attr), name=name, help=help_text)
    from cli import authoring, commands

    commands.register(app)
    authoring.register(app)
