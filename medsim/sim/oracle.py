"""The examination and test oracle: results from the record, only when they are ordered.

The clinician orders with ``【开检查】血常规、胸部CT`` — or a numbered or bulleted list under
the tag, one item a line — and asks for the examination with ``【查体】``. A test the record
lacks comes back as "not done" or "normal", as the scenario says; the oracle never invents
a value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from medsim.scenario.schema import Case, OracleSpec, TestResult
from medsim.sim.prompts import EXAM_TAG, ORDER_TAG

_ORDER = re.compile(r"[【\[]\s*开?检查\s*[】\]]\s*[:：]?[ \t]*(?P<items>[^\n【]*)")
# "1. 心电图", "2）血糖", "(3) CT", "① 血常规", "一、尿常规", "（二）胸片", "- 胸片", "• 尿常规"
_CN_DIGITS = "一二三四五六七八九十"
_LIST_ITEM = re.compile(r"^\s*(?:[(（]?\d{1,2}\s*[.、．)）:：]|[(（]\d{1,2}[)）]|[\u2460-\u2473]|"
                        rf"[{_CN_DIGITS}]{{1,3}}\s*[、.．]|[(（][{_CN_DIGITS}]{{1,3}}[)）]|[-*•·●▪])\s*")
# the number a numbered line carries, to tell a list that goes on after a blank line
_ITEM_NUMBER = re.compile(rf"^\s*[(（]?(?P<n>\d{{1,2}}|[\u2460-\u2473]|[{_CN_DIGITS}]{{1,3}})")
# what the order is for, after the test's name: "心电图 - 排除心梗", "血糖——排除低血糖"
_PURPOSE = re.compile(r"\s+[-–—]+\s+.*$|\s*——.*$|\s*[:：]\s*(?:评估|排除|明确|了解|观察|监测|判断|协助|筛查|确定|鉴别|寻找|除外).*$")
_EXAM = re.compile(r"[【\[]\s*查体\s*[】\]]")
_SPLIT = re.compile(r"[、，,；;/和及与\s]+")


@dataclass
class OracleReply:
    text: str
    tests: list[str] = field(default_factory=list)  # names of record tests revealed
    exam: bool = False
    unknown: list[str] = field(default_factory=list)  # ordered items the record lacks


def order_items(text: str, match: re.Match[str]) -> list[str]:
    """The items one order names: on the tag's line, and in a list under it (numbered or
    bulleted lines, or the one line that follows a bare tag), numbering removed."""
    lines = [_LIST_ITEM.sub("", match.group("items"))]
    following = text[match.end():].split("\n")[1:]
    last_number = _item_number(match.group("items"))
    index = 0
    while index < len(following):
        line = following[index]
        if not line.strip():
            # a blank line ends the order unless the numbering goes on right after it
            rest = next((ln for ln in following[index + 1:] if ln.strip()), "")
            if last_number is None or _item_number(rest) != last_number + 1 or re.search(r"[？?吗]", rest):
                break
            index += 1
            continue
        if line.lstrip().startswith(("【", "[")):
            break
        if _LIST_ITEM.match(line):
            lines.append(_LIST_ITEM.sub("", line))
            last_number = _item_number(line)
        elif index == 0 and not lines[0].strip():
            lines.append(line)  # 【开检查】 then the tests on the next line
        else:
            break
        index += 1
    items = []
    for line in lines:
        for item in _SPLIT.split(_PURPOSE.sub("", line)):
            item = _LIST_ITEM.sub("", item).strip(" 。.；;")
            if item and not re.fullmatch(r"[(（]?\d{1,2}[)）.、．]?", item):  # "1、心电图 2、血糖": numbering, not a test
                items.append(item)
    return items


def _item_number(line: str) -> int | None:
    """1 for "1. …", "①", "一、", "(一)"; None for a bullet or no list item."""
    if not _LIST_ITEM.match(line):
        return None
    m = _ITEM_NUMBER.match(line)
    if not m:
        return None
    n = m.group("n")
    if "\u2460" <= n <= "\u2473":
        return ord(n) - 0x2460 + 1
    if n.isascii() and n.isdigit():
        return int(n)
    from medsim.sim.answer import cn_number

    return cn_number(n)


def _norm(name: str) -> str:
    return re.sub(r"[\s（）()·\-]", "", name).lower()


def _match_test(item: str, tests: list[TestResult]) -> TestResult | None:
    """A record test by name or alias; containment either way catches 查血常规 / 血常规+CRP."""
    wanted = _norm(item)
    if not wanted:
        return None
    for test in tests:
        names = [_norm(n) for n in [test.name, *test.aliases]]
        if wanted in names:
            return test
    for test in tests:
        for name in [_norm(n) for n in [test.name, *test.aliases]]:
            if len(name) >= 2 and (name in wanted or (len(wanted) >= 2 and wanted in name)):
                return test
    return None


class Oracle:
    def __init__(self, case: Case, spec: OracleSpec, *, exam_fields: list[str]):
        self.case = case
        self.spec = spec
        self.exam_fields = exam_fields
        self.revealed: set[str] = set()

    @staticmethod
    def wants(text: str) -> bool:
        return bool(_ORDER.search(text) or _EXAM.search(text))

    def respond(self, clinician_text: str) -> OracleReply | None:
        """Results for what this message orders, or None when it orders nothing."""
        lines: list[str] = []
        reply = OracleReply(text="")
        if _EXAM.search(clinician_text):
            reply.exam = True
            for name in ("vitals", "physical_exam"):
                if name in self.exam_fields:
                    text = self.case.record_section(name)
                    if text:
                        lines.append(f"{'生命体征' if name == 'vitals' else '查体'}：{text}")
            if not lines:
                lines.append("查体：未见明显异常。" if self.spec.missing_result == "normal" else "查体：未记录。")
        for match in _ORDER.finditer(clinician_text):
            if "tests" not in self.exam_fields:
                lines.append("（本场景不提供检查结果）")
                break
            for item in order_items(clinician_text, match):
                test = _match_test(item, self.case.tests)
                if test is None:
                    reply.unknown.append(item)
                    outcome = "未见异常" if self.spec.missing_result == "normal" else "未做该项检查"
                    lines.append(f"{item}：{outcome}")
                elif test.name not in self.revealed:
                    self.revealed.add(test.name)
                    reply.tests.append(test.name)
                    lines.append(f"{test.name}：{test.result}")
        if not lines:
            return None
        reply.text = "\n".join(lines)
        return reply


def usage_hint() -> str:
    return f"需要查体时写 {EXAM_TAG}；需要检查时写 {ORDER_TAG}项目1、项目2。"
