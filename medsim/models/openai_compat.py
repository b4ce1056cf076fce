"""ChatModel over any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp, Ollama, ...).

Order of work in ``chat``: response cache → per-endpoint limiter (concurrency, rpm) →
one request watched by three clocks → retries on transient failures. The clocks: a
first-byte allowance (a server reading a long prompt on a CPU sends nothing for minutes:
that is work, not silence), then an idle timeout from the first byte on (no byte for N s:
the server is stuck), and a generous total (the whole reply), so a slow model that streams
is never mistaken for a dead one. Replies stream by default for
that reason. An attempt that is given up on is cancelled on its connection, so the server
stops generating it. The ``openai`` package is imported in the constructor, never at module
import, because it costs ~0.45 s and ``medsim --help`` must stay quick.

Whose fault is a failure? The endpoint's (recorded as an error, left out of the scores,
retried by ``--resume``): no connection, HTTP errors, timeouts, bodies that are not the
API's (HTML, broken JSON), streams cut before their end. The model's (its answer, scored):
a complete reply whatever it says — empty text included, once the retries have given the
endpoint a fair chance to say something else.
"""

from __future__ import annotations

import asyncio
import email.utils
import os
import time
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from medsim.models import health as endpoint_health
from medsim.models.base import ChatContext, ChatResult, Message, ModelCallError, Usage
from medsim.models.limits import get_limiter
from medsim.models.retry import (
    DEFAULT_FIRST_BYTE_TIMEOUT_S,
    DEFAULT_IDLE_TIMEOUT_S,
    DEFAULT_STOP_AFTER_S,
    DEFAULT_TIMEOUT_S,
    AttemptFailed,
    Failure,
    RetryPolicy,
    call_with_retries,
)
from medsim.models.tokens import estimate_messages_tokens, estimate_tokens

KEY_VARIABLES = ("MEDSIM_API_KEY", "OPENAI_API_KEY")
PLACEHOLDER_KEY = "EMPTY"
RESTREAM_NOTICE = "\n（连接中断，重新生成）\n"  # shown between a broken stream and its retry
# What one reply may store and print. A model that ignores max_tokens (or a server without
# one) is cut here: the stream is closed, so the server stops generating, and the text
# kept is the model's answer, marked truncated. ~10× the longest legitimate answer.
MAX_REPLY_CHARS = 20_000
TRUNCATED_MARK = "\n…（回复过长，已截断）"


def key_from_env(key_env: str | None = None) -> str:
    """The API key: from ``key_env`` if named, else MEDSIM_API_KEY, else OPENAI_API_KEY,
    else a placeholder that keyless local servers accept."""
    names = (key_env,) if key_env else KEY_VARIABLES
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return PLACEHOLDER_KEY


def safe_url(url: str | None) -> str | None:
    """The URL without user:password and query string, which may carry credentials."""
    if not url:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def _retry_after(headers: Any) -> float | None:
    """Seconds from ``retry-after-ms``, or ``Retry-After`` as seconds or an HTTP date."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _transport_errors() -> tuple[tuple[type, ...], tuple[type, ...]]:
    """(timeout, transport) exception classes of the HTTP library under ``openai``: recent
    openai releases use ``httpx2``, older ones ``httpx``."""
    timeouts: list[type] = []
    transports: list[type] = []
    for name in ("httpx2", "httpx"):
        try:
            mod = __import__(name)
        except ImportError:
            continue
        timeouts.append(mod.TimeoutException)
        transports.append(mod.TransportError)
    return tuple(timeouts), tuple(transports)


def classify_openai_error(exc: BaseException) -> Failure:
    """Which failures of the openai client deserve another attempt."""
    import openai

    http_timeouts, http_transport = _transport_errors()

    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        body = exc.body
        message = ""
        if isinstance(body, dict):
            message = body.get("message") or (body.get("error") or {}).get("message") or ""
        message = _short(message or str(exc))
        retryable = status in (408, 409, 425, 429) or status >= 500
        if status in (401, 403):
            message += " (check the API key variable: MEDSIM_API_KEY, OPENAI_API_KEY or key_env in models.yaml)"
        return Failure(f"HTTP {status}", message, retryable, _retry_after(exc.response.headers))
    if isinstance(exc, (openai.APITimeoutError, *http_timeouts)):
        return Failure("timeout", _short(str(exc)))
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc
        return Failure("connection error", _short(f"{type(cause).__name__}: {cause}"))
    if isinstance(exc, http_transport):  # e.g. RemoteProtocolError while reading a stream
        return Failure("connection error", _short(f"{type(exc).__name__}: {exc}"))
    if isinstance(exc, openai.APIResponseValidationError | ValueError):  # JSONDecodeError is a ValueError
        return Failure("malformed body", _short(f"{type(exc).__name__}: {exc}"))
    if isinstance(exc, openai.APIError):  # e.g. an error event in the middle of a stream
        return Failure("stream error", _short(str(getattr(exc, "message", None) or exc)))
    return Failure("unexpected error", _short(f"{type(exc).__name__}: {exc}"), retryable=False)


class OpenAICompatModel:
    """A clinician, patient or judge served by an OpenAI-compatible endpoint."""

    def __init__(
        self,
        name: str,
        *,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        key_env: str | None = None,
        concurrency: int | None = None,  # None: no endpoint limit (the caller's concurrency bounds it)
        rpm: float | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        timeout_s: float | None = DEFAULT_TIMEOUT_S,
        idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S,
        first_byte_timeout_s: float | None = DEFAULT_FIRST_BYTE_TIMEOUT_S,
        stop_after_s: float | None = DEFAULT_STOP_AFTER_S,
        max_attempts: int = 4,
        prices: dict[str, float] | None = None,
        cache: Any = None,  # medsim.store.cache.ResponseCache
        stream: bool | None = None,
        stream_usage: bool = True,
        retry: RetryPolicy | None = None,
        extra_body: dict[str, Any] | None = None,
        sleep: Callable[[float], Any] | None = None,
    ):
        import openai  # lazy: see module docstring

        self._openai = openai
        self._stream_type = openai.AsyncStream[object]  # chunks as parsed JSON
        self.name = name
        self.model = model or name
        self.base_url = base_url
        self.key_env = key_env
        self._api_key = api_key or key_from_env(key_env)  # kept only here and in the client
        self.concurrency = concurrency
        self.rpm = rpm
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.retry = retry or RetryPolicy(max_attempts=max_attempts, timeout_s=timeout_s or None,
                                          idle_timeout_s=idle_timeout_s or None,
                                          first_byte_timeout_s=first_byte_timeout_s or None,
                                          stop_after_s=stop_after_s or None)
        self.prices = dict(prices or {})
        self.cache = cache
        self.stream = stream  # None: stream whenever an idle timeout is set or tokens are shown
        self.stream_usage = stream_usage
        self.extra_body = extra_body
        self._sleep = sleep
        # One client per event loop: an httpx pool cannot outlive the loop it was made on.
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()

    def __repr__(self) -> str:
        return f"OpenAICompatModel(name={self.name!r}, model={self.model!r}, base_url={safe_url(self.base_url)!r})"

    @property
    def label(self) -> str:
        """How this endpoint is named in messages: served model @ URL."""
        return f"{self.model} @ {safe_url(self.base_url) or 'the OpenAI API'}"

    def describe(self) -> dict[str, Any]:
        """Settings fit to store with a run: never the key, only the name of its variable."""
        info: dict[str, Any] = {
            "type": "openai_compat",
            "name": self.name,
            "model": self.model,
            "base_url": safe_url(self.base_url),
            "key_env": self.key_env,
            "concurrency": self.concurrency,
            "rpm": self.rpm,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "timeout_s": self.retry.timeout_s,
            "idle_timeout_s": self.retry.idle_timeout_s,
            "first_byte_timeout_s": self.retry.first_byte_s,
            "stop_after_s": self.retry.stop_after_s,
            "max_attempts": self.retry.max_attempts,
            "stream": self.stream,
            "prices": self.prices or None,
        }
        key = self._api_key
        if key and key != PLACEHOLDER_KEY and len(key) >= 6:  # belt and braces: a key pasted into a URL or name
            info = {k: (v.replace(key, "***") if isinstance(v, str) else v) for k, v in info.items()}
        return info

    def _scrub(self, text: str) -> str:
        key = self._api_key
        if key and key != PLACEHOLDER_KEY and len(key) >= 6 and key in text:
            return text.replace(key, "***")
        return text

    def _client(self) -> Any:
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._openai.AsyncOpenAI(
                base_url=self.base_url,
                api_key=self._api_key,
                max_retries=0,  # ours are the only retries
                # our own clocks watch every attempt (see _watched); the client's only bounds
                # connecting, and anything our clocks would miss
                timeout=self._openai.Timeout(self.retry.timeout_s, connect=min(30.0, self.retry.timeout_s or 30.0)),
            )
            self._clients[loop] = client
        return client

    async def aclose(self) -> None:
        """Close the HTTP client of the running loop."""
        client = self._clients.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.close()

    def cost_of(self, usage: Usage) -> float:
        return (
            usage.prompt_tokens * float(self.prices.get("input", 0.0))
            + usage.completion_tokens * float(self.prices.get("output", 0.0))
        ) / 1_000_000

    async def chat(
        self,
        messages: list[Message],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        json_mode: bool = False,
        on_token: Callable[[str], None] | None = None,
        context: ChatContext | None = None,
    ) -> ChatResult:
        started = time.perf_counter()
        temperature = self.temperature if temperature is None else temperature
        max_tokens = self.max_tokens if max_tokens is None else max_tokens

        key = None
        if self.cache is not None:
            from medsim.store.cache import cache_key

            key = cache_key(model=self.model, base_url=self.base_url, messages=messages, temperature=temperature,
                            max_tokens=max_tokens, seed=seed, json_mode=json_mode, extra=self.extra_body)
            hit = self.cache.get(key)  # WAL reads do not wait on writers: quick enough inline
            if hit is not None:
                hit.cached = True
                hit.raw = {**hit.raw, "cached_latency_s": hit.latency_s, "cached_cost": hit.cost}
                hit.latency_s = time.perf_counter() - started
                hit.cost = 0.0  # a cached reply costs nothing
                if on_token is not None and hit.content:
                    on_token(hit.content)
                return hit

        params: dict[str, Any] = {"model": self.model, "messages": [dict(m) for m in messages]}
        if temperature is not None:
            params["temperature"] = temperature
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        if seed is not None:
            params["seed"] = seed
        if json_mode:
            params["response_format"] = {"type": "json_object"}
        if self.extra_body:
            params.update(self.extra_body)
        # Streaming lets the idle clock tell a slow model (tokens trickling in) from a stuck
        # one; without an idle timeout a plain reply is cheaper (~half the client CPU).
        stream = self.stream if self.stream is not None else (
            on_token is not None or self.retry.idle_timeout_s is not None)

        limiter = get_limiter((self.base_url, self.model), self.concurrency, self.rpm)
        health = endpoint_health.get_health((self.base_url, self.model), self.label)
        log: list[dict[str, Any]] = []

        shown = [0]  # chars streamed to on_token by the current attempt
        show = on_token
        if on_token is not None:

            def show(text: str) -> None:
                shown[0] += len(text)
                on_token(text)

        async def attempt(_n: int) -> tuple[str, Any, dict[str, Any], float]:
            if shown[0] and on_token is not None:
                # A stream broke after some text was shown; the retry streams the reply
                # again from the start. Say so on screen (result.content is the retry's only).
                on_token(RESTREAM_NOTICE)
                shown[0] = 0
            async with limiter:
                if health.serial and limiter.concurrency != 1:
                    limiter.limit_to(1)
                watch = health.start(self.retry.idle_timeout_s, self.retry.first_byte_s)
                try:
                    once = self._stream_once if stream else self._once
                    content, usage, meta = await self._watched(
                        watch, health, lambda touch: once(params, show, touch))
                except AttemptFailed as exc:
                    if exc.failure.label == "stream cut":
                        health.cut_short(watch)  # another call in flight may have displaced it
                    if exc.fallback is not None:
                        exc.fallback = (*exc.fallback, time.monotonic() - watch.sent)
                    raise
                finally:
                    health.finish(watch)
                done = time.monotonic()
                health.succeeded(endpoint_health.sample(watch.sent, watch.first, done) if stream else None)
                return content, usage, meta, done - watch.sent

        def on_failure(number: int, failure: Failure, delay: float | None) -> None:
            if failure.label != "empty content":  # a complete reply: the endpoint is working
                health.failed(failure.text(), self.retry.stop_after_s)
            if delay is not None:
                health.retries += 1
                endpoint_health.emit(endpoint_health.ModelEvent(
                    "retry", self.label, f"{self._scrub(failure.text())} — attempt {number} of "
                    f"{self.retry.max_attempts}, retrying in {delay:.1f} s",
                    attempt=number, max_attempts=self.retry.max_attempts, delay_s=delay))

        try:
            (content, reported, meta, latency), attempts = await call_with_retries(
                attempt, self.retry, classify_openai_error, sleep=self._sleep, log=log,
                on_failure=on_failure, gate=lambda: health.down,
            )
        except ModelCallError as exc:
            # an endpoint may echo the key in an error body; reasons are stored with the run
            raise type(exc)(self._scrub(exc.reason), attempts=exc.attempts) from exc.__cause__
        for entry in log:
            entry["error"] = self._scrub(entry["error"])
        if reported is not None:
            usage = Usage(int(reported.get("prompt_tokens") or 0), int(reported.get("completion_tokens") or 0), False)
        else:
            usage = Usage(estimate_messages_tokens(messages), estimate_tokens(content), True)
        raw: dict[str, Any] = {**meta, "total_s": round(time.perf_counter() - started, 4)}
        if log:
            raw["retries"] = log
        result = ChatResult(
            content=content, usage=usage, latency_s=latency, cached=False, model=self.model,
            cost=self.cost_of(usage), attempts=attempts, raw=raw,
        )
        if self.cache is not None and key is not None:
            aput = getattr(self.cache, "aput", None)
            if aput is not None:
                await aput(key, result)  # never blocks the loop on the run store's lock
            else:
                await asyncio.to_thread(self.cache.put, key, result)
        return result

    async def _watched(self, watch: Any, health: Any, run: Callable[[Callable[[], None]], Any]) -> Any:
        """Run one attempt under the first-byte, idle and total clocks. On any of them the
        attempt's task is cancelled — which closes its connection, so the server stops
        generating it (and a retry would only restart the prompt: hence a long first-byte
        allowance rather than the idle timeout before the first byte)."""
        idle, first_byte, total = self.retry.idle_timeout_s, self.retry.first_byte_s, self.retry.timeout_s
        began = asyncio.get_running_loop().create_future()  # the first byte: switch to the idle clock

        def touch() -> None:
            health.touch(watch)
            if not began.done():
                began.set_result(None)

        task = asyncio.ensure_future(run(touch))
        try:
            while True:
                now = time.monotonic()
                left = []
                if total:
                    left.append(watch.sent + total - now)
                quiet = first_byte if watch.last is None else idle
                if quiet:
                    left.append(quiet - health.silent_for(watch, now))
                wait = max(0.0, min(left)) + 0.01 if left else None
                done, _ = await asyncio.wait({task} if began.done() else {task, began}, timeout=wait,
                                             return_when=asyncio.FIRST_COMPLETED)
                if task in done:
                    return task.result()
                now = time.monotonic()
                if total and now - watch.sent >= total:
                    raise AttemptFailed(Failure("timeout", f"no complete reply within {total:g} s"))
                if watch.last is None:
                    if first_byte and health.silent_for(watch, now) >= first_byte:
                        raise AttemptFailed(Failure("first-byte timeout", f"no first byte after {first_byte:g} s (the "
                                                    "server may still be reading the prompt: raise first_byte_timeout_s)"))
                elif idle and health.silent_for(watch, now) >= idle:
                    raise AttemptFailed(Failure("idle timeout", f"no data for {idle:g} s in the middle of the reply"))
        finally:
            began.cancel()
            if not task.done():
                task.cancel()
                await asyncio.wait({task})  # its finally closes the stream and the connection
            if task.done() and not task.cancelled():
                task.exception()  # retrieved: an abandoned attempt's error is not "never retrieved"

    def _not_the_api(self, path: str, text: str, content_type: str | None = None) -> AttemptFailed:
        """A body that is a web page (or other text) where the API's JSON was expected."""
        url = f"{safe_url(self.base_url) or 'https://api.openai.com/v1'}{path}"
        start = " ".join(str(text)[:120].split())
        kind = "an HTML page" if "<html" in start.lower() or start.lower().startswith("<!doctype") else "text that is not JSON"
        return AttemptFailed(Failure(
            "not an API reply",
            f"{url} answered {kind}{f' ({content_type})' if content_type else ''}, not the API's JSON — is "
            f"{safe_url(self.base_url)} the API's address (often ending in /v1) rather than a web UI or a proxy's "
            f"login page? It began: {start!r}", retryable=False))

    async def _post(self, body: dict[str, Any], *, stream: bool) -> Any:
        """POST /chat/completions through the client's documented custom-request path.

        ``chat.completions.create`` walks every request through the SDK's TypedDict
        transform and builds pydantic objects for every reply and stream chunk: ~0.7 ms of
        CPU per call on this machine, the largest cost after HTTP itself. ``post`` with
        ``cast_to=object`` keeps the client's auth, connection pool and error mapping
        (``APIStatusError`` with status and headers) and hands back the parsed JSON.
        """
        client = self._client()
        if stream:
            return await client.post(
                "/chat/completions", body=body, cast_to=object, stream=True, stream_cls=self._stream_type
            )
        return await client.post("/chat/completions", body=body, cast_to=object)

    async def _once(
        self, params: dict[str, Any], on_token: Callable[[str], None] | None, touch: Callable[[], None] | None = None,
    ) -> tuple[str, dict[str, Any] | None, dict[str, Any]]:
        resp = await self._post(params, stream=False)
        if touch is not None:
            touch()
        content, usage, meta = self._from_completion(resp)
        if on_token is not None and content:
            on_token(content)
        return self._checked(content, usage, meta)

    def _from_completion(self, resp: Any) -> tuple[str, dict[str, Any] | None, dict[str, Any]]:
        if isinstance(resp, str | bytes):
            raise self._not_the_api("/chat/completions", resp.decode("utf-8", "replace") if isinstance(resp, bytes)
                                    else resp)
        try:
            choice = resp["choices"][0]
            message = choice["message"]
            content = message.get("content") or ""
            finish = choice.get("finish_reason")
            usage = _usage_of(resp)
            meta = {"id": resp.get("id"), "finish_reason": finish}
            _reasoning(meta, message.get("reasoning_content"))
        except (AttributeError, IndexError, KeyError, TypeError) as exc:
            raise AttemptFailed(Failure("malformed body", f"no choices[0].message in the reply ({type(exc).__name__})")) from exc
        if not isinstance(content, str):
            raise AttemptFailed(Failure("malformed body", "message.content is not text"))
        if len(content) > MAX_REPLY_CHARS:
            content = content[:MAX_REPLY_CHARS] + TRUNCATED_MARK
            meta["truncated"] = True
        return content, usage, meta

    @staticmethod
    def _checked(content: str, usage: Any, meta: dict[str, Any]) -> tuple[str, dict[str, Any] | None, dict[str, Any]]:
        """A complete reply with no text is retried; when the retries are spent it is the
        model's answer (scored as empty), not the endpoint's failure."""
        if not content.strip():
            finish = meta.get("finish_reason")
            why = (" — it hit max_tokens before any text: raise --max-tokens" if finish == "length" else "")
            raise AttemptFailed(Failure("empty content", f"the reply had no text (finish_reason={finish}){why}"),
                                fallback=(content, usage, {**meta, "empty": True}))
        return content, usage, meta

    async def _stream_once(
        self, params: dict[str, Any], on_token: Callable[[str], None] | None, touch: Callable[[], None] | None = None,
    ) -> tuple[str, dict[str, Any] | None, dict[str, Any]]:
        body = {**params, "stream": True}
        if self.stream_usage:
            body["stream_options"] = {"include_usage": True}
        stream = await self._post(body, stream=True)
        content_type = (stream.response.headers.get("content-type") or "").lower()
        if "event-stream" not in content_type:
            # Not a stream: a server that ignored stream=true answers JSON (use it), a web UI
            # or proxy answers a page (say so, naming the URL).
            try:
                raw = await stream.response.aread()
            finally:
                await stream.close()
            if touch is not None:
                touch()
            text = raw.decode("utf-8", "replace")
            if "json" in content_type:
                import json

                try:
                    resp = json.loads(text)
                except ValueError:
                    raise self._not_the_api("/chat/completions", text, content_type) from None
                content, usage, meta = self._from_completion(resp)
                if on_token is not None and content:
                    on_token(content)
                return self._checked(content, usage, meta)
            raise self._not_the_api("/chat/completions", text, content_type)
        parts: list[str] = []
        size = 0
        thoughts: list[str] = []
        usage = None
        finish = None
        rid = None
        truncated = False
        try:
            async for chunk in stream:  # dicts: the SDK's SSE decoder, our own field access
                if touch is not None:
                    touch()
                try:
                    rid = rid or chunk.get("id")
                    usage = _usage_of(chunk) or usage
                    choices = chunk.get("choices")
                    if not choices:
                        continue
                    choice = choices[0]
                    delta = choice.get("delta") or {}
                    text = delta.get("content")
                    thought = delta.get("reasoning_content")
                    if choice.get("finish_reason"):
                        finish = choice["finish_reason"]
                except (AttributeError, IndexError, KeyError, TypeError) as exc:
                    raise AttemptFailed(Failure("malformed body", f"unreadable stream chunk ({type(exc).__name__})")) from exc
                if thought and sum(map(len, thoughts)) < MAX_REPLY_CHARS:
                    thoughts.append(thought)
                if text:
                    if size + len(text) > MAX_REPLY_CHARS:
                        text = text[: MAX_REPLY_CHARS - size]
                        truncated = True
                    parts.append(text)
                    size += len(text)
                    if on_token is not None and text:
                        on_token(text)
                    if truncated:
                        if on_token is not None:
                            on_token(TRUNCATED_MARK)
                        break  # closing the stream below tells the server to stop generating
        finally:
            await stream.close()  # hand the connection back even when the stream broke
        content = "".join(parts)
        meta: dict[str, Any] = {"id": rid, "finish_reason": finish}
        _reasoning(meta, "".join(thoughts))
        if truncated:
            return content + TRUNCATED_MARK, usage, {**meta, "finish_reason": finish or "length", "truncated": True}
        if finish is None:
            raise AttemptFailed(Failure("stream cut", f"the stream ended without a finish_reason after {len(content)} chars"))
        return self._checked(content, usage, meta)


def _usage_of(obj: dict[str, Any]) -> dict[str, Any] | None:
    usage = obj.get("usage")
    if isinstance(usage, dict) and usage.get("prompt_tokens") is not None:
        return usage
    return None


def _reasoning(meta: dict[str, Any], text: str | None) -> None:
    """Keep a reasoning model's separate thinking text (DeepSeek-style), apart from the answer."""
    if text:
        meta["reasoning"] = text
