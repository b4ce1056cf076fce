"""medsim's Chinese clinical text layer.

normalize → tokenize (jieba by default; pkuseg and spaCy optional) → entities → findings
(negation, uncertainty, family and past history), plus de-identification. Importing this
package is cheap: the jieba dictionary, the lexicons and the place-name gazetteer load on
first use and are cached.
"""

from medsim.text.analysis import Analysis, analyze
from medsim.text.deid import DeidResult, Replacement, deidentify, phi_warnings
from medsim.text.entities import Entity, extract_entities
from medsim.text.lexicon import Lexicon, get_lexicon
from medsim.text.negation import Finding
from medsim.text.normalize import Normalized, normalize
from medsim.text.segmenters import BACKENDS, BackendUnavailable
from medsim.text.tokenize import Token, tokenize, words

__all__ = [
    "Analysis",
    "BACKENDS",
    "BackendUnavailable",
    "DeidResult",
    "Entity",
    "Finding",
    "Lexicon",
    "Normalized",
    "Replacement",
    "Token",
    "analyze",
    "deidentify",
    "extract_entities",
    "get_lexicon",
    "normalize",
    "phi_warnings",
    "tokenize",
    "words",
]
