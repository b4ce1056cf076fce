"""``medsim patient``: the simulated patient on its own, without a clinician.

(Minimal in this branch: the patient engineer's branch defines this group with ``ask``; the
lead reconciles the two at merge. ``calibrate`` lives in cli/patient_calibrate_cmd.py.)
"""

from __future__ import annotations

import typer

from cli.patient_calibrate_cmd import calibrate_command

app = typer.Typer(no_args_is_help=True)
app.command("calibrate")(calibrate_command)
