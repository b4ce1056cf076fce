"""spaCy integration (optional extra: ``pip install spacy``; no model download).

``make_nlp()`` returns ``spacy.blank("zh")`` (jieba segmenter) whose tokenizer is replaced by
medsim's, so doses, lab values and vitals stay single tokens, plus a ``medsim_clinical``
component that puts medsim's entities on ``doc.ents`` with these extensions on each span:
``norm``, ``value``, ``value2``, ``unit``, ``name``, ``laterality``, and for findings
``polarity``, ``owner``, ``historical``, ``cue``.
"""

from __future__ import annotations

from medsim.text.segmenters import blank_zh

_registered = False


class MedsimTokenizer:
    """A spaCy tokenizer built on medsim.text.tokenize; Doc.text equals the input exactly."""

    def __init__(self, vocab, backend: str = "jieba") -> None:
        self.vocab = vocab
        self.backend = backend

    def __call__(self, text: str):
        from spacy.tokens import Doc

        from medsim.text.tokenize import tokenize

        words: list[str] = []
        spaces: list[bool] = []
        pos = 0
        for t in tokenize(text, self.backend):
            gap = text[pos : t.start]
            if gap == " " and words:
                spaces[-1] = True
            elif gap:
                words.append(gap)
                spaces.append(False)
            words.append(text[t.start : t.end])
            spaces.append(False)
            pos = t.end
        tail = text[pos:]
        if tail == " " and words:
            spaces[-1] = True
        elif tail:
            words.append(tail)
            spaces.append(False)
        return Doc(self.vocab, words=words, spaces=spaces)


def _register() -> None:
    global _registered
    if _registered:
        return
    from spacy.language import Language
    from spacy.tokens import Span

    for attr in ("norm", "value", "value2", "unit", "name", "laterality", "polarity", "owner", "historical", "cue"):
        if not Span.has_extension(attr):
            Span.set_extension(attr, default=None)

    @Language.component("medsim_clinical")
    def medsim_clinical(doc):
        from spacy.util import filter_spans

        from medsim.text.analysis import analyze

        analysis = analyze(doc.text)
        by_entity = {id(f.entity): f for f in analysis.findings}
        spans = []
        for e in analysis.entities:
            span = doc.char_span(e.start, e.end, label=e.type.upper(), alignment_mode="expand")
            if span is None:
                continue
            for attr in ("norm", "value", "value2", "unit", "name", "laterality"):
                span._.set(attr, getattr(e, attr))
            f = by_entity.get(id(e))
            if f is not None:
                span._.polarity, span._.owner, span._.historical, span._.cue = f.polarity, f.owner, f.historical, f.cue
            spans.append(span)
        kept = set(map(id, filter_spans(spans)))
        doc.ents = [s for s in spans if id(s) in kept]
        return doc

    _registered = True


def make_nlp(backend: str = "jieba"):
    """A spaCy pipeline with medsim's tokenizer and clinical component (raises BackendUnavailable)."""
    nlp = blank_zh()
    _register()
    nlp.tokenizer = MedsimTokenizer(nlp.vocab, backend)
    nlp.add_pipe("medsim_clinical")
    return nlp
