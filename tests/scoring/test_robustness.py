"""No scorer raises, whatever shape the answer has: a bad answer is a low score, never a crash."""

import pytest

from medsim.scenario.schema import Probe

from ._util import case, run, transcript

CASE = case(
    options={"A": "甲", "B": "乙"}, steps=["s1", "s2", "s3"], reference_answer="多饮水",
    probe=Probe(kind="red_flag", expected=["急诊"]),
    gold={"choice": "B", "level": 2, "department": "心内科", "diagnosis": "肺炎", "tests": ["血常规"],
          "key_points": ["饭后"], "sex": "男"},
)
ANSWERS = [None, "", "garbage", 5, 2.5, True, [], ["x"], [1, "2", None], {}, {"a": 1},
           {"level": "x", "department": 3, "diagnosis": ["肺炎"], "tests": "血常规", "choice": 1}, {"level": None}]
SCORERS = ["choice", "triage_level", "department", "diagnosis_match", "set_f1", "ordering", "extraction", "rouge",
           "similarity", "keypoints", "safety"]


@pytest.mark.parametrize("name", SCORERS)
def test_scorer_never_raises_on_odd_answers(name):
    for answer in ANSWERS:
        final = answer if isinstance(answer, str) else None
        s = run(name, CASE, transcript(answer, final_text=final), {"field": "tests"} if name == "set_f1" else {})
        assert s.value is None or 0.0 <= s.value <= 1.0
