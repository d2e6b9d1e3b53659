"""BLEU from sufficient statistics, vectorized over rows (segments, corpora or resamples).

For each row: BP = 1 if c > r else exp(1 - r/c) (0 when c = 0);
p_n = matches_n / totals_n after smoothing; BLEU = BP * exp(sum_n w_n log p_n).
The rules for zero counts, smoothing and effective order follow sacreBLEU 2.6's
``BLEU.compute_bleu`` step by step, so that scores agree to the last bits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .options import BleuOptions
from .statistics import SegmentStats

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class ScoreArrays:
    """Scores of many rows at once, every intermediate kept for explanation."""

    score: FloatArray  # (rows,) BLEU in [0, 1]
    bp: FloatArray  # (rows,)
    precisions: FloatArray  # (rows, N) p_n after smoothing, in [0, 1]
    smoothed_matches: FloatArray  # (rows, N) the numerators actually used
    smoothed_totals: FloatArray  # (rows, N) the denominators actually used
    weights: FloatArray  # (rows, N) weight each order got (effective order renormalizes)
    log_terms: FloatArray  # (rows, N) w_n * log p_n (-inf when p_n = 0 and w_n > 0)
    used_orders: NDArray[np.int64]  # (rows,) orders that count (effective order)


def brevity_penalty(sys_len: NDArray[np.integer], ref_len: NDArray[np.integer]) -> FloatArray:
    """BP = 1 when c >= r, else exp(1 - r/c); 0 for an empty hypothesis against a non-empty reference."""
    c = np.asarray(sys_len, dtype=np.float64)
    r = np.asarray(ref_len, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        short = np.exp(1.0 - r / np.where(c > 0, c, 1.0))
    return np.where(c < r, np.where(c > 0, short, 0.0), 1.0)


def score_statistics(stats: SegmentStats, options: BleuOptions) -> ScoreArrays:
    """Score every row of ``stats`` independently (sentence BLEU per segment, or one corpus row)."""
    order = options.max_order
    matches = np.asarray(stats.matches, dtype=np.float64)[:, :order].copy()
    totals = np.asarray(stats.totals, dtype=np.float64)[:, :order].copy()
    rows = matches.shape[0]
    bp = brevity_penalty(stats.hyp_len, stats.ref_len)
    any_match = np.asarray((np.asarray(stats.matches)[:, :order] > 0).any(axis=1), dtype=bool)
    if options.smooth == "add-k":
        matches[:, 1:] += options.smooth_amount
        totals[:, 1:] += options.smooth_amount
    # sacreBLEU stops at the first order without any candidate n-gram.
    processed = np.cumprod(totals > 0, axis=1).astype(bool)
    zero = (matches == 0) & processed
    safe_totals = np.where(totals > 0, totals, 1.0)
    numerators = matches.copy()
    if options.smooth == "exp":
        numerators = np.where(zero, 1.0 / np.exp2(np.cumsum(zero, axis=1)), numerators)
    elif options.smooth == "floor":
        numerators = np.where(zero, options.smooth_amount, numerators)
    precisions = np.where(processed, numerators / safe_totals, 0.0)
    # Effective order: only the orders before the first one without candidate n-grams count.
    used = processed.sum(axis=1).astype(np.int64) if options.effective_order else np.full(rows, order, dtype=np.int64)
    in_use = np.arange(order)[None, :] < used[:, None]
    base = np.asarray(options.weights, dtype=np.float64)[None, :] * in_use
    with np.errstate(divide="ignore", invalid="ignore"):
        weights = base / base.sum(axis=1, keepdims=True)
        weights = np.where(np.isfinite(weights), weights, 0.0)
        logs = np.log(precisions)
        log_terms = np.where(weights > 0, weights * logs, 0.0)
        if options.uniform_weights:
            # sacreBLEU: mean of the log precisions over the orders in use.
            total_log = np.where(in_use, logs, 0.0).sum(axis=1) / np.maximum(used, 1)
        else:
            total_log = log_terms.sum(axis=1)
        score = bp * np.exp(total_log)
    score = np.where(any_match & (used > 0), score, 0.0)
    precisions = np.where(any_match[:, None], precisions, 0.0)
    return ScoreArrays(
        score=score,
        bp=bp,
        precisions=precisions,
        smoothed_matches=np.where(zero, numerators, matches),
        smoothed_totals=totals,
        weights=weights,
        log_terms=log_terms,
        used_orders=used,
    )
