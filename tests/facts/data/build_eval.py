"""Semi-automatic builder of the fact-checking evaluation set (run once, output reviewed by hand).

Source: CMB-Clin, 74 clinical cases (CMB-test-qa.json, Apache-2.0, https://github.com/FreedomIntelligence/CMB).
Every statement is derived from one case description. Each perturbation is verified against the
record text before it is kept (a swapped side must not occur in the record, a flipped symptom must
only ever occur negated, an invented drug or analyte must be absent, ...). The extraction here is a
deliberately separate set of narrow regexes so the set does not inherit the checker's blind spots.

    python tests/facts/data/build_eval.py /work/shared/data/cmb-clin_CMB-test-qa.json > tests/facts/data/facts_eval.jsonl
"""

from __future__ import annotations

import json
import random
import re
import sys

HEADER = {
    "_header": (
        "medsim fact-checking evaluation set. Statements derived from CMB-Clin (CMB-test-qa.json, "
        "74 cases, Apache-2.0, FreedomIntelligence/CMB) by tests/facts/data/build_eval.py and hand review; "
        "case_id 'cmb-N' is the CMB-Clin case id N; the record is that case's description."
    ),
    "labels": {
        "faithful": "supported", "unit_equal": "supported", "negation_flip": "contradicted",
        "laterality": "contradicted", "sex": "contradicted", "age": "contradicted",
        "duration": "contradicted", "value_change": "value_mismatch", "unit_unequal": "value_mismatch",
        "invented_drug": "unsupported", "invented_result": "unsupported", "omission": "omission",
    },
}
EXPECTED = HEADER["labels"]

NEG_CUE = re.compile(r"(无|否认|未见|未诉|不伴|没有|未|非)")
PSEUDO = re.compile(r"无明显诱因|无诱因|无意中|无痛性")  # not negations of the finding that follows
# Hand review: records where a negation runs on across a comma (不伴寒战高热，恶心呕吐) or the
# term is part of another finding (上腹胀痛): polarity items for these are dropped.
REVIEW_DROP = {("cmb-26", "恶心"), ("cmb-26", "呕吐"), ("cmb-19", "腹痛"), ("cmb-48", "腹胀")}
CLAUSE = re.compile(r"[，。；;,.\n]")

SYMPTOMS = [
    "发热", "恶心", "呕吐", "腹泻", "腹胀", "腹痛", "头痛", "头晕", "胸闷", "胸痛", "心慌", "心悸", "咳嗽",
    "咳痰", "呕血", "黑便", "黄疸", "反酸", "乏力", "晕厥", "抽搐", "声音嘶哑", "饮水呛咳", "吞咽困难",
    "血尿", "尿频", "尿急", "尿痛", "畏寒", "寒战", "气促", "呼吸困难", "便血", "盗汗", "消瘦", "意识障碍",
]
DISEASES = ["高血压", "糖尿病", "冠心病", "肝炎", "结核"]

# (display name in statements, names that identify the analyte in a record)
LABS = [
    ("WBC", ["WBC", "白细胞"]), ("Hb", ["Hb", "HGB", "HB", "血红蛋白"]), ("PLT", ["PLT", "血小板"]),
    ("ALT", ["ALT", "谷丙转氨酶", "丙氨酸"]), ("AST", ["AST", "谷草转氨酶", "门冬氨酸"]),
    ("总胆红素", ["TBIL", "TBil", "总胆红素", "TB"]), ("直接胆红素", ["DBIL", "DBil", "直接胆红素", "DB", "Dbil"]),
    ("肌酐", ["肌酐", "Cr"]), ("血钙", ["血钙", "钙"]), ("血钾", ["血钾", "钾", "K+"]), ("血钠", ["血钠", "钠", "Na+"]),
    ("白蛋白", ["白蛋白", "ALB", "Alb"]), ("尿素氮", ["尿素氮", "BUN"]), ("CEA", ["CEA"]),
    ("甲状旁腺素", ["甲状旁腺素"]), ("肾素", ["肾素"]), ("醛固酮", ["醛固酮"]), ("皮质醇", ["皮质醇"]),
    ("tPSA", ["tPSA"]), ("睾酮", ["睾酮"]), ("甲胎蛋白", ["甲胎蛋白", "AFP"]), ("GGT", ["GGT", "谷氨酰转移酶"]),
    ("ALP", ["ALP", "碱性磷酸酶"]), ("乳酸脱氢酶", ["乳酸脱氢酶", "LDH"]),
]
UNIT = r"(×10\^?9/L|×109/L|x109/L|X109/L|×10\^?12/L|×1012/L|g/L|mmol/L|μmol/L|umol/L|U/L|pg/ml|ng/ml|ng/mL|nmol/L)"
SYNONYM_DISPLAY = {"WBC": "白细胞", "Hb": "血红蛋白", "PLT": "血小板", "ALT": "谷丙转氨酶", "AST": "谷草转氨酶"}

# unit_equal: unit -> (new unit, factor); unit_unequal: unit -> wrong unit with the number kept
UNIT_EQUAL = {"g/L": ("g/dL", 0.1), "μmol/L": ("mmol/L", 0.001), "umol/L": ("mmol/L", 0.001),
              "pg/ml": ("ng/L", 1.0), "ng/ml": ("μg/L", 1.0), "ng/mL": ("μg/L", 1.0), "nmol/L": ("μmol/L", 0.001)}
UNIT_UNEQUAL = {"g/L": "g/dL", "μmol/L": "mmol/L", "umol/L": "mmol/L", "mmol/L": "μmol/L", "pg/ml": "ng/ml",
                "ng/ml": "pg/ml", "ng/mL": "pg/ml", "U/L": "U/ml", "nmol/L": "μmol/L"}

DRUGS = [  # (statement text, names that must be absent from the record)
    ("阿司匹林肠溶片100mg qd", ["阿司匹林"]), ("氨氯地平5mg qd", ["氨氯地平", "络活喜"]),
    ("阿托伐他汀20mg qn", ["阿托伐他汀", "立普妥"]), ("华法林3mg qd", ["华法林"]),
    ("美托洛尔25mg bid", ["美托洛尔", "倍他乐克"]), ("左甲状腺素钠片50μg qd", ["左甲状腺素", "优甲乐"]),
    ("泼尼松10mg qd", ["泼尼松", "强的松"]), ("二甲双胍0.5g tid", ["二甲双胍", "格华止"]),
    ("氯吡格雷75mg qd", ["氯吡格雷", "波立维"]), ("奥美拉唑20mg bid", ["奥美拉唑", "洛赛克"]),
]
INVENTED_LABS = [  # (statement text, names that must be absent), none of them part of a routine panel
    ("降钙素原 5.2ng/ml", ["降钙素原", "PCT"]), ("D-二聚体 3.6mg/L", ["D-二聚体", "二聚体"]),
    ("肌钙蛋白I 2.1ng/ml", ["肌钙蛋白", "TnI", "cTn"]), ("C反应蛋白 86mg/L", ["C反应蛋白", "CRP"]),
    ("血沉 65mm/h", ["血沉", "ESR"]), ("血氨 98μmol/L", ["血氨"]), ("血清铁蛋白 850ng/ml", ["铁蛋白"]),
    ("BNP 1250pg/ml", ["BNP", "脑钠肽"]), ("血乳酸 4.8mmol/L", ["乳酸 ", "乳酸:", "乳酸：", "血乳酸", "乳酸持续"]),
]

SIDES = {"左": "右", "右": "左"}
LAT_PARTS = [
    "下腹", "上腹", "中上腹", "腹股沟", "下肢", "上肢", "肾上腺", "肾", "肺", "膝", "手", "颈", "阴囊", "睾丸",
    "甲状腺", "侧脑室", "额", "顶", "枕", "颞", "胸", "腰", "足", "小腿", "髂窝", "腹部", "肢体", "瞳孔", "眼",
    "附睾", "精索", "乳房", "肝", "膈",
]


def find_demographics(text: str) -> tuple[str, str, str] | None:
    """(sex, age number, age unit) as the record writes them, or None."""
    m = re.search(r"(男|女)(?:性)?(?:病儿|病人)?[，,、/\s]*(\d+)\s*(岁|个月|天|y)", text)
    if m:
        return m.group(1), m.group(2), "岁" if m.group(3) == "y" else m.group(3)
    m = re.search(r"(\d+)\s*岁[，,]\s*(?:青年)?(男|女)性", text)
    if m:
        return m.group(2), m.group(1), "岁"
    return None


def _hits(text: str, term: str) -> list[int] | None:
    """Occurrences of term; None when one is not a plain mention (血尿便常规, 嘱咳嗽时, 咳嗽时漏尿)."""
    hits = [m.start() for m in re.finditer(re.escape(term), text)]
    for pos in hits:
        after = text[pos + len(term): pos + len(term) + 3]
        if after.startswith(("便常规", "常规", "时", "症状与")) or text[max(pos - 1, 0):pos] in ("嘱", "有"):
            return None
    return hits


def only_negated(text: str, term: str) -> bool:
    """Every occurrence of term sits in a clause with a negation cue before it."""
    hits = _hits(text, term)
    if not hits:
        return False
    for pos in hits:
        start = max((m.end() for m in CLAUSE.finditer(text, 0, pos)), default=0)
        # a list under one cue: 无恶心、呕吐、腹泻 -- the cue may be several items back, clause-bounded
        if not NEG_CUE.search(PSEUDO.sub("", text[start:pos])):
            return False
    return True


def only_positive(text: str, term: str) -> bool:
    hits = _hits(text, term)
    if not hits:
        return False
    for pos in hits:
        start = max((m.end() for m in CLAUSE.finditer(text, 0, pos)), default=0)
        if NEG_CUE.search(PSEUDO.sub("", text[start:pos])) or "有无" in text[start:pos + 4]:
            return False
    return True


def chief_complaint(text: str) -> str | None:
    m = re.search(r"主诉[）)：:\s]*\n?\s*[“\"]?([^\n“”\"]{4,40}?)[”\"]?[。\n]", text)
    if not m:
        return None
    cc = m.group(1).strip(" 。：:")
    return cc if re.search(r"\d|[一两三四五六七八九十半]", cc) else None


def lab_atoms(text: str) -> list[tuple[str, str, str, str]]:
    """(display, record name, value, unit) for whitelisted analytes, first occurrence of each."""
    out, seen = [], set()
    for display, names in LABS:
        for name in sorted(names, key=len, reverse=True):
            pat = rf"(?<![A-Za-z\u4e00-\u9fa5]){re.escape(name)}[：:\s]*(\d+(?:\.\d+)?)\s*{UNIT}"
            if len(name) > 1 and not name.isascii():
                pat = rf"{re.escape(name)}[：:\s]*(\d+(?:\.\d+)?)\s*{UNIT}"
            m = re.search(pat, text)
            if m and display not in seen:
                seen.add(display)
                out.append((display, name, m.group(1), m.group(2)))
                break
    return out


def vital_atoms(text: str) -> list[tuple[str, str, str]]:
    """(name, value text, unit) for T, P, R, BP."""
    out = []
    m = re.search(r"(?:\bT|体温|BT)[：:\s]*(\d{2}(?:\.\d)?)\s*(?:℃|oC|︒C|度)", text)
    if m:
        out.append(("体温", m.group(1), "℃"))
    m = re.search(r"(?:\bP|脉搏|PR)[：:\s]*(\d{2,3})\s*次[/／]分", text)
    if m:
        out.append(("脉搏", m.group(1), "次/分"))
    m = re.search(r"(?:\bR|呼吸|RR)[：:\s]*(\d{1,2})\s*(?:次[/／]分|/min)", text)
    if m:
        out.append(("呼吸", m.group(1), "次/分"))
    m = re.search(r"(?:BP|Bp|血压)[：:\s]*(\d{2,3})\s*[/／]\s*(\d{2,3})\s*mm[Hh]g", text)
    if m:
        out.append(("血压", f"{m.group(1)}/{m.group(2)}", "mmHg"))
    return out


def fmt(value: float, like: str) -> str:
    decimals = len(like.split(".")[1]) if "." in like else 0
    text = f"{value:.{max(decimals, 0)}f}"
    return text


def fmt_free(value: float) -> str:
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text or "0"


def changed_value(value: str, rng: random.Random) -> str:
    v = float(value)
    for factor in rng.sample([0.5, 1.6, 2.0, 0.7, 1.4, 3.0], 6):
        new = fmt(v * factor, value)
        if float(new) != v and abs(float(new) - v) / max(v, 1e-9) > 0.25:
            return new
    return fmt(v + 10, value)


def lateral_clauses(text: str) -> list[tuple[str, str]]:
    """(clause, swapped clause) where one 左/右 + body part is swapped and the swap is absent from the record."""
    out = []
    for clause in re.split(r"[，。；;,\n]", text):
        clause = re.sub(r"^[（(]?\d+[)）]", "", clause.strip()).strip(" ：:")
        if not (4 <= len(clause) <= 30) or "双" in clause or ("左" in clause and "右" in clause):
            continue
        m = re.search(r"(左|右)(侧)?(" + "|".join(sorted(LAT_PARTS, key=len, reverse=True)) + ")", clause)
        if not m:
            continue
        side, part = m.group(1), m.group(3)
        other = SIDES[side]
        if re.search(rf"({other}|双)侧?{part}", text) or re.search(rf"{other}侧?[\u4e00-\u9fa5]{{0,2}}{part}", text):
            continue
        swapped = clause[: m.start(1)] + other + clause[m.end(1):]
        out.append((clause, swapped))
    return out


def build(cases: list[dict]) -> list[dict]:
    rng = random.Random(20261130)
    items: list[dict] = []

    def add(cid: str, statement: str, label: str, **extra: str) -> None:
        if any(i["case_id"] == cid and i["statement"] == statement for i in items):
            return
        items.append({"case_id": cid, "statement": statement, "label": label, "expected": EXPECTED[label], **extra})

    for case in cases:
        cid, text = f"cmb-{case['id']}", case["description"]
        demo = find_demographics(text)
        if demo:
            sex, age, unit = demo
            add(cid, f"患者{sex}性，{age}{unit}。", "faithful")
            add(cid, f"患者为{'女' if sex == '男' else '男'}性，{age}{unit}。", "sex")
            delta = rng.choice([7, 12, -9, 15, 21]) if unit == "岁" else rng.choice([3, 5])
            new_age = int(age) + delta if int(age) + delta > 0 else int(age) + abs(delta)
            add(cid, f"患者{sex}性，{new_age}{unit}。", "age")

        vitals = vital_atoms(text)
        for name, value, unit in vitals[:2]:
            add(cid, f"{rng.choice(['查体：', '', '测得'])}{name}{value}{unit}。", "faithful")
        for name, value, unit in vitals[:1]:
            if name == "血压":
                sys_, dia = value.split("/")
                new = f"{int(sys_) + 40}/{int(dia) + 20}"
            else:
                new = fmt(float(value) * rng.choice([0.7, 1.3, 1.5]), value) if name != "体温" else fmt(float(value) + 1.8, value)
            recorded = [float(t) for t in re.findall(r"(\d+(?:\.\d+)?)\s*(?:℃|oC|︒C|度|摄氏度)", text)]
            if name == "体温" and any(abs(float(new) - t) < 0.5 for t in recorded):
                continue  # the changed value must not equal another recorded temperature (最高40摄氏度)
            add(cid, f"{rng.choice(['查体：', '', '测得'])}{name}{new}{unit}。", "value_change")

        labs = lab_atoms(text)
        for display, _name, value, unit in labs[:3]:
            shown = SYNONYM_DISPLAY.get(display, display) if rng.random() < 0.4 else display
            unit_shown = "×10^9/L" if unit in ("×109/L", "x109/L", "X109/L") else unit
            add(cid, f"化验示{shown} {value}{unit_shown}。", "faithful")
        for display, _name, value, unit in labs[:1]:
            unit_shown = "×10^9/L" if unit in ("×109/L", "x109/L", "X109/L") else unit
            add(cid, f"实验室检查：{display} {changed_value(value, rng)}{unit_shown}。", "value_change")
        conv = [a for a in labs if a[3] in UNIT_EQUAL][:2]
        for display, _name, value, unit in conv:
            new_unit, factor = UNIT_EQUAL[unit]
            add(cid, f"化验示{display} {fmt_free(float(value) * factor)}{new_unit}。", "unit_equal")
        wrong = [a for a in labs if a[3] in UNIT_UNEQUAL][:2]
        for display, _name, value, unit in wrong:
            add(cid, f"化验示{display} {value}{UNIT_UNEQUAL[unit]}。", "unit_unequal")

        neg_terms = [t for t in SYMPTOMS + DISEASES if only_negated(text, t) and (cid, t) not in REVIEW_DROP]
        pos_terms = [t for t in SYMPTOMS if only_positive(text, t) and (cid, t) not in REVIEW_DROP]
        for term in neg_terms[:2]:
            hist = term in DISEASES
            add(cid, f"患者否认{term}病史。" if hist else f"患者无{term}。", "faithful")
            add(cid, f"患者有{term}病史。" if hist else f"患者伴有{term}。", "negation_flip")
        for term in pos_terms[:2]:
            add(cid, f"患者有{term}。", "faithful")
            add(cid, f"患者无{term}。", "negation_flip")

        for clause, swapped in lateral_clauses(text)[:2]:
            add(cid, f"记录示：{clause}。", "faithful")
            add(cid, f"记录示：{swapped}。", "laterality")

        cc = chief_complaint(text)
        if cc:
            m = list(re.finditer(r"(\d+|[一两三四五六七八九十半])(余)?(小时|天|日|周|个月|月|年)", cc))
            if m:
                last = m[-1]
                swap = {"小时": "天", "天": "个月", "日": "个月", "周": "年", "个月": "年", "月": "年", "年": "个月"}
                new_unit = swap[last.group(3)]
                changed = cc[: last.start(3)] + new_unit + cc[last.end(3):]
                if f"{last.group(1)}{new_unit}" not in text:
                    add(cid, f"主诉：{cc}。", "faithful")
                    add(cid, f"主诉：{changed}。", "duration")

        drugs = [d for d in DRUGS if not any(n in text for n in d[1])]
        for drug, _ in rng.sample(drugs, min(1, len(drugs))):
            add(cid, f"患者平素规律口服{drug}。", "invented_drug")
        labs_new = [d for d in INVENTED_LABS if not any(n in text for n in d[1])]
        for lab, _ in rng.sample(labs_new, min(1, len(labs_new))):
            add(cid, f"化验示{lab}。", "invented_result")

        # omission: a short summary built from key facts; drop one. The control keeps them all.
        facts = []
        if demo:
            facts.append(f"{demo[0]}，{demo[1]}{demo[2]}")
        if cc:
            facts.append(cc)
        if labs:
            display, name, value, unit = labs[0]
            facts.append(f"{display} {value}{unit}")
        elif vitals:
            facts.append(f"{vitals[0][0]}{vitals[0][1]}{vitals[0][2]}")
        if len(facts) >= 3:
            drop = rng.randrange(len(facts))
            kept = [f for i, f in enumerate(facts) if i != drop]
            add(cid, "病例摘要：" + "；".join(kept) + "。", "omission", key_fact=facts[drop])
            keep = (drop + 1) % len(facts)
            add(cid, "病例摘要：" + "；".join(facts) + "。", "faithful", key_fact=facts[keep])
    return items


def main() -> None:
    cases = json.load(open(sys.argv[1], encoding="utf-8"))
    print(json.dumps(HEADER, ensure_ascii=False))
    for item in build(cases):
        print(json.dumps(item, ensure_ascii=False))


if __name__ == "__main__":
    main()
