"""models.yaml parsing, resolve_model and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from medsim.models.config import (
    ConfigError,
    available_models,
    find_models_file,
    load_models_file,
    resolve_model,
)
from medsim.models.openai_compat import OpenAICompatModel
from medsim.models.registry import register_builtin

from ._util import run, user

GOOD = """\
models:
  local-qwen:
    base_url: http://127.0.0.1:9/v1
    model: qwen2.5-7b-instruct
    concurrency: 3
    rpm: 120
    temperature: 0.2
    max_tokens: 512
    timeout_s: 30
    prices: {input: 2.0, output: 8.0}
  deepseek:
    base_url: https://api.deepseek.example/v1
    model: deepseek-chat
    key_env: DEEPSEEK_KEY_FOR_TEST
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_entry_fields_reach_the_model(tmp_path):
    f = write(tmp_path / "m.yaml", GOOD)
    m = resolve_model("local-qwen", models_file=f)
    assert isinstance(m, OpenAICompatModel)
    d = m.describe()
    assert d["name"] == "local-qwen" and d["model"] == "qwen2.5-7b-instruct"
    assert d["base_url"] == "http://127.0.0.1:9/v1"
    assert (d["concurrency"], d["rpm"], d["temperature"], d["max_tokens"], d["timeout_s"]) == (3, 120, 0.2, 512, 30)
    assert d["prices"] == {"input": 2.0, "output": 8.0}


def test_overrides_win_and_are_validated(tmp_path):
    f = write(tmp_path / "m.yaml", GOOD)
    m = resolve_model("local-qwen", models_file=f, concurrency=16, temperature=0.0, base_url="http://127.0.0.1:10/v1")
    d = m.describe()
    assert (d["concurrency"], d["temperature"], d["base_url"]) == (16, 0.0, "http://127.0.0.1:10/v1")
    with pytest.raises(ConfigError, match="concurrency"):
        resolve_model("local-qwen", models_file=f, concurrency=0)


def test_search_order_cwd_then_home(tmp_path, monkeypatch):
    home_file = write(Path.home() / ".config" / "medsim" / "models.yaml", "models:\n  home-model: {base_url: http://h/v1}\n")
    assert find_models_file() == home_file
    cwd_file = write(Path.cwd() / "models.yaml", "models:\n  cwd-model: {base_url: http://c/v1}\n")
    assert find_models_file() == cwd_file
    assert resolve_model("cwd-model").describe()["base_url"] == "http://c/v1"
    with pytest.raises(ConfigError):
        resolve_model("home-model")  # the first file found is the one in force
    env_file = write(tmp_path / "env.yaml", "models: {}\n")
    monkeypatch.setenv("MEDSIM_MODELS_FILE", str(env_file))
    assert find_models_file() == env_file
    explicit = write(tmp_path / "explicit.yaml", "models: {}\n")
    assert find_models_file(explicit) == explicit


def test_missing_explicit_file(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        find_models_file(tmp_path / "nope.yaml")
    with pytest.raises(ConfigError, match="is a folder, not a models file") as info:
        find_models_file(tmp_path)
    assert f"--models-file {tmp_path / 'models.yaml'}" in str(info.value) and "does not exist" not in str(info.value)


def test_base_url_alone_needs_no_config(server):
    m = resolve_model("any-served-name", base_url=server.base_url)
    assert m.describe()["model"] == "any-served-name"
    assert run(m.chat(user("你好"))).content == "收到：你好"
    assert server.requests[-1]["model"] == "any-served-name"


def test_unknown_name_suggests(tmp_path):
    f = write(tmp_path / "m.yaml", GOOD)
    with pytest.raises(ConfigError) as info:
        resolve_model("local-qwne", models_file=f)
    msg = str(info.value)
    assert "unknown model 'local-qwne'" in msg
    assert "Did you mean 'local-qwen'" in msg
    assert "--base-url" in msg


def test_unknown_name_without_any_file():
    with pytest.raises(ConfigError, match="no models.yaml found"):
        resolve_model("gpt-4o")


def test_missing_key_variable(tmp_path, monkeypatch):
    f = write(tmp_path / "m.yaml", GOOD)
    with pytest.raises(ConfigError) as info:
        resolve_model("deepseek", models_file=f)
    assert "$DEEPSEEK_KEY_FOR_TEST" in str(info.value) and "not set" in str(info.value)
    monkeypatch.setenv("DEEPSEEK_KEY_FOR_TEST", "sk-abcdef123456")
    m = resolve_model("deepseek", models_file=f)
    assert "sk-abcdef123456" not in repr(m.describe())


def test_bad_yaml_points_at_line(tmp_path):
    f = write(tmp_path / "m.yaml", "models:\n  a:\n    base_url: [unclosed\n")
    with pytest.raises(ConfigError) as info:
        load_models_file(f)
    assert f"{f}:" in str(info.value) and "not valid YAML" in str(info.value)


def test_unknown_field_points_at_its_line(tmp_path):
    f = write(tmp_path / "m.yaml", "models:\n  a:\n    base_url: http://x/v1\n    concurency: 4\n")
    with pytest.raises(ConfigError) as info:
        load_models_file(f)
    msg = str(info.value)
    assert f"{f}:4:5" in msg and "models.a.concurency" in msg and "unknown field" in msg


def test_wrong_type_and_top_level_typo(tmp_path):
    f = write(tmp_path / "m.yaml", "models:\n  a:\n    concurrency: many\n")
    with pytest.raises(ConfigError, match=r"models\.a\.concurrency"):
        load_models_file(f)
    g = write(tmp_path / "g.yaml", "model:\n  a: {}\n")
    with pytest.raises(ConfigError, match="unknown field"):
        load_models_file(g)
    h = write(tmp_path / "h.yaml", "- a\n- b\n")
    with pytest.raises(ConfigError, match="models:"):
        load_models_file(h)


def test_entry_may_not_shadow_a_builtin(tmp_path):
    f = write(tmp_path / "m.yaml", "models:\n  baseline: {base_url: http://x/v1}\n")
    with pytest.raises(ConfigError, match="built-in"):
        load_models_file(f)


def test_builtin_registry(monkeypatch):
    from medsim.models import registry

    seen = {}

    class Dummy:
        name = "dummy-builtin"

        async def chat(self, messages, **kw):  # pragma: no cover - not called
            raise AssertionError

    def factory(arg, options):
        seen.update(arg=arg, options=options)
        return Dummy()

    monkeypatch.setattr(registry, "_factories", dict(registry._factories))  # leave no trace
    register_builtin("dummy-builtin", factory)
    m = resolve_model("dummy-builtin:extra", cache="C", temperature=0.5)
    assert isinstance(m, Dummy)
    assert seen == {"arg": "extra", "options": {"temperature": 0.5, "cache": "C"}}
    assert "dummy-builtin" in available_models()


def test_scripted_spec(tmp_path):
    script = write(tmp_path / "s.txt", "第一句\n第二句\n")
    m = resolve_model(f"scripted:{script}")
    assert run(m.chat(user("x"))).content == "第一句"
    with pytest.raises(ConfigError, match="scripted"):
        resolve_model("scripted")
    with pytest.raises(ConfigError, match="cannot read"):
        resolve_model(f"scripted:{tmp_path / 'missing.txt'}")


def test_model_name_with_colon_is_not_a_builtin(server):
    m = resolve_model("qwen2.5:7b", base_url=server.base_url)
    assert m.describe()["model"] == "qwen2.5:7b"


def test_ad_hoc_endpoint_has_no_limit_of_its_own(server):
    # --model X --base-url URL: the run's --concurrency bounds the calls, not a hidden default
    assert resolve_model("m", base_url=server.base_url).describe()["concurrency"] is None
    assert resolve_model("m", base_url=server.base_url, concurrency=5).describe()["concurrency"] == 5
