"""A third hand-written PHI set, written before the name and hospital-nickname changes it is
meant to measure, committed on its own and scored once before any rule change.

Synthetic fragments of 入院记录, 病程记录, 出院小结, 护理记录 and 会诊单: names of staff and relatives
with and without role words, after time words (今日/昨日/今晨), before verbs (查房/抱入/测/签字/告知),
in lists (医师：甲、乙); hospital names and nicknames; and look-alikes that are not names (drug
names, place words, disease eponyms, words that start with a family-name character). All people
and numbers are invented.

Gold is marked inline as [[kind:text]] (see text_phi_handwritten.py). As in the other sets, an
already-masked name (王某某, 郭某) is gold ``name``: the detector replaces it with a masked surrogate.
"""

from __future__ import annotations

RECORDS = [
    # 入院记录
    "入院记录  姓名：[[name:袁海涛]]  性别：男  年龄：62岁  入院日期：[[date:2024年2月18日]]  病案号：[[record_no:0456789]]",
    "患者[[name:王某某]]，男，70岁，因“反复咳嗽咳痰10年，加重3天”入院。",
    "孕妇[[name:金美玲]]，28岁，G1P0，孕38周，因规律腹痛4小时入院。",
    "2019年在[[hospital:北京协和医院]]诊断为干燥综合征，后于[[hospital:协和]]风湿免疫科规律随诊。",
    "既往高血压病史10年，周围血管检查未见异常，白细胞计数正常。",
    "患者曾于[[hospital:华西]]行冠脉造影，提示LAD狭窄70%，后转至[[hospital:华西医院]]心外科。",
    "外院（[[hospital:湘雅医院]]）胸部CT示右肺上叶结节，大小约8mm。",
    "患者于当地卫生院就诊，后转县人民医院，再转我院。平素居住于上海，近期无外出旅行史。",
    "由家属[[name:高建军]]陪同步行入院，既往有高血压、糖尿病史。",
    # 病程记录
    "病程记录 [[date:2024-03-12]] 09:30 今日[[name:孙建平]]副主任医师查房：患者腹胀较前减轻，继续目前方案。",
    "昨日[[name:何晓东]]主任查房后，调整降压方案为氨氯地平5mg qd。",
    "患儿由其父[[name:蒋志强]]抱入病房，神志清，反应可，前囟平软。",
    "参加讨论人员：[[name:罗文华]]主任、[[name:程亮]]副主任医师、[[name:付佳]]主治医师。",
    "医师：[[name:唐国栋]]、[[name:韩雪]]",
    "术前谈话由[[name:曾志诚]]医师向患者及家属告知手术风险，家属[[name:曾丽]]签字。",
    "患者之女[[name:彭小琴]]代诉：患者近1周食欲差，夜间睡眠欠佳。",
    "告知患者家属[[name:方志刚]]（儿子）病情危重，家属表示理解并签字。",
    "[[name:白玉洁]]医生告知病情后，家属同意行胸腔穿刺。",
    "患者母亲[[name:田秀梅]]诉患儿夜间哭闹，进食减少。",
    "痰培养示金黄色葡萄球菌，予万古霉素抗感染；皮肤巩膜无黄疸。",
    "诊断：帕金森病；桥本甲状腺炎；高血压3级（很高危）。",
    "主刀：[[name:雷振宇]]；助手：[[name:钟华]]、[[name:谢婷婷]]；麻醉：[[name:安晓峰]]",
    # 护理记录
    "今晨[[name:宋雨婷]]护士测血压150/90mmHg，已告知值班医生。",
    "护理记录 [[date:2024-05-06]] 14:00 护士[[name:陆晓云]]给予吸氧2L/min，患者诉胸闷缓解。",
    "[[date:3月5日]]夜班护士[[name:江雪梅]]发现患者血氧下降至85%，立即报告医生。",
    "[[name:潘玉兰]]测体温37.9℃，予物理降温，30分钟后复测37.2℃。",
    "右前臂骨折予石膏固定，常规换药，方案同前。予王不留行籽耳穴压豆。",
    "予硝苯地平控释片30mg qd，金水宝胶囊3粒tid，常规补液。",
    # 会诊单
    "会诊单：请[[hospital:中山一院]]心内科[[name:黎振华]]教授会诊。",
    "康复科会诊：患者左侧肢体肌力3级，建议康复训练。会诊医师：[[name:齐海燕]]",
    "签字人：[[name:尹秀珍]]（患者配偶），联系电话：[[mobile:13512340987]]",
    "既往于[[hospital:石家庄市第一医院]]行阑尾切除术，术后恢复好。",
    "2020年于[[hospital:浙大一院]]行肝移植术，长期服用他克莫司。",
    "患者2018年曾在[[hospital:301医院]]体检，未见异常。",
    # 出院小结
    "出院小结：患者[[name:郭某]]，住院14天，出院诊断：1.社区获得性肺炎 2.2型糖尿病。出院带药：二甲双胍0.5g tid。",
    "患者丈夫[[name:龙海]]今日来院，要求办理出院，经治医师已交代注意事项。",
    "出院后于[[hospital:北医三院]]内分泌科门诊随诊，查体：双下肢无水肿，周围淋巴结未触及肿大。",
]


def records():
    from text_phi_cases import Record
    from text_phi_handwritten import parse

    return [Record(*parse(marked)) for marked in RECORDS]


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # medsim from this checkout
    from text_phi_cases import print_report

    print_report("second held-out hand-written records", records())
