"""The rule patient: understands a clinician's question by topic and answers from the record.

Offline and deterministic for a seed. For each topic in the question it picks the record
clauses that answer it (the hpi clauses with that aspect, or a history field) and turns them
into first-person lay words. What the patient knows about themselves is answered from the
record; where the record is silent about something a patient would know (a symptom they do
not have, their sleep, bowels, operations, habits), the answer is what a standardized patient
says for an unscripted item — no, or normal — unless something elsewhere in the record (the
examination, the results, the diagnosis) says otherwise, in which case the patient has not
noticed. 不清楚 is left for what a patient really would not know. A symptom or condition asked
by name is answered yes / no from the record's findings (the text layer's polarity). Every
reply passes the diagnosis-leak scrub, then the persona's voice is applied.
"""

from __future__ import annotations

import random
import re
import string
from collections import Counter
from dataclasses import dataclass, replace

import medsim.text
from medsim.scenario.schema import Case, PatientSpec
from medsim.sim import lay, leak, textlink, vocab
from medsim.sim.disclosure import PATIENT_FIELDS, Policy
from medsim.sim.patient import PatientReply
from medsim.sim.topics import _body_pattern as body_parts
from medsim.sim.topics import classify
from medsim.sim.transcript import Turn
from medsim.text import gist
from medsim.text.entities import local_warmth_at
from medsim.text.match import class_member, drugs_in


@dataclass
class _Piece:
    text: str  # what the patient says (lay, first person)
    field: str | None = None  # the record field it came from
    sources: tuple[str, ...] = ()  # the record clauses it discloses, in record wording
    content: bool = True  # False for 不清楚 / deflections
    keys: tuple[str, ...] = ()  # the question keys it answers (onset, associated:发热…)
    default: bool = False  # an answer the record gives by its silence (没有发烧, 平时睡得还行)
    named: bool = False  # a statement the question names in its own words (not a topic's answer)


_TIME = re.compile(r"(\d+|[一二两三四五六七八九十半数几]+)(余|多)?(分钟|小时|天|日|周|个月|月|年)(余|多)?(前|以来|来)|"
                   r"今晨|今早|昨晚|昨天|昨日|今日|今天|前天|晨起|当天|夜间|半天前")
_ORDER_TAG = re.compile(r"【[^】]*】[^\n？?]*")
# findings that describe another (月经量多，有大血块; 有排气): asked about by name, never listed as
# another complaint
_DETAIL_TERMS = frozenset({"血块", "排气"})
# what the body goes on doing when nothing is wrong with it: asked of a silent record, it is there (没有放屁 would
# be a sign the record does not give)
_NORMAL_FUNCTIONS = {"排气": "放屁还正常", "排便": "大便还能解"}
_EARLIER_PREGNANCY_Q = re.compile(r"以前怀|上一胎|上次怀|前几胎|之前怀|以往怀孕|前一胎")
_MODE_Q = re.compile(r"一下子|突然|猛地|慢慢|逐渐|渐渐|一点点")
_MODE_C = re.compile(r"突然|突发|骤然|急起|逐渐|渐进|缓慢|慢慢")
_WHERE_Q = re.compile(r"哪|位置|部位|地方|指(一下|给)|边|侧|处")
_DURATION_END = re.compile(r"\d+(余|多)?(个半|个)?(分钟|小时|天|日|周|月|年半|年)(余|多)?了?$")
_GESTATION_SAID = re.compile(r"怀孕\S*周|停经|孕\d")
# a kind of medicine, not one (降压药, 抗生素, 铁剂, 益生菌, 疫苗): what it covers is the medication answer's
_DRUG_CLASS_WORD = re.compile(r"[药素剂菌苗类]$|中药|西药|偏方|保健品")
# how long one episode or one state lasts (要多长时间才能活动开, 每回难受多长时间), not since when
_ASPECTS = frozenset({"triggers", "character", "severity"})
_RANGE = re.compile(r"\d+(?:\.\d+)?\s*[–—～~\-]\s*\d+(?:\.\d+)?\s*[天周月年次岁瓶支片]")
# how bad something other than the pain is (肿得厉害吗, 掉得厉害不厉害, 咳得厉害): the thing before 得
_OTHER_DEGREE_Q = re.compile(r"[^疼痛受\s，。？?、]得(很|多|有多|特别|挺)?(厉害|严重)")
_PAIN_DEGREE_Q = re.compile(r"[疼痛]|难受|几分|打分|分数")
# the job asked outright (干的是啥活儿: heard as the occupation whatever else was heard), and any word of
# work in a question (工作, 上班: the job is part of what is asked)
_WHAT_JOB_Q = re.compile(r"干的?是?(啥|什么)活|(啥|什么)工作|职业|做(啥|什么)的|干(啥|什么)的|干(啥|什么)工作")
_JOB_Q = re.compile(r"工作|干啥的|干什么的|做什么的|职业|上班|干活|什么活")
# the people who ate with them (一块儿吃饭的人有没有也不舒服)
_SHARED_MEAL_Q = re.compile(r"(一块儿?|一起|同桌|一道)吃(饭|东西)?的人")
# treatments without a medicine a doctor asks about by name
_NONDRUG_Q = re.compile(r"理疗|针灸|推拿|按摩|封闭针?|拔罐|艾灸|刮痧|牵引|热敷|康复训练|小针刀")
# things one may have touched or breathed (asked as an exposure, not as the job)
_EXPOSURE_Q = re.compile(r"化学品|化学药品|油漆|胶水|农药|杀虫剂|染发剂|粉尘|石棉|汞|铅|苯|放射线|毒物|花草")
# a child's own birth asked (足月生的吗，顺产还是剖的), and the record words that tell it
_BORN_Q = re.compile(r"足月|早产|顺产|剖(宫产|腹产|的)|生下来|出生(的时候|时|体重)|生的时候")
_BORN_C = re.compile(r"足月|早产|顺产|剖宫产|出生|产钳|窒息")
_ORDER_Q = re.compile(r"先.{1,12}还是(先|后)|哪个先|谁先")  # which came first
_SWALLOWING_SIGNS = frozenset({"饮水呛咳", "吞咽困难", "吞咽疼痛"})
_A_NOT_A_Q = re.compile(r"(\w)不\1|(\w)没\2")  # 呛不呛, 吐没吐
_YES_NO_Q = re.compile(r"有没有|有无|是否|了没有?|过没有?|没有[？?]")
_TIME_OF_DAY_Q = re.compile(r"白天还是(夜里|晚上|夜间)|(早上|早晨)还是(晚上|下午)|(什么|啥)时候(最|更|比较)(厉害|重|多|明显)")
_TIME_OF_DAY_C = re.compile(r"夜间|夜里|晨起|清晨|早晨|白天|日间|午后|傍晚|晚上|入睡")
_JOB_YEARS_Q = re.compile(r"(干|做|工作|上班)(了|过)?(多少|几)年|工龄")
_LASTS_Q = re.compile(r"(多长时间|多久|多大一?会儿?|几分钟|几个?小时)\S{0,4}(才|能|就)|每次|一次|每回|每一回|持续")
_SPAN_C = re.compile(r"持续\S{0,3}\d|\d+\s*(个多|个半|余|多)?(分钟|小时)(才|后|左右|可|缓解)|数分钟|数秒|数小时")
# a clause about the whole illness since it began: care sought or self-treatment, not relieved, lasting until now
_COURSE_OF_ILLNESS = re.compile(r"自服|自行\S?(服|用|吃|含|喷|购)|^(外院|当地\S{0,3}医院|诊所|社区)|(?<![未没])就诊|(不|未|无)缓解|未见好转|"
                                r"持续(至今|不缓解|不止|不退)|至今(未|不)")
_RELIEF_Q = re.compile(r"歇|休息|缓过来|缓一缓|缓解")
_BODY_SIZE_Q = re.compile(r"身高|多高|体重多少|多重|多少斤|几斤重")
_DOING_WHEN_Q = re.compile(r"(干啥|干什么|做什么|做啥)的时候")
_OTHERS_Q = re.compile(r"别的|其他|其它|另一[只侧边条个]|别处|他处")
# whether people around them have it too, and the record words that tell it (同餐者1人有类似腹泻, 班里有同学发热)
_OTHERS_ILL_Q = re.compile(r"(家里|家人|周围|身边|班里|班上|幼儿园|学校|同学|同事|别的(孩子|小朋友|人)|其他(孩子|小朋友|人)|一起吃|一块儿?吃|同桌)"
                           r"\S{0,10}(也|有没有|有人|一样|类似)")
_OTHERS_ILL_C = re.compile(r"同餐|家人|家里人|幼儿园|班里|班上|同学|同事|周围|同住|室友|一起吃")
_EARLIER_C = re.compile(r"类似|有过|曾|既往")
# a pain that went somewhere else: spread to (放射, 波及) or moved on (转移至, 向后背并向腰部转移)
_SPREAD_C = re.compile(r"放射(?!性)|牵涉|窜|波及|蔓延|扩散|扩展|延及|转移至|移至|移到|向\S{1,14}?转移")
_POINTING = re.compile(r"(用|拿)手(指头?)?(给我|给俺|帮我)?(指|点|比划|比|看|摸)")
# how many years, or how long the old trouble has gone on; a record span in years
_ILLNESS_YEARS_Q = re.compile(r"几年|多少年|(这|老)(毛病|病根)|病根")
_ILLNESS_YEARS_C = re.compile(r"\d+\s*(余|多)?年(?!前)")
_RECENT_SPAN = re.compile(r"近\S{0,2}(半年|半个月|\d+\s*(个)?(年|月|周|天))")
# constant or in bouts, asked as a choice, and the record words that tell which
_STEADY_OR_BOUTS_Q = re.compile(r"一阵一?阵.{0,6}还是.{0,6}(一直|持续|不停)|(一直|持续).{0,6}还是.{0,6}(一阵|阵发|时有时无)|"
                                r"阵发.{0,3}还是.{0,3}持续|持续.{0,3}还是.{0,3}阵发")
_STEADY_OR_BOUTS_C = re.compile(r"持续(至今|性|存在|不缓解|不退|不止)|阵发|间断|间歇|发作性|时有时无")
# a clause cut at its 后 (聚餐吃海鲜、喝啤酒后，夜间突发…): said alone, it needs what came after
_AFTER_ALONE = re.compile(r"(?<![以之术产])后$")
# what they were doing when it began (当时在干什么, 疼起来的时候在做什么)
_DOING_AT_ONSET_Q = re.compile(r"(当时|那会儿?|那时候?)\S{0,2}(在)?(干|做)(什么|啥|嘛)|(疼|犯|发作|开始)\S{0,3}的时候\S{0,2}在(干|做)")
_FOUND_BECAUSE = re.compile(r"因\S{1,6}?(测|查|体检|发现|就诊|检查)")
_WELL_BEFORE_Q = re.compile(r"发病前|得病前|犯病前|最后一次好好|好好的|能自理|生活\S{0,3}自理|最后正常")
_WELL_BEFORE_C = re.compile(r"^(发病|起病|病)前|最后正常|发病前\S{0,4}(正常|自理)")
_TAKE_Q = re.compile(r"吃|服|用|含|打|输|喷|贴")
_HABIT_Q = re.compile(r"平时|一般|习惯|平常|以往|平素")
_ABORTION_Q = re.compile(r"流产|流过|刮宫|刮过宫|人流|打过胎|清宫|引产")
_BIRTHS_Q = re.compile(r"第几|几次|几胎|生过|顺产|剖|生孩子|孩子几|几个孩子")
_BIRTH_C = re.compile(r"[Gg]\d|顺产|剖宫|剖腹|生育|育有|\d[子女]|分娩|早产|流产")
_DUE_Q = re.compile(r"预产期|怀孕几周|孕几周|几周了|怀了多久|怀孕多久|几个月了")
_MENSES = re.compile(r"月经|初潮|周期|经期|末次|绝经|痛经|经量|\d+\s*[/／]\s*\d+")
# a part of the periods a question asks (question words → the clause that tells it)
_MENSES_ASPECTS = (
    (re.compile(r"初潮|第一次来|头一次来|几岁(来|开始)"), re.compile(r"初潮"), ""),
    (re.compile(r"周期|准不准|规律|多少天来|几天来一次|多久来一次|按时"), re.compile(r"周期|规律|\d+\s*[/／]\s*\d+"), ""),
    (re.compile(r"来几天|几天(干净|完)|经期|持续几天|每次来多久|每(次|回)(来)?几天"), re.compile(r"经期(延长|\d)|行经|持续\d|\d+\s*[/／]"), ""),
    (re.compile(r"末次|最后一次|上次来|上次月经|哪天来"), re.compile(r"末次"), ""),
    (re.compile(r"几片|卫生巾|湿透"), re.compile(r"卫生巾"), ""),
    (re.compile(r"量(多|大|少)"), re.compile(r"量"), ""),
    (re.compile(r"血块"), re.compile(r"血块"), ""),
    (re.compile(r"痛经|来月经的时候\S{0,4}疼|经期\S{0,4}疼"), re.compile(r"痛经"), "来月经的时候不怎么疼"),
    (re.compile(r"中间\S{0,6}出血|同房\S{0,6}出血|经间"), re.compile(r"经间期|同房后出血"), "两次月经中间和同房以后都没出过血"),
    (re.compile(r"绝经"), re.compile(r"绝经"), ""),
)
_OBSTETRIC = re.compile(r"孕|产|[Gg]\d|婚|育|子|女|流产|避孕|剖宫|结扎|绝经")
_NOCTURIA = re.compile(r"夜尿(\d+)\s*(?:[～~\-–—]\s*(\d+))?\s*次(?:/夜)?")
_AS_USUAL = re.compile(r"正常|如常|同前|同平时|与平时相同|无(明显)?变化")
_DENIAL = re.compile(r"^(患者)?(无|否认|未|不伴|没有)(?!明显诱因|诱因)")
# a general denial of illness (体健, 否认慢性病史), not a denial of other named diseases
_NO_HISTORY = re.compile(r"体健|否认(慢性|特殊|重大|其他)?(疾病|病)史|否认慢性病|无(特殊|慢性)(病|疾病)史?")
_WHAT_ILLNESS = re.compile(r"是不是|会不会是|什么病|啥病|诊断|得了")
_ASKS_PHOTO = re.compile(r"照片|图片|拍(个|张)?照|截图|上传|发(一下|下|个|张|来|给)?(我|过来)?\S{0,6}看")
_PAIN = re.compile(r"[疼痛]")
# a result in a clause: a value with a unit, a verdict (the test's name alone is the patient's to tell)
_VALUE = re.compile(r"\d+(\.\d+)?\s*[a-zA-Zμ×/%]|示|提示|显示|阳性|阴性|诊断|考虑|\d+\.\d+")
_CHECKUP = re.compile(r"^(单位)?(体检|查体|化验|检查)(时)?发现")
_FEELS_Q = re.compile(r"(平时|自己|有没有|有莫得|有冇|有啥|有什么)\S{0,4}(哪里|哪儿|啥|什么)?不(舒服|得劲|好受)|什么感觉|啥感觉")
_PAIN_WORDS = re.compile(r"[疼痛]|绞|胀|酸|刺|压榨|闷")
# what a clinician's question asks about a sub-aspect
_AGGRAVATE_Q = re.compile(r"更|加重|厉害|明显|严重")
_BEFORE_Q = re.compile(r"(?<!比)以前|(?<!比)从前|过去|第一次|头一次|犯过|有过|发作过|类似|这样过")
_CHANGE_Q = re.compile(r"越来越|好[点些]|轻|重|变化|次数|频繁|好转|减轻|缓解|降|退|稳定|怎么样了")
_DOCTOR_Q = re.compile(r"医生|大夫|医院|诊所|看过|咋说|怎么说|说是|诊断")

# record clauses by what they tell
_TRIGGER_C = re.compile(r"诱因|受凉|着凉|淋雨|饱餐|饮酒|搬|劳累|情绪|生气|激动|接触|打扫|运动|用力|外伤|摔|扭|"
                        r"(吃|喝|进食|食用)\S{0,10}(后|以后|之后)|(后|时)(突发|突然|出现|起|开始)|(?<![天时周月年钟\d术])后[^\d，。；]{1,6}?(出现|开始)|幼儿园|班里|同事|"
                        r"家人.{0,4}(感冒|发热)|活动后")
# (不敢翻身和深呼吸: what one dares not do is what makes it worse)
_AGGRAVATE_C = re.compile(r"加重|加剧|更明显|时明显|后明显|时疼痛|时加|明显加|不敢(翻身|深呼吸|呼吸|动|咳嗽|活动|走|弯腰|吃)")
# what relieves it includes the rest or posture the record says is needed (需躺在暗处休息, 需端坐)
_RELIEF_C = re.compile(r"缓解|减轻|好转|改善|休息后|可自行|消失|暂降|需(躺|卧|端坐|坐起|休息|歇)|端坐|抱膝|蜷")
_COURSE_C = re.compile(r"加重|好转|逐渐|渐感|渐(?=扩|增|加|出现|明显)|进行性|反复|持续(不缓解|加重|存在|至今|不退)|不缓解|未缓解|无缓解|频繁|发作|间断|次/|"
                       r"变化|再次|又")
_BEFORE_C = re.compile(r"既往|以前|曾|反复|类似|再发|复发|\d+年来|病史|史")
_TREAT_C = re.compile(r"自服|自行(服|含|用|吃|购|买|喷|口服|使用)|服用|口服|含服|(?<!舒|衣|制)服|吃了|用了|使用|输液|打针|静滴|静脉|肌注|就诊|外院|门诊|诊所|医院|医生|"
                      r"予|给予|治疗|处理|未予|诊治|药|喷|吸入|雾化|揿|贴|化疗|放疗|手术")
# a past-history clause telling a regimen (规律服用X, 胰岛素治疗, 抗结核治疗1月余)
_REGIMEN_C = re.compile(r"服|药|胰岛素|治疗")
_ARRIVAL = re.compile(r"来诊|来院|来我院|就诊于我院|送入|送来|急诊|收入|收住|入院")
_ACUTE_MED = re.compile(r"昨晚|昨天|昨日|今天|今晨|今日|前天|\d+天前|发热时|本次|此次|化疗|发病后|起病后")
_OXYGEN_Q = re.compile(r"吸氧|制氧|氧气")
_DRUG_TAKEN = re.compile(r"(口服|服用|自服|含服|静滴|输液|吃了?)\S*药|药物")
_SELF_MED = re.compile(r"自用|自服|自行|(时|后)(自己)?(服|用|吃|含|喷)|需要时|必要时|prn", re.IGNORECASE)
# a list entry taken now and then for the complaint (间断口服双氯芬酸钠止痛, 铝碳酸镁 按需): what 吃过什么药没有
# asks — that entry, not the regular ones beside it
_NOW_AND_THEN = re.compile(r"间断|偶尔|按需|止痛|止疼")
_CHECKED_C = re.compile(r"产检|B超|b超|超声|体检|检查|化验|住院|就诊|门诊|复查|随访")
_VISIT_C = re.compile(r"就诊|外院|门诊|诊所|医院|医生|看过|卫生院|社区|急诊")
_TEST_C = re.compile(r"心电图|ct|CT|B超|b超|超声|彩超|胸片|X线|x线|核磁|MRI|mri|血常规|尿常规|便常规|化验|检查|体检|"
                     r"查|片子|镜|造影|血糖|血压")
# a thing a test looks at, named in a question (查过血钾没有, 做过肾上腺CT吗)
_TEST_OBJECT = re.compile(r"尿蛋白|尿糖|尿酮|血钾|血钠|血钙|血脂|胆固醇|甘油三酯|血糖|糖化|甲状腺功能|甲功|肝功|肾功|血常规|"
                          r"尿常规|心电图|B超|b超|彩超|超声|CT|ct|核磁|MRI|mri|胸片|胃镜|肠镜|肾上腺|唐筛|糖耐量", re.IGNORECASE)
# the record's words for what that test found (血脂 → 血脂异常 / 高脂血症)
_TEST_ALIASES = {"血脂": ("高脂血症", "高血脂", "胆固醇"), "血糖": ("糖尿病", "高血糖"), "b超": ("超声",),
                 "超声": ("b超",), "彩超": ("超声", "b超"), "甲功": ("甲状腺功能",)}


def _names_test(head: str) -> bool:
    """A record phrase that says a test was done (外院肾上腺CT, 多次查血钾低), not a reading alone
    (孕20周前血压正常) or a treatment (口服硝苯地平控释片控制血压)."""
    found = {m.group(0) for m in _TEST_C.finditer(head)}
    if not found:
        return False
    if found <= {"血压", "血糖"}:
        return bool(re.search(r"测|量|查|检", head)) and not re.search(r"控制|口服|服用|吃", head)
    return True


_RESULT_CUT = re.compile(r"示|提示|显示|：|:|报告|结果|发现(?=.)")
_TEMP_Q = re.compile(r"体温|度|烧到|烧得|多高|发烧|发热|热")
_BP_Q = re.compile(r"血压")
_SUGAR_Q = re.compile(r"血糖")
_SURGERY_Q = re.compile(r"手术|开刀|动过刀|开过刀|做过什么|切除")
# characters of when and how often, shared by a part and an answer without telling one is about the other
_TIME_CHARS = frozenset("以前年月天周次最近时候平常")
_EFFECT_Q = re.compile(r"管用|管不管用|有效|有没有效|效果|见好|好点没|好些没|好转")
_TAKEN_C = re.compile(r"自服|服用|口服|含服|吃了|用了|使用|自行\S?(服|用|吃|喷|含)|输液|静滴|打针")
_EFFECT_C = re.compile(r"无效|有效|效果|缓解|好转|减轻|消失|改善|未见好|无改善|不见好|控制")
# the colour of what one passes, asked (大便颜色有没有变浅, 尿颜色像不像浓茶), and the record words that tell it
_COLOUR_Q = re.compile(r"(大便|小便|尿|便)\S{0,3}(颜色|什么色|啥色|发黑|发白|变浅|发红|像浓茶|浓茶色|洗肉水)")
_STOOL_COLOUR_C = re.compile(r"(黄|黑|白|灰|绿|红|陶土|柏油)色?\S{0,3}便|便\S{0,3}(发黑|色|带血|血)|黑便|便血|柏油")
_URINE_COLOUR_C = re.compile(r"血尿|尿\S{0,3}(色|红|黄|浓茶|洗肉水|酱油)|浓茶色|洗肉水")
_WHEN_WORSE_Q = re.compile(r"(的时候|时|后)\S{0,4}(疼|痛)?得?(更)?(厉害|加重|明显|重)(不|吗|么|[？?])")
_FOOD_ALLERGY_Q = re.compile(r"食物|吃的东西|吃东西|海鲜|鸡蛋|牛奶|花生")
_WOMENS_OPERATION = re.compile(r"结扎|剖宫产|剖腹产|人工流产|人流|刮宫|清宫|宫外孕\S{0,2}手术")
_HOSPITAL_Q = re.compile(r"住院|住过\S{0,3}院")
_PAST_STAY_Q = re.compile(r"住过|住院过|几次院|以前\S{0,4}住院|有没有住院")
_VACCINE_Q = re.compile(r"疫苗|接种")
# an open question about illnesses, beside named ones (以前得过什么病？有高血压吗？)
_OPEN_ILLNESS_Q = re.compile(r"什么病|啥病|哪些病|身体(咋样|怎么样|怎样|好不好)|基础病|慢性病|老毛病")
_OPEN_PAST_Q = re.compile(r"什么病|啥病|身体|既往|以前|以往|得过|基础病|慢性病|老毛病")

# general: sub-aspects (question words → record words)
# 最后一次吃东西是几点 asks the last meal (the time an operation or a sedation would need), not the appetite
_LAST_MEAL_Q = re.compile(r"最后一(次|顿|餐)[^，。？?]{0,6}(吃|喝|饭|进食)[^，。？?]{0,8}|上一顿[^，。？?]{0,8}|几点吃的|末次进食")
_LAST_MEAL = re.compile(r"(禁食|进食|进餐|吃饭|饭后|餐后|吃了)[^，。；]{0,8}(\d+\s*(小时|分钟)|前)|"
                        r"\d+\s*(小时|分钟)(前|以前)[^，。；]{0,4}(进食|进餐|吃|喝)")
_GENERAL = (
    ("appetite", re.compile(r"吃饭|胃口|食欲|饭量|吃得|吃奶|喝奶|奶量|饮食|吃东西|能吃|进食|吃的|饮水|喝水|食饭|母乳|奶粉|"
                            r"吃不下|吃得下|口饭"),
     re.compile(r"食欲|胃口|纳差|纳可|纳呆|吃饭|吃不下|不愿吃|不想吃|吃奶|奶量|饮食|食量|饭量|进食\S{0,3}(差|少|减少|可|尚可|正常)|即吐|"
                r"(喝水|饮水)(尚|还)?(少|差|减少|可|多|增多)"),
     "平时吃饭还行，胃口跟以前差不多"),
    # how much one drinks (每日饮水约3000mL) is told when asked, never assumed
    ("water", re.compile(r"喝\S{0,3}水|饮水|水喝"),
     re.compile(r"(每日|每天|一天)(饮水|喝水)|(饮水|喝水)(量|约)|(饮水|喝水)\S{0,2}(少|多|不足)"), ""),
    # tea, coffee and soft drinks (晚饭后常饮茶): the record's habit, else an unscripted item's no
    # (咖啡色, 浓茶色 are colours of what one brings up or passes)
    ("drinks", re.compile(r"茶(?![色样])|咖啡(?![色样])|饮料|可乐"), re.compile(r"茶(?![色样])|咖啡(?![色样])|饮料|可乐"),
     "平时不怎么喝茶、咖啡"),
    # when meals are taken (晚餐常在9点以后，饭后即躺下): told when asked, never assumed
    ("meals", re.compile(r"几点吃|(晚饭|晚餐|早饭|早餐|午饭|三餐)\S{0,4}(几点|时间|规律|准时|按时)|饮食\S{0,2}规律|吃饭\S{0,2}(时间|规律)"),
     re.compile(r"(晚餐|晚饭|早餐|早饭|午餐|三餐)\S{0,4}(\d+点|规律|不定时|按时)|饭后即|餐后即|饮食不规律"), ""),
    # 睡前喝水 is when one drinks, not the sleep
    ("sleep", re.compile(r"(?<![渴嗜想])睡(?!前|觉前|之前)"), re.compile(r"(?<!嗜)睡(眠|觉|不)|失眠|入睡|眠(可|差)|夜间.{0,2}醒"), "平时睡觉还可以"),
    ("bowels", re.compile(r"大便|拉|排便|二便|大小便|解手"), re.compile(r"大便|便|腹泻|拉|排便|二便"), "大便正常"),
    # a urine test (尿蛋白±) is a result, not how one passes water
    ("urine", re.compile(r"小便|尿|二便|大小便|解手|起夜"), re.compile(r"小便|尿(?!蛋白|常规|糖|酮|检|培养|素|酸)|二便|夜尿"),
     "小便也正常"),
    # a child who cries and will not settle (哭闹不安) is not 精神还行
    ("spirits", re.compile(r"精神|精力|有劲|爱玩|玩"), re.compile(r"精神|乏力|没劲|嗜睡|萎靡|蔫|哭闹|烦躁"), "精神还行"),
    # how salty one eats (口味偏咸，每日食盐约10g): told when asked, never assumed
    ("salt", re.compile(r"口重|口味|咸|盐|腌|油腻|清淡"), re.compile(r"口味|偏咸|食盐|高盐|咸|油腻|清淡"), ""),
    ("weight", re.compile(r"体重|瘦|胖|斤"), re.compile(r"体重|消瘦|瘦|胖"), "体重没怎么变"),
    ("exercise", re.compile(r"运动|锻炼|活动量|一坐一天|久坐|走动"), re.compile(r"运动|锻炼|久坐|活动(少|多)"), ""),
    ("mood", re.compile(r"心情|情绪|焦虑|抑郁|烦|压力"), re.compile(r"心情|情绪|焦虑|抑郁|压力|烦躁|紧张"), "心情还行"),
)

_GENERAL_BY_NAME = {g[0]: g for g in _GENERAL}


class RulePatient:
    name = "rule"

    def __init__(self, spec: PatientSpec, case: Case, *, seed: int = 0):
        self.spec = spec
        self.case = case
        self.seed = seed
        self.persona = spec.persona
        self.policy = Policy(case, spec)
        # a young child's history is told by a parent (患者/患儿 becomes 孩子), an unconscious or
        # speechless patient's by the family member with them (他 / 她), anyone else's by the patient
        self.subject = lay.subject_for(case)
        self.turn = 0
        self.asked: Counter[str] = Counter()
        self.hpi = self._index_hpi()
        self.units = self._index_units()
        self.said: set[str] = set()  # record clauses already told, so a follow-up gets what is new
        self.asked_terms: set[str] = set()  # the findings the question names: a list clause tells those parts
        self.replies = 0  # replies given (the opening included), and how many carried a persona tail
        self.tails = 0
        self._record_state()
        # per-simulator counts the run can store beside the transcript (transcript.info)
        self.stats = {"turns": 0, "unknown_answers": 0, "not_understood": 0, "leaks_scrubbed": 0, "fuzzy_topics": 0,
                      "default_answers": 0, "persona_tails": 0}

    # ------------------------------------------------------------------ protocol

    async def opening(self) -> PatientReply:
        return self.opening_sync()

    async def reply(self, clinician_text: str, history: list[Turn] | None = None) -> PatientReply:
        return self.reply_sync(clinician_text)

    def opening_sync(self) -> PatientReply:
        rng = self._rng()
        pieces = self._opening_pieces()
        text = "".join(_sentence(p.text) for p in pieces) or "医生，我不太舒服。"
        return self._finish(text, pieces, ["opening"], rng, opening=True, meta={})

    def reply_sync(self, clinician_text: str) -> PatientReply:
        self.turn += 1
        rng = self._rng()
        question = _ORDER_TAG.sub("", clinician_text)
        pieces, parsed, keys, repeated, answered = self._pieces_for(question, rng)
        pieces += self._unanswered_parts(question, pieces, rng)
        if not pieces:
            self.stats["not_understood"] += 1
            pieces = [_Piece("您说的我没太听明白，您是问什么呀？", content=False)]
        self.stats["turns"] += 1
        self.stats["fuzzy_topics"] += parsed.fuzzy
        self.stats["unknown_answers"] += sum(1 for p in pieces if not p.content and p.text == self.spec.unknown_reply)
        self.stats["default_answers"] += sum(1 for p in pieces if p.default)
        said = list(dict.fromkeys(_sentence(t) for t in _join_denials([p.text for p in pieces])))
        text = "".join(_said_once(said))
        prefix = ""
        told = {src for p in pieces if p.content for src in p.sources}
        # 刚才说过了 only when nothing new is told: a follow-up on a detail gets the detail
        if keys and len(repeated) == len(keys) and told and told <= self.said and "ending" not in parsed.topics:
            prefix = "不是刚说过嘛，" if self.persona.mood == "irritable" else "刚才说过了，"
        meta = {"symptoms": parsed.symptoms, "conditions": parsed.conditions, "repeats": repeated,
                "fuzzy": parsed.fuzzy, "turn": self.turn, "answered": answered}
        return self._finish(text, pieces, parsed.topics, rng, opening=False, meta=meta, prefix=prefix)

    def _unanswered_parts(self, question: str, pieces: list[_Piece], rng: random.Random) -> list[_Piece]:
        """A compound question (腿脚肿不肿？晚上躺下尿是不是特别多？) whose one part no piece answers: that
        part asked alone, so no half is dropped. A part is answered when a piece answers one of its
        keys or shares its content; a part heard as nothing, or whose own answer is a stock line or a
        not-understood, adds nothing."""
        parts = [x for x in re.split(r"[？?。；;！!]", question) if len(x.strip()) >= 4]
        if len(parts) < 2 or not any(p.content for p in pieces):
            return []
        added: list[_Piece] = []
        for part in parts:
            keys = set(self._keys(_without_context(classify(part), part)))
            if not keys or keys & {"greeting", "ending", "chief_complaint"}:
                continue
            told = pieces + added
            # a key is answered by a piece of its own or of one of its aspects (triggers by triggers:doing);
            # an item that names a finding (associated:出汗) does not answer the rest of its topic
            if any(keys & ({k.split(":", 1)[0] for k in p.keys if k.split(":", 1)[-1].isascii()} | set(p.keys))
                   or gist.shared(part, p.text + "".join(p.sources)) for p in told if p.text):
                continue
            asked_terms = self.asked_terms
            got = self._pieces_for(part, rng)[0]
            self.asked_terms = asked_terms
            known = {p.text for p in told}
            # only what plainly answers the part: it shares the part's words, or answers a finding it names
            # (a stock line, 平时睡觉还可以, shares the part's words by being made of them: only a finding's no)
            added += [p for p in got if p.text and p.text not in known and (
                (p.content and not p.default and len(gist.shared(part, p.text + "".join(p.sources), ignore=_TIME_CHARS)) >= 2)
                or ((p.content or p.default) and any(":" in k for k in p.keys)))]
        return added

    def _pieces_for(self, question: str, rng: random.Random):
        """What the patient says to one question: the pieces, the question's parse, its keys, those asked
        before, and what each key drew out."""
        parsed = _last_meal(_with_named_symptoms(_without_context(classify(question), question), question), question)
        parsed = self._symptoms_under_an_aspect(parsed, question)
        if "阴道流液" in parsed.symptoms and not self._vaginal_fluid_asked(question):
            # 流不流水 of a rash or a wound (无渗液), or of a man or a child: the skin's, not 下面流水
            parsed = replace(parsed, symptoms=[("渗液" if s == "阴道流液" else s) for s in parsed.symptoms])
        if "allergies" in parsed.topics and len(parsed.topics) > 1 and "抗过敏" in question \
                and "过敏" not in question.replace("抗过敏", ""):
            # 吃没吃过抗过敏的药: a medicine asked about, not the allergy history
            parsed = replace(parsed, topics=[t for t in parsed.topics if t != "allergies"])
        extra = [t for t, cue in (("treatment", _NONDRUG_Q), ("occupation", _WHAT_JOB_Q), ("triggers", _SHARED_MEAL_Q))
                 if t not in parsed.topics and cue.search(question)]
        if extra:
            # 做过针灸、推拿吗 / 干的是啥活儿 / 一块儿吃饭的人有没有也不舒服: asked by name, whatever else was heard
            parsed = replace(parsed, topics=[*parsed.topics, *extra])
        if not parsed.topics and (_YES_NO_Q.search(question) or _A_NOT_A_Q.search(question)) \
                and not body_parts().search(question):  # (a site asked, 裆部麻不麻, is not the legs' numbness)
            named = [f.term for f in textlink.findings(question) if f.term != "疼痛"]
            if named:  # 屁股周围、裆部那块麻不麻: a finding asked yes or no, though no topic rule heard it
                parsed = replace(parsed, topics=["associated"], symptoms=list(dict.fromkeys(named)))
        if not parsed.topics and _ORDER_Q.search(question):
            parsed = replace(parsed, topics=["onset"])  # 疹子是先出在嘴里还是先出在手脚上: when each began
        whole = set(parsed.topics)
        parsed = _with_part_topics(parsed, question)
        self.asked_terms = _asked_terms(question) | set(parsed.symptoms)
        earlier = bool(_EARLIER_PREGNANCY_Q.search(question)) and not _BIRTHS_Q.search(question) \
            and not _ABORTION_Q.search(question) and self._first_pregnancy()
        if earlier:  # 以前怀孕也…吗, asked of a first pregnancy, whatever else it names: there was none
            parsed = replace(parsed, topics=["past_history"], symptoms=[], conditions=[])
        keys = self._keys(parsed)
        repeated = [k for k in keys if self.asked[k] > 0]
        self.asked.update(keys)
        pieces: list[_Piece] = []
        for topic in parsed.topics:
            got = self._answer(topic, parsed, question, rng)
            if topic not in whole:  # heard in one part only: what the record says, never a stock line
                got = [p for p in got if p.content and not p.default]
            for key, piece in zip(_topic_keys(topic, parsed, len(got)), got, strict=False):
                piece.keys = piece.keys or key
            pieces += got
        # a question about the people around them (身边有人得过结核吗) is not answered from their own story
        about_others = "past_history" in parsed.topics and _CONTACT_Q.search(question)
        if parsed.conditions and not {"past_history", "family_history", "ending"} & set(parsed.topics) \
                and self.policy.allowed("past_history"):
            # 长过肛瘘没有, heard as another topic: the illness named is the patient's own history
            heard = [(c, replace(self._condition("past_history", c, question), keys=(f"past_history:{c}",)))
                     for c in parsed.conditions if c not in ("手术", "输血", "外伤", "妊娠")]
            # a 不太清楚 about a word heard by the way adds nothing; what a doctor would have said (医生说过
            # 前置胎盘没有) and the record does not say was not said to them
            told_by_doctor = re.search(r"说过|医生说|大夫说|告诉过", question)
            pieces += [replace(p, text=f"没听医生说过{_asked_name(c, question)}") if p.default and told_by_doctor else p
                       for c, p in heard if p.content]
        if _RELIEF_Q.search(question) and not {"relief", "course", "duration", "triggers"} & set(parsed.topics) \
                and self.policy.allowed("hpi"):
            # 歇一会儿或者含点药能缓过来吗, heard as the treatment: the rest half is what relieves it
            pieces += [replace(p, keys=("relief",)) for p in self._relief(question)]
        if _PAST_STAY_Q.search(question) and "past_history" not in parsed.topics and self.policy.allowed("past_history"):
            pieces += [replace(p, keys=("past_history",)) for p in self._stays()]  # 住过几次院, heard as another topic
        # (家里人有没有也拉肚子的 asks about others: the patient's own statements are no answer)
        about_others = about_others or ("triggers" in parsed.topics and bool(_OTHERS_ILL_Q.search(question)))
        named = self._named(question) if parsed.topics != ["ending"] and not about_others and not earlier else []
        # what each asked key drew out (a named statement another answer already tells still
        # answers its own key): information gathering tells a follow-up that got something new
        # from a question asked twice
        answered: dict[str, list[str]] = {}
        for p in pieces + named:
            for key in p.keys:
                answered.setdefault(key, [])
                answered[key] += [src for src in p.sources if p.content and src not in answered[key]]
        pieces = _qualified(_relevant(_merge(pieces, named, dict(self.hpi)), parsed, question), question)
        pieces = self._others_denied(question, pieces, parsed.symptoms)
        pieces += self._drugs_not_taken(question)
        pieces = _without_unasked_stock(self._about_question(pieces, parsed, question), question)
        pieces = _without_complaint_beside_detail(pieces, parsed, question)
        pieces = _drugs_said_once(pieces)
        pieces += self._how_often(question, pieces)
        if self.subject == "孩子" and _BORN_Q.search(question):
            pieces = self._birth()  # 足月生的吗，顺产还是剖的: the birth history, not the illness's story
        if not pieces and _ASKS_PHOTO.search(question):
            pieces = [_Piece("我手头没带着，您这边给看看吧", content=False)]
        if not pieces and _WHAT_ILLNESS.search(question):
            pieces = [_Piece("具体是什么病我也不知道，所以才来找您看的", content=False)]
        if not pieces and self.policy.allowed("hpi"):
            # heard as no topic (拳头攥得紧不紧): the record clause on what it names (握拳困难), if one is
            pieces = self._clauses_about(question)
        return pieces, parsed, keys, repeated, answered

    def _vaginal_fluid_asked(self, question: str) -> bool:
        demo = self.case.demographics
        if demo and (demo.sex == "男" or demo.age_years < 12):
            return False
        if re.search(r"下面|阴道|羊水|破水|白带", question):
            return True
        skin = re.search(r"疹|泡|疱|伤口|皮|痂|烫|烧伤|溃", question) or any(
            f.term == "渗液" for c, _ in self.hpi for f in textlink.findings(c))
        return not skin

    def _birth(self) -> list[_Piece]:
        """A child's birth as the record gives it (G1P1，足月顺产，出生体重3.2kg), else what a parent of a child
        the record calls healthy says: no problem they were told of (never a made-up 足月顺产)."""
        for field in ("personal_history", "past_history", "hpi"):  # one section's account, not two of the same
            told = [c for c in self._clauses(field) if _BORN_C.search(c)]
            if told:
                return self._from(field, told, 3)
        return self._default("生下来挺好的，没听医生说有什么问题")

    def _others_denied(self, question: str, pieces: list[_Piece], symptoms: list[str] = ()) -> list[_Piece]:
        """别的关节疼不疼 asked where the record says 无其他关节肿痛: that denial is the answer, not the complaint's
        own joint told as a yes."""
        if not _OTHERS_Q.search(question):
            return pieces
        for clause, _ in self.hpi:
            # (the finding heard is enough to tie them: 身上其他地方有没有疹子 to 无其他部位皮疹)
            if _DENIAL.match(clause) and _OTHERS_Q.search(clause) and (
                    len(gist.shared(question, clause, ignore=gist.content_chars("其他其它别的"))) >= 2
                    or any(f.term in symptoms for f in textlink.findings(clause))
                    or re.search(r"扩|蔓延|长到|发展到|传到|波及", question)):
                denial = _Piece(self._say(clause), "hpi", (clause,), keys=("associated",))
                return [denial] + [p for p in pieces if not (p.content and p.text.startswith("有"))]
        return pieces

    def _symptoms_under_an_aspect(self, parsed, question: str):
        """吐血之前有没有恶心、干呕得特别厉害 / 恶心吐了没有: heard as an aspect (triggers, character) by its
        厉害 or 是啥, but it asks whether other symptoms are there — answered as those symptoms, not with the
        aspect's stock line (也没发现怎么着会更厉害)."""
        # (吃东西、喝水的时候呛不呛, heard as the appetite by its 吃: a sign of swallowing it names is asked
        # too — only those: 尿少没少, 瘦没瘦 are the general topic's own items)
        general = "general" in parsed.topics
        if not parsed.topics or "associated" in parsed.topics or not set(parsed.topics) <= _ASPECTS | {"general"} \
                or not (_YES_NO_Q.search(question) or _A_NOT_A_Q.search(question)):
            return parsed
        from medsim.sim.topics import named_items

        symptoms = [t for t in named_items(question)[0] if t not in self.cc_terms and t != "疼痛" and t not in _DETAIL_TERMS
                    and not (self._main_term() and t in self._main_term())]
        if general:
            symptoms = [t for t in symptoms if t in _SWALLOWING_SIGNS]
        if not symptoms:
            return parsed
        if general:
            return replace(parsed, topics=[*parsed.topics, "associated"], symptoms=symptoms)
        return replace(parsed, topics=["associated"], symptoms=symptoms)

    def _about_question(self, pieces: list[_Piece], parsed, question: str) -> list[_Piece]:
        """The reply kept to what the question is about: a piece that shares no content with the
        question (a topic's stock line or clause heard for a question about something else: 跟谁一块住
        answered with the pain score, 以前身体挺好的 beside 受过伤吗) is dropped when another piece does
        share it; a named item's answer always stays. An open question (哪里不舒服) has no content to share."""
        if not pieces or {"chief_complaint", "greeting", "ending"} & set(parsed.topics):
            return pieces
        asked = _asked_content(question)
        if not asked:
            return pieces

        def about(p: _Piece) -> bool:
            if not p.content and (p.text == self.spec.unknown_reply or "检查了才知道" in p.text):
                return True  # what the patient may not tell: said whatever the question's words
            text = p.text + "".join(s for s in p.sources if not s.startswith("not:"))
            if p.field == "demographics" and _JOB_Q.search(question):
                return True  # 干啥工作的 told 我是程序员 shares no word by nature
            return bool(gist.shared(question, text)) or (bool(_CARE_Q.search(question)) and bool(drugs_in(text)))

        kept = [p for p in pieces if not p.text or about(p) or any(
            k.startswith(("associated:", "past_history:", "family_history:", "menstrual:", "vitals:"))
            or (k == "radiation" and p.content and not p.default) for k in p.keys)]  # where a pain went (扩到整个肚子) shares no word with 往别处跑不跑 by nature
        if any(p.text for p in kept):
            return kept
        if parsed.fuzzy and not ("associated" in parsed.topics and not parsed.symptoms):
            # a topic heard by guess whose answer shares nothing asked (跟谁一块住 told the pain score): the
            # record clause that does share it, else an honest not-noticed — never an answer to another
            # question (an open 还有别的吗 has nothing to share and keeps its answer)
            return self._clauses_about(question) or [_Piece("这个我倒没太注意", content=False)]
        # a topic heard by its rules keeps its answer unless a record clause shares the question's content:
        # its cue words may be all the question has (干啥工作的 told 我是销售)
        # (a stock line — 我是男的，没有这些情况 — is the topic's own answer and stays)
        if not any(not p.content and not p.default for p in pieces if p.text):
            return self._clauses_about(question) or pieces
        return pieces

    def _how_often(self, question: str, pieces: list[_Piece]) -> list[_Piece]:
        """一个月犯几回 asked beside another part (一次疼多长时间): the record's frequency (每月发作2–3次)
        when no piece told a count."""
        if not _HOW_OFTEN_Q.search(question) or any(_COUNT_SAID.search(p.text) for p in pieces):
            return []
        told = {s for p in pieces for s in p.sources}
        order = [c for c, _ in self.hpi]
        act = re.search(r"(拉|吐|解|咳)了?(几|多少)", question)
        of_act = {"拉": r"泻|拉|便", "解": r"便|尿", "吐": r"吐|呕", "咳": r"咳"}.get(act.group(1)) if act else None

        def counts_it(i: int) -> bool:  # 吐了几次 is not told 共3次 of the diarrhoea before it
            return not of_act or bool(re.search(of_act, order[i] + (order[i - 1] if i and order[i].startswith("共") else "")))
        clauses = [c for i, c in enumerate(order) if _FREQUENCY_C.search(c) and c not in told and not _DENIAL.match(c)
                   and counts_it(i)]
        return self._from("hpi", clauses, 1)

    def _clauses_about(self, question: str) -> list[_Piece]:
        """The sayable clause sharing most of the question's content, two characters or more beyond the
        complaint every clause speaks of (先兆：眼前闪光 → 发作前无视物闪光、暗点)."""
        common = gist.content_chars(self.text("chief_complaint"))
        scored = [(len(gist.shared(question, c + self._say(c), ignore=common)), c) for c in self.units
                  if self._fields.get(c) != "chief_complaint"]
        best = max((n for n, _ in scored), default=0)
        if best < 2:
            return []
        clause = next(c for n, c in scored if n == best)
        return [_Piece(self._say_unit(self.units[clause]), self._fields.get(clause), self.units[clause], named=True)]

    # -------------------------------------------------------------- assembling

    def _finish(self, text: str, pieces: list[_Piece], topics: list[str], rng: random.Random, *,
                opening: bool, meta: dict, prefix: str = "") -> PatientReply:
        text, hits = leak.scrub(text, self.policy.leak_terms)
        if hits:
            meta["leak_scrubbed"] = hits
            self.stats["leaks_scrubbed"] += 1
        if not text.strip("，。 "):
            text = self.spec.unknown_reply
        content = any(p.content for p in pieces)
        self.replies += 1
        # a persona tail on about one reply in ten, never two close together
        tail_ok = (self.tails == 0 and opening) or self.tails + 1 <= self.replies // 10
        shaped = lay.shape(text, self.persona, rng, topics=topics, opening=opening, content=content, tail_ok=tail_ok)
        if lay.has_tail(shaped) and not lay.has_tail(text):
            self.tails += 1
            self.stats["persona_tails"] = self.stats.get("persona_tails", 0) + 1
        text = prefix + shaped
        if self.subject != "我":
            text = text.replace("我这是", f"{self.subject}这是")
        fields = list(dict.fromkeys(p.field for p in pieces if p.field and p.content))
        # a piece the leak scrub cut was not said: its clauses were not disclosed
        said = [p for p in pieces if p.content and not leak.find_leaks(p.text, self.policy.leak_terms)]
        disclosed = list(dict.fromkeys(s for p in said for s in p.sources))
        self.said.update(disclosed)
        return PatientReply(text=text, topics=[t for t in topics if t != "opening"], fields=fields,
                            disclosed=disclosed, meta=meta)

    def _rng(self) -> random.Random:
        # a str seed is hashed with SHA-512 by random.Random: the same on every run and platform
        return random.Random(f"{self.seed}:{self.case.id}:{self.turn}")

    @staticmethod
    def _keys(parsed) -> list[str]:
        keys = [t for t in parsed.topics if t not in ("greeting", "ending", "associated", "past_history",
                                                      "family_history")]
        if "associated" in parsed.topics:
            keys += [f"associated:{s}" for s in parsed.symptoms] or ["associated"]
        for topic in ("past_history", "family_history"):
            if topic in parsed.topics:
                keys += [f"{topic}:{c}" for c in parsed.conditions] or [topic]
        return keys

    # ------------------------------------------------------------------ opening

    def _opening_pieces(self) -> list[_Piece]:
        template = self.spec.opening or "{chief_complaint}"
        names = [f for _, f, _, _ in string.Formatter().parse(template) if f]
        values: dict[str, str] = {}
        pieces: list[_Piece] = []
        for name in names:
            # a field named in the opening template is volunteered by the scenario's own choice
            said, sources = self._field_lay(name) if self.policy.allowed(name) else ("", [])
            values[name] = said
            if said:
                pieces.append(_Piece("", name, tuple(sources)))
        try:
            opening = template.format_map(values).strip()
        except (KeyError, ValueError, IndexError):
            opening = values.get("chief_complaint", "")
        if template.strip() == "{chief_complaint}" and opening:
            opening = "医生，" + ("" if opening.startswith(("我", self.subject)) else self.subject) + opening
        result = [_Piece(opening, None, ())] if opening else []
        result[0:0] = pieces  # field/sources carriers (empty text)
        for name in self.spec.disclose.volunteered:
            if name in names or name in ("demographics",) or not self.policy.allowed(name):
                continue
            said, sources = self._field_lay(name, limit=2)
            if said:
                result.append(_Piece(said, name, tuple(sources)))
        return result

    def _field_lay(self, name: str, limit: int | None = None) -> tuple[str, list[str]]:
        text = self.policy.text(name)
        if not text:
            return "", []
        if name == "chief_complaint":
            return lay.complaint_to_lay(text, literacy=self.persona.literacy, subject=self.subject), [text]
        if name == "hpi":
            picked = [c for c, _ in self.hpi][: limit or None]
            return "，".join(self._say(c) for c in picked), picked
        said, sources = lay.record_to_lay(text, literacy=self.persona.literacy, subject=self.subject)
        if limit:
            sources = sources[:limit]
            said = "，".join(self._say(c) for c in sources)
        return said, sources

    # ------------------------------------------------------------------ the record

    def _record_state(self) -> None:
        """What the whole record says is present (exam, results and diagnosis included): a symptom
        found there is never denied by default, only not noticed."""
        cc, hpi = self.text("chief_complaint"), self.text("hpi")
        self.cc_terms = {t for t, _, _ in textlink.find_terms(cc)} | {f.term for f in textlink.findings(cc)}
        self.complaint = textlink.findings(cc) + textlink.findings(hpi)
        self.pain = any(f.polarity == "present" and not f.family and _PAIN.search(f.term) for f in self.complaint) or \
            bool(_PAIN.search(cc))
        everywhere = [self.case.record_section(n) or "" for n in ("physical_exam", "tests", "diagnosis", "hpi",
                                                                      "chief_complaint", "past_history")]
        present: set[str] = set()
        for text in everywhere:
            for clause in textlink.clauses(text):
                present |= {f.term for f in textlink.findings(clause) if f.polarity != "absent" and not f.family}
                present |= {t for t, _, _ in textlink.find_terms(clause) if not _DENIAL.match(clause)}
        vitals = self.case.vitals
        if vitals and vitals.temperature and vitals.temperature >= 37.3:
            present.add("发热")
        self.present_anywhere = present

    def _main_term(self) -> str | None:
        """The complaint the 主诉 names first (胸痛 in 胸痛2小时，伴大汗、头晕)."""
        # how far a pregnancy or a late period is (停经7周，下腹痛3小时) is no complaint: the first finding after it
        cc = self.text("chief_complaint")
        parts = [c for c in textlink.clauses(cc) if not _GESTATION_SAID.search(c)]
        for text in (*parts, cc):
            term = next((f.term for f in textlink.findings(text) if f.polarity != "absent"), None)
            if term:
                return term
        return None

    def _main_clauses(self) -> list[str]:
        """The hpi clauses about the main complaint: those naming it and the details after them that
        name no finding of their own (头痛，多位于一侧额颞部，呈搏动性)."""
        out, on = [], False
        for clause, _ in self.hpi:
            if self._tells_main(clause):
                on = True
            elif not (on and _is_detail(clause)):
                on = False
            if on:
                out.append(clause)
        return out

    def _tells_main(self, clause: str) -> bool:
        main = self._main_term()
        terms = {t for t, _, _ in textlink.find_terms(clause)} | {f.term for f in textlink.findings(clause)}
        return bool(main and (main in terms or (_PAIN.search(main) and _PAIN_WORDS.search(clause))))

    def text(self, field: str) -> str:
        return self.policy.text(field) if self.policy.allowed(field) else ""

    def _clauses(self, field: str, *, history: bool = False) -> list[str]:
        """The field's clauses a patient can say (no result, no examination finding)."""
        return [c for c in textlink.clauses(self.text(field))
                if not lay.is_jargon(c, history=history or field == "past_history")]

    def _from(self, field: str, clauses: list[str], limit: int = 4) -> list[_Piece]:
        clauses = list(dict.fromkeys(clauses))[:limit]
        if not clauses:
            return []
        return [_Piece(self._lay_clauses(clauses), field, tuple(clauses))]

    def _lay_clauses(self, clauses: list[str]) -> str:
        clauses = _asked_parts(clauses, self.asked_terms)
        # a clause that opens with 伴 continues a sentence; alone it starts plainly
        return "，".join(self._say(re.sub(r"^(伴有|伴|并|且)", "", c) if i == 0 else c) for i, c in enumerate(clauses))

    def _default(self, text: str) -> list[_Piece]:
        return [_Piece(text, default=True)]

    def _from_field(self, field: str, build) -> list[_Piece]:
        status = self.policy.status(field)
        if self.policy.allowed(field):
            out = build()
            return out if isinstance(out, list) else [out]
        if status == "on_exam":
            return [_Piece("这个得您给我检查了才知道吧", content=False)]
        return [_Piece(self.spec.unknown_reply, content=False)]

    def _say(self, clause: str) -> str:
        return lay.clause_to_lay(clause, literacy=self.persona.literacy, subject=self.subject)

    def _no_pain(self) -> str:
        return "我没觉得哪里疼" if self.subject == "我" else f"{self.subject}没说哪里疼"

    def _who(self) -> str:
        return "" if self.subject == "我" else self.subject

    # ------------------------------------------------------------------ topics

    def _answer(self, topic: str, parsed, question: str, rng: random.Random) -> list[_Piece]:
        if topic == "greeting":
            return [_Piece("医生好", content=False)] if len(parsed.topics) == 1 else []
        if topic == "ending":
            return [_Piece("好的，谢谢医生", content=False)]
        if topic == "chief_complaint":
            if _CHECKUP.match(self.text("chief_complaint")) and _FEELS_Q.search(question) and self.policy.allowed("hpi"):
                # 平时有没有哪里不舒服, of a finding from a check-up: what they feel (偶有乏力、食欲稍差), if anything
                felt = [c for c, _ in self.hpi if not _DENIAL.match(c) and any(
                    f.polarity == "present" and not f.family for f in textlink.findings(c))]
                if felt:
                    return self._from("hpi", felt, 2)
                return self._default("平时没觉得哪里不舒服，是体检查出来的")
            return self._from_field("chief_complaint", self._complaint)
        if topic == "associated":
            if parsed.symptoms:
                return self._from_field("hpi", lambda: [self._symptom(s) for s in parsed.symptoms])
            return self._from_field("hpi", self._other_symptoms)
        handlers = {
            "onset": self._onset, "duration": self._duration, "site": self._site, "character": self._character,
            "severity": self._severity, "radiation": self._radiation, "triggers": self._triggers,
            "relief": self._relief, "course": self._course, "treatment": self._treatment, "general": self._general,
        }
        if topic == "general" and len(parsed.topics) > 1 and not _LAST_MEAL_Q.search(question) \
                and not any(g[1].search(question) for g in _GENERAL):
            return []  # 喝啥酒、一次喝多少 heard as general too: no stock 饮食睡觉还行 beside the answer
        if topic == "duration" and "occupation" in parsed.topics and _JOB_YEARS_Q.search(question):
            return []  # 干了多少年了, of the job: the illness's duration is no answer
        if topic == "severity" and _WHEN_WORSE_Q.search(question) and not _TIME_OF_DAY_C.search(question) \
                and not re.search(r"几分|打分|程度|多疼", question):
            # 吸气、翻身的时候疼得厉害不厉害 asks what makes it worse, not how bad it is: once, as triggers
            return [] if "triggers" in parsed.topics else self._from_field("hpi", lambda: self._triggers(question))
        if topic == "character" and _COLOUR_Q.search(question):
            return self._from_field("hpi", lambda: self._colour(question))  # 大便颜色…: its colour, not its kind
        if topic in handlers:
            return self._from_field("hpi", lambda: handlers[topic](question))
        if topic == "past_history":
            if _EARLIER_PREGNANCY_Q.search(question) and self._first_pregnancy():
                return [_Piece("这是头一回怀孕，以前没怀过", "menstrual_obstetric_history", ("first pregnancy",))]
            if "obstetric" in parsed.topics and not parsed.conditions and not _OPEN_ILLNESS_Q.search(question):
                return []  # 以前生过孩子没有: the births are the obstetric answer's
            got = self._from_field("past_history", lambda: self._past(question, parsed.conditions))
            # 以前腰疼过没有, heard as course too: its 以前没这样过 says it once
            return [p for p in got if not (p.default and {"course", "duration"} & set(parsed.topics))]
        if topic == "family_history":
            return self._from_field("family_history", lambda: self._family(parsed.conditions, question))
        if topic == "allergies":
            return self._allergies() + self._food_allergy(question)
        if topic == "medications":
            return self._medications()
        if topic in ("smoking", "drinking"):
            return self._habit(topic, question)
        if topic == "occupation":
            if _DOING_WHEN_Q.search(question):
                # 干啥的时候犯: what they were doing, not their job — the triggers answer, once
                return [] if "triggers" in parsed.topics else self._from_field("hpi", lambda: self._triggers(question))
            exposed = _EXPOSURE_Q.findall(question)
            if not exposed:
                return self._occupation()
            # 最近碰过啥油漆、胶水或者化学品没有: the exposure asked, not (only) the job — the record's contact
            # (接触…) if it tells one, else not that they know of
            told = [c for f in ("personal_history", "hpi") for c in self._clauses(f)
                    if re.search(r"接触(?!处)|暴露|粉尘|化学|毒物|油漆|农药", c) and not _DENIAL.match(c)]
            occupation = self._occupation()
            if not told and any(p.field == "personal_history" for p in occupation):
                return occupation  # a work history (曾在纺织厂工作20年) tells the exposure: never denied
            exposure = self._from("personal_history", told, 2) or self._default(
                f"没碰过{'、'.join(dict.fromkeys(exposed))}这些")
            if not _JOB_Q.search(question):
                return exposure
            job = [p for p in occupation if p.field == "demographics"]
            return job + exposure if job else occupation
        if topic in ("menstrual", "obstetric"):
            return self._women(topic, question)
        if topic == "age" and _EVENT_AGE_Q.search(question):
            return []  # 多大岁数绝经的: the age of an event, told (or not) by its own answer, not their age now
        if topic == "age":
            if "family_history" in parsed.topics and _RELATIVE.search(question):
                return []  # 多大岁数得的, of a relative: the family answer tells it, not the patient's own age
            return self._age()
        if topic == "tests":
            return self._tests(question)
        if topic == "vitals":
            return self._vitals(question)
        return []

    # ---- the complaint

    def _complaint(self) -> list[_Piece]:
        cc = self.policy.text("chief_complaint")
        if not cc:
            return [_Piece(self.spec.unknown_reply, content=False)]
        said = lay.complaint_to_lay(cc, literacy=self.persona.literacy, subject=self.subject)
        return [_Piece(("" if said.startswith(("我", self.subject)) else self.subject) + said, "chief_complaint", (cc,))]

    def _index_hpi(self) -> list[tuple[str, set[str]]]:
        """hpi clauses a patient can know, each tagged with the question aspects it answers."""
        if not self.policy.allowed("hpi"):
            return []
        out = []
        cc_terms = {t for t, _, _ in textlink.find_terms(self.policy.text("chief_complaint"))} | {"疼痛"}
        for index, clause in enumerate(textlink.clauses(self.policy.text("hpi"))):
            if lay.is_jargon(clause):
                continue
            aspects = {a for a, cues in vocab.ASPECT_CUES.items() if any(c in clause for c in cues)}
            if body_parts().search(clause):
                aspects.add("site")
            if _TIME.search(clause):
                aspects.add("onset")
            elif "onset" in aspects and index > 0 and not re.search(r"突发|突然|起病", clause):
                aspects.discard("onset")  # 出现 later in the story is not the onset
            if _DENIAL.match(clause):  # 无头晕、胸痛: only ever an answer about other symptoms
                aspects &= {"associated"}
            # associated: a symptom other than the presenting complaint, present or denied
            others = {t for t, _, _ in textlink.find_terms(clause)} - cc_terms
            if others and (index > 0 or re.search(r"伴|无|否认|未", clause)):
                aspects.add("associated")
            else:
                aspects.discard("associated")
            out.append((clause, aspects))
        return out

    def _hpi_with(self, pattern: re.Pattern[str], *, aspect: str | None = None, denials: bool = True) -> list[str]:
        return [c for c, aspects in self.hpi
                if (pattern.search(c) or (aspect and aspect in aspects)) and (denials or not _DENIAL.match(c))]

    def _cc_duration_piece(self) -> list[_Piece]:
        cc = self.text("chief_complaint")
        d = lay.duration_of(cc)
        return [_Piece(f"有{d}了", "chief_complaint", (cc,))] if d else []

    def _onset(self, question: str) -> list[_Piece]:
        mode = self._onset_mode(question) or self._well_before(question)
        if mode:
            return mode
        weeks = self._pregnant_weeks() if _DUE_Q.search(question) else None
        if weeks:
            left = 40 - weeks
            due = f"，预产期还有差不多{left}周" if left > 0 else "，已经到预产期了"
            return [_Piece(f"现在怀孕{weeks}周了{due}", "hpi", (f"孕{weeks}周",))]
        timed = [c for c, _ in self.hpi if _TIME.search(c) and not _DENIAL.match(c)]
        # the clause where the main complaint (the first the 主诉 names) begins
        cc = self.text("chief_complaint")
        if _CHECKUP.match(cc):
            return self._complaint()  # 体检发现…1个月: when it was found is the answer
        # a finding the question names (右上腹疼是哪天开始的) begins where the record says it began
        # (先发烧还是先疼的: each named one's start, in the order the question names them)
        named = [f.term for f in textlink.findings(question)]
        if any(_PAIN.search(t) and t != "疼痛" for t in named):
            named = [t for t in named if t != "疼痛"]  # 肚子…疼…哪儿疼: the belly's pain, not any pain
        asked = [next((c for c in timed if any((f.term == term or term == "疼痛" and _PAIN.search(f.term))
                                                and f.polarity == "present" and not f.family
                                                for f in textlink.findings(c))), None) for term in named]
        if _ORDER_Q.search(question) and len(named) > len([c for c in asked if c]):
            # 先发烧还是先起的疹子: each named finding's clause, timed or not (今晨发现…出现红色小疱疹), so the
            # order can be told; the first clause naming it, by term or by its stem (疹 for 皮疹)
            asked = [c or next((x for x, _ in self.hpi if not _DENIAL.match(x) and (
                any(f.term == term and f.polarity != "absent" for f in textlink.findings(x))
                or (term in _STEMS and re.search(_STEMS[term], x)))), None)
                for c, term in zip(asked, named, strict=False)]
        asked = [c for c in dict.fromkeys(asked) if c]
        if asked:
            # when a finding began is told with the clause's start (3天前换戴新表带后出现红斑、丘疹), not cut
            # down to the listed finding asked (丘疹 alone says no when)
            asked_terms, self.asked_terms = self.asked_terms, set()
            try:
                return self._from("hpi", asked[:2])
            finally:
                self.asked_terms = asked_terms
        with_main = [c for c in timed if self._tells_main(c)]
        with_finding = [c for c in timed if textlink.findings(c)]
        begun = [c for c in timed if re.search(r"出现|开始|起|发现|突发|突然|发作", c)]
        picked = (with_main or with_finding or begun)[:1]
        if picked:
            return self._from("hpi", picked)
        cc = self.text("chief_complaint")
        d = lay.duration_of(cc)
        if d:
            return [_Piece(f"{d}前开始的", "chief_complaint", (cc,))]
        return [_Piece("具体什么时候开始的我记不清了", content=False)]

    def _duration(self, question: str) -> list[_Piece]:
        pieces: list[_Piece] = self._relief_asked(question)
        if pieces:
            return pieces
        if _BEFORE_Q.search(question) and re.search(r"以前|过去|之前|从前", question) \
                and not re.search(r"这次|这回|现在|多久了|几天了|多长时间了", question):
            # 以前有没有过一阵…几分钟就好了: an earlier episode is asked, not how long this one has lasted
            return [p for p in self._course(re.sub(r"几分钟|多久|多长时间", "", question)) if p.content or p.default]
        if re.search(r"每次|一次|每回|持续", question):
            pieces += self._from("hpi", self._hpi_with(re.compile(r"每次|持续(约|\d)|数秒|数分钟|\d+分钟"), denials=False), 2)
        if not pieces and _LASTS_Q.search(question):
            # 手发僵要多长时间才能活动开: how long a thing lasts, from the clause that says what the question
            # names (晨起手指僵硬…持续1个多小时才能缓解), not how long the illness has gone on
            common = gist.content_chars(self.text("chief_complaint"))
            spans = [(len(gist.shared(question, "".join(u) + self._say_unit(u), ignore=common)), u)
                     for c, u in self.units.items() if self._fields.get(c) == "hpi" and any(_SPAN_C.search(x) for x in u)]
            best = max((n for n, _ in spans), default=0)
            if best >= 2:
                unit = next(u for n, u in spans if n == best)
                return [_Piece(self._say_unit(unit), "hpi", unit)]
            steady = [c for c, _ in self.hpi if re.search(r"持续(至今|存在|不缓解|不止)|一直(没停|未停)", c)]
            if steady:  # 每次多长时间, of what has not stopped since it began (发作持续至今): that it has not
                return self._from("hpi", steady, 1)
            if re.search(r"每次|一次|每回|每一回", question):
                return [_Piece("每回多长时间我倒没太注意", content=False)]  # not the illness's 4个月
        named = [t for t, _, _ in textlink.find_terms(question)]
        if _ILLNESS_YEARS_Q.search(question):
            # 咳嗽咳痰这毛病几年了, of a complaint that flared days ago: the long-standing illness (反复咳嗽咳痰20年)
            # is the answer, not the flare's 3天
            long_standing = [c for c, _ in self.hpi if _ILLNESS_YEARS_C.search(c) and not _DENIAL.match(c)
                             and (not named or set(named) & {t for t, _, _ in textlink.find_terms(c)})]
            if long_standing:
                return pieces + self._from("hpi", long_standing, 1)
        other = [t for t in named if t not in self.cc_terms and t != "疼痛"]
        if other:  # 咳嗽几天了, when the complaint is something else
            clauses = [c for c, _ in self.hpi if _TIME.search(c) and set(other) & {t for t, _, _ in textlink.find_terms(c)}]
            pieces += self._from("hpi", clauses, 1)
        if not pieces:
            pieces = self._cc_duration_piece()
        return pieces or [_Piece("具体多久了我说不太准", content=False)]

    def _site(self, question: str) -> list[_Piece]:
        # 用手指给我看看 is a gesture: the finger names no place asked about
        named = {t for t, _, _ in textlink.find_terms(_POINTING.sub("", question))} - {"疼痛"}
        if named and not _WHERE_Q.search(question):
            # 说话是吐字不清还是说不出来: no where asked; the clauses recording what is named answer it
            having = [c for c, _ in self.hpi if not _DENIAL.match(c) and any(
                f.term in named and f.polarity == "present" and not f.family for f in textlink.findings(c))]
            if having:
                return self._from("hpi", having, 2)
        if not _WHERE_Q.search(question):
            return []  # no where asked (看东西有没有重影): the statements the question names answer it
        if named:  # 疹子长在哪: where that finding is
            # a finding by what it feels like beside a place (胸闷 → 胸骨后闷压感): its word without the body part
            stems = [_STEMS[t] for t in named if t in _STEMS]
            stems += [re.escape(core) for t in named if (core := body_parts().sub("", t)) and core != t]
            at = [c for c, _ in self.hpi if not _DENIAL.match(c) and (
                named & {t for t, _, _ in textlink.find_terms(c)} or any(re.search(st, c) for st in stems))]
            placed = [c for c in self._main_clauses() if not _DENIAL.match(c) and _places(c, question)]
            at = [c for c in at if _places(c, question)] or placed[:1] or at
            if at:
                return self._from("hpi", at, 2)
        # a medicine taken for another pain (因腰痛自服布洛芬) says no place of this one
        picked = [c for c, aspects in self.hpi if "site" in aspects and not _DENIAL.match(c) and body_parts().search(c)
                  and not _SELF_MED.search(c) and (self._tells_main(c) or _SPREAD_C.search(c))]
        # the clause that says where (头痛，多位于右侧颞部) before one whose body part only names the complaint
        placed = [c for c in self._main_clauses() if not _DENIAL.match(c) and _places(c, question)
                  and not _SELF_MED.search(c)]
        if placed and not any(_places(c, question) for c in picked[:1]):
            order = {c: i for i, (c, _) in enumerate(self.hpi)}
            picked = sorted(([c for c in placed if c not in picked] + picked)[:2], key=lambda c: order.get(c, 0))
        # where it is, and where it went: not another clause of the story that names the place again
        # (头2年来反复发作 then 多位于右侧颞部: the clause that places it, when the first does not)
        picked = picked[:1] + [c for c in picked[1:] if _SPREAD_C.search(c) or (c in placed and picked[0] not in placed)][:1]
        if picked:
            return self._from("hpi", picked, 2)
        cc = self.text("chief_complaint")
        if _CHECKUP.match(cc):
            return [_Piece("身上倒没哪儿特别不舒服，是体检查出来的", "chief_complaint", (cc,))] + self._other_symptoms()
        if textlink.findings(cc) or body_parts().search(cc or ""):
            # the complaint in its own words (左边手脚没劲): a lay name of its finding (浑身没劲) would widen it
            parts = [c for c in textlink.clauses(cc) if (textlink.findings(c) or body_parts().search(c))
                     and not _GESTATION_SAID.search(c)] or textlink.clauses(cc)
            said = "，".join(re.sub(_DURATION_END, "", lay.complaint_to_lay(c, literacy=self.persona.literacy,
                                                                           subject=self.subject)) for c in parts)
            said = said.strip("，").removeprefix("我")
            head = "就是" if body_parts().search(cc) else "说不上具体哪一块，主要就是"
            return [_Piece(f"{head}{said}", "chief_complaint", (cc,))]
        return [_Piece("说不上具体哪一块", content=False)]

    def _steady_or_bouts(self, question: str) -> list[_Piece]:
        """一阵一阵的还是一直都有, heard as the kind or the course of it: the clause that says which (发作持续至今,
        阵发性), before any other."""
        if not _STEADY_OR_BOUTS_Q.search(question):
            return []
        which = [c for c, _ in self.hpi if _STEADY_OR_BOUTS_C.search(c) and not _DENIAL.match(c)]
        if which:
            # said with the sentence it belongs to: 持续性 alone is no answer, 左边腰绞着疼，一阵一阵的加剧 is
            unit = next((u for u in self.units.values() if which[0] in u), (which[0],))
            said = self._say_unit(unit)
            if not any(self._tells_main(c) for c in unit) and said.startswith("一直"):
                # 持续至今 alone names nothing: which of the two it is comes first (是一直疼，到现在都没停)
                # (a pain the question names, of a record whose complaint is something else — 胃不舒服 then 闷痛 — is the pain)
                pain = self.pain or bool(_PAIN.search(question) and _PAIN.search(self.text("hpi")))
                said = ("是一直疼，" if pain else "一直都有，") + said.removeprefix("一直")
            return [_Piece(said, "hpi", unit)]
        return []

    def _character(self, question: str) -> list[_Piece]:
        steady = self._steady_or_bouts(question)
        if steady:
            return steady
        discharge = re.search(r"大便|便|拉|屎|痰|鼻涕|涕|吐|疹|尿|白带|分泌物", question)
        if discharge and discharge.group(0) in ("大便", "便", "拉", "屎") and _HABIT_Q.search(question):
            habit = [c for c, _ in self.hpi if re.search(r"平时|平素|习惯|既往", c) and "便" in c]
            return self._from("hpi", habit, 2) or self._default("平时大便还算正常，没什么变化")
        if discharge:
            word = {"拉": "便", "屎": "便", "大便": "便", "鼻涕": "涕"}.get(discharge.group(0), discharge.group(0))
            if _YES_NO_Q.search(question):
                # 大便里有没有血丝或者脓, record 无黏液脓血: the clause on what is asked, whatever it names it with
                ignore = gist.content_chars(discharge.group(0) + word) | gist.content_chars(self.text("chief_complaint"))
                on_it = [c for c, _ in self.hpi if len(gist.shared(question, c, ignore=ignore)) >= 2]
                if on_it:
                    return self._from("hpi", on_it, 1)
            clauses = [c for c, _ in self.hpi if word in c and not _DENIAL.match(c)]
            clauses += [c for c, _ in self.hpi if word in c and _DENIAL.match(c)]  # 无黑便: it is not black
            if clauses:
                return self._from("hpi", clauses, 2)
            # nothing recorded about it: no sputum is no sputum, unremarkable bowels are normal bowels
            if word in ("痰", "涕"):
                return [self._symptom("咳痰" if word == "痰" else "流涕")]
            if word in ("便", "尿"):
                return self._general("大便" if word == "便" else "小便")
            return [_Piece("这个我没太留意是什么样的", content=False)]
        picked = [c for c, aspects in self.hpi if "character" in aspects and not _DENIAL.match(c)]
        if _PAIN.search(question) and self.pain:
            picked = [c for c in picked if _PAIN_WORDS.search(c)] or picked
        picked = picked[:2]
        if _PAIN.search(question) and not self.pain:
            # 是一直疼还是一阵一阵的, of a complaint that is not a pain: what it is like instead
            return self._from("hpi", picked, 2) if picked else self._default(self._no_pain())
        if picked:
            return self._from("hpi", picked, 2)
        # 没劲是胳膊还是腿: the clause that records the finding asked says what the patient knows of it
        asked = {t for t, _, _ in textlink.find_terms(question)} - {"疼痛"}
        stems = [_STEMS[t] for t in asked if t in _STEMS]
        having = [c for c, _ in self.hpi if not _DENIAL.match(c)
                  and any((f.term in asked or any(re.search(st, f.term) for st in stems))
                          and f.polarity == "present" and not f.family for f in textlink.findings(c))]
        if having:
            return self._from("hpi", having, 2)
        return [_Piece("说不太上来是什么样的，就是难受", content=False)]

    def _severity(self, question: str) -> list[_Piece]:
        degree = _OTHER_DEGREE_Q.search(question)
        if degree and not _PAIN_DEGREE_Q.search(question):
            # 肿得厉害吗 / 头发掉得厉害不厉害: how bad another finding is, told by that finding's clause or
            # the other topics, never the pain score; a finding said only by its verb (咳得厉害不厉害) is told
            # from the story's clause on it, so the question is not met with 没听明白
            verb = degree.group(0)[0]
            named = _DEGREE_VERBS.get(verb) or next((sym for sym, stem in _STEMS.items() if re.fullmatch(stem, verb)), None)
            if not named:
                return []
            # (the verb itself too: 肿得厉害吗 is told by 局部红肿发热, which no 水肿 stem finds)
            stem = f"{_STEMS[named]}|{verb}" if named in _STEMS else verb
            told = [c for c, _ in self.hpi if re.search(stem, c) and not _DENIAL.match(c)]
            return self._from("hpi", told, 2) or [self._symptom(named)]
        pieces: list[_Piece] = []
        vitals = self.case.vitals
        score = vitals.pain_score if vitals else None
        if _PAIN.search(question) and not self.pain and score is None:
            return self._default(self._no_pain())
        clauses = self._hpi_with(re.compile(r"剧烈|剧痛|难以忍受|不能忍受|无法忍受|轻度|轻微|较重|疼得|不能平卧|影响睡眠|"
                                            r"夜间.{0,2}醒|[痛疼]醒|夜间(明显|加重|为重)|不能行走|无法|可忍受|能忍受|尚能"), denials=False)
        pieces += self._from("hpi", clauses, 2)
        if score is not None:
            # the patient's own rating, written with the vitals: a patient tells it when asked
            word = "疼得很厉害，快受不了了" if score >= 7 else "挺疼的" if score >= 4 else "有点疼，还能忍"
            pieces.append(_Piece(f"{word}，要打分的话得有{score}分", "vitals", (f"疼痛评分 {score}分",)))
        if pieces:
            return pieces
        if self.pain:
            return [_Piece("挺疼的，具体几分我也说不上来", content=False)]
        return [_Piece("挺难受的，说不好有多厉害", content=False)]

    def _radiation(self, question: str) -> list[_Piece]:
        # a pain that spread (迅速波及全腹, 转移至右下腹) went somewhere else: never 没往别的地方窜
        picked = self._hpi_with(_SPREAD_C, denials=True)[:1]
        if picked:
            return self._from("hpi", picked, 1)
        if not self.pain:
            return self._default(self._no_pain())
        return self._default("没往别的地方窜")

    def _well_before(self, question: str) -> list[_Piece]:
        """最后一次好好的是几点 / 发病前生活能自理吧: the record's 发病前一切正常 (最后正常时间…)."""
        if not _WELL_BEFORE_Q.search(question):
            return []
        clauses = [c for c, _ in self.hpi if _WELL_BEFORE_C.search(c)]
        return self._from("hpi", clauses, 1)

    def _triggers(self, question: str) -> list[_Piece]:
        well = self._well_before(question)
        if well:
            return well
        if _DOING_AT_ONSET_Q.search(question):
            return self._doing_at_onset()
        if _OTHERS_ILL_Q.search(question):
            # 家里人或者幼儿园别的孩子有没有也拉肚子的: the people around them, not their own story's trigger
            around = [c for f in ("hpi", "personal_history") for c in self._clauses(f) if _OTHERS_ILL_C.search(c)]
            places = re.findall(r"家里|家人|周围|身边|班里|班上|幼儿园|学校|单位|同事|同学", question)
            who = "和".join(dict.fromkeys({"家人": "家里"}.get(w, w) for w in places)) or "身边"
            return self._from("hpi", around, 2) or [replace(p, keys=("triggers:others",)) for p in self._default(
                f"没听说{who}有谁也这样")]
        if _AGGRAVATE_Q.search(question) and not re.search(r"诱因|原因|引起", question):
            clauses = self._hpi_with(_AGGRAVATE_C, denials=False)
            clauses = [c for c in clauses if not re.match(r"^\d|^[一二两三四五六七八九十半数]+(天|小时|周|个?月|年)前", c)]
            if re.search(r"好[点些]|轻[点些]|缓解|舒服", question):  # 活动以后是好点了还是更疼: both ways asked
                background = self._earlier_episode(background=True) if not _BEFORE_Q.search(question) else set()
                clauses += [c for c in self._hpi_with(_RELIEF_C, denials=False) if c not in background]
            # the clauses on what the question names (活动, 阴天, 凉水): 双足前掌行走时疼痛 does not answer
            # 阴天下雨会不会加重 — the complaint's own words (疼, 手) do not count as shared
            common = gist.content_chars(self.text("chief_complaint"))
            on_it = [c for c in clauses if gist.shared(question, c + self._say(c), ignore=common)]
            if clauses and not on_it and _asked_content(question) - common - gist.content_chars("更厉害加重"):
                clauses = []
            elif on_it:
                clauses = on_it
            return self._from("hpi", clauses, 2) or self._default("也没发现怎么着会更厉害")
        clauses = self._hpi_with(_TRIGGER_C, denials=False)
        clauses = [c for c in clauses if not _ARRIVAL.search(c) and not _TREAT_C.search(re.sub(r"吃了?|喝了?", "", c))
                   or re.search(r"诱因|受凉|着凉|进食|饮酒|搬|接触", c)]
        if clauses:
            return [replace(p, text=_AFTER_ALONE.sub("以后开始的", p.text)) for p in self._from("hpi", clauses, 2)]
        if _CHECKUP.match(self.text("chief_complaint")):
            return self._default("没什么原因，就是体检的时候查出来的")
        return self._default("也没什么特别的原因，自己就开始了")

    def _doing_at_onset(self) -> list[_Piece]:
        """当时在干什么: what the record says they were doing when it began (聚餐吃海鲜、喝啤酒后, 搬重物时) — a
        trigger told in the story up to the onset, not one of a later event (如厕时晕倒) — else nothing special."""
        order = [c for c, _ in self.hpi]
        onset = next((i for i, c in enumerate(order) if _TIME.search(c)), 0)
        clauses = [c for c in order[:onset + 2] if _TRIGGER_C.search(c) and not _DENIAL.match(c)
                   and not _ARRIVAL.search(c) and (order.index(c) <= onset or not _TIME.search(c))]
        # the doing is an item of its own (triggers:doing), so a compound question's part keeps its answer
        got = self._from("hpi", clauses, 1) or self._default("当时也没干什么，突然就开始的")
        return [replace(p, text=_AFTER_ALONE.sub("以后开始的", p.text), keys=("triggers:doing",)) for p in got]

    def _relief(self, question: str) -> list[_Piece]:
        background = self._earlier_episode(background=True) if not _BEFORE_Q.search(question) else set()
        clauses = [c for c in self._hpi_with(_RELIEF_C, denials=False) if c not in background]
        if not clauses:
            # what has gone on without a break since it began (发作持续至今) was not relieved by rest either
            steady = [c for c, _ in self.hpi if re.search(r"持续(至今|存在|不缓解|不止)", c) and not _DENIAL.match(c)]
            if steady:
                return [_Piece(f"歇着也没好，{self._say(steady[0])}", "hpi", (steady[0],))]
        return self._from("hpi", clauses, 2) or self._default("也没发现怎么着能好点")

    def _onset_mode(self, question: str) -> list[_Piece]:
        """一下子来的还是慢慢来的: the record's 突然 / 逐渐 at the complaint's start."""
        if not _MODE_Q.search(question):
            return []
        clauses = [c for c, _ in self.hpi if _MODE_C.search(c) and not _DENIAL.match(c)]
        if not clauses:
            return []
        sudden = bool(re.search(r"突然|突发|骤然|急起|急性", clauses[0]))
        head = "是一下子来的" if sudden else "是慢慢来的"
        return [_Piece(f"{head}，{self._lay_clauses(clauses[:1])}", "hpi", (clauses[0],))]

    def _relief_asked(self, question: str) -> list[_Piece]:
        """歇一会儿能缓过来吗 heard as the course or duration: what the record says relieves it, and how long
        an episode lasts when asked (要几分钟)."""
        if not _RELIEF_Q.search(question):
            return []
        clauses = self._hpi_with(_RELIEF_C, denials=False)
        if re.search(r"几分钟|多少分钟|多长时间|多久", question):
            clauses = self._hpi_with(re.compile(r"每次|持续(约|\d)|\d+\s*[–\-～~]?\s*\d*\s*分钟"), denials=False) + clauses
        return self._from("hpi", clauses, 2)

    def _course(self, question: str) -> list[_Piece]:
        pieces: list[_Piece] = self._steady_or_bouts(question) or self._onset_mode(question) \
            or self._relief_asked(question)
        if pieces:
            return pieces
        if _TIME_OF_DAY_Q.search(question):
            # 白天还是夜里厉害: the clause that says when (偶有夜间呛咳), else not noticed — never another
            # symptom's course or what the medicine did
            when = [c for c, _ in self.hpi if _TIME_OF_DAY_C.search(c) and not _DENIAL.match(c)]
            return self._from("hpi", when, 1) or [_Piece("什么时候更厉害我倒没太注意", content=False)]
        before = bool(_BEFORE_Q.search(question))
        change = bool(_CHANGE_Q.search(question)) or not before
        if change:
            clauses = [c for c in self._hpi_with(_COURSE_C, denials=False) if not _ARRIVAL.search(c)
                       and not c.startswith("夜尿")]  # how often one passes water at night is no course
            pieces += self._from("hpi", clauses, 2)
        if before:
            clauses = [c for c in self._hpi_with(_BEFORE_C, denials=False)]
            clauses += [c for c in self._clauses("past_history") if re.search(r"类似|反复|发作|曾", c)]
            episode = [c for c, _ in self.hpi if c in self._earlier_episode()]
            if episode and episode[0] in clauses:
                # an earlier episode is told whole: when, how long it took to go, what was done (1年前…有过1次类似
                # 发作，约1周自行缓解，未就诊)
                clauses = episode + [c for c in clauses if c not in episode]
            got = self._from("hpi", clauses, 3 if episode else 2)
            pieces += got or self._default("以前没这样过，这是头一回")
        if change and not any(p.content and p.sources for p in pieces):
            pieces += self._default("一直是这样，没见好，也没有更重")
        return pieces

    def _treatment(self, question: str) -> list[_Piece]:
        therapies = list(dict.fromkeys(_NONDRUG_Q.findall(question)))
        if therapies:
            # 做过理疗、针灸、推拿没有: treatments without a medicine, told from the record, else not had —
            # never answered with the medicines (外用膏药) when no medicine was asked
            done = [c for f in ("hpi", "medications", "past_history") for c in self._clauses(f)
                    if any(t in c for t in therapies) and not _DENIAL.match(c)]
            said = self._from(self._fields.get(done[0], "hpi"), done, 2) if done else \
                self._default(f"没做过{'、'.join(therapies)}")
            if not re.search(r"药|吃|打针|输液", question):
                return said
            return said + [p for p in self._treatment(_NONDRUG_Q.sub("", question)) if p.content or p.default]
        if _OXYGEN_Q.search(question):
            told = [c for f in ("hpi", "medications", "past_history", "personal_history") for c in self._clauses(f)
                    if "氧" in c]
            return self._from(self._fields.get(told[0], "hpi"), told, 2) if told else \
                self._default("家里没有制氧机，平时也不吸氧")
        clauses = []
        earlier = self._earlier_episode() if not _BEFORE_Q.search(question) else set()
        for clause, _ in self.hpi:
            if not _TREAT_C.search(clause) or _ARRIVAL.search(clause) or clause in earlier:
                continue
            clauses.append(clause)
        # a clause with a result after its colon (昨日在门诊复查血常规：WBC…): the visit is theirs to tell
        for clause in textlink.clauses(self.text("hpi")):
            head = re.split(r"[：:]", clause)[0]
            if head != clause and _TREAT_C.search(head) and not _VALUE.search(head):
                clauses.append(head)
        visits = [c for c in clauses if _VISIT_C.search(c)]
        others = [c for c in clauses if c not in visits]
        doctor = bool(_DOCTOR_Q.search(question)) and not re.search(r"药", question)
        # a visit another section tells (规律产检, 曾住院治疗): never 还没去医院看过
        seen = [c for f in ("menstrual_obstetric_history", "past_history") for c in self._clauses(f)
                if _CHECKED_C.search(c) and not _DENIAL.match(c)]
        if doctor:
            pieces = self._from("hpi", visits + others, 3) if visits else \
                self._from(self._fields.get(seen[0], "past_history"), seen, 2) if seen else \
                self._default("还没去医院看过") + self._from("hpi", others, 2)
        else:
            pieces = self._from("hpi", others + visits, 3)
        meds = self.text("medications")
        if meds and (_ACUTE_MED.search(meds) or _SELF_MED.search(meds)):
            pieces += self._from("medications", self._clauses("medications"), 3)
        elif meds and _NOW_AND_THEN.search(meds):
            # a drug the story already tells (自服铝碳酸镁) is not told twice from the list
            told = "".join(s for p in pieces for s in p.sources)
            pieces += self._from("medications", [c for c in self._clauses("medications") if _NOW_AND_THEN.search(c)
                                                 and not any(d in told for d in drugs_in(c))], 2)
        if not pieces and re.search(r"现在|目前|在吃|在用", question) and meds:
            pieces += self._medications()
        # (a medicine taken now and then for relief, 间断口服双氯芬酸钠止痛, is taken because it helps)
        taken = [p for p in pieces if p.content and not p.default and p.field in ("hpi", "medications")
                 and any(_TAKEN_C.search(s) and not _NOW_AND_THEN.search(s) and (_SELF_MED.search(s) or _ACUTE_MED.search(s))
                         for s in p.sources)]
        if taken and _EFFECT_Q.search(question) and not any(_EFFECT_C.search(s) for p in pieces for s in p.sources):
            # 管用吗, of a medicine taken for this illness the record gives no effect for: the complaint it
            # was taken for brought them here, so it did not make it go away (a relief for a while is not denied)
            pieces += self._default("吃了也没完全好")
        if pieces:
            return pieces
        if doctor and not seen:
            return self._default("还没去别的地方看过，直接来的这儿")
        denied = bool(meds) and bool(_DENIAL.match(meds.strip()))
        regular = self._medications() if (meds and not denied) or (not meds and self._treated_before()) else []
        if any(p.content and not p.default for p in regular):
            # a regimen the record holds (外用膏药, 抗结核治疗1月余) is what they took: never 没吃什么药
            return self._default("没另外吃别的药") + regular
        return self._default("来之前没吃什么药，也没去别的地方看过")

    def _treated_before(self) -> bool:
        """Whether the past history tells a treatment going on (因结核病行抗结核治疗1月余), the regimen the
        medicines question must not deny when the medications section is empty."""
        return any(_REGIMEN_C.search(c) and not _DENIAL.match(c)
                   for c in textlink.clauses(self.policy.text("past_history") or ""))

    def _earlier_episode(self, *, background: bool = False) -> set[str]:
        """The hpi clauses telling an episode years before this one (1年前…有过1次类似发作，约1周自行缓解，未就诊):
        what was done then (未就诊) is no answer to what was done this time. ``background`` adds a history of
        recurrences told after the present onset (近半年反复出现剑突下隐痛…可自行缓解): what eased those is not
        what eases the pain now."""
        out: set[str] = set()
        inside = False
        timed = 0
        for clause, _ in self.hpi:
            if _TIME.search(clause) or _RECENT_SPAN.search(clause):
                timed += 1
                inside = bool(re.search(r"\d+\s*年前", clause) and _EARLIER_C.search(clause)) or (
                    background and timed > 1 and bool(re.search(r"反复|曾|既往|类似|有过", clause)))
            if inside:
                out.add(clause)
        return out

    def _general(self, question: str) -> list[_Piece]:
        pieces: list[_Piece] = []
        if _LAST_MEAL_Q.search(question):
            meal = [c for c in self._clauses("hpi") + self._clauses("personal_history") if _LAST_MEAL.search(c)]
            # the record silent on it: the patient would know, so no 不清楚 — and no time made up
            pieces += self._from("hpi", meal, 1) or [_Piece("最后一顿几点吃的……我这会儿一下子想不起来了", content=False)]
            question = _LAST_MEAL_Q.sub("", question)
            if not any(g[1].search(question) for g in _GENERAL):
                return pieces
        colour = self._colour(question)
        if colour:
            return pieces + colour
        asked = [g for g in _GENERAL if g[1].search(question)] or \
            [g for g in _GENERAL if g[0] in ("appetite", "water", "sleep")]
        if any(g[0] == "salt" for g in asked) and not re.search(r"胃口|食欲|饭量|吃得下|吃不下|能吃", question):
            asked = [g for g in asked if g[0] != "appetite"]  # 吃饭口重不重 asks how salty, not how much
        complaint = [f for f in self.complaint if f.polarity == "present" and not f.family]
        terms = {f.term for f in complaint}
        for name, _, record_words, normal in asked:
            if name == "bowels" and (re.search(r"大便习惯|排便习惯", question) or _HABIT_Q.search(question)
                                     and not re.search(r"今天|今早|最近|这几天|这两天", question)):
                habit = [c for c, _ in self.hpi if re.search(r"平时|平素|习惯|既往", c) and "便" in c]
                pieces += self._from("hpi", habit, 2) or self._default("平时大便还算正常，习惯没什么变化")
                continue
            # mood is the personal history's (近1年工作压力大), not a trigger in the story
            clauses = [c for c, _ in self.hpi if record_words.search(c)] if name != "mood" else []
            clauses += [c for c in self._clauses("personal_history") if record_words.search(c)]
            if name == "appetite" and not _GENERAL_BY_NAME["water"][1].search(question):
                # 平素饮水少 answers 水喝得多不多, not 胃口怎么样
                clauses = [c for c in clauses if not re.search(r"喝水|饮水", c) or re.search(r"食|饭|吃|纳|奶", c)]
            if clauses:
                # the clauses that say what was asked first (大便里有没有血、黏液: 无黏液脓血)
                asked_grams = _content_grams(_ASK_NOISE.sub("|", question))
                clauses.sort(key=lambda c: -len(asked_grams & (textlink.bigrams(c) | _content_grams(self._say(c)))))
                clauses = list(dict.fromkeys(clauses))[:2]
                # of a list (无咳嗽、腹泻、尿频尿痛) the parts of this function only (无腹泻)
                said = self._lay_clauses([_parts_saying(c, record_words) for c in clauses])
                if said not in {p.text for p in pieces}:
                    pieces.append(_Piece(said, "hpi", tuple(clauses)))
                continue
            if name == "appetite" and terms & {"恶心", "呕吐"}:
                pieces += self._default("恶心难受，不太想吃东西")
            elif name == "bowels" and terms & {"腹泻", "便秘", "黑便", "便血"}:
                pieces += self._symptom_lines(terms & {"腹泻", "便秘", "黑便", "便血"})
            elif name == "urine" and terms & {"尿频", "尿急", "尿痛", "血尿", "少尿"}:
                pieces += self._symptom_lines(terms & {"尿频", "尿急", "尿痛", "血尿", "少尿"})
            elif name == "spirits" and ("乏力" in terms or self.present_anywhere & {"乏力", "嗜睡", "精神萎靡"}):
                pieces += self._default("没什么精神，浑身没劲") if "乏力" not in terms else self._symptom_lines({"乏力"})
            elif name == "drinks":  # the drinks asked (甜饮料 is no 茶、咖啡), else tea and coffee
                named = [w for w, q in (("茶", r"茶(?![色样])"), ("咖啡", r"咖啡(?![色样])"), ("饮料", r"饮料|可乐"))
                         if re.search(q, question)] or ["茶", "咖啡"]
                # an item asked by name (general:drinks), so a compound question's part keeps its no
                pieces += [replace(p, keys=("general:drinks",)) for p in self._default(
                    ("平时孩子" if self.subject != "我" else "平时") + "不怎么喝" + "、".join(named))]
            elif normal:  # no stock answer where the record is the only source (运动多吗)
                pieces += self._default(normal if self.subject == "我" else normal.replace("平时", f"平时{self.subject}", 1))
        return pieces

    def _colour(self, question: str) -> list[_Piece]:
        """大便颜色有没有变浅 / 尿颜色像不像浓茶: the colour the record gives it (黄色水样便), else its denial of
        blood in it (无肉眼血尿), else what a patient who looks says of an unremarked colour."""
        m = _COLOUR_Q.search(question)
        if not m:
            return []
        urine = bool(re.search(r"尿|小便", m.group(0)))
        said = _URINE_COLOUR_C if urine else _STOOL_COLOUR_C
        clauses = [c for c, _ in self.hpi if said.search(c) and not _RELATIVE.search(c)]
        told = [c for c in clauses if not _DENIAL.match(c)] or clauses
        if told:
            # of a list (无肉眼血尿、皮疹) the part on it only
            return [_Piece(self._lay_clauses([_parts_saying(told[0], said)]), "hpi", (told[0],), keys=("general",))]
        if self.present_anywhere & ({"黄疸", "血尿", "浓茶色尿", "尿色加深"} if urine else {"黑便", "便血", "陶土样便", "黄疸"}):
            return [_Piece("颜色这个我没太注意", content=False)]
        return self._default("尿的颜色跟平时差不多" if urine else "大便颜色跟平时差不多")

    def _symptom_lines(self, terms: set[str]) -> list[_Piece]:
        return [self._symptom(t) for t in sorted(terms)]

    def _other_symptoms(self) -> list[_Piece]:
        """还有别的不舒服吗: the other symptoms the patient has (a patient lists what they feel, not
        what they do not)."""
        from medsim.sim.topics import _symptom_canon

        symptoms = _symptom_canon()
        main = self._main_term()
        # (停经7周 is how far a late period or a pregnancy is, no other complaint)
        present = [c for c, _ in self.hpi if not _DENIAL.match(c) and not re.match(r"^(既往|以前|曾|平时)", c)
                   and not _GESTATION_SAID.search(c) and any(f.polarity == "present" and not f.family and f.term in symptoms and f.term != main
                           and f.term not in _DETAIL_TERMS
                           and not (main and _PAIN.search(main) and _PAIN.search(f.term)) for f in textlink.findings(c))]
        return self._from("hpi", present, 3) or self._default("别的倒也没什么不舒服")

    def _symptom(self, symptom: str) -> _Piece:
        # a finding with no lay name of its own (嗳气, 饮水呛咳) is said through the word table, never as charted
        # (a lay form that is itself an amount, 尿里泡沫多, would be denied as 没有尿里泡沫多: the term stays)
        said = lay.clause_to_lay(symptom)
        lay_name = vocab.SYMPTOMS.get(symptom, (None, ()))[0] or (said if said and not re.search(r"[多少]$", said)
                                                                 else symptom)
        kinds = {symptom, *vocab.SYMPTOM_UMBRELLAS.get(symptom, ())}
        for field in ("hpi", "chief_complaint"):
            if not self.policy.allowed(field):
                continue
            for clause in textlink.clauses(self.policy.text(field)):
                if lay.is_jargon(clause) or (_DENIAL.match(clause) and _OTHERS_Q.search(clause)):
                    continue  # 无其他部位皮疹 denies it elsewhere, not where it is (asked elsewhere: _others_denied)
                found = textlink.findings(clause)
                hits = [f for f in found if f.term in kinds and not f.family]
                if not hits:
                    continue
                polarity = hits[0].polarity
                counted = _NOCTURIA.search(clause) if symptom == "夜尿增多" else None
                if counted and (said := lay.nights_said(int(counted.group(2) or counted.group(1)))):
                    return _Piece(said, field, (clause,))  # 夜尿0～1次/夜 is a count, not more than usual
                if polarity == "absent" and _AS_USUAL.search(clause) and not _DENIAL.match(clause):
                    # 自觉胎动正常: a function that goes on as usual is there, not denied
                    return _Piece(self._say(clause), field, (clause,))
                if polarity == "absent":
                    return _Piece(_denied(lay_name), field, (clause,))
                if polarity == "uncertain":
                    return _Piece(f"好像有点{lay_name}，说不准", field, (clause,))
                unit = self.units.get(clause, (clause,))
                if _FOUND_BECAUSE.search(clause):
                    # 1年前因头痛测血压升高: the symptom is how something was found then, not a yes now
                    return _Piece(self._say(clause), field, (clause,))
                mixed = len({f.polarity for f in found if not f.family}) > 1
                if mixed and len(unit) == 1:
                    return _Piece(_affirmed(lay_name), field, unit)  # 伴大汗、未呕吐 asked 大汗: just that one
                return _Piece(f"有，{self._say_unit(unit)}", field, unit)
        stem = _STEMS.get(symptom)
        if stem:
            # a finding the text layer did not name (咳白色黏痰 for 有痰吗): never denied, told from its clause
            for field in ("hpi", "chief_complaint"):
                for clause in self._clauses(field):
                    hit = re.search(stem, clause)
                    if hit and not re.search(r"(无|未|否认|没有|不伴)[^，。；]*(" + stem + ")", clause) \
                            and not _RELATIVE.search(clause) and not local_warmth_at(clause, hit.start()):
                        unit = self.units.get(clause, (clause,))
                        return _Piece(f"有，{self._say_unit(unit)}", field, unit)
        if self.policy.allowed("past_history"):
            # 摔倒过没有 with the history's 否认近期感冒及头部外伤: that statement answers, never 没太注意
            for clause in self._clauses("past_history"):
                hits = [f for f in textlink.findings(clause) if f.term in kinds and not f.family]
                if hits and hits[0].polarity == "absent":
                    return _Piece(self._say(clause), "past_history", (clause,))
        if symptom in self.present_anywhere:
            return _Piece(f"{lay_name}这个我没太注意", content=False)
        if symptom in _NORMAL_FUNCTIONS:
            # a function whose absence is the finding (停止排气): a record silent on it has it going on as usual
            return _Piece(_NORMAL_FUNCTIONS[symptom], default=True)
        return _Piece(_denied(lay_name), default=True)

    # ---- named content

    def _index_units(self) -> dict[str, tuple[str, ...]]:
        """Each sayable record clause with the details that follow it in its sentence
        (发热 → 发热，最高39.2℃; 咳嗽 → 咳嗽，咳黄色黏痰): asked about, the whole statement is told."""
        units: dict[str, tuple[str, ...]] = {}
        self._fields: dict[str, str] = {}
        for field in PATIENT_FIELDS:
            if field == "demographics" or not self.policy.allowed(field):
                continue
            for sentence in textlink.sentences(self.policy.text(field)):
                for i, clause in enumerate(sentence):
                    if lay.is_jargon(clause, history=field == "past_history") or clause in units:
                        continue
                    unit = [clause]
                    for nxt in sentence[i + 1:i + 4]:
                        if not _is_detail(nxt):
                            break
                        unit.append(nxt)
                    units[clause] = tuple(unit)
                    self._fields[clause] = field
        # a statement is recognised by all its words (近期照顾住院老伴，劳累 answers 近期劳累)
        # recognised by its record words and by the patient's (整泡尿都红 for 为全程血尿)
        self._grams = {c: set().union(*(textlink.bigrams(lay.strip_narrator(x)) | _content_grams(self._say(x))
                                        for x in u)) for c, u in units.items()}
        self._terms = {c: {t for t, _, _ in textlink.find_terms(c)} - {"疼痛"} for c in units}
        self._polar = {c: {f.term: f.polarity for f in textlink.findings(c)} for c in units}
        self._affirmed = {t for c in units for t, p in self._polar[c].items() if p == "present"}
        return units

    def _named(self, question: str) -> list[_Piece]:
        """Record statements the question names in its own words (请问：发热最高几度；咳什么样的痰？
        / 视力有没有下降): a clinician who asks about a specific detail is told that detail, and
        a compound question is not met with 没听明白. Only sayable clauses are candidates (no
        results, no diagnosis): the question's words pick among them, they never add to them."""
        pieces: list[_Piece] = []
        for segment in re.split(r"[；;？?。！!\n]", question):
            hits = self._segment_hits(segment)
            keys = tuple(self._keys(_without_context(classify(segment), segment))) if hits else ()
            for clause, option_only in hits:
                # an option the clause says (暗红) is answered by that clause, not its whole statement
                unit = (clause,) if option_only else self.units[clause]
                if len(unit) == 1 and self._terms.get(clause) and self._terms[clause] <= self.cc_terms \
                        and re.fullmatch(r"[伴有并及和、]*\w{1,4}", clause) and clause.strip("伴有并及和、") in self.cc_terms:
                    continue  # a bare 咳嗽 of the complaint tells nothing the question asks (咳嗽什么时候最厉害)
                # a named item's key only for the clause that names it (暗红 does not answer 有没有血块)
                own = tuple(k for k in keys if ":" not in k or k.split(":", 1)[1] in self._terms[clause]
                            | set(self._polar[clause]))
                pieces.append(_Piece(self._say_unit(unit), self._fields.get(clause), unit, keys=own or ("named",),
                                     named=True))
        return pieces

    def _segment_hits(self, segment: str) -> list[tuple[str, bool]]:
        grams = textlink.bigrams(_ASK_NOISE.sub("|", segment))
        # a finding named only as when (尿血的时候…) picks no clause
        terms = {t for t, s, e in textlink.find_terms(segment) if not _WHEN.match(segment[e:e + 9])
                 and segment[max(s - 1, 0):s] != "抗"} - {"疼痛"}  # 抗过敏的药 names a medicine, not an allergy
        # a body site beside the finding asked (肚子被撞过 asks 外伤) is where, not what: it picks no
        # clause of its own (腹部发硬不放松)
        sites = {t for t in terms if body_parts().fullmatch(t)}
        if terms - sites:
            terms -= sites
        relative = bool(_RELATIVE.search(segment))
        close_cc = not self.hpi  # with no hpi to tell, the complaint itself is the answer
        # the complaint's own symptom named in a question about its care (止血药用了以后尿血好没好) is
        # the object of the treatment, not the detail asked: its clauses are not the answer
        if terms & self.cc_terms and set(classify(segment).topics) & {"treatment", "tests", "medications", "site"}:
            terms -= self.cc_terms
        scored: list[tuple[int, str]] = []
        elsewhere = bool(_OTHERS_Q.search(segment))
        for clause, cgrams in self._grams.items():
            if self._fields.get(clause) == "chief_complaint" and not close_cc:
                continue  # the complaint is in the opening; a yes/no about its symptom is answered from the hpi
            if not elsewhere and _DENIAL.match(clause) and _OTHERS_Q.search(clause):
                continue  # 无其他部位皮疹 answers 别处有没有, never 有没有起疹子
            shared = len(grams & cgrams) if len(grams) >= 2 else 0
            close = shared >= 2 and (shared >= 0.5 * len(grams) or shared >= 0.6 * len(cgrams)
                                     or (shared >= 0.25 * len(grams) and shared >= 0.25 * len(cgrams)))
            # words shared with another person's history (家里人有高血压吗 vs 否认高血压史) do not answer
            close = close and (self._fields.get(clause) == "family_history") == relative
            # a finding named in the question is answered from the clause that records it,
            # the patient's own or a relative's as the question asks (母亲哮喘 → 母亲有支气管哮喘)
            shared_terms = terms & self._terms[clause]
            # a term the clause denies (因无发热未处理) answers it only if no clause affirms it
            shared_terms = {t for t in shared_terms if self._polar[clause].get(t) != "absent" or t not in self._affirmed}
            named = bool(shared_terms) and bool(_RELATIVE.search(clause)) == relative
            chosen = self._option_in(segment, clause)
            if close or named or chosen:
                scored.append((shared + 2 * named + 2 * chosen, clause, chosen and not (close or named)))
        # a choice question is answered by the clauses that say one of its options (是干咳还是有痰:
        # 初为刺激性干咳), not by every clause that shares a word with it
        if any(only or self._option_in(segment, c) for _, c, only in scored) and _CHOICE.search(segment):
            scored = [h for h in scored if self._option_in(segment, h[1])]
        return [(c, only) for _, c, only in sorted(scored, key=lambda h: -h[0])[:4]]

    def _option_in(self, segment: str, clause: str) -> bool:
        """A choice question (鲜红的还是暗红的, 一直疼还是一阵一阵的) whose one option the clause says
        (色暗红): the option's words, two characters or more, in the clause or its lay form."""
        if not _CHOICE.search(segment):
            return False
        said = f"{clause}|{self._say(clause)}"
        for option in _CHOICE.split(segment):
            option = _OPTION_NOISE.sub("|", option)
            for word in re.split(r"\|+", option):
                # a body site alone (肚子 of 肚子被撞过还是摔倒过) is where the options happen, not one
                if 2 <= len(word) <= 6 and word not in _WEAK and not _NOT_OPTION.search(word) and word in said \
                        and not body_parts().fullmatch(word):
                    return True
                # a longer option by its four-character parts (一阵一阵绞着 says 一阵一阵)
                if any(not _NOT_OPTION.search(w) and w in said for w in (word[i:i + 4] for i in range(len(word) - 3))):
                    return True
        return False

    def _say_unit(self, unit: tuple[str, ...]) -> str:
        unit = tuple(_asked_parts(list(unit), self.asked_terms))
        # a clause that opens with 伴 continues a sentence; alone it starts plainly
        return "，".join(self._say(re.sub(r"^(伴有|伴|并|且)", "", c) if i == 0 else c) for i, c in enumerate(unit))

    # ---- history

    def _whole(self, field: str) -> list[_Piece]:
        said, sources = lay.record_to_lay(self.policy.text(field), literacy=self.persona.literacy, subject=self.subject,
                                          history=field == "past_history")
        if not said:
            return []
        return [_Piece(said, field, tuple(sources))]

    def _past(self, question: str, conditions: list[str]) -> list[_Piece]:
        demo = self.case.demographics
        if _ABORTION_Q.search(question) and demo and demo.sex == "女" and demo.age_years >= 12:
            return self._women("obstetric", question)
        if _CONTACT_Q.search(question):
            return self._contacts(question, conditions)
        from medsim.sim.topics import _condition_canon

        # (对啥药过敏 beside a history question is the allergy question's, answered there, not 没有过敏 here)
        named = [t for t, _, _ in textlink.find_terms(question) if t in _condition_canon() and t not in conditions
                 and not any(t in _covers(c) for c in conditions) and t not in ("过敏", "过敏反应", "药物过敏")]
        conditions = list(dict.fromkeys([*conditions, *named]))
        conditions = [c for c in conditions if not re.search(rf"(?:{'|'.join(map(re.escape, _names_of(c)))})疫苗", question)]
        pieces: list[_Piece] = [self._condition("past_history", c, question) for c in conditions
                                if c not in ("手术", "输血", "外伤")]
        clauses = self._clauses("past_history")
        if _SURGERY_Q.search(question) or "手术" in conditions:
            ops = [c for c in clauses if re.search(r"手术|术后|切除|术|开刀", c)]
            # an operation the obstetric history holds (已行输卵管结扎, 剖宫产1次) is one she had
            women = [c for c in self._clauses("menstrual_obstetric_history") if _WOMENS_OPERATION.search(c)]
            pieces += self._from("past_history", ops, 2) + self._from("menstrual_obstetric_history", women, 2) \
                or self._default("没做过手术")
        if _HOSPITAL_Q.search(question):
            pieces += self._stays()
        if "输血" in conditions:
            pieces += self._from("past_history", [c for c in clauses if "输血" in c], 1) or self._default("没输过血")
        if "外伤" in conditions:
            hurt = [c for c in clauses if "外伤" in c or "伤" in c] or [c for c, _ in self.hpi if "外伤" in c]
            pieces += self._from("past_history", hurt, 1) or self._default("没受过什么伤")
        if _VACCINE_Q.search(question):
            shots = [c for c in clauses + self._clauses("personal_history") if re.search(r"疫苗|接种", c)]
            adult = self.case.demographics is not None and self.case.demographics.age_years >= 18
            pieces += self._from("past_history", shots, 2) or self._default(
                "这些疫苗好像没打过" if adult else "疫苗都按时打了")
        from medsim.sim.topics import _symptom_canon

        if not pieces and not _OPEN_ILLNESS_Q.search(question) and any(
                t in _symptom_canon() for t, _, _ in textlink.find_terms(question)):
            # 以前吐过血没有 / 以前有没有胃疼、反酸: symptoms asked of the past are answered from the past
            # clauses about them, never with the whole section (its blood pressure and all)
            about = [c for c in clauses if len(gist.shared(question, c + self._say(c))) >= 2]
            return self._from("past_history", about, 2) or self._default("以前没有过这种情况")
        open_q = _OPEN_PAST_Q.search(question) if not conditions else _OPEN_ILLNESS_Q.search(question)
        if not pieces or (open_q and (_OPEN_ILLNESS_Q.search(question)
                                      or not (_SURGERY_Q.search(question) or _HOSPITAL_Q.search(question)))):
            whole = self._whole("past_history")
            if whole:
                pieces += whole
            elif not pieces:
                pieces += self._default("以前身体挺好的，没得过什么大病")
        elif conditions and _SEVERAL_Q.search(question):
            # a list of illnesses asked (高血压、心脏病、糖尿病): the record's clauses on any of them,
            # so one the question names but was not heard is answered too
            asked = {t for t, _, _ in textlink.find_terms(question)} | set(conditions)
            covered = set().union(*(_covers(c) for c in asked))
            whole = self._from("past_history", [c for c in clauses if any(
                f.term in covered or _covered_by(f.term, covered) for f in textlink.findings(c))], 3)
            if whole:
                pieces = [p for p in pieces if not (p.sources and set(p.sources) <= set(whole[0].sources))] + whole
        return pieces

    def _stays(self) -> list[_Piece]:
        """住过院没有: the stays the record tells (its history or its story), else none or the operation's."""
        clauses = self._clauses("past_history")
        stays = [c for c in clauses if "住院" in c] or [c for c, _ in self.hpi if "住院" in c]
        operated = [c for c in clauses if re.search(r"(?<!否认)手术|术后|切除", c) and not _DENIAL.match(c)]
        return self._from("past_history", stays, 2) or (
            self._default("做手术那次住过院") if operated else self._default("也没住过院"))

    def _contacts(self, question: str, conditions: list[str]) -> list[_Piece]:
        """身边有没有人得过肺结核: contact history from the personal history, else not that they know of."""
        clauses = [c for c in self._clauses("personal_history") + self._clauses("past_history")
                   if re.search(r"接触|密切|同住|身边|周围", c)]
        if clauses:
            return self._from("personal_history", clauses, 2)
        told = [c for c, _ in self.hpi if _CONTACT_C.search(c) and not _DENIAL.match(c)]
        if told:
            return self._from("hpi", told, 2)
        names = "、".join(_asked_name(c, question) for c in conditions) or "这种病"
        return [_Piece(f"没听说身边有人得过{names}", default=True, keys=("past_history",))]

    def _condition(self, field: str, condition: str, question: str = "") -> _Piece:
        text = self.text(field)
        lay_name = _asked_name(condition, question) if question else condition
        lay_name = vocab.LOW_LITERACY.get(lay_name, lay_name) if self.persona.literacy == "low" else lay_name
        if lay_name in _ORGANS:
            lay_name += "的病"  # 甲状腺 asked: 没有甲状腺的病, never 没有甲状腺
        covered = _covers(condition)
        if field == "past_history" and self.policy.allowed("hpi") and not re.search(r"怀孕|孕期|产后|小时候", question):
            # 有没有乙肝, of a patient whose story is its finding (体检发现乙肝表面抗原阳性): they know it now
            # (only the name asked and its own synonyms: an umbrella's kinds, 心脏病 → 房颤, would tell the
            # record's own reasoning as the patient's history)
            from medsim.text import get_lexicon

            asked = {condition, _asked_name(condition, question) if question else condition}
            names = {n for n in asked | {get_lexicon().canonical(n) or n for n in asked} if len(n) >= 2}
            # (the complaint and the story as written: a finding found at a check-up, 乙肝表面抗原阳性, is what
            # they were told, said as told, though the story's clause also holds a value)
            cc = self.policy.text("chief_complaint") or ""
            for field_, clause in [("chief_complaint", cc)] + [("hpi", c) for c in textlink.clauses(self.policy.text("hpi"))]:
                if clause and not _CONTACT_C.search(clause) and not _RELATIVE.search(clause) and any(
                        f.polarity == "present" and not f.family and any(f.term.startswith(n) for n in names)
                        for f in textlink.findings(clause)):
                    said = lay.complaint_to_lay(clause, literacy=self.persona.literacy, subject=self.subject) \
                        if field_ == "chief_complaint" else self._say(clause)
                    return _Piece(f"有，{said}", field_, (clause,))
        for clause in textlink.clauses(text):
            if _OTHERS_Q.search(clause) and covered & self.present_anywhere:
                continue  # 否认其他肝病史 denies liver disease other than the one this record finds (乙肝)
            hits = [f for f in textlink.findings(clause) if f.term in covered or _covered_by(f.term, covered)]
            if hits and not lay.is_jargon(clause, history=True):
                if hits[0].polarity == "absent":
                    return _Piece(f"没有{lay_name}", field, (clause,))
                return _Piece(f"有，{self._say(clause)}", field, (clause,))
            if _tells_condition_by_procedure(clause, covered) and not lay.is_jargon(clause, history=True):
                return _Piece(f"有，{self._say(clause)}", field, (clause,))
        if field == "past_history" and _NO_HISTORY.search(text):
            clause = next((c for c in textlink.clauses(text) if _NO_HISTORY.search(c)), text)
            # no name here: a general denial must not deny what the record finds (the diagnosis asked by name)
            if covered & self.present_anywhere:
                return _Piece(f"{lay_name}这个我不太清楚，以前没查过", content=False)
            return _Piece(f"没有，{self._say(clause)}", field, (clause,))
        if covered & self.present_anywhere:
            return _Piece(f"{lay_name}这个我不太清楚，以前没查过", content=False)
        return _Piece(f"没有{lay_name}", default=True)

    def _family(self, conditions: list[str], question: str = "") -> list[_Piece]:
        text = self.text("family_history")
        if not conditions and re.search(r"抽烟|吸烟", question):
            return self._default("家里也没人抽烟")  # 家里有人抽烟吗: second-hand smoke, not an illness
        if not conditions and _HOUSEHOLD_Q.search(question):
            return self._default("没有，家里没有这些")  # 烧柴火、养鸽子: the home, not the family's illnesses
        if len(conditions) >= 1 and _SEVERAL_Q.search(question) and _blanket_denial(text):
            return [_Piece("没有，家里没人得过这些病", "family_history", tuple(textlink.clauses(text)))]
        if conditions:
            return [self._family_condition(c, text, question) for c in conditions]
        whole = self._whole("family_history")
        if whole and not re.fullmatch(r"(无特殊|无|否认.*|体健|父母体健|家族史无特殊)[。；]?", text.strip()):
            return whole
        if text:
            return [_Piece("家里人都没什么大病", "family_history", (text,))]
        return self._default("家里人都没什么大病")

    def _family_condition(self, condition: str, text: str, question: str = "") -> _Piece:
        lay_name = _asked_name(condition, question)
        if self.persona.literacy == "low":
            lay_name = vocab.LOW_LITERACY.get(lay_name, lay_name)
        covered = _covers(condition) | _covers(lay_name)
        for clause in textlink.clauses(text):
            found = [f for f in textlink.findings(clause) if f.term in covered or _covered_by(f.term, covered)]
            if found:
                if found[0].polarity == "absent":
                    return _Piece(f"没有，家里没人得过{lay_name}", "family_history", (clause,))
                return _Piece(f"有，{self._say(clause)}", "family_history", (clause,))
            if _tells_condition_by_procedure(clause, covered):  # 哥哥放过心脏支架, asked 有冠心病吗
                return _Piece(f"有，{self._say(clause)}", "family_history", (clause,))
        if text and re.search(r"无特殊|否认|体健|无", text):
            return _Piece(f"没有，家里没人得过{lay_name}", "family_history", (text,))
        return _Piece(f"没听说家里人有{lay_name}", default=True)

    def _drugs_not_taken(self, question: str) -> list[_Piece]:
        """Medicines the question names that the record's lists do not (甘草片、避孕药吃不吃 of a patient
        on one antihypertensive): the patient knows what they take, so these are not taken. A class
        word (降压药) is left to the medication answer: its members are not listed here."""
        if not _TAKE_Q.search(question) or not (self.policy.allowed("medications") or self.policy.allowed("hpi")):
            return []
        named = [e.text for e in medsim.text.analyze(question).entities if e.type == "drug"]
        named = [d for d in dict.fromkeys(named) if len(d) >= 2 and not _DRUG_CLASS_WORD.search(d)]
        if not named:
            return []
        record = "".join(self.text(f) for f in ("medications", "hpi", "past_history", "personal_history"))
        # a class named (止痛片) is taken when one clause names a member (布洛芬缓释胶囊 0.3g bid): read clause by
        # clause, as the class test reads one concept
        # — a clause that denies the class (未服华法林或新型口服抗凝药) takes none of its members
        parts = [x for x in re.split(r"[，,。；;]", record) if x.strip() and not re.search(r"未|否认|没有|从不|不(吃|服|用)", x)]
        missing = [d for d in named if d not in record and not any(class_member(x, d) for x in parts)]
        if not missing:
            return []
        verb = "含" if "含" in question else "用" if re.search(r"用|打|输", question) else "吃"
        return [_Piece(f"没{verb}过{'、'.join(missing)}", "medications", tuple(f"not:{d}" for d in missing))]

    def _allergies(self) -> list[_Piece]:
        if self.policy.allowed("allergies") and self.policy.text("allergies"):
            return self._whole("allergies") or self._default("没发现对什么过敏")
        if self.policy.allowed("past_history"):
            clauses = [c for c in textlink.clauses(self.policy.text("past_history")) if "过敏" in c]
            if clauses:
                return [_Piece("，".join(self._say(c) for c in clauses), "past_history", tuple(clauses))]
        return self._from_field("allergies", lambda: self._default("没发现对什么过敏"))

    def _food_allergy(self, question: str) -> list[_Piece]:
        """对药物或者食物过敏吗 of a record that speaks of medicines only: what one eats is the patient's to
        know, so no food allergy is said, not left unanswered."""
        if not _FOOD_ALLERGY_Q.search(question) or not self.policy.allowed("allergies"):
            return []
        record = self.text("allergies") + self.text("past_history")
        if re.search(r"食物|海鲜|鸡蛋|牛奶|花生|虾|蟹|芒果|坚果", record):
            return []  # the record's own words on it are the allergy answer's
        return self._default("吃的东西也没过敏过")

    def _medications(self) -> list[_Piece]:
        text = self.text("medications")
        if text:
            if re.fullmatch(r"(无|无长期用药|无特殊|否认.*|无规律用药|未服药)[。；]?", text.strip()):
                return [_Piece("平时不吃什么药", "medications", (text,))]
            return self._whole("medications") or self._default("平时不吃什么药")
        if self.policy.allowed("past_history"):
            clauses = [c for c in textlink.clauses(self.policy.text("past_history"))
                       if _REGIMEN_C.search(c) and not lay.is_jargon(c)]
            if clauses:
                return [_Piece("，".join(self._say(c) for c in clauses), "past_history", tuple(clauses))]
        return self._from_field("medications", lambda: self._default("平时不吃什么药"))

    def _habit(self, topic: str, question: str) -> list[_Piece]:
        if topic == "smoking" and not _SMOKING_Q.search(question):
            return self._occupation()  # 接触粉尘、煤烟: an exposure at work, not smoking
        word = "烟" if topic == "smoking" else "酒"
        if topic == "drinking" and "酒" not in question and _GENERAL_BY_NAME["drinks"][1].search(question):
            return self._general(question)  # 喝茶吗: tea, not alcohol
        units: list[str] = []
        for sentence in textlink.sentences(self.text("personal_history")):
            for i, clause in enumerate(sentence):
                # 饮 is drinking only of alcohol (偶饮, 饮白酒), never of tea, water, coffee or food
                if word in clause or (topic == "drinking" and re.search(r"饮(?!食|茶|水|咖啡|料|奶|用)", clause)):
                    units.append(clause)
                    # the amount that follows it (吸烟40年，每日20支)
                    units += [c for c in sentence[i + 1:i + 3] if re.search(r"每[日天周月]|\d+\s*(支|包|两|ml|毫升|斤|瓶|次)", c)
                              and not re.search("酒" if topic == "smoking" else "烟", c)]
        units = list(dict.fromkeys(units))
        if units:
            said = self._lay_clauses(units)
            said = re.sub(r"(\d+)支", r"\1根", said)
            said = re.sub(r"(?<!\d)20根", "20根，差不多一包", said)
            if not re.search(r"^(不|无|否认|未|从不|没)|已戒|戒烟|戒酒", units[0]):
                said += _habit_details_unknown(topic, question, said)
            return [_Piece(said, "personal_history", tuple(units))]
        if not self.policy.allowed("personal_history") and self.policy.status("personal_history") is not None:
            return [_Piece(self.spec.unknown_reply, content=False)]
        if self.subject == "孩子":
            if re.search(r"家里|大人|爸|妈|二手", question):
                return self._default("家里没人抽烟" if topic == "smoking" else "孩子还小，不喝酒")
            return self._default("孩子还小，不抽烟也不喝酒")
        if not self.policy.text("personal_history") and self.case.demographics is None:
            return [_Piece(self.spec.unknown_reply, content=False)]
        return self._default("不抽烟" if topic == "smoking" else "不喝酒")

    def _occupation(self) -> list[_Piece]:
        pieces: list[_Piece] = []
        demo = self.case.demographics
        if demo and demo.occupation and self.policy.allowed("demographics"):
            occ = demo.occupation.strip()
            who = self.subject if self.subject not in ("孩子", "我") else "我"
            if occ.startswith("退休") and len(occ) > 2:
                said = f"{who}退休了，以前是{occ[2:]}"
            elif occ.startswith(("退休", "无", "待业")):
                said = f"{who}{occ}了" if occ in ("退休", "待业") else f"{who}{occ}"
            elif self.subject == "孩子":
                said = f"孩子是{occ}"
            else:
                said = f"{who}是{occ}" if not occ.endswith(("工作", "上班")) else f"{who}在{occ}"
            pieces.append(_Piece(said, "demographics", (occ,)))
        clauses = [c for c in self._clauses("personal_history")
                   if re.search(r"职业|从事|工作|工人|农民|教师|司机|退休|务农|职员|个体|接触|粉尘|化学|毒物", c)]
        pieces += self._from("personal_history", clauses, 2)
        if pieces:
            return pieces
        if self.subject == "孩子":
            age = demo.age_years if demo else 0
            return self._default("孩子还小，还没上学" if age < 3 else "孩子还小，在上幼儿园" if age < 7 else "孩子在上学")
        # a record silent on the job: an unscripted item, said plainly (a patient asked their job tells it; 有关系吗
        # is no answer), retired past the usual retiring age
        age = demo.age_years if demo else 0
        retired = age >= (55 if demo and demo.sex == "女" else 60)
        return self._default("已经退休了，平时也没接触过什么有毒有害的东西" if retired
                             else "就是普通上班的，平时也没接触过什么有毒有害的东西")

    def _women(self, topic: str, question: str) -> list[_Piece]:
        demo = self.case.demographics
        if demo and demo.sex == "男":
            who = "我" if self.subject == "我" else "他"
            return [_Piece(f"{who}是男的，没有这些情况", content=False)]
        if demo and demo.age_years < 10:
            return [_Piece("孩子还小，没有这些情况", content=False)]
        field = "menstrual_obstetric_history"
        text = self.text(field)
        clauses = self._clauses(field) + [c for c in self._clauses("personal_history") if re.search(r"婚|育|子|女|孕", c)]
        menopause = [c for c in clauses if "绝经" in c]
        weeks = self._pregnant_weeks()
        if topic == "menstrual" and weeks:
            # pregnant now: the last period is the start of the pregnancy, the due date follows from it
            told: list[_Piece] = []
            # a date, or how long ago (末次月经7周前): either tells when, so never 记不太准 beside it
            dated = [c for c in clauses if re.search(r"末次月经", c)
                     and re.search(r"\d+\s*[月.\-/年]\s*\d+|\d+\s*(周|天|个月)前", c)]
            # 停经7周 is a late period, not yet a known pregnancy (the lay words say the same: lay._before_table)
            now = f"现在怀孕{weeks}周了" if self._pregnancy_known() else f"月经已经{weeks}周没来了"
            if re.search(r"末次|最后一次|上次", question):
                told += self._from(field, dated, 1) or [_Piece(
                    f"上次来月经具体是哪天我记不太准了，{now}", field, (f"孕{weeks}周",))]
            if _DUE_Q.search(question):
                left = 40 - weeks
                told.append(_Piece(f"预产期还有差不多{left}周" if left > 0 else "已经到预产期了", field, ("预产期",)))
            if re.search(r"准|规律|按时|周期|平时|多少天|几天", question):
                told += self._from(field, [c for c in clauses if re.search(r"规律|周期|按时|\d+\s*[/／]\s*\d+", c)], 2)
            if told:
                return told
        if topic == "menstrual":
            asked = self._menses_asked(question, clauses)
            if asked:
                return asked
            picked = [c for c in clauses if _MENSES.search(c)]
            if picked:
                return self._from(field, picked, 4)
            if demo and demo.age_years >= 55:
                return self._default("早就绝经了")
            return self._default("月经还算规律") if text or self.policy.allowed(field) else \
                [_Piece(self.spec.unknown_reply, content=False)]
        # obstetric: a pregnancy now, or births and contraception
        if "避孕药" in question and self.policy.allowed("medications") and not re.search(
                r"避孕", text + self.text("medications") + self.text("hpi")):
            return [_Piece("没吃过避孕药", "medications", ("not:避孕药",))]  # the patient knows what they take
        births = self._births(field, clauses) if _BIRTHS_Q.search(question) or re.search(r"以前怀|上一胎|上次怀", question) \
            else []
        if _ABORTION_Q.search(question):
            return births + [p for p in self._abortions(field, clauses) if not births or p.text != births[-1].text]
        if re.search(r"怀孕|怀上|有了|可能|妊娠", question) and not _BIRTHS_Q.search(question):
            if menopause:
                return [_Piece(f"不可能，{self._say(menopause[0])}", field, (menopause[0],))]
            picked = [c for c in clauses if re.search(r"孕|妊娠|停经|避孕|结扎|未婚|否认妊娠|怀", c)]
            picked += [c for c, _ in self.hpi if re.search(r"停经|孕\d|妊娠", c)]
            if picked:
                got = self._from(field, picked, 2)
                if any("结扎" in c for c in picked):
                    got[0].text += "，应该不会怀上"
                return got
            if demo and demo.age_years >= 55:
                return self._default("不可能，早就绝经了")
            return self._default("应该没有")
        if births:
            return births
        picked = [c for c in clauses if _OBSTETRIC.search(c)]
        # births first (G2P1, 5年前足月顺产1次), then the rest (本次妊娠规律产检)
        picked.sort(key=lambda c: not _BIRTH_C.search(c))
        if picked:
            return self._from(field, picked, 3)
        return [_Piece(self.spec.unknown_reply, content=False)]

    def _menses_asked(self, question: str, clauses: list[str]) -> list[_Piece]:
        """末次月经是哪天 / 周期准不准 / 一次来几天: the part of the periods asked (the hpi's account of
        them first, it is the current one), not the whole menstrual history read out."""
        field = "menstrual_obstetric_history"
        now = [c for c, _ in self.hpi if re.search(r"月经|经期|周期|卫生巾|血块|痛经|经间期", c)]
        pieces: list[_Piece] = []
        told: set[str] = set()
        for asked, says, silent in _MENSES_ASPECTS:
            if not asked.search(question):
                continue
            # the part's clauses from the first source telling it, two at most: 平素月经规律，周期28–30天 both
            # answer 准不准、多少天来一次
            hits = next(([(f, c) for c in pool if says.search(c) and c not in told][:2]
                         for f, pool in (("hpi", now), (field, clauses))
                         if any(says.search(c) and c not in told for c in pool)), [])
            if hits:
                told.update(c for _, c in hits)
                pieces += [replace(p, keys=("menstrual:asked", "menstrual")) for p in self._from(hits[0][0], [c for _, c in hits], 2)]
            elif silent:
                # what a woman knows of her own periods: the record's silence is no
                pieces += [replace(p, keys=("menstrual:asked", "menstrual")) for p in self._default(silent)]
        return pieces

    def _births(self, field: str, clauses: list[str]) -> list[_Piece]:
        """第几次怀孕、生过几个: from G and P (G1P0 while pregnant: the first pregnancy, no child yet),
        then the births the record tells (5年前足月顺产1次)."""
        gp = next(((c, m) for c in clauses if (m := re.search(r"[Gg](\d+)[Pp](\d+)", c))), None)
        if not gp:
            return []
        clause, m = gp
        g, p = int(m.group(1)), int(m.group(2))
        pregnant = bool(self._pregnant_weeks())
        if pregnant:
            said = "这是头一回怀孕" if g == 1 else f"这是第{g}次怀孕"
        else:
            said = f"怀过{g}次孕"
        said += "，以前没生过孩子" if p == 0 else f"，生过{p}次"
        told = [c for c in clauses if c != clause and re.search(r"顺产|剖宫|剖腹|分娩|早产|育有|\d[子女]", c)]
        pieces = [_Piece(said, field, (clause, "births"))]
        if told:
            pieces += self._from(field, told, 2)
        return pieces

    def _first_pregnancy(self) -> bool:
        """Pregnant now with a G1 in the record: there is no earlier pregnancy to tell of."""
        text = self.text("menstrual_obstetric_history")
        return bool(self._pregnant_weeks() and re.search(r"[Gg]1[Pp]0", text))

    def _pregnant_weeks(self) -> int | None:
        """The weeks of a pregnancy now (孕34周 in the complaint or the story), if the record says."""
        for field in ("chief_complaint", "hpi"):
            m = re.search(r"(?:孕|怀孕|停经)(\d+)(?:\s*[+⁺]\s*[\d⁰¹²³⁴⁵⁶]+)?周", self.text(field))
            if m:
                return int(m.group(1))
        return None

    def _pregnancy_known(self) -> bool:
        """Is the pregnancy one she knows of: named as such (孕34周, 怀孕), confirmed by a test, or a late period
        long enough (12 weeks, the first antenatal visit) that it has been — not 停经7周 alone."""
        text = self.text("chief_complaint") + self.text("hpi") + self.text("menstrual_obstetric_history")
        late = re.search(r"停经(\d+)", text)
        return bool(re.search(r"(?<!停经)(?<!未)(孕\d|怀孕|妊娠试验阳性|验孕|两道杠|产检|胎动|(?<!确认)宫内(单胎|妊娠|孕))", text)) \
            or bool(late and int(late.group(1)) >= 12)

    def _abortions(self, field: str, clauses: list[str]) -> list[_Piece]:
        """流过产、刮过宫没有: what the record says, or what G and P say (G2P1 now pregnant: none)."""
        told = [c for c in clauses if re.search(r"流产|人流|药流|刮宫|清宫|引产|自然流产|[Aa]\d", c)]
        if told:
            return self._from(field, told, 2)
        gp = next((m for c in clauses if (m := re.search(r"[Gg](\d+)[Pp](\d+)", c))), None)
        if gp:
            lost = int(gp.group(1)) - int(gp.group(2)) - (1 if self._pregnant_weeks() else 0)
            if lost == 0:
                return [_Piece("没流过产，也没刮过宫", field, (gp.group(0), "abortions"))]
        return self._default("没流过产") if clauses else [_Piece(self.spec.unknown_reply, content=False)]

    def _age(self) -> list[_Piece]:
        demo = self.case.demographics
        if not demo or not self.policy.allowed("demographics"):
            return [_Piece(self.spec.unknown_reply, content=False)]
        age = demo.age_text.replace("月", "个月")
        return [_Piece(f"{self.subject}{age}了", "demographics", (demo.age_text,))]

    def _tests(self, question: str = "") -> list[_Piece]:
        """Tests the patient knows were done (the visit, not its numbers): 外院心电图示… → 在别的
        医院做过心电图; what a check-up found when the complaint is that finding."""
        if "血型" in question:
            group = [c for f in PATIENT_FIELDS if f != "demographics" for c in self._clauses(f) if "血型" in c]
            return self._from(self._fields.get(group[0], "past_history"), group, 1) if group else \
                [_Piece("血型我记不太清了", content=False)]
        heads: list[str] = []
        for clause in textlink.clauses(self.text("hpi")):
            if not _TEST_C.search(clause) or _DENIAL.match(clause) or re.match(r"^(既往|以前|曾)", clause):
                continue
            head = _RESULT_CUT.split(clause, maxsplit=1)[0].strip("，、 ")
            if head and _names_test(head) and not _VALUE.search(head):
                heads.append(head)
        # tests of the other history sections (本次妊娠规律产检，孕早期B超确认宫内单胎; 单位体检…)
        checked = [c for f in ("menstrual_obstetric_history", "past_history") for c in self._clauses(f)
                   if _CHECKED_C.search(c) and not _DENIAL.match(c) and not re.search(r"诊断|确诊|查出|诊为", c)]
        # a test with a result the patient may not read out (孕7周B超提示宫内早孕): that it was done is known
        for f in ("menstrual_obstetric_history", "past_history"):
            for clause in textlink.clauses(self.text(f)):
                head = _RESULT_CUT.split(clause, maxsplit=1)[0].strip("，、 ")
                if head != clause and _names_test(head) and not _DENIAL.match(clause) and not _VALUE.search(head):
                    heads.append(head)
        # the tests the question names, first: what the record knows of them (外院肾上腺CT…, 血脂异常2年,
        # 尿蛋白（±）) is told as checked, and a named test is never met with 没做过 when the record has it
        asked, known = self._asked_tests(question)
        if asked or known:
            heads = asked
        # 孕期规律产检 in the story: the check-ups were done
        checked += [c for c in self._clauses("hpi") if re.search(r"产检|体检|复查|随访", c) and not _DENIAL.match(c)
                    and not _VALUE.search(c) and not re.search(r"诊断|确诊|查出|诊为", c)]
        told = [_Piece("查过，" + self._say(c), self._fields.get(c, "past_history"), (c,)) for c in known]
        pieces: list[_Piece] = []
        cc = self.text("chief_complaint")
        if _CHECKUP.match(cc):
            pieces += self._complaint()  # 体检发现…: what the check-up found is what brought them
            heads = [h for h in heads if not re.search(r"体检", h)]
        if heads:
            said = "，".join(_done(self._say(h)) for h in heads[:3])
            cut = any(_RESULT_CUT.search(c) for f in ("hpi", "past_history", "menstrual_obstetric_history")
                      for c in textlink.clauses(self.text(f)) if any(c.startswith(h) for h in heads[:3]))
            pieces.append(_Piece(said + ("，具体结果我看不太懂" if cut and not pieces else ""), "hpi", tuple(heads[:3])))
        pieces += told
        if checked:
            pieces += self._from("menstrual_obstetric_history" if self._fields.get(checked[0]) != "past_history"
                                 else "past_history", checked, 3)
        return pieces or self._default("还没做过什么检查")

    def _asked_tests(self, question: str) -> tuple[list[str], list[str]]:
        """Record clauses about a test the question names (血钾, 肾上腺CT, 尿蛋白, 血脂): the part before the
        result when there is one (外院肾上腺CT提示… → 外院肾上腺CT), a plain known finding whole."""
        objects = {m.group(0).lower() for m in _TEST_OBJECT.finditer(question)}
        out: list[str] = []
        known: list[str] = []
        if not objects:
            return out, known
        for field in ("hpi", "past_history", "menstrual_obstetric_history"):
            for clause in textlink.clauses(self.text(field)):
                low = clause.lower()
                if _DENIAL.match(clause) or re.match(r"^末次月经", clause) or not any(o in low or any(a in low for a in _TEST_ALIASES.get(o, ()))
                                                    for o in objects):
                    continue
                head = _RESULT_CUT.split(clause, maxsplit=1)[0].strip("，、 ")
                if head != clause or lay.is_jargon(clause):
                    if _names_test(head) and not _VALUE.search(head):
                        out.append(head)
                elif not _VALUE.search(clause):
                    known.append(clause)
        return list(dict.fromkeys(out)), list(dict.fromkeys(known))

    def _vitals(self, question: str) -> list[_Piece]:
        # only what the patient measured or was told (自测体温 38.5℃, 血压最高170/100); the rest is the examiner's
        bp, sugar, temp = (r"血压\S{0,8}\d+\s*[/／]\s*\d+|\d+\s*[/／]\s*\d+\s*mmhg", r"血糖\S{0,6}\d",
                           r"\d+(\.\d+)?\s*℃|体温\S{0,4}\d")
        if _BP_Q.search(question):
            want = re.compile(bp, re.IGNORECASE)
        elif _SUGAR_Q.search(question):
            want = re.compile(sugar)
        elif _TEMP_Q.search(question) and not (_BODY_SIZE_Q.search(question) and not re.search(r"体温|烧|热", question)):
            # (多重、多高 asks the body's size: its 多高 is no temperature)
            want = re.compile(temp)
            self.asked_terms |= {"发热"}  # 体温多少 asks the fever's part of 低热（37.2～37.8℃）、乏力、…
        elif _BODY_SIZE_Q.search(question):
            # 身高体重多少: a reading the record gives, else the examiner weighs; never a blood pressure instead
            weighed = [c for f in ("hpi", "personal_history") for c in self._clauses(f)
                       if re.search(r"身高|体重\S{0,3}\d", c) and not re.search(r"下降|减轻|增加|变化", c)]
            weight = self.case.vitals.weight_kg if self.case.vitals else None
            if not weighed and weight:
                # one's own weight is known, roughly (the record's weighing says what it is); the height is not recorded
                # (asked in 斤, as most people weigh themselves, it is told in 斤: 15kg → 30斤)
                said = f"{round(weight * 2)}斤" if "斤" in question and "公斤" not in question else f"{round(weight)}公斤"
                return [_Piece(f"体重大概{said}，身高没仔细量过", "vitals", (f"体重 {weight}kg",), keys=("vitals:body",))]
            return self._from("hpi", weighed, 1) or [_Piece("身高体重具体多少我记不太准了，您给我量量吧", content=False)]
        else:
            want = re.compile("|".join((bp, sugar, temp)), re.IGNORECASE)
        clauses = []
        for field in ("hpi", "past_history", "chief_complaint"):
            for c in textlink.clauses(self.text(field)):
                if want.search(c) and re.search(r"\d", c) and not re.search(r"mmol|μmol|g/L|×10|次/分", c) and \
                        (field != "hpi" or not lay.is_jargon(c)) and not re.search(r"查体|入院", c):
                    clauses.append(c)
        if clauses:
            return self._from("hpi", clauses, 2)
        return [_Piece("这个我自己没量过，您给我量量吧", content=False)]


# Question words and politeness: no part of what is asked about (请问/有没有/吗 are in every question).
_ASK_NOISE = re.compile(r"请问|您好|你好|医生|大夫|有没有|有无|是否|是不是|会不会|能不能|什么|怎么样|怎么|多少|多久|"
                        r"哪里|哪些|一下|说说|讲讲|详细|的话|比如|还有|别的|其他|情况|感觉|平时|现在|请|您|你|吗|呢|吧|呀|啊|么")


# a question offering options, and the words around them that are no part of an option
_CHOICE = re.compile(r"还是|或者是|或者")
_OPTION_NOISE = re.compile(r"是不是|有没有|是|的|呢|吗|啊|呀|那样|这样|那种|样子|一样|像|比如|大概|一般|"
                           r"[，,、？?。（）()]|血|尿|痰|疼|痛|拉|吐|便|整口|刚开始|快|才|都|还")
_NOT_OPTION = re.compile(r"[没不有吗过么啥哪几多谁]")
_WEAK = frozenset({"一下", "时候", "开始", "以后", "之前", "东西", "有点", "一直", "平时", "现在"})

_SMOKING_Q = re.compile(r"抽|吸烟|烟瘾|几根|几支|几包|戒烟|烟酒|香烟|烟草|(?<![煤油])烟(?!雾|尘)")
_HOUSEHOLD_Q = re.compile(r"烧柴|柴火|煤炉|烧煤|生炉子|养(不养)?\S{0,2}(鸽|鸟|猫|狗|宠物|鸡|鸭)|宠物|装修")
# a question naming several items (A、B或者C)
_SEVERAL_Q = re.compile(r"、|或者|还是|以及|和")
_CONTACT_Q = re.compile(r"身边|周围|接触过|同事|邻居|一起住|同学|室友|(幼儿园|学校|班上|班里)[^，。？]*(别的|其他|其它)?"
                        r"(孩子|小朋友|同学|人)")
# the story's clause on others ill with it (所在幼儿园班里近1周有2名小朋友患“手足口病”)
_CONTACT_C = re.compile(r"(幼儿园|学校|班里|班上|同学|小朋友|同事|室友|邻居|身边|周围|家中|家里)[^，。；]*(患|得|有|发热|类似)")

_RELATIVE = re.compile(r"父|母|爸|妈|兄|弟|姐|妹|哥|家族|家里|家人|亲属|子女|儿子|女儿|爷|奶|外公|外婆|祖|姑|舅|叔|伯|姨|"
                       r"爱人|配偶|丈夫|妻子|老伴")


def _names_of(condition: str) -> tuple[str, ...]:
    return (condition, *vocab.CONDITIONS.get(condition, ()),
            *(f for f, c in textlink.lay_to_canonical().items() if c == condition))


_ORGANS = frozenset({"甲状腺", "心脏", "肝", "肝脏", "肾", "肾脏", "胃", "肺", "胰腺", "肾上腺", "前列腺", "乳腺", "血管"})


def _asked_name(condition: str, question: str) -> str:
    """The name the clinician used (心脏病), not the canonical term it was read as (冠心病); a
    shorter name the question gives (肠癌 for 结肠癌, 慢性支气管炎 for 慢性阻塞性肺疾病)."""
    for form in sorted((*_names_of(condition), *vocab.LAY_UMBRELLAS), key=len, reverse=True):
        if form in question and (form in _names_of(condition) or condition in vocab.LAY_UMBRELLAS.get(form, ())):
            return form
    for size in range(len(condition) - 1, 1, -1):  # 结肠癌 asked as 肠癌
        for start in range(len(condition) - size + 1):
            if condition[start:start + size] in question and condition[start + size - 1] in "癌瘤病炎":
                return condition[start:start + size]
    return condition


def _covers(condition: str) -> set[str]:
    """The record terms a named condition covers: itself, and for a lay umbrella (心脏病) its kinds."""
    covered = {condition}
    table = textlink.lay_to_canonical()
    for umbrella, kinds in vocab.LAY_UMBRELLAS.items():
        if condition == umbrella or condition in kinds or table.get(condition) == umbrella:
            covered |= {umbrella, *kinds}
    covered |= {table.get(c, c) for c in list(covered)}
    # the text layer's own reading of each name too (心梗 is 心肌梗死 there, 急性心肌梗死 in the lay table)
    from medsim.text import get_lexicon

    lexicon = get_lexicon()
    covered |= {lexicon.canonical(c) or c for c in list(covered)}
    return covered


def _covered_by(term: str, covered: set[str]) -> bool:
    """A record term that names a kind of a covered one (乳腺癌 under 癌, 2型糖尿病 under 糖尿病)."""
    from medsim.text import get_lexicon

    lexicon = get_lexicon()
    return any((c in ("癌", "瘤", "糖尿病", "高血压") and c in term) or lexicon.is_a(term, c) for c in covered)


def _tells_condition_by_procedure(clause: str, covered: set[str]) -> bool:
    """A clause that tells a procedure done for a covered condition alone (行心脏支架 → 冠心病), not denied."""
    from medsim.text import extract_entities, get_lexicon

    lexicon = get_lexicon()
    if _DENIAL.match(clause) or re.search(r"否认|未(行|做|放)|没(有)?(做|放)", clause):
        return False
    implied = {c for e in extract_entities(clause) if e.type == "procedure" for c in lexicon.conditions_of(e.norm)}
    return any(c in covered or _covered_by(c, covered) for c in implied)


_DENIED_ONE = re.compile(r"^没(?:有(?!什么|去|做|吃|住|输|受|听说|发现|怎么|见|往)(\S{1,8})|(吐|瘦|晕倒过))$")


def _join_denials(texts: list[str]) -> list[str]:
    """没有嗓子疼。没有咳嗽。没有痰。 → 嗓子疼、咳嗽、痰都没有。 (a run of one-item denials said once)"""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if len(run) >= 2:
            out.append("、".join(run) + "都没有")
        elif run:
            out.append("没有" + run[0] if not run[0].startswith("没") else run[0])
        run.clear()

    for text in texts:
        m = _DENIED_ONE.match(text)
        if m and "，" not in text:
            item = m.group(1) or m.group(2)
            if any(item in other or other in item for other in run):  # 结核 and 结核病: said once
                run[:] = [o for o in run if o not in item] + [item] if not any(item in o for o in run) else run
                continue
            run.append(item)
            continue
        flush()
        out.append(text)
    flush()
    return out


# the written core of common symptoms, for clauses the text layer reads as another term
# a finding said by its verb alone before 得 (肿得厉害吗, 喘得厉害不厉害), where _STEMS has no one-character stem
_DEGREE_VERBS = {"肿": "水肿", "喘": "呼吸困难", "痒": "瘙痒", "晕": "头晕", "胀": "腹胀", "拉": "腹泻", "烧": "发热"}
_STEMS = {
    "咳痰": r"痰", "发热": r"发热|发烧|高热|低热|\d+(\.\d+)?\s*℃", "呕吐": r"呕吐|吐(?!血|痰|字)", "腹泻": r"腹泻|稀便|水样便|拉肚子|稀水",
    "咳嗽": r"咳(?!血)", "头痛": r"头(痛|疼)", "胸闷": r"胸闷|憋闷", "皮疹": r"疹", "水肿": r"水肿|浮肿|肿胀", "流涕": r"涕",
    "鼻塞": r"鼻塞", "乏力": r"乏力|没劲|无力", "恶心": r"恶心", "腹痛": r"腹(痛|疼)|肚子(痛|疼)", "头晕": r"头晕|头昏",
}


def _done(said: str) -> str:
    """A test named without a verb, said as done: 别的医院心电图 → 在别的医院做过心电图."""
    if re.search(r"做|查|检|拍|测|量|验", said):
        return said
    m = re.match(r"^(.{0,6}?)(别的医院|门诊|医院|诊所|社区|卫生院|急诊)(.+)$", said)
    return f"{m.group(1)}在{m.group(2)}做过{m.group(3)}" if m else f"做过{said}"


def _denied(lay_name: str) -> str:
    """没有 + the symptom, in the words a patient uses (有痰 → 没有痰, 瘦了 → 没瘦)."""
    special = {"瘦了": "没瘦", "吐": "没吐", "肿": "不肿", "晕倒过": "没晕倒过", "痒": "不痒", "怕冷": "不怕冷",
               "出了一身汗": "没怎么出汗", "下面流水": "下面没流水", "起夜多": "晚上不怎么起夜", "晚上睡觉出汗": "晚上睡觉不出汗", "尿不出来": "没有尿不出来的时候",
               "老想上厕所": "不老想上厕所", "喝水呛": "喝水不呛",
               "躺不平": "能平躺着睡", "半夜憋醒": "夜里没憋醒过", "尿裤子": "没尿裤子", "站不稳": "站得稳",
               "长痘": "没长痘", "脸变圆": "脸没变圆", "脖子变粗": "脖子没变粗", "伤口不爱好": "没发现伤口不爱好", "身上长疖子": "没长过疖子"}
    if lay_name in special:
        return special[lay_name]
    inner = re.fullmatch(r"(\w{1,3}[里上中])有(\w+)", lay_name)
    if inner:  # 尿里有血 → 尿里没有血, never 没有尿里有血
        return f"{inner.group(1)}没有{inner.group(2)}"
    if re.fullmatch(r"\w{1,3}了", lay_name):  # 胖了 → 没胖, never 没有胖了
        return "没" + lay_name[:-1]
    return "没有" + (lay_name[1:] if lay_name.startswith("有") else lay_name)


def _affirmed(lay_name: str) -> str:
    return f"有，{lay_name}" if re.match(r"[出吐拉咳流打起晕抽发]", lay_name) else f"有点{lay_name}"


def _qualified(pieces: list[_Piece], question: str) -> list[_Piece]:
    """A finding asked under a circumstance (半夜会不会被拉肚子弄醒) is answered by the clause that
    states it under that circumstance (无夜间腹泻或被便意痛醒, which also settles the 有/没有),
    not by the finding's other clauses (发作时大便次数增多, 为糊状便) heard by the way."""
    for q_cues, r_cues in vocab.QUALIFIERS.values():
        if not any(c in question for c in q_cues):
            continue
        def under(p: _Piece, r_cues=r_cues) -> bool:
            return any(c in s for s in p.sources for c in r_cues)
        keys = {k for p in pieces if under(p) for k in p.keys}
        if keys:
            pieces = [p for p in pieces if under(p) or not set(p.keys) & keys]
    return pieces


def _said_once(sentences: list[str]) -> list[str]:
    """Two answers trimmed to the parts asked can meet (偶尔有黄痰，开始痰里带血丝 / 开始痰里带血丝，
    一天7到8口): a clause a later sentence says again is said there only. Short clauses (有，没有)
    open answers and are left alone."""
    split = [s[:-1].split("，") for s in sentences]
    out = []
    for i, clauses in enumerate(split):
        later = {c for other in split[i + 1:] for c in other}
        kept = [c for c in clauses if len(c) < 3 or c not in later]
        if kept == clauses:
            out.append(sentences[i])
        elif [c for c in kept if len(c) >= 3]:
            out.append("，".join(kept) + sentences[i][-1])
    return out


def _list_parts(clause: str) -> list[str]:
    """A clause's 、-listed parts (低热（37.2～37.8℃）、乏力、痰中带血丝), brackets kept whole."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(clause):
        depth += 1 if ch in "（(" else -1 if ch in "）)" else 0
        if ch == "、" and depth == 0:
            parts.append(clause[start:i])
            start = i + 1
    return parts + [clause[start:]]


def _parts_saying(clause: str, words: re.Pattern[str]) -> str:
    """A listing clause cut to the parts that say ``words`` (无咳嗽、腹泻、尿频尿痛 → 无腹泻 for the bowels),
    the denial opening it kept; the clause itself when every part or none does."""
    parts = _list_parts(clause)
    kept = [p for p in parts if words.search(p)]
    if len(parts) < 2 or not kept or len(kept) == len(parts):
        return clause
    denial = _DENIAL.match(clause)
    if kept[0] != parts[0] and denial:
        kept[0] = denial.group(0) + kept[0]
    return "、".join(kept)


def _asked_terms(question: str) -> set[str]:
    """The findings a question names, a run of two-character ones read one by one too (尿频尿急尿痛 is
    尿路刺激征 and each of 尿频, 尿急, 尿痛: a record that lists them apart is asked each)."""
    terms = {f.term for f in textlink.findings(question)}  # (the text layer's reading too: 痛风 beside 尿酸高)
    for term, start, end in textlink.find_terms(question):
        terms.add(term)
        if end - start >= 6:
            span = question[start:end]
            terms |= {t for i in range(0, len(span) - 1, 2) for t, _, _ in textlink.find_terms(span[i:i + 2])}
    return terms


def _terms_in(text: str) -> set[str]:
    """The findings a text names, by the simulator's words and the text layer's (脐周阵发性隐痛 is 腹痛)."""
    return {t for t, _, _ in textlink.find_terms(text)} | {f.term for f in textlink.findings(text)}


def _asked_parts(clauses: list[str], asked: set[str]) -> list[str]:
    """The clauses told for a question naming the findings ``asked``: a clause listing several findings (出现低热、乏力、痰中带血丝，
    7～8口/天) asked about one of them keeps the part asked (and the detail after it only when
    that part is the last); a listing clause that names none of the findings asked, beside a
    clause that does (偶有黄痰 for 有痰吗), is left out. Nothing is trimmed when the question
    names no finding of the clause's, so an open question still hears the whole."""
    if not asked or not clauses:
        return clauses
    any_hit = any(_terms_in(c) & asked for c in clauses)
    out: list[str] = []
    drop_detail = False
    for clause in clauses:
        if drop_detail and _is_detail(clause):
            continue
        drop_detail = False
        parts = _list_parts(clause)
        named = [_terms_in(p) for p in parts]
        if len(parts) < 2 or sum(1 for n in named if n) < 2:
            out.append(clause)
            continue
        kept = [p for p, n in zip(parts, named, strict=True) if n & asked]
        denial = _DENIAL.match(clause)
        if denial:
            # 无咳嗽、腹泻、尿频尿痛 asked 尿频尿痛: the denial opening the list holds for every part, so the
            # parts asked are told with it (无尿频尿痛), the rest left out
            if kept and len(kept) < len(parts):
                out.append("、".join([kept[0] if kept[0] == parts[0] else denial.group(0) + kept[0], *kept[1:]]))
            elif kept or not any_hit:
                out.append(clause)
            continue
        if not kept:
            if any_hit:
                drop_detail = True
                continue
            out.append(clause)
            continue
        if len(kept) == len(parts):
            out.append(clause)
            continue
        drop_detail = parts[-1] not in kept  # 7～8口/天 tells of 痰中带血丝, the last part
        if kept[0] != parts[0]:
            # what opens the list (出现, 半天前开始出现) holds for every part
            # (a finding the term list lacks, 红斑, still ends the lead: 3天前…后左手腕出现)
            starts = [t[1] for t in textlink.find_terms(parts[0])] + [f.start for f in textlink.findings(parts[0])]
            kept[0] = (parts[0][:min(starts)] if starts else "") + kept[0]
        out.append("、".join(kept))
    return out or clauses


def _is_detail(clause: str) -> bool:
    """A clause that only describes the one before it (最高39.2℃, 咳黄色黏痰, 向左肩放射, 无效): no
    finding of its own, no new time, nothing a patient cannot know."""
    if lay.is_jargon(clause) or _TIME.search(clause) or _DRUG_TAKEN.search(clause):
        return False  # a medicine taken is its own statement, not a detail of the symptom before it
    if _COURSE_OF_ILLNESS.search(clause) and not _SPAN_C.search(clause):
        # 休息及自服X不缓解, 持续至今: what the illness has done since, not how the finding before it is —
        # told with that finding, it puts unasked record text in front of the answer (伴大汗、恶心 asked 出汗)
        return False
    return not [f for f in textlink.findings(clause) if f.term != "疼痛"]


def _topic_keys(topic: str, parsed, count: int) -> list[tuple[str, ...]]:
    """The question key of each of ``count`` pieces answering ``topic`` (one per named item)."""
    if topic in ("greeting", "ending"):
        return [()] * count
    items = {"associated": parsed.symptoms, "past_history": parsed.conditions,
             "family_history": parsed.conditions}.get(topic) or []
    if items and len(items) == count:
        return [(f"{topic}:{item}",) for item in items]
    keys = tuple(f"{topic}:{item}" for item in items) or (topic,)
    return [keys] * count


def _merge(pieces: list[_Piece], named: list[_Piece], aspects: dict[str, set[str]] | None = None) -> list[_Piece]:
    """Topic answers plus the named statements they do not already tell; a topic answer the
    whole of which a named statement repeats is dropped (the statement says more)."""
    out = list(pieces)
    for piece in named:
        told = {s for p in out if p.content for s in p.sources}
        if set(piece.sources) <= told:
            continue
        # the same range told from another section (hpi 周期尚规律（26–28天）, history 周期26–28天): said once
        ranges = {m.group(0) for src in told for m in _RANGE.finditer(src)}
        if any(m.group(0) in ranges for src in piece.sources for m in _RANGE.finditer(src)):
            continue
        covered = [p for p in out if p.content and p.sources and set(p.sources) < set(piece.sources)]
        out = [p for p in out if p not in covered]
        if covered:  # the statement answers what the answers it replaces were asked for
            piece = replace(piece, keys=tuple(dict.fromkeys((*piece.keys, *(k for p in covered for k in p.keys)))))
        # a named statement that tells what a default only assumed replaces the default
        # (an item's default: 没有发烧 for 发烧没有; a topic's stock answer, 来之前没吃什么药, stays
        # unless the statement is about that topic, which a named clause need not be)
        tells = {a for src in piece.sources for a in (aspects or {}).get(src, ())}
        out = [p for p in out if not (p.default and {k for k in set(p.keys) & set(piece.keys)
                                                     if ":" in k or k in tells})]
        out.append(piece)
    # one answer that another in the same reply wholly repeats is said once (onset and
    # triggers both drawing on 3天前着凉以后开始发烧)
    # — but two items of one clause (无关节痛、口腔溃疡 asked as 关节疼 and 溃疡) are two answers
    def items(piece: _Piece) -> set[str]:
        return {k for k in piece.keys if ":" in k}

    def cover(i: int, p: _Piece) -> int | None:
        return next((j for j, q in enumerate(out) if j != i and p.content and p.sources and q.content
                     and (set(p.sources) < set(q.sources) or (set(p.sources) == set(q.sources) and j < i))
                     and not (items(p) and items(q) and p.text != q.text and not items(p) <= items(q))), None)

    covers = {i: cover(i, p) for i, p in enumerate(out)}
    kept = dict(enumerate(out))
    for i, j in covers.items():
        if j is not None:
            # the answer that says it all also answers what the dropped one was asked for (当时在干啥 told by
            # the onset's clause): else a compound question's part looks unanswered and is told again
            q = kept[j]
            kept[j] = replace(q, keys=tuple(dict.fromkeys((*q.keys, *out[i].keys))))
    return [kept[i] for i in kept if covers[i] is None]


def _drugs_said_once(pieces: list[_Piece]) -> list[_Piece]:
    """A medicine the story tells (自行不规则口服奥美拉唑) is not told again from the medication list (近半年不规则
    自服奥美拉唑) in the same reply."""
    told = {d for p in pieces if p.content and p.field != "medications" for d in drugs_in(p.text)}
    figures = {n for p in pieces if p.content and p.field != "medications" for n in re.findall(r"\d+(?:\.\d+)?", p.text)}
    # (a list entry with a dose the story does not give, 布洛芬缓释胶囊 0.3g 一天两次, still says something)
    return [p for p in pieces if not (p.field == "medications" and (ds := set(drugs_in(p.text))) and ds <= told
                                      and set(re.findall(r"\d+(?:\.\d+)?", p.text)) <= figures)]


_OPEN_COMPLAINT_Q = re.compile(r"(哪里|哪儿|哪|什么|啥|怎么)\S{0,2}不(舒服|得劲|好受)|来看什么|看什么病|为什么来|怎么了")


def _without_complaint_beside_detail(pieces: list[_Piece], parsed, question: str) -> list[_Piece]:
    """晕倒是怎么回事: heard as the complaint by its 怎么回事, but asked about one finding — the story's clause on it
    answers, the whole complaint said again beside it does not."""
    if "chief_complaint" not in parsed.topics or _OPEN_COMPLAINT_Q.search(question):
        return pieces
    detail = [p for p in pieces if p.content and p.field == "hpi" and gist.shared(question, p.text + "".join(p.sources))]
    if not detail:
        return pieces
    return [p for p in pieces if p.field != "chief_complaint"]


def _sentence(text: str) -> str:
    text = text.strip().strip("，")
    if not text:
        return ""
    return text if text[-1] in "。？！?!" else text + "。"


# What a question must say for a topic's stock answer (来之前没吃什么药, 一直是这样) to be what it
# asked: a topic heard by guess (the nearest-neighbour fallback, or a cue word that means something
# else here: 烧 of 烧柴火 as 家里) gets its default only when the question asks that.
_DEFAULT_CUES = {
    "treatment": re.compile(r"药|看过|看病|医院|诊所|大夫|医生|治|输液|打针|吊瓶|处理|用过|吃过|管用|效果|氧|住院"),
    "course": re.compile(r"越来越|好转|好点|好些|加重|重了|变化|一直|以前|反复|时好时坏|比以前|这样过|犯过|头一回|第一次|怎么样了"),
    "triggers": re.compile(r"原因|诱因|引起|怎么(弄|搞|回事)|更|加重|厉害|犯|吃了|着凉|累|压力|生气|之前|以后|"
                           r"一块|一起|同桌|身边|周围|别的人|其他人"),
    "general": re.compile(r"吃|喝|胃口|饭|睡|大便|小便|尿|精神|体重|瘦|胖|斤|拉|运动|锻炼|口重|口味|咸|盐"),
    "family_history": re.compile(r"家|父|母|爸|妈|兄|弟|姐|妹|亲|遗传|子女|儿|女"),
    "onset": re.compile(r"什么时候|几点|多久|多长时间|哪天|开始|起|几天|几个月|当时|前|时候|怎么"),
    "radiation": re.compile(r"疼|痛|窜|放射(?!性)|别的地方|连着|牵"),
    "severity": re.compile(r"厉害|严重|几分|打分|多疼|疼得|受不了|忍|程度|影响|重不重|多重"),
    "associated": re.compile(r"别的|其他|其它|还有|另外|哪里不舒服|哪儿不舒服|什么不舒服|不得劲|伴|同时|症状"),
}


# a general stock line (吃饭还行) beside record content is said only when its own item is asked: 吃饭喝水呛不呛
# and 吐的里头有没有吃的东西 name eating but do not ask about appetite
_STOCK_ASKED = {
    _GENERAL_BY_NAME["appetite"][3]: re.compile(r"胃口|食欲|饭量|吃得|吃饭(怎么|咋|还|好|香|多|少)|吃东西(怎么|咋|还|多|少)|想吃|吃不下|能吃|饮食"),
    _GENERAL_BY_NAME["sleep"][3]: re.compile(r"睡(眠|得|不着|着|好)|(?<!上床)睡觉|失眠"),  # 多久上床睡觉 asks when, not how well
    # 老想解大便 / 肛门往下坠 name the bowels but ask a symptom, not whether they are normal
    _GENERAL_BY_NAME["bowels"][3]: re.compile(r"大便(怎么样|咋样|怎样|正常|好不好|情况|规律|习惯|次数|几次|颜色|干不干|稀不稀|成形)|"
                                              r"二便|大小便|拉肚子|便秘|(几天|一天)\S{0,3}(一次|几次)|(解|拉)\S{0,2}大便(了|没)|大便\S{0,2}(解|拉)|排便"),
}


def _without_unasked_stock(pieces: list[_Piece], question: str) -> list[_Piece]:
    return [p for p in pieces if not (p.default and p.text in _STOCK_ASKED and not _STOCK_ASKED[p.text].search(question)
                                      and any(q.content and ("general" not in q.keys or not q.default)
                                              for q in pieces))] or pieces


def _relevant(pieces: list[_Piece], parsed, question: str) -> list[_Piece]:
    """The reply without stock answers to what was not asked: when the question drew record content,
    a default of a topic the question has no word for is dropped (摔过跤没有 is not told 来之前没吃什么药),
    and a fuzzy topic's record content gives way to the statements the question names itself."""
    told = [p for p in pieces if p.content and p.sources]
    if not told:
        return pieces
    named = [p for p in told if p.named or any(k.startswith(("associated:", "past_history:", "family_history:"))
                                                 for k in p.keys)]
    out = []
    for p in pieces:
        topic = p.keys[0] if p.keys and ":" not in p.keys[0] else ""
        cue = _DEFAULT_CUES.get(topic)
        others = [q for q in pieces if q is not p and q.content]
        # a statement that also answers another topic asked (course and duration both telling 反复咳嗽20年) stays
        also = p.content and any(":" not in k and (k not in _DEFAULT_CUES or _DEFAULT_CUES[k].search(question))
                                 for k in p.keys[1:])
        if cue is not None and not cue.search(question) and not also and (
                p.default or not p.content or others and p in told and p not in named):
            continue  # a stock answer, or record content of a topic the question has no word for
        if parsed.fuzzy and named and p not in named and topic in _DEFAULT_CUES and not (cue and cue.search(question)):
            continue
        out.append(p)
    denied = {f.term for q in out if q.named for src in q.sources for f in textlink.findings(src) if f.polarity == "absent"}
    out = [p for p in out if not (p.content and not p.named and p.text.startswith("有")
                                  and any(k.startswith("associated:") and k.split(":", 1)[1] in denied for k in p.keys))]
    return out or pieces


def _asked_content(question: str) -> set[str]:
    """What the question is about, as the text layer's content characters (its asking words left out)."""
    return gist.content_chars(_ASK_NOISE.sub("|", question))


_PART = re.compile(r"[？?；;。！!]")
_CARE_Q = re.compile(r"药|处理|治|怎么办|用了?什么|用过|管用|效果")
_HOW_OFTEN_Q = re.compile(r"(每|一)个?(月|周|礼拜|星期|天|年)\S{0,3}(几|多少)(回|次)|多久\S{0,2}一(回|次)|犯几(回|次)|发作几次|"
                          r"(一共|总共|共)\S{0,3}(几|多少)(回|次)|(拉|吐|解)了?(几|多少)(回|次)")
_COUNT_SAID = re.compile(r"\d+\s*(余|多)?\s*[–\-～~到至]?\s*\d*\s*(余|多)?(回|次)|[一二两三四五六七八九十几]+(回|次)")
# (共3次 / 腹泻10余次: how many times so far)
_FREQUENCY_C = re.compile(r"每(月|周|日|天|年)\S{0,4}\d|\d+\s*次\s*/\s*(月|周|日|天)|^共\d+余?次|(腹泻|呕吐|吐)\d+余?次")
_EVENT_AGE_Q = re.compile(r"(多大|几岁|多少岁|岁数)\S{0,4}(绝经|来月经|初潮|结婚|生|得的|查出|发现|做的|开始)")


def _places(clause: str, question: str = "") -> bool:
    """Whether the clause says where (多位于一侧额颞部): a body part other than those the question already
    names (头疼在哪: the 头 of 反复发作头痛 places nothing; 肚子疼在哪: 下腹隐痛 does)."""
    asked = {m.group(0) for m in body_parts().finditer(question)}
    return any(m.group(0) not in asked for m in body_parts().finditer(clause))


_AMOUNT_Q = {"smoking": re.compile(r"多少|几根|几支|几包|一天\S{0,2}几"), "drinking": re.compile(r"多少|几两|几瓶|几杯|几斤|喝多")}
_AMOUNT_SAID = re.compile(r"\d+\s*(支|根|包|两|斤|瓶|杯|ml|毫升|克|g)|[一二两三四五六七八九十半]+(支|根|包|两|斤|瓶|杯)")
_YEARS_Q = re.compile(r"多少年|几年|多长时间|多久")


def _habit_details_unknown(topic: str, question: str, said: str) -> str:
    """The parts of a habit question the record has no figure for (一天抽几根 of 吸烟20年), said as not
    counted rather than dropped: a patient who smokes knows they smoke, not always how much."""
    out = []
    if _AMOUNT_Q[topic].search(question) and not _AMOUNT_SAID.search(said) and not re.search(r"一点|不多|少量|很多(?!年)", said):
        out.append("一天抽多少没细数过" if topic == "smoking" else "一次喝多少没细数过")
    if _YEARS_Q.search(question) and "年" not in said:
        out.append(f"{'抽' if topic == 'smoking' else '喝'}了多少年也记不太清了")
    return "".join(f"，{x}" for x in out)
# topics a part names by itself (喝酒呢, 拍过片子吗); a part about when, how long or what it is like
# (最后一次是啥时候, after 月经咋样) leans on the part before it and is not read alone
_PART_TOPICS = frozenset({"smoking", "drinking", "tests", "treatment", "medications", "allergies", "past_history",
                          "family_history", "associated", "general", "occupation", "menstrual", "obstetric"})


def _with_part_topics(parsed, question: str):
    """A compound question (抽烟吗？一天几根？喝酒呢？) answered part by part: a topic one part is
    heard to ask by itself (not by guess), which the whole message's reading missed, is added in
    the part's order."""
    parts = [x for x in _PART.split(question) if x.strip("，, ")]
    if len(parts) < 2 or parsed.topics in ([], ["ending"]):
        return parsed
    topics = list(parsed.topics)
    symptoms, conditions = list(parsed.symptoms), list(parsed.conditions)
    for part in parts:
        heard = classify(part)
        if heard.fuzzy:
            continue
        for topic in heard.topics:
            if topic not in topics and topic in _PART_TOPICS:
                topics.append(topic)
                symptoms += [x for x in heard.symptoms if x not in symptoms]
                conditions += [x for x in heard.conditions if x not in conditions]
    if topics == parsed.topics:
        return parsed
    return replace(parsed, topics=topics, symptoms=symptoms, conditions=conditions)


_WHEN = re.compile(r"^([、和或]\S{0,5}?)?(的)?(时候|时|那会儿|以后|之后|后)")


def _last_meal(parsed, question: str):
    """最后一次喝水是什么时候 heard as the onset (its 什么时候): the last meal is the general
    history's, never the story's start. (Worked around here; the topic classifier is another's.)"""
    if not _LAST_MEAL_Q.search(question) or "general" in parsed.topics:
        return parsed
    return replace(parsed, topics=["general", *[t for t in parsed.topics if t != "onset"]])


def _without_context(parsed, question: str):
    """A symptom the question names only as when (尿血的时候肚子疼不疼, 喘的时候嗓子里响不响) is the
    frame of what is asked, not a thing asked: the answer is about the rest."""
    if len(parsed.symptoms) < 2:
        return parsed
    framing = {canon for canon, _s, e in textlink.find_terms(question) if _WHEN.match(question[e:e + 9])}
    kept = [x for x in parsed.symptoms if x not in framing]
    return replace(parsed, symptoms=kept) if kept and len(kept) < len(parsed.symptoms) else parsed


_FUNCTION_GRAM = re.compile(r"[的了得着过地没不]|时候|一直|开始|以后|没有|一下|有点")


def _content_grams(lay_text: str) -> set[str]:
    """The lay form's bigrams that carry meaning (整泡, 泡尿), not its joining words (的时, 时候)."""
    return {g for g in textlink.bigrams(lay_text) if not _FUNCTION_GRAM.search(g)}


def _blanket_denial(text: str) -> bool:
    """A family history that denies everything (无特殊, 否认家族遗传病史, 父母体健)."""
    return bool(re.fullmatch(r"(无特殊|无|否认.*|体健|父母体健|家族史无特殊|无家族遗传病史)[。；]?", (text or "").strip()))


def _with_named_symptoms(parsed, question: str):
    """An associated-symptom question answers every symptom it names by a known form (脚肿, 喘气费劲),
    in the question's order, not only those the topic reading listed."""
    if "associated" not in parsed.topics:
        return parsed
    from medsim.sim.topics import _symptom_canon

    canon = _symptom_canon()
    named = [t for t, _s, e in textlink.find_terms(question) if t in canon and t != "疼痛"
             and not _WHEN.match(question[e:e + 9])]
    extra = [t for t in dict.fromkeys(named) if t not in parsed.symptoms]
    if not extra:
        return parsed
    order = {t: i for i, t in enumerate(dict.fromkeys(named))}
    symptoms = sorted([*parsed.symptoms, *extra], key=lambda t: order.get(t, -1))
    return replace(parsed, symptoms=symptoms)
