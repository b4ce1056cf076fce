"""A fourth hand-written PHI set, written after the name and hospital-nickname changes of
text_phi_heldout2.py had been made (that set guided them, so its figures after the change are
not held-out). This one was committed before it was first run (commit bc858bd). Its one held-out score,
with deid as of 91a3a48: name P 0.833 R 0.833 (18 gold; missed 尚桂芝 after 外婆, 季红英 before
治疗师, 储志勇 with a surname not on the list; 麻醉 taken three times), hospital P 0.857 R 0.857
(复旦中山医院 taken as 中山医院); date, mobile, record_no 1.000. Rules were changed after that
(96cbddd), so its later figures are no longer held-out. All people and numbers are invented.

Gold is marked inline as [[kind:text]] (see text_phi_handwritten.py); a masked name (李某) is gold.
"""

from __future__ import annotations

RECORDS = [
    "今晨[[name:邱文博]]主治医师查房：患者夜间体温最高38.5℃，咳嗽较前减轻。",
    "昨晚值班医生[[name:蔡永红]]接诊后予心电监护，急查肌钙蛋白。",
    "患儿由其外婆[[name:尚桂芝]]抱入急诊室，哭闹不安。",
    "其子[[name:侯建明]]签字同意输血，并知晓相关风险。",
    "下午[[name:杜思远]]护士发现患者留置针处红肿，已拔除。",
    "护士[[name:卢静]]协助患者翻身拍背，皮肤完好。",
    "术者：[[name:汤建新]]，一助：[[name:孔令辉]]，器械护士：[[name:夏雨]]",
    "查房医师：[[name:葛天明]]、[[name:秦雅琴]]；记录者：[[name:秦雅琴]]",
    "患者[[name:陶某]]，女，45岁，因“体检发现甲状腺结节1月”入院。",
    "2021年于[[hospital:湘雅二医院]]行甲状腺左叶切除，病理示结节性甲状腺肿。",
    "外院[[hospital:北京天坛医院]]头颅MRI示右侧基底节区腔隙性梗死。",
    "曾在[[hospital:协和]]内分泌科就诊，诊断为库欣综合征，后在[[hospital:瑞金医院]]手术。",
    "转诊自[[hospital:郑大一附院]]，带入胸腔闭式引流管一根。",
    "患者系[[hospital:复旦中山医院]]心内科转入，冠脉支架术后3天。",
    "于[[hospital:南方医院]]查乙肝五项：HBsAg阳性。",
    "既往在县人民医院及乡卫生院多次输液治疗，具体用药不详。",
    "诊断：1.高血压病2级 2.重症肌无力 3.霍奇金淋巴瘤（病史）。",
    "予甘露醇脱水，常规监测电解质，周围静脉留置针在位。",
    "患者黄疸进行性加重，总胆红素156μmol/L，石膏样大便。",
    "康复科[[name:季红英]]治疗师会诊：建议早期床旁康复训练。",
    "患者女儿[[name:严晓丽]]诉患者近3天言语含糊。",
    "向家属[[name:储志勇]]交代病情，家属表示理解，要求继续治疗。",
    "联系人：[[name:盛德明]]  关系：父子  电话：[[mobile:18923456781]]",
    "[[date:2024年6月3日]]  出院小结  住院号：[[record_no:ZY20240603011]]",
    "今日主任查房，同意目前治疗方案，继续观察。",
    "麻醉方式：全身麻醉；麻醉医师：[[name:俞海波]]",
    "家属代诉：患者于[[date:2024-06-01]]晨起时突发左侧肢体无力。",
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

    print_report("third held-out hand-written records", records())
