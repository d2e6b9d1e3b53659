"""Corpus diagnosis: why a corpus gets the BLEU it gets.

Everything here is computed from per-segment statistics (one row per segment) with the one scorer,
:func:`bleu_core.stats.scoring.score_statistics`, so it agrees with :func:`bleu_core.corpus_bleu` by construction:

- the decomposition log BLEU = Σ w_n log p_n + log BP and which term costs the most;
- sentence BLEU, p_n and the leave-one-out effect of every segment;
- segments shorter than their reference and how much length each one costs;
- BLEU by reference-length bucket.

The n-gram lists are in :mod:`bleu_core.corpus.ngram_lists`, the input linter in :mod:`bleu_core.corpus.lint`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from bleu_core.api import BleuResult, result_from_statistics
from bleu_core.options import BleuOptions
from bleu_core.stats.scoring import brevity_penalty, score_statistics
from bleu_core.stats.segment_stats import SegmentStats

FloatArray = NDArray[np.float64]

#: Reference-length bucket edges: 1-10, 11-20, 21-30, 31-40, 41-60, 61+ tokens.
LENGTH_EDGES = (10, 20, 30, 40, 60)


@dataclass(frozen=True, slots=True)
class Term:
    """One summand of log BLEU and what BLEU would be if it were perfect (p_n = 1 or BP = 1)."""

    name: str  # "p1" .. "pN" or "BP"
    weight: float  # w_n (1 for BP)
    value: float  # w_n · log p_n, or log BP; -inf when p_n = 0 unsmoothed
    bleu_if_perfect: float  # BLEU with this term set to 0, other terms unchanged


@dataclass(frozen=True, slots=True)
class ShortSegment:
    """A segment shorter than its reference, and the corpus BP if it alone had its reference's length."""

    index: int  # 0-based segment index
    hyp_len: int
    ref_len: int
    bp_if_fixed: float

    @property
    def shortfall(self) -> int:
        return self.ref_len - self.hyp_len


@dataclass(frozen=True, slots=True)
class CorpusAnalysis:
    """Corpus BLEU with its decomposition, diagnosis and per-segment views."""

    result: BleuResult
    stats: SegmentStats
    sentence_options: BleuOptions
    sentence: FloatArray  # sentence BLEU per segment in [0, 1]
    precisions: FloatArray  # (segments, N) raw p_n = matches / totals (NaN without n-grams)
    leave_one_out: FloatArray  # corpus BLEU minus corpus BLEU without the segment, in [0, 1] units
    terms: tuple[Term, ...]
    bleu_without_bp: float
    short_segments: tuple[ShortSegment, ...]  # all segments with c < r, most costly first
    n_short: int

    @property
    def costliest(self) -> Term:
        """The term that lowers log BLEU the most (−∞ first)."""
        return min(self.terms, key=lambda t: t.value)


def _safe_log(value: float) -> float:
    return math.log(value) if value > 0 else -math.inf


def _terms(result: BleuResult, arrays_log_terms: FloatArray, arrays_weights: FloatArray) -> tuple[Term, ...]:
    """Summands of log BLEU; ``bleu_if_perfect`` drops one term from the sum."""
    values = [float(v) for v in arrays_log_terms]
    names = [f"p{n}" for n in range(1, len(values) + 1)]
    weights = [float(w) for w in arrays_weights]
    used = [i for i, w in enumerate(weights) if w > 0]
    values = [values[i] for i in used] + [_safe_log(result.bp)]
    names = [names[i] for i in used] + ["BP"]
    weights = [weights[i] for i in used] + [1.0]
    terms = []
    for i, (name, weight, value) in enumerate(zip(names, weights, values, strict=True)):
        rest = sum(v for j, v in enumerate(values) if j != i)
        terms.append(Term(name, weight, value, math.exp(rest) if rest > -math.inf else 0.0))
    return tuple(terms)


def sentence_options(options: BleuOptions) -> BleuOptions:
    """Sentence BLEU settings: the corpus settings with effective order on (as sacreBLEU's sentence_score)."""
    return replace(options, effective_order=True)


def raw_precisions(stats: SegmentStats, max_order: int) -> FloatArray:
    """Per segment and order, p_n = matches / totals before smoothing (NaN for an order without n-grams)."""
    totals = stats.totals[:, :max_order]
    with np.errstate(divide="ignore", invalid="ignore"):
        precisions: FloatArray = np.where(totals > 0, stats.matches[:, :max_order] / np.maximum(totals, 1), np.nan)
    return precisions


def leave_one_out(stats: SegmentStats, options: BleuOptions) -> FloatArray:
    """Per segment, corpus BLEU minus the corpus BLEU of all the other segments (0-1 scale)."""
    if not len(stats):
        return np.zeros(0)
    total = stats.summed()
    without = SegmentStats(
        total.matches - stats.matches,
        total.totals - stats.totals,
        total.hyp_len - stats.hyp_len,
        total.ref_len - stats.ref_len,
    )
    corpus = float(score_statistics(total, options).score[0])
    differences: FloatArray = corpus - score_statistics(without, options).score
    return differences


def short_segments(stats: SegmentStats) -> tuple[ShortSegment, ...]:
    """Segments with c < r, the most missing tokens first, each with the corpus BP if it alone were fixed."""
    total = stats.summed()
    short = np.flatnonzero(stats.hyp_len < stats.ref_len)
    missing = stats.ref_len[short] - stats.hyp_len[short]
    fixed_c = int(total.hyp_len[0]) + missing
    bp_fixed = brevity_penalty(fixed_c, np.full_like(fixed_c, int(total.ref_len[0])))
    ranking = np.lexsort((short, -missing))
    return tuple(
        ShortSegment(int(short[i]), int(stats.hyp_len[short[i]]), int(stats.ref_len[short[i]]), float(bp_fixed[i]))
        for i in ranking
    )


def analyze_corpus(stats: SegmentStats, options: BleuOptions, n_refs: int) -> CorpusAnalysis:
    """Decompose corpus BLEU and score every segment, from per-segment statistics only."""
    result = result_from_statistics(stats, options, n_refs)
    corpus_arrays = score_statistics(stats.summed(), options)
    sent_options = sentence_options(options)
    terms = _terms(result, corpus_arrays.log_terms[0], corpus_arrays.weights[0])
    shortened = short_segments(stats)
    return CorpusAnalysis(
        result=result,
        stats=stats,
        sentence_options=sent_options,
        sentence=score_statistics(stats, sent_options).score,
        precisions=raw_precisions(stats, options.max_order),
        leave_one_out=leave_one_out(stats, options),
        terms=terms,
        bleu_without_bp=next(t.bleu_if_perfect for t in terms if t.name == "BP"),
        short_segments=shortened,
        n_short=len(shortened),
    )


@dataclass(frozen=True, slots=True)
class LengthBucket:
    """Segments whose (closest) reference length falls in [low, high]."""

    label: str
    low: int
    high: int | None
    segments: int
    mean_sentence_bleu: float
    corpus_bleu: float
    hyp_len: int
    ref_len: int


def length_ratios(stats: SegmentStats) -> FloatArray:
    """Each segment's c/r, NaN where the reference is empty."""
    c = np.asarray(stats.hyp_len, dtype=np.float64)
    r = np.asarray(stats.ref_len, dtype=np.float64)
    ratio: FloatArray = np.where(r > 0, c / np.maximum(r, 1.0), np.nan)
    return ratio


def ratio_bins(ratios: FloatArray, width: float = 0.1, top: float = 3.0) -> tuple[FloatArray, NDArray[np.int64]]:
    """Segments per ``width``-wide bin of c/r from 0 to ``top`` (bin edges, counts); a ratio above ``top`` counts
    in the last bin, a NaN in none."""
    edges: FloatArray = np.round(np.arange(0.0, top + width / 1000 + width, width), 10)
    known = ratios[~np.isnan(ratios)]
    counts, _ = np.histogram(np.minimum(known, top), bins=edges)
    return edges, counts.astype(np.int64)


def length_buckets(
    stats: SegmentStats, sentence: FloatArray, options: BleuOptions, edges: Sequence[int] = LENGTH_EDGES
) -> tuple[LengthBucket, ...]:
    """BLEU by reference-length bucket: mean sentence BLEU and the corpus BLEU of the bucket's segments."""
    bounds = [0, *edges]
    buckets = []
    for i, low in enumerate(bounds):
        high = bounds[i + 1] if i + 1 < len(bounds) else None
        inside = (stats.ref_len > low) & (stats.ref_len <= high if high is not None else True)
        if low == 0:
            inside |= stats.ref_len == 0
        index = np.flatnonzero(inside)
        if not index.size:
            continue
        part = stats.take(index)
        label = f"{low + 1}–{high}" if high is not None else f"{low + 1}+"
        corpus = float(score_statistics(part.summed(), options).score[0])
        buckets.append(
            LengthBucket(
                label,
                low + 1,
                high,
                int(index.size),
                float(sentence[index].mean()),
                corpus,
                int(part.hyp_len.sum()),
                int(part.ref_len.sum()),
            )
        )
    return tuple(buckets)
