"""``models.yaml`` (named endpoints) and ``resolve_model``: from ``--model`` to a ChatModel.

::

    models:
      qwen-local:                       # the name used with --model
        base_url: http://127.0.0.1:8080/v1
        model: qwen2.5-7b-instruct      # the served name (default: the entry's name)
        concurrency: 4
      deepseek:
        base_url: https://api.deepseek.com/v1
        model: deepseek-chat
        key_env: DEEPSEEK_API_KEY       # the variable holding the key, never the key
        rpm: 300
        temperature: 0.0
        max_tokens: 2048
        timeout_s: 600                  # the whole reply, per attempt
        idle_timeout_s: 60              # the longest silence (no byte) once the reply has begun
        first_byte_timeout_s: 300       # the longest wait for the first byte (a long prompt on a CPU)
        max_attempts: 4
        stop_after_s: 120               # stop the run when every attempt fails this long
        prices: {input: 2.0, output: 8.0}   # per million tokens

Searched in: ``--models-file PATH``, ``$MEDSIM_MODELS_FILE``, ``./models.yaml``,
``~/.config/medsim/models.yaml``.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from medsim.models.base import ChatModel
from medsim.models.registry import builtin_names, get_builtin, is_builtin
from medsim.models.retry import (
    DEFAULT_FIRST_BYTE_TIMEOUT_S,
    DEFAULT_IDLE_TIMEOUT_S,
    DEFAULT_STOP_AFTER_S,
    DEFAULT_TIMEOUT_S,
)

OPENAI_BASE_URL = "https://api.openai.com/v1"


class ConfigError(Exception):
    """A model setting that cannot work; the message says what, where and how to fix it."""


class Prices(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input: float = Field(0.0, ge=0, description="price per million prompt tokens")
    output: float = Field(0.0, ge=0, description="price per million completion tokens")


class EndpointConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base_url: str | None = None  # None: OpenAI's own API
    model: str | None = None  # served model name; default: the entry's name
    key_env: str | None = None  # default: MEDSIM_API_KEY, then OPENAI_API_KEY, then none
    # Requests in flight to this endpoint, across every model object and role using it.
    # None: no limit of its own — the run's --concurrency bounds it.
    concurrency: int | None = Field(None, ge=1)
    rpm: float | None = Field(None, gt=0)
    temperature: float | None = Field(None, ge=0, le=2)
    max_tokens: int | None = Field(None, ge=1)
    # Per attempt: the whole reply (generous) and the longest silence (no byte at all).
    timeout_s: float = Field(DEFAULT_TIMEOUT_S, gt=0)
    idle_timeout_s: float | None = Field(DEFAULT_IDLE_TIMEOUT_S, ge=0)  # 0 or null: no idle clock
    # Before the first byte (prompt processing, queueing): never shorter than idle_timeout_s.
    first_byte_timeout_s: float | None = Field(DEFAULT_FIRST_BYTE_TIMEOUT_S, ge=0)  # 0 or null: no clock
    max_attempts: int = Field(4, ge=1, le=20)
    # Circuit breaker: every attempt failing for this long stops the run (resumably). 0: never.
    stop_after_s: float | None = Field(DEFAULT_STOP_AFTER_S, ge=0)
    prices: Prices | None = None
    stream: bool | None = None  # None: stream only when the caller shows tokens as they come
    stream_usage: bool = True  # send stream_options.include_usage (some servers reject it)
    extra_body: dict[str, Any] | None = None  # extra request fields, e.g. {top_k: 20}


class ModelsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    models: dict[str, EndpointConfig] = Field(default_factory=dict)


def search_paths() -> list[Path]:
    paths = []
    env = os.environ.get("MEDSIM_MODELS_FILE")
    if env:
        paths.append(Path(env))
    paths += [Path.cwd() / "models.yaml", Path.home() / ".config" / "medsim" / "models.yaml"]
    return paths


def find_models_file(models_file: str | Path | None = None) -> Path | None:
    """The models.yaml in force, or None when there is none (that is allowed)."""
    if models_file is not None:
        path = Path(models_file)
        if path.is_dir():
            raise ConfigError(f"--models-file {path} is a folder, not a models file; give the file itself, "
                              f"e.g. --models-file {path / 'models.yaml'}")
        if not path.is_file():
            raise ConfigError(f"models file {path} does not exist (given with --models-file)")
        return path
    for path in search_paths():
        if path.is_file():
            return path
    return None


def _locate(node: Any, loc: tuple[Any, ...]) -> tuple[int, int] | None:
    """line, column (1-based) of the deepest key found on the path ``loc``."""
    import yaml

    found = None
    for part in loc:
        if node is None:
            break
        found = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            nxt = None
            for key, value in node.value:
                if key.value == str(part):
                    found = (key.start_mark.line + 1, key.start_mark.column + 1)
                    nxt = value
                    break
            node = nxt
        else:
            node = None
    return found


def load_models_file(path: str | Path) -> ModelsFile:
    import yaml

    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ConfigError(f"{path}:{line}:{col}: byte 0x{raw[exc.start]:02x} is not UTF-8; save the file as UTF-8 "
                          f"(from GBK/GB18030: `iconv -f GB18030 -t UTF-8 {path.name} > {path.stem}.utf8.yaml`)"
                          ) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"{where}: not valid YAML: {problem}") from exc
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping with a 'models:' key, e.g.\nmodels:\n  NAME:\n    base_url: http://...")
    try:
        parsed = ModelsFile.model_validate(data)
    except ValidationError as exc:
        root = yaml.compose(text)
        lines = []
        for err in exc.errors():
            loc = tuple(err["loc"])
            pos = _locate(root, loc)
            where = f"{path}:{pos[0]}:{pos[1]}" if pos else str(path)
            dotted = ".".join(str(p) for p in loc)
            msg = err["msg"]
            if err["type"] == "extra_forbidden":
                msg = f"unknown field (known: {', '.join(EndpointConfig.model_fields)})" if len(loc) == 3 else "unknown field"
            lines.append(f"{where}: {dotted}: {msg}")
        raise ConfigError("invalid models file:\n  " + "\n  ".join(lines)) from exc
    clash = sorted(n for n in parsed.models if is_builtin(n.split(":", 1)[0]))
    if clash:
        raise ConfigError(f"{path}: {', '.join(clash)} is the name of a built-in model; rename the entry")
    return parsed


def _did_you_mean(name: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in candidates}
        close = [lowered[name.lower()]] if name.lower() in lowered else []
    return f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def _with_overrides(entry: EndpointConfig, overrides: dict[str, Any]) -> EndpointConfig:
    try:
        return EndpointConfig.model_validate({**entry.model_dump(), **overrides})
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"invalid model setting: {problems}") from exc


def _as_given(flag: str, spec: str) -> str:
    return f"--patient llm:{spec}" if flag == "--patient" else f"{flag} {spec}"


def _how_to_reach(flag: str, spec: str) -> str:
    """How to name an endpoint for this role without guessing: roles other than the
    clinician are served from the clinician's --base-url unless models.yaml names their own."""
    entry = f"or add it to models.yaml:\n  models:\n    {spec}:\n      base_url: http://HOST:PORT/v1"
    if flag == "--model":
        return (f"To reach an OpenAI-compatible endpoint without a config file, give its URL:\n"
                f"  --model {spec} --base-url http://HOST:PORT/v1\n{entry}")
    role = {"--patient": "the LLM patient", "--judge": "the judge", "--embedder": "the embedder"}.get(flag, flag)
    return (f"{_as_given(flag, spec)} names a model for {role}: without a models.yaml entry it is served by the "
            f"clinician's endpoint, so give --base-url http://HOST:PORT/v1 (the server that serves {spec!r}), "
            f"{entry}")


def endpoint_for(
    spec: str,
    *,
    base_url: str | None = None,
    models_file: str | Path | None = None,
    overrides: dict[str, Any] | None = None,
    flag: str = "--model",
) -> tuple[EndpointConfig, str]:
    """The endpoint settings and base URL for a models.yaml name, or for any served model
    name when a base URL is given (argument or $MEDSIM_BASE_URL). Checks the key variable."""
    overrides = overrides or {}
    path = find_models_file(models_file)
    entries = load_models_file(path).models if path else {}
    if spec in entries:
        entry = _with_overrides(entries[spec], overrides)
        url = base_url or entry.base_url or OPENAI_BASE_URL
        where = f"models.yaml entry {spec!r} ({path})"
    else:
        url = base_url or os.environ.get("MEDSIM_BASE_URL")
        if not url:
            known = sorted(entries) + (builtin_names() if flag == "--model" else [])
            looked = f"not in {path}" if path else "no models.yaml found (looked in " + ", ".join(map(str, search_paths())) + ")"
            builtins = f", and not a built-in ({', '.join(builtin_names())})" if flag == "--model" else ""
            raise ConfigError(
                f"unknown model {spec!r} (given with {_as_given(flag, spec)}): {looked}{builtins}."
                f"{_did_you_mean(spec, known)}\n{_how_to_reach(flag, spec)}"
            )
        entry = _with_overrides(EndpointConfig(model=spec), overrides)
        where = f"{_as_given(flag, spec)} --base-url {url}"

    if entry.key_env and not os.environ.get(entry.key_env):
        raise ConfigError(
            f"{where} reads its API key from ${entry.key_env}, which is not set.\n"
            f"Set it in the environment (export {entry.key_env}=...), or remove key_env to use "
            f"MEDSIM_API_KEY / OPENAI_API_KEY."
        )
    return entry, url


def resolve_model(
    spec: str,
    *,
    base_url: str | None = None,
    models_file: str | Path | None = None,
    cache: Any = None,
    key_env: str | None = None,
    concurrency: int | None = None,
    rpm: float | None = None,
    temperature: float | None = None,
    max_tokens: int | None = None,
    timeout_s: float | None = None,
    idle_timeout_s: float | None = None,
    first_byte_timeout_s: float | None = None,
    max_attempts: int | None = None,
    stop_after_s: float | None = None,
    stream: bool | None = None,
    flag: str = "--model",
    **options: Any,
) -> ChatModel:
    """A ChatModel for ``--model SPEC``.

    SPEC is a built-in (``baseline``, ``reference``, ``human``, ``scripted:PATH``), a name
    in models.yaml, or — with ``base_url`` — any model an OpenAI-compatible endpoint
    serves. Arguments that are not None override the models.yaml entry.
    """
    overrides = {
        "key_env": key_env, "concurrency": concurrency, "rpm": rpm, "temperature": temperature,
        "max_tokens": max_tokens, "timeout_s": timeout_s, "idle_timeout_s": idle_timeout_s,
        "first_byte_timeout_s": first_byte_timeout_s, "max_attempts": max_attempts, "stop_after_s": stop_after_s, "stream": stream,
    }
    overrides = {k: v for k, v in overrides.items() if v is not None}

    head, _, arg = spec.partition(":")
    if is_builtin(head):
        factory = get_builtin(head)
        if factory is None:
            raise ConfigError(f"the built-in model {head!r} is not available in this installation")
        given = {**overrides, **{k: v for k, v in options.items() if v is not None}}
        if cache is not None:
            given["cache"] = cache
        try:
            return factory(arg or None, given)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"--model {spec}: {exc}") from exc

    entry, url = endpoint_for(spec, base_url=base_url, models_file=models_file, overrides=overrides, flag=flag)
    from medsim.models.openai_compat import OpenAICompatModel

    return OpenAICompatModel(
        spec,
        base_url=url,
        model=entry.model or spec,
        key_env=entry.key_env,
        concurrency=entry.concurrency,
        rpm=entry.rpm,
        temperature=entry.temperature,
        max_tokens=entry.max_tokens,
        timeout_s=entry.timeout_s,
        idle_timeout_s=entry.idle_timeout_s,
        first_byte_timeout_s=entry.first_byte_timeout_s,
        stop_after_s=entry.stop_after_s,
        max_attempts=entry.max_attempts,
        prices=entry.prices.model_dump() if entry.prices else None,
        cache=cache,
        stream=entry.stream,
        stream_usage=entry.stream_usage,
        extra_body=entry.extra_body,
    )


def available_models(models_file: str | Path | None = None) -> list[str]:
    """Names usable with --model: models.yaml entries, then the built-ins."""
    path = find_models_file(models_file)
    names = sorted(load_models_file(path).models) if path else []
    return names + builtin_names()
