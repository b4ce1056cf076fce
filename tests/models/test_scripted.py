"""The scripted clinician."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from medsim.models.base import ChatContext, ModelCallError
from medsim.models.scripted import ScriptedModel, ScriptError, load_script

from ._util import run, user


def ctx(case_id):
    return ChatContext(case=SimpleNamespace(id=case_id))


def test_text_one_reply_per_line_or_blocks(tmp_path):
    (tmp_path / "a.txt").write_text("甲\n\n乙\n", encoding="utf-8")
    assert load_script(tmp_path / "a.txt") == (["甲", "乙"], {})
    (tmp_path / "b.txt").write_text("第一段\n第二行\n---\n第二段\n", encoding="utf-8")
    assert load_script(tmp_path / "b.txt") == (["第一段\n第二行", "第二段"], {})


def test_yaml_with_cases(tmp_path):
    (tmp_path / "s.yaml").write_text("replies: [通用一, 通用二]\ncases:\n  c1: [病例一甲, 病例一乙]\n  c2: 病例二\n", encoding="utf-8")
    m = ScriptedModel.from_file(tmp_path / "s.yaml")
    assert run(m.chat(user("x"), context=ctx("c1"))).content == "病例一甲"
    assert run(m.chat(user("x"), context=ctx("c2"))).content == "病例二"
    assert run(m.chat(user("x"), context=ctx("c1"))).content == "病例一乙"
    assert run(m.chat(user("x"), context=ctx("other"))).content == "通用一"
    assert run(m.chat(user("x"))).content == "通用二"


def test_jsonl(tmp_path):
    (tmp_path / "s.jsonl").write_text('"一"\n{"content": "二"}\n{"content": "三", "case": 7}\n', encoding="utf-8")
    assert load_script(tmp_path / "s.jsonl") == (["一", "二"], {"7": ["三"]})
    (tmp_path / "bad.jsonl").write_text('"ok"\n{oops\n', encoding="utf-8")
    with pytest.raises(ScriptError, match=r"bad.jsonl:2"):
        load_script(tmp_path / "bad.jsonl")


def test_exhaustion_modes():
    assert [run(ScriptedModel(["a", "b"]).chat(user("x"))).content for _ in range(1)] == ["a"]
    cyc = ScriptedModel(["a", "b"])
    assert [run(cyc.chat(user("x"))).content for _ in range(3)] == ["a", "b", "a"]
    last = ScriptedModel(["a", "b"], on_exhausted="repeat_last")
    assert [run(last.chat(user("x"))).content for _ in range(3)] == ["a", "b", "b"]
    strict = ScriptedModel(["a"], on_exhausted="error")
    run(strict.chat(user("x")))
    with pytest.raises(ModelCallError, match="ran out"):
        run(strict.chat(user("x")))


def test_streams_tokens_and_estimates_usage():
    m = ScriptedModel(["这是一个比较长的回答，用来检验分块输出。"], chunk_chars=4)
    tokens = []
    r = run(m.chat(user("问"), on_token=tokens.append))
    assert len(tokens) > 2 and "".join(tokens) == r.content
    assert r.usage.estimated and r.usage.completion_tokens > 0


def test_empty_script_is_an_error(tmp_path):
    (tmp_path / "e.txt").write_text("\n\n", encoding="utf-8")
    with pytest.raises(ScriptError, match="no replies"):
        ScriptedModel.from_file(tmp_path / "e.txt")
