"""The lay rewriting keeps record terms and durations whole (set 3 classes, worded afresh)."""
import pytest

from medsim.sim.lay import clause_to_lay, duration_of


@pytest.mark.parametrize("complaint, expected", [
    ("右侧肢体麻木2个半小时", "2个半小时"),   # not 半小时
    ("反复腹泻三个半月", "三个半月"),         # not 半月
    ("间断咳嗽一年半", "一年半"),
    ("发热3天", "3天"),
    ("胸闷3个月", "3个月"),
])
def test_durations_are_read_whole(complaint, expected):
    assert duration_of(complaint) == expected


@pytest.mark.parametrize("clause, must, must_not", [
    ("突发右侧上下肢无力", "胳膊和腿", "上腿"),
    ("未服用新型口服抗凝药", "抗凝药", "吃抗凝"),
    ("否认糖尿病、近期手术史", "没有", "没做过糖尿病"),
    ("母亲、哥哥均患高血压", "都得了", "均"),
    ("夜尿1～2次/夜", "起夜1到2次", "次/夜"),
    ("曾短期服用糖皮质激素", "激素", "糖皮质"),
])
def test_lay_rewriting_keeps_terms_whole(clause, must, must_not):
    said = clause_to_lay(clause, literacy="low")
    assert must in said and must_not not in said, said
