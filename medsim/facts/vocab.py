"""Closed word sets the claim patterns hang on.

Not a lexicon (``lexicons/`` is, read through ``medsim.text``: findings, drugs and brand names,
synonyms, and analytes by every name, ``medsim.text.analytes``): words that introduce a value,
body-part heads a side attaches to, drug-name endings, and the cue words that mark advice,
hypotheses and opinions.
"""

from __future__ import annotations

import re

# Words that introduce a value but are not part of the analyte's name.
LEAD_WORDS = (
    "实验室检查", "化验结果", "化验示", "化验", "检验", "检查示", "检查", "复查", "提示", "示", "查体", "入院查体",
    "测得", "测", "查", "血常规", "血生化", "生化", "肝功能", "肾功能", "电解质", "常规", "结果", "患者", "病人",
    "入院时", "入院", "为", "约", "最高", "最低", "波动于", "及", "和", "、",
)

# Heads a side (左/右/双) attaches to, longest first when matching.
BODY_PARTS = (
    "中上腹", "下腹", "上腹", "腹股沟", "腹部", "腹", "侧脑室", "脑室", "下肢", "上肢", "肢体", "肾上腺", "肾区", "肾",
    "输尿管", "肺", "胸腔", "下胸", "上胸", "前胸", "胸", "膈", "乳房", "乳腺", "乳", "甲状腺", "颈", "肩", "肘", "腕", "手", "指", "髋", "膝",
    "踝", "足", "小腿", "大腿", "腿", "臂", "额", "顶", "颞", "枕", "眼", "耳", "瞳孔", "阴囊", "睾丸", "附睾", "精索",
    "卵巢", "附件", "髂窝", "腰", "背", "肋", "肝", "颌", "面", "鼻", "心", "房", "室", "半球", "基底节", "大脑", "小脑",
    "腋窝", "腋下", "季肋", "肋缘", "外耳道", "耳道", "鼻腔", "眼睑", "腮腺", "颌下", "锁骨上", "锁骨下", "臀", "趾",
    "拇指", "示指", "食指", "中指", "环指", "小指", "前臂", "上臂", "肩胛", "胸壁", "乳头", "输卵管", "肾盂",
    "前列腺", "膀胱", "子宫", "甲状旁腺", "腮", "扁桃体", "声带",
    # small joints, named with an ordinal after the side (右第一跖趾关节, 左手第二掌指关节)
    "跖趾关节", "掌指关节", "近端指间关节", "远端指间关节", "指间关节", "趾间关节",
    "冠状动脉", "颈内动脉", "椎动脉", "股骨", "胫骨", "腓骨", "尺骨", "桡骨", "肱骨", "锁骨", "声带", "扁桃体",
    # vessels, and the parts an examiner gives a direction to (伸舌右偏, 口角左歪, 气管右移)
    "腘静脉", "股静脉", "髂静脉", "下肢静脉", "颈静脉", "锁骨下静脉", "肾静脉", "颈总动脉", "锁骨下动脉", "大脑中动脉",
    "大脑前动脉", "大脑后动脉", "肾动脉", "股动脉", "髂动脉", "桡动脉", "足背动脉", "腘动脉", "肺动脉", "眼底", "视网膜",
    "伸舌", "舌", "口角", "偏身", "半身", "气管", "鼻唇沟", "额纹", "眼裂", "侧脑室", "丘脑", "额叶", "顶叶", "颞叶", "枕叶", "放射冠",
    "附件区", "髂窝", "骶髂关节", "髋关节", "膝关节", "肩关节", "踝关节", "肘关节", "腕关节", "胸腔", "肾盂", "肾上腺区",
)

# Drug-name endings common in Chinese generic names; a route cue catches the rest.
DRUG_ENDINGS = (
    "沙坦", "地平", "洛尔", "他汀", "西林", "霉素", "沙星", "拉唑", "替丁", "双胍", "格列", "胰岛素", "肝素", "华法林",
    "阿司匹林", "氯吡格雷", "泼尼松", "米松", "泼尼松龙", "甲状腺素", "普利", "噻嗪", "塞米", "螺内酯", "地辛", "头孢",
    "唑", "韦", "坦", "酮", "芬", "定", "平", "林", "素", "尼", "片", "胶囊", "注射液", "颗粒",
)
ROUTE_CUES = ("口服", "服用", "静滴", "静脉滴注", "静推", "静注", "肌注", "肌内注射", "皮下注射", "吸入", "外用", "舌下含服")
# A claim after one of these is advice or a plan, not a statement about the record.
ADVICE_CUES = ("建议", "推荐", "可予", "应予", "应当", "应该", "需要", "需行", "需进一步", "拟行", "拟予", "拟用", "拟给予", "拟加用", "准备", "下一步", "计划", "可考虑",
               "必要时", "治疗原则", "首选", "可选用", "可选", "方案", "可以", "可用", "宜", "可按", "可服", "请",
               "可外用", "可口服", "可涂", "可局部", "可加用", "可试用", "可短期", "可临时")
# A disease named after one of these is the writer's diagnosis (an opinion), not a recorded fact.
DIAGNOSIS_CUES = ("诊断", "考虑", "鉴别", "印象", "拟诊", "疑诊")
# A disease after one of these (in its sentence) is a diagnosis the writer *states* for this patient
# (诊断：X, 初步诊断为X, 考虑X, 拟诊X): checked against the record's diagnosis list. Not 诊断依据 /
# 诊断标准, which introduce the reasoning, not the diagnosis.
DIAGNOSIS_STATEMENT = re.compile(r"诊断(?!依据|标准|要点|思路|方法|价值|意义|试验|困难|不明|明确后)|考虑|拟诊|疑诊|印象")
# ... or one followed by these words in its clause (X可能性大, X可能大).
DIAGNOSIS_LIKELY = re.compile(r"^[\u4e00-\u9fa5]{0,4}?(?:可能性大|可能性较大|可能性很大|可能大)")
# A disease in a clause with one of these is a differential, i.e. reasoning: never checked (需与X鉴别,
# 排除X, X待排, 不除外X, 诊断：X？).
DIFFERENTIAL_CUES = ("鉴别", "除外", "排除", "待排", "排查", "不考虑", "？", "?")

# A claim in a sentence with one of these is general knowledge or a hypothesis, not a statement
# about this patient (如为机械性肠梗阻，则伴恶心、呕吐 / 50岁以上好发 / 有无贫血).
GENERIC_CUES = (
    "如为", "如果", "如有", "若为", "若有", "一旦", "可表现", "可出现", "可有", "可伴", "可见于", "可引起", "多表现",
    "多见", "常见", "常有", "常伴", "常表现", "常为", "通常", "往往", "一般", "好发", "多数", "大多", "部分病人",
    "部分患者", "此类患者", "这类患者", "该类患者", "此类病人", "这类病人", "少数", "较少", "容易", "易出现", "易发生", "会出现", "不会出现", "有无", "是否", "应注意", "需与",
    "应与", "鉴别", "本病", "该病", "此病", "典型", "多发生", "多发于", "均可", "多为", "多呈", "多由", "多因", "常可",
    "严重时", "晚期", "可能出现", "可发生", "例如", "如：", "：如", "，如", "包括", "如出现", "若出现", "一旦出现",
    "如再", "如症状", "如发生", "如持续", "如仍", "及时就诊", "及时就医", "立即就医", "立即急诊", "立即就诊", "及时复诊",
    # the danger signs of an instruction: 出现口角歪斜、言语不清，立即拨打120 / 要是伤口红肿，赶紧回来看
    "马上就诊", "马上就医", "立即拨打", "拨打120", "尽快就诊", "立刻就诊", "马上到医院", "马上来医院", "赶紧回来",
    "回来看", "来医院看", "要来医院", "及时来院", "赶紧就医", "赶紧去医院",
    "随诊", "复诊", "以防", "以免", "警惕", "目标", "线索", "可能", "诱发", "不要", "切勿", "勿", "以上", "以下", "者", "时",
)
# A finding right after one of these is an object of an action, not a finding (切除肿瘤, 排除结核).
ACTION_VERBS = ("切除", "清除", "摘除", "治疗", "控制", "预防", "排除", "除外", "防止", "避免", "纠正", "缓解", "减轻", "处理",
                "评估", "筛查", "明确", "了解", "检查有无", "警惕", "停用", "停掉", "停服", "减量", "换用", "改用", "防")
# Headings whose section is about other diseases (a differential) or about what to do (a plan).
GENERAL_SECTIONS = ("鉴别诊断", "鉴别", "需与", "应与", "病因", "发病机制", "病理生理", "临床表现")
ADVICE_SECTIONS = ("治疗原则", "治疗方案", "治疗措施", "处理原则", "治疗计划", "治疗建议", "进一步检查", "预防", "随访",
                   "术后处理", "手术方式", "手术方案", "处理：", "治疗：", "用药：", "方案：", "医嘱：", "出院医嘱", "建议：",
                   "处置：", "计划：", "宣教", "生活方式",
                   # the headings of a discharge instruction (1. 用药（不要自行停药）：, 出院带药): what to do
                   "用药（", "用药(", "出院带药", "带药：", "出院后用药", "用药指导", "用药建议", "饮食：", "活动：",
                   "复诊：", "复查：", "注意事项", "观察：", "警示", "危险信号", "急救：", "紧急情况", "何时就诊",
                   "立即就诊的情况", "需要立即就诊",
                   # a hospital course the writer composes (a discharge summary's): the record does not hold it
                   "诊治经过", "诊疗经过", "治疗经过", "住院经过", "处理经过")
# Verbs that put what follows in their clause out of the patient's present (已排除ACEI相关咳嗽).
EXCLUDING_VERBS = ("排除", "除外", "警惕", "预防", "避免", "防止", "以防", "以免", "不考虑", "观察", "监测", "筛查")
PATIENT_SECTIONS = ("诊断依据", "病例特点", "病史特点", "本病例", "本例", "该患者", "该病人", "病例摘要", "摘要", "病情：", "病情摘要", "病情特点",
                    # a diagnosis heading ends the hospital course before it (诊治经过：… 出院诊断：X)
                    "出院诊断", "入院诊断", "初步诊断", "最终诊断", "【出院诊断】", "【入院诊断】")
