"""Terminal rendering of a run summary (scenario and dimension tables)."""

from __future__ import annotations

from rich.table import Table

from cli.console import console
from cli.safe import safe
from medsim.report.summary import MIN_ITEMS_FOR_CI, build_summary, coverage_text, floor_text
from medsim.store.db import Store


def _fmt(score: float | None, ci: tuple[float, float] | list[float] | None, reliable: bool = True) -> tuple[str, str]:
    if score is None:
        return "—", ""
    interval = f"[{ci[0]:.2f}, {ci[1]:.2f}]" if ci else ""
    if interval and not reliable:
        interval += f" [dim](n<{MIN_ITEMS_FOR_CI}: unreliable)[/]"
    return f"{score:.3f}", interval


ESTIMATED_TOKENS = ("estimated from text length (about a token a Chinese character), where the model reported "
                    "no usage: the offline clinicians, or a server that sends none")


def estimated_calls_note(calls: dict[str, dict]) -> str | None:
    """Say how many model calls' tokens are estimates, per role, or None when all were reported."""
    parts = [f"{role} {int(c['estimated'])}/{c['calls']}" for role, c in sorted(calls.items()) if c.get("estimated")]
    return f"tokens of model calls {ESTIMATED_TOKENS} ({', '.join(parts)} calls)" if parts else None


def print_summary(store: Store, run_id: str, taxonomy: str = "climedbench") -> dict:
    summary = build_summary(store, run_id, taxonomy)
    table = Table(title="scenario scores", header_style="bold")
    for column in ("scenario", "score", "95% CI", "floor", "scored/planned", "errors", "scorers", "tokens", "cost"):
        table.add_column(column, overflow="fold")
    for s in summary["scenarios"]:
        score, ci = _fmt(s["score"], s["ci"], s.get("ci_reliable", True))
        scorers = " ".join(f"{safe(k)}={v:.2f}" for k, v in sorted(s["by_scorer"].items()))
        # rates are not scores (lower under-triage is better): set apart so they do not read as one
        rates = "(" + ", ".join(f"{safe(k.replace('_rate', ''))} rate {v:.2f}" for k, v in s["rates"].items()) + ")" \
            if s["rates"] else ""
        covered = coverage_text(s["scored"], s.get("planned"))
        if s.get("planned") and s["scored"] < s["planned"]:
            covered = f"[yellow]{covered}[/]"
        floor = floor_text(s.get("floors"), 2, named=True)
        table.add_row(safe(s["id"]), score, ci, floor, covered, f"[red]{s['errors']}[/]" if s["errors"] else "0",
                      scorers + (f" {rates}" if rates else ""), str(s["tokens"]),
                      f"${s['cost']:.4f}" if s["cost"] else "—")
    console.print(table)
    for s in summary["scenarios"]:
        for how, count in sorted((s.get("answer_format") or {}).items()):
            console.print(f"[yellow]answer format {safe(s['id'])}:[/] {count}/{s['n']} answers {safe(how)}")
    note = estimated_calls_note(summary.get("calls") or {})
    if note:
        console.print(f"[dim]{safe(note)}[/]")
    for s in summary["scenarios"]:
        bias = s.get("position_bias")
        if bias and bias.get("shares"):
            # a model that favours a letter picks it more often than the gold sits there
            cells = "  ".join(f"{safe(k)} {v['picked_share']:.0%}/{v['gold_share']:.0%}" for k, v in bias["shares"].items())
            console.print(f"position bias {safe(s['id'])} (picked/gold by letter shown): {cells}")
    dims = Table(title=f"dimension scores ({safe(summary['taxonomy'])})", header_style="bold")
    for column in ("dimension", "score", "95% CI", "coverage", "scenarios"):
        dims.add_column(column, overflow="fold")
    for d in summary["dimensions"]:
        score, ci = _fmt(d["score"], d["ci"])
        if d["score"] is not None and not d.get("complete", True):
            score += " [yellow]incomplete[/]"
        dims.add_row(f"{safe(d['name'])} ({safe(d['id'])})", score, ci, safe(d.get("coverage_text", "")),
                     safe(", ".join(d["scenarios"]) or "—"))
    console.print(dims)
    overall = summary.get("overall") or {}
    if overall.get("score") is not None:
        over = ("all dimensions, every planned item" if overall["complete"] else
                f"[yellow]incomplete[/]: over {overall['dimensions']} of {overall['of']} dimensions"
                + ("" if overall["dimensions"] == overall["of"] else ", the others unscored")
                + "; not comparable with a complete run")
        console.print(f"overall {overall['score']:.3f} ({over})")
    unscored = [f"{d['id']}: {', '.join(d['missing'])}" for d in summary["dimensions"] if d.get("missing")]
    if unscored:
        # the taxonomy's dimensions also list scenarios built from outside datasets, which are not bundled
        console.print("[dim]scenarios the taxonomy lists that this run did not score — "
                      + safe("; ".join(unscored))
                      + " (outside datasets such as CMB-Clin, LLMEval-Med and CMExam come in with `medsim import`)[/]")
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
