"""``medsim report`` and ``medsim compare``."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from cli.console import console, err_console, fail
from cli.safe import safe
from medsim.store.db import Store

FORMATS = ("table", "json", "csv", "md", "html")


def _store(db: Path) -> Store:
    from cli.run_cmd import read_store

    return read_store(db)  # reports never write: they work on read-only media too


def report_command(run_id: str | None, db: Path, fmt: str, out: Path | None, taxonomy: str) -> None:
    if fmt not in FORMATS:
        fail(f"unknown format {fmt!r}", hint=f"use one of {', '.join(FORMATS)}")
    store = _store(db)
    run_id = run_id or store.latest_run_id()
    if run_id is None:
        fail(f"no runs in {db}", hint="run `medsim run ... --db PATH` first")
    run_id = store.get_run(run_id)["id"]
    if fmt == "table":
        from cli.report_view import print_summary

        print_summary(store, run_id, taxonomy)
        return
    from medsim.report.summary import build_summary

    summary = build_summary(store, run_id, taxonomy)
    if fmt == "html":
        from medsim.report.html import render_html

        text = render_html(store, run_id, summary)
        out = out or Path(f"{run_id}.html")
    else:
        from medsim.report import formats

        text = {"json": formats.to_json, "csv": formats.to_csv, "md": formats.to_markdown}[fmt](summary)
    if out:
        if out.is_dir():
            fail(f"--out {out} is a folder", hint=f"give a file path, e.g. --out {out / (run_id + '.' + fmt)}")
        if not out.parent.is_dir():
            fail(f"--out {out}: folder {out.parent} does not exist",
                 hint=f"create it (mkdir -p {out.parent}), or pass another --out")
        out.write_text(text, encoding="utf-8")
        console.print(f"wrote {safe(out)}")
    else:
        print(text, end="")


def compare_command(run_ids: list[str], db: Path, taxonomy: str, force: bool = False) -> None:
    if len(run_ids) < 2:
        fail("compare needs two or more run ids", hint="`medsim runs` lists them")
    repeated = sorted({r for r in run_ids if run_ids.count(r) > 1})
    if repeated:
        # a run set against itself shows "no difference" everywhere, which reads like a finding
        fail(f"compare was given the same run more than once: {', '.join(repeated)}",
             hint="name each run once; `medsim runs` lists them")
    store = _store(db)
    from medsim.report.compare import compare_runs

    result = compare_runs(store, run_ids, taxonomy, force=force)
    title = "leaderboard" if result["ranked"] else "runs side by side (not ranked: different coverage)"
    board = Table(title=f"{title} ({safe(result['taxonomy'])})", header_style="bold")
    for column in ("rank", "run", "model"):
        board.add_column(column, overflow="fold")
    for dim in result["dimensions"]:
        board.add_column(safe(dim), overflow="fold")
    board.add_column("overall", overflow="fold")
    board.add_column("items scored", overflow="fold")
    for row in result["leaderboard"]:
        cells = ["—" if row["dimensions"].get(d) is None else
                 f"{row['dimensions'][d]:.3f}" + ("" if row["complete"].get(d) else "*") for d in result["dimensions"]]
        overall = "—" if row["overall"] is None else (
            f"{row['overall']:.3f}" + ("" if row["overall_complete"] else f" (over {row['overall_dimensions']})"))
        board.add_row("—" if row["rank"] is None else str(row["rank"]), safe(row["run"]), safe(row["model"]), *cells,
                      overall, f"{row['scored']}/{row['planned']}")
    console.print(board)
    if any(not all(r["complete"].values()) for r in result["leaderboard"] if r["complete"]):
        console.print("[dim]* a dimension score over only some of its scenarios or items (see show-run)[/]")
    if result["coverage_differences"]:
        for line in result["coverage_differences"]:
            err_console.print(f"[yellow]coverage differs:[/] {safe(line)}")
        err_console.print(f"[yellow]{safe(result['ranking_note'])}[/]")
    diffs = Table(title=f"paired differences on shared items (bootstrap 95% CI; no call below "
                        f"{result['min_paired']} pairs)", header_style="bold")
    for column in ("scenario", "A", "B", "items", "B − A", "95% CI", "verdict"):
        diffs.add_column(column, overflow="fold")
    for d in result["pairs"]:
        ci = f"[{d['ci'][0]:+.3f}, {d['ci'][1]:+.3f}]" if d["ci"] else ""
        said = f"[bold green]{safe(d['verdict'])}[/]" if d["significant"] else safe(d["verdict"])
        diffs.add_row(safe(d["scenario"]), safe(d["a"]), safe(d["b"]), str(d["n"]),
                      "—" if d["diff"] is None else f"{d['diff']:+.3f}", ci, said)
    console.print(diffs)
    unpaired = [d for d in result["pairs"] if d["scenario"] == "(all shared items)" and d["n"] == 0]
    for d in unpaired:
        err_console.print(f"[yellow]warning:[/] {safe(d['a'])} and {safe(d['b'])} share no items; nothing can be "
                          "said about which is better")
