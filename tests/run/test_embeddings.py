"""The similarity scorer with embeddings from a real OpenAI-compatible endpoint, and without."""

from __future__ import annotations

import asyncio

import pytest

from medsim.models.embeddings import OpenAIEmbedder
from medsim.scenario.schema import Case, Scenario
from medsim.scoring.base import ScoreInput, get_scorer
from medsim.sim.transcript import Transcript
from medsim.testing.openai_server import OpenAIServer

CASE = Case(id="s1", reference_answer="患者因急性阑尾炎行腹腔镜阑尾切除术，术后恢复好，出院。")
SCENARIO = Scenario.model_validate({
    "id": "summary", "name": "摘要", "name_en": "Summary", "dimension": "summary", "kind": "single_turn",
    "cases": [CASE.model_dump(exclude_none=True)], "clinician": {"instructions": "写摘要"},
    "scoring": [{"similarity": {}}]})


def transcript(text: str) -> Transcript:
    t = Transcript("summary", "s1")
    t.final_text = t.answer = text
    return t


def test_similarity_uses_the_embeddings_endpoint() -> None:
    with OpenAIServer() as server:
        embedder = OpenAIEmbedder("emb", base_url=server.base_url, api_key="EMPTY")
        assert len(asyncio.run(embedder.embed(["胸痛", "腹痛"]))[0]) == 64
        same = get_scorer("similarity")(ScoreInput(SCENARIO, CASE, transcript(CASE.reference_answer), {},
                                                  {"embedder": embedder}))
        other = get_scorer("similarity")(ScoreInput(SCENARIO, CASE, transcript("血压高，吃降压药。"), {},
                                                   {"embedder": embedder}))
        assert server.counts["/v1/embeddings"] == 3
    assert same.value == pytest.approx(1.0) and "stood_in_by" not in same.details
    assert other.value < same.value


def test_without_an_embedder_rouge_stands_in_and_says_so() -> None:
    score = get_scorer("similarity")(ScoreInput(SCENARIO, CASE, transcript(CASE.reference_answer), {}, {}))
    assert score.details["stood_in_by"] == "rouge" and score.value == 1.0
    assert any("rouge stands in" in reason for reason in score.reasons)
