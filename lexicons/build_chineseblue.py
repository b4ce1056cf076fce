"""Build chineseblue_terms.tsv: entity names from the *train* splits of ChineseBLUE's cEHRNER
(records) and cMedQANER (health questions), Apache-2.0, alibaba-research/ChineseBLUE.

    python lexicons/build_chineseblue.py [--data ../shared/data/ext] [--out lexicons/chineseblue_terms.tsv]

Only names are kept, never texts. A name is kept when the annotators marked it in at least half
of the places it is written in the train texts (outside longer marked names) (so 部分, 现 or 严重, marked now and then, stay out),
it is marked at least twice, has two characters or more, and medsim's own lexicons do not already know it. Types are mapped
to medsim's: disease, symptom, drug, exam, procedure, body_part, department (cMedQANER's crowd,
time, feature and physiology have no medsim type and are left out). No dev or test split is read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

TYPES = {
    "疾病和诊断": "disease", "症状": "symptom", "药物": "drug", "实验室检验": "exam", "影像检查": "exam",
    "手术": "procedure", "解剖部位": "body_part",
    "disease": "disease", "symptom": "symptom", "drug": "drug", "test": "exam", "treatment": "procedure",
    "body": "body_part", "department": "department",
}
# a treatment that is a medicine (抗生素, 消炎药, 激素, 疫苗) is a drug
_DRUG_LIKE = re.compile(r"(?:药|素|剂|苗|菌|液|片|丸|膏|散|颗粒|胶囊)$")
_BAD = re.compile(r"[，。；！？、,;!?\s“”\"'《》]|^\d+$|^[a-z]$")
MIN_SHARE = 0.5
MIN_COUNT = 2  # a name marked once may be a slip of segmentation (镇静止痛 → 静止痛)
# states of the body the annotators sometimes typed as diseases: not findings for medsim
NOT_FINDINGS = {"分娩", "妊娠", "怀孕", "月经", "排卵", "生产", "哺乳", "发育", "生长"}


def read(path: Path, key: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """(text with its marked stretches blanked out, [(mention, type)]) per record: what is left
    is where a name is written but not marked."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            text = list(rec["text"])
            mentions = []
            for m in rec.get("mention_data", []):
                mention = m["mention"]
                mentions.append((mention, m.get(key) or m.get("type") or ""))
                try:
                    off = int(m.get("offset", -1))
                except (TypeError, ValueError):
                    off = -1
                if 0 <= off and rec["text"][off : off + len(mention)] == mention:
                    text[off : off + len(mention)] = ["\0"] * len(mention)
            out.append(("".join(text), mentions))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "ext"))
    ap.add_argument("--out", default=str(HERE / "chineseblue_terms.tsv"))
    ap.add_argument("--half", choices=("all", "even", "odd"), default="all",
                    help="build from every other train record only, to measure on the rest (eval_external --half)")
    args = ap.parse_args()
    base = Path(args.data) / "chineseblue"
    records = []
    for ds, key in (("cEHRNER", "label"), ("cMedQANER", "type")):
        recs = read(base / ds / "train.json", key)
        if args.half != "all":
            recs = recs[(0 if args.half == "even" else 1) :: 2]
        records += recs

    marked: Counter = Counter()
    types: dict[str, Counter] = defaultdict(Counter)
    for _, mentions in records:
        for mention, typ in mentions:
            t = TYPES.get(typ)
            m = mention.strip()
            if t is None or len(m) < 2 or len(m) > 20 or _BAD.search(m):
                continue
            if t == "procedure" and typ == "treatment" and _DRUG_LIKE.search(m):
                t = "drug"
            marked[m] += 1
            types[m][t] += 1
    # how often each name is written in the train texts outside any marked stretch
    texts = "\n".join(text for text, _ in records)
    from medsim.text.lexicon import get_lexicon

    lex = get_lexicon()
    rows = []
    for m, n in marked.items():
        unmarked = texts.count(m)
        if n < MIN_COUNT or n / (n + unmarked) < MIN_SHARE or m in NOT_FINDINGS or lex.own_type_of(m) is not None:
            continue
        rows.append((m, types[m].most_common(1)[0][0]))
    rows.sort(key=lambda r: (r[1], r[0]))
    header = [
        "# source: entity names marked in the train splits of ChineseBLUE cEHRNER and cMedQANER",
        "#   (alibaba-research/ChineseBLUE); names only, no texts; built by lexicons/build_chineseblue.py",
        "# licence: Apache-2.0 (ChineseBLUE) — see chineseblue_LICENSE.txt",
        "# format: name<TAB>medsim type ; read after medsim's own lexicons, which win on a clash",
    ]
    Path(args.out).write_text("\n".join(header + [f"{m}\t{t}" for m, t in rows]) + "\n", encoding="utf-8")
    print(f"{len(rows)} names written to {args.out} ({Counter(t for _, t in rows)})")


if __name__ == "__main__":
    main()
