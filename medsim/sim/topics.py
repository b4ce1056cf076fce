"""What a clinician's Chinese message asks about: question → topics (+ specific symptoms / conditions).

Three steps, each cheap and explainable:
1. normalise and fold colloquial variants onto one spelling (啥→什么, 哪儿→哪里, 多长时间→多久);
2. find named symptoms and conditions through the lexicon (lay forms included: 心口疼→胸痛)
   and mask them, so the word 出汗 in 晚上睡觉出汗吗 does not also read as a question about sleep;
3. topic cue patterns, then a few precedence rules (过敏 beats 药, 家里 beats 以前…); when no
   pattern fires, a nearest-neighbour classifier over the labelled question bank
   (``topic_nn``: character n-gram TF-IDF over ``topic_examples.yaml``) gives the topics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache

from medsim.sim import textlink, vocab

TOPICS: tuple[str, ...] = (
    "greeting", "ending", "chief_complaint", "onset", "duration", "site", "character", "severity",
    "radiation", "triggers", "relief", "course", "associated", "treatment", "general", "past_history",
    "allergies", "medications", "family_history", "smoking", "drinking", "occupation", "menstrual",
    "obstetric", "age", "tests", "vitals",
)

# Topics answered from the history of present illness (the record's hpi).
HPI_TOPICS = frozenset({
    "onset", "duration", "site", "character", "severity", "radiation", "triggers", "relief", "course",
    "associated", "treatment", "general",
})


@dataclass
class Parsed:
    topics: list[str] = field(default_factory=list)
    symptoms: list[str] = field(default_factory=list)  # canonical symptoms asked about by name
    conditions: list[str] = field(default_factory=list)  # canonical past conditions asked about by name
    fuzzy: bool = False  # True when the topics came from the nearest-neighbour fallback
    # each asking sentence of the message (folded) with the rules' topics for it and whether they
    # were carried over from the sentence before (管用不？ after 吃过药没？): what the topic model reads
    parts: list[tuple[str, list[str], bool]] = field(default_factory=list, repr=False, compare=False)


_FOLD = (
    # 西南官话 and 粤语-tinged Mandarin: 莫得/冇得 = 没有, 咋个/点样 = 怎么(样), 系唔系 = 是不是, 几耐 = 多久,
    # 边度 = 哪里, 佢 = 他, 咩 = 什么, 屋头 = 家里, 娃儿 = 孩子, 好多 = 多少 (asked)
    (r"莫得|没得|冇得", "没有"), (r"系唔系", "是不是"), (r"几耐", "多久"), (r"边度|边处", "哪里"), (r"点样", "怎么样"),
    (r"佢", "他"), (r"咩", "什么"), (r"咁样|噉样|咁", "这样"), (r"食(?=[过了咗]|什么|饭|药|奶|东西|嘢)", "吃"), (r"嘢", "东西"), (r"屋头|屋里头", "家里"), (r"娃儿|娃娃", "孩子"), (r"咋个样|咋样", "怎么样"),
    (r"咋个|咋子", "怎么"), (r"屙尿|撒尿|尿尿|解小便", "小便"), (r"屙屎|拉屎|解大便", "大便"), (r"脚杆|腿杆", "腿"),
    (r"腰杆", "腰"), (r"困觉", "睡觉"), (r"伐(?=[？?。，]|$)", "吗"), (r"侬", "你"), (r"咗", "了"), (r"啲", ""), (r"(?<=[一回次顿天])好多", "多少"), (r"唔", "不"), (r"嘛(?=[？?])", "吗"),
    (r"啥子|啥", "什么"), (r"咋", "怎么"), (r"几时|多会儿", "什么时候"), (r"晓得", "知道"), (r"干嘛|干啥", "干什么"), (r"不适", "不舒服"), (r"有冇|冇", "有没有"), (r"哪块儿|哪儿|哪块|哪个地方|什么地方|哪一块", "哪里"),
    (r"哪(?![里个些边天种次])", "哪里"), (r"多长时间|多少时间|多(长|少)日子", "多久"),
    (r"(.)不\1(?=[？?。，]|$)", r"\1吗"), (r"\s+", ""),
    # A没A / A不A inside a question are yes/no questions: 发没发烧, 抽不抽烟 → 有没有发烧, 是否抽烟
    (r"([^有])没\1", r"有没有\1"), (r"([^会能是要好对有可])不\1(?![？?。，]|$)", r"是否\1"),
    # dialect and lay words an elderly patient is asked with (头一回, 高寿, 解手, 心里头)
    (r"头一(回|次)|第一回", "第一次"), (r"高寿|贵庚", "多大年纪"), (r"解手", "大小便"), (r"心里头", "心里"),
    (r"人工流产|人流|打胎", "流产"),
    # 大夫 is 医生 (大夫怎么说的 asks what the doctor said, as 医生怎么说 does)
    (r"大夫", "医生"),
    # 多大一会儿 / 多大会儿 ask how long, not how old; 嗓子眼 is the throat; 氺 is 水
    (r"多大一?会儿?", "多久"), (r"嗓子眼儿?", "嗓子"), (r"氺", "水"), (r"粑粑|臭臭", "大便"),
    # 么 closing a question is 吗 (水分多么？), unless it ends 什么/怎么/这么/那么
    (r"(?<![什怎这那要])么(?=[？?。，!！]|$)", "吗"), (r"啦(?=[？?。，!！]|$)", "了"),
    # a trailing 没 asks yes/no (有痰没？ 好点没): V没 → V没有
    (r"(?<=[^没有])没(?=[？?。，]|$)", "没有"),
    # V过没 / V了没 at the end of a question is V过没有 (看过没？)
    (r"(过|了)没(?=[？?。，]|$)", r"\1没有"),
    # 有没发热 (有没 without its 有) asks yes/no as 有没有 does
    (r"(?<!没)有没(?!有)", "有没有"),
)

_Q = r"(吗|么|呢|吧|？|有没有|是否|有无|会不会)"

# topic → cue patterns (on folded text with named symptoms masked as Ｓ, conditions as Ｃ).
_CUES: dict[str, tuple[str, ...]] = {
    "greeting": (r"^(你好|您好)", r"请坐", r"我是.{0,8}(医生|大夫)", r"有什么(可以|能)帮"),
    "ending": (
        r"建议", r"回去", r"注意休息", r"按时吃药", r"(给您|给你)开", r"先去做", r"去做个", r"结果出来",
        r"复查(?!结果)", r"先到这", r"(给你|给您|我们|先)\S{0,2}(做|查|抽|开|安排|验|拍)(个|一下|一个)", r"先去|马上|立即|现在就(给|去)", r"知道了", r"安排", r"办.{0,2}住院", r"就这样", r"先这样", r"去.{0,4}(做|查|交费|缴费|拿药|取药)", r"到这里", r"及时(来|就诊|复诊)", r"稍后|待会|病房|谢谢配合", r"有情况", r"随时来", r"了解了", r"别担心", r"不用担心", r"住院治疗", r"明白了",
        r"可以(继续)?(应用|使用|服用|口服|吃|用|喝)|继续(应用|使用|服用|口服)|要买|去买|(买|备)(点|些|一些)",
    ),
    "chief_complaint": (
        r"哪里(不舒服|难受|不得劲|不好受|不好)", r"看什么的", r"来.{0,3}(看|干)什么", r"怎么(个)?不舒服", r"不得劲", r"(讲讲|说说|聊聊|讲一下|说一下|描述一下|介绍一下).{0,6}(情况|不舒服|怎么|症状|病情)", r"怎么(了|啦)", r"看什么病", r"(因为|为)什么来", r"(因为|为)什么\S{0,2}住(院|的院)|住院\S{0,6}(因为|为)什么|(什么|啥)原因\S{0,2}住院", r"来看什么", r"有什么不舒服",
        r"说说.{0,4}情况", r"怎么回事", r"主要.{0,4}症状", r"就诊.{0,4}原因", r"主要.{0,6}(原因|问题)",
        r"有什么(可以|能)帮", r"^(孩子|宝宝|小孩|宝贝|您|你)?(目前|现在)\S{0,2}情况(怎么样|如何|咋样)", r"怎么样?\S{0,2}不舒服",
        r"^(嗯|那|就是说?)?\S{0,4}(目前|现在)?主要(是|就是)\S{0,6}Ｓ",
        # 孩子有哪些症状 / 有什么表现 / 宝宝什么情况: the open question (还有什么症状 is associated's)
        r"(?<!还有)(?<!其他)(?<!别的)(?<!另外)(?<!除了)(什么|啥|哪些)(情况|症状|表现)(?!下|时|的时候|引起|导致|会|才|就|加重|以后|之后|后)",  # 宝贝主要是发烧，对吗: what the complaint is
    ),
    "onset": (
        r"什么时候(?!.*(加重|厉害|缓解|好))", r"哪天", r"几点", r"突然.{0,8}(还是|慢慢)", r"慢慢出现",
        r"起病", r"发病时间", r"(才|刚)(出现|开始|有)的(?!时候)", r"是\S{0,2}(刚开始|刚刚|前天|昨天|今天|大前天|今晚|昨晚|今早|昨早)\S{0,4}的?(吗|吧|呢|[？?]|$)",  r"(今天|昨天|前天|早上|早晨|晚上|夜里|上午|下午|刚才).{0,4}开始", r"开始的(吗|？|$)",
        # when it began, set against birth, a day of life or another event: 从出生就这样吗, 出生后一直这样吗,
        # 第几天出现黄染的, 最近出现的吗, 是烧退后出的皮疹还是发热同时出的
        r"(从|自)(出生|生下来)\S{0,3}(就|开始|一直)|(出生|生下来)(后|以后|之后)?\S{0,2}(就|一直)(这样|有)|第几天\S{0,2}(出现|开始|有)",
        r"最近\S{0,2}(才|刚)?(出现|开始|有|这样)的(吗|吧|呢|[？?]|$)|(后|前|同时|之前|以前)\S{0,2}(出|起|长|冒|发现|出现|开始)的\S{0,4}(还是|吗|么|呢|吧)",
    ),
    "duration": (
        r"多久", r"几天了", r"(\d+|[一二两三四五六七八九十半几]+)(天|个?月|年|周|小时|礼拜)了?(吧|吗)",
        # 腹泻有半个月？ a stated period asked back (几个月了？ of a baby is the age: not here)
        r"有?(\d+|[一二两三四五六七八九十半]+)(天|个?月|年|周|小时|礼拜)(了|啦)?(呢|[？?]|$)", r"多少(年|个?月)了", r"几年了", r"有几天", r"多少天", r"几分钟", r"病程", r"一直.{0,4}到现在", r"持续.{0,4}(多|几)",
    ),
    "site": (
        r"哪里.{0,2}疼", r"疼.{0,2}在哪里", r"哪里最", r"部位", r"位置", r"左边还是右边", r"整个.{0,6}还是", r"指一?下", r"(上|下|左|右|前|后)(腹|边|面|侧|头).{0,6}还是", r"范围|面积", r"(?<!往)哪一?(侧|边)", r"Ｂ.{0,4}还是", r"还是.{0,2}Ｂ",
    ),
    "character": (
        r"什么样的?(疼|感觉)", r"怎么个?疼法", r"什么感觉", r"性质", r"形容", r"描述", r"怎么疼", r"锐疼", r"胀胀", r"跳着疼", r"[揪拧绞胀压刺扎烧]着疼", r"一阵一?阵", r"像什么", r"疼起来.{0,3}(什么|怎么|像)", r"隐隐", r"作疼", r"(胀|刺|绞|闷|隐|钝)疼",
        r"压着疼", r"针扎", r"刀割", r"闷闷", r"一跳一跳", r"一阵一阵", r"阵发", r"持续性", r"压榨", r"紧缩",
        r"^\S{0,4}什么(形状|性状|颜色|样子)的?(呢|啊)?[？?]?$", r"烧灼", r"火辣辣", r"撕裂", r"(一样|似的).{0,2}疼", r"一会儿.{0,4}一会儿", r"持续疼还是", r"[酸胀刺闷]疼还是",
    ),
    "severity": (
        r"疼得(?!更|往)", r"(有多|多么?|很)(疼|严重|厉害)", r"(?<!更)厉害吗", r"严不严重", r"是否严重", r"严重吗", r"能忍", r"忍受", r"要紧", r"疼醒", r"最(疼|难受|厉害).{0,6}(什么样|怎么样)",
        r"忍得住", r"平躺|躺平|垫高|高枕|坐着睡|躺不下|(睡|躺)\S{0,6}(得|要|需要|只能)坐(着|起)", r"Ｓ的?(多吗|多不多|重吗|重不重)", r"(严重|厉害)到|疼到(什么|哪|要|得|没法|不能)", r"几分(?!钟)", r"打分", r"程度", r"影响\S{0,4}(睡|工作|生活|活动|吃|喝|玩|休息)", r"(睡眠|睡觉|吃饭|吃奶|吃东西|喝水|玩)\S{0,4}(受|有)?影响", r"Ｓ\S{0,3}重(吗|不重|吧|么|[？?]|$)", r"疼成什么样", r"下地",
    ),
    "radiation": (
        r"放射", r"窜", r"传到", r"牵扯", r"牵涉", r"连着.{0,2}疼", r"往.{0,6}(走|跑|串|传)",
        r"(别的|其他)地方.{0,4}疼", r"跟着疼", r"(跑|转移|挪)到", r"牵连", r"到(别的|其他)地方",
        # 疼得往别处跑不跑: where the pain goes, not how bad it is
        r"(别处|别的地方|其他地方)\S{0,2}(跑|窜|传|去)", r"跑不跑",
    ),
    "triggers": (
        r"诱因", r"诱发", r"(情况|时候|以后|后|会|下)\S{0,3}加重", r"更(疼|厉害|难受|重)", r"在(干|做)什么",
        r"之前.{0,4}(干|做)", r"引起", r"有关系?", r"受凉", r"着凉", r"吃.{0,6}不干净", r"劳累", r"生气", r"(干|做)了?什么(以后|之后|后)", r"更明显", r"走路|爬楼|上楼|运动|用力|油腻", r"以后开始", r"(了|后|完)才(开始|疼|发作|出现|有)", r"累着", r"(情况|时候)下?.{0,5}发作",
        r"接触", r"(其他|别的)(小朋友|孩子|同学|人)\S{0,6}(这样|一样|类似)", r"(家里|家人|周围|身边|班里|班上|幼儿园|学校|同班|别的小朋友|其他小朋友|大人)\S{0,8}(感冒|发烧|发热|咳嗽|生病|拉肚子|腹泻|呼吸道|传染|手足口|水痘|流感|Ｓ)",
        r"原因|为什么会|怎么引起|导致|诱发|诱因",
        r"(吃|喝|喂|受|吹|着|接触|去|打|换)\S{0,8}(以后|之后|后|完)\S{0,3}(才|就)?\S{0,3}(吐|拉|疼|咳|烧|出现|开始|发作|起|Ｓ)",
        r"(出现|开始|发病|拉|吐|烧|咳|发热|发烧|腹泻|Ｓ)\S{0,4}之前", r"(的时候|时)\S{0,6}(重|厉害|明显|加重)",
        r"室内|空调|环境|冻着|淋雨|吹风", r"新(添加|加|换|吃)|(添加|换|加)(了)?\S{0,4}(之后|以后|后)|(换|改)(了|过)?\S{0,2}奶粉|注意过?饮食", r"(走|爬|上|跑)\S{0,4}(楼|坡|几步|路)\S{0,6}(会不会|就|是否|厉害|Ｓ)", r"辛辣|生冷|海鲜|不干净|刺激", r"消毒|卫生|天气|气温|降温|换季|季节", r"吃撑|(不好|难)消化|积食|(只有|只是|仅)\S{0,2}(吃|喝|喂)\S{0,3}(的时候|时)", r"第一次(吃|喝)|(之前|以前)\S{0,4}(吃|喝)过\S{0,4}(奶粉|米粉|辅食|米糊|牛奶|羊奶)|(奶粉|米粉|辅食)\S{0,6}(之前|以前)\S{0,2}(吃|喝)过", r"吃(了|过)?(什么)?\S{0,4}(特殊|特别|不新鲜|变质)",
    ),
    "relief": (
        r"缓解", r"减轻", r"好一?点", r"好一?些", r"(?<!不)好受", r"舒服一?点", r"轻一?点", r"舒服一?些", r"缓过来", r"管用", r"能好[吗么]", r"好得了", r"自己.{0,2}好",
    ),
    "course": (
        r"越来越", r"(有没有|是否|最近).{0,2}加重", r"变化", r"第一次(这样|吗)|第一次\S{0,3}Ｓ", r"是第一次", r"间隔|隔\S{0,2}(多久|几天)",
        r"以前.{0,6}(类似|这样|这种|这个情况|同样)", r"发作过", r"几次了", r"反反?复", r"好转", r"一天比一天", r"(晚上|夜里|白天|早上).{0,4}还是", r"比.{0,6}(好|重|厉害)", r"好[点些]了?还是", r"(和|跟|比)以前", r"这次.{0,4}(和|跟|比)", r"以前.{0,2}也", r"逐渐", r"慢慢.{0,2}(加重|重)", r"加重的",
        r"(一共|总共|大概|大约)\S{0,2}(几次|多少次)|在多少次|超过\S{0,2}[一二两三四五六七八九十\d]+次|[一二两三四五六七八九十\d]+次(以上|左右)|"
        r"次数|频繁|频率|(?<!殷)勤(吗|不|么|[？?]|$)|间断|断断续续|持续存在|时有时无|一阵有一阵没有|(一天|每天|一晚上|晚上|夜里|白天)\S{0,4}(几次|几回|多少次)",
        r"有(没有)?加重|加重(了)?(吗|没有)", r"完全好|好利索|复发|又(开始|烧|发烧|咳|吐|拉|犯)|再次", r"每次都", r"多久没",
        r"(减轻|好转|好点|好些|好了|缓解|降下来|退下来|退了|稳定)(了)?(吗|没有|么|吧|呢)",
        r"(严重|厉害|重)(一点|一些|些|点)(了)?(吗|没有)?", r"一阵好一阵", r"(降|退|消|恢复)(至|到)?正常",
        # whether it has come down (体温高峰有没有下来一点), how the recovery goes (肺炎恢复情况怎样), how a
        # named complaint is now (现在流鼻涕怎么样): the course
        r"(有没有|是否|有无)\S{0,2}((降|退)?(下来|下去)|(降|退)了?(一点|一些)|降低)", r"恢复(的)?(情况|得)\S{0,2}(怎么样|怎样|如何)",
        r"(现在|目前|这两天|这几天)\S{0,6}Ｓ(的情况)?(怎么样|怎样|如何)",
        # set against an earlier time (比之前多了 / 跟刚开始比), or how it is going now (咳嗽怎么样了)
        r"(比|和|跟|较|同)(之前|以前|刚开始|开始|前几天|前两天|昨天|原来|当初|发病)", r"改善(了|吗|没有|呢|[？?])|(有没有|有|是否)\S{0,2}改善", r"加重(了|啦)(吗|吧|呢|没有|[？?。]|$)|又\S{0,2}加重",
        r"(孩子|宝宝|宝贝|小孩|孩|病情|症状|情况|Ｓ)(现在|目前|这两天|这几天|最近)?(怎么样|怎样|如何)了",
        # 这种情况以前有吗 (whether it happened before, the object first) / 一年能发几次病 (how often it recurs)
        r"(这种|这样的?|类似的?|这个)(情况|症状|病|毛病|现象)?(以前|之前|既往|过去)\S{0,2}(有|出现|发生|犯|得)过?",
        r"(一年|每年|一个月|每个?月|一周|每周|一季)\S{0,4}(几次|几回|多少次)",
    ),
    "associated": (
        r"(还有|除了|其他|别的|另外|同时).{0,8}(不舒服|症状|感觉|难受|不得劲|不好受|不对劲)", r"伴随", r"伴有.{0,4}(症状|什么)",

    ),
    "treatment": (
        r"看过医生", r"看过(没有|吗)", r"停(过|了)?\S{0,2}药", r"(有没有|是否|有)说\S{0,6}(Ｃ|炎|感染)", r"医院.{0,2}看过", r"做过什么处理", r"处理过", r"治疗", r"输过液",
        r"打过针", r"来之前", r"(哪里|哪家|医院|诊所).{0,3}看过?", r"(用|做|接受)过.{0,4}治疗", r"自己吃过",
        r"(用|吃)过.{0,5}药", r"效果如何", r"诊所", r"看过病", r"发病后.{0,6}药", r"这次.{0,6}(用|吃)过.{0,2}药",
        r"效果怎么样", r"(有没有|有|没有?)效果", r"(就诊|就医|看病)过", r"去.{0,3}医院",
        # care for this illness: what a doctor said or gave, medicines taken or given for it
        r"诊断", r"医生.{0,4}(说|讲|怎么看|看了|开|给|判断|考虑)", r"考虑(的|是)?\S{0,2}(什么|啥|哪种|哪个)(病|情况|原因|问题|炎)?", r"看(过|了)?.{0,3}医生", r"开(了|过|的)?.{0,6}药",
        r"开(了|过)(吗|没有)", r"输液|打针|吊瓶|点滴|挂水|挂针|雾化|吸氧|消炎针|退烧针|抗生素|消炎药|退烧药|止咳药|退热药|退热贴",
        r"(吃|服|用|喂|喝|打|上|抹|涂|擦|点)(了|过|的|着)?\S{0,6}(药|Ｄ)", r"(药|Ｄ)\S{0,6}(吃|用|服|喂|打|抹|涂)(了|过)",
        r"药物|用药|吃药|口服|服用", r"(止咳|退烧|退热|消炎|止泻|止吐|抗过敏|化痰|止痛)(的|药|针|糖浆|贴)", r"给\S{0,4}(吃|喂|用)了",
        r"(还在|正在|现在|目前|这次|这回)\S{0,2}住院|住院了(吗|没有|吧|呢|[？?])|在住院|住着院", r"面诊", r"^(已经|一共|总共|大概)?(吃|用|服用?|使用|喂)(了|过)?(有)?(几天|多久|几次)", r"输\S{0,3}液|打\S{0,3}针|照\S{0,3}蓝光|蓝光", r"颗粒|糖浆|口服液|冲剂|胶囊|滴剂|混悬液|栓剂|退烧栓|软膏|乳膏|喷剂|益生菌|排除|确诊", r"(线下|当地|公立|私立|私人|社区)\S{0,4}(医院|门诊|诊所|看)",
        # 就医 / 药店买的 / 咳嗽药是什么药: care sought for it, a medicine bought or named for it
        r"就医|药店|药房|买(的|了|过)?\S{0,2}药|(什么|哪些|哪种|哪个)药",
        # 吃了有三天了吗 / 这些都吃了三天了？ (how long the medicines, said back), 现在距就诊有几天了
        r"^(这些|这个|这两种|这几种|药|Ｄ+)?(都|已经|一共|总共)?(吃|用|服用?|喂|喝)(了|过)?(有)?(\d+|[一二两三四五六七八九十半几]+)(天|周|个?月)(?!\S{0,2}(奶|饭|粉|辅食|米|母乳))",
        r"(距|离)\S{0,2}(就诊|看医生|看病|住院|出院)|(到|上)(过)?\S{0,3}医院",
        # how long in hospital or on a treatment: 住了几天了, 出院多久了, 照了几天了, 止咳糖浆服用多久了
        r"补(过|了)?(钾|液)|出院小结|出院记录|病历|住(了|过)?院?\S{0,2}(几天|多久|多少天)|出院\S{0,2}(几天|多久|多少天)|(照|输|雾化)(了|过)?\S{0,2}(几天|多久)|"
        r"(药|Ｄ)\S{0,6}(吃|用|服用?|喂|喝)(了|过)?\S{0,2}(几天|多久|多少天)",
    ),
    "general": (
        r"吃饭", r"胃口", r"食欲", r"睡觉", r"睡眠", r"大小便", r"大便", r"小便", r"精神", r"饮食",
        r"体重", r"睡得", r"睡(着|不着|觉|眠|醒|好|踏实|不好)", r"心情|情绪", r"(?<![像浓])茶(?![色样一似])|(?<!像)浓茶(?![色样一似])|咖啡(?![色样一似])|饮料|可乐",  # 尿像浓茶 is a colour r"(?<!消)瘦(?!肉)|长胖|胖了", r"饭量", r"吃得(下|怎么样)", r"(吃|喝)奶", r"奶量", r"排便", r"二便",
        # a child's feeding and intake: breast or formula, complementary food, water, fruit, snacks
        r"母乳|奶粉|喂养|辅食|喂奶|奶瓶|米糊|米粉|果泥|蛋黄", r"(喝|喂)(水|奶)|饮水|喝的水|喝(了)?(多少|几)\S{0,3}水", r"水果|蔬菜|零食|吃的东西|饮食",
        r"尿(的|得)?(量|多|少|黄|色|清|布|次数)|小便(的|得)?(量|黄|颜色|多|少)", r"食物|果汁|菜叶|奶\S{0,3}(够|多少|量)|够吃", r"哺乳", r"(一天|每天|几天)\S{0,3}(大便|拉|排便)",
        r"(大便|拉)\S{0,2}(几次|几回|一次)", r"吃(东西|饭)(怎么样|好不好|多|少)", r"能吃|能喝|吃得|不爱吃|爱吃", r"饭",
        # urine and wind as everyday functions: 有尿吗, 尿量多吗, 夜里起几次夜, 有排气吗, 放屁正常吗
        r"有尿|尿量|起\S{0,2}夜|夜尿|排气|(放屁|排气)\S{0,2}正常",
        r"(也|还|能|爱|会)玩(吗|不|耍|得|了)",  # 宝宝也玩吗: the child's spirits
        # habits a history asks of (平时运动不, 口重不重, 爱吃咸菜吗): the personal history answers them
        r"(平时|平常|平素)\S{0,3}(运动|锻炼)|运动(吗|不|多|少)|锻炼(吗|不|身体)|口重|口味|咸菜|腌(菜|肉|制)|吃盐|盐(吃|多|重)",
    ),
    "past_history": (
        r"以前.{0,3}(身体|得过|有过什么|有什么病|住过院)", r"既往", r"病史", r"身体(怎么样|好吗|好不好|都好)",
        r"平时身体", r"慢性病", r"基础病", r"老毛病", r"得过什么", r"住过院", r"传染病", r"(做|放|装|搭|植入)过.{0,4}(支架|搭桥|起搏器)",
        r"疫苗|接种|打过.{0,3}苗|预防针", r"胎便|足月|早产|顺产|剖(宫)?产|难产|羊水|窒息|出生(时|的时候)?.{0,3}(体重|情况|怎么样)",
        r"(平时|平常|从小|一直)\S{0,3}(容易|经常|爱|总|老)\S{0,4}(生病|感冒|咳|发烧|发热|过敏|拉|打喷嚏|喘|Ｓ)",
        r"(以前|之前|小时候?|从前|过去|既往)\S{0,6}(得过|有过|出过|患过|起过|发生过|犯过)?\S{0,3}Ｃ",
        r"(以前|之前|小时候?|从前|过去)\S{0,4}(得过|患过|出过|起过)", r"上次\S{0,8}住院|住院(过|史)",
        r"(以前|小时候?|从小|过去|从前)\S{0,6}Ｓ(?!\S{0,6}(这样|这种|类似))", r"(得过|患过)\S{0,3}[ＳＣ]",
    ),
    "allergies": (r"过敏", r"药.{0,6}(起疹子|起疙瘩|起红点|红疹)", r"药.{0,3}会.{0,2}Ｓ", r"(有过|出现过?|起过).{0,2}反应", r"不良反应"),
    "medications": (
        # regular medicines (not for this illness): a long-term marker or a chronic-disease drug
        r"降压药", r"降糖药", r"降脂药", r"胰岛素", r"(血压|血糖|血脂|心脏)的?药", r"药.{0,4}按时", r"维生素\s?a?d|维d|伊可新|鱼肝油|补(钙|锌|铁)|钙片",
        r"(平时|平常|平日|长期|常年|规律|每天|每日|日常)\S{0,6}(药|Ｄ)", r"药.{0,4}(一直|还)在(吃|用)",
        r"一天吃几次药", r"用药(情况|史)",
    ),
    "family_history": (
        r"家里", r"家族", r"家人", r"父母", r"(你|您|他|她|孩子|宝宝|你们)的?(爸|妈|爹|娘|爷|奶|哥|姐|弟|妹)(?!咪)", r"爸爸", r"妈妈", r"爸妈", r"爹妈", r"爹娘", r"父亲", r"母亲", r"兄弟", r"姐妹",
        r"亲属", r"家属", r"亲戚", r"遗传",
    ),
    "smoking": (r"嗜好|不良习惯", r"抽烟", r"吸烟", r"烟", r"(抽|吸).{0,3}(几|多少)(根|支|包)", r"几根|几包"),
    "drinking": (r"嗜好|不良习惯", r"喝酒", r"饮酒", r"酒"),
    "occupation": (
        r"什么工作", r"职业", r"上学|几年级", r"干什么(活|的)", r"做什么的", r"上班", r"从事", r"粉尘", r"化学品", r"毒物",
    ),
    "menstrual": (r"月经", r"例假", r"大姨妈", r"经期", r"痛经", r"绝经", r"周期\S{0,2}(准|规律|多少天|几天|多长)|(多少|几)天来一次|多久来一次|卫生巾|(一次|每次)来几天|几天(才)?干净"),
    "obstetric": (
        r"怀孕", r"怀过", r"孕", r"生过", r"生育", r"(?<!医)(生|有|要|几个)(过|了)?.{0,2}(孩子|小孩)", r"流产", r"顺产", r"剖宫产", r"结婚",
        r"同房", r"避孕", r"性生活", r"几胎", r"怀上",
    ),
    "age": (r"^(现在)?(孩子|宝宝|宝贝|小孩)(现在)?(是|才|有)?(\d+|[一二两三四五六七八九十半]+)(天|个?月|周)(了|大)?(吗|吧|呢|[？?]|$)", r"多大", r"年纪", r"年龄", r"几岁", r"岁数", r"多少岁", r"几个月(了|大)", r"周岁|(\d+|[一二两三四五六七八九十半]+)岁(半)?(了)?(吧|吗|呢|[？?]|$)", r"(生后|出生)\S{0,2}(第)?几天",
            r"几天大|满月|满.{0,2}岁|[0-9一二三四五六七八九十两半]+(天|个?月|周)大(?![概约便])"),
    "tests": (
        r"检查", r"化验", r"片子", r"拍过片", r"心电图", r"胃镜", r"ct", r"b超", r"彩超", r"核磁", r"抽过血",
        r"查过", r"(拍|照)(了|过)?\S{0,2}片|胸片", r"(医生|大夫)\S{0,4}听(过|了)|听过(吗|没有)", r"支原体|衣原体", r"听诊|听(了|过)?\S{0,2}(肺|心|气管|胸|Ｂ)|查体|抽(了|过)?血|验(了|过)?血", r"结果|数值|指标|滴度|报告|化验单",
        r"(查|测|验)(了|过|的|出|得)", r"常规", r"复查(了|过)",
    ),
    "vitals": (
        r"(量|测)过?.{0,3}(体温|血压|血糖)", r"(呼吸|心跳|心率|脉搏)\S{0,4}(多少|几)次?|(一|每)分钟\S{0,4}(多少|几)次", r"(体温|血压|血糖).{0,6}(多少|控制)", r"多少度", r"烧到",
        r"体温(?!计)", r"(最高|最低)\S{0,3}(多少|几度)", r"(烧|热)(得)?多高|几度",
        r"Ｓ到(过)?\S{0,4}(度|℃)|[三四]十\S{0,2}(度|℃)|\d+(\.\d+)?\s*(度|℃)|(?<!有)多重(?!要)|公斤|几斤|体重多少",
    ),
}

# Split symptom phrasings the lexicon cannot hold as one word: (pattern, canonical symptom).
_SPLIT_SYMPTOMS = (
    (r"(手脚|胳膊|腿|半边|一侧|手|脚).{0,4}(没劲|无力)", "肢体无力"),
    (r"体重.{0,4}(减轻|下降|掉)", "体重下降"),
    (r"痰.{0,4}(带血|有血)", "咯血"),
    (r"喘不喘", "呼吸困难"),
    (r"(?<![发怕寒凉])冷(?=吗|不冷|不|$|[？?])|觉得冷|身上冷", "畏寒"),  # 发烧的时候冷不冷 asks 畏寒
    (r"(腿|脚|脸|眼皮|手)\S{0,4}肿(?!块|物|瘤)", "水肿"),
    (r"(眼睛|皮肤|眼白|脸|身上)\S{0,4}(发黄|黄不黄|黄吗|变黄)", "黄疸"),
    (r"(?<![止镇])咳(?![嗽痰血])(?=吗|不|没|了没|$)", "咳嗽"),
    (r"(?:(?<=有没有)|(?<=有无)|(?<=会不会)|(?<=还))吐(?![血痰])|吐(了|过)?(?=没)", "呕吐"),
    (r"(?<=还)拉(?=吗|不|没|了吗|[？?]|$)", "腹泻"),  # 现在还拉吗: still the diarrhoea
)

@cache
def _compiled() -> dict[str, re.Pattern[str]]:
    # cue patterns are written with 疼; records and clinicians write 疼 and 痛 alike
    return {
        topic: re.compile("|".join(f"(?:{p})" for p in pats).replace("疼", "[疼痛]"))
        for topic, pats in _CUES.items()
    }


@cache
def _symptom_canon() -> frozenset[str]:
    lexicon_symptoms = {canon for canon, _ in textlink.lexicon_groups("symptoms.txt")}
    return frozenset(vocab.SYMPTOMS) | frozenset(lexicon_symptoms)


# Canonical terms that name a quality of pain rather than a symptom (胀痛/刺痛 → 疼痛):
# a question naming them asks about character, not an associated symptom.
_QUALITY = frozenset({"疼痛"})
_MENSTRUAL_TERM = re.compile(r"月经|经期|经量|闭经|痛经|孕|产")


# disease names that are another topic's cue word (过敏 → allergies, 感冒 → a contact or a cold)
_NOT_CONDITION = re.compile(r"过敏|感冒|着凉|受凉|孕|怀|产|月经|经期|中暑|上火")


@cache
def _condition_canon() -> frozenset[str]:
    """Conditions a clinician asks about by name: the simulator's list and the disease lexicon."""
    table = textlink.lay_to_canonical()
    diseases = {table.get(canon, canon) for canon, _ in textlink.lexicon_groups("diseases.txt")}
    return frozenset(vocab.CONDITIONS) | (diseases - _symptom_canon())


@cache
def _disease_pattern() -> re.Pattern[str]:
    names = {n for canon, aliases in textlink.lexicon_groups("diseases.txt") for n in (canon, *aliases)
             if len(n) >= 2 and not _NOT_CONDITION.search(n) and not re.fullmatch(r"[A-Za-z0-9]+", n)}
    names -= set(textlink.lay_to_canonical())
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) or "(?!)")


@cache
def _body_pattern() -> re.Pattern[str]:
    """Body-part names (lexicon plus the simulator's site words), longest first."""
    names = {n for canon, aliases in textlink.lexicon_groups("body_parts.txt") for n in (canon, *aliases)}
    names |= {"肚脐周围", "肚脐", "右下腹", "左下腹", "右上腹", "左上腹", "上腹", "下腹", "小肚子", "心窝", "胸口",
              "后背", "腰", "大腿根", "后脑勺", "前额", "太阳穴", "枕部", "额部", "颞部", "眼眶", "牙", "耳"}
    names = {n for n in names if len(n) >= 2 or n in ("腰", "头", "胸", "背")}
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))


@cache
def _drug_pattern() -> re.Pattern[str]:
    names = {n for canon, aliases in textlink.lexicon_groups("drugs.txt") for n in (canon, *aliases) if len(n) >= 3}
    names |= {n for members in vocab.DRUG_CLASSES.values() for n in members}
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) or "(?!)")


# laboratory analytes whose names are not also a vital sign, a sugar test, a mineral supplement or a
# urine property (the text layer's analyte lexicon holds every name a report gives them)
_LAB_GROUPS = frozenset({"blood_count", "liver", "renal", "chemistry", "inflammation", "blood_gas", "coagulation",
                         "cardiac", "marker", "endocrine", "lipid"})


@cache
def _lab_pattern() -> re.Pattern[str]:
    from medsim.text import analytes

    names = {n.lower() for k in analytes.keys() if analytes.get(k).group in _LAB_GROUPS
             for n in analytes.names(k) if (len(n) >= 2 and not n.isascii()) or (n.isascii() and len(n) >= 3)}
    names -= {"中性", "比重", "压积"}
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) or "(?!)")


@cache
def _exam_pattern() -> re.Pattern[str]:
    names = {n for canon, aliases in textlink.lexicon_groups("exams.txt") for n in (canon, *aliases) if len(n) >= 2}
    return re.compile("|".join(re.escape(n.lower()) for n in sorted(names, key=len, reverse=True)) or "(?!)")


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    # cached: a message is folded by the rules, then again for the topic model's features
    out = textlink.normalize(text)
    for pattern, repl in _FOLD:
        out = re.sub(pattern, repl, out)
    return out


def named_items(text: str) -> tuple[list[str], list[str], str]:
    """Symptoms and conditions named in ``text`` (canonical), and the text with them masked."""
    symptoms, conditions, masked = _named_items(text)
    return list(symptoms), list(conditions), masked


@lru_cache(maxsize=4096)
def _named_items(text: str) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    # cached (the rules and the topic model's features both read a sentence's named items)
    symptoms: list[str] = []
    conditions: list[str] = []
    masked = list(text)
    for pattern, canon in _SPLIT_SYMPTOMS:
        for m in re.finditer(pattern, text):
            symptoms.append(canon)
            masked[m.start():m.end()] = "Ｓ" * (m.end() - m.start())
    joined = "".join(masked)
    cond_canon = _condition_canon()
    for canon, s, e in textlink.find_terms(joined):
        if "Ｓ" in joined[s:e] or canon in _QUALITY or _MENSTRUAL_TERM.search(canon):
            continue  # 月经推迟 is itself the menstrual question, not an associated symptom
        if canon in cond_canon and (canon in vocab.CONDITIONS or not _NOT_CONDITION.search(joined[s:e] + canon)):
            conditions.append(canon)
            masked[s:e] = "Ｃ" * (e - s)
        elif canon in _symptom_canon():
            if _NOT_A_SIGN.match(joined, e):
                continue  # 咳嗽药 / 痰培养: a medicine or a specimen named by the symptom, not the symptom asked
            symptoms.append(canon)
            masked[s:e] = "Ｓ" * (e - s)
    # disease names the lay vocabulary does not hold (肺炎, 鼻炎, 湿疹): asked about by name
    joined = "".join(masked)
    for m in _disease_pattern().finditer(joined):
        if not re.search(r"[ＳＣ]", m.group(0)):
            conditions.append(m.group(0))
            masked[m.start():m.end()] = "Ｃ" * (m.end() - m.start())
    # drugs are masked as Ｄ first, so 头孢 is not the body part 头
    joined = "".join(masked)
    for m in _drug_pattern().finditer(joined):
        masked[m.start():m.end()] = "Ｄ" * (m.end() - m.start())
    # body parts left after the symptoms are masked as Ｂ (肚脐周围疼还是右下腹疼 → site)
    joined = "".join(masked)
    spans = None
    for m in _body_pattern().finditer(joined):
        if m.end() - m.start() == 1:
            spans = spans if spans is not None else _token_spans(text)
            if not _free_standing(m.start(), text, spans):
                continue  # 头 inside 石头 / 骨头 / 馒头 is no body part
        masked[m.start():m.end()] = "Ｂ" * (m.end() - m.start())
    return tuple(_dedupe(symptoms)), tuple(_dedupe(conditions)), "".join(masked)


# what after a symptom's words makes them a medicine's or a test's name (咳嗽药, 止泻药, 痰培养, 大便常规)
_NOT_A_SIGN = re.compile(r"药|培养|涂片|常规|化验")


def _token_spans(text: str) -> dict[int, str]:
    """Start offset → token, from the text layer's segmenter (offsets found in order)."""
    spans: dict[int, str] = {}
    pos = 0
    for tok in textlink.tokens(text):
        at = text.find(tok, pos)
        if at < 0:
            continue
        spans[at] = tok
        pos = at + len(tok)
    return spans


# what may follow a one-character body part inside its token: 头部, 胸口, 背上, 腰这里, 头疼
_BODY_TAIL = re.compile(r"[部上下里边面前后侧口顶疼痛胀酸麻痒]")


def _free_standing(pos: int, text: str, spans: dict[int, str]) -> bool:
    """A one-character body part counts only where the segmenter starts a word with it and the
    word is the character alone or the character and a place / sensation word (头 in 头哪里疼,
    胸口, 背上), never the tail of another word (石头, 骨头, 馒头, 枕头)."""
    tok = spans.get(pos)
    if tok is None:
        return False
    return len(tok) == 1 or bool(_BODY_TAIL.match(tok[1:]))


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


_ASPECT_BLOCK = re.compile(r"影响|是\S{0,2}(刚开始|刚刚|前天|昨天|今天|大前天|今晚|昨晚|今早|昨早)|主要是|勤|Ｓ\S{0,3}重(吗|不|吧|么|[？?]|$)|什么时候|多久|几天|哪里|什么样|怎么个|怎么样|怎样|如何|厉害|严重|窜|放射|加重|缓解|咳了|性质|部位|之前|[疼痛]得(睡|影响|不能|没法)|还是|"
                           r"频繁|次数|几次|多吗|多不多|减轻|好转|好了|好点|完全|原因|引起|的时候|复发|降|退|以前|小时候?|从小|得过|患过")
# a named symptom in these is not asked as this illness's symptom: the past (得过, 小时候), what came
# before it (出现Ｓ之前), a contact's illness (家里大人有没有感冒), a test (检查有没有红肿)
_HARD_BLOCK = re.compile(r"得过|患过|以前|小时候?|从小|Ｓ+\S{0,2}之前|家里|家人|大人|周围|接触|班里|别的小朋友|"
                         r"(妈妈|母亲|爸爸|父亲|哥哥|姐姐)也?(有没有|有|是否)|"
                         r"检查\S{0,6}(有没有|是否)|完全好|好利索")
# the named symptom is the subject and the question predicates on it (咳嗽是一声声的吗, 咳嗽是干的
#还是湿的): what it is like, not whether it is there; 是流涕鼻塞吗 (是 before the symptom) is not this
_PREDICATED = re.compile(r"Ｓ是(?!不是|否|[吗呢吧])[^Ｓ，。？?]{1,8}?的?(吗|呢|吧|还是)")
_TIME_WORD = re.compile(r"治|药|医|查|开始|时候|什么时|几|多久|以前|之前|以后|之后|[天周月年]|今|昨|早|晚|夜|白天|最近|现在|一直|第一次")
# the yes/no word attaches to a change, not to the symptom: 咳嗽是否有好转 / 有没有减轻 ask the course
_ASPECT_ASKED = re.compile(r"(有没有|是否|有无)有?\S{0,2}(好转|减轻|加重|缓解|改善|减少|增多|变化|好[点些]|严重|厉害|(降|退)?(下来|下去)|(降|退)了?(一点|一些)|降低)")
_YESNO = re.compile(r"吗|么|呢|吧|有没有|是否|有无|会不会|没有|伴|不\S?[？?]|不$|了没")


# a sentence that asks something (a question mark or word, an A不A / A没A form, a closing 吧)
_ASKS = re.compile(r"[？?]|吗|呢|吧|么|有没有|有无|是否|什么|怎么|怎样|如何|哪|几|多少|多久|多大|多长|是不是|会不会|能不能|"
                   r"可不可以|还是|(\S)不\1|(\S)没\1|[不没](有)?$")
_SENTENCE = re.compile(r"(?<=[？?。！!；;])")
# a final answer in a scenario's JSON format is said to the patient but asks nothing: no
# similarity guess for it (its disease words would resemble the bank's site questions)
_FINAL_ANSWER = re.compile(r"\s*(```(json)?\s*)?[{\[]")


def classify(text: str) -> Parsed:
    """The topics of a clinician message, with the symptoms and conditions it names: the cue rules
    (:func:`classify_rules`), re-weighed by the learned topic model (:mod:`medsim.sim.topic_model`)
    when its weights ship. A message the rules read as asking nothing on purpose (an
    acknowledgement, a request for a photo, a final answer) stays so."""
    from medsim.sim import topic_model

    parsed = classify_rules(text)
    if not parsed.topics and not parsed.fuzzy:
        return parsed
    model = topic_model.loaded()
    if model is None:
        return parsed
    units = learning_units(text, parsed)
    heard = heard_topics(units, model) if units else parsed.topics
    if set(heard) == set(parsed.topics):
        return parsed
    symptoms = parsed.symptoms
    if "associated" not in heard:
        symptoms = []
    elif not symptoms:  # heard by the model: the symptoms the message names are the ones asked
        symptoms = _dedupe([x for sentence in _SENTENCE.split(fold(text)) for x in named_items(sentence)[0]])
    return Parsed(topics=heard, symptoms=symptoms, conditions=parsed.conditions, fuzzy=parsed.fuzzy)


def heard_topics(units: list[Unit], model: dict) -> list[str]:
    """The topics the model hears in a message's units, in message order (answers follow it)."""
    from medsim.sim import topic_model

    heard: list[str] = []
    for unit in units:
        found = set(unit.fixed) if unit.fixed is not None else topic_model.decide(
            topic_model.probabilities(unit.feats, model), unit.rule_topics, model, unit.vetoed)
        heard += [t for t in TOPICS if t in found]
    heard = _dedupe(heard)
    if set(heard) - {"greeting"}:
        heard = [t for t in heard if t != "greeting"]  # a greeting is a topic only when it is all
    return heard


@dataclass
class Unit:
    """What the topic model scores: one message, or one asking sentence of a longer one;
    ``fixed``: topics the rules carried over from the sentence before, kept as they are."""

    feats: list[str]
    rule_topics: list[str]
    vetoed: frozenset[str] = frozenset()
    fixed: list[str] | None = None


def learning_units(text: str, parsed: Parsed | None = None) -> list[Unit]:
    """The parts of a message the topic model decides on: a message of several asking sentences
    is scored sentence by sentence (each with the rules' reading of it), as the rules read it, so
    a compound question gets every part's topics; otherwise the message as a whole."""
    from medsim.sim import topic_model

    parsed = parsed or classify_rules(text)
    if not parsed.topics and not parsed.fuzzy:
        return []  # asks nothing on purpose (an acknowledgement, a photo, a final answer)
    parts = parsed.parts if len(parsed.parts) > 1 else [(text, parsed.topics, False)]
    parts = [clause for part in parts for clause in _asking_clauses(part)]
    units = []
    for part, rule_topics, carried in parts:
        fuzzy = parsed.fuzzy if len(parts) == 1 else not rule_topics
        # 家里有体温计吗: the rules have ruled the family out (a household object)
        vetoed = frozenset({"family_history"}) if "family_history" not in rule_topics and _household_only(
            _masked_message(part)) else frozenset()
        if "general" in rule_topics and _WEIGHT_CHANGE.search(fold(part)) and not _WEIGHT_VALUE.search(fold(part)):
            # 体重是轻了还是重了: a weight change is general (TOPICS.md), not the illness's course; kg are vitals
            vetoed |= {"vitals", "course"} - set(rule_topics)
        units.append(Unit(topic_model.features(part, rule_topics, fuzzy), rule_topics, vetoed,
                          fixed=rule_topics if carried else None))
    return units


def _asking_clauses(part: tuple[str, list[str], bool]) -> list[tuple[str, list[str], bool]]:
    """A sentence the rules hear several topics in, made of comma-separated clauses that each ask
    something of their own (咳嗽厉害吗，有没有发热 / 现在咳嗽的厉害吗，服用了哪些药物): one part per
    clause, each with the rules' reading of it, so the model answers the compound part by part
    instead of dropping all but its likeliest topic. A list of symptoms (有没有发烧，咳嗽) or a clause
    that asks nothing alone stays in its sentence."""
    sentence, rule_topics, carried = part
    if carried or len(rule_topics) < 2:
        return [part]
    clauses: list[str] = []
    for c in (c for c in re.split(r"[，,]", fold(sentence)) if c.strip("？?。！!；;，, ")):
        if clauses and not _ASKS.search(c):
            clauses[-1] += "，" + c  # 有没有接触，其他拉肚子的孩子: the object of the clause before
        else:
            clauses.append(c)
    if len(clauses) < 2 or not all(_ASKS.search(c) for c in clauses):
        return [part]
    read = [_classify_sentence(c, alone=False).topics for c in clauses]
    if not all(read) or set().union(*read) - set(rule_topics):
        return [part]  # a clause heard only with its neighbours, or heard as something the sentence is not
    return [(c, topics, False) for c, topics in zip(clauses, read, strict=True)]


_WEIGHT_CHANGE = re.compile(r"体重\S{0,6}(轻|重|变化|掉|涨|减|增|下降|瘦|胖)|(瘦|胖)了")
_WEIGHT_VALUE = re.compile(r"多少|几|公斤|斤|kg")


def _masked_message(text: str) -> str:
    return "".join(named_items(sentence)[2] for sentence in _SENTENCE.split(fold(text)))


def classify_rules(text: str) -> Parsed:
    """The topics of a clinician message by the cue rules alone, with the symptoms and conditions it names.

    Each sentence is classified on its own (precedence rules are local: 过敏 in one sentence
    must not cancel 吃什么药 in the next), and the results are united in message order.
    """
    topics: list[str] = []
    symptoms: list[str] = []
    conditions: list[str] = []
    if _ACK.match(fold(text)) or _WHO.match(fold(text)):
        return Parsed()  # 嗯，明白了 / 您是宝妈吗: nothing asked of the history
    sent = False
    sentences = [x for x in _SENTENCE.split(fold(text)) if x.strip("？?。！!；;，, ")]
    if len(sentences) > 1 and any(_ASKS.search(x) for x in sentences):
        # 与感冒人接触有被传染的可能。目前咳嗽多吗？: a statement beside a question asks nothing
        sentences = [x for x in sentences if _ASKS.search(x)]
    previous: list[str] = []
    parts: list[tuple[str, list[str], bool]] = []
    for sentence in sentences:
        if _OPINION.search(sentence):
            sent = True
            continue  # 你觉得你这是啥病: the patient's own idea of the illness, no history topic
        cut = _SEND.sub("", _PHOTO.sub("", sentence))  # 发个化验单照片我看看: nothing the patient can tell
        sent |= cut != sentence
        sentence = cut
        if not sentence.strip("？?。！!；;，, "):
            continue
        parsed = _classify_sentence(sentence, chronic=any(c in vocab.CONDITIONS for c in conditions)
                                    or "past_history" in topics, alone=len(sentences) == 1)
        own = parsed.topics
        parsed.topics = _carry(parsed.topics, previous, sentence)
        parts.append((sentence, parsed.topics, parsed.topics != own))
        previous = parsed.topics or previous
        topics += [t for t in TOPICS if t in parsed.topics]  # message order, so answers follow it
        symptoms += parsed.symptoms
        conditions += parsed.conditions
    if set(topics) - {"greeting"}:
        topics = [t for t in topics if t != "greeting"]  # a greeting is a topic only when it is all
    out = Parsed(topics=_dedupe(topics), symptoms=_dedupe(symptoms), conditions=_dedupe(conditions), parts=parts)
    if not out.topics and not sent and not _FINAL_ANSWER.match(text) and not _ACK.match(fold(text)):
        return _nearest(fold(text))
    return out


# the patient's own opinion of what is wrong (not a history topic: the reply says they do not know)
_OPINION = re.compile(r"(你|您)(自己)?(觉得|认为|感觉|担心|怀疑|猜)\S{0,8}(什么|啥)(病|毛病|问题)")


def _carry(topics: list[str], previous: list[str], sentence: str = "") -> list[str]:
    """A short follow-up read with the sentence before it: 来之前吃过药没？管用不？ asks whether the
    treatment helped; 月经怎么样？最后一次是什么时候？ asks the last period."""
    if "treatment" in previous and topics and set(topics) <= {"relief", "course"}:
        # 吃过药没？管用不？: whether the treatment helped; 咳嗽有没有好转 names the complaint: how it
        # has gone (course), which the answer to the treatment does not tell
        if "course" in topics and named_items(sentence)[0]:
            return ["course"]
        return ["treatment"]
    if topics == ["past_history"] and set(previous) & {"tests", "treatment"} and not re.search(_PAST_MARK, sentence):
        # 拍胸片了吗？有气管炎和肺炎吗？: what the test or the doctor found this time, not an old illness
        return [t for t in ("tests", "treatment") if t in previous][:1]
    if "general" in previous and topics == ["course"] and re.fullmatch(
            r"(那|那么|大概|一般)?(一天|每天|一日|平时)?(大概|一般)?(几次|几回|多少次)(呢|啊|吧|吗)?[？?。]?", sentence):
        return ["general"]  # 大便次数正常吗？一天几次呢: the bowels' frequency, still the general question
    habits = [t for t in previous if t in ("smoking", "drinking")]
    if habits and not topics and re.search(r"多少|几|多久|多长|量", sentence):
        return habits  # 喝酒不？一次喝多少？: the amount of the habit just asked
    if habits and topics and set(topics) <= {"duration", "onset", "course", "smoking", "drinking"}:
        return list(dict.fromkeys([t for t in topics if t in habits] or habits))  # 抽烟吗？抽多少年了，一天几包？
    if topics == ["age"] and set(previous) & {"associated", "character", "site", "severity"} \
            and re.fullmatch(r"(有)?多大(呢|啊)?[？?。]?", sentence):
        return ["site"]  # 痒吗？多大: the size of the sign just asked, not the age
    if "radiation" in previous and topics == ["site"]:
        return ["radiation"]  # 往别处窜不？胳膊后背啥的？
    if previous and set(previous) & {"menstrual", "obstetric"} and topics and set(topics) <= {"onset", "duration", "course"}:
        return [t for t in previous if t in ("menstrual", "obstetric")]
    return topics


# a condition asked about the past, not this illness (以前得过肺炎吗, 小时候有没有湿疹, 平时容易喘吗)
_PAST_MARK = r"以前|之前|上次|那次|当时|小时候?|从小|过去|从前|得过|患过|有过|过吗|史|平时|平常|经常|容易|一直|体质"


# what a bare list of symptoms may hold besides the symptoms: 比如说Ｓ、Ｓ等, Ｓ或Ｓ, Ｓ不
_LIST_FILLER = re.compile(r"Ｓ|比如说?|例如|像是?|或者?|和|及|与|、|等(?:现象|情况|症状)?|的?情况|现象|不$|吗$|没$|没有$|呢$|啊$|\s")


def _classify_sentence(folded: str, chronic: bool = False, alone: bool = True) -> Parsed:
    """One sentence; ``chronic``: an earlier sentence of the message named a chronic condition or
    asked the past history, so a bare drug question that follows asks the regular medicines;
    ``alone``: the sentence is the whole message (not one of a chain of questions)."""
    symptoms, conditions, masked = named_items(folded)
    topics = {t for t, pat in _compiled().items() if pat.search(masked)}

    # A named symptom asked yes/no (有没有发烧 / 头晕吗) is an associated-symptom question,
    # unless the clause asks an aspect of it (胸痛什么时候开始的 → onset).
    asked_symptoms: list[str] = []
    for clause, at in _clauses_at(masked):
        if "Ｓ" not in clause or clause.startswith("除了") or _compiled()["menstrual"].search(clause):
            continue
        clause_symptoms, _, _ = named_items(folded[at:at + len(clause)])
        if alone and set(clause_symptoms) <= {"咳痰", "咳嗽"} and "咳痰" in clause_symptoms \
                and not re.search(r"除了|其他|别的|还有|几天|多久|什么时候|以前|之前|家里", clause):
            # 有痰吗 / 咳嗽有没有痰 asked on its own: whether the cough brings up sputum, its kind (in a
            # chain of yes/no symptoms, 嗓子疼不疼？咳不咳？有痰没？, it is one more symptom)
            topics.add("character")
            continue
        if _ASPECT_BLOCK.search(clause) and not re.search(r"有没有|是否|伴", clause) or _HARD_BLOCK.search(clause) \
                or _ASPECT_ASKED.search(clause):
            continue
        if re.search(r"[疼痛]得", clause):  # 疼得睡不着: how bad the pain is, not insomnia
            clause_symptoms = [c for c in clause_symptoms if c not in ("失眠",)]
        if _compiled()["radiation"].search(clause):
            clause_symptoms = [c for c in clause_symptoms if not c.endswith("痛")]
        if _PREDICATED.search(clause) and not _TIME_WORD.search(clause):
            topics.add("character")  # 咳嗽是一声声的吗: the symptom is the subject, its kind is asked
            continue
        if _YESNO.search(clause) or clause.endswith("Ｓ"):
            own = _general_items(folded[at:at + len(clause)])
            if own:  # 喝水多吗 / 尿多不多 / 精神差吗: the named item is eating, bowels, sleep or spirits
                topics.add("general")
            asked_symptoms.extend(c for c in clause_symptoms if c not in own)
    if asked_symptoms:
        # a clause that is nothing but named symptoms (…有没有流鼻涕，咳嗽，腹泻) is the same yes/no list
        for clause, at in _clauses_at(masked):
            if "Ｓ" in clause and not clause.startswith("除了") and not _LIST_FILLER.sub("", clause):
                asked_symptoms.extend(named_items(folded[at:at + len(clause)])[0])
        asked_symptoms = _dedupe(asked_symptoms)
    if asked_symptoms and _alternative_of_one(masked, folded):
        topics.add("character")  # 咳嗽是一声一声的咳嗽，还是一连串咳嗽: what the complaint is like
        asked_symptoms = []
    if asked_symptoms:
        topics.add("associated")
    asked_marker = r"吗|呢|吧|有没有|是否|有无|得过|患过|以前|小时候?|从小|过去|史|[？?]|(\S)不\1"
    asked_conditions = [c for c in conditions if c in vocab.CONDITIONS] + [
        c for c in re.split(r"[，,；;]", masked) if "Ｃ" in c and re.search(asked_marker, c)]
    if asked_conditions and "family_history" not in topics and re.search(
            r"Ｃ的?(多吗|多不多|重吗|重不重|严重吗|严不严重|厉害吗|厉不厉害)", masked) and not re.search(_PAST_MARK, masked):
        topics.add("severity")  # 宝宝湿疹多吗: how bad the complaint is, not whether it was ever had
        asked_conditions = []
    if asked_conditions and "family_history" not in topics:
        if re.search(r"目前|现在|身上|这次|这回|这两天|这几天|最近|还有", masked) and not re.search(_PAST_MARK, masked):
            topics.add("associated")  # 目前身上有荨麻疹吗: a sign of this illness now, asked yes/no
            asked_symptoms.extend(c for c in conditions if c not in asked_symptoms)
        else:
            topics.add("past_history")
    if (re.search(r"^(还是|就是|那就是|那种|或者)?说?(是|会不会是|是不是|是否是?)\S{0,3}Ｃ\S{0,2}(吗|吧|呢|[？?]|$)|Ｃ\S{0,2}还是\S{0,2}Ｃ", masked)
            or re.search(r"^(还是|那种|那|或者|就是)说?是?[^有得患]{0,3}Ｃ+\S{0,2}(吗|吧|呢|[？?]|$)|Ｂ*炎还是\S{0,3}Ｃ|Ｃ\S{0,3}还是\S{0,3}炎", masked)
            or re.search(r"^(还是|就是)?说?是?\S{0,2}(感冒|病毒感染|细菌感染)(吗|吧|呢|[？?]|$)|(炎症|感染|发炎|Ｃ)\S{0,2}(是吗|对吗|是吧|对吧)[？?]?$", masked)
            or re.search(r"(诊断|说是|考虑|排除|确诊|怀疑|说\S{0,4}(有|是))\S{0,4}Ｃ", masked)) \
            and not re.search(r"以前|之前|上次|那次|当时|小时候?|从小|得过|患过|说过|体质|刚好", masked):
        topics.discard("past_history")
        topics.add("treatment")  # 是肺炎吗 / 支气管炎还是肺炎 / 排除肺炎了吗: what this illness was diagnosed as
    if _lab_pattern().search(folded) or re.search(r"(黄疸|黄胆|胆红素)\S{0,4}(多高|多少|指数|值|\d)|(测|查|验)量?(过|了)?\S{0,3}(黄疸|黄胆|胆红素)|经皮", folded):
        topics -= {"associated", "vitals", "past_history"}
        topics.add("tests")  # 尿里有白细胞吗 / 中性粒细胞比例呢 / 黄疸多高: a laboratory result
    # 还发烧吗 / 还有没有咳嗽 name a symptom asked yes/no: associated, as TOPICS.md says (most annotators)
    if re.search(r"第一次\S{0,3}Ｓ", masked) and not re.search(r"除了|另外|其他|别的|同时|以外", masked) \
            and "associated" in topics and not topics & {"tests", "treatment"}:
        topics.discard("associated")
        topics.add("course")  # 还发烧吗 / 还有没有咳嗽: whether it is still there, how it has gone
    if re.search(r"(正常|好|下去|退|消|停|没)了?(有)?几天", masked):
        topics -= {"duration", "vitals"}
        topics.add("course")  # 体温正常几天了 / 疹子下去几天了: since when it has been better
    if re.search(r"(吐|咳|烧|抽|喘|发作)\S{0,4}(几次|多少次|几回)", folded) and not re.search(r"拉|大便|便便|排便|药", folded):
        topics -= {"duration", "severity", "general", "associated"}
        topics.add("course")  # 吐了几次 / 一天咳几回: how often it comes, the course (not how long)
    if "age" in topics and re.search(r"(天|个?月|周)大(?![概约便])|^(现在)?(孩子|宝宝|宝贝|小孩)(现在)?(是|才|有)?(\d+|[一二两三四五六七八九十半]+)(天|个?月|周)", masked):
        topics.discard("duration")
    if "course" in topics and re.search(r"间隔|隔\S{0,2}(多久|几天)", masked):
        topics.discard("duration")  # 间隔多久发烧一次: how often it comes back
    # an examination named with 过/吗/报告 (拍过胸片吗) asks about tests already done
    if _exam_pattern().search(folded) and re.search(r"过|报告|结果|(做|拍|查|照)了", folded):
        topics.add("tests")
    if _drug_pattern().search(folded) and re.search(r"吃|用|服|每天|按时|打|喂|喝", folded) and not topics & {
            "allergies", "treatment", "relief", "triggers", "medications"}:
        # 阿司匹林每天都吃吗: a regular medicine; 头孢吃两天了吗: one taken for this illness
        topics.add("medications" if chronic or _regular_medicine(folded) else "treatment")
    if not topics and "Ｂ" in masked and re.search(r"[？?]|吗|呢|还是|是否", masked):
        # only a body part asked about (是胸口这块吗): where it is; 肚子有咕噜响吗 / 舌苔厚吗 ask a sign there
        sign = re.search(r"Ｂ\S{0,3}(有没有|有|是否|会|发|很|比较)?\S{0,2}[^ＢＳＣＤ吗呢吧？?，,。这那里块边儿部上下还是是]{1,4}(吗|不|没有|呢|[？?]|$)", masked) \
            and not re.search(r"是\S{0,3}Ｂ|Ｂ\S{0,4}还是|哪", masked)
        topics.add("associated" if sign else "site")
    if "treatment" in topics and re.search(r"药|Ｄ|胰岛素", masked) and (chronic or _regular_medicine(folded)) \
            and not re.search(r"医生|医院|诊所|看过|输液|打针|雾化|效果|管用|好转|缓解|减轻|好[点些]", masked):
        topics.discard("treatment")
        topics.add("medications")  # 平时吃什么药 / 有没有高血压？吃什么药？: the regular medicines
    if _SUPPLEMENT.search(folded) and not topics & {"allergies", "family_history"}:
        topics.discard("treatment")
        topics.add("medications")  # 有没有补充维生素D / 口服鱼肝油: a daily supplement, a regular medicine
    if _SEQUENCE.search(masked):
        topics -= {"associated", "course"}
        topics.add("onset")  # 先呕吐又发热对吗: how it began, which came first
        asked_symptoms = []
    if _MOTHER_ATE.search(masked) and not re.search(r"遗传|家族|得过|患|Ｃ", masked):
        topics -= {"family_history", "general"}
        topics.add("triggers")  # 母亲也没有吃韭菜，菠菜之类的食物吧: the breast-fed child's exposure
    if (_KIND_OF.search(masked) or _KIND_WORDS.search(folded) and not re.search(r"有没有|有无|是否|(\S)不\1", folded)
            or _KIND_SOUND.search(folded) and not re.search(r"有没有|有无|是否", folded)) and not re.search(r"除了|其他|别的|还有|以前|之前", masked):
        topics -= {"associated", "triggers", "general"}
        topics.add("character")  # 是阵发性咳嗽 / 臭不臭 / 呼噜呼噜的声音还是齁齁的: what the complaint is like
        asked_symptoms = []
    if re.search(r"高烧还是低烧|低烧还是高烧", folded):
        topics, asked_symptoms = {"severity"}, []  # how high the fever runs: how bad (the degrees are vitals)
    topics = _precedence(topics, masked, folded)
    if topics and not _ASKS.search(folded) and re.search(r"可以|需要|建议|应该|注意|不用|不要|最好|一般|可能会|及时", folded) \
            and not re.search(r"[？?]|吗|呢|吧|么", folded):
        # 如果没有脱水的情况可以继续口服药物。: advice, the message asks nothing (no sentence of it asks)
        topics, asked_symptoms = {"ending"}, []
    if re.search(r"体重|胃口|食欲|起\S{0,2}夜|夜尿", folded) and not topics & {"allergies", "family_history"}:
        topics.add("general")  # masked as a symptom (体重下降, 起几次夜), still the general question
    if "general" in topics and re.search(r"睡(觉|着)(的时候|时|后)?\S{0,2}(是否|有没有|会不会|会|还|也)?Ｓ", masked) \
            and not re.search(r"吃|喝|大便|小便|尿|精神|体重|胃口|食欲|睡(得|眠|不)|怎么样|好不好", masked) and asked_symptoms:
        topics.discard("general")  # 晚上睡觉出不出汗: a sign that comes in sleep
    if "general" in topics:
        # 体重掉没掉 / 睡不着吗 / 胃口差不差 asked beside the general questions are general's
        asked_symptoms = [x for x in asked_symptoms if x not in ("体重下降", "纳差", "失眠", "夜尿增多")]
        if not asked_symptoms and not _OPEN_OTHER.search(masked):
            topics.discard("associated")  # 有没有其他不舒服，吃饭怎么样: the open question is still asked
    if (_SIGN_ASKED.search(masked) or _AT_FUNCTION.search(folded)) \
            and not topics & {"allergies", "family_history", "tests", "treatment", "triggers"}:
        if not any(_compiled()["general"].search(c) and not _AT_FUNCTION.search(f) and not _SIGN_ASKED.search(c)
                   for c, f in _clause_pairs(masked, folded)):
            topics.discard("general")
        topics.add("associated")  # 呼吸平稳吗 / 大便时候哭闹吗 / 吃奶的时候有呛奶吗: a sign of the illness, asked yes/no
    if _MUCH_SIGN.search(folded) and not topics & {"tests", "treatment", "family_history"}:
        topics -= {"severity", "general"}
        topics.add("associated")  # 放屁多吗 / 打嗝多吗: much of it is the sign, not how bad another one is
    elif re.search(r"排气|(放屁|排气)\S{0,2}正常", folded) and "associated" in topics and not topics & {"tests", "treatment"} \
            and not any("Ｓ" in c and not re.search(r"排气|放屁", f) for c, f in _clause_pairs(masked, folded)):
        topics.discard("associated")
        topics.add("general")  # 每天有排气吗 / 放屁正常吗: the bowels' everyday function, the general question
    if "associated" in topics and not asked_symptoms and (_AT_FUNCTION.search(folded) or _MUCH_SIGN.search(folded)):
        asked_symptoms = list(symptoms)  # 吃奶的时候有呛奶吗 / 打嗝多吗: the sign named is the one asked
    if "associated" not in topics:
        asked_symptoms = []  # 用什么药会起疹子: the rash belongs to the allergy question
    return Parsed(topics=sorted(topics), symptoms=_dedupe(asked_symptoms), conditions=conditions)


# the open question for other symptoms (associated's own cue)
_OPEN_OTHER = re.compile(r"(还有|除了|其他|别的|另外|同时).{0,8}(不舒服|症状|感觉|难受|不得劲|不好受|不对劲)|伴随|伴有.{0,4}(症状|什么)")
# 先吐又发热 / 是先咳还是先烧: which came first, how it began (onset), not whether each is there
_SEQUENCE = re.compile(r"先\S{0,3}(Ｓ|吐|拉|烧|咳)\S{0,4}(又|再|后|然后|才|还是先?|接着)\S{0,3}(Ｓ|吐|拉|烧|咳)")
# the complaint's kind named with it (阵发性咳嗽, 咳嗽深还是浅), a discharge's smell asked alone (臭不臭,
# 有没有酸臭味), a breathing sound described (呼噜呼噜的声音还是齁齁的, 有没有呼噜呼噜的痰音)
_KIND_OF = re.compile(r"Ｓ(深|浅)\S{0,3}还是|^\S{0,4}(有没有|有)?\S{0,2}(酸臭|腥臭|(?<![口狐])臭)味?(吗|不|呢|[？?]|$)|臭不臭")
_KIND_WORDS = re.compile(r"(阵发性?|持续性|刺激性|痉挛性|犬吠样?|鸡鸣样)的?(咳|喘|疼|痛)")
# a sound described, not asked yes/no (有没有呼噜呼噜的声音 asks whether the sign is there: associated)
_KIND_SOUND = re.compile(r"(呼噜|咕噜|齁齁?|嘶嘶|吼吼|呼呼)\S{0,3}的?(声音|痰音|声)")
# a breast-feeding mother's food: 妈妈最近吃了什么, 母亲也没有吃韭菜菠菜之类的吧 (a cause, not the family)
_MOTHER_ATE = re.compile(r"(妈妈|母亲|宝妈|哺乳期)的?(也|最近|这几天|这两天|平时)?(没有|有没有|是否)?\S{0,2}(吃|喝|饮食)(?!\S{0,4}(药|Ｄ))")
# supplements a child takes every day (维生素D, 鱼肝油, 伊可新, 钙): regular medicines
_SUPPLEMENT = re.compile(r"维生素\s?a?d|维d|伊可新|鱼肝油|补(充)?(钙|锌|铁)|钙片|ad滴剂")

# signs a parent is asked about yes/no that the lexicon does not hold as symptoms, or whose words
# (大便, 睡觉) would read as the general question: wind, breathing, crying at stool or in sleep
_SIGN_ASKED = re.compile(r"放屁(?!\S{0,2}正常)|打嗝|(站|抬|举|坐|走|爬)(得|不)(起来|动)|拿(得|不)住|呼吸\S{0,4}(正常|平稳|急促|费力|困难|快)|正常呼吸|"
                         r"(大便|排便|拉|睡觉|睡着|吃奶|吃饭|喂奶)\S{0,2}(时候|时|的时候)\S{0,4}(哭|闹|疼|出汗|憋)|哭醒")


def _clause_pairs(masked: str, folded: str) -> list[tuple[str, str]]:
    """Each clause of a sentence masked and as said (masking keeps the commas where they are)."""
    return list(zip(re.split(r"[，,；;]", masked), re.split(r"[，,；;]", folded), strict=False))


# signs whose amount is the sign itself (放屁多, 打嗝多): asked 多吗, they are asked yes/no
_MUCH_SIGN = re.compile(r"(放屁|排气|打嗝|嗳气)\S{0,3}(多|频繁)")
# a sign that comes at a feed, at stool or at passing urine (吃奶的时候有呛奶吗, 大便哭闹吗, 小便疼吗):
# the illness's sign, asked yes/no, not the feeding or the bowels themselves
_AT_FUNCTION = re.compile(r"(吃奶|喂奶|吃饭|喝奶|大便|排便|小便|排尿)[^，,。？?；;]{0,2}(的时候|时候|时)?[^，,。？?；;]{0,3}(呛|哭|闹|疼|痛)")


def _general_items(clause: str) -> set[str]:
    """Named symptoms whose own words are a general-condition item (喝水多 → 多饮, 尿多, 精神不好,
    睡不着): asked about, they are the general question (eating, drinking, bowels and urine, sleep,
    spirits), not another symptom of the illness."""
    return {canon for canon, s, e in textlink.find_terms(clause)
            if _GENERAL_ITEM.search(clause[s:e]) and not re.search(r"呛|吐|血|嗜", clause[s:e])}


# the words of an everyday function (not a bowel or urine finding such as 大便带血 or 排便困难,
# which are the illness's own signs)
_GENERAL_ITEM = re.compile(r"喝水|水喝|吃得|吃的|吃奶|进食|哺乳|奶量|饭|食欲|胃口|睡(觉|眠|得|不着|不好)|精神|体重|尿(多|少|量)|小便\S{0,2}(量|多|少)")


def _alternative_of_one(masked: str, folded: str) -> bool:
    """An either-or question about one named symptom (咳嗽是一声一声的还是一连串的 / 是一阵一阵地
    咳还是一直咳): the symptom's own character, not whether another symptom is present. Either-or
    about two symptoms (手脚发凉还是发热), about time (白天还是晚上) or place stays what it is."""
    if "还是" not in masked or re.search(r"Ｂ|白天|晚上|夜里|早上|上午|下午|以前|之前|以后|之后|开始|[天周月年]|次", masked):
        return False
    at = folded.find("还是")
    left = {c for c, _, _ in textlink.find_terms(folded[:at])}
    right = {c for c, _, _ in textlink.find_terms(folded[at:])}
    return bool(left) and left == right


def _clauses_at(masked: str) -> list[tuple[str, int]]:
    """The clauses of a masked sentence with where each starts: two clauses that mask alike (发烧，咳嗽
    → ＳＳ，ＳＳ) are two places, not the first one twice."""
    return [(m.group(0), m.start()) for m in re.finditer(r"[^，。；！？,;!?]+", masked)]


# 家里 asks about the family only when the family or an illness is its object: 家里有血压计吗 /
# 家里有没有测过血压 ask about a household object or act, 家里有人得过吗 / 家里有Ｃ吗 do not.
_HOUSEHOLD = re.compile(r"家里(?:有没有|是否有|有)(?P<obj>[^，。？！；]*)")
_FAMILY_OBJECT = re.compile(r"[人谁亲老长辈病症ＣＳ]|类似|一样|这样|同样|遗传|得过|患")
_OTHER_FAMILY_CUE = re.compile(r"家族|家人|父母|爸|妈|爹|娘|父亲|母亲|兄弟|姐妹|亲属|亲戚|遗传|子女|儿子|女儿")


def _household_only(masked: str) -> bool:
    m = _HOUSEHOLD.search(masked)
    return (m is not None and not _FAMILY_OBJECT.search(m.group("obj"))
            and not _OTHER_FAMILY_CUE.search(masked))


# What comes out (stool, sputum, nasal discharge, vomit, urine, a rash) and the words that
# describe it: asking what it looks like is the complaint's character, not another symptom.
_DISCHARGE = r"(大便|便便|拉的|屎|痰|鼻涕|涕|呕吐物|吐的|吐出|疹子|皮疹|疱疹|分泌物|白带|血丝)"
_LOOK = (r"(什么样|什么颜色|颜色|性状|形状|样子|稀|干|硬|水样|糊|黄|绿|白|清|浓|脓|血丝|带血|泡沫|粘液|黏液|奶瓣|"
         r"蛋花|酸臭|臭|水分|成形|成型|费力|费劲|多不多|多吗|量|痒|高(出|于)|突出|褪色|扎手|连成片|成片)")
_CHARACTER_OF = re.compile(
    rf"{_DISCHARGE}\S{{0,6}}{_LOOK}|(清|黄|浓|脓|白|绿|稀|水样|糊)\S{{0,4}}{_DISCHARGE}\S{{0,3}}还是|"
    rf"还是\S{{0,4}}(清|黄|浓|脓|白|绿|稀|水样|糊)\S{{0,3}}{_DISCHARGE}|"
    rf"^(就是|是|很|有点|挺|比较)?(稀|黄|绿|清|浓|水样|糊状|水便|稀水|稀便)(的|一些|一点)?(吗|不|呢|吧|[？?])|颜色\S{{0,6}}还是|干咳[，,]?还是|"
    rf"(绿色?|黄色?|水样|蛋花样?|糊状|稀|黏液|粘液|泡沫|奶瓣)\S{{0,3}}便(吗|吧|呢|[？?]|还是)|咳嗽\S{{0,5}}(有|带)\S{{0,2}}痰|"
    rf"(清|黄|浓|脓|白)\S{{0,2}}(鼻涕|涕|痰)")
# an open description (什么样, 颜色, A还是B) rather than a named finding asked yes/no (痰里有没有带血)
_OPEN_LOOK = re.compile(r"什么|啥|颜色|还是|样|多不多|多吗|稀|水样|干咳|痒|高(出|于)|咳嗽\S{0,5}(有|带)\S{0,2}痰|"
                       r"(大便|便)\S{0,4}(血丝|黏液|粘液|奶瓣|泡沫|脓)")
# what a photograph or a document would show: the patient is asked to send it, not to tell
_PHOTO = re.compile(r"[^，,]*(照片|图片|拍(个|张)?照|截图|上传)[^，,]*")
_SEND = re.compile(r"(发(?![病烧热作生现炎育胖黄紫青白红麻冷抖])(一下|下|个|张|来|给)?(我|过来)?[^，,]{0,6}(看|过来)|[^，,]*[发传](给我|过来))[^，,]*")
_ACK = re.compile(r"^((是吗|是吧|对吗|对吧|好的?|嗯+|哦+|噢+|是的|对的?|明白了?|知道了?|了解了?|这样啊|行)[？?。!！，,~～]*)+$")
# the parent spoken to at the start of a message (妈妈，… / 宝妈你好，…)
# who is speaking (您是宝妈吗, 你是孩子的爸爸吧): nothing the history tells
_WHO = re.compile(r"^(请问|那)?(您|你)是(孩子|宝宝|宝贝|患者|病人)?的?(妈妈|爸爸|家长|宝妈|宝爸|本人|奶奶|爷爷|姥姥|外婆|姥爷|外公)(吗|吧|呢|么)?[？?。]*$")
_VOCATIVE = re.compile(r"^(宝宝|孩子|宝贝)?(妈妈|爸爸|家长|宝妈|宝爸)(您好|你好)?[，,]")
# a relative's own current symptom (妈妈有没有腹泻): someone the child may have caught it from
_KIN_SYMPTOM = re.compile(r"(妈妈|母亲|爸爸|父亲|大人|哥哥|姐姐|奶奶|爷爷)也?(有没有|有|是否|最近)\S{0,6}Ｓ")
# a relative named in the clause that asks about a symptom or a pregnancy: theirs, not the patient's
_KIN_CLAUSE = re.compile(r"(你|您)?(妈|母亲|父亲|爸|姐妹|兄弟|姐|妹|奶奶|外婆|姥姥)[^，,。？?]{0,12}(怀孕|有没有|有无|是否)[^，,。？?]{0,6}[ＳＣ]")
_INFECTIOUS = re.compile(r"感冒|发烧|发热|咳嗽|生病|拉肚子|腹泻|呼吸道|传染|感染|手足口|水痘|流感")


_LONG_TERM = re.compile(r"维生素\s?a?d|维d|伊可新|鱼肝油|补(充)?(钙|锌|铁)|钙片|平时|平常|平日|长期|常年|一直在|规律|每天|每日|日常|按时|降压|降糖|降脂|胰岛素|血压|血糖|血脂|"
                        r"基础病|慢性|一天.{0,2}几次|(?<![还现前在正有])(正在|在)(吃|服|用)(?!.{0,6}(消炎|抗生素|退烧|退热|止咳|雾化))")


@cache
def _long_term_drugs() -> re.Pattern[str]:
    """Drugs taken for years (antihypertensives, antidiabetics, statins, anticoagulants): a
    question naming one asks about regular medication."""
    classes = ("降压药", "降糖药", "降脂药", "抗凝药", "抗血小板药")
    names = {n for c in classes for n in vocab.DRUG_CLASSES[c]}
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))


def _regular_medicine(folded: str) -> bool:
    return bool(_LONG_TERM.search(folded) or _long_term_drugs().search(folded))


def _precedence(topics: set[str], masked: str, folded: str = "") -> set[str]:
    folded = folded or masked
    if "ending" in topics and not re.search(r"[？?]|吗|呢|有没有|什么|怎么|哪|几|多少|是不是|是否|(了|过|查|看)没有?$", masked):
        return topics & {"ending", "greeting"}  # advice or arrangements, nothing asked (去医院检查没 asks)
    if "family_history" in topics and _household_only(masked):
        topics.discard("family_history")
    if re.search(r"过敏(引起|导致|造成)|容易过敏的|抗过敏", folded):
        topics.discard("allergies")  # 是不是过敏引起的: a cause; 抗过敏的药: a treatment
        topics.add("treatment" if "抗过敏" in folded else "triggers")
    if "allergies" in topics:
        topics -= {"medications", "treatment", "triggers", "general", "associated"}
    if "family_history" in topics:
        # 既往有没有喘息发作，家族中有没有过敏性体质的人: a clause of its own still asks the past
        own_past = any(_compiled()["past_history"].search(c) and not _compiled()["family_history"].search(c)
                       for c in re.split(r"[，,；;]", masked))
        topics -= {"course", "allergies"} | (set() if own_past else {"past_history"})
        if _KIN_CLAUSE.search(masked):
            # 你妈或者姐妹怀孕的时候有没有血压高、抽风的: the relatives' illness, not the patient's
            topics -= {"associated", "obstetric"}
    if "treatment" in topics and "medications" in topics:
        # a medicine with a long-term marker is a regular one; any other was taken for this illness
        topics.discard("treatment" if _regular_medicine(folded) else "medications")
    if "treatment" in topics:
        topics -= {"relief", "ending"}
    if "associated" in topics and re.search(r"(还有|其他|别的|除了|另外|同时).{0,8}(不舒服|难受|不得劲|不好受|不对劲|症状|表现|情况)", masked):
        topics -= {"chief_complaint", "radiation"}
    if "course" in topics:
        topics -= {"past_history", "triggers", "relief"} if re.search(r"以前|第一次|有没有加重|好转", masked) else set()
    if {"obstetric", "past_history"} <= topics and not re.search(r"Ｃ|得过|患过|病", masked):
        # 顺产还是剖宫产: the mother's own deliveries, or a child's birth history
        child = re.search(r"宝宝|宝贝|孩子|小孩|小朋友|娃|儿子|女儿|患儿|出生|生下来", masked)
        topics.discard("obstetric" if child and not re.search(r"生过|怀过|几胎|几个孩子", masked) else "past_history")
    if "menstrual" in topics or "obstetric" in topics:
        topics -= {"onset", "age", "duration"}
    if "onset" in topics and topics & {"treatment", "tests", "past_history"} and re.search(
            r"什么时候\S{0,2}(看|做|查|化验|拍|照|出|输|打|住|去|吃的药|用的药)", masked) and not re.search(r"开始|发|起|出现|Ｓ", masked):
        topics.discard("onset")  # 什么时候看的医生 / 化验结果什么时候出: when the care was, not when the illness began
    if "associated" not in topics and re.search(r"(刚)?开始的时候\S{0,4}(有没有|是否|有无|有)\S{0,4}Ｓ", masked):
        topics.discard("onset")
        topics.add("associated")  # 刚开始的时候有没有发热: a symptom at the start, asked yes/no
    if "course" in topics and re.search(r"以前|一天比一天", masked):
        topics -= {"triggers", "severity"}
    if "vitals" in topics:
        # 有没有糖尿病，血糖控制得怎么样: a condition asked in its own clause stays past history
        clauses = re.split(r"[，,；;]", masked)
        own = any("Ｃ" in c and not _compiled()["vitals"].search(c) for c in clauses)
        # 现在体温多少度，有没有感冒症状: a symptom asked yes/no in a clause of its own stays asked
        sign = any(re.search(r"Ｓ|症状", c) and _YESNO.search(c) and not _compiled()["vitals"].search(c) for c in clauses)
        topics -= {"tests"} | (set() if sign else {"associated"}) | (set() if own else {"past_history"})
    if "ending" in topics and not re.search(r"[？?]|吗|呢|有没有|(了|过|查|看)没有?$", masked):
        topics &= {"ending", "greeting"}
    if "ending" in topics and len(topics) > 1 and re.search(r"[？?]|吗|呢", masked):
        topics.discard("ending")
    if {"site"} <= topics or "relief" in topics:
        topics.discard("chief_complaint")
    if "severity" in topics and "character" in topics and "一阵" in masked:
        topics.discard("severity")
    if "medications" in topics and "relief" in topics:
        topics.discard("medications")
    if "severity" in topics and re.search(r"(严重|疼|厉害)到", masked):
        topics -= {"treatment", "medications"}  # 严重到要吃止痛药吗 asks how bad
    if "severity" in topics and re.search(r"影响", masked):
        topics.discard("general")
    if "triggers" in topics and re.search(r"更(疼|痛|厉害|难受|重)", masked):
        topics.discard("severity")
    if "tests" in topics:
        topics -= {"past_history", "triggers"}
        if not re.search(r"医生|药|Ｄ|治疗|输液|打针|雾化|看过|诊所|医院|考虑|诊断", masked):
            topics.discard("treatment")
    if "triggers" in topics and re.search(r"关系|会.{0,2}加重", masked):
        topics -= {"general", "course"}
    if "course" in topics and re.search(r"比|还是", masked):
        topics -= {"triggers", "relief"}
    if "chief_complaint" in topics and re.search(r"不好|不舒服|难受", masked):
        topics.discard("site")
    if "treatment" in topics:
        topics.discard("site")
    if "menstrual" in topics:
        topics.discard("course")
    if topics & {"smoking", "drinking", "occupation"}:
        topics.discard("duration")  # 抽烟多少年了: how long the habit, not the illness
    if "age" in topics and re.search(r"(范围|面积|伤口|包|块|疹子?|Ｓ|Ｂ|Ｃ|缺损|结节|囊肿|积液)\S{0,3}多大", masked):
        topics.discard("age")  # 范围有多大 / 疹子多大 ask the size, not the age
        # a defect or a nodule is measured by imaging (缺损多大: the echo's result); a rash's size is its extent
        imaged = re.search(r"缺损|结节|囊肿|积液", folded)
        topics -= {"past_history"} if imaged else set()
        topics.add("tests" if imaged else "site")
    if "course" in topics and re.search(r"Ｃ\S{0,3}恢复", masked) and not re.search(_PAST_MARK, masked):
        topics.discard("past_history")  # 肺炎恢复得怎么样: how this illness is going, not an old one
    # 说一下用药情况: "情况" names another topic's subject; the complaint itself is not asked
    if ("chief_complaint" in topics and topics - {"chief_complaint", "greeting"}
            and not re.search(r"不舒服|难受|不得劲|不好|怎么(了|啦|回事)|症状|病|问题|原因|因为什么", masked)):
        topics.discard("chief_complaint")
    # 描述/形容 ask the quality only when their object is the pain, not the place or the complaint
    if "character" in topics and re.search(r"描述|形容", masked) and topics & {"site", "chief_complaint"}:
        topics.discard("character")
    if "radiation" in topics and re.search(r"(其他|别的)(部位|地方)", masked):
        topics.discard("site")  # 向其他部位放射
    if "site" in topics and re.search(r"哪里.{0,6}最", masked):
        topics.discard("severity")  # 哪里疼得最厉害 locates the pain
    if "course" in topics and "chief_complaint" in topics and re.search(r"(怎么样|怎样|如何)了", masked):
        topics.discard("chief_complaint")  # 孩子现在怎么样了: how it has gone since, not what is wrong
    if "general" in topics and re.search(r"(体重|饭量|胃口|睡眠|大小?便).{0,4}变化|(跟|和|比)(以前|平时|平常)", masked):
        topics.discard("course")  # 饭量跟以前比怎么样: the appetite, not the illness's course
    if _CHARACTER_OF.search(re.sub(r"除了[^，。？]*", "", folded)) and (_OPEN_LOOK.search(folded) or not re.search(r"有没有|有无|是否", folded)):
        # 大便是什么样的 / 流清鼻涕还是黄鼻涕 / 咳嗽有痰吗: what the complaint itself looks like
        topics -= {"general", "associated", "site", "course"}
        # 以前大便什么样 / 平时大便成形吗: the usual bowels before this illness, the general question
        topics.add("general" if re.search(r"以前|之前|平时|平常|原来", masked) else "character")
        if re.search(r"(大便|拉|排便)\S{0,4}(几次|几回|多少次)|(几次|几回|多少次)\S{0,2}(大便|便)", folded):
            topics.add("general")  # 大便一天几次，什么颜色: how often (general) and what it looks like
    if "family_history" in topics and _VOCATIVE.match(masked) \
            and not _compiled()["family_history"].search(_VOCATIVE.sub("", masked)):
        topics.discard("family_history")  # 妈妈，宝宝有没有发烧: the parent is spoken to, not asked about
    if "family_history" in topics and (_INFECTIOUS.search(folded) or _KIN_SYMPTOM.search(masked) and "Ｃ" not in masked) \
            and not re.search(r"遗传|家族|得过|患|以前|之前|从小", masked):
        topics.discard("family_history")  # 家里有人感冒吗: an exposure, not a family illness
        topics.add("triggers")
    if "treatment" in topics and re.search(r"效果|(药|Ｄ)\S{0,8}(缓解|好转|好点|好些|减轻)|(服|吃|用|喂)\S{0,6}(以后|之后|后)", masked) \
            and not re.search(r"越来越|反复|次数|其他方面", masked):
        topics.discard("course")  # 吃药以后缓解了吗: whether the treatment helped
    if "tests" in topics and re.search(r"医院\S{0,3}(查|做|拍|化验|验|抽)", masked) and not re.search(r"医生|药|Ｄ|看过|治疗", masked) \
            and not (re.search(r"(去|到|带|上)\S{0,8}医院\S{0,3}(检查|复查|就诊)", masked)
                     and not _lab_pattern().search(folded) and not _exam_pattern().search(folded)):
        topics.discard("treatment")  # 在当地医院查血常规了吗: a test, where it was done
    if "triggers" in topics and re.search(r"(走|爬|上|跑)\S{0,4}(楼|坡|几步|路)", masked):
        topics.discard("associated")  # 爬两层楼会不会喘: what brings it on
    if "severity" in topics and re.search(r"平躺|躺平|垫高|高枕|坐着睡|躺不下|(睡|躺)\S{0,6}(得|要|需要|只能)坐(着|起)", masked):
        topics.discard("general")
        if "relief" in topics:
            topics.discard("severity")  # 平躺会舒服点吗: what eases it
    if "tests" in topics and re.search(r"医生[^，。？！；,?!;]{0,4}(查体|听诊|检查|听)", masked):
        topics.discard("treatment")  # 医生查体有说什么异常吗: the examination's findings
    if "tests" in topics and re.search(r"(化验|查|验|常规)\S{0,2}(大便|小便|尿)|(大便|小便|尿)\S{0,2}(常规|化验|检查|培养)", masked):
        topics.discard("general")  # 化验大便: the specimen, not the bowels
    if "tests" in topics and re.search(r"检查\S{0,8}(有没有|是否)", masked):
        topics.discard("associated")
    if "past_history" in topics and re.search(r"(上次|以前|之前)\S{0,10}住院", masked):
        topics -= {"triggers", "treatment"}
    if "family_history" in topics and re.search(r"在家", masked) and not _OTHER_FAMILY_CUE.search(masked):
        topics.discard("family_history")  # 在家里雾化: at home, not the family
    if "triggers" in topics and re.search(r"(的时候|时)\S{0,6}(重|厉害|明显|加重)", masked):
        topics.discard("course")
    if "triggers" in topics and re.search(r"之前|以后|之后|引起|导致|原因|不干净|辛辣|生冷|海鲜|新(添加|加|换|吃)|换\S{0,2}奶粉|吃撑|消化|积食|只有|只是", masked):
        topics.discard("general")  # 拉肚子之前吃奶多不多: what brought it on
    if "triggers" in topics and re.search(r"(药|Ｄ)\S{0,4}(引起|导致|刺激)|(因为|由于)\S{0,4}(药|Ｄ)", masked):
        topics.discard("treatment")
    if "course" in topics and re.search(r"完全好|好利索|不Ｓ+了", masked):
        topics.discard("associated")
    if topics & {"duration", "onset"} and "character" in topics and not re.search(r"什么样|颜色|还是|性状", masked):
        topics.discard("character")  # 大便发绿多久了: how long, not what it looks like
    if "duration" in topics and re.search(r"多久(拉|大便|排便|解)\S{0,2}一次", masked):
        topics.discard("duration")
        topics.add("general")
    if "treatment" in topics and re.search(r"几天|多久|多长时间|几周|几个月|(\d+|[一二两三四五六七八九十半]+)(天|个?月|周)了?(吧|吗|呢|[？?]|$)", masked):
        topics.discard("duration")  # 药吃了几天了: how long the treatment, not the illness
    if "duration" in topics and "general" in topics and not re.search(r"吃饭|胃口|食欲|睡|精神|体重", masked):
        topics.discard("general")  # 大便发绿多久了: how long the complaint
    if "duration" in topics and re.search(r"多久没|退(热|烧)\S{0,2}几天", masked):
        topics.discard("duration")
        topics.add("course")
    if "vitals" in topics and re.search(r"体温\S{0,4}(稳定|降|退|正常了)", masked):
        topics.add("course")
    if "vitals" in topics and re.search(r"室内|房间|屋里", masked):
        topics.discard("vitals")
        topics.add("triggers")
    if "severity" in topics and re.search(r"(睡眠|睡觉|吃饭|吃奶|玩)\S{0,3}(受)?影响", masked):
        topics.discard("general")
    if "relief" in topics and re.search(r"药|Ｄ|针|输液|雾化", masked):
        # did the medicine help: the published topics put it under treatment (休息或者含药能缓解吗
        # asks both what eases it and whether the medicine did)
        if not re.search(r"休息|躺|坐|站|蹲|弯腰|姿势|体位|按|揉|敷", masked):
            topics.discard("relief")
        topics.add("treatment")
    if "relief" in topics and not re.search(
            r"怎么|什么|哪|休息|躺|坐|站|蹲|弯腰|姿势|体位|按|揉|敷|喝|吃|以后|之后|后|自己|自行|能不能|会不会|能好", masked):
        topics.discard("relief")
        topics.add("course")  # 症状有没有减轻: how it has changed, no cause asked
    if "course" in topics and re.search(r"以前|之前|小时候?|从前|平时", masked) and "Ｃ" in masked \
            and not re.search(r"这样|这种|类似|这个情况|犯过", masked):
        topics.discard("course")
        topics.add("past_history")
    past = r"以前|之前|小时候?|从前|平时|平常|从小"
    if "relief" in topics and not re.search(r"越来越|反复|以前|加重|变化|次数|频繁|第一次", masked):
        topics.discard("course")  # 休息一下能好点吗: what eases it
    if "course" in topics and (topics & {"medications", "treatment"} or (
            "general" in topics and re.search(r"大便|拉|排便|尿|小便", masked))) and re.search(r"几次|几回|多少次|次数", masked) \
            and not re.search(r"比|减少|增多|变", masked):
        topics.discard("course")  # 大便一天几次 / 一天吃几次药: a habit or a dose, not the illness's course
    if "chief_complaint" in topics and re.search(r"(就诊|来|看病)\S{0,4}原因", masked):
        topics.discard("triggers")
    if "chief_complaint" in topics and re.search(r"(因为|为)什么\S{0,2}住(院|的院)|住院\S{0,6}(因为|为)什么|原因\S{0,2}住院", masked):
        topics -= {"treatment", "triggers"}  # 这次住院主要是因为什么: why they are here, the complaint
    if "occupation" in topics:
        topics.discard("triggers")  # 工作中接触粉尘: a work exposure
    if "triggers" in topics and re.search(r"天气|气温|降温|换季|季节", masked):
        topics.discard("course")  # 当地天气有变化吗: the weather as a cause, not the illness's change
    if "triggers" in topics and re.search(r"消毒|卫生", masked):
        topics.discard("general")  # 奶瓶每天消毒吗: hygiene as a cause, not the feeding
    if "onset" in topics and re.search(r"(后|前|同时|之前|以前)\S{0,2}(发现|出现|开始)的", masked):
        topics -= {"general", "triggers"}  # 是吃奶后发现的吗: when it began, set against a feed
    if "past_history" in topics and "胎便" in masked:
        topics.discard("general")  # 生后胎便排出正常吗: the birth history, not today's bowels
    if "course" in topics and re.search(r"间断|断断续续|持续存在|时有时无", masked) and not re.search(r"疼", masked):
        topics -= {"character"} | (set() if re.search(r"几次|吃|喝|睡|精神", masked) else {"general"})  # 持续性的还是间断性的: how it goes over time, not what it is like
    if "duration" in topics and re.search(r"(吃奶|喂奶|吃|喝|喂|睡)(了|的)?\S{0,2}(多久|多长时间)", masked) \
            and not re.search(r"药|Ｄ|Ｓ|Ｃ|疼", masked):
        topics.discard("duration")
        topics.add("general")  # 每次吃奶吃多长时间 / 睡了多久: the feeding or the sleep
    if "triggers" in topics and re.search(r"第一次(吃|喝)", masked):
        topics -= {"general", "course"}  # 第一次吃奶粉吗: a food new to the child
    if "tests" in topics and "associated" in topics and re.search(
            r"(听|查体|看(过|了)?\S{0,3}(咽|喉|嗓子|扁桃体|Ｂ))\S{0,10}(有没有|是否|有|吗)|查体\S{0,6}Ｓ", masked):
        topics.discard("associated")  # 医生听肺部有湿啰音吗 / 看过咽喉部吗，有没有红肿: an examination's finding
    if "chief_complaint" in topics and re.search(r"主要(是|就是)\S{0,6}Ｓ", masked) and not re.search(r"除了|其他|别的", masked):
        topics.discard("associated")
    if "past_history" in topics and all(re.search(past, c) for c in re.split(r"[，,；;]", masked) if "Ｓ" in c):
        topics.discard("associated")  # 以前有没有气喘 / 平时爱打喷嚏吗: not this illness
    if _FEED_THEN.search(folded) and not topics & {"tests", "treatment", "allergies"}:
        topics -= {"associated", "general", "course"}
        topics.add("triggers")  # 进食就吐 / 吃完马上就吐吗: what brings it on
    if "course" in topics and re.search(r"(药|Ｄ)\S{0,6}第一次|第一次\S{0,3}(吃|用|服|喂)\S{0,3}(药|Ｄ)", masked):
        topics.discard("course")
        topics.add("treatment")  # 这两种药是第一次吃吗: the medicine given for it, not the illness's course
    if _WORSE_WHEN.search(masked) and not re.search(r"开始|加重的|影响", masked):
        topics -= {"triggers", "severity", "associated", "onset"}
        topics.add("course")  # 什么时候咳嗽厉害 / 是不是早上起来容易咳: its pattern over the day
    if "tests" in topics and "treatment" in topics and _DOCTOR_EXAMINED.search(masked) \
            and not re.search(r"药|Ｄ|诊断|说|讲|治疗|输液|打针|雾化|开|考虑|看(过|了)?\S{0,2}医生|医生\S{0,2}看", masked):
        topics.discard("treatment")  # 医生给宝贝做过什么检查: the examinations, the doctor who did them
    return _stool_look(topics, masked, folded)


# a feed or a movement straight before it (进食就吐, 吃完马上就吐吗, 一活动就咳): what brings it on
_FEED_THEN = re.compile(r"(吃|喝|喂|进食|吃奶|吃饭|活动|一动)[^，,。？?；;]{0,3}(马上|立刻|立即|即刻)?就[^，,。？?；;]{0,2}(吐|拉|咳|喘)")
# a time of day the complaint is worse or comes (什么时候咳嗽厉害, 是不是早上起来容易咳, 晚上容易咳吗):
# its pattern over the day, the course (no annotator reads a cause into it)
_TIME_OF_DAY = r"(白天|晚上|夜里|夜间|早上|早晨|晨起|半夜|上午|下午|起床|起来)"
_WORSE_WHEN = re.compile(rf"什么时候\S{{0,4}}(比较|更|最)?(厉害|严重|明显|重|多)|"
                         rf"是不是\S{{0,4}}{_TIME_OF_DAY}\S{{0,8}}(重|厉害|严重|明显|容易|多)|"
                         rf"{_TIME_OF_DAY}\S{{0,3}}(容易|更容易)\S{{0,2}}(Ｓ|咳|吐|烧|拉|喘)")
# the doctor as the one who examined (医生给宝贝做过什么检查, 医生听诊了吗): the examination asked
_DOCTOR_EXAMINED = re.compile(r"医生(给|帮)?[^，,。？?；;]{0,4}(做|查)(了|过)?[^，,。？?；;]{0,4}(什么|哪些)?(检查|化验)|医生[^，,。？?；;]{0,4}(听诊|查体)")
# what a stool or a vomit holds or is like, named without the word 大便 (有没有粘液, 有无泡沫, 拉水吗,
# 会很水吗, 有没有脓血便): asked, it is the complaint's character, not another symptom (every annotator)
_STOOL_LOOK = re.compile(r"粘液|黏液|泡沫|奶瓣|脓血|稀水|浠水|水样|拉水|很水|蛋花")


def _stool_look(topics: set[str], masked: str, folded: str) -> set[str]:
    """A stool's look asked (有没有粘液 / 有无泡沫 / 大便什么性状？稀水？脓血便？) is its character; a
    symptom, a general item or a change asked in a clause without that look (有没有发烧，大便有没有
    粘液) is still asked."""
    if not _STOOL_LOOK.search(folded) or "tests" in topics or re.search(r"除了|其他|别的|以前|之前|平时|平常", masked):
        return topics
    spans = [(m.start(), m.end()) for m in re.finditer(r"[^，,。？?；;！!]+", masked)]
    other = [masked[a:b] for a, b in spans if not _STOOL_LOOK.search(folded[a:b])]
    kept = {t for t in ("general", "course", "past_history")
            if t in topics and any(_compiled()[t].search(c) for c in other)}
    if "associated" in topics and any("Ｓ" in c and _YESNO.search(c) for c in other):
        kept.add("associated")
    return (topics - {"associated", "general", "course", "past_history"}) | kept | {"character"}


def _nearest(folded: str) -> Parsed:
    """No cue fired: the topics of the most similar labelled questions (see ``topic_nn``)."""
    from medsim.sim import topic_nn

    masked, symptoms = [], []
    for sentence in _SENTENCE.split(folded):
        sentence_symptoms, _, sentence_masked = named_items(sentence)
        masked.append(sentence_masked)
        symptoms += sentence_symptoms
    joined = "".join(masked)
    vetoed = frozenset({"family_history"}) if _household_only(joined) else frozenset()
    topics = topic_nn.nearest_topics(joined, vetoed)
    # a named symptom belongs to the answer only when the neighbours say "associated"
    return Parsed(topics=[t for t in TOPICS if t in topics],
                  symptoms=_dedupe(symptoms) if "associated" in topics else [], fuzzy=True)
