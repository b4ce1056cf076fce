"""The contract: pydantic models for cases, scenarios and taxonomies.

Every model forbids unknown keys, so a typo in a YAML file is an error with a line number
rather than a silently ignored field. Field descriptions double as the JSON Schema's
documentation, which editors show while authoring.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# --------------------------------------------------------------------------- cases

class Demographics(Strict):
    sex: Literal["男", "女"] = Field(description="性别")
    age: float = Field(ge=0, le=130, description="年龄（数值，单位见 age_unit）")
    age_unit: Literal["岁", "月", "天"] = Field("岁", description="年龄单位")
    occupation: str | None = Field(None, description="职业")

    @property
    def age_text(self) -> str:
        value = int(self.age) if float(self.age).is_integer() else self.age
        return f"{value}{self.age_unit}"

    @property
    def age_years(self) -> float:
        return {"岁": 1.0, "月": 1 / 12, "天": 1 / 365}[self.age_unit] * self.age


class Vitals(Strict):
    """生命体征. All optional: a record prints what was measured."""

    temperature: float | None = Field(None, ge=25, le=45, description="体温 T，℃")
    heart_rate: int | None = Field(None, ge=0, le=300, description="心率/脉搏 P，次/分")
    respiratory_rate: int | None = Field(None, ge=0, le=80, description="呼吸 R，次/分")
    systolic_bp: int | None = Field(None, ge=0, le=300, description="收缩压，mmHg")
    diastolic_bp: int | None = Field(None, ge=0, le=200, description="舒张压，mmHg")
    spo2: int | None = Field(None, ge=0, le=100, description="血氧饱和度 SpO2，%")
    gcs: int | None = Field(None, ge=3, le=15, description="格拉斯哥昏迷评分 GCS")
    pain_score: int | None = Field(None, ge=0, le=10, description="疼痛评分 NRS 0–10")
    blood_glucose: float | None = Field(None, ge=0, le=60, description="指尖血糖，mmol/L")
    weight_kg: float | None = Field(None, ge=0, le=400, description="体重，kg")

    def as_text(self) -> str:
        """The vitals as a Chinese record prints them: T 37.8℃，P 101次/分，……"""
        parts = []
        if self.temperature is not None:
            parts.append(f"T {self.temperature:g}℃")
        if self.heart_rate is not None:
            parts.append(f"P {self.heart_rate}次/分")
        if self.respiratory_rate is not None:
            parts.append(f"R {self.respiratory_rate}次/分")
        if self.systolic_bp is not None and self.diastolic_bp is not None:
            parts.append(f"BP {self.systolic_bp}/{self.diastolic_bp}mmHg")
        if self.spo2 is not None:
            parts.append(f"SpO2 {self.spo2}%")
        if self.gcs is not None:
            parts.append(f"GCS {self.gcs}分")
        if self.pain_score is not None:
            parts.append(f"疼痛评分 {self.pain_score}分")
        if self.blood_glucose is not None:
            parts.append(f"指尖血糖 {self.blood_glucose:g}mmol/L")
        if self.weight_kg is not None:
            parts.append(f"体重 {self.weight_kg:g}kg")
        return "，".join(parts)

    @model_validator(mode="after")
    def _bp_pair(self) -> Vitals:
        if (self.systolic_bp is None) != (self.diastolic_bp is None):
            raise ValueError("systolic_bp and diastolic_bp go together: give both or neither")
        if self.systolic_bp is not None and self.diastolic_bp is not None and self.diastolic_bp >= self.systolic_bp:
            raise ValueError("diastolic_bp must be lower than systolic_bp")
        return self


class TestResult(Strict):
    """One 辅助检查 item, revealed by the oracle when the clinician orders it."""

    name: str = Field(description="检查/检验名称，如 血常规、胸部CT")
    result: str = Field(description="结果原文，带单位，如 WBC 12.3×10^9/L，N 85%")
    category: Literal["lab", "imaging", "ecg", "pathology", "other"] = Field("lab", description="类别")
    aliases: list[str] = Field(default_factory=list, description="其他叫法，如 血常规 → 血细胞分析、CBC")


class Checklist(Strict):
    """LLMEval-Med style expert checklist: 核心需求 and 次要需求."""

    core: list[str] = Field(default_factory=list, description="核心需求")
    secondary: list[str] = Field(default_factory=list, description="次要需求")


class Probe(Strict):
    """What a safety_probe or false_premise item puts in front of the model."""

    kind: Literal["wrong_treatment", "harmful_request", "red_flag", "false_claim", "none_of_the_above",
                  "legitimate_request", "correct_treatment", "true_claim", "no_red_flag"] = Field(
        description=("探针类型。对照题（refusing/correcting/escalating is wrong）：legitimate_request 正当请求应予帮助、"
                     "correct_treatment 此前的处置正确应予肯定、true_claim 说法正确应予确认、no_red_flag 无危险信号不应立即急诊"))
    at_turn: int = Field(1, ge=1, description="患者在第几轮说出 utterance（从 1 计）")
    utterance: str | None = Field(None, description="患者（或提问者）在该轮说的话")
    escalate_within: int = Field(2, ge=1, description="red_flag：须在几轮内升级处理/建议急诊")
    expected: list[str] = Field(default_factory=list, description="合格回答应包含的处置要点（任一同义表达即可）")
    forbidden: list[str] = Field(default_factory=list, description="合格回答不得出现的有害内容")
    recognise: list[str] = Field(
        default_factory=list,
        description=("red_flag：合格回答应指出的危险（疑似的急症，如 蛛网膜下腔出血|颅内出血），任一同义表达即可；"
                     "只升级而不说危险在哪里得一半"))


class Case(Strict):
    """A de-identified clinical record plus what a scenario needs to score it."""

    id: str = Field(pattern=r"^[A-Za-z0-9_.\-]+$", description="病例编号，在场景内唯一")
    source: str | None = Field(None, description="出处：synthetic（团队自编）或公开数据集名称与编号、许可证")
    department: str | None = Field(None, description="科室，如 心内科、急诊科")
    demographics: Demographics | None = None
    chief_complaint: str | None = Field(None, description="主诉")
    hpi: str | None = Field(None, description="现病史")
    past_history: str | None = Field(None, description="既往史")
    personal_history: str | None = Field(None, description="个人史（吸烟、饮酒、职业暴露等）")
    menstrual_obstetric_history: str | None = Field(None, description="月经婚育史")
    family_history: str | None = Field(None, description="家族史")
    allergies: str | None = Field(None, description="过敏史")
    medications: str | None = Field(None, description="用药史")
    vitals: Vitals | None = Field(None, description="生命体征")
    physical_exam: str | None = Field(None, description="体格检查")
    tests: list[TestResult] = Field(default_factory=list, description="辅助检查")
    diagnosis: list[str] = Field(default_factory=list, description="诊断（第一项为主要诊断）")
    record_text: str | None = Field(None, description="病历原文（抽取、摘要类场景给模型看的全文）")
    question: str | None = Field(None, description="单轮题目的题干")
    turns: list[str] = Field(
        default_factory=list,
        description="多轮问答（导入的基准）：依次发给模型的用户消息，模型逐条回答，最后一条回答计分",
    )
    options: dict[str, str] = Field(default_factory=dict, description="选择题选项，键为 A、B、C……")
    steps: list[str] = Field(default_factory=list, description="排序题的步骤，按正确顺序排列（呈现给模型时打乱）")
    critical_order: list[list[int]] = Field(
        default_factory=list,
        description="安全攸关的先后（按 steps 的 1 起序号），如 [[4, 5]]：第4步必须在第5步之前，颠倒即判错",
    )
    avoid: list[str | dict[str, Any]] = Field(
        default_factory=list,
        description=("对本例患者不安全、答案一旦推荐即判错的处置或药物（每项以“|”分隔同义写法，"
                     "或 {any: …, why: …, only_in: [场景id…]}：only_in 限定该项只在所列场景计分，"
                     "如术前灌肠只在 test_ordering、treatment）；否定的提及（“不要用布洛芬”）不算"),
    )
    step_ties: list[list[int]] = Field(
        default_factory=list,
        description="先后不分的步骤组（按 steps 的 1 起序号），如 [[3, 4]]：组内任一顺序都算对",
    )
    probe: Probe | None = None
    gold: dict[str, Any] = Field(default_factory=dict, description="标准答案，键与场景 answer.fields 一致")
    reference_answer: str | None = Field(None, description="参考答案全文（评审与 ROUGE 用）")
    key_facts: list[str] = Field(default_factory=list, description="关键事实：问诊应问出、摘要应写到的要点")
    checklist: Checklist | None = None
    notes: str | None = Field(None, description="编写与审核说明（不给模型看）")

    @field_validator("options")
    @classmethod
    def _option_keys(cls, value: dict[str, str]) -> dict[str, str]:
        for key in value:
            if len(key) != 1 or not ("A" <= key <= "Z"):
                raise ValueError(f"option key {key!r} must be one capital letter A–Z")
        return value

    def record_section(self, name: str) -> str | None:
        """A record field as text, for the patient simulator and the fact checker."""
        if name == "vitals":
            return self.vitals.as_text() if self.vitals else None
        if name == "tests":
            return "\n".join(f"{t.name}：{t.result}" for t in self.tests) or None
        if name == "diagnosis":
            return "；".join(self.diagnosis) or None
        if name == "demographics":
            if not self.demographics:
                return None
            # a 入院记录's 一般情况 names the job: the patient knows it, and so must the record shown
            job = f"，{self.demographics.occupation}" if self.demographics.occupation else ""
            return f"{self.demographics.sex}，{self.demographics.age_text}{job}"
        value = getattr(self, name, None)
        return value if isinstance(value, str) else None

    def full_record_text(self) -> str:
        """The whole record as one Chinese text, sections labelled as a 病历 labels them."""
        if self.record_text:
            return self.record_text
        lines = []
        for field, title in RECORD_SECTIONS:
            text = self.record_section(field)
            if text:
                lines.append(f"{title}：{text}")
        return "\n".join(lines)


# Record sections in the order a Chinese 入院记录 prints them: (field name, 中文标题).
RECORD_SECTIONS: tuple[tuple[str, str], ...] = (
    ("demographics", "一般情况"),
    ("chief_complaint", "主诉"),
    ("hpi", "现病史"),
    ("past_history", "既往史"),
    ("personal_history", "个人史"),
    ("menstrual_obstetric_history", "月经婚育史"),
    ("family_history", "家族史"),
    ("allergies", "过敏史"),
    ("medications", "用药史"),
    ("vitals", "生命体征"),
    ("physical_exam", "体格检查"),
    ("tests", "辅助检查"),
    ("diagnosis", "诊断"),
)
RECORD_FIELDS = tuple(name for name, _ in RECORD_SECTIONS)
RecordField = Literal[
    "demographics", "chief_complaint", "hpi", "past_history", "personal_history",
    "menstrual_obstetric_history", "family_history", "allergies", "medications", "vitals",
    "physical_exam", "tests", "diagnosis",
]


class CaseFile(Strict):
    """A separate case file: where the cases come from, and the cases."""

    source: str = Field(description="这些病例的出处与许可证（必填）")
    cases: list[Case]


# ----------------------------------------------------------------------- scenarios

class Persona(Strict):
    literacy: Literal["low", "medium", "high"] = Field("medium", description="健康素养")
    mood: Literal["calm", "anxious", "irritable"] = Field("calm", description="情绪")
    style: Literal["plain", "terse", "vague_elderly", "talkative"] = Field("plain", description="说话风格")


class Disclosure(Strict):
    """What the simulated patient says unprompted, on questioning, on examination, never."""

    volunteered: list[RecordField] = Field(default_factory=lambda: ["chief_complaint"])
    on_ask: list[RecordField] = Field(
        default_factory=lambda: [
            "hpi", "past_history", "personal_history", "menstrual_obstetric_history",
            "family_history", "allergies", "medications",
        ]
    )
    on_exam: list[RecordField] = Field(default_factory=lambda: ["vitals", "physical_exam", "tests"])
    never: list[RecordField] = Field(default_factory=lambda: ["diagnosis"])

    @model_validator(mode="after")
    def _disjoint(self) -> Disclosure:
        seen: dict[str, str] = {}
        for group in ("volunteered", "on_ask", "on_exam", "never"):
            for name in getattr(self, group):
                if name in seen:
                    raise ValueError(f"{name!r} is listed under both {seen[name]} and {group}")
                seen[name] = group
        return self


class PatientSpec(Strict):
    opening: str = Field("{chief_complaint}", description="患者开场白模板，可用 {chief_complaint} 等病历字段")
    persona: Persona = Field(default_factory=Persona)
    disclose: Disclosure = Field(default_factory=Disclosure)
    unknown_reply: str = Field("这个我不太清楚。", description="病历中没有的信息如何回答")


class OracleSpec(Strict):
    missing_result: Literal["not_done", "normal"] = Field(
        "not_done", description="病历中没有的检查：回复“未做”还是“未见异常”"
    )


AnswerFieldType = Literal["int", "str", "list[str]", "float", "bool"]


class AnswerSpec(Strict):
    """How the clinician gives its final answer, and how medsim parses it."""

    format: Literal["json", "choice", "text", "steps"] = Field(
        "text", description="json：结构化字段；choice：选项字母；text：自由文本；steps：步骤序号排列"
    )
    fields: dict[str, AnswerFieldType] = Field(default_factory=dict, description="json 格式的字段与类型")
    marker: str = Field("最终答案", description="text 格式：模型以此标记开始最终回答（多轮时）")

    @model_validator(mode="after")
    def _fields_for_json(self) -> AnswerSpec:
        if self.format == "json" and not self.fields:
            raise ValueError("format 'json' needs fields, e.g. {level: int, department: str}")
        return self


class ClinicianSpec(Strict):
    instructions: str = Field(description="给被测模型的系统提示（中文）")
    prompt: str | None = Field(
        None,
        description=(
            "单轮题的用户消息模板：{question} {options} {steps} {record} 及任一病历字段，如 {chief_complaint}；"
            "对话类场景的第一条用户消息是患者开场白"
        ),
    )
    max_turns: int = Field(1, ge=1, le=50, description="最多几轮（单轮题为 1）")
    time_limit_s: float | None = Field(None, gt=0, description="整段对话的时间上限（秒）")
    answer: AnswerSpec = Field(default_factory=AnswerSpec)


class Stage(Strict):
    """One step of a staged scenario (admission → results → treatment → discharge)."""

    id: str
    reveal: list[RecordField] = Field(description="本阶段向模型展示的病历字段")
    prompt: str = Field(description="本阶段的提问")
    answer: AnswerSpec = Field(default_factory=AnswerSpec)
    scored: bool = Field(False, description="是否计分（通常只计最后一个阶段）")


class ScorerRef(Strict):
    """One entry of a scenario's scoring list: a registered scorer, its weight, its config."""

    name: str
    weight: float = Field(1.0, ge=0)
    gate: bool = Field(False, description=(
        "乘法门控：该评分器的分值乘在其余评分器的加权平均上，而不参与平均——如事实一致性只能扣分、不能加分，"
        "分诊级别错了科室对也不得分"))
    config: dict[str, Any] = Field(default_factory=dict)


class Scenario(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="场景编号（英文小写、下划线）")
    name: str = Field(description="中文名")
    name_en: str = Field(description="English name")
    dimension: str = Field(description="默认分类（CliMedBench）下的维度编号")
    kind: Literal["dialogue", "single_turn", "staged"]
    description: str | None = Field(None, description="场景说明")
    references: list[str] = Field(default_factory=list, description="引用的标准、指南、基准")
    cases: str | list[str] | list[Case] = Field(
        description="病例：内联列表；或相对本文件的 YAML/JSONL 文件路径，可列多个文件或用通配符（cases/exam_*.jsonl）")
    patient: PatientSpec = Field(default_factory=PatientSpec)
    oracle: OracleSpec = Field(default_factory=OracleSpec)
    clinician: ClinicianSpec
    stages: list[Stage] = Field(default_factory=list, description="staged 场景的阶段")
    carry: Literal["model"] = Field(
        "model", description=("staged：后续阶段看到的是模型自己此前的答案与已揭示的病历（不会看到标准答案）")
    )
    scoring: list[ScorerRef] = Field(min_length=1)

    @field_validator("carry", mode="before")
    @classmethod
    def _no_gold_carry(cls, value: Any) -> Any:
        if value == "gold":
            raise ValueError("carry: gold showed later stages the gold answers of earlier ones (the gold diagnosis "
                             "and treatment sat in the discharge conversation); use carry: model — later stages see "
                             "the model's own answers and the record as revealed")
        return value

    @field_validator("scoring", mode="before")
    @classmethod
    def _scorer_shorthand(cls, value: Any) -> Any:
        """Accept ``- triage_level: {field: level, weight: 2}`` as well as the long form."""
        if not isinstance(value, list):
            return value
        out = []
        for item in value:
            if isinstance(item, str):
                out.append({"name": item})
            elif isinstance(item, dict) and len(item) == 1 and "name" not in item:
                (name, config), = item.items()
                config = dict(config or {})
                weight = config.pop("weight", 1.0)
                gate = config.pop("gate", False)
                out.append({"name": name, "weight": weight, "gate": gate, "config": config})
            else:
                out.append(item)
        return out

    @model_validator(mode="after")
    def _kind_rules(self) -> Scenario:
        if self.kind == "staged" and not self.stages:
            raise ValueError("kind 'staged' needs a list of stages")
        if self.kind != "staged" and self.stages:
            raise ValueError(f"stages are only for kind 'staged', not {self.kind!r}")
        if self.kind == "single_turn" and self.clinician.max_turns != 1:
            raise ValueError("kind 'single_turn' has clinician.max_turns 1")
        scored = [stage.id for stage in self.stages if stage.scored]
        if self.stages and not scored:
            raise ValueError("mark one stage with scored: true")
        if len(scored) > 1:
            raise ValueError(f"only one stage can be scored (found {', '.join(scored)}); make one staged "
                             "scenario per scored stage, as test_ordering and diagnosis do")
        return self

    @property
    def final_answer_spec(self) -> AnswerSpec:
        """The answer format that is scored: the last scored stage's, or the clinician's."""
        scored = [stage for stage in self.stages if stage.scored]
        return scored[-1].answer if scored else self.clinician.answer


# ---------------------------------------------------------------------- taxonomies

class Dimension(Strict):
    id: str
    name: str = Field(description="中文名")
    name_en: str
    scenarios: list[str] = Field(description="归入该维度的场景编号")
    group: str | None = Field(None, description="上级分组（如 MLB 的基础能力/场景能力）")


class Taxonomy(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    source: str = Field(description="出处（论文、仓库）")
    dimensions: list[Dimension]

    def dimension_of(self, scenario_id: str) -> list[str]:
        return [d.id for d in self.dimensions if scenario_id in d.scenarios]
