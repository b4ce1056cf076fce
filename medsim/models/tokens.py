"""Tokenizer-free token estimate, used when an endpoint reports no usage.

Rule (documented in the README): each CJK character — ideographs, kana, hangul and
full-width/CJK punctuation — counts as ~1 token (BPE vocabularies of Chinese-capable
models spend 0.6–1.5 tokens per hanzi, so 1 is the middle); every other run of text
counts as ceil(chars / 4), the usual English rule of thumb. Each chat message adds a
few tokens of framing (role markers), as the chat templates do. The figure is marked
``Usage.estimated = True`` so reports can say it is an estimate.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping

# CJK ideographs (incl. extension A and compatibility), kana, hangul, CJK and full-width punctuation.
_CJK = re.compile(
    "[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
)
MESSAGE_OVERHEAD = 4  # role/start/end markers per message
REPLY_PRIMING = 3  # tokens that open the assistant's reply


def estimate_tokens(text: str) -> int:
    """Estimated token count of one string."""
    if not text:
        return 0
    cjk = len(_CJK.findall(text))
    other = len(text) - cjk
    return cjk + math.ceil(other / 4)


def estimate_messages_tokens(messages: Iterable[Mapping[str, str]]) -> int:
    """Estimated prompt tokens of a chat request."""
    total = REPLY_PRIMING
    for m in messages:
        total += MESSAGE_OVERHEAD + estimate_tokens(m.get("content") or "")
    return total
