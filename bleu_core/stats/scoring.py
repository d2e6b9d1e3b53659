"""BLEU from sufficient statistics, vectorized over rows (segments, corpora or resamples): the one scorer.

For each row: BP = 1 if c > r else exp(1 - r/c) (0 when c = 0);
p_n = matches_n / totals_n after smoothing; BLEU = BP * exp(sum_n w_n log p_n).
The rules for zero counts, smoothing and effective order follow sacreBLEU 2.6's
``BLEU.compute_bleu`` step by step, so that scores agree to the last bits.

Every score in bleu_core comes from :func:`score_statistics`: the API, the explanation, the corpus
analysis and the significance tests.  Two arguments choose the arithmetic, not the rules: ``scale``
(1 for BLEU in [0, 1]; 100 for sacreBLEU's percentages) and ``precision`` (the float type of the
precisions; sacreBLEU scores bootstrap resamples in float32).  With ``scale=PERCENT`` the operations
are sacreBLEU's own, in its order: the precisions are exactly sacreBLEU's, the scores differ at most by
the last unit NumPy's vectorized exp and log may differ from the C library's, and the significance
tests give sacreBLEU's p-values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bleu_core.options import BleuOptions
from bleu_core.stats.segment_stats import SegmentStats

FloatArray = NDArray[np.float64]
FloatType = type[np.floating[Any]]
Floats = NDArray[np.floating[Any]]
BoolArray = NDArray[np.bool_]

#: sacreBLEU's scale: precisions and scores in percent.
PERCENT = 100.0


@dataclass(frozen=True, slots=True)
class ScoreArrays:
    """Scores of many rows at once, every intermediate kept for explanation.

    ``score`` and ``precisions`` are on the ``scale`` asked for (1: BLEU in [0, 1]; 100: sacreBLEU's
    percentages); ``log_terms`` are the logs of those precisions.  The rest does not depend on the scale.
    """

    score: FloatArray  # (rows,) BLEU
    bp: FloatArray  # (rows,)
    precisions: FloatArray  # (rows, N) p_n after smoothing
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


#: The forms of the brevity penalty that tools use (:func:`scalar_brevity_penalty`).
BREVITY_FORMS = ("standard", "ratio", "zero-when-r-is-0", "nltk")


def scalar_brevity_penalty(c: int, r: int, form: str = "standard") -> float:
    """:func:`brevity_penalty` of one c and r with the C library's exp, as sacreBLEU computes it (NumPy's exp
    may differ in the last bit), or the form one tool writes:

    * ``ratio`` (HF evaluate, tensorflow/nmt): exp(1 - 1/(c/r)), which rounds differently; 0 when c or r is 0;
    * ``zero-when-r-is-0`` (multi-bleu.perl): 0 when the reference is empty;
    * ``nltk``: 0 for an empty hypothesis even against an empty reference.
    """
    if form == "ratio":
        if c == 0 or r == 0:
            return 0.0
        ratio = float(c) / r
        return 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    if (form == "zero-when-r-is-0" and r == 0) or (form == "nltk" and c == 0):
        return 0.0
    if c >= r:
        return 1.0
    return math.exp(1 - r / c) if c > 0 else 0.0


@dataclass(frozen=True, slots=True)
class _Smoothed:
    """The smoothing step of every row: precisions in the arithmetic asked for, counts for the explanation."""

    precisions: FloatArray  # (rows, N) 0 for orders not processed
    matches: FloatArray  # (rows, N) numerators on the 0-1 scale (1/2^k for exp, the floor value, ...)
    totals: FloatArray  # (rows, N) denominators (add-k included)
    processed: BoolArray  # (rows, N) orders before the first one without candidate n-grams


def _smooth(stats: SegmentStats, options: BleuOptions, precision: FloatType, scale: float) -> _Smoothed:
    """p_n = scale * m_n / t_n in ``precision``, with sacreBLEU's smoothing of zero matches.

    exp: the k-th order without a match gets scale / (2^k t_n); floor: (scale * value) / t_n;
    add-k: k is added to m_n and t_n for n >= 2.  sacreBLEU stops at the first order with t_n = 0.
    """
    order = options.max_order
    matches: Floats = stats.matches[:, :order].astype(precision)
    totals: Floats = stats.totals[:, :order].astype(precision)
    if options.smooth == "add-k":
        matches[:, 1:] += precision(options.smooth_amount)
        totals[:, 1:] += precision(options.smooth_amount)
    processed = np.cumprod(totals > 0, axis=1).astype(bool)
    zero = (matches == 0) & processed
    safe_totals = np.where(processed, totals, precision(1.0))
    values = precision(scale) * matches / safe_totals
    numerators = matches.astype(np.float64)
    if options.smooth == "exp":
        halvings = np.exp2(np.cumsum(zero, axis=1))
        values = np.where(zero, precision(scale) / (halvings.astype(precision) * safe_totals), values)
        numerators = np.where(zero, 1.0 / halvings, numerators)
    elif options.smooth == "floor":
        values = np.where(zero, precision(scale * options.smooth_amount) / safe_totals, values)
        numerators = np.where(zero, options.smooth_amount, numerators)
    return _Smoothed(
        np.where(processed, values, precision(0.0)).astype(np.float64), numerators, totals.astype(np.float64), processed
    )


def _order_weights(processed: BoolArray, options: BleuOptions) -> tuple[FloatArray, NDArray[np.int64]]:
    """Per row, the weight of each order and how many orders count.

    With effective order only the orders before the first one without candidate n-grams count, and their
    weights are renormalized to sum to one.
    """
    rows, order = processed.shape
    used = processed.sum(axis=1).astype(np.int64) if options.effective_order else np.full(rows, order, np.int64)
    base = np.asarray(options.weights, dtype=np.float64)[None, :] * (np.arange(order)[None, :] < used[:, None])
    undefined = (used > 0) & (base.sum(axis=1) <= 0)
    if options.effective_order and undefined.any():
        kept = int(used[int(np.argmax(undefined))])
        raise ValueError(
            f"BLEU is undefined here: under effective order a text with n-grams only up to order {kept} keeps "
            f"orders 1-{kept}, and their weights are all zero; give one of them a weight, or turn effective order off"
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        weights = base / base.sum(axis=1, keepdims=True)
    return np.where(np.isfinite(weights), weights, 0.0), used


def _log_mean(logs: FloatArray, log_terms: FloatArray, used: NDArray[np.int64], options: BleuOptions) -> FloatArray:
    """log(BLEU / BP): the weighted sum of log p_n, added one order at a time as sacreBLEU's ``sum()`` does.

    Without explicit weights it is sacreBLEU's plain mean of the logs of the orders in use.
    """
    total = np.zeros(logs.shape[0])
    for n in range(logs.shape[1]):
        total = total + (np.where(n < used, logs[:, n], 0.0) if options.uniform_weights else log_terms[:, n])
    if options.uniform_weights:
        total = total / np.maximum(used, 1)
    return total


def score_statistics(
    stats: SegmentStats, options: BleuOptions, *, precision: FloatType = np.float64, scale: float = 1.0
) -> ScoreArrays:
    """Score every row of ``stats`` independently (sentence BLEU per segment, one corpus row, or resamples).

    ``scale=1`` gives BLEU in [0, 1]; ``scale=PERCENT`` sacreBLEU's percentages in its own arithmetic.
    ``precision`` is the float type of the precisions: ``np.float32`` reproduces sacreBLEU's bootstrap
    resamples, whose statistics it casts to float32; everything after the precisions is float64.
    """
    if precision not in (np.float64, np.float32):
        raise ValueError(f"precision must be numpy.float64 or numpy.float32 (sacreBLEU's resamples); got {precision!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0 < scale < math.inf:
        raise ValueError(f"scale must be a positive number (1 for [0, 1], 100 for sacreBLEU's percent); got {scale!r}")
    smoothed = _smooth(stats, options, precision, scale)
    weights, used = _order_weights(smoothed.processed, options)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(smoothed.precisions)  # -inf for p_n = 0: BLEU is 0 (sacreBLEU's log(0) = -9999999999)
        log_terms = np.where(weights > 0, weights * logs, 0.0)
        bp = brevity_penalty(stats.hyp_len, stats.ref_len)
        score = bp * np.exp(_log_mean(logs, log_terms, used, options))
    any_match = np.asarray((stats.matches[:, : options.max_order] > 0).any(axis=1), dtype=bool)
    return ScoreArrays(
        score=np.where(any_match & (used > 0), score, 0.0),
        bp=bp,
        precisions=np.where(any_match[:, None], smoothed.precisions, 0.0),
        smoothed_matches=smoothed.matches,
        smoothed_totals=smoothed.totals,
        weights=weights,
        log_terms=log_terms,
        used_orders=used,
    )
