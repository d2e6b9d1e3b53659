"""bleu_core: exact, explainable BLEU (sacreBLEU-identical scores, every intermediate visible).

Names are imported on first use (PEP 562), so ``python -m bleu_core`` loads only what the command line
needs; ``from bleu_core import corpus_bleu`` and ``bleu_core.corpus_bleu`` work as usual.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bleu_core.api import (
        BleuResult,
        corpus_bleu,
        corpus_statistics,
        result_from_statistics,
        sentence_bleu,
        sentence_scores,
    )
    from bleu_core.compare.significance import (
        PairedResult,
        bootstrap_ci,
        bootstrap_ci_from_stats,
        paired_test,
        paired_test_from_stats,
        pairwise_p_values,
    )
    from bleu_core.options import SMOOTH_DEFAULTS, TOKENIZERS, BleuOptions, make_options
    from bleu_core.stats.counting import PreparedReferences, prepare_references, segment_statistics
    from bleu_core.stats.scoring import ScoreArrays, brevity_penalty, score_statistics
    from bleu_core.stats.segment_stats import SegmentStats
    from bleu_core.tokenizers import tokenize_line, tokenize_lines
    from bleu_core.version import __version__

_MODULES = {
    "api": (
        "BleuResult",
        "corpus_bleu",
        "corpus_statistics",
        "result_from_statistics",
        "sentence_bleu",
        "sentence_scores",
    ),
    "options": ("SMOOTH_DEFAULTS", "TOKENIZERS", "BleuOptions", "make_options"),
    "stats.scoring": ("ScoreArrays", "brevity_penalty", "score_statistics"),
    "compare.significance": (
        "PairedResult",
        "bootstrap_ci",
        "bootstrap_ci_from_stats",
        "paired_test",
        "paired_test_from_stats",
        "pairwise_p_values",
    ),
    "stats.counting": ("PreparedReferences", "prepare_references", "segment_statistics"),
    "stats.segment_stats": ("SegmentStats",),
    "version": ("__version__",),
    "tokenizers": ("tokenize_line", "tokenize_lines"),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}
#: Subpackages and modules reachable as attributes without their own import (``bleu_core.sacrebleu_api``).
_SUBMODULES = frozenset(
    {
        "api",
        "cli",
        "compare",
        "corpus",
        "gaps",
        "i18n",
        "limits",
        "nltk_api",
        "options",
        "sacrebleu_api",
        "scale",
        "stats",
        "teach",
        "text",
        "tokenizers",
        "tools",
        "version",
    }
)

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


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:  # e.g. bleu_core.teach.explain, bleu_core.compare.significance
        return import_module(f".{name}", __name__)
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bleu_core' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
