"""A run summary as JSON, CSV or Markdown text (the HTML report lives in html.py)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from medsim.judge.integrity import integrity_lines
from medsim.report.summary import floor_text, position_bias_rows


def _score(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def _ci(ci: Any) -> tuple[str, str]:
    return ("", "") if not ci else (f"{ci[0]:.4f}", f"{ci[1]:.4f}")


def to_json(summary: dict[str, Any]) -> str:
    return json.dumps(summary, ensure_ascii=False, indent=2, default=str) + "\n"


def _coverage(s: dict[str, Any]) -> str:
    return "" if s.get("coverage") is None else f"{s['coverage']:.4f}"


def to_csv(summary: dict[str, Any]) -> str:
    """One row per scenario, one per dimension and one overall, in one table with a `level`
    column; every score with what it stands on (scored of planned, complete or not)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["level", "id", "score", "ci_low", "ci_high", "items", "scored", "planned", "coverage",
                     "complete", "errors", "tokens", "cost", "mean_latency_s", "injections", "judge_disagreements"])
    for s in summary["scenarios"]:
        writer.writerow(["scenario", s["id"], _score(s["score"]), *_ci(s["ci"]), s["n"], s["scored"],
                         s.get("planned", ""), _coverage(s), str(s["scored"] == s.get("planned")).lower(),
                         s["errors"], s["tokens"], f"{s['cost']:.6f}",
                         "" if s["mean_latency_s"] is None else f"{s['mean_latency_s']:.3f}",
                         s.get("injections", 0), s.get("judge_disagreements", 0)])
    for d in summary["dimensions"]:
        writer.writerow([f"dimension:{summary['taxonomy']}", d["id"], _score(d["score"]), *_ci(d["ci"]),
                         "", "", "", d.get("coverage_text", ""), str(d.get("complete", False)).lower(),
                         "", "", "", "", "", ""])
    overall = summary.get("overall") or {}
    writer.writerow(["overall", summary["taxonomy"], _score(overall.get("score")), "", "", "", "", "",
                     f"{overall.get('dimensions', 0)}/{overall.get('of', 0)} dimensions",
                     str(overall.get("complete", False)).lower(), "", "", "", "", "", ""])
    for judge in (summary.get("integrity") or {}).get("judges", []):
        writer.writerow(["judge", judge["judge"], "", "", "", judge["items"], "", "", "", "", "", "", "", "", "",
                         judge["status"]])
    return out.getvalue()


_MD_SPECIAL = set("\\`*[]|~")  # emphasis, code, links, table cells, strikethrough


def _md_cell(text: Any) -> str:
    """Text in a Markdown table cell: every character Markdown would act on here is escaped,
    so a model called `**x**` or `<img onerror=…>` shows as written, never as markup or HTML.
    An underscore is escaped only where it could open or close emphasis (not in `a_b`)."""
    text = " ".join(str(text).split())
    out = []
    for i, ch in enumerate(text):
        if ch == "<":
            out.append("&lt;")
        elif ch == ">":
            out.append("&gt;")
        elif ch == "&":
            out.append("&amp;")
        elif ch in _MD_SPECIAL:
            out.append("\\" + ch)
        elif ch == "_" and not (0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum()):
            out.append("\\_")
        else:
            out.append(ch)
    return "".join(out)


def to_markdown(summary: dict[str, Any]) -> str:
    run = summary["run"]
    lines = [f"# medsim run {_md_cell(run['id'])}", "",
             f"model **{_md_cell(run['model'])}**, status {_md_cell(run['status'])}, medsim "
             f"{_md_cell(run['medsim_version'])}, taxonomy {_md_cell(summary['taxonomy'])}", "",
             "| scenario | score | 95% CI | floor (best constant · chance) | scored/planned | errors | injections | "
             "judge ≠ rules | tokens | cost |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for s in summary["scenarios"]:
        low, high = _ci(s["ci"])
        interval = f"{low}–{high}" + ("" if s.get("ci_reliable", True) or not low else " (few items)")
        floor = floor_text(s.get("floors"))
        lines.append(f"| {_md_cell(s['id'])} | {_score(s['score'])} | {interval} | {floor} | {s['scored']}/{s.get('planned', '?')} | "
                     f"{s['errors']} | {s.get('injections', 0)} | {s.get('judge_disagreements', 0)} | {s['tokens']} | "
                     f"{s['cost']:.4f} |")
    lines += ["", "| dimension | score | 95% CI | coverage | scenarios |", "|---|---|---|---|---|"]
    for d in summary["dimensions"]:
        low, high = _ci(d["ci"])
        mark = "" if d.get("complete", True) or d["score"] is None else " (incomplete)"
        lines.append(f"| {_md_cell(d['name'])} ({_md_cell(d['id'])}) | {_score(d['score'])}{mark} | {low}–{high} | "
                     f"{_md_cell(d.get('coverage_text', ''))} | {_md_cell(', '.join(d['scenarios']))} |")
    overall = summary.get("overall") or {}
    if overall.get("score") is not None:
        lines += ["", f"overall {overall['score']:.4f} over {overall['dimensions']} of {overall['of']} dimensions"
                  + ("" if overall["complete"] else " — incomplete: not comparable with a complete run")]
    lines += position_bias_markdown(summary)
    notes = integrity_lines(summary)
    if notes:
        lines += ["", "**Before trusting these scores**", ""] + [f"- {_md_cell(n)}" for n in notes]
    return "\n".join(lines) + "\n"


def position_bias_markdown(summary: dict[str, Any]) -> list[str]:
    """One table per choice scenario: where the gold sat and where the model's picks fell, by the
    letter shown, with accuracy by the gold's position."""
    lines: list[str] = []
    for s in summary["scenarios"]:
        bias = s.get("position_bias")
        if not bias or not bias.get("shares"):
            continue
        letters, rows = position_bias_rows(bias)
        lines += ["", f"**Position bias — {_md_cell(s['id'])}** ({bias.get('n', 0)} single-answer items; "
                      f"accuracy spread over positions {bias.get('spread_display', 0):.2f})", "",
                  "| | " + " | ".join(_md_cell(k) for k in letters) + " |", "|---|" + "---|" * len(letters)]
        lines += [f"| {label} | " + " | ".join(cells) + " |" for label, cells in rows]
    return lines
