"""De-identification of Chinese clinical records.

Finds 姓名 (after a label, 患者X, and next to a role word: 主治医师李明查房, 其妻张秀英代诉,
由王建国医生接诊, 刘德华之子; after a time word or a department: 今日赵立新主任, 心内科黎振华教授; before
a verb jieba's dictionary tags as one: 其母马晓燕抱入, 责任护士邓倩测体温; in a list: 医师：唐国栋、韩雪),
hospital short names (协和, 华西, 北医三院, 中山一院: ``lexicons/hospital_short_names.txt``), 身份证号 (GB 11643 check character), mobile and landline numbers,
住院号/病案号/门诊号, addresses (JioNLP gazetteer), dates, hospital names, employers and schools
(工作单位：…, 就职于…公司) and e-mail addresses, and replaces each with a surrogate. Within one call the same original always gets the same
surrogate, and every full date is shifted by one seeded offset so intervals are kept.

Look-alikes are left alone on purpose: lab values, 18-digit lab or specimen numbers whose
check character fails, numbers after 标本号/条码/检验号, and relative times such as 3天前.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass, field
from functools import cache

from medsim.text.deid_context import (
    hospital_short_spans,
    jieba_says_name,
    time_word_at,
    time_word_before,
    verb_at,
)
from medsim.text.lexicon import get_lexicon
from medsim.text.normalize import normalize
from medsim.text.places import STREET_RE, gazetteer

PHI_KINDS = ("name", "id_card", "mobile", "landline", "record_no", "email", "date", "hospital", "address", "employer")
STRUCTURED_KINDS = ("id_card", "mobile", "landline", "record_no", "email")

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"

# Common Chinese surnames (single and compound); a name pattern needs one of these.
_COMPOUND_SURNAMES = "欧阳 司马 诸葛 上官 东方 皇甫 尉迟 公孙 慕容 令狐 长孙 宇文 司徒 夏侯 轩辕 端木 独孤 南宫 西门 百里".split()
_SURNAMES = set(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝储蔺晁芮"
)
_SURNAME_RE = "(?:" + "|".join(_COMPOUND_SURNAMES) + "|[" + "".join(sorted(_SURNAMES)) + "])"

# labels whose value is a person's name
_NAME_LABELS = r"(?:患者姓名|病人姓名|姓\s*名|联系人|监护人|家属姓名|家属|配偶|主治医师|主治医生|经治医师|住院医师|主任医师|责任护士|医师签名|医生签名|签\s*名|记录者|记录人|报告医生|报告人|审核医生|审核人|审核者|检查者|送检医生|申请医生|医师|医生)"
_NAME_STOP = r"(?=[，。；、：\s()（）\d]|性别|年龄|男|女|$)"
_RE_NAME_LABEL = re.compile(rf"{_NAME_LABELS}\s*：\s*([\u4e00-\u9fa5·]{{2,4}}?){_NAME_STOP}|姓名\s*([\u4e00-\u9fa5·]{{2,4}}?){_NAME_STOP}")
_RE_NAME_MOU = re.compile(rf"{_SURNAME_RE}某某?")
_RE_NAME_CONTEXT = re.compile(
    rf"(?:(?<=患者)|(?<=病人)|(?<=患儿)|(?<=病儿)|(?<=产妇)|(?<=孕妇))({_SURNAME_RE}[\u4e00-\u9fa5]{{1,2}}?)"
    r"(?=，?(?:男|女)[，,性\s]|，\d+岁|，|,|因|主因|于|以)"
    rf"|^\s*({_SURNAME_RE}[\u4e00-\u9fa5]{{1,2}}?)(?=，?(?:男|女)[，,性\s]|，\d+岁)"
    rf"|(?:(?<=父亲)|(?<=母亲)|(?<=配偶)|(?<=丈夫)|(?<=妻子)|(?<=儿子)|(?<=女儿)|(?<=之子)|(?<=之女)|(?<=家属))({_SURNAME_RE}[\u4e00-\u9fa5]{{1,2}}?)(?=[，,(（]|\d+岁)",
    re.M,
)
# a "name" made of time or clinical words is not a name: 患者于昨日，父亲高血压，
_NOT_NAME_CHARS = set("日晨午晚年月天时院诊科室病症炎痛热咳床")

# Role-anchored names in running text (no colon): a staff title or a relative before the name
# (主治医师李明查房, 其妻张秀英代诉, 之子刘强陪同), a title after it (由王建国医生接诊), a kinship word
# after it (患者刘德华之子). The name is a family name and one or two more characters; which length
# is decided by what follows, which must end the name: punctuation or a word that reads on from a
# name (查房, 陪同, 代诉, 主刀…). So 主治医师查房 and 家属陪同 give nothing.
_ROLE_BEFORE = (
    "副主任医师", "主任医师", "主治医师", "主治医生", "住院医师", "住院医生", "主管医师", "主管医生", "经治医师", "经治医生",
    "实习医生", "进修医生", "值班医生", "管床医生", "责任护士", "主管护士", "护士长", "护士", "护师", "医师", "医生", "大夫",
    "主任", "教授", "家属", "其妻", "其夫", "妻子", "丈夫", "之妻", "之夫", "之子", "之女", "其子", "其女", "儿子", "女儿",
    "其父", "其母", "父亲", "母亲", "配偶", "联系人", "监护人", "陪同人", "陪护", "委托人", "代理人",
    "外婆", "外公", "奶奶", "爷爷", "姥姥", "姥爷", "祖父", "祖母", "哥哥", "姐姐", "弟弟", "妹妹", "其兄", "其姐", "其弟",
    "其妹", "儿媳", "女婿", "孙子", "孙女", "治疗师", "康复师", "技师", "药师", "营养师",
)
_ROLE_AFTER = ("副主任医师", "主任医师", "主治医师", "医生", "医师", "大夫", "护士长", "护士", "主任", "教授", "治疗师",
               "康复师", "技师", "药师", "营养师")
_KIN_AFTER = ("之子", "之女", "之妻", "之夫", "之父", "之母", "的儿子", "的女儿", "的妻子", "的丈夫")
# what may follow a name: these words, punctuation, a digit, or the end of the text
_NAME_NEXT = (
    "查房", "查看", "查体", "陪同", "陪护", "陪伴", "护送", "代诉", "代述", "代为", "诉", "述", "称", "说", "签字", "签名",
    "签署", "接诊", "会诊", "诊治", "巡视", "指示", "指导", "同意", "拒绝", "告知", "表示", "要求", "协助", "负责", "主刀",
    "手术", "操作", "记录", "审核", "报告", "电话", "手机", "联系", "前来", "送", "携", "照顾", "看护", "补充", "回忆",
    "提供", "反映", "发现", "知情", "在场", "均", "已", "于", "及", "和", "与", "等", "为", "是", "的", "之", "系",
    "医生", "医师", "大夫", "护士", "主任", "教授", "男", "女",
)
_NAME_NEXT_RE = re.compile(r"[，。；、：:,;.\s()（）\d]|$|" + "|".join(sorted(_NAME_NEXT, key=len, reverse=True)))
_NAME_NEXT_LONG = re.compile("|".join(sorted((w for w in _NAME_NEXT if len(w) >= 2), key=len, reverse=True)))
_RE_ROLE_BEFORE = re.compile("(?:" + "|".join(sorted(_ROLE_BEFORE, key=len, reverse=True)) + rf")(?={_SURNAME_RE})")
_RE_ROLE_AFTER = re.compile(
    rf"(?=({_SURNAME_RE}[\u4e00-\u9fa5]{{1,2}}?)(?:{'|'.join(_ROLE_AFTER)}|{'|'.join(_KIN_AFTER)}))"
)
# what may stand just before a name that a title follows: a preposition or punctuation (由王建国医生),
# a department (心内科黎振华教授), or a time word (今日赵立新主任, checked with jieba's tags)
_ROLE_AFTER_BOUNDARY = set("由经请与和及、，。；：\n \t（(科")
# labels with no fixed place in _NAME_LABELS: operation and consent roles (主刀：, 签字人：); the value
# must look like a name (麻醉：全麻 is not one)
_RE_NAME_LABEL_EXTRA = re.compile(
    r"(?:主刀医师|主刀医生|主刀|术者|第一助手|第二助手|助手|一助|二助|麻醉医师|麻醉医生|麻醉师|麻醉|器械护士|巡回护士"
    r"|签字人|委托人|被委托人|代理人|参加人员|参加讨论人员|讨论人员|护士|记录护士)\s*[：:]\s*"
    rf"(?=({_SURNAME_RE}[\u4e00-\u9fa5]{{1,2}}?){_NAME_STOP})"
)
# a name in a list after one already found: 医师：唐国栋、韩雪；助手：钟华、谢婷婷
_RE_LIST_NEXT = re.compile(rf"、\s*({_SURNAME_RE}[\u4e00-\u9fa5]{{1,2}}?)(?=[、，。；;,\s(（]|$)")
_RE_KIN_AFTER = re.compile(
    rf"(?:(?<=患者)|(?<=病人)|(?<=患儿)|(?<=家属))({_SURNAME_RE}[\u4e00-\u9fa5]{{1,2}}?)(?:{'|'.join(_KIN_AFTER)})"
)
# characters that end or glue a clause, never in a given name: 和家属, 于今日, 向医生
_NOT_GIVEN_CHARS = set("的了是在有无不也都和与及或等诉述称说要已未被把将对向从由到于为其之某均患")

# Employer and school (an identifier: 工作单位：北京市第一中学). Label-anchored; a bare 单位/学校 must start
# the label and have its colon (not 剂量单位：, 转诊单位：, which is a hospital), a verb form (就职于X) needs
# an organisation ending, so 在学校体检 takes nothing.
_RE_EMPLOYER_LABEL = re.compile(
    r"(?:工作单位|就职单位|所在单位|单位名称|工作地点|就读学校|所在学校|学校名称|(?<![\u4e00-\u9fa5])单位|(?<![\u4e00-\u9fa5])学校)\s*[：:]\s*"
    r"([^，。；;,\n]{2,30}?)(?=[，。；;,\n]|$)"
)
_ORG_END = r"(?:中学|小学|大学|学院|学校|幼儿园|有限公司|公司|集团|工厂|厂|局|研究所|所|银行|中心|委员会|政府|医院|站|店|社|部队)"
_RE_EMPLOYER_VERB = re.compile(rf"(?:就职于|任职于|供职于|就读于|工作于|受雇于)([\u4e00-\u9fa5A-Za-z0-9]{{2,28}}?{_ORG_END})")

_RE_EMAIL = re.compile(r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}")
_RE_ID = re.compile(r"(?<![0-9A-Za-z])(\d{17}[\dXx])(?![0-9A-Za-z])")
_RE_ID_LABELED = re.compile(r"(?:身份证号码|身份证号|身份证|公民身份号码|证件号码|证件号)\s*：?\s*(\d{15}(?:\d{2}[\dXx])?)(?![0-9A-Za-z])")
_RE_MOBILE = re.compile(r"(?<![0-9A-Za-z])(?:\+?86[-\s]?)?1[3-9]\d(?:\d{8}|[-\s]\d{4}[-\s]\d{4})(?![0-9A-Za-z])")
_RE_LANDLINE = re.compile(r"(?<![0-9A-Za-z\-])(?:\(0\d{2,3}\)\s*|0\d{2,3}[-\s])\d{7,8}(?:-\d{1,5})?(?![0-9A-Za-z])")
_RE_LANDLINE_LABELED = re.compile(r"(?:电话|座机|固话|联系电话|家庭电话|单位电话|Tel|TEL|tel)\s*：?\s*(\d{7,8}|0\d{9,11})(?![0-9A-Za-z])")
_RE_RECORD = re.compile(
    r"(?:住院号|病案号|门诊号|病历号|住院病历号|就诊号|就诊卡号|诊疗卡号|登记号|患者ID|病人ID|ID号|医保卡号|医保号|社保卡号|健康卡号|影像号|放射号|急诊号)\s*：?\s*([A-Za-z]{0,4}[-]?\d[\dA-Za-z\-]{3,19})(?![0-9A-Za-z])"
)
# numbers that look like identifiers but belong to the lab or the pharmacy
_LOOKALIKE_LABEL = re.compile(r"(?:标本号|样本号|条码号?|检验号|检验单号|流水号|申请单号|报告单号|批号|批准文号|国药准字|试剂批号)\s*：?\s*$")

_RE_DATE_FULL = re.compile(
    r"(?<!\d)(\d{4})\s*(?:(年)\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]?|([-/.])\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})(?:日)?)(?!\d)"
)
_RE_DATE_YM = re.compile(r"(?<!\d)(\d{4})年(\d{1,2})月(?!\d|份?\d)")
_CN_DIGIT = "〇一二三四五六七八九"
_RE_DATE_CN = re.compile(r"([〇零一二三四五六七八九]{4})年([一二三四五六七八九十]{1,2})月([一二三四五六七八九十]{1,3})[日号]")
_RE_DATE_MD = re.compile(r"(?<![\d年])(\d{1,2})月(\d{1,2})[日号]")

_HOSPITAL_SUFFIX = re.compile(r"(?:附属医院|人民医院|中医医院|中医院|妇幼保健院|保健院|卫生服务中心|卫生服务站|卫生院|医学中心|医疗中心|门诊部|诊所|医院)")
_HOSPITAL_STOP = set("在于至到去往转赴经送由从来我外该本某其行及与入住诊因、，。；：\n ")
_HOSPITAL_GENERIC_WORDS = ("当地", "上级", "基层", "社区", "私人", "个体", "附近", "乡镇", "县级", "市级", "省级", "各级", "其他", "多家", "外地", "本地", "专科", "综合", "大")
_HOSPITAL_GENERIC_CHARS = set("市县区省镇乡村级人民中医西结合第一二三四五六七八九十附属专科儿童妇幼肿瘤精神传染病口腔眼骨部队军总")
_ADDRESS_LABEL = re.compile(r"(?:现住址|家庭住址|户籍地址|户籍地|联系地址|通讯地址|居住地址|住址|地址|家住)\s*：?\s*")
_CLAUSE_STOP = re.compile(r"[，。；\n]")


@dataclass(slots=True)
class Replacement:
    kind: str
    original: str
    replacement: str
    start: int  # offsets in the input text
    end: int


@dataclass(slots=True)
class DeidResult:
    text: str
    replacements: list[Replacement] = field(default_factory=list)


@dataclass(slots=True)
class _Span:
    start: int  # normalized-text offsets
    end: int
    kind: str
    detail: str = ""  # e.g. which date format, or the address levels


def id_check_ok(num: str) -> bool:
    """GB 11643: weighted sum of the 17 digits mod 11 indexes "10X98765432"."""
    if len(num) != 18 or not num[:17].isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(num[:17], _ID_WEIGHTS, strict=True))
    if _ID_CHECK[total % 11] != num[17].upper():
        return False
    try:
        dt.date(int(num[6:10]), int(num[10:12]), int(num[12:14]))
    except ValueError:
        return False
    return num[0] in "12345678"


def _lookalike_before(text: str, start: int) -> bool:
    return bool(_LOOKALIKE_LABEL.search(text, max(0, start - 12), start))


def _detect(text: str) -> list[_Span]:
    spans: list[_Span] = []
    add = spans.append
    for m in _RE_EMAIL.finditer(text):
        add(_Span(m.start(), m.end(), "email"))
    for m in _RE_ID_LABELED.finditer(text):
        add(_Span(m.start(1), m.end(1), "id_card"))
    for m in _RE_ID.finditer(text):
        if id_check_ok(m.group(1)) and not _lookalike_before(text, m.start()):
            add(_Span(m.start(1), m.end(1), "id_card"))
    for m in _RE_MOBILE.finditer(text):
        if not _lookalike_before(text, m.start()):
            add(_Span(m.start(), m.end(), "mobile"))
    for m in _RE_LANDLINE.finditer(text):
        add(_Span(m.start(), m.end(), "landline"))
    for m in _RE_LANDLINE_LABELED.finditer(text):
        add(_Span(m.start(1), m.end(1), "landline"))
    for m in _RE_RECORD.finditer(text):
        add(_Span(m.start(1), m.end(1), "record_no"))
    for m in _RE_DATE_FULL.finditer(text):
        add(_Span(m.start(), m.end(), "date", "full"))
    for m in _RE_DATE_CN.finditer(text):
        add(_Span(m.start(), m.end(), "date", "cn"))
    for m in _RE_DATE_YM.finditer(text):
        add(_Span(m.start(), m.end(), "date", "ym"))
    for m in _RE_DATE_MD.finditer(text):
        add(_Span(m.start(), m.end(), "date", "md"))
    for rx in (_RE_EMPLOYER_LABEL, _RE_EMPLOYER_VERB):
        for m in rx.finditer(text):
            add(_Span(m.start(1), m.end(1), "employer"))
    spans.extend(_hospitals(text))
    spans.extend(_addresses(text))
    for m in _RE_NAME_LABEL.finditer(text):
        g = 1 if m.group(1) else 2
        add(_Span(m.start(g), m.end(g), "name"))
    lex = get_lexicon()
    for m in _RE_NAME_CONTEXT.finditer(text):
        g = next(k for k in (1, 2, 3) if m.group(k))
        cand = m.group(g)
        if any(c in _NOT_NAME_CHARS for c in cand) or lex.lookup(cand) or lex.lookup(cand[1:]):
            continue
        add(_Span(m.start(g), m.end(g), "name"))
    spans.extend(_role_names(text, lex))
    spans.extend(_list_names(text, spans, lex))
    for m in _RE_NAME_MOU.finditer(text):
        add(_Span(m.start(), m.end(), "name", "mou"))
    for s in spans:
        if s.kind == "name" and _RE_NAME_MOU.fullmatch(text, s.start, s.end):
            s.detail = "mou"
    # a name found once is replaced everywhere in the record: 患者张三…张三诉胸痛
    known = {text[s.start : s.end] for s in spans if s.kind == "name" and s.detail != "mou" and s.end - s.start >= 2}
    for name in known:
        for m in re.finditer(re.escape(name), text):
            add(_Span(m.start(), m.end(), "name"))
    # precedence: structured identifiers first, then the order above; no overlaps
    order = {k: i for i, k in enumerate(("email", "id_card", "mobile", "landline", "record_no", "employer", "date", "hospital",
                                         "address", "name"))}
    spans.sort(key=lambda s: (order[s.kind], s.start, s.start - s.end))
    taken: list[_Span] = []
    for s in spans:
        if s.end <= s.start:
            continue
        if any(s.start < t.end and t.start < s.end for t in taken):
            continue
        taken.append(s)
    taken.sort(key=lambda s: s.start)
    return taken


@cache
def _medical_words() -> frozenset[str]:
    from medsim.text.lexicon import thuocl_words

    return frozenset(thuocl_words())


def _common_word(word: str) -> bool:
    """A word jieba's dictionary knows as something other than a name (查房, 尚可, 常规); place names
    and proper nouns are often given names too (黄海, 建华), so they do not count."""
    from medsim.text.segmenters import jieba_word_tags

    if word in _medical_words():
        return True  # jieba's dictionary tags some medical words as names (麻醉, 康复)
    tag = jieba_word_tags().get(word)
    return bool(tag) and not tag.startswith(("nr", "ns", "nz"))


def _function_word(word: str) -> bool:
    """jieba tags ``word`` as a pronoun, preposition, conjunction, particle, locality or time word
    (如何, 根据, 正在): never a given name. Adverbs are not on the list: 立新 is tagged one."""
    from medsim.text.segmenters import jieba_word_tags

    tag = jieba_word_tags().get(word, "")
    return tag[:1] in set("rpcuft") and bool(tag)


def _plausible_name(cand: str, lex) -> bool:
    given = cand[2:] if cand[:2] in _COMPOUND_SURNAMES else cand[1:]
    if not given or any(c in _NOT_GIVEN_CHARS or c in _NOT_NAME_CHARS for c in given):
        return False
    if any(r in cand for r in _ROLE_BEFORE) or _RE_NAME_MOU.fullmatch(cand):
        return False
    if lex.lookup(cand) or lex.lookup(given) or _common_word(cand) or _function_word(given):
        return False
    return not any(cand.startswith(w) or cand[1:].startswith(w) for w in _NAME_NEXT if len(w) >= 2)


def _ends_name(text: str, pos: int) -> bool:
    """Whether a name may end at ``pos``: punctuation, a digit, the end, a word from _NAME_NEXT, a
    verb (抱入, 测, 给予) or a time word (龙海今日来院) by jieba's tags. A one-character verb does not
    count when it makes a word with the character before it (医生和家属: 家属, not 和家 + 属)."""
    if _NAME_NEXT_RE.match(text, pos) or time_word_at(text, pos):
        return True
    n = verb_at(text, pos)
    return n >= 2 or (n == 1 and not _dictionary_word(text[pos - 1 : pos + 1]))


def _dictionary_word(word: str) -> bool:
    from medsim.text.segmenters import jieba_word_tags

    return word in jieba_word_tags()


def _runs_on(text: str, pos: int, n: int) -> bool:
    """The last character of an ``n``-character name at ``pos`` starts a word that reads on from it
    (刘子代诉, 马丽巡视, 龙海今日), so the name is shorter. A two-character name is not cut further."""
    if _NAME_NEXT_LONG.match(text, pos):
        return True
    return n >= 3 and (verb_at(text, pos) >= 2 or time_word_at(text, pos) >= 2)


def _name_after(text: str, start: int, lex, *, verb_only: bool = False) -> int:
    """Length of the name starting at ``start`` (2-4 characters, longest first), 0 if none."""
    for n in (4, 3, 2):  # longest name that something name-ending follows
        cand = text[start : start + n]
        if len(cand) < n or (n == 4 and cand[:2] not in _COMPOUND_SURNAMES):
            continue
        if not all("\u4e00" <= c <= "\u9fa5" for c in cand):
            continue
        if verb_only:
            if not verb_at(text, start + n):
                continue
        elif not _ends_name(text, start + n):
            continue
        if _runs_on(text, start + n - 1, n):
            continue
        if _plausible_name(cand, lex):
            return n
    return 0


# time words that name a day or a part of one (今日, 昨晚, 今晨, 次日, 夜间), after which a record
# often names who did something; 术后, 早期, 正在 are time words too but do not start such a clause
_DAY_TIME_CHARS = set("日晨晚天夜午")


def _after_day_time_word(text: str, pos: int) -> bool:
    from medsim.text.deid_context import time_word_ending_at

    word = time_word_ending_at(text, pos)
    return bool(word) and any(c in _DAY_TIME_CHARS for c in word)


def _role_names(text: str, lex) -> list[_Span]:
    out = []
    for m in _RE_ROLE_BEFORE.finditer(text):
        n = _name_after(text, m.end(), lex)
        if n:
            out.append(_Span(m.end(), m.end() + n, "name"))
    for m in _RE_ROLE_AFTER.finditer(text):
        i = m.start(1)
        if i == 0 or text[i - 1] in _ROLE_AFTER_BOUNDARY or time_word_before(text, i):
            if _plausible_name(m.group(1), lex):
                out.append(_Span(m.start(1), m.end(1), "name"))
    for m in _RE_KIN_AFTER.finditer(text):
        if _plausible_name(m.group(1), lex):
            out.append(_Span(m.start(1), m.end(1), "name"))
    for m in _RE_NAME_LABEL_EXTRA.finditer(text):
        if _plausible_name(m.group(1), lex):
            out.append(_Span(m.start(1), m.end(1), "name"))
    # a name after a day word and before a verb (今晨潘玉兰测体温): a three-character name that no
    # dictionary knows, which jieba's tagger reads as a person's name
    for i in range(2, len(text)):
        if not _after_day_time_word(text, i) or not re.match(_SURNAME_RE, text[i:]):
            continue
        n = _name_after(text, i, lex, verb_only=True)
        cand = text[i : i + n]
        if n >= 3 and not _dictionary_word(cand) and not _dictionary_word(cand[:2]) and jieba_says_name(text, i, i + n):
            out.append(_Span(i, i + n, "name"))
    return out


def _list_names(text: str, spans: list[_Span], lex) -> list[_Span]:
    """Names that follow a found name in a list: 医师：唐国栋、韩雪."""
    out = []
    ends = sorted(s.end for s in spans if s.kind == "name")
    seen = set()
    while ends:
        e = ends.pop()
        if e in seen:
            continue
        seen.add(e)
        m = _RE_LIST_NEXT.match(text, e)
        if m and _plausible_name(m.group(1), lex):
            out.append(_Span(m.start(1), m.end(1), "name"))
            ends.append(m.end(1))
    return out


def _hospitals(text: str) -> list[_Span]:
    out = [_Span(a, b, "hospital", "short") for a, b in hospital_short_spans(text)]
    g = gazetteer()
    for m in _HOSPITAL_SUFFIX.finditer(text):
        # walk back over the name, stopping at prepositions and punctuation
        s = m.start()
        while s > 0 and s > m.start() - 16 and text[s - 1] not in _HOSPITAL_STOP and "\u4e00" <= text[s - 1] <= "\u9fa5":
            s -= 1
        # a place name inside the run anchors the start: 天入北京协和医院 → 北京协和医院
        prefix = text[s : m.start()]
        anchors = [prefix.find(a) for a in g.aliases if a in prefix]
        places = g.find(prefix)
        if places:
            anchors.append(places[0][0])
        if anchors and min(anchors) > 0:
            s += min(anchors)
            prefix = text[s : m.start()]
        for w in _HOSPITAL_GENERIC_WORDS:
            if prefix.startswith(w):
                prefix = prefix[len(w) :]
                s += len(w)
        if not prefix:
            continue
        has_place = bool(g.find(prefix)) or any(prefix.startswith(a) for a in g.aliases if len(a) <= len(prefix))
        specific = [c for c in prefix if c not in _HOSPITAL_GENERIC_CHARS]
        if has_place or len(specific) >= 2:
            out.append(_Span(s, m.end(), "hospital"))
    return out


def _addresses(text: str) -> list[_Span]:
    g = gazetteer()
    out: list[_Span] = []
    found = g.find(text)
    # merge adjacent names into chains: 湖南省长沙市岳麓区
    chains: list[list[tuple[int, int, str]]] = []
    for f in found:
        if chains and chains[-1][-1][1] == f[0]:
            chains[-1].append(f)
        else:
            chains.append([f])
    for chain in chains:
        start, end = chain[0][0], chain[-1][1]
        levels = {lvl for _, _, lvl in chain}
        # a province short name just before (湖南长沙市)
        for alias_len in (3, 2):
            a = text[max(0, start - alias_len) : start]
            if len(a) == alias_len and g.aliases.get(a) == "province":
                start -= alias_len
                levels.add("province")
                break
        street = STREET_RE.match(text, end)
        has_street = bool(street and street.end() > end)
        if has_street:
            end = street.end()
        fine = levels & {"county", "town"} or (levels & {"prefecture"} and len(chain) > 1)
        if fine or has_street:
            out.append(_Span(start, end, "address", ",".join(sorted(levels)) + ("+street" if has_street else "")))
    for m in _ADDRESS_LABEL.finditer(text):
        stop = _CLAUSE_STOP.search(text, m.end())
        end = stop.start() if stop else len(text)
        if end - m.end() >= 2:
            out.append(_Span(m.end(), min(end, m.end() + 40), "address", "label"))
    return out


class _Surrogates:
    """Consistent, seeded replacements for one record."""

    _GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红梅建国志文斌宇浩晨欣怡子涵佳琪"
    _FAKE_SURNAMES = "甲乙丙丁戊己庚辛壬癸"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        days = self.rng.randint(30, 400)
        self.shift = dt.timedelta(days=days if self.rng.random() < 0.5 else -days)
        self.memo: dict[tuple[str, str], str] = {}
        self.counters: dict[str, int] = {}
        self.ref_year: int | None = None

    def _next(self, kind: str) -> int:
        self.counters[kind] = self.counters.get(kind, 0) + 1
        return self.counters[kind]

    def _digits(self, n: int) -> str:
        return "".join(self.rng.choice("0123456789") for _ in range(n))

    def get(self, kind: str, original: str, detail: str) -> str:
        key = (kind, original)
        if key in self.memo:
            return self.memo[key]
        rep = self._make(kind, original, detail)
        self.memo[key] = rep
        return rep

    def _make(self, kind: str, original: str, detail: str) -> str:
        n = self._next(kind)
        if kind == "name":
            surname = self._FAKE_SURNAMES[(n - 1) % len(self._FAKE_SURNAMES)]
            if detail == "mou":
                return surname + "某" * (len(original) - 1 if original.endswith("某某") else 1)
            return surname + "".join(self.rng.choice(self._GIVEN) for _ in range(max(1, len(original) - 1)))
        if kind == "id_card":
            # region code 000000 never exists, so a surrogate can never be a real number
            return "000000" + self._digits(len(original) - 6)
        if kind == "mobile":
            return "100" + self._digits(8)  # 10x is not a mobile prefix
        if kind == "landline":
            return "000-" + self._digits(8)
        if kind == "record_no":
            lead = re.match(r"[A-Za-z\-]*", original).group(0)
            return lead + self._digits(len(original) - len(lead))
        if kind == "email":
            return f"user{n}@example.com"
        if kind == "hospital":
            suffix = _HOSPITAL_SUFFIX.search(original)
            return f"某{'甲乙丙丁戊己庚辛'[(n - 1) % 8]}" + (suffix.group(0) if suffix else "医院")
        if kind == "address":
            return f"某地{n}号"
        if kind == "employer":
            return f"某单位{n}"
        return f"[{kind}]"

    def date(self, span_text: str, detail: str) -> str | None:
        """Shift a date by the record offset, keeping its format; None if not a real date."""
        if detail == "full":
            m = _RE_DATE_FULL.fullmatch(span_text)
            if not m:
                return None
            y = int(m.group(1))
            mo, d = (int(m.group(3)), int(m.group(4))) if m.group(2) else (int(m.group(6)), int(m.group(7)))
            try:
                new = dt.date(y, mo, d) + self.shift
            except ValueError:
                return None
            self.ref_year = self.ref_year or y
            if m.group(2):
                tail = span_text[m.end(4) :]
                return f"{new.year}年{new.month}月{new.day}" + (tail if tail else "")
            sep = m.group(5)
            pad = len(m.group(6)) == 2
            return f"{new.year}{sep}{new.month:02d}{sep}{new.day:02d}" if pad else f"{new.year}{sep}{new.month}{sep}{new.day}" + span_text[m.end(7) :]
        if detail == "cn":
            m = _RE_DATE_CN.fullmatch(span_text)
            try:
                y = int("".join(str(_CN_DIGIT.index(c if c != "零" else "〇")) for c in m.group(1)))
                new = dt.date(y, _cn_small(m.group(2)), _cn_small(m.group(3))) + self.shift
            except (ValueError, AttributeError):
                return None
            year = "".join(_CN_DIGIT[int(c)] for c in str(new.year))
            return f"{year}年{_to_cn_small(new.month)}月{_to_cn_small(new.day)}" + span_text[-1]
        if detail == "ym":
            m = _RE_DATE_YM.fullmatch(span_text)
            try:
                new = dt.date(int(m.group(1)), int(m.group(2)), 15) + self.shift
            except (ValueError, AttributeError):
                return None
            return f"{new.year}年{new.month}月"
        if detail == "md":
            m = _RE_DATE_MD.fullmatch(span_text)
            try:
                # a leap reference year keeps 2月29日 valid
                new = dt.date(self.ref_year or 2000, int(m.group(1)), int(m.group(2))) + self.shift
            except (ValueError, AttributeError):
                try:
                    new = dt.date(2000, int(m.group(1)), int(m.group(2))) + self.shift
                except (ValueError, AttributeError):
                    return None
            return f"{new.month}月{new.day}" + span_text[-1]
        return None


def _cn_small(s: str) -> int:
    """一 … 三十一 → 1 … 31."""
    if "十" in s:
        left, _, right = s.partition("十")
        return (_CN_DIGIT.index(left) if left else 1) * 10 + (_CN_DIGIT.index(right) if right else 0)
    return _CN_DIGIT.index(s)


def _to_cn_small(n: int) -> str:
    if n < 10:
        return _CN_DIGIT[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else _CN_DIGIT[tens]) + "十" + (_CN_DIGIT[ones] if ones else "")


def find_phi(text: str) -> list[Replacement]:
    """PHI spans in ``text`` (original offsets); ``replacement`` is left empty."""
    norm = normalize(text)
    out = []
    for s in _detect(norm.text):
        a, b = norm.to_orig(s.start, s.end)
        out.append(Replacement(s.kind, text[a:b], "", a, b))
    return out


def deidentify(text: str, *, seed: int = 0) -> DeidResult:
    """Replace PHI with consistent surrogates; full dates shift by one seeded offset."""
    norm = normalize(text)
    spans = _detect(norm.text)
    sur = _Surrogates(seed)
    # full dates first so month-day dates can borrow their year
    for s in spans:
        if s.kind == "date" and s.detail == "full":
            sur.ref_year = sur.ref_year or int(norm.text[s.start : s.start + 4])
            break
    reps: list[Replacement] = []
    for s in spans:
        a, b = norm.to_orig(s.start, s.end)
        original = text[a:b]
        if s.kind == "date":
            new = sur.date(norm.text[s.start : s.end], s.detail)
            if new is None:
                continue
        else:
            new = sur.get(s.kind, original, s.detail)
        reps.append(Replacement(s.kind, original, new, a, b))
    parts = []
    prev = 0
    for r in reps:
        parts.append(text[prev : r.start])
        parts.append(r.replacement)
        prev = r.end
    parts.append(text[prev:])
    return DeidResult("".join(parts), reps)


_WARN_LABELS = {
    "name": "姓名",
    "id_card": "身份证号",
    "mobile": "手机号",
    "landline": "固定电话",
    "record_no": "住院号/病案号/门诊号",
    "email": "电子邮箱",
    "address": "地址",
    "employer": "工作单位/学校",
}


def phi_warnings(text: str) -> list[str]:
    """Human-readable warnings for anything in ``text`` that still looks like PHI.

    Already-masked names (张某, 李某某) and our own surrogates are not reported. Hospital
    names and dates are not reported either: de-identified cases keep dates (shifted, so they
    cannot be told from real ones) and often name the treating hospital on purpose.
    """
    norm = normalize(text)
    out = []
    for s in _detect(norm.text):
        if s.kind in ("hospital", "date") or (s.kind == "name" and s.detail == "mou"):
            continue
        a, b = norm.to_orig(s.start, s.end)
        value = text[a:b]
        if (s.kind == "name" and value[:1] in _Surrogates._FAKE_SURNAMES) or (
            s.kind == "id_card" and value.startswith("000000")
        ):
            continue  # our own surrogates
        out.append(f"possible {_WARN_LABELS.get(s.kind, s.kind)} ({s.kind}) at {a}: {value}")
    return out
