"""Memory of the model layer over a long run: N single-turn calls (default 30,000) through
``OpenAICompatModel`` with the response cache on, against the local asyncio server in its
own process. Prints resident memory after warm-up, every N/6 items, and the peak; a
layer that kept per-call state would grow with N.

This measures the model layer alone; the whole ``medsim run`` (runner, store, scorers)
is measured by the integrator's run benchmark.
Usage: ``python bench/bench_memory.py [--items N] [--concurrency C] [--latency S] [--no-cache]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_throughput import start_server  # noqa: E402


def rss_mb() -> float:
    """Current resident set size (Linux /proc)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


async def drive(url: str, n: int, conc: int, cache_path: Path | None) -> list[tuple[int, float]]:
    from medsim.models.openai_compat import OpenAICompatModel
    from medsim.store.cache import ResponseCache

    cache = ResponseCache(cache_path) if cache_path else None
    model = OpenAICompatModel("bench", base_url=url, concurrency=conc, cache=cache, timeout_s=60)
    samples: list[tuple[int, float]] = []
    step = max(1, n // 6)
    done = 0
    errors = 0
    counter = iter(range(n))

    async def worker() -> None:
        nonlocal done, errors
        for i in counter:
            messages = [{"role": "system", "content": "你是门诊医生。"},
                        {"role": "user", "content": f"患者{i}：咳嗽三天，发热38.5℃，请给出初步诊断。"}]
            try:
                await model.chat(messages, seed=i)
            except Exception:
                errors += 1
            done += 1
            if done % step == 0:
                samples.append((done, rss_mb()))

    await asyncio.gather(*(worker() for _ in range(conc)))
    await model.aclose()
    if cache is not None:
        cache.close()
    if errors:
        print(f"{errors} calls failed")
    return samples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=30_000)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--latency", type=float, default=0.0)
    ap.add_argument("--no-cache", action="store_true")
    args = ap.parse_args()

    import openai  # noqa: F401  (imports counted in the baseline, not as growth)

    import medsim.models.openai_compat  # noqa: F401
    import medsim.store.cache  # noqa: F401

    proc, url = start_server(args.latency, 4)
    tmp = Path(tempfile.mkdtemp(prefix="medsim-mem-"))
    try:
        asyncio.run(drive(url, args.concurrency * 4, args.concurrency, None))  # warm-up
        base = rss_mb()
        t0 = time.perf_counter()
        samples = asyncio.run(drive(url, args.items, args.concurrency, None if args.no_cache else tmp / "run.db"))
        wall = time.perf_counter() - t0
    finally:
        proc.terminate()
        proc.wait(5)
    print(f"{args.items} calls, concurrency {args.concurrency}, latency {args.latency * 1000:.0f} ms, "
          f"cache {'off' if args.no_cache else 'on'}: {wall:.1f} s")
    print(f"RSS after imports and warm-up: {base:.1f} MB")
    for done, mb in samples:
        print(f"  after {done:6d} calls: {mb:6.1f} MB")
    peak = max(peak_mb(), *(mb for _, mb in samples))  # getrusage and /proc round differently
    print(f"peak RSS: {peak:.1f} MB; growth over the run: {samples[-1][1] - samples[0][1]:+.1f} MB "
          f"(from {samples[0][0]} to {samples[-1][0]} calls)")
    if not args.no_cache:
        print(f"cache file: {(tmp / 'run.db').stat().st_size / 2**20:.1f} MB")


if __name__ == "__main__":
    main()
