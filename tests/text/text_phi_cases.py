"""A synthetic PHI test set: records with planted identifiers and look-alikes.

Every record is built piece by piece, so the gold span of each planted identifier is known
exactly. Look-alikes (lab values, specimen numbers, 18-digit numbers with a wrong check
character, 3天前, 入院第3天, BP 120/80mmHg, 当地医院…) are planted too and must NOT be taken.
All values are invented; ID numbers are generated with a valid GB 11643 check character.

Run ``python tests/text/text_phi_cases.py`` to print precision and recall per type.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

_ID_W = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖"
_GIVEN = "建国秀英志强丽华明亮海燕俊杰雪梅文博晓东春生桂兰玉珍卫东子豪雨欣"
_PLACES = [
    ("浙江省", "杭州市", "西湖区", "文三路"),
    ("湖南省", "长沙市", "岳麓区", "麓山南路"),
    ("广东省", "广州市", "天河区", "天河北路"),
    ("四川省", "成都市", "武侯区", "人民南路"),
    ("江苏省", "南京市", "鼓楼区", "中山北路"),
    ("山东省", "济南市", "历下区", "泉城路"),
    ("河南省", "郑州市", "金水区", "花园路"),
    ("湖北省", "武汉市", "江岸区", "解放大道"),
    ("陕西省", "西安市", "雁塔区", "长安南路"),
    ("福建省", "厦门市", "思明区", "厦禾路"),
]
_HOSP_CORE = ["协和", "湘雅", "华西", "瑞金", "同济", "齐鲁", "中山", "仁济", "西京", "鼓楼"]


@dataclass
class Record:
    text: str = ""
    gold: list[tuple[int, int, str]] = field(default_factory=list)

    def add(self, s: str, kind: str | None = None) -> None:
        if kind:
            self.gold.append((len(self.text), len(self.text) + len(s), kind))
        self.text += s


def id_number(rng: random.Random, valid: bool = True) -> str:
    region = rng.choice(["110101", "330106", "430104", "440106", "510107", "320106"])
    birth = f"{rng.randint(1940, 2005)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    body = region + birth + f"{rng.randint(0, 999):03d}"
    check = "10X98765432"[sum(int(d) * w for d, w in zip(body, _ID_W, strict=True)) % 11]
    if not valid:
        check = "10X98765432"[(("10X98765432".index(check)) + 3) % 11]
    return body + check


def _name(rng: random.Random) -> str:
    return rng.choice(_SURNAMES) + "".join(rng.choice(_GIVEN) for _ in range(rng.choice([1, 2])))


def _mobile(rng: random.Random) -> str:
    return f"1{rng.choice('3456789')}{rng.randint(0, 9)}{rng.randint(0, 99999999):08d}"


def _date(rng: random.Random, style: int) -> str:
    y, m, d = rng.randint(2015, 2024), rng.randint(1, 12), rng.randint(1, 28)
    return [f"{y}年{m}月{d}日", f"{y}-{m:02d}-{d:02d}", f"{y}/{m}/{d}", f"{y}.{m:02d}.{d:02d}"][style % 4]


def make_record(rng: random.Random, i: int) -> Record:
    r = Record()
    name = _name(rng)
    place = rng.choice(_PLACES)
    hosp = place[1].removesuffix("市") + rng.choice(_HOSP_CORE) + "医院"
    style = i % 6
    if style == 0:
        r.add("姓名：")
        r.add(name, "name")
        r.add("  性别：男  年龄：56岁\n身份证号：")
        r.add(id_number(rng), "id_card")
        r.add("\n联系电话：")
        r.add(_mobile(rng), "mobile")
        r.add("\n住院号：")
        r.add(f"{rng.randint(100000, 9999999)}", "record_no")
        r.add("\n现住址：")
        r.add(f"{place[0]}{place[1]}{place[2]}{place[3]}{rng.randint(1, 300)}号", "address")
        r.add("\n主诉：胸痛3天。\n现病史：患者3天前无明显诱因出现胸痛，于")
        r.add(_date(rng, i), "date")
        r.add("就诊于")
        r.add(hosp, "hospital")
        r.add("，查WBC 12.3×10^9/L，肌酐156μmol/L，BP 150/90mmHg。")
    elif style == 1:
        r.add("患者")
        r.add(rng.choice(_SURNAMES) + "某某", "name")
        r.add("，女，62岁，因“反复咳嗽2年，加重1周”于")
        r.add(_date(rng, i + 1), "date")
        r.add("入院。病案号：")
        r.add(f"BA{rng.randint(10000000, 99999999)}", "record_no")
        r.add("。标本号：")
        r.add(_mobile(rng))  # a specimen number that looks like a mobile: not PHI
        r.add("。检验条码：")
        r.add(id_number(rng, valid=False))  # 18 digits, wrong check character: not an ID
        r.add("。家属电话：")
        r.add(f"0{rng.randint(10, 999)}-{rng.randint(10000000, 99999999)}", "landline")
        r.add("。入院第3天体温37.8℃，予头孢曲松2g ivgtt qd。")
    elif style == 2:
        r.add("门诊号：")
        r.add(f"MZ{rng.randint(1000000, 9999999)}", "record_no")
        r.add("\n患者")
        r.add(name, "name")
        r.add("，男，45岁，家住")
        r.add(f"{place[1]}{place[2]}{place[3]}{rng.randint(1, 99)}号{rng.randint(1, 20)}栋{rng.randint(101, 2505)}室", "address")
        r.add("。2小时前突发腹痛，既往在当地医院诊断胆囊结石。手机：")
        r.add(_mobile(rng), "mobile")
        r.add("，邮箱：")
        r.add(f"{name_ascii(rng)}@example.org", "email")
        r.add("。\n血常规：PLT 210×10^9/L，Hb 135g/L。")
    elif style == 3:
        r.add("患者于")
        r.add(_date(rng, i + 2), "date")
        r.add("在")
        r.add(hosp, "hospital")
        r.add("行胆囊切除术，术后恢复可。身份证：")
        r.add(id_number(rng), "id_card")
        r.add("。随访电话（")
        r.add(f"0{rng.randint(20, 29)}){rng.randint(10000000, 99999999)}", None)
        # the landline with parentheses is planted below in its own format
        r.text = r.text[: r.text.rfind("（")] + "："
        r.add(f"(0{rng.randint(20, 29)}){rng.randint(10000000, 99999999)}", "landline")
        r.add("。10年前曾患肺结核，1月余前复查胸片未见异常。外院CT示肺结节。")
    elif style == 4:
        r.add("记录者：")
        r.add(name, "name")
        r.add("  ")
        r.add(_date(rng, i + 3), "date")
        r.add("\n患者自述3天前受凉后发热，最高39.2℃，伴咳嗽、咳痰。否认高血压、糖尿病史。联系人：")
        r.add(_name(rng), "name")
        r.add("，电话")
        r.add(_mobile(rng), "mobile")
        r.add("。PPD试验阴性，尿蛋白(-)，血糖6.1mmol/L，K 3.5-5.3mmol/L。批号：")
        r.add(f"{rng.randint(20200101, 20241231)}")  # a drug batch number: not PHI
        r.add("。")
    else:
        r.add("出院记录\n住院号：")
        r.add(f"ZY{rng.randint(2015, 2024)}{rng.randint(10000, 99999)}", "record_no")
        r.add("  入院日期：")
        r.add(_date(rng, i), "date")
        r.add("  出院日期：")
        r.add(_date(rng, i), "date")
        r.add("\n患者")
        r.add(name, "name")
        r.add("，女，33岁，")
        r.add(f"{place[0]}{place[1]}{place[2]}", "address")
        r.add("人。因停经45天，下腹痛2小时入院，诊断异位妊娠，行腹腔镜输卵管切除术。术后第2天出院，嘱1周后于")
        r.add(hosp, "hospital")
        r.add("门诊复查，剂量0.5g bid，3月余后复查。")
    return r


_ROLE_FRAMES = [
    # (text before the name, text after it); the name is planted between
    ("主治医师", "查房，患者一般情况可。"),
    ("家属", "陪同入院。"),
    ("其妻", "代诉病史。"),
    ("由", "医生接诊，予吸氧、心电监护。"),
    ("责任护士", "巡视病房，患者睡眠可。"),
    ("其子", "签字同意手术。"),
    ("联系人", "（配偶），电话未留。"),
    ("请", "主任会诊，建议完善胃镜。"),
]
# role words with no name after them, and masked names: nothing (or only the masked name) to take
_ROLE_LOOKALIKES = [
    "主治医师查房，患者一般情况尚可。", "家属陪同入院。", "其妻代诉病史。", "由值班医生接诊，护士长巡视病房。",
    "经治医生于今日查房，嘱继续抗感染治疗。", "医生和家属沟通病情，家属表示理解。", "主任查房后指示：完善胃镜检查。",
    "家属同意手术，签署知情同意书。", "职业：教师。", "剂量单位：mg。", "在学校体检时发现血压升高。",
]
_SCHOOLS = ["第一中学", "实验小学", "育才中学", "师范大学", "第二人民小学"]
_COMPANIES = ["机械制造有限公司", "纺织厂", "物流有限公司", "建筑工程公司"]


def make_role_record(rng: random.Random, i: int) -> Record:
    """Names next to a role word (主治医师李明查房, 其妻张秀英代诉), employers and schools, and the
    same role words with no name after them."""
    r = Record()
    place = rng.choice(_PLACES)
    r.add("患者")
    r.add(rng.choice(_SURNAMES) + "某", "name")
    r.add("，男，52岁。")
    before, after = _ROLE_FRAMES[i % len(_ROLE_FRAMES)]
    r.add(before)
    r.add(_name(rng), "name")
    r.add(after)
    r.add(_ROLE_LOOKALIKES[i % len(_ROLE_LOOKALIKES)])
    if i % 3 == 0:
        r.add("工作单位：")
        r.add(place[1] + rng.choice(_SCHOOLS), "employer")
        r.add("。")
    elif i % 3 == 1:
        r.add("患者就职于")
        r.add(place[1].removesuffix("市") + rng.choice(_COMPANIES), "employer")
        r.add("，长期伏案工作。")
    if i % 4 == 0:
        r.add("患者")
        name = _name(rng)
        r.add(name, "name")
        r.add("之子")
        r.add(_name(rng), "name")
        r.add("陪同。")
    r.add("查体：T 36.8℃，BP 130/80mmHg，心肺听诊未见异常。")
    return r


def name_ascii(rng: random.Random) -> str:
    return rng.choice(["zhang", "li", "wang", "liu", "chen"]) + str(rng.randint(1, 999))


def build(n: int = 240, seed: int = 20261130, n_role: int = 80) -> list[Record]:
    """``n`` records in the original six styles, then ``n_role`` with role-anchored names and
    employers (drawn after, so the first ``n`` are the same records as before they were added)."""
    rng = random.Random(seed)
    return [make_record(rng, i) for i in range(n)] + [make_role_record(rng, i) for i in range(n_role)]


def score(records: list[Record]) -> dict[str, dict[str, float]]:
    """Exact-span precision and recall per PHI type."""
    from medsim.text.deid import find_phi

    counts: dict[str, list[int]] = {}  # kind → [tp, predicted, gold]
    for rec in records:
        gold = set(rec.gold)
        pred = {(p.start, p.end, p.kind) for p in find_phi(rec.text)}
        for kind in {k for *_, k in gold | pred}:
            g = {x for x in gold if x[2] == kind}
            p = {x for x in pred if x[2] == kind}
            c = counts.setdefault(kind, [0, 0, 0])
            c[0] += len(g & p)
            c[1] += len(p)
            c[2] += len(g)
    out = {}
    for kind, (tp, np_, ng) in sorted(counts.items()):
        out[kind] = {
            "precision": tp / np_ if np_ else 1.0,
            "recall": tp / ng if ng else 1.0,
            "gold": ng,
            "predicted": np_,
        }
    return out


def print_report(title: str, recs: list[Record]) -> None:
    """The precision/recall table every PHI set prints when run as a script."""
    print(f"{len(recs)} {title}")
    print(f"{'type':<10} {'gold':>5} {'pred':>5} {'precision':>9} {'recall':>7}")
    for kind, m in score(recs).items():
        print(f"{kind:<10} {m['gold']:>5} {m['predicted']:>5} {m['precision']:>9.3f} {m['recall']:>7.3f}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # medsim from this checkout
    print_report("synthetic records", build(n_role=0) if "--no-role" in sys.argv else build())
