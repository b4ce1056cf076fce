"""What two short Chinese texts are about, as sets of content characters.

A question and an answer to it share what the question is about: the thing asked (饭, 烟, 摔, 睡,
左/右) appears in both, in a patient's word or a chart's (吃饭 / 饱餐, 摔 / 跌倒, 躺 / 卧床, 抽烟 /
吸烟). Characters, not words: a patient rewords (别处 / 别的地方) and the segmenter splits lay
speech badly. Function and question characters (的了吗, 有没有, 什么, 几) carry no topic and are left
out; each content character is folded to one representative of its meaning group, so a chart
clause and a lay question meet.

Used by the simulated patient to tell whether a reply is about what was asked (``shared``).
"""

from __future__ import annotations

import re
from functools import cache

# characters that say how a thing is asked or joined, not what it is about
_FUNCTION = set(
    "的了吗呢吧啊呀么嘛哦哈没不无未否有是在也都还就又很太挺真这那哪个些啥什怎样儿里几多少会能要得着给您你我他她它们"
    "说看下上来去到和与及或者比如像时候现最近平常之后后前次回一二两三四五六七八九十百千万点分"
    "请问生大夫始嗯对吧过当其别另外再更最它每自己已才刚把被让叫平月天周想跟讲告诉聊"
)

# one meaning, several characters: a patient's and a chart's word for one thing meet
_GROUPS = (
    "饭餐食进吃", "喝饮", "抽吸", "摔跌倒", "躺卧", "走行步", "睡眠觉", "吐呕", "屎便拉", "尿溺",
    "烧热", "咳嗽", "疼痛", "肿胀", "喘憋", "晕眩", "麻木", "酸软", "痒瘙", "血红", "黑暗",
    "岁龄", "腿肢", "胳臂膊", "肚腹", "头颅", "眼目", "奶乳", "孩娃胎孕",
    "经例假", "药服粒丸剂", "针输液滴", "劲力乏", "包疙瘩块结", "父爹爸", "母妈娘", "哥兄", "女闺", "瘦胖斤",
    "查验测", "握攥抓捏",
)


@cache
def _fold_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for group in _GROUPS:
        for ch in group:
            table.setdefault(ch, group[0])
    return table


_HAN = re.compile(r"[\u4e00-\u9fff]")


# two-character words whose meaning is not their characters' (小便 is 尿, not 便)
_WORDS = (("你好", ""), ("您好", ""), ("好不好", ""),
          ("气不够用", "喘"), ("喘不上气", "喘"), ("气短", "喘"), ("气促", "喘"), ("呼吸困难", "喘"),
          ("大小便", "屎尿"), ("小便", "尿"), ("大便", "屎"), ("解手", "屎"), ("胃口", "食"), ("精神", "劲"),
          ("压力", "情"), ("心情", "情"), ("情绪", "情"), ("焦虑", "情"), ("心烦", "情"), ("肚子", "腹"), ("体重", "瘦"),
          ("发作", "犯"), ("熬夜", "睡"), ("片子", "查"), ("拍片", "查"), ("检查", "查"), ("ct", "查"), ("CT", "查"), ("核磁", "查"),
          ("彩超", "查"), ("B超", "查"), ("心电图", "查"), ("化验", "查"))


def content_chars(text: str) -> set[str]:
    """The content characters of ``text``, each folded to its meaning group's representative."""
    fold = _fold_table()
    text = text or ""
    for word, meaning in _WORDS:
        text = text.replace(word, meaning)
    return {fold.get(ch, ch) for ch in _HAN.findall(text) if ch not in _FUNCTION}


def shared(question: str, answer: str, *, ignore: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """The content (folded characters) ``answer`` shares with ``question``, less ``ignore`` (the
    folded characters of what every reply of a case speaks of, such as its complaint)."""
    return (content_chars(question) & content_chars(answer)) - set(ignore)
