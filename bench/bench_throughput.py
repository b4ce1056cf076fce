"""Throughput of the model layer against the local asyncio server, in one run.

N single-turn chat requests at concurrency C against ``medsim.testing.openai_server`` with
L seconds of latency per reply (defaults: 2,000 × 64 × 0.1 s, ideal = N / C × L = 3.1 s).
Prints wall time against the ideal as a ratio for:

  bare      the bare ``AsyncOpenAI`` client — the floor any wrapper can reach here
  medsim    ``OpenAICompatModel`` (retries armed, per-endpoint limiter, no cache)
  +cache    the same with the SQLite response cache (cold: every reply is written)
  rerun     the same again over the filled cache: no requests at all
  gather    medsim with all N calls started at once, the limiter holding them to C

The server runs in its own process so it does not share the client's core and GIL
(this machine has two). Usage: ``python bench/bench_throughput.py [--items N] ...``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def start_server(latency: float, stream_chunks: int) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen(
        [sys.executable, "-m", "medsim.testing.openai_server", "--port", "0", "--latency", str(latency),
         "--chunks", str(stream_chunks)],
        stdout=subprocess.PIPE, text=True, env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"server did not start: {line!r}")
    return proc, line.split()[-1]


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def prompts(n: int, tag: str) -> list[list[dict[str, str]]]:
    return [[{"role": "system", "content": "你是门诊医生。"}, {"role": "user", "content": f"{tag} 患者{i}：咳嗽三天，发热38.5℃。"}]
            for i in range(n)]


async def workers(n_workers: int, items: list[Any], call: Any) -> tuple[int, int]:
    """C workers pulling from one list: the same driver for every contender."""
    it = iter(items)
    ok = err = 0

    async def worker() -> None:
        nonlocal ok, err
        for item in it:
            try:
                await call(item)
                ok += 1
            except Exception:
                err += 1

    await asyncio.gather(*(worker() for _ in range(n_workers)))
    return ok, err


async def bench_bare(url: str, items: list[Any], conc: int, stream: bool) -> tuple[int, int]:
    import openai

    client = openai.AsyncOpenAI(base_url=url, api_key="EMPTY", max_retries=0)

    async def call(messages: Any) -> str:
        if stream:
            s = await client.chat.completions.create(model="bench", messages=messages, stream=True)
            return "".join([c.choices[0].delta.content or "" async for c in s if c.choices])
        r = await client.chat.completions.create(model="bench", messages=messages)
        return r.choices[0].message.content or ""

    await workers(conc, items[:conc], call)  # warm the connection pool, as every contender does
    t0 = time.perf_counter()
    result = await workers(conc, items[conc:], call)
    bench_bare.elapsed = time.perf_counter() - t0  # type: ignore[attr-defined]
    await client.close()
    return result


async def bench_medsim(url: str, items: list[Any], conc: int, stream: bool, cache: Any, gather: bool) -> tuple[int, int]:
    from medsim.models.openai_compat import OpenAICompatModel

    model = OpenAICompatModel("bench", base_url=url, concurrency=conc, stream=stream, cache=cache, timeout_s=30)

    async def call(messages: Any) -> str:
        return (await model.chat(messages)).content

    await workers(conc, items[:conc], call)
    t0 = time.perf_counter()
    if gather:
        results = await asyncio.gather(*(call(m) for m in items[conc:]), return_exceptions=True)
        err = sum(isinstance(r, BaseException) for r in results)
        result = (len(results) - err, err)
    else:
        result = await workers(conc, items[conc:], call)
    bench_medsim.elapsed = time.perf_counter() - t0  # type: ignore[attr-defined]
    await model.aclose()
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--repeats", type=int, default=3, help="rounds of the main contenders, interleaved; median reported")
    ap.add_argument("--stream", action="store_true", help="also run every contender with streaming")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON too")
    args = ap.parse_args()
    from medsim.store.cache import ResponseCache

    n, c, lat = args.items, args.concurrency, args.latency
    ideal = n / c * lat
    proc, url = start_server(lat, 4)
    samples: dict[tuple[str, str], list[dict[str, Any]]] = {}
    tmp = tempfile.mkdtemp(prefix="medsim-bench-")

    def measure(tag: str, label: str, fn: Any, *fn_args: Any) -> None:
        cpu0, srv0 = time.process_time(), proc_cpu(proc.pid)
        ok, err = asyncio.run(fn(*fn_args))
        cpu, srv = time.process_time() - cpu0, proc_cpu(proc.pid) - srv0
        samples.setdefault((tag, label), []).append(
            {"ok": ok, "errors": err, "wall_s": fn.elapsed, "client_cpu_s": cpu, "server_cpu_s": srv})

    try:
        for stream in [False, True] if args.stream else [False]:
            tag = "stream" if stream else "plain"
            for r in range(args.repeats):
                # fresh prompts per round, so the cold cache row really is cold
                items = prompts(n + c, f"{tag}-{r}")
                cache = ResponseCache(Path(tmp) / f"cache-{tag}-{r}.db")
                measure(tag, "bare AsyncOpenAI", bench_bare, url, items, c, stream)
                measure(tag, "medsim", bench_medsim, url, items, c, stream, None, False)
                measure(tag, "medsim +cache (cold)", bench_medsim, url, items, c, stream, cache, False)
                if r == 0:
                    measure(tag, "medsim rerun (cache hits)", bench_medsim, url, items, c, stream, cache, False)
                    measure(tag, "medsim gather-all", bench_medsim, url, items, c, stream, None, True)
                cache.close()
    finally:
        proc.terminate()
        proc.wait(5)

    rows = []
    for (tag, label), runs in samples.items():
        walls = sorted(x["wall_s"] for x in runs)
        med = statistics.median(walls)
        rows.append({"mode": tag, "contender": label, "items": n, "runs": len(runs),
                     "ok": min(x["ok"] for x in runs), "errors": max(x["errors"] for x in runs),
                     "wall_s": round(med, 3), "wall_min_s": round(walls[0], 3), "wall_max_s": round(walls[-1], 3),
                     "ideal_s": round(ideal, 3), "ratio": round(med / ideal, 3),
                     "client_cpu_s": round(statistics.median(x["client_cpu_s"] for x in runs), 2),
                     "server_cpu_s": round(statistics.median(x["server_cpu_s"] for x in runs), 2)})

    print(f"{n} single-turn requests, concurrency {c}, server latency {lat * 1000:.0f} ms, ideal {ideal:.2f} s; "
          f"server in its own process; {os.cpu_count()} CPUs; median of the runs shown")
    print(f"{'mode':7} {'contender':27} {'runs':>4} {'ok':>5} {'err':>4} {'wall s':>7} {'min–max s':>11} {'ratio':>6} "
          f"{'client CPU s':>12} {'server CPU s':>12}")
    for r in rows:
        spread = f"{r['wall_min_s']:.2f}–{r['wall_max_s']:.2f}"
        print(f"{r['mode']:7} {r['contender']:27} {r['runs']:4d} {r['ok']:5d} {r['errors']:4d} {r['wall_s']:7.2f} "
              f"{spread:>11} {r['ratio']:6.3f} {r['client_cpu_s']:12.2f} {r['server_cpu_s']:12.2f}")
    print("(client/server CPU include each contender's untimed warm-up of C requests)")
    by = {(r["mode"], r["contender"]): r["wall_s"] for r in rows}
    for tag in dict.fromkeys(r["mode"] for r in rows):
        print(f"medsim / bare ({tag}): {by[(tag, 'medsim')] / by[(tag, 'bare AsyncOpenAI')]:.3f}")
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))


if __name__ == "__main__":
    main()
