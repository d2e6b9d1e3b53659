"""bleu_core: exact, explainable BLEU (sacreBLEU-identical scores, every intermediate visible)."""

from .api import (
    BleuResult,
    __version__,
    corpus_bleu,
    corpus_statistics,
    result_from_statistics,
    sentence_bleu,
    sentence_scores,
)
from .options import SMOOTH_DEFAULTS, TOKENIZERS, BleuOptions, make_options
from .scoring import ScoreArrays, brevity_penalty, score_statistics
from .significance import (
    PairedResult,
    bootstrap_ci,
    bootstrap_ci_from_stats,
    paired_test,
    paired_test_from_stats,
    pairwise_p_values,
)
from .statistics import PreparedReferences, SegmentStats, prepare_references, segment_statistics
from .tokenizers import tokenize_line, tokenize_lines

__all__ = [
    "SMOOTH_DEFAULTS",
    "TOKENIZERS",
    "BleuOptions",
    "BleuResult",
    "PairedResult",
    "PreparedReferences",
    "ScoreArrays",
    "SegmentStats",
    "__version__",
    "bootstrap_ci",
    "bootstrap_ci_from_stats",
    "brevity_penalty",
    "corpus_bleu",
    "corpus_statistics",
    "make_options",
    "paired_test",
    "paired_test_from_stats",
    "pairwise_p_values",
    "prepare_references",
    "result_from_statistics",
    "score_statistics",
    "segment_statistics",
    "sentence_bleu",
    "sentence_scores",
    "tokenize_line",
    "tokenize_lines",
]
