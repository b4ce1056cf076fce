"""The learned topic model (medsim.sim.topic_model): shipped weights, typical questions, and a
held-back measurement against the rules alone, retrained here on part of the labels."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest

from medsim.sim import topic_model
from medsim.sim.topics import TOPICS, classify, classify_rules
from medsim.text import linear_model

ROOT = Path(__file__).resolve().parents[2]


def test_shipped_weights_load_and_ship_in_the_wheel():
    assert topic_model.available(), f"{topic_model.WEIGHTS} must ship with the package"
    meta = topic_model._model()["meta"]
    assert meta["labels"] == list(TOPICS)  # topic names are stable: the model scores exactly these
    assert 0.0 < meta["threshold"] < 1.0
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["medsim.sim"]
    assert any(Path(topic_model.WEIGHTS.name).match(pattern) for pattern in package_data)
    probs = topic_model.probabilities(topic_model.features("宝宝多大了？", ["age"], False))
    assert set(probs) == set(TOPICS) and max(probs, key=probs.get) == "age"


@pytest.mark.parametrize(("question", "topics"), [
    ("宝宝多大了？", ["age"]),
    ("孩子发烧几天了？", ["duration"]),
    ("之前吃过什么药吗？", ["treatment"]),
    ("做过血常规检查吗？", ["tests"]),
    ("有没有药物过敏？", ["allergies"]),
    ("体温最高多少度？", ["vitals"]),
    ("大便一天几次？", ["general"]),
    ("家里有人得过哮喘吗？", ["family_history"]),
])
def test_typical_questions(question, topics):
    assert classify(question).topics == topics


def test_compound_question_is_answered_part_by_part_in_order():
    assert classify("孩子多大了？咳嗽几天了？有没有药物过敏？").topics == ["age", "duration", "allergies"]
    # a topic the model adds goes with the sentence that asks it, not to the end
    parsed = classify("宝宝几个月了？吃过什么药？")
    assert parsed.topics == ["age", "treatment"]


def test_nothing_asked_stays_nothing():
    assert classify("嗯，明白了。").topics == []
    assert classify("发个化验单的照片我看看").topics == []


def test_associated_heard_keeps_the_named_symptoms():
    parsed = classify("有没有咳嗽、流鼻涕？")
    assert "associated" in parsed.topics and {"咳嗽", "流涕"} <= set(parsed.symptoms)


def test_without_weights_the_rules_answer(monkeypatch):
    monkeypatch.setattr(topic_model, "_model", lambda: None)
    question = "孩子哪里不舒服？"
    assert classify(question).topics == classify_rules(question).topics
    assert topic_model.loaded() is None


def test_multilabel_trainer_learns_separate_topics():
    samples = [(["bias", "a"], {"x"}), (["bias", "b"], {"y"}), (["bias", "a", "b"], {"x", "y"}), (["bias"], set())] * 30
    w = linear_model.train(samples, ("x", "y"), epochs=10, lr=0.5, min_count=1, multilabel=True)
    prob = lambda feats: [linear_model.sigmoid(s) for s in linear_model.scores(feats, w, 2)]  # noqa: E731
    assert prob(["bias", "a"])[0] > 0.5 > prob(["bias", "a"])[1]
    assert min(prob(["bias", "a", "b"])) > 0.5 and max(prob(["bias"])) < 0.5
    sparse = linear_model.sparse(w, 0.01)
    assert linear_model.scores(["bias", "a"], sparse, 2) == pytest.approx(linear_model.scores(["bias", "a"], w, 2), abs=0.03)


@pytest.fixture(scope="module")
def trainer():
    spec = importlib.util.spec_from_file_location("train_topic_model", ROOT / "bench" / "train_topic_model.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_model_beats_the_rules_on_a_held_back_sample(trainer):
    """Trained on A, T1, T2 and the bank with the shipped settings (T3 and B unseen), the model
    must hear T3's and B's requests better than the rules alone."""
    train = {s: [trainer.Row(q, t) for q, t in trainer.load_items(s)] for s in ("a", "t1", "t2")}
    bank = [trainer.Row(q, t) for q, t in trainer.load_bank()]
    model = trainer.fit(trainer.training_rows(train, bank, trainer.DEFAULTS, None), trainer.DEFAULTS)
    for held in ("t3", "b"):
        rows = [trainer.Row(q, t) for q, t in trainer.load_items(held)]
        rules_strict, rules_lenient = trainer.measure(rows, None)
        strict, lenient = trainer.measure(rows, model)
        print(f"{held}: rules {rules_strict:.3f}/{rules_lenient:.3f}, model {strict:.3f}/{lenient:.3f}")
        assert strict > rules_strict + 0.02 and lenient >= rules_lenient


def test_a_second_topic_needs_firmer_evidence():
    """A unit hears its likeliest topic at the threshold, another one only at ``extra_threshold``
    (most real questions ask one thing); without the key both use the threshold (older weights)."""
    meta = {"labels": list(TOPICS), "threshold": 0.5, "extra_threshold": 0.7, "rule_only": []}
    probs = dict.fromkeys(TOPICS, 0.01) | {"duration": 0.9, "associated": 0.6, "character": 0.75}
    assert topic_model.decide(probs, ["duration"], {"meta": meta}) == {"duration", "character"}
    old = {k: v for k, v in meta.items() if k != "extra_threshold"}
    assert topic_model.decide(probs, ["duration"], {"meta": old}) == {"duration", "character", "associated"}
    # nothing reaches the threshold: the rules' topic when it is nearly as likely as the model's best
    weak = dict.fromkeys(TOPICS, 0.01) | {"site": 0.3, "severity": 0.2}
    assert topic_model.decide(weak, ["severity"], {"meta": meta | {"rule_margin": 0.5}}) == {"severity"}


def test_a_further_topic_the_rules_heard_needs_less():
    """A compound the rules read as two topics (大便一天几次，什么颜色: general and character) keeps
    the second from ``rule_extra`` on; a topic the rules did not hear still needs ``extra_threshold``;
    nothing is added to a unit that heard nothing at the threshold."""
    meta = {"labels": list(TOPICS), "threshold": 0.5, "extra_threshold": 0.7, "rule_extra": 0.4, "rule_only": []}
    probs = dict.fromkeys(TOPICS, 0.01) | {"general": 0.9, "character": 0.45, "course": 0.6}
    assert topic_model.decide(probs, ["general", "character"], {"meta": meta}) == {"general", "character"}
    assert topic_model.decide(probs, ["general"], {"meta": meta}) == {"general"}
    off = meta | {"rule_extra": 0.7}
    assert topic_model.decide(probs, ["general", "character"], {"meta": off}) == {"general"}
    weak = dict.fromkeys(TOPICS, 0.01) | {"general": 0.45, "character": 0.44}
    assert topic_model.decide(weak, ["general", "character"], {"meta": meta}) == {"general"}


def test_an_unsure_model_leaves_the_decision_to_the_rules():
    """Below ``rules_below`` (the model's likeliest topic), the rules' own topics are heard, all of
    them and only them; above it, or without the key (older weights), the model decides."""
    meta = {"labels": list(TOPICS), "threshold": 0.5, "extra_threshold": 0.7, "rule_only": [], "rules_below": 0.6}
    unsure = dict.fromkeys(TOPICS, 0.01) | {"course": 0.55, "general": 0.3, "onset": 0.2}
    assert topic_model.decide(unsure, ["general", "onset"], {"meta": meta}) == {"general", "onset"}
    assert topic_model.decide(unsure, ["general", "onset"], {"meta": meta | {"rules_below": 0.0}}) == {"course"}
    sure = unsure | {"course": 0.8}
    assert topic_model.decide(sure, ["general", "onset"], {"meta": meta}) == {"course"}
    # a vetoed rule topic is not brought back by the rules
    assert topic_model.decide(unsure, ["general", "onset"], {"meta": meta}, vetoed=frozenset({"onset"})) == {"general"}
