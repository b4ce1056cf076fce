"""The whole `medsim run` path (episode → scorer → SQLite store, one commit per item) against the
local OpenAI-compatible server in its own process.

1. Throughput: N single-turn items (default 2,000) at concurrency 64 with 100 ms server latency.
   Prints wall time against the ideal (items ÷ concurrency × latency) and, in the same run on
   the same server, the bare AsyncOpenAI client sending the same number of requests.
2. Memory: a long run (default 30,000 items, no latency) and the process's peak resident memory,
   sampled as it goes, to show whether anything grows with the number of items.

Usage: python bench/bench_run.py [--items 2000] [--long 30000] [--concurrency 64]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def start_server(latency: float) -> tuple[subprocess.Popen[str], str]:
    """The local server in its own process, answering every item correctly."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "medsim.testing.openai_server", "--port", "0", "--latency",
                             str(latency), "--chunks", "1", "--reply", "答案：B"], stdout=subprocess.PIPE, text=True,
                            env=env)
    line = proc.stdout.readline() if proc.stdout else ""
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"server did not start: {line!r}")
    return proc, line.split()[-1]

QUESTION = "成人血清钾的参考范围是（第{i}题）"
OPTIONS = {"A": "2.5–3.5mmol/L", "B": "3.5–5.3mmol/L", "C": "5.5–6.5mmol/L", "D": "135–145mmol/L"}


def write_scenario(folder: Path, n: int) -> Path:
    """A choice scenario of n distinct items (JSONL cases: the fast path for big sets)."""
    import json

    (folder / "cases").mkdir(parents=True, exist_ok=True)
    with (folder / "cases" / "bench.jsonl").open("w", encoding="utf-8") as out:
        for i in range(n):
            out.write(json.dumps({"id": f"q{i}", "source": "synthetic benchmark item", "question": QUESTION.format(i=i),
                                  "options": OPTIONS, "gold": {"choice": "B"}}, ensure_ascii=False) + "\n")
    path = folder / "bench.yaml"
    path.write_text(
        "id: bench\nname: 基准\nname_en: Benchmark\ndimension: knowledge_application\nkind: single_turn\n"
        "cases: cases/bench.jsonl\nclinician:\n  instructions: 只输出选项字母。\n  prompt: \"{question}\\n{options}\"\n"
        "  answer: {format: choice}\nscoring:\n  - choice: {}\n", encoding="utf-8")
    return path


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


async def medsim_run(url: str, scenario: Path, db: Path, concurrency: int, samples: list | None = None) -> float:
    from medsim.models.openai_compat import OpenAICompatModel
    from medsim.runner import RunConfig, Services, execute_run, load_scenarios, start_run
    from medsim.store.db import Store

    store = Store(db)
    config = RunConfig(scenarios=[str(scenario)], model="bench", concurrency=concurrency, cache=False)
    model = OpenAICompatModel("bench", base_url=url, api_key="EMPTY", concurrency=concurrency)
    loaded = load_scenarios(config)
    run_id = start_run(store, config, loaded, model.describe())

    class Sampler:
        done = 0

        def planned(self, *args) -> None: ...

        def item_done(self, scenario_id, record) -> None:
            self.done += 1
            if samples is not None and self.done % 5000 == 0:
                samples.append((self.done, rss_mb()))

    started = time.perf_counter()
    await execute_run(store, run_id, config, Services(clinician=model), Sampler())
    elapsed = time.perf_counter() - started
    await model.aclose()
    # Counted without reading transcripts: loading 30,000 of them would itself set the peak.
    scored = sum(score == 1.0 for score in store.item_scores(run_id).values())
    assert scored == len(loaded[0].cases), f"only {scored} items scored 1.0"
    store.close()
    return elapsed


async def bare_client(url: str, n: int, concurrency: int) -> float:
    import openai

    client = openai.AsyncOpenAI(base_url=url, api_key="EMPTY", max_retries=0)
    semaphore = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with semaphore:
            await client.chat.completions.create(model="bench", messages=[
                {"role": "system", "content": "只输出选项字母。"},
                {"role": "user", "content": QUESTION.format(i=i)}])

    started = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    elapsed = time.perf_counter() - started
    await client.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--long", type=int, default=30000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server, url = start_server(args.latency)
        try:
            scenario = write_scenario(folder / "short", args.items)
            ideal = args.items / args.concurrency * args.latency
            bare = asyncio.run(bare_client(url, args.items, args.concurrency))
            ours = asyncio.run(medsim_run(url, scenario, folder / "short.sqlite", args.concurrency))
            print(f"{args.items} items, concurrency {args.concurrency}, latency {args.latency * 1000:.0f} ms: "
                  f"ideal {ideal:.2f} s")
            print(f"  bare AsyncOpenAI        {bare:6.2f} s   {bare / ideal:5.2f}× ideal")
            print(f"  medsim run (full path)  {ours:6.2f} s   {ours / ideal:5.2f}× ideal   {ours / bare:5.2f}× bare")
        finally:
            server.kill()
        if args.long:
            server, url = start_server(0.0)
            try:
                scenario = write_scenario(folder / "long", args.long)
                samples: list = [(0, rss_mb())]
                elapsed = asyncio.run(medsim_run(url, scenario, folder / "long.sqlite", args.concurrency, samples))
                print(f"{args.long} items, no latency: {elapsed:.1f} s, peak RSS {peak_mb():.0f} MB; "
                      "RSS by items done: " + ", ".join(f"{n}: {mb:.0f} MB" for n, mb in samples))
            finally:
                server.kill()


if __name__ == "__main__":
    main()
