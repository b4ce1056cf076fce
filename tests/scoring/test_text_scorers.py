import asyncio
import inspect
import math

import pytest

from medsim.scoring.rouge import rouge_scores
from medsim.text import match as matching

from ._util import case, run, transcript


@pytest.fixture
def char_tokens(monkeypatch):
    """Pin character tokenization so the hand-worked numbers do not depend on the segmenter."""
    import medsim.scoring.rouge as rouge

    monkeypatch.setattr(rouge, "tokens", lambda text: ([ch for ch in matching.normalize(text)], "characters"))


# ----------------------------------------------------------------------- rouge

def test_rouge_scores_hand_worked():
    d = rouge_scores(list("多饮水休息"), list("休息多饮水"))
    assert d["rouge1_f"] == 1.0  # same characters
    assert d["rougeL_f"] == pytest.approx(0.6)  # LCS 多饮水 = 3 of 5 each side
    d = rouge_scores(list("头痛"), list("头晕头痛"))
    assert d["rouge1_p"] == 1.0 and d["rouge1_r"] == 0.5 and d["rouge1_f"] == pytest.approx(2 / 3)
    assert d["rougeL_f"] == pytest.approx(2 / 3)
    assert rouge_scores([], ["a"])["rougeL_f"] == 0.0


def test_rouge_scorer_reports_tokenization_and_variant(char_tokens):
    c = case(reference_answer="休息，多饮水。")
    s = run("rouge", c, transcript("多饮水休息"))
    assert s.value == pytest.approx(0.6) and s.details["tokenization"] == "characters"
    assert run("rouge", c, transcript("多饮水休息"), {"variant": "rouge1"}).value == 1.0


def test_rouge_without_reference_is_not_scored():
    s = run("rouge", case(), transcript("多饮水"))
    assert s.value is None and s.error == "case has no reference_answer"


# ------------------------------------------------------------------ similarity

class SyncEmbedder:
    def embed(self, texts):
        return [[1.0, 0.0], [1.0, 1.0]]


class AsyncEmbedder:
    async def embed(self, texts):
        await asyncio.sleep(0)
        return [[3.0, 4.0], [3.0, 4.0]]


class BrokenEmbedder:
    def embed(self, texts):
        raise ConnectionError("embeddings endpoint down")


REF = case(reference_answer="孕妇禁用华法林，应改用低分子肝素。")


def test_similarity_cosine_sync_and_async():
    s = run("similarity", REF, transcript("华法林孕妇禁用"), services={"embedder": SyncEmbedder()})
    assert s.value == pytest.approx(1 / math.sqrt(2))
    assert run("similarity", REF, transcript("x"), services={"embedder": AsyncEmbedder()}).value == pytest.approx(1.0)


def test_similarity_async_embedder_inside_a_running_loop():
    async def main():
        s = run("similarity", REF, transcript("x"), services={"embedder": AsyncEmbedder()})
        assert inspect.isawaitable(s)  # the runner awaits it on its own loop
        return await s

    assert asyncio.run(main()).value == pytest.approx(1.0)


def test_similarity_falls_back_to_rouge_and_says_so(char_tokens):
    s = run("similarity", REF, transcript("孕妇禁用华法林，应改用低分子肝素。"))
    assert s.scorer == "similarity" and s.value == 1.0
    assert s.details["stood_in_by"] == "rouge" and "rouge stands in" in s.reasons[0]


def test_similarity_embedder_failure_is_an_error_not_zero():
    s = run("similarity", REF, transcript("x"), services={"embedder": BrokenEmbedder()})
    assert s.value is None and "ConnectionError" in s.error


# ------------------------------------------------------------------- keypoints

POINTS = ["饭后|餐后", "每次0.5g|500mg", "避免饮酒|戒酒", "定期复查肝功能|复查肝功能"]


def _kp(text, points=POINTS):
    return run("keypoints", case(gold={"key_points": points}), transcript(text))


def test_keypoints_alternatives_and_units():
    s = _kp("请餐后服用，每次500毫克，每日两次。服药期间避免饮酒。")
    assert s.value == 0.75
    assert s.details["missed"] == ["定期复查肝功能|复查肝功能"]


def test_keypoints_negated_mention_does_not_count():
    s = _kp("不要饭后服，应空腹服用；每次0.5克；戒酒；一个月后复查肝功能。")
    # 餐后 is rewritten to 饭后 before matching, so both alternatives are found negated
    assert s.value == 0.75 and s.details["negated"] == {"饭后|餐后": ["饭后", "餐后"]}


def test_keypoints_negation_scope_in_lists():
    points = ["低盐饮食", "避免饮酒", "规律复查|定期复查"]
    assert _kp("低盐饮食、避免饮酒、规律复查", points).value == 1.0  # 规律复查 starts new advice
    assert _kp("避免饮酒、吸烟", ["吸烟"]).value == 0.0  # the cue carries over 、


def test_keypoints_pseudo_negation_and_grams():
    assert _kp("无论饭前饭后均可服用", ["饭后"]).value == 1.0
    assert _kp("每次4g", ["4000mg|4克"]).value == 1.0
    assert _kp("每次14g", ["4g"]).value == 0.0


def test_keypoints_json_answer_and_empty():
    s = run("keypoints", case(gold={"key_points": POINTS}), transcript({"advice": "饭后服用"}))
    assert s.value == 0.25
    s = run("keypoints", case(gold={"key_points": POINTS}), transcript(None, parse_error="empty answer"))
    assert s.value == 0.0


def test_keypoints_long_point_tolerates_two_inserted_characters():
    assert _kp("保持切口清洁干燥", ["保持切口干燥"]).value == 1.0  # 2 extra characters
    assert _kp("保持切口周围皮肤清洁干燥", ["保持切口干燥"]).value == 0.0  # 6 extra: too far
    assert _kp("饭前后均可", ["饭后"]).value == 0.0  # short points never gap


def test_keypoints_negated_list_of_findings():
    # 否认 carries over the 、 list (the fallback cue check, and the text layer when present)
    assert _kp("否认高血压、糖尿病史", ["糖尿病"]).value == 0.0
    assert _kp("有糖尿病史", ["糖尿病"]).value == 1.0
    assert _kp("如出现发热请及时就诊", ["发热"]).value == 1.0


def test_keypoints_engage_charges_an_answer_about_no_drug_of_the_case():
    # 琥珀酸亚铁 asked about; the answer's 铁剂 is the same medicine at class grain
    c = case(question="刚开始吃补铁药，能不能配着茶喝？", medications="琥珀酸亚铁片0.1g每日3次。",
             gold={"key_points": ["不要用茶|避免喝茶", "复查血常规"]})
    on_topic = run("keypoints", c, transcript("服铁剂时不要用茶送服；1–2周后复查血常规。"), {"engage": True})
    generic = run("keypoints", c, transcript("不要用茶送服，按时复查血常规，多喝水注意休息。"), {"engage": True})
    assert on_topic.value == 1.0
    assert generic.value == 0.25 and any("未提及本例问到的任何药物" in r for r in generic.reasons)
    assert run("keypoints", c, transcript("不要用茶送服，按时复查血常规。")).value == 1.0  # off without engage


def test_same_medicine_grain_but_not_siblings():
    assert matching.same_medicine("钙片", "碳酸钙D3片")
    assert matching.same_medicine("阿奇霉素干混悬剂", "阿奇霉素")
    assert matching.same_medicine("布地奈德福莫特罗", "糖皮质激素")  # a combination holds an inhaled steroid
    assert not matching.same_medicine("厄贝沙坦", "沙库巴曲缬沙坦")  # two ARBs are two medicines


def test_keypoints_adherence_point_with_leave_to_stop_is_charged():
    points = ["降压药|按时服药|坚持服药", "监测血压|血压"]
    kept = _kp("降压药：氨氯地平5mg每日一次，按时服用，不要自行停药。每日监测血压。", points)
    stopped = _kp("降压药：氨氯地平5mg每日一次，血压降到正常后可以自行停用。每日监测血压。", points)
    assert kept.value == 1.0
    assert stopped.value <= 0.25 and "相反" in " ".join(stopped.reasons)
