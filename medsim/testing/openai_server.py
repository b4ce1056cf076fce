"""A local OpenAI-compatible server for tests, demos and benchmarks — standard library only.

Written on asyncio (``asyncio.start_server`` with a small HTTP/1.1 parser and keep-alive)
rather than ``http.server``: a thread per request costs ~1.25 ms of CPU on a 2-core box and
would make the server, not the client, the bottleneck of a throughput benchmark.

Endpoints: ``GET /v1/models``, ``POST /v1/chat/completions`` (plain JSON or SSE streaming in
several chunks, JSON mode), ``POST /v1/embeddings`` (deterministic hash vectors).

Faults are injected by a plan of :class:`Fault` rules: 429 with Retry-After, 500, a hang
past the client's timeout, a malformed body, a stream cut mid-way, empty content, an HTML
page with status 200 (a web UI or proxy where the API was expected).

Server-wide behaviours real servers show: ``serial=True`` generates one reply at a time
(llama.cpp with one slot: queued requests get no byte until their turn), ``interrupt=True``
drops the streamed reply in progress when a new chat request arrives — its stream just ends,
with no finish_reason (llama-cpp-python's default ``interrupt_requests``), ``web_ui=True``
answers every path with an HTML page, ``chunk_delay`` trickles a stream like a slow CPU
model. A client that hangs up before its reply is complete is counted in ``cancelled``
and the server stops generating for it, as vLLM and llama.cpp do.

Sync use (tests)::

    with OpenAIServer(latency=0.05, faults=[Fault("500", first=2)]) as srv:
        client = OpenAI(base_url=srv.base_url, api_key="EMPTY")

CLI: ``python -m medsim.testing.openai_server --port 8000 --latency 0.1``
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import math
import struct
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from medsim.models.embeddings import hash_embedding  # standard library only, like this module

FAULT_KINDS = ("429", "500", "hang", "malformed", "cut", "empty", "html")

WEB_PAGE = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Open WebUI</title></head>"
            "<body><div id=\"app\">Loading…</div></body></html>\n")

_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests",
            500: "Internal Server Error"}

Reply = Callable[[dict[str, Any]], str]


@dataclass
class Fault:
    """One rule of a fault plan. Every selector given must match; none given = every request.

    first:    only the first N chat requests the server receives
    marker:   only requests whose last user message contains this text
    fraction: a seeded pseudo-random fraction of requests (decided per distinct request
              and occurrence, so the choice does not depend on arrival order)
    times:    each distinct request (same messages) meets this fault at most N times,
              then goes through — "fails, is retried, succeeds"
    """

    kind: str
    first: int | None = None
    marker: str | None = None
    fraction: float | None = None
    seed: int = 0
    times: int | None = None
    retry_after: float | None = 1.0  # seconds, sent with 429 (None: no header)
    hang_s: float = 3600.0

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault {self.kind!r}; known: {', '.join(FAULT_KINDS)}")

    @classmethod
    def parse(cls, spec: str) -> Fault:
        """``KIND[:key=value,...]``, e.g. ``500:first=3`` or ``429:fraction=0.1,retry_after=2``."""
        kind, _, rest = spec.partition(":")
        kwargs: dict[str, Any] = {}
        for part in filter(None, rest.split(",")):
            key, _, value = part.partition("=")
            if key in ("first", "times", "seed"):
                kwargs[key] = int(value)
            elif key in ("fraction", "retry_after", "hang_s"):
                kwargs[key] = float(value)
            elif key == "marker":
                kwargs[key] = value
            else:
                raise ValueError(f"unknown fault option {key!r} in {spec!r}")
        return cls(kind, **kwargs)


def last_user_message(req: dict[str, Any]) -> str:
    for m in reversed(req.get("messages") or []):
        if m.get("role") == "user":
            content = m.get("content")
            return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    return ""


def wants_json(req: dict[str, Any]) -> bool:
    return (req.get("response_format") or {}).get("type") in ("json_object", "json_schema")


def default_reply(req: dict[str, Any]) -> str:
    """Echo the last user message; a JSON object in JSON mode."""
    last = last_user_message(req)[:200]
    if wants_json(req):
        return json.dumps({"reply": last}, ensure_ascii=False)
    return f"收到：{last}"


def scripted_replies(replies: Iterable[str]) -> Reply:
    """Replies in order, cycling."""
    items = list(replies)
    state = {"i": 0}

    def reply(_req: dict[str, Any]) -> str:
        text = items[state["i"] % len(items)]
        state["i"] += 1
        return text

    return reply


def embed_text(text: str, dim: int = 64) -> list[float]:
    """Deterministic unit vector: a hashed bag of characters (texts sharing characters
    point the same way, so similarity scorers can be tested without a model). The same
    vectors as medsim's offline ``hash`` embedder."""
    return hash_embedding(text, dim)


def _split(text: str, n: int) -> list[str]:
    if not text:
        return []
    n = max(1, min(n, len(text)))
    size = math.ceil(len(text) / n)
    return [text[i : i + size] for i in range(0, len(text), size)]


def _request_hash(req: dict[str, Any]) -> str:
    canon = json.dumps(req.get("messages"), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


class OpenAIServer:
    def __init__(
        self,
        *,
        reply: Reply | None = None,
        latency: float = 0.0,
        chunks: int = 4,
        chunk_delay: float = 0.0,
        usage: bool = True,
        faults: Iterable[Fault] = (),
        embedding_faults: Iterable[Fault] = (),
        host: str = "127.0.0.1",
        port: int = 0,
        api_key: str | None = None,
        record: bool = True,
        model_ids: Iterable[str] = ("medsim-test",),
        embedding_dim: int = 64,
        serial: bool = False,
        interrupt: bool = False,
        web_ui: bool = False,
    ):
        self.reply = reply or default_reply
        self.latency = latency
        self.chunks = chunks
        self.chunk_delay = chunk_delay
        self.usage = usage  # False: never report usage (llama.cpp-like)
        self.host = host
        self.port = port
        self.api_key = api_key  # when set, requests must carry "Authorization: Bearer <key>"
        self.record = record
        self.model_ids = list(model_ids)
        self.embedding_dim = embedding_dim
        self.serial = serial  # one reply generated at a time; the others wait without a byte
        self.interrupt = interrupt  # a new chat request ends the stream in progress unfinished
        self.web_ui = web_ui  # every path answers an HTML page with status 200
        self._serial_lock: asyncio.Lock | None = None
        self.set_faults(*faults)
        # /v1/embeddings has its own plan (first=N counts embedding requests); "malformed",
        # "cut" and "empty" all send a body that does not parse.
        self.embedding_faults = list(embedding_faults)
        self.reset_counts()
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    # ---- state visible to tests -------------------------------------------------------------
    def reset_counts(self) -> None:
        self.counts: Counter[str] = Counter()  # requests received, per path
        self.faults_served: Counter[str] = Counter()  # per fault kind
        self.requests: list[dict[str, Any]] = []  # chat request bodies (when record=True)
        self.in_flight = 0
        self.max_in_flight = 0
        self.cancelled = 0  # chat requests whose client hung up before the reply was complete
        self.queued = 0  # serial mode: requests waiting for their turn
        self.generating = 0  # replies being generated right now (in serial mode at most 1)
        self.max_generating = 0
        self.interrupted = 0  # interrupt mode: streams ended unfinished for a newer request
        self._chat_seq = 0
        self._embed_seq = 0
        self._seen: Counter[str] = Counter()

    def set_faults(self, *faults: Fault) -> None:
        self.faults = list(faults)
        self._fault_hits: Counter[tuple[int, int, str]] = Counter()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    # ---- lifecycle ----------------------------------------------------------------------------
    async def start_async(self) -> None:
        self._server = await asyncio.start_server(self._handle, self.host, self.port, limit=1 << 20)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop_async(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    def start(self) -> OpenAIServer:
        """Serve from a background thread with its own event loop (for sync tests)."""
        ready = threading.Event()
        errors: list[BaseException] = []
        self._loop = asyncio.new_event_loop()

        def run() -> None:
            loop = self._loop
            assert loop is not None
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self.start_async())
            except BaseException as exc:  # reported to the starting thread
                errors.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()

        self._thread = threading.Thread(target=run, name="medsim-openai-server", daemon=True)
        self._thread.start()
        ready.wait(10)
        if errors:
            raise errors[0]
        return self

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        asyncio.run_coroutine_threadsafe(self.stop_async(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
        self._loop = self._thread = None

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- HTTP ----------------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                    break
                lines = head.decode("latin-1").split("\r\n")
                try:
                    method, target, version = lines[0].split(" ", 2)
                except ValueError:
                    break
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        k, v = line.split(":", 1)
                        headers[k.strip().lower()] = v.strip()
                length = int(headers.get("content-length") or 0)
                body = await reader.readexactly(length) if length else b""
                keep_alive = version == "HTTP/1.1" and headers.get("connection", "").lower() != "close"
                path = target.split("?", 1)[0]
                self.counts[path] += 1
                must_close = await self._dispatch(method, path, headers, body, writer, reader)
                if must_close or not keep_alive:
                    break
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass
        finally:
            self._tasks.discard(task)
            try:
                writer.close()
            except Exception:
                pass

    @staticmethod
    def _head(status: int, headers: dict[str, str]) -> bytes:
        lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _send_json(
        self, writer: asyncio.StreamWriter, status: int, obj: Any, extra: dict[str, str] | None = None
    ) -> None:
        body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": "application/json", "Content-Length": str(len(body))}
        headers.update(extra or {})
        writer.write(self._head(status, headers) + body)
        await writer.drain()

    def _authorized(self, headers: dict[str, str]) -> bool:
        return self.api_key is None or headers.get("authorization") == f"Bearer {self.api_key}"

    async def _dispatch(
        self, method: str, path: str, headers: dict[str, str], body: bytes, writer: asyncio.StreamWriter,
        reader: asyncio.StreamReader | None = None,
    ) -> bool:
        if self.web_ui:
            page = WEB_PAGE.encode("utf-8")
            writer.write(self._head(200, {"Content-Type": "text/html; charset=utf-8",
                                          "Content-Length": str(len(page))}) + page)
            await writer.drain()
            return False
        if not self._authorized(headers):
            await self._send_json(writer, 401, _error("invalid api key", "invalid_request_error"))
            return False
        if method == "GET" and path in ("/v1/models", "/models"):
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "medsim"} for m in self.model_ids]
            await self._send_json(writer, 200, {"object": "list", "data": data})
            return False
        if method == "POST" and path in ("/v1/chat/completions", "/chat/completions"):
            return await self._chat(body, writer, reader)
        if method == "POST" and path in ("/v1/embeddings", "/embeddings"):
            await self._embeddings(body, writer)
            return False
        await self._send_json(writer, 404, _error(f"no route {method} {path}", "not_found"))
        return False

    # ---- faults ---------------------------------------------------------------------------------
    def _pick_fault(
        self, req: dict[str, Any], seq: int, rhash: str, occurrence: int, faults: list[Fault] | None = None
    ) -> Fault | None:
        plan = self.faults if faults is None else faults
        for i, f in enumerate(plan):
            if f.first is not None and seq > f.first:
                continue
            if f.marker is not None and f.marker not in last_user_message(req):
                continue
            if f.fraction is not None:
                h = hashlib.sha256(f"{f.seed}|{rhash}|{occurrence}".encode()).digest()
                if int.from_bytes(h[:8], "big") / 2**64 >= f.fraction:
                    continue
            if f.times is not None:
                hit = (id(plan), i, rhash)
                if self._fault_hits[hit] >= f.times:
                    continue
                self._fault_hits[hit] += 1
            return f
        return None

    # ---- chat completions -----------------------------------------------------------------------
    def _displaced(self, seq: int) -> bool:
        """Interrupt mode: a newer chat request has arrived, so request ``seq`` is dropped."""
        return self.interrupt and self._chat_seq != seq

    async def _wait(self, seconds: float, reader: asyncio.StreamReader | None, seq: int | None = None) -> bool:
        """Sleep ``seconds``; False as soon as the client hangs up (it stopped waiting) or, in
        interrupt mode, request ``seq`` is displaced by a newer one."""
        deadline = time.monotonic() + seconds
        while True:
            if reader is not None and reader.at_eof():
                return False
            if seq is not None and self._displaced(seq):
                return False
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            await asyncio.sleep(min(left, 0.02))

    async def _chat(self, body: bytes, writer: asyncio.StreamWriter, reader: asyncio.StreamReader | None = None) -> bool:
        if self.serial:
            if self._serial_lock is None:
                self._serial_lock = asyncio.Lock()
            lock = self._serial_lock
            self.queued += 1
            try:
                acquire = asyncio.ensure_future(lock.acquire())
                while not acquire.done():
                    if reader is not None and reader.at_eof():
                        acquire.cancel()
                        self.cancelled += 1
                        return True
                    await asyncio.wait({acquire}, timeout=0.02)
            finally:
                self.queued -= 1
            try:
                return await self._chat_one(body, writer, reader)
            finally:
                lock.release()
        return await self._chat_one(body, writer, reader)

    async def _chat_one(self, body: bytes, writer: asyncio.StreamWriter, reader: asyncio.StreamReader | None) -> bool:
        self._chat_seq += 1
        seq = self._chat_seq
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        self.generating += 1
        self.max_generating = max(self.max_generating, self.generating)
        try:
            try:
                req = json.loads(body)
            except ValueError:
                await self._send_json(writer, 400, _error("body is not JSON", "invalid_request_error"))
                return False
            if self.record:
                self.requests.append(req)
            rhash = _request_hash(req)
            self._seen[rhash] += 1
            fault = self._pick_fault(req, seq, rhash, self._seen[rhash])
            if fault is not None:
                self.faults_served[fault.kind] += 1
            if fault is not None and fault.kind == "hang":
                if not await self._wait(fault.hang_s, reader):
                    self.cancelled += 1
                return True
            if self.latency and not await self._wait(self.latency, reader, seq):
                if self._displaced(seq) and req.get("stream"):
                    return await self._stream(req, seq, "", "interrupted", writer, reader)
                self.cancelled += 1
                return True
            if fault is not None and fault.kind == "html":
                page = WEB_PAGE.encode("utf-8")
                writer.write(self._head(200, {"Content-Type": "text/html; charset=utf-8",
                                              "Content-Length": str(len(page))}) + page)
                await writer.drain()
                return False
            if fault is not None and fault.kind == "429":
                extra = {} if fault.retry_after is None else {"Retry-After": f"{fault.retry_after:g}"}
                await self._send_json(writer, 429, _error("rate limited (injected)", "rate_limit_error"), extra)
                return False
            if fault is not None and fault.kind == "500":
                await self._send_json(writer, 500, _error("internal error (injected)", "server_error"))
                return False
            kind = fault.kind if fault is not None else None
            try:
                content = "" if kind == "empty" else self.reply(req)
            except Exception as exc:  # a broken reply function shows up as a 500 that says why
                await self._send_json(writer, 500, _error(f"reply function failed: {exc!r}", "server_error"))
                return False
            if req.get("stream"):
                return await self._stream(req, seq, content, kind, writer, reader)
            return await self._complete(req, seq, content, kind, writer)
        finally:
            self.in_flight -= 1
            self.generating -= 1

    def _usage(self, req: dict[str, Any], content: str) -> dict[str, int]:
        # Deliberately not medsim's estimate, so tests can tell reported from estimated usage.
        msgs = req.get("messages") or []
        prompt = sum(len(str(m.get("content") or "")) for m in msgs) + 5 * len(msgs)
        completion = len(content) + 1
        return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}

    async def _complete(
        self, req: dict[str, Any], seq: int, content: str, kind: str | None, writer: asyncio.StreamWriter
    ) -> bool:
        obj: dict[str, Any] = {
            "id": f"chatcmpl-{seq}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": req.get("model", ""),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        }
        if self.usage:
            obj["usage"] = self._usage(req, content)
        body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        if kind == "malformed":
            body = body[: len(body) // 2]  # valid start, truncated: does not parse
            headers = {"Content-Type": "application/json", "Content-Length": str(len(body))}
            writer.write(self._head(200, headers) + body)
            await writer.drain()
            return False
        headers = {"Content-Type": "application/json", "Content-Length": str(len(body))}
        if kind == "cut":  # promise a length, send half, hang up
            writer.write(self._head(200, headers) + body[: len(body) // 2])
            await writer.drain()
            writer.transport.abort()
            return True
        writer.write(self._head(200, headers) + body)
        await writer.drain()
        return False

    async def _stream(
        self, req: dict[str, Any], seq: int, content: str, kind: str | None, writer: asyncio.StreamWriter,
        reader: asyncio.StreamReader | None = None,
    ) -> bool:
        base = {"id": f"chatcmpl-{seq}", "object": "chat.completion.chunk", "created": int(time.time()),
                "model": req.get("model", "")}

        def event(payload: Any) -> bytes:
            data = b"data: " + (payload if isinstance(payload, bytes) else json.dumps(payload, ensure_ascii=False).encode()) + b"\n\n"
            return f"{len(data):x}\r\n".encode() + data + b"\r\n"

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            return event({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

        head = self._head(200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                "Transfer-Encoding": "chunked"})
        pieces = _split(content, self.chunks)
        events = [chunk({"role": "assistant", "content": ""})]
        if kind == "interrupted":  # the stream ends at once, cleanly, with no finish_reason
            self.interrupted += 1
            writer.write(head + b"".join(events) + event(b"[DONE]") + b"0\r\n\r\n")
            await writer.drain()
            return False
        if kind == "cut":  # a few chunks, then the connection drops without the final chunk
            events += [chunk({"content": p}) for p in pieces[: max(1, len(pieces) // 2)]]
            writer.write(head + b"".join(events))
            await writer.drain()
            writer.transport.abort()
            return True
        if kind == "malformed":
            events += [chunk({"content": pieces[0] if pieces else ""}), event(b'{"id": "chatcmpl-x", "choices": [{"delta": ')]
        else:
            events += [chunk({"content": p}) for p in pieces]
        events.append(chunk({}, "stop"))
        include_usage = bool((req.get("stream_options") or {}).get("include_usage"))
        if self.usage and include_usage:
            events.append(event({**base, "choices": [], "usage": self._usage(req, content)}))
        events.append(event(b"[DONE]"))
        if self.chunk_delay:
            writer.write(head)
            for i, e in enumerate(events):
                try:
                    writer.write(e)
                    await writer.drain()
                except ConnectionError:
                    self.cancelled += 1
                    return True
                if i + 1 < len(events) and not await self._wait(self.chunk_delay, reader, seq):
                    if self._displaced(seq):  # dropped for a newer request: end unfinished
                        self.interrupted += 1
                        writer.write(event(b"[DONE]") + b"0\r\n\r\n")
                        await writer.drain()
                        return False
                    self.cancelled += 1  # the client hung up: stop generating for it
                    return True
        else:
            writer.write(head + b"".join(events))
        writer.write(b"0\r\n\r\n")
        await writer.drain()
        return False

    # ---- embeddings ------------------------------------------------------------------------------
    async def _embeddings(self, body: bytes, writer: asyncio.StreamWriter) -> None:
        try:
            req = json.loads(body)
        except ValueError:
            await self._send_json(writer, 400, _error("body is not JSON", "invalid_request_error"))
            return
        inputs = req.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not all(isinstance(x, str) for x in inputs):
            await self._send_json(writer, 400, _error("input must be a string or a list of strings", "invalid_request_error"))
            return
        self._embed_seq += 1
        pseudo = {"messages": [{"role": "user", "content": "\n".join(inputs)}]}
        rhash = _request_hash(pseudo)
        self._seen["emb:" + rhash] += 1
        fault = self._pick_fault(pseudo, self._embed_seq, rhash, self._seen["emb:" + rhash], self.embedding_faults)
        if fault is not None:
            self.faults_served["embeddings:" + fault.kind] += 1
            if fault.kind == "hang":
                await asyncio.sleep(fault.hang_s)
                return
            if fault.kind == "429":
                extra = {} if fault.retry_after is None else {"Retry-After": f"{fault.retry_after:g}"}
                await self._send_json(writer, 429, _error("rate limited (injected)", "rate_limit_error"), extra)
                return
            if fault.kind == "500":
                await self._send_json(writer, 500, _error("internal error (injected)", "server_error"))
                return
            broken = b'{"object": "list", "data": [{"embedding": [0.1, '
            writer.write(self._head(200, {"Content-Type": "application/json", "Content-Length": str(len(broken))}) + broken)
            await writer.drain()
            return
        dim = int(req.get("dimensions") or self.embedding_dim)
        data = []
        for i, text in enumerate(inputs):
            vec: Any = embed_text(text, dim)
            if req.get("encoding_format") == "base64":
                vec = base64.b64encode(struct.pack(f"<{dim}f", *vec)).decode("ascii")
            data.append({"object": "embedding", "index": i, "embedding": vec})
        tokens = sum(len(t) for t in inputs)
        await self._send_json(writer, 200, {"object": "list", "data": data, "model": req.get("model", ""),
                                            "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "code": None}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m medsim.testing.openai_server", description=__doc__.split("\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000, help="0 picks a free port (printed on start)")
    ap.add_argument("--latency", type=float, default=0.0, help="seconds before each chat reply")
    ap.add_argument("--chunks", type=int, default=4, help="stream chunks per reply")
    ap.add_argument("--no-usage", action="store_true", help="never report usage (like llama.cpp streams)")
    ap.add_argument("--fault", action="append", default=[], metavar="KIND[:k=v,...]",
                    help=f"inject a fault; kinds: {', '.join(FAULT_KINDS)}; e.g. 500:first=3, 429:fraction=0.1")
    ap.add_argument("--reply", action="append", default=[], help="scripted reply (repeatable, cycles)")
    ap.add_argument("--reply-fn", metavar="MODULE:FUNCTION",
                    help="reply with a function of the request, e.g. medsim.testing.stubs:obedient_judge")
    ap.add_argument("--chunk-delay", type=float, default=0.0, help="seconds between stream chunks")
    ap.add_argument("--serial", action="store_true", help="generate one reply at a time (llama.cpp, one slot)")
    ap.add_argument("--interrupt", action="store_true",
                    help="a new request ends the stream in progress unfinished (llama-cpp-python)")
    ap.add_argument("--web-ui", action="store_true", help="answer every path with an HTML page")
    args = ap.parse_args(argv)
    reply = scripted_replies(args.reply) if args.reply else None
    if args.reply_fn:
        import importlib

        module, _, name = args.reply_fn.partition(":")
        reply = getattr(importlib.import_module(module), name)
    server = OpenAIServer(
        host=args.host, port=args.port, latency=args.latency, chunks=args.chunks, usage=not args.no_usage,
        faults=[Fault.parse(s) for s in args.fault], record=False,
        reply=reply,
        chunk_delay=args.chunk_delay, serial=args.serial, interrupt=args.interrupt,
        web_ui=args.web_ui,
    )

    async def serve() -> None:
        await server.start_async()
        print(f"medsim test server on {server.base_url}", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await server.stop_async()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
