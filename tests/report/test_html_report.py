"""The HTML report: self-contained, every model text escaped, renders in headless Chromium."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from medsim.report.html import render_html
from medsim.report.summary import build_summary
from medsim.store.db import EpisodeRecord, Store

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>\x1b[31m'


def make_store(tmp_path: Path) -> tuple[Store, str]:
    store = Store(tmp_path / "runs.sqlite")
    store.create_run("r-html", "evil-model", {"scenarios": ["record_summary"]}, "0.1.0", {})
    answer = "患者男性，58岁，胸痛3小时，左侧肢体无力。" + EVIL
    transcript = {"scenario_id": "record_summary", "case_id": "c1", "final_text": answer,
                  "turns": [{"index": 0, "speaker": "system", "text": "请写出院小结", "meta": {}},
                            {"index": 1, "speaker": "clinician", "text": answer, "meta": {}}]}
    findings = [{"status": "supported", "text": "胸痛3小时", "span": [9, 14], "reason_zh": "与病历一致"},
                {"status": "contradicted", "text": "左侧", "span": [15, 17], "reason_zh": "病历为右侧"}]
    store.save_episode(EpisodeRecord(
        "r-html", "record_summary", "c1", 0, "done", transcript,
        [{"scorer": "fact_consistency", "value": 0.5, "weight": 1, "reasons": [EVIL], "details": {"findings": findings}},
         {"scorer": "rouge", "value": 0.4, "weight": 1, "reasons": [], "details": {}}],
        [{"role": "clinician", "model": "evil-model", "prompt_tokens": 10, "completion_tokens": 20}], item_score=0.45))
    store.save_episode(EpisodeRecord("r-html", "record_summary", "c2", 0, "error",
                                     {"turns": [], "error": "HTTP 500 after 4 attempts"}, [], [],
                                     error="HTTP 500 after 4 attempts"))
    return store, "r-html"


def test_model_text_is_escaped_and_the_page_is_self_contained(tmp_path: Path) -> None:
    store, run_id = make_store(tmp_path)
    page = render_html(store, run_id, build_summary(store, run_id))
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;" in page
    assert "http://" not in page.replace("http-equiv", "") and "https://" not in page
    assert '<mark class="bad" title="contradicted: 病历为右侧">左侧</mark>' in page
    assert "HTTP 500 after 4 attempts" in page
    assert "<svg" in page and "radar" in page


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium package is not installed")
def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    store, run_id = make_store(tmp_path)
    page = tmp_path / "report.html"
    page.write_text(render_html(store, run_id, build_summary(store, run_id)), encoding="utf-8")
    shot = tmp_path / "report.png"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]
    subprocess.run([CHROMIUM, *flags, f"--screenshot={shot}", "--window-size=1100,1400", page.as_uri()],
                   capture_output=True, timeout=120, check=False)
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 20_000, "a blank page compresses to almost nothing"
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True,
                         timeout=120, check=False).stdout
    assert "medsim run r-html" in dom and "<script" not in dom.lower()
