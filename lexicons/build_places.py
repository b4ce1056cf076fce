"""Rebuild places.tsv.gz from JioNLP's china_location.zip (Apache-2.0).

Usage: python lexicons/build_places.py ../shared/lexicons-src/JioNLP_china_location.zip
Keeps provinces, prefectures, counties (with their short aliases) and towns; drops the
657k villages (too many common words among them, and addresses rarely stop there).
"""

import gzip
import io
import sys
import zipfile
from pathlib import Path

LEVELS = {0: "province", 1: "prefecture", 2: "county", 3: "town"}


def main(src: str) -> None:
    with zipfile.ZipFile(src) as zf:
        raw = zf.read("china_location.txt").decode("utf-8")
    seen: set[tuple[str, str]] = set()
    out = io.StringIO()
    out.write("# source: JioNLP china_location.zip (dongrixinyu/JioNLP @ 783abc5), reduced to levels 0-3\n")
    out.write("# licence: Apache-2.0, see JioNLP_LICENSE.txt in this folder\n")
    out.write("# format: level<TAB>name<TAB>alias (alias empty for towns)\n")
    for line in raw.splitlines():
        depth = len(line) - len(line.lstrip("\t"))
        if depth not in LEVELS:
            continue
        fields = line.strip().split("\t")
        name = fields[0].strip()
        alias = fields[2].strip() if len(fields) > 2 else ""
        key = (LEVELS[depth], name)
        if not name or key in seen:
            continue
        seen.add(key)
        out.write(f"{LEVELS[depth]}\t{name}\t{alias}\n")
    dest = Path(__file__).with_name("places.tsv.gz")
    with gzip.GzipFile(dest, "wb", mtime=0) as fh:
        fh.write(out.getvalue().encode("utf-8"))
    print(f"wrote {dest} ({len(seen)} names)")


if __name__ == "__main__":
    main(sys.argv[1])
