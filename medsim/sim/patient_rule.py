"""The rule patient: understands a clinician's question by topic and answers from the record.

Offline and deterministic for a seed. For each topic in the question it picks the record
clauses that answer it (the hpi clauses tagged with that aspect, or a history field),
turns them into first-person lay words, and says 不清楚 / 没注意 when the record is silent.
A symptom or condition asked by name is answered yes / no / not noticed from the record's
findings with their negation. Every reply passes the diagnosis-leak scrub, then the
persona's voice is applied.
"""

from __future__ import annotations

import random
import re
import string
from collections import Counter
from dataclasses import dataclass

from medsim.scenario.schema import Case, PatientSpec
from medsim.sim import lay, leak, textlink, vocab
from medsim.sim.disclosure import PATIENT_FIELDS, Policy
from medsim.sim.patient import PatientReply
from medsim.sim.topics import HPI_TOPICS, classify
from medsim.sim.topics import _body_pattern as body_parts
from medsim.sim.transcript import Turn


@dataclass
class _Piece:
    text: str  # what the patient says (lay, first person)
    field: str | None = None  # the record field it came from
    sources: tuple[str, ...] = ()  # the record clauses it discloses, in record wording
    content: bool = True  # False for 不清楚 / deflections
    keys: tuple[str, ...] = ()  # the question keys it answers (onset, associated:发热…)


_TIME = re.compile(r"(\d+|[一二两三四五六七八九十半数几]+)(余|多)?(分钟|小时|天|日|周|个月|月|年)(余|多)?(前|以来|来)|"
                   r"今晨|今早|昨晚|昨天|昨日|今日|今天|前天|晨起|当天|夜间")
_ORDER_TAG = re.compile(r"【[^】]*】[^\n？?]*")
_SOCIAL = {
    "smoking": re.compile(r"烟"),
    "drinking": re.compile(r"酒"),
    "occupation": re.compile(r"职业|从事|工作|工人|农民|教师|司机|退休|务农|职员|医生|学生|个体"),
}
_MENSES = re.compile(r"月经|初潮|周期|经期|末次|绝经|痛经|经量|\d+\s*[/／]\s*\d+")
_OBSTETRIC = re.compile(r"孕|产|[Gg]\d|婚|育|子|女|流产|避孕|剖宫")
_DENIAL = re.compile(r"^(患者)?(无|否认|未|不伴|没有)(?!明显诱因|诱因)")
_NO_HISTORY = re.compile(r"体健|否认.*(病史|慢性)")
_WHAT_ILLNESS = re.compile(r"是不是|会不会是|什么病|诊断|得了")

_UNSURE = {
    "onset": "具体什么时候开始的我记不清了。",
    "radiation": "往别的地方窜不窜，这个我没注意。",
    "triggers": "好像也没什么特别的原因，我没注意。",
    "relief": "怎么能好点，我也没注意。",
    "associated": "别的我没注意到什么。",
    "general": "这个我没太注意。",
    "severity": "疼得厉害不厉害，我也说不好。",
    "tests": "检查的结果我看不懂，您给我查查吧。",
    "vitals": "这个我自己没量过，不清楚，您给我量量吧。",
}


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
        # per-simulator counts the run can store beside the transcript (transcript.info)
        self.stats = {"turns": 0, "unknown_answers": 0, "not_understood": 0, "leaks_scrubbed": 0, "fuzzy_topics": 0}

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
        parsed = classify(question)
        keys = self._keys(parsed)
        repeated = [k for k in keys if self.asked[k] > 0]
        self.asked.update(keys)
        pieces: list[_Piece] = []
        for topic in parsed.topics:
            got = self._answer(topic, parsed, rng)
            for key, piece in zip(_topic_keys(topic, parsed, len(got)), got, strict=False):
                piece.keys = piece.keys or key
            pieces += got
        named = self._named(question) if parsed.topics != ["ending"] else []
        # what each asked key drew out (a named statement another answer already tells still
        # answers its own key): information gathering tells a follow-up that got something new
        # from a question asked twice
        answered: dict[str, list[str]] = {}
        for p in pieces + named:
            for key in p.keys:
                answered.setdefault(key, [])
                answered[key] += [src for src in p.sources if p.content and src not in answered[key]]
        pieces = _merge(pieces, named)
        if not pieces and _WHAT_ILLNESS.search(question):
            pieces = [_Piece("具体是什么病我也不知道，所以才来找您看的", content=False)]
        if not pieces:
            self.stats["not_understood"] += 1
            pieces = [_Piece("您说的我没太听明白，您是问什么呀？", content=False)]
        self.stats["turns"] += 1
        self.stats["fuzzy_topics"] += parsed.fuzzy
        self.stats["unknown_answers"] += sum(1 for p in pieces if not p.content and p.text == self.spec.unknown_reply)
        text = "".join(dict.fromkeys(_sentence(p.text) for p in pieces))
        prefix = ""
        told = {src for p in pieces if p.content for src in p.sources}
        # 刚才说过了 only when nothing new is told: a follow-up on a detail gets the detail
        if keys and len(repeated) == len(keys) and told and told <= self.said and "ending" not in parsed.topics:
            prefix = "不是刚说过嘛，" if self.persona.mood == "irritable" else "刚才说过了，"
        meta = {"symptoms": parsed.symptoms, "conditions": parsed.conditions, "repeats": repeated,
                "fuzzy": parsed.fuzzy, "turn": self.turn, "answered": answered}
        return self._finish(text, pieces, parsed.topics, rng, opening=False, meta=meta, prefix=prefix)

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
        text = prefix + lay.shape(text, self.persona, rng, topics=topics, opening=opening, content=content)
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

    # ------------------------------------------------------------------ topics

    def _answer(self, topic: str, parsed, rng: random.Random) -> list[_Piece]:
        if topic == "greeting":
            return [_Piece("医生好", content=False)] if len(parsed.topics) == 1 else []
        if topic == "ending":
            return [_Piece("好的，谢谢医生", content=False)]
        if topic == "chief_complaint":
            return self._from_field("chief_complaint", lambda: self._complaint())
        if topic == "associated" and parsed.symptoms:
            return self._from_field("hpi", lambda: [self._symptom(s) for s in parsed.symptoms])
        if topic in HPI_TOPICS:
            return self._from_field("hpi", lambda: self._hpi_topic(topic))
        if topic in ("past_history", "family_history"):
            field = topic
            if parsed.conditions:
                return self._from_field(field, lambda: [self._condition(field, c) for c in parsed.conditions])
            return self._from_field(field, lambda: self._whole(field))
        if topic == "allergies":
            return self._allergies()
        if topic == "medications":
            return self._medications()
        if topic in _SOCIAL:
            return self._social(topic)
        if topic in ("menstrual", "obstetric"):
            return self._women(topic)
        if topic == "age":
            return self._age()
        if topic in ("tests", "vitals"):
            return self._measured(topic)
        return []

    def _from_field(self, field: str, build) -> list[_Piece]:
        status = self.policy.status(field)
        if self.policy.allowed(field) and self.policy.text(field):
            out = build()
            return out if isinstance(out, list) else [out]
        if status == "on_exam":
            return [_Piece("这个得您给我检查了才知道吧", content=False)]
        return [_Piece(self.spec.unknown_reply, content=False)]

    def _say(self, clause: str) -> str:
        return lay.clause_to_lay(clause, literacy=self.persona.literacy, subject=self.subject)

    def _complaint(self) -> list[_Piece]:
        cc = self.policy.text("chief_complaint")
        said = lay.complaint_to_lay(cc, literacy=self.persona.literacy, subject=self.subject)
        return [_Piece(("" if said.startswith(("我", self.subject)) else self.subject) + said, "chief_complaint", (cc,))]

    def _whole(self, field: str) -> list[_Piece]:
        said, sources = lay.record_to_lay(self.policy.text(field), literacy=self.persona.literacy, subject=self.subject,
                                          history=field == "past_history")
        if not said:
            return [_Piece(self.spec.unknown_reply, content=False)]
        return [_Piece(said, field, tuple(sources))]

    # ---- hpi

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

    def _hpi_topic(self, topic: str) -> list[_Piece]:
        limit = {"onset": 1, "site": 2, "character": 2, "severity": 2, "radiation": 1, "duration": 2}.get(topic, 4)
        picked = [c for c, aspects in self.hpi if topic in aspects][:limit]
        pieces: list[_Piece] = []
        cc = self.policy.text("chief_complaint")
        if topic == "duration" and cc and self.policy.allowed("chief_complaint"):
            d = lay.duration_of(cc)
            if d:
                pieces.append(_Piece(f"有{d}了", "chief_complaint", (cc,)))
        if picked:
            # a clause that opens with 伴 continues a sentence; alone it starts plainly
            said = "，".join(self._say(re.sub(r"^(伴有|伴)", "", c) if i == 0 else c) for i, c in enumerate(picked))
            pieces.append(_Piece(said, "hpi", tuple(picked)))
        elif topic == "onset" and cc and lay.duration_of(cc):
            pieces.append(_Piece(f"{lay.duration_of(cc)}前开始的", "chief_complaint", (cc,)))
        if not pieces:
            pieces.append(_Piece(_UNSURE.get(topic, self.spec.unknown_reply), content=False))
        return pieces

    def _symptom(self, symptom: str) -> _Piece:
        lay_name = vocab.SYMPTOMS.get(symptom, (symptom, ()))[0]
        for field in ("chief_complaint", "hpi"):
            if not self.policy.allowed(field):
                continue
            for clause in textlink.clauses(self.policy.text(field)):
                if lay.is_jargon(clause):
                    continue
                hits = [f for f in textlink.findings(clause) if f.term == symptom and not f.family]
                if not hits:
                    continue
                polarity = hits[0].polarity
                if polarity == "absent":
                    return _Piece(f"没有{lay_name}", field, (clause,))
                if polarity == "uncertain":
                    return _Piece(f"好像有点{lay_name}，说不准", field, (clause,))
                unit = self.units.get(clause, (clause,))
                return _Piece(f"有，{self._say_unit(unit)}", field, unit)
        return _Piece(f"{lay_name}这个我没注意", content=False)

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
        self._grams = {c: set().union(*(textlink.bigrams(lay.strip_narrator(x)) for x in u)) for c, u in units.items()}
        self._terms = {c: {t for t, _, _ in textlink.find_terms(c)} - {"疼痛"} for c in units}
        return units

    def _named(self, question: str) -> list[_Piece]:
        """Record statements the question names in its own words (请问：发热最高几度；咳什么样的痰？
        / 视力有没有下降): a clinician who asks about a specific detail is told that detail, and
        a compound question is not met with 没听明白. Only sayable clauses are candidates (no
        results, no diagnosis): the question's words pick among them, they never add to them."""
        pieces: list[_Piece] = []
        for segment in re.split(r"[；;？?。！!\n]", question):
            hits = self._segment_hits(segment)
            keys = tuple(self._keys(classify(segment))) if hits else ()
            for clause in hits:
                unit = self.units[clause]
                pieces.append(_Piece(self._say_unit(unit), self._fields.get(clause), unit, keys=keys or ("named",)))
        return pieces

    def _segment_hits(self, segment: str) -> list[str]:
        grams = textlink.bigrams(_ASK_NOISE.sub("|", segment))
        terms = {t for t, _, _ in textlink.find_terms(segment)} - {"疼痛"}
        relative = bool(_RELATIVE.search(segment))
        scored: list[tuple[int, str]] = []
        for clause, cgrams in self._grams.items():
            shared = len(grams & cgrams) if len(grams) >= 2 else 0
            close = shared >= 2 and (shared >= 0.5 * len(grams) or shared >= 0.6 * len(cgrams)
                                     or (shared >= 0.25 * len(grams) and shared >= 0.25 * len(cgrams)))
            # a finding named in the question is answered from the clause that records it,
            # the patient's own or a relative's as the question asks (母亲哮喘 → 母亲有支气管哮喘)
            named = bool(terms & self._terms[clause]) and bool(_RELATIVE.search(clause)) == relative
            if close or named:
                scored.append((shared + 2 * named, clause))
        return [c for _, c in sorted(scored, key=lambda h: -h[0])[:4]]

    def _say_unit(self, unit: tuple[str, ...]) -> str:
        # a clause that opens with 伴 continues a sentence; alone it starts plainly
        return "，".join(self._say(re.sub(r"^(伴有|伴|并|且)", "", c) if i == 0 else c) for i, c in enumerate(unit))

    # ---- history

    def _condition(self, field: str, condition: str) -> _Piece:
        text = self.policy.text(field)
        lay_name = vocab.LOW_LITERACY.get(condition, condition) if self.persona.literacy == "low" else condition
        for clause in textlink.clauses(text):
            hits = [f for f in textlink.findings(clause) if f.term == condition]
            if hits:
                if hits[0].polarity == "absent":
                    return _Piece(f"没有{lay_name}", field, (clause,))
                return _Piece(f"有，{self._say(clause)}", field, (clause,))
        if field == "past_history" and _NO_HISTORY.search(text):
            clause = next((c for c in textlink.clauses(text) if _NO_HISTORY.search(c)), text)
            return _Piece(f"没有，{self._say(clause)}", field, (clause,))
        who = "家里人" if field == "family_history" else ""
        return _Piece(f"没听说{who}有{lay_name}，不太清楚", content=False)

    def _allergies(self) -> list[_Piece]:
        if self.policy.allowed("allergies") and self.policy.text("allergies"):
            return self._whole("allergies")
        for field in ("past_history",):
            if self.policy.allowed(field):
                clauses = [c for c in textlink.clauses(self.policy.text(field)) if "过敏" in c]
                if clauses:
                    return [_Piece("，".join(self._say(c) for c in clauses), field, tuple(clauses))]
        return self._from_field("allergies", lambda: [])

    def _medications(self) -> list[_Piece]:
        if self.policy.allowed("medications") and self.policy.text("medications"):
            return self._whole("medications")
        if self.policy.allowed("past_history"):
            clauses = [c for c in textlink.clauses(self.policy.text("past_history"))
                       if re.search(r"服|药|胰岛素|治疗", c) and not lay.is_jargon(c)]
            if clauses:
                return [_Piece("，".join(self._say(c) for c in clauses), "past_history", tuple(clauses))]
        return self._from_field("medications", lambda: [])

    def _social(self, topic: str) -> list[_Piece]:
        pieces: list[_Piece] = []
        if topic == "occupation" and self.case.demographics and self.case.demographics.occupation \
                and self.policy.allowed("demographics"):
            occ = self.case.demographics.occupation
            who = self.subject if self.subject != "孩子" else "我"
            pieces.append(_Piece(f"{who}是{occ}" if not occ.startswith(("退休", "无")) else f"{who}{occ}", "demographics",
                                 (occ,)))
        if self.policy.allowed("personal_history"):
            clauses = [c for c in textlink.clauses(self.policy.text("personal_history")) if _SOCIAL[topic].search(c)]
            if clauses:
                pieces.append(_Piece("，".join(self._say(c) for c in clauses), "personal_history", tuple(clauses)))
        if pieces:
            return pieces
        return self._from_field("personal_history", lambda: [_Piece(self.spec.unknown_reply, content=False)])

    def _women(self, topic: str) -> list[_Piece]:
        demo = self.case.demographics
        if demo and demo.sex == "男":
            who = "我" if self.subject == "我" else "他"
            return [_Piece(f"{who}是男的，没有这些情况", content=False)]
        if demo and demo.age_years < 10:
            return [_Piece("孩子还小，没有这些情况", content=False)]
        field = "menstrual_obstetric_history"
        pattern = _MENSES if topic == "menstrual" else _OBSTETRIC

        def build() -> list[_Piece]:
            clauses = [c for c in textlink.clauses(self.policy.text(field)) if pattern.search(c)]
            if not clauses:
                return [_Piece(self.spec.unknown_reply, content=False)]
            return [_Piece("，".join(self._say(c) for c in clauses), field, tuple(clauses))]

        return self._from_field(field, build)

    def _age(self) -> list[_Piece]:
        demo = self.case.demographics
        if not demo or not self.policy.allowed("demographics"):
            return [_Piece(self.spec.unknown_reply, content=False)]
        age = demo.age_text.replace("月", "个月")
        who = self.subject
        return [_Piece(f"{who}{age}了", "demographics", (demo.age_text,))]

    def _measured(self, topic: str) -> list[_Piece]:
        # only what the patient measured themselves (自测体温 38.5℃); results are the oracle's
        for field in ("hpi", "past_history"):
            if not self.policy.allowed(field):
                continue
            clauses = [c for c in textlink.clauses(self.policy.text(field))
                       if (topic == "vitals" and re.search(r"自测|自量|在家测|最高.{0,4}(\d|℃)", c)) and not
                       re.search(r"mmol|μmol|g/L|×10", c)]
            if clauses:
                return [_Piece("，".join(self._say(c) for c in clauses), field, tuple(clauses))]
        return [_Piece(_UNSURE[topic], content=False)]


# Question words and politeness: no part of what is asked about (请问/有没有/吗 are in every question).
_ASK_NOISE = re.compile(r"请问|您好|你好|医生|大夫|有没有|有无|是否|是不是|会不会|能不能|什么|怎么样|怎么|多少|多久|"
                        r"哪里|哪些|一下|说说|讲讲|详细|的话|比如|还有|别的|其他|情况|感觉|平时|现在|请|您|你|吗|呢|吧|呀|啊|么")


_RELATIVE = re.compile(r"父|母|爸|妈|兄|弟|姐|妹|哥|家族|家里|家人|亲属|子女|儿子|女儿|爷|奶|外公|外婆|祖|姑|舅|叔|伯|姨")


def _is_detail(clause: str) -> bool:
    """A clause that only describes the one before it (最高39.2℃, 咳黄色黏痰, 向左肩放射, 无效): no
    finding of its own, no new time, nothing a patient cannot know."""
    if lay.is_jargon(clause) or _TIME.search(clause):
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


def _merge(pieces: list[_Piece], named: list[_Piece]) -> list[_Piece]:
    """Topic answers plus the named statements they do not already tell; a topic answer the
    whole of which a named statement repeats is dropped (the statement says more)."""
    out = list(pieces)
    for piece in named:
        told = {s for p in out if p.content for s in p.sources}
        if set(piece.sources) <= told:
            continue
        out = [p for p in out if not (p.content and p.sources and set(p.sources) < set(piece.sources))]
        out.append(piece)
    # one answer that another in the same reply wholly repeats is said once (onset and
    # triggers both drawing on 3天前着凉以后开始发烧)
    return [p for i, p in enumerate(out) if not (p.content and p.sources and any(
        q.content and (set(p.sources) < set(q.sources) or (set(p.sources) == set(q.sources) and j < i))
        for j, q in enumerate(out) if j != i))]


def _sentence(text: str) -> str:
    text = text.strip().strip("，")
    if not text:
        return ""
    return text if text[-1] in "。？！?!" else text + "。"
