"""A run summary as JSON, CSV or Markdown text (the HTML report lives in html.py)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from medsim.judge.integrity import integrity_lines


def _score(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def _ci(ci: Any) -> tuple[str, str]:
    return ("", "") if not ci else (f"{ci[0]:.4f}", f"{ci[1]:.4f}")


def to_json(summary: dict[str, Any]) -> str:
    return json.dumps(summary, ensure_ascii=False, indent=2, default=str) + "\n"


def to_csv(summary: dict[str, Any]) -> str:
    """One row per scenario and one per dimension, in one table with a `level` column."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["level", "id", "score", "ci_low", "ci_high", "items", "errors", "tokens", "cost",
                     "mean_latency_s", "injections", "judge_disagreements"])
    for s in summary["scenarios"]:
        writer.writerow(["scenario", s["id"], _score(s["score"]), *_ci(s["ci"]), s["n"], s["errors"], s["tokens"],
                         f"{s['cost']:.6f}", "" if s["mean_latency_s"] is None else f"{s['mean_latency_s']:.3f}",
                         s.get("injections", 0), s.get("judge_disagreements", 0)])
    for d in summary["dimensions"]:
        writer.writerow([f"dimension:{summary['taxonomy']}", d["id"], _score(d["score"]), *_ci(d["ci"]),
                         "", "", "", "", "", "", ""])
    for judge in (summary.get("integrity") or {}).get("judges", []):
        writer.writerow(["judge", judge["judge"], "", "", "", judge["items"], "", "", "", "", "", judge["status"]])
    return out.getvalue()


def _md_cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(summary: dict[str, Any]) -> str:
    run = summary["run"]
    lines = [f"# medsim run {_md_cell(run['id'])}", "",
             f"model **{_md_cell(run['model'])}**, status {run['status']}, medsim {run['medsim_version']}, "
             f"taxonomy {summary['taxonomy']}", "",
             "| scenario | score | 95% CI | items | errors | injections | judge ≠ rules | tokens | cost |",
             "|---|---|---|---|---|---|---|---|---|"]
    for s in summary["scenarios"]:
        low, high = _ci(s["ci"])
        lines.append(f"| {_md_cell(s['id'])} | {_score(s['score'])} | {low}–{high} | {s['n']} | {s['errors']} | "
                     f"{s.get('injections', 0)} | {s.get('judge_disagreements', 0)} | {s['tokens']} | {s['cost']:.4f} |")
    lines += ["", "| dimension | score | 95% CI | scenarios |", "|---|---|---|---|"]
    for d in summary["dimensions"]:
        low, high = _ci(d["ci"])
        lines.append(f"| {_md_cell(d['name'])} ({d['id']}) | {_score(d['score'])} | {low}–{high} | "
                     f"{_md_cell(', '.join(d['scenarios']))} |")
    notes = integrity_lines(summary)
    if notes:
        lines += ["", "**Before trusting these scores**", ""] + [f"- {_md_cell(n)}" for n in notes]
    return "\n".join(lines) + "\n"
