"""Compose episode -> scorers -> store for every item of a run, many at once.

``medsim run`` and ``medsim play`` share this path: ``run_item`` is one item from episode to
stored scores; ``execute_run`` plans the items of a run (or what a resumed run still lacks)
and drives a fixed pool of workers over them, so a 30,000-item run holds only
``concurrency`` episodes in memory at a time.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import medsim
from medsim.models.base import ChatModel
from medsim.scenario.load import LoadedScenario
from medsim.scenario.registry import get_scenario, scenario_ids
from medsim.scoring.aggregate import item_score
from medsim.scoring.base import Score, ScoreInput, get_scorer
from medsim.sim.episode import EpisodeResult, EpisodeSettings, Hooks, run_episode
from medsim.store.db import EpisodeRecord, Store, StoreError

DEFAULT_DB = Path("medsim-runs.sqlite")


@dataclass
class RunConfig:
    scenarios: list[str]
    model: str
    base_url: str | None = None
    models_file: str | None = None
    judge: str | None = None
    embedder: str | None = None
    patient: str = "rule"
    concurrency: int = 8
    limit: int | None = None
    repeats: int = 1
    seed: int = 0
    temperature: float | None = None
    max_tokens: int | None = None
    cache: bool = True

    def storable(self) -> dict[str, Any]:
        """The config as stored with the run. Keys come only from the environment, never from
        here, so nothing secret is in it; URLs lose any user:password part."""
        data = asdict(self)
        for name in ("base_url",):
            if data[name] and "@" in data[name]:
                scheme, _, rest = data[name].partition("://")
                data[name] = f"{scheme}://{rest.split('@', 1)[1]}"
        return data


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
        for path in filter(None, (item.path, item.case_path)):
            out[path.name if path.parent.name != "cases" else f"cases/{path.name}"] = (
                hashlib.sha256(path.read_bytes()).hexdigest())
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
    return rows, item_score(scores, loaded.scenario.scoring)


async def run_item(run_id: str, loaded: LoadedScenario, case: Any, repeat: int, config: RunConfig,
                   services: Services, store: Store | None, hooks: Hooks | None = None) -> EpisodeRecord:
    started = time.time()
    settings = EpisodeSettings(seed=config.seed, repeat=repeat, patient=config.patient,
                               temperature=config.temperature, max_tokens=config.max_tokens)
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


def start_run(store: Store, config: RunConfig, loaded: list[LoadedScenario], model_description: dict) -> str:
    run_id = new_run_id()
    stored = {**config.storable(), "scenarios": [item.scenario.id for item in loaded],
              "scenario_dimensions": {item.scenario.id: item.scenario.dimension for item in loaded},
              "scenario_paths": [str(item.path) for item in loaded], "clinician": model_description}
    store.create_run(run_id, config.model, stored, medsim.__version__, file_hashes(loaded))
    return run_id


def config_for_resume(store: Store, run_id: str) -> tuple[RunConfig, list[str]]:
    """The stored config of a run, and warnings when its scenario files changed since."""
    run = store.get_run(run_id)
    stored = run["config"]
    fields = RunConfig.__dataclass_fields__
    config = RunConfig(**{k: v for k, v in stored.items() if k in fields})
    config.scenarios = stored.get("scenario_paths") or stored.get("scenarios") or config.scenarios
    loaded = load_scenarios(config)
    now = file_hashes(loaded)
    changed = [name for name, digest in run["file_hashes"].items() if now.get(name) != digest]
    warnings = [f"{name} changed since the run started" for name in changed]
    return config, warnings


async def execute_run(store: Store, run_id: str, config: RunConfig, services: Services,
                      events: RunEvents | None = None) -> None:
    """Run every item of ``run_id`` that has not finished cleanly yet."""
    loaded = load_scenarios(config)
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

    async def worker() -> None:
        while True:
            try:
                item, case, repeat = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                record = await run_item(run_id, item, case, repeat, config, services, store)
            except Exception as exc:  # a bug in one item is recorded with its reason; the run goes on
                record = failed_record(run_id, item.scenario.id, case.id, repeat, f"{type(exc).__name__}: {exc}")
                store.save_episode(record)
            if events:
                events.item_done(item.scenario.id, record)

    store.set_run_status(run_id, "running")
    try:
        await asyncio.gather(*(worker() for _ in range(max(1, config.concurrency))))
    except BaseException:
        store.set_run_status(run_id, "interrupted")
        raise
    store.set_run_status(run_id, "done")


def make_services(config: RunConfig, store: Store | None, *, human_io: Any = None) -> Services:
    """Resolve the clinician, judge and embedder named in the config (the cache lives in the store)."""
    from medsim.models.config import resolve_model

    cache = None
    if config.cache and store is not None:
        from medsim.store.cache import ResponseCache

        cache = ResponseCache(store.path)

    from medsim.models.config import available_models

    named = set(available_models(config.models_file))

    def resolver(spec: str) -> ChatModel:
        # --base-url is the clinician's endpoint. A judge or patient named in models.yaml keeps
        # its own URL (a hosted judge must never be sent to the local model server); an unnamed
        # one is reached on the same endpoint as the clinician.
        base_url = None if spec.split(":", 1)[0] in named else config.base_url
        return resolve_model(spec, base_url=base_url, models_file=config.models_file, cache=cache)

    options: dict[str, Any] = {}
    if human_io is not None:
        options["io"] = human_io
    clinician = resolve_model(config.model, base_url=config.base_url, models_file=config.models_file, cache=cache,
                              temperature=config.temperature, max_tokens=config.max_tokens, **options)
    # --judge A,B: several judges, combined as each scenario's checklist config says.
    judges = [resolver(name.strip()) for name in (config.judge or "").split(",") if name.strip()]
    judge: Any = judges[0] if len(judges) == 1 else (judges or None)
    embedder = None
    if config.embedder:
        from medsim.models.embeddings import resolve_embedder

        embedder = resolve_embedder(config.embedder, base_url=config.base_url, models_file=config.models_file)
    return Services(clinician=clinician, judge=judge, embedder=embedder, resolver=resolver, cache=cache)


def open_store(path: Path | str | None) -> Store:
    try:
        return Store(path or DEFAULT_DB)
    except StoreError:
        raise
    except OSError as exc:
        raise StoreError(f"cannot open the run store {path}: {exc}") from None


