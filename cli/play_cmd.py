"""``medsim play``: one episode in the terminal, the same code path as a batch run.

Patient, clinician and oracle turns are told apart by colour and label; a model's tokens are
printed as they stream in; a status line after each turn gives turn, elapsed time and tokens, and in
a dialogue how many questions are left (orders and examinations do not use the question budget).
Everything a model or a case says is escaped before it reaches the terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import threading
import time
from pathlib import Path

from rich.panel import Panel
from rich.table import Table

from cli.console import EXIT_FAIL, console, fail, fail_no_case
from cli.endpoints import check_endpoints, service_models
from cli.safe import plain, safe
from medsim.sim.transcript import Turn

STYLES = {
    "patient": ("患者", "green"),
    "clinician": ("医生", "cyan"),
    "oracle": ("检查结果", "magenta"),
    "stage": ("病历", "yellow"),
    "system": ("系统", "dim"),
}


class TerminalIO:
    """The human clinician's keyboard."""

    async def ask(self, prompt: str) -> str:
        # A daemon thread rather than asyncio.to_thread: on Ctrl-C the event loop must not wait
        # for a blocked input() to return before it can shut down.
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str] = loop.create_future()

        def deliver(setter, value) -> None:
            if not answer.done():
                setter(value)

        def read() -> None:
            try:
                line = console.input(f"[bold cyan]{safe(prompt)}[/]")
            except EOFError:
                line = "/quit"
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting coroutine
                with contextlib.suppress(RuntimeError):  # the loop may already be closed
                    loop.call_soon_threadsafe(deliver, answer.set_exception, exc)
                return
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(deliver, answer.set_result, line)

        threading.Thread(target=read, daemon=True).start()
        return await answer

    def tell(self, text: str) -> None:
        console.print(f"[dim]{safe(text)}[/]")


class PlayView:
    def __init__(self, human: bool):
        self.human = human
        self.started = time.monotonic()
        self.streaming = False
        self.tokens = 0
        self.clinician_turns = 0
        self.left: tuple[int, int] | None = None  # questions left, budget (dialogue scenarios)

    def on_call_start(self, role: str) -> None:
        if role == "clinician" and not self.human:
            label, colour = STYLES["clinician"]
            console.print(f"[bold {colour}]{label}[/] ", end="")
            self.streaming = True

    def on_token(self, text: str) -> None:
        if self.streaming and not self.human:
            console.print(plain(text), end="", markup=False, highlight=False, soft_wrap=True)

    def on_turn(self, turn: Turn) -> None:
        label, colour = STYLES.get(turn.speaker, (turn.speaker, "white"))
        if turn.speaker == "clinician":
            self.clinician_turns += 1
            self.tokens += int(turn.meta.get("tokens") or 0)
            if self.streaming:
                console.print()
                self.streaming = False
            elif not self.human:
                console.print(f"[bold {colour}]{label}[/] {safe(turn.text)}")
            if self.left is None:
                self.status()  # in a dialogue the status follows the replies (on_budget)
            return
        if turn.speaker == "system" and turn.index == 0:
            console.print(Panel(safe(turn.text), title="题目", border_style=colour))
            return
        console.print(f"[bold {colour}]{label}[/] {safe(turn.text)}")

    def on_budget(self, left: int, budget: int) -> None:
        self.left = (left, budget)
        self.status()

    def status(self) -> None:
        questions = ""
        if self.left is not None:
            questions = f" · 问诊还剩 {self.left[0]}/{self.left[1]} 轮（查体、开检查不计）"
        console.print(f"[dim]— turn {self.clinician_turns}{questions} · {time.monotonic() - self.started:.1f}s · "
                      f"{self.tokens} tokens —[/]")


def _score_card(record, case) -> None:
    table = Table(title="score card", header_style="bold")
    for column in ("scorer", "score", "weight", "why"):
        table.add_column(column)
    for row in record.scores:
        value = "—" if row["value"] is None else f"{row['value']:.2f}"
        why = "; ".join(row["reasons"][:3]) or (row["error"] or "")
        table.add_row(safe(row["scorer"]), value, f"{row['weight']:g}", safe(why))
    console.print(table)
    item = "—" if record.item_score is None else f"{record.item_score:.3f}"
    console.print(f"[bold]item score {item}[/]  (case {safe(case.id)}; gold {safe(case.gold)})")
    for row in record.scores:
        findings = row["details"].get("findings") if isinstance(row["details"], dict) else None
        for finding in (findings or [])[:10]:
            if finding.get("status") in {"contradicted", "value_mismatch", "unsupported"}:
                console.print(f"[red]✗ {safe(finding.get('status'))}[/] [reverse]{safe(finding.get('text', ''))}[/] "
                              f"— {safe(finding.get('reason_zh') or finding.get('reason', ''))}")


def play_command(scenario_id: str, model: str, case_id: str | None, base_url: str | None, models_file: str | None,
                 patient: str, seed: int, db: Path, judge: str | None, temperature: float | None = None) -> None:
    from medsim.runner import RunConfig, make_services, open_store, run_item, start_run
    from medsim.scenario.registry import get_scenario
    from medsim.sim.episode import Hooks, QuitEpisode

    loaded = get_scenario(scenario_id)
    if case_id:
        try:
            case = loaded.case(case_id)
        except KeyError:
            fail_no_case(case_id, f"scenario {loaded.scenario.id}", [c.id for c in loaded.cases],
                         show=loaded.scenario.id)
    else:
        case = random.Random(seed).choice(loaded.cases)
    if temperature is not None and not 0 <= temperature <= 2:
        fail(f"--temperature {temperature}: give a value from 0 to 2")
    human = model == "human"
    # the same config as a batch run: the clinician's temperature resolves (and is stored) the
    # same way, so a case scores alike in play and in `medsim run`
    config = RunConfig(scenarios=[str(loaded.path)], model=model, base_url=base_url, models_file=models_file,
                       judge=judge, patient=patient, concurrency=1, seed=seed, temperature=temperature)
    store = open_store(db)
    services = make_services(config, store, human_io=TerminalIO() if human else None)
    config.limit = None
    check_endpoints(service_models(config, services))  # a dead URL is said before the session starts
    # the run stored for a session plans its one case, so `show-run` reads 1/1, not 1 of the scenario's cases
    run_id = start_run(store, config, [dataclasses.replace(loaded, cases=[case])],
                       {"name": model, "mode": "play", "case": case.id})
    s = loaded.scenario
    # No department in the header: in triage and consultation it is part of the graded answer.
    console.print(Panel(f"[bold]{safe(s.name)}[/] ({safe(s.name_en)}) · case {safe(case.id)}"
                        f"\nclinician: {safe(model)} · patient: {safe(patient)} · "
                        f"run {safe(run_id)}", title="medsim play"))
    if human:
        from medsim.models.human import HELP

        console.print(f"[dim]{safe(s.clinician.instructions.strip())}[/]")
        console.print(f"[dim]{safe(HELP)}[/]")
    view = PlayView(human)
    if s.kind == "dialogue":
        view.left = (s.clinician.max_turns, s.clinician.max_turns)
        if human:
            console.print(f"[dim]问诊最多 {s.clinician.max_turns} 轮提问；/exam 与 /order 不占提问轮数。[/]")
    hooks = Hooks(on_turn=view.on_turn, on_token=view.on_token, on_call_start=view.on_call_start,
                  on_budget=view.on_budget)
    try:
        record = asyncio.run(run_item(run_id, loaded, case, 0, config, services, store, hooks=hooks))
    except QuitEpisode:
        services.close()
        store.set_run_status(run_id, "interrupted")
        console.print("[yellow]left the session[/]; nothing was scored")
        return
    except KeyboardInterrupt:
        services.close()
        store.set_run_status(run_id, "interrupted")
        console.print("\n[yellow]interrupted[/]; nothing was scored")
        raise SystemExit(130) from None
    services.close()
    store.set_run_status(run_id, "done")
    if record.error:
        console.print(f"[red]the episode ended with an error[/]: {safe(record.error)} (recorded, not scored)")
    else:
        _score_card(record, case)
    console.print(f"saved as run [bold]{safe(run_id)}[/] in {safe(db)}; `medsim report {safe(run_id)} --db {safe(db)}`")
    if record.error:
        raise SystemExit(EXIT_FAIL)  # exit 0 is a session that was scored
