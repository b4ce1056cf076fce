"""Compose episode -> scorers -> store for every item of a run, many at once.

``medsim run`` and ``medsim play`` share this path: ``run_item`` is one item from episode to
stored scores; ``execute_run`` plans the items of a run (or what a resumed run still lacks)
and drives a fixed pool of workers over them, so a 30,000-item run holds only
``concurrency`` episodes in memory at a time.

A run stops early, resumably, for reasons outside medsim: Ctrl-C (the workers yield after
every item, so even an offline run hears it at once), an endpoint whose breaker opened
(every attempt failing for a while), or a store that cannot be written (disk full). What
finished is saved; what was in flight is dropped and redone by ``--resume``.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import medsim
from medsim.models import health as endpoint_health
from medsim.models.base import ChatModel
from medsim.scenario.load import LoadedScenario
from medsim.scenario.registry import get_scenario, scenario_ids
from medsim.scoring.aggregate import item_score
from medsim.scoring.base import Score, ScoreInput, get_scorer
from medsim.sim.episode import EpisodeResult, EpisodeSettings, Hooks, run_episode
from medsim.store.db import HEARTBEAT_S, EpisodeRecord, Store, StoreError

DEFAULT_DB = Path("medsim-runs.sqlite")
DEFAULT_CONCURRENCY = 8
# The clinician samples greedily unless told otherwise (--temperature, or models.yaml), so a
# case scores the same in `play` and in a batch run. Stored with the run.
DEFAULT_TEMPERATURE = 0.0
# Per-reply token caps by scenario kind, unless --max-tokens or models.yaml says otherwise: room
# for reasoning before the answer, not for a model that never stops.
DEFAULT_MAX_TOKENS = {"dialogue": 2048, "single_turn": 4096, "staged": 4096}


class RunStopped(Exception):
    """The run stopped before its end for a reason outside medsim; what finished is saved
    and ``medsim run --resume`` continues from there."""

    def __init__(self, reason: str, hint: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.hint = hint


@dataclass
class RunConfig:
    scenarios: list[str]
    model: str
    base_url: str | None = None
    models_file: str | None = None
    judge: str | None = None
    embedder: str | None = None
    patient: str = "rule"
    concurrency: int = DEFAULT_CONCURRENCY
    limit: int | None = None
    repeats: int = 1
    seed: int = 0
    temperature: float | None = None  # None: models.yaml's, else DEFAULT_TEMPERATURE (resolved at start)
    max_tokens: int | None = None  # None: models.yaml's, else DEFAULT_MAX_TOKENS by kind
    cache: bool = True
    # how calls are made (never what they score): a resume may change these
    timeout_s: float | None = None
    idle_timeout_s: float | None = None
    first_byte_timeout_s: float | None = None
    max_attempts: int | None = None
    stop_after_s: float | None = None

    def storable(self) -> dict[str, Any]:
        """The config as stored with the run. Keys come only from the environment, never from
        here, so nothing secret is in it; URLs lose any user:password part."""
        data = asdict(self)
        for name in ("base_url",):
            if data[name] and "@" in data[name]:
                scheme, _, rest = data[name].partition("://")
                data[name] = f"{scheme}://{rest.split('@', 1)[1]}"
        return data


# Settings that decide how calls are made, not what is scored: `--resume` may be given new
# values for these (and says so). Every other setting is the run's and cannot change.
OPERATIONAL = ("concurrency", "cache", "timeout_s", "idle_timeout_s", "first_byte_timeout_s", "max_attempts",
               "stop_after_s",
               "base_url", "models_file")
FLAGS = {"scenarios": "SCENARIO…", "model": "--model", "base_url": "--base-url", "models_file": "--models-file",
         "judge": "--judge", "embedder": "--embedder", "patient": "--patient", "concurrency": "--concurrency",
         "limit": "--limit", "repeats": "--repeats", "seed": "--seed", "temperature": "--temperature",
         "max_tokens": "--max-tokens", "cache": "--no-cache", "timeout_s": "--timeout",
         "idle_timeout_s": "--idle-timeout", "first_byte_timeout_s": "--first-byte-timeout",
         "max_attempts": "--max-attempts", "stop_after_s": "--stop-after"}


def call_overrides(config: RunConfig) -> dict[str, Any]:
    """The command line's timeouts and attempts, for every model the run resolves."""
    return {k: getattr(config, k) for k in ("timeout_s", "idle_timeout_s", "first_byte_timeout_s", "max_attempts",
                                            "stop_after_s")
            if getattr(config, k) is not None}


def temperature_for(config: RunConfig, clinician: Any) -> float:
    if config.temperature is not None:
        return config.temperature
    own = getattr(clinician, "temperature", None)
    return DEFAULT_TEMPERATURE if own is None else float(own)


def max_tokens_for(loaded: LoadedScenario, config: RunConfig, clinician: Any) -> int:
    own = getattr(clinician, "max_tokens", None)
    return config.max_tokens or own or DEFAULT_MAX_TOKENS[loaded.scenario.kind]


@dataclass
class Services:
    """The models a run uses besides the clinician."""

    clinician: ChatModel
    judge: ChatModel | list[ChatModel] | None = None
    embedder: Any = None
    resolver: Callable[[str], ChatModel] | None = None
    cache: Any = None  # medsim.store.cache.ResponseCache

    def close(self) -> None:
        """Flush the response cache: rows it buffers would otherwise wait for interpreter exit."""
        if self.cache is not None:
            self.cache.close()


class RunEvents(Protocol):
    def planned(self, scenario_id: str, total: int, already_done: int) -> None: ...
    def item_done(self, scenario_id: str, record: EpisodeRecord) -> None: ...


def expand_scenarios(names: list[str]) -> list[str]:
    if not names or names == ["all"] or "all" in names:
        return scenario_ids()
    return names


def file_hashes(loaded: list[LoadedScenario]) -> dict[str, str]:
    out = {}
    for item in loaded:
        for path in filter(None, (item.path, *getattr(item, "case_paths", [item.case_path]))):
            digest = hashlib.sha256()
            with open(path, "rb") as fh:  # big question banks: hashed in blocks, not read whole
                for block in iter(lambda fh=fh: fh.read(1 << 20), b""):
                    digest.update(block)
            out[path.name if path.parent.name != "cases" else f"cases/{path.name}"] = digest.hexdigest()
    return out


def new_run_id() -> str:
    return time.strftime("r%Y%m%d-%H%M%S-") + secrets.token_hex(2)


async def score_item(loaded: LoadedScenario, case: Any, result: EpisodeResult, services: Services,
                     calls: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], float | None]:
    """Run the scenario's scorers; returns the score rows and the weighted item score."""
    from medsim.judge import crosscheck, screen

    rows = []
    scores: list[Score] = []

    def record_call(call: dict[str, Any]) -> None:
        calls.append(call)

    # grader-directed text in the answer is scored without (the stored transcript keeps it, flagged)
    shown, injection = screen.screen_transcript(result.transcript, screen.answer_keys(loaded.scenario))
    if injection:
        result.transcript.info["injection"] = injection
    for ref in loaded.scenario.scoring:
        # the judge applies its own injection policy (strip, cap or flag) to the transcript as written
        transcript = result.transcript if ref.name == "checklist" else shown
        inp = ScoreInput(scenario=loaded.scenario, case=case, transcript=transcript, config=ref.config,
                         services={"judge": services.judge, "embedder": services.embedder,
                                   "record_call": record_call, "case_pool": loaded.cases})
        try:
            score = get_scorer(ref.name)(inp)
            if inspect.isawaitable(score):
                score = await score
        except KeyError:
            score = Score(ref.name, None, error=f"no scorer named {ref.name!r} in this build")
        except Exception as exc:  # a scorer bug must not sink the run: record it, score nothing
            score = Score(ref.name, None, error=f"scorer failed: {type(exc).__name__}: {exc}")
        scores.append(score)
        rows.append({"scorer": ref.name, "value": score.value, "weight": ref.weight, "reasons": score.reasons,
                     "details": score.details, "error": score.error})
    crosscheck.annotate(rows)  # a judge far from the rules on the same item is surfaced, not hidden
    value = item_score(scores, loaded.scenario.scoring)
    t = result.transcript
    if value is None and not any(s.error for s in scores) and (t.answer in (None, "", [], {}) or t.parse_error):
        # Abstaining is not free: when no scorer had anything to score because the model gave
        # no usable answer, the item scores 0 rather than leaving the mean.
        why = t.parse_error or "no final answer"
        rows.append({"scorer": "no_answer", "value": 0.0, "weight": 1.0, "details": {"parse_error": why},
                     "reasons": [f"no usable final answer ({why}): scored 0"], "error": None})
        value = 0.0
    return rows, value


async def run_item(run_id: str, loaded: LoadedScenario, case: Any, repeat: int, config: RunConfig,
                   services: Services, store: Store | None, hooks: Hooks | None = None) -> EpisodeRecord:
    started = time.time()
    settings = EpisodeSettings(seed=config.seed, repeat=repeat, patient=config.patient,
                               temperature=temperature_for(config, services.clinician),
                               max_tokens=max_tokens_for(loaded, config, services.clinician))
    result = await run_episode(loaded.scenario, case, services.clinician, settings=settings, hooks=hooks,
                               model_resolver=services.resolver)
    calls = list(result.calls)
    transcript = result.transcript
    if transcript.error:
        rows, value, status, error = [], None, "error", transcript.error
    else:
        rows, value = await score_item(loaded, case, result, services, calls)
        status, error = "done", None
    record = EpisodeRecord(
        run_id=run_id, scenario_id=loaded.scenario.id, case_id=case.id, repeat=repeat, status=status,
        transcript=transcript.to_dict(), scores=rows, calls=calls, item_score=value, error=error,
        patient=result.patient_name, started=started, finished=time.time())
    if store is not None:
        store.save_episode(record)
    return record


def failed_record(run_id: str, scenario_id: str, case_id: str, repeat: int, reason: str) -> EpisodeRecord:
    now = time.time()
    transcript = {"scenario_id": scenario_id, "case_id": case_id, "turns": [], "error": reason,
                  "stop_reason": "error"}
    return EpisodeRecord(run_id=run_id, scenario_id=scenario_id, case_id=case_id, repeat=repeat, status="error",
                         transcript=transcript, scores=[], calls=[], error=reason, started=now, finished=now)


def plan_items(loaded: list[LoadedScenario], config: RunConfig) -> Iterator[tuple[LoadedScenario, Any, int]]:
    for item in loaded:
        cases = item.cases[: config.limit] if config.limit else item.cases
        for case in cases:
            for repeat in range(config.repeats):
                yield item, case, repeat


def run_notes(config: RunConfig, loaded: list[LoadedScenario]) -> list[str]:
    """What this run will not score as configured, said before it starts rather than after."""
    def users(name: str) -> list[str]:
        return [item.scenario.id for item in loaded if any(ref.name == name for ref in item.scenario.scoring)]

    notes = []
    if not config.judge and (judged := users("checklist")):
        notes.append(f"no --judge: the checklist scorer is skipped in {', '.join(judged)} "
                     "(those items are scored on their other scorers)")
    if not config.embedder and (embedded := users("similarity")):
        notes.append(f"no --embedder: ROUGE stands in for embedding similarity in {', '.join(embedded)}")
    return notes


def load_scenarios(config: RunConfig) -> list[LoadedScenario]:
    return [get_scenario(name, check_scorers=True) for name in expand_scenarios(config.scenarios)]


def planned_counts(loaded: list[LoadedScenario], config: RunConfig) -> dict[str, int]:
    """Items the run means to score, per scenario: coverage is scored / planned."""
    return {item.scenario.id: sum(1 for _ in plan_items([item], config)) for item in loaded}


def describe_model(model: Any) -> dict[str, Any]:
    """Name, served model and endpoint of a model the run uses; never a key."""
    describe = getattr(model, "describe", None)
    info = {"name": getattr(model, "name", str(model)), **(describe() if describe else {})}
    if "kind" in info and "type" not in info:
        info["type"] = "builtin"
    keep = ("type", "name", "model", "base_url", "key_env", "temperature", "max_tokens", "timeout_s",
            "idle_timeout_s", "first_byte_timeout_s", "max_attempts", "concurrency", "dim")
    return {k: v for k, v in info.items() if k in keep and v is not None}


def endpoints_used(config: RunConfig, services: Services) -> dict[str, Any]:
    """Every model the run calls — clinician, judge(s), LLM patient, embedder — with its
    endpoint (base URL) and served model name, so a stored run says what it measured."""
    out: dict[str, Any] = {"clinician": describe_model(services.clinician)}
    judges = services.judge if isinstance(services.judge, list) else [services.judge]
    judges = [describe_model(j) for j in judges if j is not None]
    if judges:
        out["judge"] = judges[0] if len(judges) == 1 else judges
    if config.patient.startswith("llm:") and services.resolver:
        out["patient"] = describe_model(services.resolver(config.patient.split(":", 1)[1].strip()))
    if services.embedder is not None:
        out["embedder"] = describe_model(services.embedder)
    return out


def warm_up(loaded: list[LoadedScenario]) -> None:
    """Load what the first items would otherwise load inside the event loop (the segmenter's
    dictionary, the lexicon's patterns, the topic model): seconds of work during which the loop
    cannot act on Ctrl-C. Done before the loop starts, where Ctrl-C interrupts at once."""
    from medsim.text import analyze
    from medsim.text.match import concepts_in

    analyze("患者无发热，咳嗽3天，左下肢肿痛，服用阿司匹林100mg qd。")
    concepts_in("阿司匹林")
    if any(item.scenario.kind == "dialogue" for item in loaded):
        from medsim.sim.topics import classify

        classify("哪里不舒服？抽烟吗？")


def start_run(store: Store, config: RunConfig, loaded: list[LoadedScenario], model_description: dict,
              services: Services | None = None) -> str:
    run_id = new_run_id()
    clinician = services.clinician if services else None
    stored = {**config.storable(), "temperature": temperature_for(config, clinician),  # the value in force
              "scenarios": [item.scenario.id for item in loaded],
              "scenario_dimensions": {item.scenario.id: item.scenario.dimension for item in loaded},
              "scenario_paths": [str(item.path) for item in loaded], "clinician": model_description,
              "planned": planned_counts(loaded, config),
              "max_tokens_by_scenario": {item.scenario.id: max_tokens_for(item, config, clinician) for item in loaded}}
    if services is not None:
        stored["endpoints"] = endpoints_used(config, services)
    store.create_run(run_id, config.model, stored, medsim.__version__, file_hashes(loaded))
    return run_id


def config_for_resume(store: Store, run_id: str) -> tuple[RunConfig, list[str]]:
    """The stored config of a run, and warnings when its scenario files changed since."""
    run = store.get_run(run_id)
    stored = run["config"]
    known = {f.name for f in fields(RunConfig)}
    config = RunConfig(**{k: v for k, v in stored.items() if k in known})
    config.scenarios = stored.get("scenario_paths") or stored.get("scenarios") or config.scenarios
    loaded = load_scenarios(config)
    now = file_hashes(loaded)
    changed = [name for name, digest in run["file_hashes"].items() if now.get(name) != digest]
    warnings = [f"{name} changed since the run started" for name in changed]
    return config, warnings


def resume_changes(stored: RunConfig, given: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(refused, applied) for settings given on the command line with ``--resume``.

    A resumed run keeps what decides its scores; a different model, judge, patient, seed…
    would mix two measurements under one id. How calls are made may change, and is said."""
    refused, applied = [], []
    for name, value in given.items():
        if value is None or name not in {f.name for f in fields(RunConfig)}:
            continue
        before = getattr(stored, name)
        if value == before:
            continue
        flag = FLAGS.get(name, name)
        if name in OPERATIONAL:
            applied.append(f"{flag} {value} (the run had {before})")
            setattr(stored, name, value)
        else:
            refused.append(f"{flag} {value} (the run has {before})")
    return refused, applied


class _Stop:
    """Why the run is stopping early (the first reason wins)."""

    def __init__(self) -> None:
        self.reason: str | None = None
        self.hint: str | None = None

    def set(self, reason: str, hint: str | None = None) -> None:
        if self.reason is None:
            self.reason, self.hint = reason, hint


async def execute_run(store: Store, run_id: str, config: RunConfig, services: Services,
                      events: RunEvents | None = None) -> None:
    """Run every item of ``run_id`` that has not finished cleanly yet.

    Raises RunStopped when an endpoint is down or the store cannot be written (the run is
    left resumable), StoreError when another process holds the run's lease."""
    loaded = load_scenarios(config)
    store.acquire_lease(run_id)  # refuses while another live process works on this run
    try:
        await _execute(store, run_id, config, services, events, loaded)
    except RunStopped:
        _try_status(store, run_id, "interrupted")
        raise
    except BaseException:
        _try_status(store, run_id, "interrupted")  # Ctrl-C lands here as a cancellation
        raise
    store.set_run_status(run_id, "done")


def _try_status(store: Store, run_id: str, status: str) -> None:
    try:
        store.set_run_status(run_id, status)
    except StoreError:
        pass  # e.g. the disk is full: the lapsed lease will read as interrupted anyway


async def _execute(store: Store, run_id: str, config: RunConfig, services: Services,
                   events: RunEvents | None, loaded: list[LoadedScenario]) -> None:
    done = store.done_keys(run_id)
    todo: list[tuple[LoadedScenario, Any, int]] = []
    for item in loaded:
        items = [x for x in plan_items([item], config)]
        remaining = [x for x in items if (item.scenario.id, x[1].id, x[2]) not in done]
        if events:
            events.planned(item.scenario.id, len(items), len(items) - len(remaining))
        todo += remaining
    queue: asyncio.Queue = asyncio.Queue()
    for entry in todo:
        queue.put_nowait(entry)
    stop = _Stop()

    def stop_if_down() -> None:
        down = endpoint_health.down_reason()
        if down:
            stop.set(f"stopped: {down}",
                     "check the server (is it up? overloaded? the right model name?), then continue with "
                     f"`medsim run --resume {run_id}`; only the unfinished items are run again")

    async def worker() -> None:
        while stop.reason is None:
            try:
                item, case, repeat = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                record = await run_item(run_id, item, case, repeat, config, services, None)
            except Exception as exc:  # a bug in one item is recorded with its reason; the run goes on
                record = failed_record(run_id, item.scenario.id, case.id, repeat, f"{type(exc).__name__}: {exc}")
            if endpoint_health.down_reason() and (record.status == "error"
                                                  or any(row.get("error") for row in record.scores)):
                stop_if_down()  # said here too: the last worker may end before the watcher looks again
                return  # hurt by the endpoint being down: left for --resume, not saved
            try:
                store.save_episode(record)
            except StoreError as exc:
                stop.set(str(exc), exc.hint)
                return
            if events:
                events.item_done(item.scenario.id, record)
            await asyncio.sleep(0)  # let Ctrl-C, the watcher and the other workers in

    workers = [asyncio.ensure_future(worker()) for _ in range(max(1, config.concurrency))]

    async def watch() -> None:
        """Stop at once when an endpoint is down; keep the lease alive; report long waits."""
        beat = time.monotonic()
        while True:
            stop_if_down()
            if stop.reason:
                for task in workers:
                    task.cancel()
                return
            if time.monotonic() - beat >= HEARTBEAT_S:
                beat = time.monotonic()
                try:
                    if not await asyncio.to_thread(store.heartbeat, run_id):
                        stop.set(f"run {run_id} was taken over by another medsim process (this one was thought dead)",
                                 "let the other process finish it")
                except StoreError as exc:
                    stop.set(str(exc), exc.hint)
            tick = getattr(events, "tick", None)
            if tick:
                tick()
            await asyncio.sleep(0.2)

    watcher = asyncio.ensure_future(watch())
    try:
        await asyncio.gather(*workers, return_exceptions=stop.reason is not None)
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if stop.reason is None or (current is not None and current.cancelling()):
            raise  # Ctrl-C (or the caller) cancelled the run
    finally:
        watcher.cancel()
        for task in workers:
            task.cancel()
        await asyncio.gather(watcher, *workers, return_exceptions=True)
    if stop.reason:
        raise RunStopped(stop.reason, stop.hint)


def make_services(config: RunConfig, store: Store | None, *, human_io: Any = None) -> Services:
    """Resolve the clinician, judge and embedder named in the config (the cache lives in the store)."""
    from medsim.models.config import resolve_model

    cache = None
    if config.cache and store is not None:
        from medsim.store.cache import ResponseCache

        cache = ResponseCache(store.path)

    from medsim.models.config import available_models

    named = set(available_models(config.models_file))
    calls = call_overrides(config)
    resolved: dict[str, ChatModel] = {}

    def resolve_for(spec: str, flag: str) -> ChatModel:
        # --base-url is the clinician's endpoint. A judge or patient named in models.yaml keeps
        # its own URL (a hosted judge must never be sent to the local model server); an unnamed
        # one is reached on the same endpoint as the clinician.
        if spec not in resolved:
            base_url = None if spec.split(":", 1)[0] in named else config.base_url
            resolved[spec] = resolve_model(spec, base_url=base_url, models_file=config.models_file, cache=cache,
                                           flag=flag, **calls)
        return resolved[spec]

    def resolver(spec: str) -> ChatModel:
        return resolve_for(spec, "--patient" if config.patient == f"llm:{spec}" else "--judge")

    options: dict[str, Any] = {}
    if human_io is not None:
        options["io"] = human_io
    clinician = resolve_model(config.model, base_url=config.base_url, models_file=config.models_file, cache=cache,
                              temperature=config.temperature, max_tokens=config.max_tokens, **calls, **options)
    # --judge A,B: several judges, combined as each scenario's checklist config says.
    judges = [resolve_for(name.strip(), "--judge") for name in (config.judge or "").split(",") if name.strip()]
    judge: Any = judges[0] if len(judges) == 1 else (judges or None)
    embedder = None
    if config.embedder:
        from medsim.models.embeddings import resolve_embedder

        embedder = resolve_embedder(config.embedder, base_url=config.base_url, models_file=config.models_file)
    return Services(clinician=clinician, judge=judge, embedder=embedder, resolver=resolver, cache=cache)


def open_store(path: Path | str | None, *, readonly: bool = False) -> Store:
    try:
        return Store(path or DEFAULT_DB, readonly=readonly)
    except StoreError:
        raise
    except OSError as exc:
        raise StoreError(f"cannot open the run store {path}: {exc.strerror or exc}") from None


