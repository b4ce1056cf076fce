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
# "1. 心电图", "2）血糖", "(3) CT", "① 血常规", "- 胸片", "• 尿常规"
_LIST_ITEM = re.compile(r"^\s*(?:[(（]?\d{1,2}\s*[.、．)）:：]|[(（]\d{1,2}[)）]|[\u2460-\u2473]|[-*•·●▪])\s*")
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
    for index, line in enumerate(following):
        if not line.strip() or line.lstrip().startswith(("【", "[")):
            break
        if _LIST_ITEM.match(line):
            lines.append(_LIST_ITEM.sub("", line))
        elif index == 0 and not lines[0].strip():
            lines.append(line)  # 【开检查】 then the tests on the next line
        else:
            break
    items = []
    for line in lines:
        for item in _SPLIT.split(line):
            item = _LIST_ITEM.sub("", item).strip(" 。.；;")
            if item and not re.fullmatch(r"[(（]?\d{1,2}[)）.、．]?", item):  # "1、心电图 2、血糖": numbering, not a test
                items.append(item)
    return items


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
