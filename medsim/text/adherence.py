"""Taking a medicine as prescribed, and its opposite: stopping it on one's own.

A point that asks for adherence (按时服药, 坚持服药, 规律用药, 坚持注射胰岛素, 长期服用) says what a
prohibition of stopping says (不要自行停药), so an answer that lets the patient stop on their own
(血压降到正常后可以自行停用; 好了就可以自己停掉) says the point the other way round — even when it
names the drug and 按时 in the same breath. A stop the physician decides (由医生决定停药) is not it.
"""

from __future__ import annotations

import re
from typing import Any

from medsim.text.match import alternatives, find_point, says_otherwise

_ADHERENCE = re.compile(r"(?:按时|坚持|规律|长期|按医嘱|遵医嘱)(?:服药|服用|吃药|用药|口服|注射|使用|打)|不要自行停|勿自行停|不能自行停")
_NO_OWN_STOP = "不要自行停药"


def asks_adherence(point: Any) -> bool:
    """Whether one of the point's alternatives asks the patient to keep taking a medicine."""
    return any(_ADHERENCE.search(a) for a in alternatives(point))


def stops_on_own(text: str, point: Any) -> str | None:
    """For an adherence point, the stop on one's own the text allows (as the alternative it opposes), or None."""
    if not asks_adherence(point):
        return None
    allowed = says_otherwise(text, _NO_OWN_STOP, acts_only=True)
    # 不要自行停药 said too: stopping is the physician's call, the permission is his (遵医嘱减停)
    return allowed if allowed and not find_point(text, _NO_OWN_STOP).met else None
