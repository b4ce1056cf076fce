"""What a multiple-choice option or a concluding clause means, where the words vary.

"None of the above" is written many ways — 以上都不是, 以上均不是, 以上皆非, 以上选项都不正确,
其余选项都不正确 (how a none-of-the-above option reads when it is not shown last), None of the
above. One meaning, one place: the prompt builder uses it to spot such an option, and the
choice parser to read a conclusion that names it in other words than the option's.
"""

from __future__ import annotations

import re
import unicodedata

# what the phrase refers back to: the options shown before it. An option may also say "the
# others" (其余选项都不正确); an answer saying 其余都不对 after its letter rejects the rest, so
# that reading is the option's only.
_REFERENT = r"(?:以上|上述|上面|前面|所有|全部|这些|这几个|四个|几个|各)"
_OTHERS = r"(?:其余|其他|其它|其馀)"
_WHAT = r"(?:的)?(?:各?个?选项|答案|各项|几项|说法|选择|项)?"
_ALL = r"(?:都|均|皆|全都|全|一律)"
_NOT = r"(?:不是|不对|不正确|不符合|不符|不成立|不合适|不恰当|错误|错|非|不选)"
_TAIL = r"(?:的|正确答案|答案|选项)?"
_EN = r"none\s*of\s*(?:the\s*)?(?:above|these|them)|none\s*is\s*correct"  # spaces are gone by then
_NONE = re.compile(rf"{_REFERENT}{_WHAT}{_ALL}{_NOT}{_TAIL}|以上皆非|皆非|{_EN}", re.I)
_NONE_OPTION = re.compile(rf"(?:{_REFERENT}|{_OTHERS}){_WHAT}{_ALL}{_NOT}{_TAIL}|以上皆非|皆非|{_EN}", re.I)
# a clause that is nothing but the verdict: "都不是", "答案是：均不正确"
_BARE = re.compile(rf"(?:(?:最终|正确)?答案|结论|我(?:认为|选择?))?(?:应该|应)?(?:是|为|选择?)?{_ALL}{_NOT}")


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "")
    return re.sub(r"[\s*#。.，,；;：:！!？?、“”\"'《》（）()\[\]【】]", "", text)


def is_none_option(option_text: str) -> bool:
    """The option text says none of the others is right (以上都不是, 其余选项都不正确, …)."""
    return bool(_NONE_OPTION.fullmatch(_plain(option_text)))


def says_none_of_the_above(clause: str) -> bool:
    """The clause concludes that none of the options is right: it ends in the verdict with what it
    refers to (以上均不是, 以上选项都不正确, 上述皆非), or is nothing but the verdict (都不是)."""
    body = re.sub(r"(?<=[\u4e00-\u9fff])[A-Ha-h]$", "", _plain(clause))  # 以上都不是（E）
    body = re.sub(r"(?:了|啊|吧|呢)+$", "", body)  # 都不是了
    if not body:
        return False
    # the verdict ends the clause: 以上均不是禁忌 says something else
    return bool(re.search(rf"(?:{_NONE.pattern})$", body, re.I)) or bool(_BARE.fullmatch(body))
