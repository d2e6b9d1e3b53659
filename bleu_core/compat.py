"""Other tools' BLEU: the names this module used to define, re-exported from :mod:`bleu_core.tools`.

The re-implementations live in one module per tool under :mod:`bleu_core.tools`; this module holds no rules
of its own and stays so that ``from bleu_core.compat import nltk_sentence_bleu`` keeps working.
"""

from __future__ import annotations

from .tools import (
    IMPLEMENTATIONS,
    Implementation,
    OriginalToolError,
    compare_corpus_implementations,
    compare_implementations,
)
from .tools.hf_evaluate import HfBleuResult, hf_evaluate_bleu
from .tools.matlab import matlab_bleu_evaluation_score
from .tools.multi_bleu import multi_bleu_perl
from .tools.nltk import NLTK_SMOOTHING_METHODS, nltk_corpus_bleu, nltk_sentence_bleu
from .tools.nltk_legacy import nltk_legacy_sentence_bleu
from .tools.sacrebleu import sacrebleu_corpus_bleu, sacrebleu_sentence_bleu
from .tools.torchmetrics import torchmetrics_bleu

__all__ = [
    "IMPLEMENTATIONS",
    "NLTK_SMOOTHING_METHODS",
    "HfBleuResult",
    "Implementation",
    "OriginalToolError",
    "compare_corpus_implementations",
    "compare_implementations",
    "hf_evaluate_bleu",
    "matlab_bleu_evaluation_score",
    "multi_bleu_perl",
    "nltk_corpus_bleu",
    "nltk_legacy_sentence_bleu",
    "nltk_sentence_bleu",
    "sacrebleu_corpus_bleu",
    "sacrebleu_sentence_bleu",
    "torchmetrics_bleu",
]
