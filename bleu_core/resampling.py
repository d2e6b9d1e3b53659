"""The draws behind the significance tests: resampled corpus statistics as matrix products, scored at once.

The random draws are sacreBLEU 2.6's (``numpy.random.default_rng(seed)``, the same calls in the same
order), and every score is :func:`bleu_core.scoring.score_statistics` in sacreBLEU's arithmetic
(``scale=PERCENT``; float32 precisions for bootstrap resamples, as sacreBLEU), so p-values, means and
intervals are sacreBLEU's.  Unlike sacreBLEU, no resample is scored on its own: the corpus statistics of
every resample of every system are one matrix product (how often each resample draws each segment, times
the statistics matrix).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .options import BleuOptions
from .progress import ProgressReporter
from .scoring import PERCENT, FloatType, score_statistics
from .statistics import SegmentStats

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: Resample x segment cells per matrix product; bounds the memory of one chunk (~16 MB).
CHUNK_CELLS = 1 << 21
#: Integers up to this are exact in float32.
FLOAT32_EXACT = float(1 << 24)


def percent_scores(sums: IntArray, options: BleuOptions, precision: FloatType) -> FloatArray:
    """BLEU of each row of summed ``[hyp_len, ref_len, matches..., totals...]`` in sacreBLEU's arithmetic (0-100).

    ``precision`` is float32 for bootstrap resamples (sacreBLEU casts their statistics to float32, and NumPy 2
    keeps float32 when a Python float meets a float32 scalar), float64 for real scores and AR trials.
    """
    stats = SegmentStats.from_matrix(sums, options.max_order)
    return score_statistics(stats, options, precision=precision, scale=PERCENT).score


def estimate_ci(scores: FloatArray, exact_mean: bool = False) -> tuple[float, float]:
    """sacreBLEU's ``estimate_ci``: mean of the scores and half the width of their central 95%.

    The paired tests average with NumPy (pairwise sum of the sorted scores); ``--confidence``
    uses ``statistics.mean`` (``exact_mean``).
    """
    ordered = np.sort(scores)
    n = ordered.shape[0]
    lower = n // 40
    upper = n - lower - 1
    mean = statistics.mean(ordered.tolist()) if exact_mean else float(ordered.mean())
    return mean, float(0.5 * (ordered[upper] - ordered[lower]))


def statistic_columns(stats: SegmentStats, order: int) -> FloatArray:
    """Statistics as ``[hyp_len, ref_len, matches_1..order, totals_1..order]`` in float64 (exact for BLAS)."""
    parts = [stats.hyp_len[:, None], stats.ref_len[:, None], stats.matches[:, :order], stats.totals[:, :order]]
    return np.concatenate(parts, axis=1).astype(np.float64)


def chunked_sums(selection: NDArray[np.int64] | NDArray[np.bool_], columns: FloatArray, indices: bool) -> IntArray:
    """Row r of the result sums ``columns`` over the segments that row r of ``selection`` picks.

    ``indices``: rows of segment indices drawn with replacement (turned into counts per segment);
    otherwise a boolean mask per segment.  Sums of integers are exact in float64 below 2^53 and in
    float32 below 2^24; float32 (twice as fast) is used when no sum can reach 2^24: every entry is a
    non-negative integer, so each partial sum is at most the largest possible total.
    """
    n_rows, n_segments = selection.shape
    largest = float(columns.max(initial=0.0)) * n_segments if indices else float(columns.sum(axis=0).max(initial=0.0))
    if largest < FLOAT32_EXACT:
        columns = columns.astype(np.float32)
    step = max(1, CHUNK_CELLS // max(n_segments, 1))
    out = np.empty((n_rows, columns.shape[1]), dtype=np.int64)
    for start in range(0, n_rows, step):
        part = selection[start : start + step]
        rows = part.shape[0]
        if indices:
            offsets = np.arange(rows, dtype=np.int64)[:, None] * n_segments
            flat = np.bincount((part + offsets).ravel(), minlength=rows * n_segments)
            weights = flat.reshape(rows, n_segments).astype(columns.dtype)
        else:
            weights = part.astype(columns.dtype)
        out[start : start + rows] = np.rint(weights @ columns).astype(np.int64)
    return out


def bootstrap_scores(stats: SegmentStats, options: BleuOptions, n_samples: int, seed: int) -> FloatArray:
    """Scores (0-100) of ``n_samples`` bootstrap resamples of one system, as ``sacrebleu --confidence`` draws them."""
    rng = np.random.default_rng(seed)
    drawn = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
    sums = chunked_sums(drawn, statistic_columns(stats, options.max_order), indices=True)
    return percent_scores(sums, options, np.float32)


@dataclass(frozen=True, slots=True)
class Draws:
    """What the tests need for every system, computed once: real scores and resampled statistics."""

    test: str
    n_samples: int
    totals: IntArray  # (systems, width) corpus statistics
    observed: FloatArray  # (systems,) score on the 0-100 scale, sacreBLEU's float64 arithmetic
    resampled: FloatArray  # bs: (systems, samples) score of every bootstrap resample, 0-100; ar: empty
    picked: IntArray  # ar: (samples, systems, width) statistics summed where the trial mask is True; bs: empty


def draw(
    stats: Sequence[SegmentStats],
    options: BleuOptions,
    test: str,
    n_samples: int,
    seed: int,
    report: ProgressReporter,
) -> Draws:
    """Draw the resamples (``test="bs"``) or trial masks (``"ar"``) once for all systems, as sacreBLEU does."""
    order = options.max_order
    width = 2 + 2 * order
    n_segments = len(stats[0])
    columns = np.concatenate([statistic_columns(s, order) for s in stats], axis=1)
    totals = np.rint(columns.sum(axis=0)).astype(np.int64).reshape(len(stats), width)
    observed = percent_scores(totals, options, np.float64)
    rng = np.random.default_rng(seed)
    if test == "bs":
        # sacreBLEU draws these indices for the baseline's interval and again, from the same seed, per system.
        drawn = rng.choice(n_segments, size=(n_samples, n_segments), replace=True)
        report(0.3)
        sums = chunked_sums(drawn, columns, indices=True)
        report(0.6)
        rows = sums.reshape(n_samples, len(stats), width).transpose(1, 0, 2).reshape(-1, width)
        resampled = percent_scores(rows, options, np.float32).reshape(len(stats), n_samples)
        report(0.8)
        return Draws(test, n_samples, totals, observed, resampled, np.zeros((0, 0, width), dtype=np.int64))
    mask = rng.integers(2, size=(n_samples, n_segments), dtype=bool)
    report(0.3)
    picked = chunked_sums(mask, columns, indices=False).reshape(n_samples, len(stats), width)
    report(0.6)
    return Draws(test, n_samples, totals, observed, np.zeros((0, 0)), picked)


def paired_p_value(draws: Draws, baseline: int, system: int, options: BleuOptions) -> float:
    """p = (#{sampled statistic > observed |difference|} + 1) / (samples + 1), as sacreBLEU (after multeval)."""
    observed = abs(float(draws.observed[baseline]) - float(draws.observed[system]))
    if draws.test == "bs":
        # Paired bootstrap: centre the resampled |differences| (the null hypothesis has mean 0).
        differences = np.abs(draws.resampled[system] - draws.resampled[baseline])
        sampled = differences - differences.mean()
    else:
        # Approximate randomization: trial a takes the baseline's segment where the mask is True, else the system's.
        picked = draws.picked
        shuffled_a = picked[:, baseline] + draws.totals[system] - picked[:, system]
        shuffled_b = draws.totals[baseline] + draws.totals[system] - shuffled_a
        scores = percent_scores(np.concatenate([shuffled_a, shuffled_b]), options, np.float64)
        sampled = np.abs(scores[: draws.n_samples] - scores[draws.n_samples :])
    count = int(np.count_nonzero(sampled > observed))
    return (count + 1) / (draws.n_samples + 1)
