"""A second hand-written PHI set, written after the rules were final and scored once without
any rule change afterwards: its figures are the held-out ones reported for deid.

Gold is marked inline as [[kind:text]] (see text_phi_handwritten.py).
"""

from __future__ import annotations

RECORDS = [
    "入院记录  姓名 [[name:黄晓明]]  性别 男  年龄 39岁  住院号：[[record_no:2024008876]]",
    "患者[[name:林某某]]，女，58岁，退休。联系电话：[[mobile:15011112222]]（女儿）。",
    "患儿[[name:周子轩]]，男，5岁，因发热2天于[[date:2024年1月3日]]就诊。",
    "监护人：[[name:周建华]]，身份证号码：[[id_card:320106198503152318]]。",
    "既往2019年于[[hospital:南京鼓楼医院]]行甲状腺部分切除术。",
    "家庭住址：[[address:江苏省苏州市姑苏区平江路88号]]，邮编215000。",
    "转诊单位：[[hospital:苏州市立医院]]，转诊日期[[date:2024/01/05]]。",
    "门诊号[[record_no:MZ0098123]]，医保卡号：[[record_no:32050012345678]]。",
    "复诊请联系[[landline:0512-65223344]]或发邮件至[[email:clinic.fu@hospital-example.cn]]。",
    "患者[[name:吴某]]，男，66岁，吸烟40年，每日20支。",
    "病理号：P2024-00123，标本号 241230045，报告日期[[date:2024-12-30]]。",
    "血气分析：pH 7.32，PaO2 58mmHg，PaCO2 52mmHg；乳酸2.1mmol/L。",
    "患者2天前（[[date:2023年12月28日]]）出现胸痛，持续约30分钟。",
    "家属[[name:郑丽]]（妻子）签字同意手术，电话[[mobile:13700001111]]。",
    "主治医师：[[name:胡志刚]]   住院医师：[[name:马丽娜]]",
    "患者户籍[[address:湖北省黄冈市浠水县]]，现居武汉。",
    "既往在当地卫生院输液治疗（具体不详），后转至市人民医院。",
    "检验号20231228000123，条码号430104199001011235，均非患者身份信息。",
    "手术日期：[[date:2023.12.29]]；术后第1天拔除引流管，术后第5天出院。",
    "ID号：[[record_no:A0012345]]，床号：15床。",
    # role-anchored names and employers: written after those rules, scored once, no change after
    "今日[[name:赵立新]]主任查房，指示完善腹部CT。",
    "其夫[[name:钱学军]]诉患者昨夜呕吐3次，为胃内容物。",
    "患儿由其母[[name:马晓燕]]抱入诊室，就读学校：[[employer:武汉市育英小学]]。",
    "联系人[[name:冯志红]]（女儿），手机[[mobile:13698765432]]。",
    "责任护士[[name:邓倩]]测体温38.6℃，已报告医生。",
    "患者退休前就职于[[employer:湖南省电力公司]]，否认毒物接触史。",
    "经治医生查房后，家属要求转上级医院，其子代为签字。",
    "患者诉由家属陪同前来，护士协助完善心电图。",
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

    print_report("held-out hand-written records", records())
