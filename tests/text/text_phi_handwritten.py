"""Hand-written PHI records in free formats, gold marked inline as [[kind:text]].

Unlike the template set (text_phi_cases.py) these were written to be awkward: unlabeled
names, numbers with spaces or +86, dates in Chinese numerals, hospital nicknames. Some are
expected misses; the figures are reported as they come out.
"""

from __future__ import annotations

import re

RECORDS = [
    "姓名：[[name:欧阳娜娜]]，性别：女，年龄：28岁。身份证号：[[id_card:11010119900307451x]]",
    "患者[[name:赵某]]，男，71岁，主因“发作性胸痛2年，加重3天”于[[date:2023年03月05日]]入院。",
    "联系人：[[name:钱多多]]（配偶），电话：[[mobile:+86 138 1234 5678]]。",
    "家属手机[[mobile:139-1234-5678]]，家中座机[[landline:010-62751234]]。",
    "住院号 [[record_no:0012345]]，床号 12，科室：心内科。",
    "病历号：[[record_no:BL-2023-00981]]。检验号：2023030500123，标本号：15912345678。",
    "患者家住[[address:北京市海淀区中关村大街27号]]，退休教师。",
    "户籍地址：[[address:河南省信阳市平桥区平昌关镇]]。",
    "2年前曾在[[hospital:上海瑞金医院]]行PCI术，具体不详。",
    "3天前于[[hospital:北医三院]]急诊就诊，查肌钙蛋白升高。",
    "[[date:二〇二二年五月六日]]复查胃镜示胃溃疡愈合。",
    "于[[date:2021.5.6]]行腹腔镜胆囊切除术，术后第3天出院，出院后1周复查。",
    "报告医生：[[name:孙立群]]  审核医生：[[name:周华]]  报告日期：[[date:2024-01-17]]",
    "患者系[[address:广东省深圳市南山区]]人，从事IT工作，有吸烟史20年。",
    "邮件联系 [[email:li.wei_1988@qq.com]]，或电话[[mobile:18612345678]]。",
    "血常规：WBC 15.6×10^9/L，N 85%，PLT 320×10^9/L；CRP 86mg/L；检验条码 430104199001011235。",
    "张医生查房后指示：继续抗感染治疗，3天后复查血常规。",
    "[[date:3月12日]]晚10时患者诉胸闷，BP 160/95mmHg，HR 110次/分。",
    "于[[hospital:湘雅二医院]]确诊系统性红斑狼疮10年，长期口服泼尼松10mg qd。",
    "身份证：[[id_card:430104199001011234]]（患者本人）",
    "门诊号:[[record_no:MZ20240115003]]；医保卡号：[[record_no:H43010400123456]]",
    "患者[[name:陈建国]]因车祸致右下肢疼痛2小时由120送入我院急诊。",
    "父亲[[name:王大山]]，65岁，患高血压。",
    "服用阿司匹林肠溶片100mg qd，批准文号国药准字J20130078。",
    "现住[[address:四川省成都市武侯区人民南路四段12号]]，电话[[landline:028-85501234]]。",
    # names next to a role word, employers; and the same role words with no name (added with the role rules)
    "主治医师[[name:李明]]查房：患者腹痛较前缓解，继续禁食、补液。",
    "家属[[name:张秀英]]陪同。其妻[[name:张秀英]]代诉病史，患者本人不能配合。",
    "由[[name:王建国]]医生接诊，查体：T 38.2℃，右下腹压痛。",
    "患者[[name:刘德华]]之子[[name:刘强]]陪同，签署知情同意书。",
    "工作单位：[[employer:北京市第一中学]]，职业：教师。",
    "主治医师查房，家属陪同，其妻代诉病史同前。值班医生于今日凌晨接诊。",
    "患者[[name:孙某某]]，家属同意手术，医生和家属沟通病情，家属表示理解。",
    "护士长巡视病房，嘱患者卧床休息。剂量单位：mg。",
]

_MARK = re.compile(r"\[\[(\w+):(.+?)\]\]")


def parse(marked: str) -> tuple[str, list[tuple[int, int, str]]]:
    text = ""
    gold = []
    pos = 0
    for m in _MARK.finditer(marked):
        text += marked[pos : m.start()]
        gold.append((len(text), len(text) + len(m.group(2)), m.group(1)))
        text += m.group(2)
        pos = m.end()
    text += marked[pos:]
    return text, gold


def records():
    from text_phi_cases import Record

    return [Record(*parse(marked)) for marked in RECORDS]


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # medsim from this checkout
    from text_phi_cases import print_report

    print_report("hand-written records", records())
