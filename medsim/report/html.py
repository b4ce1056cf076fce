"""A run as one self-contained HTML file: no network, no scripts from elsewhere.

A radar chart of the dimensions (inline SVG), per-scenario tables, and a transcript browser
(native <details> elements, no JavaScript needed) in which fact-check findings are
highlighted. Every piece of model, case or user text passes through ``html.escape``.
"""

from __future__ import annotations

import html
import math
from typing import Any

from medsim.judge.integrity import integrity_lines
from medsim.report.summary import floor_text, position_bias_rows
from medsim.store.db import Store

STYLE = """
body{font-family:"Noto Sans CJK SC","Source Han Sans SC","Microsoft YaHei",sans-serif;margin:2em;color:#222;max-width:1100px}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:4px 8px;font-size:.9em;vertical-align:top}
th{background:#f4f6f8;text-align:left}.num{text-align:right;font-variant-numeric:tabular-nums}
.err{color:#b00020}.note{color:#8a5a00}.muted{color:#777}details{margin:.3em 0;border:1px solid #e3e3e3;border-radius:4px;padding:.3em .6em}
summary{cursor:pointer}.turn{margin:.4em 0;padding:.4em .6em;border-radius:4px;white-space:pre-wrap}
.patient{background:#eef8ee}.clinician{background:#eef4fb}.oracle{background:#f8eef8}.stage,.system{background:#f7f7f2}
.who{font-weight:bold;margin-right:.5em}mark.bad{background:#ffd5d5}mark.good{background:#d8f5d8}
.radar text{font-size:11px}
"""
TURN_CHARS = 4000  # a turn shown in full up to this; the rest is in the run store
EPISODE_CHARS = 12000  # all turns of one episode shown up to this: a rambling model keeps the report small
SPEAKER = {"patient": "患者", "clinician": "医生（模型）", "oracle": "检查结果", "stage": "病历", "system": "题目/提示"}
BAD = {"contradicted", "value_mismatch", "unsupported"}


def esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def radar_svg(dimensions: list[dict[str, Any]], size: int = 360) -> str:
    """An SVG radar of dimension scores in [0, 1]; unscored dimensions sit at 0 and say so."""
    n = len(dimensions)
    if n < 3:
        return ""
    centre, radius = size / 2, size / 2 - 70
    def point(i: int, r: float) -> tuple[float, float]:
        angle = -math.pi / 2 + 2 * math.pi * i / n
        return centre + r * math.cos(angle), centre + r * math.sin(angle)
    parts = [f'<svg class="radar" width="{size}" height="{size}" '
             f'viewBox="0 0 {size} {size}" role="img" aria-label="dimension radar">']
    for level in (0.25, 0.5, 0.75, 1.0):
        ring = " ".join(f"{x:.1f},{y:.1f}" for x, y in (point(i, radius * level) for i in range(n)))
        parts.append(f'<polygon points="{ring}" fill="none" stroke="#ddd"/>')
    for i, dim in enumerate(dimensions):
        x, y = point(i, radius)
        parts.append(f'<line x1="{centre}" y1="{centre}" x2="{x:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        lx, ly = point(i, radius + 28)
        label = f"{dim['name']} {_fmt(dim['score'])}"
        parts.append(f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="middle">{esc(label)}</text>')
    shape = " ".join(f"{x:.1f},{y:.1f}" for x, y in
                     (point(i, radius * (d["score"] or 0.0)) for i, d in enumerate(dimensions)))
    parts.append(f'<polygon points="{shape}" fill="rgba(33,110,200,.25)" stroke="#216ec8" stroke-width="2"/>')
    parts.append("</svg>")
    return "".join(parts)


def highlight(text: str, findings: list[dict[str, Any]]) -> str:
    """Escape ``text`` and mark the spans the fact checker found (bad in red, supported in green)."""
    spans = []
    for finding in findings:
        span = finding.get("span") or finding.get("output_span")
        if isinstance(span, list | tuple) and len(span) == 2 and 0 <= span[0] < span[1] <= len(text):
            spans.append((span[0], span[1], finding))
    spans.sort(key=lambda s: s[0])
    out, cursor = [], 0
    for start, end, finding in spans:
        if start < cursor:
            continue
        status = finding.get("status", "")
        reason = finding.get("reason_zh") or finding.get("reason") or status
        css = "bad" if status in BAD else "good"
        out.append(esc(text[cursor:start]))
        out.append(f'<mark class="{css}" title="{esc(status)}: {esc(reason)}">{esc(text[start:end])}</mark>')
        cursor = end
    out.append(esc(text[cursor:]))
    return "".join(out)


def _findings(scores: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for score in scores:
        if score["scorer"] == "fact_consistency" and isinstance(score["details"], dict):
            return list(score["details"].get("findings") or [])
    return []


def _episode_html(episode: dict[str, Any], scores: list[dict[str, Any]]) -> str:
    transcript = episode["transcript"]
    findings = _findings(scores)
    final_text = transcript.get("final_text")
    status = (f'<span class="err">error: {esc(episode["error"])}</span>' if episode["error"]
              else f"score {_fmt(episode['item_score'])}")
    rows = [f"<details><summary>{esc(episode['case_id'])} · {status}</summary>"]
    budget = EPISODE_CHARS
    turns = transcript.get("turns", [])
    for number, turn in enumerate(turns):
        speaker = turn["speaker"]
        text = turn["text"]
        if budget <= 0:
            rows.append(f"<p class='muted'>… {len(turns) - number} more turn(s) in the run store "
                        f"(<code>medsim show-run --items</code>)</p>")
            break
        shown = min(TURN_CHARS, budget)
        cut = len(text) > shown
        if cut:
            body = esc(text[:shown]) + f"<span class='muted'> … ({len(text) - shown} more characters in the run store)</span>"
        else:
            body = highlight(text, findings) if speaker == "clinician" and text == final_text else esc(text)
        budget -= min(len(text), shown)
        rows.append(f'<div class="turn {esc(speaker)}"><span class="who">{esc(SPEAKER.get(speaker, speaker))}</span>'
                    f"{body}</div>")
    if transcript.get("parse_error"):
        rows.append(f'<p class="err">answer not parsed: {esc(transcript["parse_error"])}</p>')
    if transcript.get("parse_note"):
        rows.append(f'<p class="note">answer format: {esc(transcript["parse_note"])}</p>')
    injection = (transcript.get("info") or {}).get("injection")
    if injection:
        said = "；".join(s.get("text", "") for s in injection.get("spans", []))
        rows.append(f"<p class='err'>answer spoke to the grader ({esc(', '.join(injection.get('kinds', [])))}), "
                    f"scored without: {esc(said)}</p>")
    if scores:
        rows.append("<table><tr><th>scorer</th><th>score</th><th>weight</th><th>reasons</th></tr>")
        for score in scores:
            reasons = "; ".join(score["reasons"]) or (score.get("error") or "")
            rows.append(f"<tr><td>{esc(score['scorer'])}</td><td class='num'>{_fmt(score['value'])}</td>"
                        f"<td class='num'>{score['weight']:g}</td><td>{esc(reasons)}</td></tr>")
        rows.append("</table>")
    bad = [f for f in findings if f.get("status") in BAD]
    if bad:
        rows.append("<ul>" + "".join(
            f"<li><mark class='bad'>{esc(f.get('status'))}</mark> {esc(f.get('text', ''))} — "
            f"{esc(f.get('reason_zh') or f.get('reason', ''))}</li>" for f in bad) + "</ul>")
    rows.append("</details>")
    return "\n".join(rows)


def render_html(store: Store, run_id: str, summary: dict[str, Any], *, per_scenario: int = 60) -> str:
    run = summary["run"]
    scores_by_episode: dict[tuple, list[dict[str, Any]]] = {}
    for row in store.scores(run_id):
        scores_by_episode.setdefault((row["scenario_id"], row["case_id"], row["repeat"]), []).append(row)
    out = ["<!DOCTYPE html>", '<html lang="zh-CN"><head><meta charset="utf-8">',
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
           "img-src data:\">",
           f"<title>medsim · {esc(run['id'])}</title><style>{STYLE}</style></head><body>",
           f"<h1>medsim run {esc(run['id'])}</h1>",
           f"<p>model <b>{esc(run['model'])}</b> · status {esc(run['status'])} · medsim {esc(run['medsim_version'])}"
           f" · taxonomy {esc(summary['taxonomy'])}</p>",
           "<h2>Dimensions</h2>", radar_svg(summary["dimensions"])]
    overall = summary.get("overall") or {}
    if overall.get("score") is not None:
        note = ("over every dimension and planned item" if overall["complete"] else
                f"<span class='err'>incomplete</span>: over {overall['dimensions']} of {overall['of']} dimensions; "
                "not comparable with a complete run")
        out.append(f"<p>overall <b>{_fmt(overall['score'])}</b> ({note})</p>")
    out.append("<table><tr><th>dimension</th><th>score</th><th>95% CI</th><th>coverage</th><th>scenarios</th></tr>")
    for d in summary["dimensions"]:
        ci = f"{d['ci'][0]:.3f}–{d['ci'][1]:.3f}" if d["ci"] else ""
        mark = "" if d.get("complete", True) or d["score"] is None else " <span class='err'>incomplete</span>"
        out.append(f"<tr><td>{esc(d['name'])} <span class='muted'>{esc(d['id'])}</span></td>"
                   f"<td class='num'>{_fmt(d['score'])}{mark}</td><td class='num'>{ci}</td>"
                   f"<td>{esc(d.get('coverage_text', ''))}</td><td>{esc(', '.join(d['scenarios']))}</td></tr>")
    out.append("</table><h2>Scenarios</h2><table><tr><th>scenario</th><th>score</th><th>95% CI</th>"
               "<th>floor (best constant · chance)</th><th>scored/planned</th><th>errors</th><th>injections</th><th>judge ≠ rules</th><th>by scorer</th>"
               "<th>tokens</th><th>cost</th>"
               "<th>mean latency</th></tr>")
    for s in summary["scenarios"]:
        ci = f"{s['ci'][0]:.3f}–{s['ci'][1]:.3f}" if s["ci"] else ""
        if ci and not s.get("ci_reliable", True):
            ci += " <span class='muted'>(few items)</span>"
        by = "; ".join(f"{esc(k)} {v:.2f}" for k, v in [*sorted(s["by_scorer"].items()), *s["rates"].items()])
        latency = "" if s["mean_latency_s"] is None else f"{s['mean_latency_s']:.2f}s"
        errors = f"<span class='err'>{s['errors']}</span>" if s["errors"] else "0"
        covered = f"{s['scored']}/{s.get('planned', '?')}"
        if s.get("planned") and s["scored"] < s["planned"]:
            covered = f"<span class='err'>{covered}</span>"
        floor = floor_text(s.get("floors"))
        out.append(f"<tr><td>{esc(s['id'])}</td><td class='num'>{_fmt(s['score'])}</td><td class='num'>{ci}</td>"
                   f"<td class='num'>{floor}</td><td class='num'>{covered}</td><td class='num'>{errors}</td>"
                   f"<td class='num'>{s.get('injections', 0)}</td><td class='num'>{s.get('judge_disagreements', 0)}</td>"
                   f"<td>{by}</td>"
                   f"<td class='num'>{s['tokens']}</td><td class='num'>{s['cost']:.4f}</td>"
                   f"<td class='num'>{latency}</td></tr>")
    out.append("</table>")
    for s in summary["scenarios"]:
        bias = s.get("position_bias")
        if not bias or not bias.get("shares"):
            continue
        letters, rows = position_bias_rows(bias)
        out.append(f"<h3>Position bias — {esc(s['id'])}</h3><p class='muted'>{bias.get('n', 0)} single-answer "
                   f"items, options shuffled; a model that favours a letter picks it more often than the gold "
                   f"sits there</p><table><tr><th></th>" + "".join(f"<th>{esc(k)}</th>" for k in letters) + "</tr>")
        for label, cells in rows:
            out.append(f"<tr><td>{label}</td>" + "".join(f"<td class='num'>{c}</td>" for c in cells) + "</tr>")
        out.append("</table>")
    for name, sim in summary.get("simulators", {}).items():
        out.append(f"<p class='muted'>patient simulator {esc(name)}: {sim['turns']} turns in {sim['episodes']} "
                   f"episodes; {sim['regenerations']} regenerated, {sim['flagged_turns']} kept flagged by the "
                   f"fact guard, {sim.get('role_breaks', 0)} role break(s)</p>")
    notes = integrity_lines(summary)
    if notes:
        out.append("<h2>Before trusting these scores</h2><ul>" + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>")
    out.append("<h2>Transcripts</h2>")
    by_scenario: dict[str, list[dict[str, Any]]] = {}
    for episode in store.episodes(run_id):
        by_scenario.setdefault(episode["scenario_id"], []).append(episode)
    for scenario_id, episodes in by_scenario.items():
        out.append(f"<h3>{esc(scenario_id)}</h3>")
        for episode in episodes[:per_scenario]:
            key = (scenario_id, episode["case_id"], episode["repeat"])
            out.append(_episode_html(episode, scores_by_episode.get(key, [])))
        if len(episodes) > per_scenario:
            out.append(f"<p class='muted'>… {len(episodes) - per_scenario} more in the run store.</p>")
    out.append("</body></html>")
    return "\n".join(out)
