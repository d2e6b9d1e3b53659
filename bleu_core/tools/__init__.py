"""Other tools' BLEU, re-implemented with their own conventions and quirks, one module per tool.

"BLEU" is not one number: tools differ in tokenization, smoothing, the reference length behind the brevity
penalty, what a zero precision does, whether weights are normalized, and the scale.  Each module reproduces one
tool exactly (no import of that tool at run time) as a step-by-step trace, and reads the tool's score off it:

* :mod:`.sacrebleu_bleu`: sacreBLEU 2.6 defaults (bleu_core itself);
* :mod:`.nltk_bleu`: NLTK 3.10 ``sentence_bleu``/``corpus_bleu``, smoothing methods 0-7 (:mod:`.nltk_smoothing`);
* :mod:`.nltk_legacy`: NLTK 3.2.x, which left zero precisions out;
* :mod:`.matlab`: MATLAB Text Analytics ``bleuEvaluationScore``;
* :mod:`.hf_evaluate`: Hugging Face ``evaluate.load("bleu")`` (tensorflow/nmt ``compute_bleu``);
* :mod:`.torchmetrics_bleu`: ``torchmetrics.text.BLEUScore``;
* :mod:`.multi_bleu`: Moses ``multi-bleu.perl``;
* :mod:`.d2l`: the textbook BLEU of "Dive into Deep Learning" (one reference, weights 1/2^n).

:data:`IMPLEMENTATIONS` describes each tool's choices as data; :func:`trace_implementation` gives one tool's
sentence trace, :func:`compare_implementations` and :func:`compare_corpus_implementations` every tool's score.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from bleu_core.api import check_corpus
from bleu_core.tools import (
    d2l,
    hf_evaluate,
    matlab,
    multi_bleu,
    nltk_bleu,
    nltk_legacy,
    sacrebleu_bleu,
    torchmetrics_bleu,
)
from bleu_core.tools.base import Implementation, ImplementationTrace, OrderStep, OriginalToolError, ToolTrace, number
from bleu_core.tools.checks import Streams, check_sentence_input, segment_references

__all__ = [
    "IMPLEMENTATIONS",
    "Implementation",
    "ImplementationTrace",
    "OrderStep",
    "OriginalToolError",
    "ToolTrace",
    "check_sentence_input",
    "compare_corpus_implementations",
    "compare_implementations",
    "corpus_score",
    "number",
    "segment_references",
    "trace_implementation",
    "trace_implementations",
]

SentenceTracer = Callable[[Implementation, str, Sequence[str]], ImplementationTrace]
CorpusScorer = Callable[[Implementation, Sequence[str], Streams], float]

# (implementation, its sentence tracer, its corpus scorer or None for sentence-only tools), in display order.
_TOOLS: tuple[tuple[Implementation, SentenceTracer, CorpusScorer | None], ...] = (
    (sacrebleu_bleu.IMPLEMENTATION, sacrebleu_bleu.sentence_trace, sacrebleu_bleu.corpus_score),
    (nltk_bleu.IMPLEMENTATIONS[0], nltk_bleu.sentence_trace, nltk_bleu.corpus_score),
    (nltk_bleu.IMPLEMENTATIONS[1], nltk_bleu.sentence_trace, nltk_bleu.corpus_score),
    (nltk_legacy.IMPLEMENTATION, nltk_legacy.sentence_trace, None),
    (matlab.IMPLEMENTATION, matlab.sentence_trace, None),
    (hf_evaluate.IMPLEMENTATION, hf_evaluate.sentence_trace, hf_evaluate.corpus_score),
    (torchmetrics_bleu.IMPLEMENTATION, torchmetrics_bleu.sentence_trace, torchmetrics_bleu.corpus_score),
    (multi_bleu.IMPLEMENTATION, multi_bleu.sentence_trace, multi_bleu.corpus_score),
    (d2l.IMPLEMENTATION, d2l.sentence_trace, None),
)

#: Every re-implemented tool by key, in display order.
IMPLEMENTATIONS: dict[str, Implementation] = {impl.key: impl for impl, _, _ in _TOOLS}
_TRACERS: dict[str, SentenceTracer] = {impl.key: tracer for impl, tracer, _ in _TOOLS}
_CORPUS: dict[str, CorpusScorer | None] = {impl.key: scorer for impl, _, scorer in _TOOLS}


def trace_implementation(key: str, candidate: str, references: Sequence[str]) -> ImplementationTrace:
    """One tool's sentence BLEU of ``candidate``, every step kept; its ``score`` is the tool's (in [0, 1]).

    Each tool sees the text the way it is usually fed: sacreBLEU and HF evaluate tokenize with 13a
    themselves; the token-list tools (NLTK, MATLAB, torchmetrics) and multi-bleu.perl get whitespace-split
    tokens.  All use their default settings.
    """
    if key not in IMPLEMENTATIONS:
        raise ValueError(f"unknown implementation {key!r}; choose one of {', '.join(IMPLEMENTATIONS)}")
    refs = check_sentence_input(candidate, references)
    return _TRACERS[key](IMPLEMENTATIONS[key], candidate, refs)


def trace_implementations(candidate: str, references: Sequence[str]) -> tuple[ImplementationTrace, ...]:
    """:func:`trace_implementation` for every tool of the registry, in its order."""
    refs = check_sentence_input(candidate, references)
    return tuple(_TRACERS[key](impl, candidate, refs) for key, impl in IMPLEMENTATIONS.items())


def _row(implementation: Implementation, native: float) -> tuple[Implementation, float, float]:
    return implementation, native, native / 100 if implementation.scale == "0-100" else native


def compare_implementations(candidate: str, references: Sequence[str]) -> list[tuple[Implementation, float, float]]:
    """Every tool's BLEU of one sentence: (implementation, score on its own scale, score in [0, 1]).

    Read off :func:`trace_implementations`.  NaN marks a tool that fails on this input (e.g. multi-bleu.perl
    on an empty candidate) or has no score for it (MATLAB with everything empty).
    """
    traces = trace_implementations(candidate, references)
    return [_row(trace.implementation, float(trace.native_score)) for trace in traces]


def compare_corpus_implementations(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]
) -> list[tuple[Implementation, float, float]]:
    """Every tool's corpus BLEU: (implementation, score on its own scale, score in [0, 1]).

    ``references[k][i]`` is reference k of segment i (sacreBLEU's streams; None: missing).
    Tokens as in :func:`compare_implementations`; sacreBLEU uses its corpus defaults (no
    effective order).  NaN for a tool that fails on the input and for the sentence-only
    tools (``corpus_level`` False: MATLAB's bleuEvaluationScore, the NLTK 3.2 re-implementation).
    """
    hyps, streams = check_corpus(hypotheses, references)
    out = []
    for key, implementation in IMPLEMENTATIONS.items():
        scorer = _CORPUS[key]
        native = math.nan
        if scorer is not None:
            try:
                native = float(scorer(implementation, hyps, streams))
            except OriginalToolError:
                native = math.nan
        out.append(_row(implementation, native))
    return out


def corpus_score(key: str, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> float:
    """One tool's corpus BLEU in [0, 1]; NaN where it fails or scores single sentences only."""
    if key not in IMPLEMENTATIONS:
        raise ValueError(f"unknown implementation {key!r}; choose one of {', '.join(IMPLEMENTATIONS)}")
    hyps, streams = check_corpus(hypotheses, references)
    scorer = _CORPUS[key]
    if scorer is None:
        return math.nan
    try:
        return _row(IMPLEMENTATIONS[key], float(scorer(IMPLEMENTATIONS[key], hyps, streams)))[2]
    except OriginalToolError:
        return math.nan
