"""China place names (JioNLP gazetteer, Apache-2.0) for finding addresses.

``lexicons/places.tsv.gz`` keeps provinces, prefectures, counties (with short aliases) and
towns; villages are left out. Loaded once on first use.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from functools import cache

from medsim.paths import lexicons_dir

LEVEL_RANK = {"province": 0, "prefecture": 1, "county": 2, "town": 3}
_SUFFIX_CHARS = set("省市区县州盟旗镇乡道")
_GENERIC = {"社区", "城区", "郊区", "市区", "新区", "东区", "西区", "南区", "北区", "矿区", "林区", "景区", "园区", "街道", "城关镇"}
# street-level detail after the admin chain: 解放路23号3栋2单元501室
STREET_RE = re.compile(
    r"(?:[\u4e00-\u9fa5A-Za-z0-9]{1,12}?(?:大街|大道|胡同|社区|小区|花园|公寓|大厦|广场|路|街|巷|弄|村|组|苑|里|屯|庄|段)){0,3}"
    r"(?:\d+(?:-\d+)?号)?(?:院)?(?:\d+号楼|\d+栋|\d+幢|\d+座)?(?:\d+单元)?(?:\d+层|\d+楼)?(?:\d+室|\d+号)?"
)


@dataclass
class Gazetteer:
    names: dict[str, str] = field(default_factory=dict)  # full name → best (highest) level
    aliases: dict[str, str] = field(default_factory=dict)  # 湖南 → province, 长沙 → prefecture
    max_len: int = 2

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, level) of every full place name (with its 省/市/区/县/镇… suffix)."""
        cands: list[tuple[int, int, str]] = []
        names = self.names
        for j, ch in enumerate(text):
            if ch not in _SUFFIX_CHARS:
                continue
            for L in range(min(self.max_len, j + 1), 1, -1):
                level = names.get(text[j + 1 - L : j + 1])
                if level is not None:
                    cands.append((j + 1 - L, j + 1, level))
        # leftmost, then longest, without overlaps
        cands.sort(key=lambda c: (c[0], -(c[1] - c[0])))
        out: list[tuple[int, int, str]] = []
        for c in cands:
            if out and c[0] < out[-1][1]:
                continue
            out.append(c)
        return out


@cache
def gazetteer() -> Gazetteer:
    g = Gazetteer()
    path = lexicons_dir() / "places.tsv.gz"
    if not path.exists():
        return g
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 2:
                continue
            level, name = parts[0], parts[1]
            # two-character towns (唐镇) and generic area words (社区, 城区) read as ordinary text
            if name in _GENERIC or (level == "town" and len(name) <= 2):
                continue
            alias = parts[2] if len(parts) > 2 else ""
            prev = g.names.get(name)
            if prev is None or LEVEL_RANK[level] < LEVEL_RANK[prev]:
                g.names[name] = level
            g.max_len = max(g.max_len, len(name))
            # short aliases of provinces and prefectures only: county short forms (和平, 新华)
            # are ordinary words too often
            if alias and level in ("province", "prefecture") and len(alias) >= 2:
                g.aliases.setdefault(alias, level)
    return g
