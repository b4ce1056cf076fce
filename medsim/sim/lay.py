"""Record text → what a patient would say: first person, everyday words, no jargon or lab values.

A record clause such as ``患者3小时前无明显诱因出现胸骨后压榨样疼痛`` becomes
``我3小时前没什么原因就开始胸口正中像被东西压着一样疼``. Clauses a patient cannot know
(test results, examination findings, a doctor's diagnosis) are dropped, not rephrased.
Persona shaping (literacy, mood, style) is applied to the assembled answer.
"""

from __future__ import annotations

import random
import re
from functools import cache, lru_cache

from medsim.scenario.schema import Persona
from medsim.sim import textlink, vocab

# A clause holding any of these is a test result, an examination finding or a doctor's
# judgement: the patient was not told it in these words, so it is never repeated.
_JARGON = re.compile(
    r"查体|体格检查|辅助检查|检查示|提示|显示|[^自]测得|化验|心电图|(?<![a-z])ct|mri|b超|超声|x线|胸片|彩超|核磁|"
    r"造影|镜检|病理|试验|血常规|尿常规|生化|肌钙蛋白|d-二聚体|诊断|考虑|拟诊|印象|待排|不除外|"
    r"wbc|hb|plt|crp|alt|ast|bnp|st段|q波|killip|nyha|gcs|评分|分级|"
    r"\d+(\.\d+)?\s*(mmol|μmol|umol|g/l|u/l|×10|x10|\*10|mg/dl|pg|ng|iu|次/分|bpm)|"
    r"阳性|阴性|[\(（]\+[\)）]|[\(（]-[\)）]|示|(?<!未)予以?|给予|拟诊|收入|收住",
    re.IGNORECASE,
)
# Self-measurement is something a patient knows (自测体温 38.5℃).
_SELF_MEASURED = re.compile(r"自测|自量|自己测|在家测|自行测")
# care given somewhere else before this visit (外院予…, 当地医院给予…)
_CARE_ELSEWHERE = re.compile(r"^(曾|曾在|在|于)?(外院|当地\S{0,3}|诊所|社区\S{0,3}|卫生院|私人诊所|乡\S{0,2}医院|县\S{0,2}医院|门诊)")

_EXTRA_LAY: dict[str, str] = {
    "疼痛": "疼", "上腹痛": "上腹疼", "下腹痛": "小肚子疼", "右下腹痛": "右下边肚子疼", "右上腹痛": "右上边肚子疼",
    "左下腹痛": "左下边肚子疼", "中上腹痛": "上腹疼", "脐周痛": "肚脐周围疼", "全腹痛": "整个肚子疼",
    "流清涕": "流清鼻涕", "流脓涕": "流黄鼻涕", "轻咳": "有点咳嗽", "低热": "低烧", "高热": "高烧", "及": "和", "上下肢": "胳膊和腿", "新型口服抗凝药": "新型抗凝药", "口服抗凝药": "抗凝药", "均患": "都得了", "糖皮质激素": "激素", "嘱": "医生让", "并": "还", "未戒": "没戒", "未婚": "没结婚", "未孕": "没怀过孕", "未育": "没生过孩子",
    "患者于": "我", "病人于": "我", "于": "", "自行": "自己", "向": "往", "呈": "",
    # record wordings of neurological, pregnancy and spread signs a patient says otherwise (reply check set 3)
    "口角向右歪斜": "嘴往右歪", "口角向左歪斜": "嘴往左歪", "言语含糊": "说话含糊不清", "持筷掉落": "拿不住筷子，筷子掉了",
    "不能站立": "站不起来", "最后正常时间明确为": "最后一次好好的是", "发病前一切正常": "发病前什么毛病没有，都好好的", "进食、饮水即吐": "一吃东西、一喝水就吐", "进食即吐": "一吃东西就吐", "即吐": "就吐", "高脂血症": "高血脂", "血脂异常": "血脂高", "每日饮水": "每天喝水", "饮水约": "喝水大概", "饮水": "喝水", "饮水呛咳": "喝水呛", "言语不清": "说话不清楚", "不能行走": "走不了路", "可向": "有时候往", "可放射至": "有时候窜到", "自觉胎动正常": "觉得孩子动得跟平时一样",
    "胎动正常": "孩子动得跟平时一样", "尿蛋白（±）": "尿里有一点点蛋白", "尿蛋白(±)": "尿里有一点点蛋白", "（拜新同）": "",
    "(拜新同)": "", "嘱休息监测": "医生让多歇着、自己盯着血压",
    # chart wording physicians found in lay speech on reply check set 4, by class: manner words (即, 需,
    # 当即, 可), quality and frequency labels (搏动性, 频率、性质, 中重度), signs (意识丧失, 视物), and
    # the 既往 + 曾 doubling (以前以前)
    "轻微活动即喘": "稍微动一动就喘", "活动即喘": "一动就喘", "即喘": "就喘", "需端坐": "得坐起来才行",
    "需躺在": "得躺在", "端坐": "坐着", "当即": "当时就", "意识丧失": "昏过去", "脑卒中": "中风",
    "可平卧": "能躺平", "快且乱": "又快又乱", "部分有效": "有点用，但不太管用", "搏动性": "一跳一跳地疼",
    "频率、性质": "犯的次数和疼法", "次类似发作": "次这样的情况", "类似发作": "这样犯过", "既往曾有": "以前有过", "既往曾": "以前", "视物": "看东西",
    "发作前无": "犯之前没有", "暗点": "黑影", "日常活动如": "平常干活比如", "中重度": "疼得挺厉害", "额颞部": "额头和太阳穴那块",
    "数十分钟": "几十分钟", "自行缓解": "自己就好了", "饮食未限盐": "吃东西没注意少放盐", "未限盐": "没注意少吃盐",
    "迅速波及全腹": "很快整个肚子都疼起来了", "蔓延至全腹": "整个肚子都疼了", "扩散至全腹": "整个肚子都疼了", "波及全腹": "整个肚子都疼起来了", "波及": "扩到", "迅速": "很快", "口服避孕药": "避孕药", "小时至": "小时到", "分钟至": "分钟到", "天至": "天到", "轻度": "有点", "一侧": "一边", "左右不固定": "有时候左边有时候右边", "多位于": "多半在", "右髋部": "右边胯骨那块", "左髋部": "左边胯骨那块", "髋部": "胯骨那块", "发作间期完全正常": "不犯的时候跟好人一样", "发作间期": "不犯的时候", "着地": "着地",
    # chart wording physicians found in lay speech on reply check set 5, by class: as-usual and amount labels
    # (如常, 中等), devices and routes (已放置, 反流至), the named hepatitis, a chart's compound disease words
    "可短暂缓解": "能好一会儿", "短暂缓解": "好一会儿", "量、色如常": "量和颜色都跟平时一样", "量色如常": "量和颜色都跟平时一样", "如常": "跟平时一样",
    "量中等": "量不多不少", "中等量": "不多不少", "已放置宫内节育器": "上了节育环", "放置宫内节育器": "上节育环",
    "宫内节育器": "节育环", "反流至咽部": "反到嗓子眼", "反流至": "反到", "反流": "往上反", "含血块": "里面有血块",
    "乙型肝炎": "乙肝", "丙型肝炎": "丙肝", "消化道出血": "胃出血", "饭后即": "吃完饭就", "餐后即": "吃完饭就",
    # chart wording physicians found in lay speech on reply check set 6, by class: urinary-stream labels (排尿等待,
    # 射程变短, 尿不尽感, 尿路刺激征), comparison and degree words (较前, 略, 久不), a swelling's course
    # (晨轻暮重, 至大腿), menstrual labels (经间期, 需每…更换), the people who shared a meal, organ-system names
    "排尿后仍有尿不尽感": "尿完了还觉得没尿干净", "尿不尽感": "尿不干净的感觉", "排尿等待": "尿得等半天才出来",
    "射程变短": "尿不远了", "排尿费力": "尿得费劲", "尿路刺激征": "尿频、尿急、尿痛", "尿中泡沫增多": "尿里泡沫多了",
    "泡沫增多": "泡沫多了", "久不消散": "半天不散", "尿量较前略减少": "尿比以前少了点", "较前略": "比以前稍微",
    "较前": "比以前", "略减少": "少了点", "晨轻暮重": "早上轻、晚上重", "逐渐加重至": "慢慢加重，肿到了",
    "加重至": "加重到", "颜面部水肿": "脸也肿了", "颜面部": "脸上", "同餐者": "一起吃饭的人", "经间期出血": "两次月经中间出血",
    "同房后出血": "同房以后出血", "经期延长至": "每次来的天数拖到了", "需每": "得每", "更换夜用卫生巾": "换一片夜用卫生巾",
    "神经系统疾病": "神经方面的病", "尿道外伤": "尿道受过伤", "素食较多": "吃素多", "逐渐出现": "慢慢开始", "逐渐": "慢慢", "纳差": "吃不下饭", "常饮茶": "常喝茶", "饮茶": "喝茶", "饮咖啡": "喝咖啡", "畏寒": "怕冷",
    # chart wording physicians found in lay speech on reply check set 7, by class: the chart's 感/渐感 (felt,
    # gradually felt), the history-taker's 追问, named joints and eyelids, toilet and waking words, drinking
    # words, an effort-tolerance label, irregular dosing; and terms a shorter key garbled (放射性碘 is no 窜,
    # 尿中排石 no 无尿)
    "渐感": "慢慢觉得", "渐扩散至": "慢慢扩到", "渐扩展至": "慢慢扩到", "逐渐扩展至": "慢慢扩到", "扩展至": "扩到",
    "感心跳": "觉得心跳", "快而乱": "又快又乱", "追问": "", "前已有": "前就有", "已有": "就有",
    "第一跖趾关节": "大脚趾根那个关节", "右足": "右脚", "左足": "左脚", "双足": "两只脚", "眼睑浮肿": "眼皮肿",
    "眼睑水肿": "眼皮肿", "眼睑": "眼皮", "浮肿": "肿", "如厕时": "上厕所的时候", "如厕": "上厕所",
    "自行清醒": "自己醒过来了", "数秒": "几秒钟", "局部": "那块", "清醒": "醒过来", "饮啤酒": "喝啤酒", "饮白酒": "喝白酒", "饮红酒": "喝红酒",
    "活动耐量下降": "稍微一动就累", "活动耐力下降": "稍微一动就累", "不规则自服": "自己断断续续吃",
    "不规则口服": "断断续续吃", "不规则服用": "断断续续吃", "不规则": "没个准",
    "易脱落": "容易掉", "皮肤干燥": "皮肤干", "红肿发热": "又红又肿、摸着发烫", "局部发热": "那块摸着发烫",
    "放射性碘": "碘131", "放射性": "放射性", "尿中排石": "尿出过石头", "确认宫内妊娠": "看是不是怀在子宫里",
    "宫内妊娠": "怀在子宫里", "发作持续至今": "一犯就一直没停，到现在还这样", "转移并固定于": "挪到了", "无类似症状": "都没这样", "类似症状": "也这样", "转移至": "挪到了", "呈持续性": "一直疼着", "持续至今": "一直到现在都没停", "至今": "到现在", "其他": "别的", "其它": "别的", "肿痛": "肿、疼", "不适": "不舒服", "肛门坠胀感": "肛门那儿发坠发胀", "坠胀感": "发坠发胀", "停经": "月经没来",
    "月经初潮": "第一次来月经是", "诊断为": "查出", "诊断": "查出", "确诊为": "查出", "确诊": "查出", "末次月经为": "上次来月经是", "末次月经是": "上次来月经是",
}


@cache
def _table() -> dict[str, str]:
    table: dict[str, str] = {}
    # the text layer's lay synonyms, reversed (standard → the first lay form listed), for
    # symptoms and body parts only: a lay name of a disease would be a diagnosis leak
    keep = set(vocab.SYMPTOMS) | {c for c, _ in textlink.lexicon_groups("symptoms.txt")}
    keep |= {c for c, _ in textlink.lexicon_groups("body_parts.txt")}
    for standard, lays in textlink.lexicon_groups("lay_synonyms.txt"):
        if standard in keep and lays and len(standard) >= 2:
            table.setdefault(standard, lays[0])
    for canon, (lay, _forms) in vocab.SYMPTOMS.items():
        table[canon] = lay
    table.update(vocab.CLINICAL_TO_LAY)
    table.update(_EXTRA_LAY)
    table.pop("无", None)
    table.pop("未", None)
    # A disease name that contains a symptom word (心绞痛 holds 绞痛) stays whole: the
    # longest match wins, so mapping it to itself keeps 绞痛→绞着疼 out of it.
    keys = sorted(table, key=len, reverse=True)
    for forms in textlink.lexicon_groups("diseases.txt"):
        for term in (forms[0], *forms[1]):
            if term not in table and any(key in term for key in keys if len(key) < len(term)):
                table[term] = term
    return table


@cache
def _pattern() -> re.Pattern[str]:
    keys = sorted(_table(), key=len, reverse=True)

    def alternative(key: str) -> str:
        # a denial joined to a word (无尿) must not take the head of a longer word after the
        # denial: 无尿路刺激征 is 无 + 尿路刺激征, not 无尿 + 路刺激征
        if key[0] not in "无未没不" or len(key) < 2:
            return re.escape(key)
        longer = [k[len(key) - 1:] for k in keys if len(k) > len(key) - 1 and k.startswith(key[1:]) and k != key[1:]]
        tails = "|".join(re.escape(t) for t in sorted(set(longer), key=len, reverse=True) if t)
        return re.escape(key) + (f"(?!{tails})" if tails else "")

    return re.compile("|".join(alternative(k) for k in keys))


# A test or exposure denied (近期无碘造影剂使用, 未做过B超) is history the patient knows; 未见 is
# how an examiner writes, and a value or a verdict is a result.
_DENIED = re.compile(r"^(近期|近\d+\S{1,2}|此前|以前|从)?(无|未(?!见)|否认|没有|没)")
_RESULT = re.compile(r"\d|阳性|阴性|[示]|提示|显示|异常|正常|升高|降低|增高|减低")
# An old diagnosis the patient was told (5年前诊断“乙肝肝硬化”) is their own history.
_TOLD_DIAGNOSIS = re.compile(r"诊断|确诊|诊为")


def is_jargon(clause: str, *, history: bool = False) -> bool:
    """True for a clause the patient cannot know or would not say (results, findings, diagnoses).

    ``history``: the clause is from the past history, where 诊断 marks a diagnosis the
    patient was given long ago, which they know (whether they may say it is the leak
    scrub's business: it allows known comorbidities only)."""
    hits = [m.group(0) for m in _JARGON.finditer(clause)]
    if not hits or _SELF_MEASURED.search(clause):
        return False
    if _CARE_ELSEWHERE.match(clause) and all(re.fullmatch(r"(给)?予以?", h) for h in hits):
        return False  # 外院予头孢类抗生素静滴3天无效: what another doctor gave before this visit, the patient was there
    if _DENIED.match(clause) and not _RESULT.search(clause):
        return False
    return not (history and all(_TOLD_DIAGNOSIS.fullmatch(h) for h in hits))


# Who tells the story when it is not the patient: the text layer's narrator markers
# (lexicons/narrator_markers.txt: 代述, 代诉, 陪同, 提供病史…) after the teller (母亲, 家属, 其妻).
# The family words are the layer's too; these are the companions it does not list as family.
_COMPANIONS = ("家属", "家人", "妻子", "丈夫", "其妻", "其夫", "老伴", "同事", "朋友", "邻居", "护工", "陪护")
# a marker that itself says someone else told it (代述, 代诉, 陪同, 提供病史), not 发现 or 回忆
_TELLING = re.compile(r"述|诉|陪|病史")


@cache
def _narrator_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    from medsim.text import get_lexicon

    lex = get_lexicon()
    markers = sorted(lex.narrator_markers, key=len, reverse=True)
    telling = [m for m in markers if len(m) >= 2 and _TELLING.search(m)]
    people = sorted({*lex.family_markers, *_COMPANIONS}, key=len, reverse=True)
    alt = "|".join(map(re.escape, markers))
    person = "|".join(map(re.escape, people))
    # （女儿代述）, (家属提供病史), （代诉）: a note wherever the record puts it — not part of the story
    note = re.compile(rf"[（(][^（）()]{{0,10}}?(?:(?:{person})[^（）()]{{0,3}}?(?:{alt})|"
                      rf"(?:{'|'.join(map(re.escape, telling))}))[^（）()]{{0,4}}[）)]")
    # 家属诉, 其妻代诉, 母亲代述 written into the text (由同事陪同来诊 only says who came along)
    told = [m for m in telling if "陪" not in m]
    inline = re.compile(rf"(?:{person})(?:{'|'.join(map(re.escape, told))}|诉|述)")
    return note, inline


def strip_narrator(text: str) -> str:
    return _narrator_patterns()[0].sub("", text)


# The patient cannot tell the story now: unconscious, confused or unable to speak. (一过性
# 意识丧失 has passed: a patient who fainted tells it.)
_SPEECHLESS = re.compile(r"昏迷|叫不醒|呼之不应|唤之不醒|意识不清|神志不清|意识模糊|答非所问|失语|不能说话|不会说话|说不出话|不能言语")
_DENIED_BEFORE = re.compile(r"(无|未|否认|没有|不伴)[^，。；]*$")


def spoken_for(chief_complaint: str, hpi: str) -> bool:
    """Does someone else tell this patient's history: the record says a family member
    told it (a narrator note, 家属诉, 其妻代诉), or the patient cannot speak now?"""
    note, inline = _narrator_patterns()
    text = f"{chief_complaint or ''}。{hpi or ''}"
    if note.search(text) or inline.search(text):
        return True
    return any(not _DENIED_BEFORE.search(text[:m.start()]) for m in _SPEECHLESS.finditer(text))


def subject_for(case) -> str:
    """Who the record's 患者 becomes in the reply: 我 when the patient speaks; 孩子 when a
    parent speaks for a young child; 他 / 她 when a family member speaks for an adult who
    cannot (or whose history the record says the family told)."""
    demo = case.demographics
    if demo is not None and demo.age_years < 12:
        return "孩子"
    if spoken_for(case.chief_complaint or "", case.hpi or ""):
        return "她" if demo is not None and demo.sex == "女" else "他"
    return "我"


_KIN_WORDS = "父亲|母亲|父母|哥哥|姐姐|弟弟|妹妹|儿子|女儿|爷爷|奶奶|外公|外婆|丈夫|妻子|老伴"
_KIN = re.compile(rf"(?<![他她])({_KIN_WORDS})")


@lru_cache(maxsize=8192)
def _run_on(text: str, m: re.Match[str]) -> bool:
    """The match is a symptom written straight after another (尿频尿痛): said apart they need a 、."""
    before = _pattern().search(text[max(0, m.start() - 6):m.start()])
    if not before:
        return False
    prev = text[max(0, m.start() - 6):m.start()]
    ends = [x for x in _pattern().finditer(prev) if x.end() == len(prev)]
    symptoms = _symptom_words()
    return bool(ends) and m.group(0) in symptoms and ends[-1].group(0) in symptoms


@cache
def _symptom_words() -> frozenset[str]:
    words = set(vocab.SYMPTOMS)
    for canon, aliases in textlink.lexicon_groups("symptoms.txt"):
        words |= {canon, *aliases}
    return frozenset(w for w in words if len(w) >= 2)


def clause_to_lay(clause: str, *, literacy: str = "medium", subject: str = "我") -> str:
    """One record clause in the patient's words (no jargon check: see ``is_jargon``).

    ``subject`` is who the record's 患者 becomes: 我; 孩子 when a parent speaks for a child;
    他 / 她 when a family member speaks for an adult (``subject_for``).
    """
    table = _table()
    text = clause.strip()
    if text.startswith("于"):
        text = text[1:]
    # （儿子代述）父亲2年来…: right after the note, the teller's 父亲 is the patient
    text = re.sub(rf"(?:{_narrator_patterns()[0].pattern})\s*(?:{_KIN_WORDS})", "患者", text)
    text = strip_narrator(text).replace("“", "").replace("”", "")  # the record's quotes are not spoken
    if subject != "我":
        text = re.sub(r"^(患者|患儿|病人)于?", subject, text)
        text = re.sub(r"(患者|患儿|病人)", subject, text)
        text = text.replace("其父", "父亲").replace("其母", "母亲")
        if subject == "孩子":
            # the parent speaks: the record's 父亲/母亲 are the child's
            text = text.replace("父亲", "孩子爸爸").replace("母亲", "孩子妈妈")
        else:
            # a family member speaks: the record's relatives are the patient's, the family is us
            text = _KIN.sub(lambda m: subject + m.group(1), text)
            text = re.sub(r"家人|家属", "我们", text)
    text = _before_table(text)
    # 否认前列腺癌家族史: said as 家里没人得过前列腺癌, not word by word
    text = re.sub(r"^(否认|无)(家族|遗传)+性?(遗传)?(病)?史$", "家里没人得过遗传病", text)
    text = re.sub(r"^(否认|无)(.+?)(家族|遗传)+(病)?史$", r"家里没人得过\2", text)
    # one pass, longest match first, so a replacement is never replaced again; two symptoms written
    # together (尿频尿痛) are said as two (老想上厕所、小便的时候疼)
    out = _pattern().sub(lambda m: ("、" if _run_on(text, m) else "") + table[m.group(0)], text)
    # 无/未 only as negation at a clause or list start (无力, 未来 stay)
    out = re.sub(r"(^|[、，我也均都且并]|最近|近期|孩子|平时|\d+(?:个)?(?:年|月|周|天))无", r"\1没有", out)
    out = re.sub(r"(量|重|欲)无(明显)?(增加|减少|变化|改变)", r"\1没\3", out)  # 食量无增加 → 食量没增加
    out = re.sub(r"(?<=[时后])无(?!力|法|效|明显诱因)", "没有", out)  # 活动时无胸闷 → 活动时没有胸闷
    out = re.sub(r"(^|[、，我也均都且并]|最近|近期|孩子|平时|周|天)未", r"\1没", out)
    out = re.sub(r"(?<![最])近(\d+)(周|天|个月|月|年)", r"最近\1\2", out)
    out = re.sub(r"从未", "从来没", out)
    out = re.sub(r"未(?!来)", "没", out)  # 6小时未排尿, 未煮熟, 近1月未吃: the record's 未 is 没
    out = re.sub(r"(?<!吐了)吐(\d+)次", r"吐了\1次", out)
    out = re.sub(r"(\d+)人有类似", r"有\1个人也这样", out)  # 同餐者1人有类似腹泻: how many others had it
    # G2P1 and its Chinese form 孕3产2 are counts a woman says in words
    out = re.sub(r"(?:[GgＧ]|孕)(\d+)\s*(?:[Pp]|产)(\d+)", lambda m: f"怀过{m.group(1)}次孕，" + (
        f"生过{m.group(2)}次" if m.group(2) != "0" else "还没生过"), out)
    if literacy == "low":
        for word, simple in vocab.LOW_LITERACY.items():
            out = out.replace(word, simple)
    out = re.sub(r"(?<=[炎症瘤石伤癌])病史", "", out)  # 尿道炎病史 is 尿道炎, not 尿道炎病
    out = re.sub(r"病史", "病", out)  # 冠心病史 → 冠心病; 吸烟史 → 抽烟
    out = out.replace("史", "")
    out = re.sub(r"(\d+)子", r"\1个儿子", out)
    out = re.sub(r"(\d+)女", r"\1个女儿", out)
    out = re.sub(r"我我", "我", out)
    out = tidy(out)
    if subject != "我":
        out = re.sub(r"([他她])我(?=[父母哥姐弟妹儿女爷奶外])", r"\1", out)  # 他父亲 was not 他我父亲
    return out.strip("，、 ")


_KIN_IS = re.compile(r"(父亲|母亲|父母|哥哥|姐姐|弟弟|妹妹|儿子|女儿|爷爷|奶奶|外公|外婆|舅舅|姑姑|姨|叔叔|伯伯|丈夫|妻子|爱人)为")
# a parenthesis the patient would not say: a regimen, a code, a value, a result
_ASIDE = re.compile(r"[（(][^（）]*?(：|:|方案|\d+\s*(mg|g|ml|ug|μg|u)|[A-Za-z]{2,}|×|%|阳性|阴性)[^（）]*?[）]|"
                    r"[（(][^（）()]*?(：|:|方案|\d+\s*(mg|g|ml|ug|μg|u)|[A-Za-z]{2,}|×|%|阳性|阴性)[^（）()]*?[）)]",
                    re.IGNORECASE)


_SUP = dict(zip("⁰¹²³⁴⁵⁶", "0123456", strict=True))


def nights_said(most: int) -> str | None:
    """夜尿0～1次/夜 is a night that is hardly broken, not more night urination: how a patient says
    it, or None when the count is more than one."""
    if most > 1:
        return None
    return "晚上不起夜" if most == 0 else f"晚上不怎么起夜，最多起{most}次"


def _before_table(text: str) -> str:
    """Record constructions said differently, before the word table (60岁时死于心梗 → 60岁的时候因为心梗去世了)."""
    text = _ASIDE.sub("", text)
    text = re.sub(r"(?<=[\dA-Za-zμ片粒])\s+口服\s+", " ", text)  # 30mg 口服 每日一次: the route is not said mid-dose
    # a trade name after the drug's own (硝苯地平控释片（拜新同）) is said once; 尿蛋白（±） is a trace
    text = re.sub(r"(片|胶囊|缓释|控释|注射液)[（(][^（）()\d]{2,6}[）)]", r"\1", text)
    text = re.sub(r"尿蛋白\s*[（(]\s*[±+]\s*[）)]", "尿里有一点点蛋白", text)
    text = re.sub(r"(\d+)\s*(?:⁺|\+)\s*([0-6⁰¹²³⁴⁵⁶])\s*周", lambda m: f"{m.group(1)}周零{_SUP.get(m.group(2), m.group(2))}天", text)
    text = re.sub(r"[（(]([^（）()]+)[）)]", r"，\1", text)  # （近1周未服） → ，近1周未服
    # a note the clause split cut in two (（家属在场，发病时间明确）): neither half is said
    text = re.sub(r"[（(][^）)]*$", "", text)
    text = re.sub(r"^[^（(]*[）)]", "", text)
    text = re.sub(r"PCI术后|经皮冠状动脉介入治疗后|支架植入术后", "放了支架以后", text, flags=re.IGNORECASE)
    text = re.sub(r"PCI|经皮冠状动脉介入治疗|冠脉支架植入术?|支架植入术?", "放支架", text, flags=re.IGNORECASE)
    text = re.sub(r"(?<![进运执履发])行(?=\S{0,10}?(治疗|手术|术|检查|化疗|放疗|透析|支架|介入|切除|预防|抗凝))", "做了", text)
    text = re.sub(r"(\d+岁)时?死于(.+)$", r"\1的时候因为\2去世了", text)
    text = re.sub(r"死于(.+)$", r"因为\1去世了", text)
    text = re.sub(r"因(.+?)(去世|病故|过世)$", r"因为\1去世了", text)
    text = _KIN_IS.sub(r"\1是", text)
    # 否认手术史 / 否认外伤史 / 否认输血史: what the patient has not had done, said plainly
    text = re.sub(r"^(否认|无)([^、，及和]{0,6}?)手术(?:及|、|和)?(外伤)?史$",
                  lambda m: f"没做过{m.group(2)}手术" + ("，也没受过伤" if m.group(3) else ""), text)
    text = re.sub(r"^(否认|无)(.{0,4}?)外伤史$", r"没受过\2外伤", text)
    text = re.sub(r"^(否认|无)输血史$", "没输过血", text)
    text = re.sub(r"第(\d+)周期", r"第\1次", text)
    text = re.sub(r"(盐\S{0,2}\d+)\s*g(?![a-zA-Z/])", r"\1克", text)  # 每日食盐约10g: the salt one eats, in 克
    # 向后背两肩胛间区并向腰部转移: a pain that moved on is said as where it went (往后背…，又往腰部窜)
    text = re.sub(r"向(\S{1,14}?)转移", lambda m: "往" + m.group(1).replace("并向", "，又往") + "窜", text)
    # 外院予头孢类抗生素静滴3天: 在别的医院输了3天头孢 (an infusion is 输液 to a patient; 抗生素 class words unsaid)
    text = re.sub(r"^(外院|当地医院|诊所)(?:给?予以?)?(.{1,12}?)(?:类抗生素|抗生素)?(?:静滴|静脉滴注|输液)(\d+天)(无效)?",
                  lambda m: f"在{m.group(1)}输了{m.group(3)}{m.group(2)}" + ("，没管用" if m.group(4) else ""), text)
    text = re.sub(r"^(外院|当地医院|诊所)给?予以?(?=\S)", r"在\1用了", text)  # 外院予布洛芬退热
    text = re.sub(r"夜尿(\d+)\s*[～~\-–]\s*(\d+)次/?夜?",
                  lambda m: nights_said(int(m.group(2))) or f"晚上起夜{m.group(1)}到{m.group(2)}次", text)
    # amounts and ranges the way people say them (量多于月经量, 7～8口/天, 血压波动于145–150/95mmHg)
    text = re.sub(r"量?多于(\S{1,4}?)量", r"量比\1量还多", text)
    text = re.sub(r"量?少于(\S{1,4}?)量", r"量比\1量少", text)
    text = re.sub(r"(\d+)\s*[～~\-–—]\s*(\d+)\s*(口|次|片|支|根)\s*[/／]\s*(天|日)", r"一天\1到\2\3", text)
    text = re.sub(r"(\d+)\s*(口|次|片|支|根)\s*[/／]\s*(天|日)", r"一天\1\2", text)
    text = re.sub(r"波动于(.+?)(mmhg)?$", r"一般在\1左右", text, flags=re.IGNORECASE)
    # a range said in words (每次3–4瓶, 周期28–30天), a blood pressure's range before its slash too
    text = re.sub(r"(\d+)\s*[–—～~]\s*(\d+)(?=\s*(/|次|瓶|杯|两|斤|天|周|个|年|岁|支|根|片|小时|分钟|公斤))", r"\1到\2", text)
    # 停经7周 is a late period, not a pregnancy she knows of: a woman says 怀孕 once it is confirmed, which by
    # 12 weeks (the first antenatal visit) it is
    text = re.sub(r"停经(\d+)(?=周)", lambda m: f"{'怀孕' if int(m.group(1)) >= 12 else '已经'}{m.group(1)}", text)
    text = re.sub(r"^(.*已经\d+)周(.*)$", r"\1周没来月经\2", text) if re.search(r"已经\d+周", text) else text
    text = re.sub(r"(月经)?周期(?:为|约)?(\d+(?:到\d+)?)天", r"每\2天来一次", text)  # 周期28–30天: how often it comes
    text = re.sub(r"(^|，)共(?=\d)", r"\1一共", text)  # 共3次 → 一共3次
    text = re.sub(r"[（(]\s*\d+\s*包年\s*[）)]|，?\d+\s*包年", "", text)  # a pack-year figure is the doctor's sum
    text = re.sub(r"吸烟指数\s*\d+\s*年支", "抽了很多年了", text)
    text = re.sub(r"^(无|否认)(.+?)长期接触史$", r"没长期接触过\2", text)
    text = re.sub(r"^(有)?(.+?)长期接触史$", r"长期接触过\2", text)
    text = re.sub(r"解(\S{1,2}?)色?成形便(\d+)次", r"解了\2次大便，\1色的，成形", text)
    text = re.sub(r"^为(?=\S)", "是", text)  # 为糊状或稀水样便 / 为全程血尿: the clause's subject is the one before
    text = re.sub(r"(\d+)(个)?月余", r"\1个多月", text)
    # 乙型肝炎病史20年: how long one has had it, said as such; a bleed or stool told in words, not chart form
    text = re.sub(r"^(\S{2,8}?)病史(\d+(?:个)?(?:年|月))(余|多)?$", lambda m: f"得{m.group(1)}{m.group(2)}" + (
        "多了" if m.group(3) else "了"), text)
    text = re.sub(r"持续(\S{1,8}?)才", r"得\1才", text)  # 持续1个多小时才能缓解 → 得1个多小时才能
    text = re.sub(r"呕(鲜红|暗红|咖啡)色?(?:样)?血(\d+)次", r"吐了\2次\1的血", text)
    text = re.sub(r"起?解柏油样(?:黑)?便(\d+)次", r"开始拉黑大便，跟柏油似的，拉了\1次", text)
    if re.search(r"血|便|吐|呕|痰", text) or re.match(r"(总)?量约?\d", text):  # what the body put out, not what one drinks (每日饮水约3000mL)
        text = re.sub(r"(总)?(量)?约?(\d+(?:\.\d+)?)\s*(g|克|ml|mL|毫升)(?![A-Za-z/])", _amount_said, text)
    text = re.sub(r"^(.+?)\s+(按需|必要时|需要时|prn|PRN)$", r"需要的时候就吃点\1", text)
    text = re.sub(r"有“?([^“”]+?)”?手术史", r"做过\1手术", text)
    text = re.sub(r"^(.+?)(改良)?(切除|根治|修补|置换|成形|摘除)?术后(\d+(个)?(天|周|月|年))$", r"\4前做了\1\3手术", text)
    text = re.sub(r"因无(\S+?)未(处理|治疗|用药)", r"因为没\1，就没\2", text)
    text = re.sub(r"经期延长至(\S+天)", r"月经一来就是\1", text)
    text = re.sub(r"(\d+)名", r"\1个", text).replace("所在幼儿园", "幼儿园")
    # (不舒服, 衣服, 说服, 克服, 佩服: no medicine taken)
    text = re.sub(r"(?<![口含自未没不舒衣说克佩信制])服(?!用|药|从|务|装)", "吃了", text)  # 昨晚服布洛芬 → 昨晚吃了布洛芬
    if "发现" in text:
        text = text.replace("出现", "有")  # 今晨发现手心出现疱疹 → 发现手心有疱疹
    return text


def _amount_said(m: re.Match[str]) -> str:
    """量约300g of stool, 总量约600mL of blood: nobody weighs or measures these at home; said the way
    people guess them (a bowl holds about 300 mL)."""
    n = float(m.group(3))
    prefix = "加起来" if m.group(1) else ("量" if m.group(2) else "")
    if n >= 500:
        return f"{prefix}得有一大碗"
    if n >= 200:
        return f"{prefix}差不多一碗" if m.group(1) else f"{prefix}挺多的"
    if n >= 50:
        return f"{prefix}有小半碗"
    return f"{prefix}就一点点"


# slips the word-by-word table can leave behind
_TIDY = ((r"全身浑身|浑身全身", "浑身"), (r"起起", "起"), (r"还有还有", "还有"), (r"了了", "了"), (r"开始开始", "开始"),
         (r"还有(出|开始|觉得|有点|一直|偶尔|一阵|老是|时不时)", r"还\1"), (r"(手脚|胳膊|腿)浑身没劲", r"\1没劲"), (r"[，,]{2,}", "，"), (r"[（(]\s*[）)]", ""),
         (r"^[，、]+|[，、]+$", ""), (r"、，|，、", "，"), (r"有没有", "没有"),
         (r"没有瘦了", "没瘦"), (r"有有点", "有点"), (r"没有尿出过", "没尿出过"), (r"没有出了一身(大)?汗", "没出什么汗"), (r"是是", "是"))


def tidy(text: str) -> str:
    for pattern, repl in _TIDY:
        text = re.sub(pattern, repl, text)
    return text


def record_to_lay(text: str, *, literacy: str = "medium", subject: str = "我",
                  history: bool = False) -> tuple[str, list[str]]:
    """A record section in lay words, and the record clauses it drew on (jargon dropped)."""
    kept: list[str] = []
    said: list[str] = []
    for clause in textlink.clauses(text):
        if is_jargon(clause, history=history):
            continue
        lay = clause_to_lay(clause, literacy=literacy, subject=subject)
        if lay:
            kept.append(clause)
            said.append(lay)
    return "，".join(said), kept


# read whole: 1个半小时, 两个半月, 一年半 (not 半小时 / 半月)
_DURATION = re.compile(r"(?<!第)(\d+|[一二两三四五六七八九十半数几]+)(余|多)?(?:个半(?=小时|月)|个(?=月))?(分钟|小时|天|日|周|月|年半|年)(余|多)?$")


def complaint_to_lay(chief_complaint: str, *, literacy: str = "medium", subject: str = "我") -> str:
    """主诉 (胸痛3小时) → 胸口疼3小时了: each part that ends in a duration gets 了; a check-up finding
    (体检发现血压高2个月) → 2个月前体检查出来血压高."""
    m = re.match(rf"^(单位)?(体检|查体)?发现(.+?){_DURATION.pattern}", (chief_complaint or "").strip())
    if m:
        found = clause_to_lay(m.group(3), literacy=literacy, subject=subject).strip("，、 ")
        when = m.group(0)[len(m.group(0)) - len(_DURATION.search(m.group(0)).group(0)):].replace("日", "天").replace("余", "多")
        how = "体检查出来" if m.group(2) else "发现"
        return f"{when}前{how}{found}"
    parts = []
    for clause in textlink.clauses(chief_complaint):
        # 加重伴尿中泡沫增多1周: the last span is when it got worse and the new symptom came
        worse = re.match(rf"^(加重|加剧)(伴|并|伴有)?(.*?){_DURATION.pattern}", clause)
        if worse:
            span = _DURATION.search(clause).group(0).replace("日", "天").replace("余", "多")
            new = clause_to_lay(worse.group(3), literacy=literacy, subject=subject).strip("，、 ") if worse.group(3) else ""
            parts.append(f"最近{span}更厉害了" + (f"，还{new}" if new else ""))
            continue
        lay = clause_to_lay(clause, literacy=literacy, subject=subject)
        if _DURATION.search(clause):
            lay = lay.replace("日", "天") + "了"
        parts.append(lay)
    return "，".join(p for p in parts if p)


def duration_of(chief_complaint: str) -> str | None:
    """The duration a 主诉 ends with (胸痛3小时 → 3小时), if any: of the part that names a finding
    when there are several (化疗后第8天，发烧半天 → 半天)."""
    # how far a pregnancy is (怀孕11周, 停经34周) is not how long the complaint has lasted
    parts = [c for c in textlink.clauses(chief_complaint or "") if not _GESTATION.search(c)]
    found = [c for c in parts if textlink.findings(c)]
    for clause in found + parts:
        m = _DURATION.search(clause) or (_DURATION_INSIDE.search(clause) if clause in found else None)
        if m:
            return m.group(0).replace("日", "天").replace("余", "多")
    return None


_GESTATION = re.compile(r"孕|停经|妊娠")
# a duration inside a complaint clause (吐了3天吃不下东西): the number and unit, not a date or a dose
_DURATION_INSIDE = re.compile(r"(?<![第\d])(\d+|[一二两三四五六七八九十半数几]+)(余|多)?(?:个半(?=小时|月)|个(?=月))?"
                              r"(分钟|小时|天|日|周|月|年半|年)(余|多)?(?![\d前后])")


# ------------------------------------------------------------------- persona shaping

_ANXIOUS = ("医生，我这是不是很严重啊？", "医生，这要不要紧啊？", "我心里特别慌，不会有什么大事吧？")
_IRRITABLE = ("您快给我看看吧。", "能不能快点啊？", "问这么多干什么，赶紧给我治吧。")
# every sentence a persona may add after the answer (the reply check counts them)
PERSONA_TAILS = (*_ANXIOUS, *_IRRITABLE, "您慢慢问，我都跟您说。")
_VAGUE = ("记不太清了，好像是", "年纪大了记性不好，大概是", "哎，我想想……好像是")
_HISTORY_TOPICS = {"onset", "duration", "course", "past_history", "medications", "treatment", "family_history"}


def shape(text: str, persona: Persona, rng: random.Random, *, topics: list[str], opening: bool = False,
          content: bool = True, tail_ok: bool = True) -> str:
    """Give an assembled answer the persona's voice. ``content`` is False for 不清楚-type replies.

    A persona tail (医生，我这是不是很严重啊？ / 能不能快点啊？) only ever follows an answer, never
    replaces one, and only when ``tail_ok``: the simulator keeps tails to about one reply in ten.
    """
    out = text.strip()
    if not out:
        return out
    if persona.style == "terse" and not opening:
        # Terse: short answers, not missing ones — each sentence keeps its first two clauses.
        sentences = [x for x in re.split(r"(?<=[。！？])", out) if x.strip()]
        out = "".join("，".join(re.split(r"[，；]", x.rstrip("。！？"))[:2]) + "。" for x in sentences)
    elif (persona.style == "vague_elderly" and content and not opening and set(topics) & _HISTORY_TOPICS
          and rng.random() < 0.3):
        out = rng.choice(_VAGUE) + out
    if not (content or opening) or not tail_ok:
        return out
    if persona.mood == "anxious" and (opening or rng.random() < 0.5):
        out = out.rstrip("。") + "。" + rng.choice(_ANXIOUS)
    elif persona.mood == "irritable" and (opening or rng.random() < 0.5):
        out = out.rstrip("。") + "。" + rng.choice(_IRRITABLE)
    elif persona.style == "talkative" and not opening and rng.random() < 0.5:
        out = out.rstrip("。") + "。您慢慢问，我都跟您说。"
    return out


def has_tail(text: str) -> bool:
    return any(text.endswith(t) for t in PERSONA_TAILS)
