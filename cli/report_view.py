"""Terminal rendering of a run summary (scenario and dimension tables)."""

from __future__ import annotations

from rich.table import Table

from cli.console import console
from cli.safe import safe
from medsim.report.summary import build_summary
from medsim.store.db import Store


def _fmt(score: float | None, ci: tuple[float, float] | list[float] | None) -> tuple[str, str]:
    if score is None:
        return "—", ""
    return f"{score:.3f}", (f"[{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def print_summary(store: Store, run_id: str, taxonomy: str = "climedbench") -> dict:
    summary = build_summary(store, run_id, taxonomy)
    table = Table(title="scenario scores", header_style="bold")
    for column in ("scenario", "score", "95% CI", "items", "errors", "scorers", "tokens", "cost"):
        table.add_column(column)
    for s in summary["scenarios"]:
        score, ci = _fmt(s["score"], s["ci"])
        scorers = " ".join(f"{safe(k)}={v:.2f}" for k, v in sorted(s["by_scorer"].items()))
        # rates are not scores (lower under-triage is better): set apart so they do not read as one
        rates = "(" + ", ".join(f"{safe(k.replace('_rate', ''))} rate {v:.2f}" for k, v in s["rates"].items()) + ")" \
            if s["rates"] else ""
        table.add_row(safe(s["id"]), score, ci, str(s["n"]), f"[red]{s['errors']}[/]" if s["errors"] else "0",
                      scorers + (f" {rates}" if rates else ""), str(s["tokens"]),
                      f"${s['cost']:.4f}" if s["cost"] else "—")
    console.print(table)
    dims = Table(title=f"dimension scores ({safe(summary['taxonomy'])})", header_style="bold")
    for column in ("dimension", "score", "95% CI", "scenarios"):
        dims.add_column(column)
    for d in summary["dimensions"]:
        score, ci = _fmt(d["score"], d["ci"])
        dims.add_row(f"{safe(d['name'])} ({safe(d['id'])})", score, ci, safe(", ".join(d["scenarios"]) or "—"))
    console.print(dims)
    for name, sim in summary.get("simulators", {}).items():
        if name == "rule":
            console.print(f"[dim]patient simulator rule: {sim['turns']} turns in {sim['episodes']} episodes[/]")
    from medsim.judge.integrity import integrity_lines

    for line in integrity_lines(summary):
        console.print(f"[yellow]{safe(line)}[/]")
    errors = [s for s in summary["scenarios"] if s["errors"]]
    for s in errors:
        console.print(f"[red]{s['errors']} error(s) in {safe(s['id'])}[/] (not scored): "
                      + safe("; ".join(s["error_reasons"])))
    for s in summary["scenarios"]:
        for scorer, info in s.get("scorer_errors", {}).items():
            console.print(f"[red]{info['count']} item(s) in {safe(s['id'])} not scored by {safe(scorer)}[/]: "
                          f"{safe(info['reason'])}")
    return summary
