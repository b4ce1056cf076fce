"""Word segmenters behind one small interface: ``cut(text) -> list[str]``.

jieba is the default and always present. pkuseg and spaCy are optional extras; asking for
one that is not installed raises :class:`BackendUnavailable` naming the pip command.
Each backend is built once (loading a dictionary or model is slow) and cached.
"""

from __future__ import annotations

import logging
import threading
from functools import cache
from typing import Protocol

from medsim.text.lexicon import get_lexicon, thuocl_words

BACKENDS = ("jieba", "pkuseg", "spacy")


class BackendUnavailable(Exception):
    """An optional segmentation backend is missing; the message says what to install."""


class Segmenter(Protocol):
    name: str

    def cut(self, text: str) -> list[str]: ...


def _user_words() -> list[str]:
    lex = get_lexicon()
    words = lex.surfaces()
    words.extend(lex.negation_pre + lex.negation_post + lex.uncertainty_pre + lex.uncertainty_post)
    words.extend(lex.pseudo_negations + lex.family_markers + lex.historical_markers)
    return [w for w in words if len(w) > 1 and " " not in w]


@cache
def jieba_word_tags() -> dict[str, str]:
    """jieba's bundled dictionary as word → part-of-speech tag (nr = a person's name): tells an
    ordinary word (查房, 尚可) from a name. Empty when jieba is not installed."""
    try:
        import jieba
    except ImportError:
        return {}
    from pathlib import Path

    tags: dict[str, str] = {}
    path = Path(jieba.__file__).with_name("dict.txt")
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) == 3 and 2 <= len(parts[0]) <= 4:
                tags[parts[0]] = parts[2]
    return tags


class JiebaSegmenter:
    name = "jieba"

    def __init__(self) -> None:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        tk = jieba.Tokenizer()
        tk.initialize()
        # THUOCL (untyped, general) gets a modest frequency; our typed terms a high one so
        # compounds such as 腹股沟斜疝 or 尿常规 are kept whole.
        for w in thuocl_words():
            if w not in tk.FREQ or not tk.FREQ[w]:
                tk.add_word(w, freq=300)
        for w in _user_words():
            tk.add_word(w, freq=max(tk.FREQ.get(w) or 0, 3000))
        self._tk = tk

    def cut(self, text: str) -> list[str]:
        return self._tk.lcut(text)


class PkusegSegmenter:
    name = "pkuseg"

    def __init__(self) -> None:
        try:
            import pkuseg  # type: ignore[import-not-found]
        except ImportError as exc:
            raise BackendUnavailable(
                "the pkuseg backend is not installed: run `pip install numpy Cython` and then "
                "`pip install --no-build-isolation pkuseg==0.0.25` (it ships the 'default' model; "
                "its 'medicine' model downloads at run time and is not used)"
            ) from exc
        try:
            self._seg = pkuseg.pkuseg(model_name="default", user_dict=_user_words())
        except Exception as exc:  # pkuseg raises plain Exceptions for missing models
            raise BackendUnavailable(f"pkuseg could not load its bundled 'default' model: {exc}") from exc

    def cut(self, text: str) -> list[str]:
        # pkuseg drops whitespace; the tokenizer re-finds each word in the text, so that is fine
        return self._seg.cut(text)


class SpacySegmenter:
    name = "spacy"

    def __init__(self) -> None:
        self.nlp = blank_zh()

    def cut(self, text: str) -> list[str]:
        return [t.text for t in self.nlp.tokenizer(text)]


def blank_zh():
    """spacy.blank("zh") with the jieba segmenter: offline, no model package needed."""
    try:
        import spacy
    except ImportError as exc:
        raise BackendUnavailable(
            "the spaCy backend is not installed: run `pip install spacy` (or `pip install 'medsim[spacy]'`); "
            "no model download is needed, medsim uses spacy.blank('zh') with the jieba segmenter"
        ) from exc
    import jieba

    jieba.setLogLevel(logging.WARNING)  # spaCy's segmenter uses the global jieba: keep it quiet
    return spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})


_lock = threading.Lock()


@cache
def _build(name: str) -> Segmenter:
    if name == "jieba":
        return JiebaSegmenter()
    if name == "pkuseg":
        return PkusegSegmenter()
    if name == "spacy":
        return SpacySegmenter()
    raise ValueError(f"unknown segmentation backend {name!r}; choose one of {', '.join(BACKENDS)}")


def get_segmenter(name: str = "jieba") -> Segmenter:
    """The cached segmenter for ``name`` (built on first use)."""
    with _lock:
        return _build(name)
