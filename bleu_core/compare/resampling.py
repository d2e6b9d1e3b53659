"""The draws behind the significance tests: resampled corpus statistics as matrix products, scored at once.

The random draws are sacreBLEU 2.6's (``numpy.random.default_rng(seed)``, the same calls in the same
order), and every score is :func:`bleu_core.stats.scoring.score_statistics` in sacreBLEU's arithmetic
(``scale=PERCENT``; float32 precisions for bootstrap resamples, as sacreBLEU), so p-values, means and
intervals are sacreBLEU's.  Unlike sacreBLEU, no resample is scored on its own: the corpus statistics of
every resample of every system are one matrix product (how often each resample draws each segment, times
the statistics matrix).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from bleu_core.options import BleuOptions
from bleu_core.stats.progress import ProgressReporter
from bleu_core.stats.scoring import PERCENT, FloatType, score_statistics
from bleu_core.stats.segment_stats import SegmentStats

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: Resample x segment (or resample x column) cells per matrix product; bounds the memory of one chunk (~16 MB).
CHUNK_CELLS = 1 << 21
#: Rows (resample x system) scored at once; bounds the scorer's temporaries (a few hundred bytes a row, ~30 MB).
SCORE_ROWS = 1 << 16
#: Integers up to this are exact in float32.
FLOAT32_EXACT = float(1 << 24)


def percent_scores(sums: IntArray, options: BleuOptions, precision: FloatType) -> FloatArray:
    """BLEU of each row of summed ``[hyp_len, ref_len, matches..., totals...]`` in sacreBLEU's arithmetic (0-100).

    ``precision`` is float32 for bootstrap resamples (sacreBLEU casts their statistics to float32, and NumPy 2
    keeps float32 when a Python float meets a float32 scalar), float64 for real scores and AR trials.  The logs
    and exps are NumPy's, which may differ from the C library's in the last bit: :func:`sacrebleu_scores` where
    the bits matter.
    """
    stats = SegmentStats.from_matrix(sums, options.max_order)
    return score_statistics(stats, options, precision=precision, scale=PERCENT).score


#: sacreBLEU's log of a zero precision (``my_log``); the score then rounds to 0.
LOG_OF_ZERO = -9999999999.0


def scalar_score(precisions: Sequence[float], bp: float, used: int) -> float:
    """BP times the geometric mean of the first ``used`` precisions, in sacreBLEU's scalar arithmetic.

    A zero precision counts as log 0 = -9999999999 (sacreBLEU's floor), which makes the score 0.
    """
    if used == 0:
        return 0.0
    logs = [math.log(p) if p != 0 else LOG_OF_ZERO for p in precisions[:used]]
    return bp * math.exp(sum(logs) / used)


def sacrebleu_scores(sums: IntArray, options: BleuOptions, precision: FloatType) -> FloatArray:
    """:func:`percent_scores` with sacreBLEU's own log and exp: the same bits as sacreBLEU on every machine.

    The precisions are NumPy's (one multiplication and one division each, correctly rounded as in Python); the
    logs, their sum order by order, the mean, its exp and BP are sacreBLEU's operations with ``math``'s log and
    exp, one call per value (about 40 ns each).  Weights other than sacreBLEU's uniform ones have no sacreBLEU
    counterpart and are scored by :func:`percent_scores`.
    """
    stats = SegmentStats.from_matrix(sums, options.max_order)
    arrays = score_statistics(stats, options, precision=precision, scale=PERCENT)
    if not options.uniform_weights or len(stats) == 0:
        return arrays.score
    flat = arrays.precisions.ravel()
    if flat.all():  # the usual case: no zero precision
        flat_logs = np.fromiter(map(math.log, flat.tolist()), np.float64, flat.size)
    else:
        flat_logs = np.full(flat.shape, LOG_OF_ZERO)
        positive = np.flatnonzero(flat)
        flat_logs[positive] = np.fromiter(map(math.log, flat[positive].tolist()), np.float64, positive.size)
    logs: FloatArray = flat_logs.reshape(arrays.precisions.shape)
    used = arrays.used_orders
    every = bool((used == logs.shape[1]).all())
    total = logs[:, 0].copy() if every else np.where(used > 0, logs[:, 0], 0.0)
    for n in range(1, logs.shape[1]):  # sacreBLEU's sum(): order by order (0 + the first is the first)
        total += logs[:, n] if every else np.where(n < used, logs[:, n], 0.0)
    mean = total / np.maximum(used, 1)
    exps = np.fromiter(map(math.exp, mean.tolist()), np.float64, mean.size)
    sys_len, ref_len = stats.hyp_len, stats.ref_len
    short = np.flatnonzero((sys_len < ref_len) & (sys_len > 0))
    bp = np.where(sys_len < ref_len, 0.0, 1.0)
    ratios = (1 - ref_len[short] / sys_len[short]).tolist()
    bp[short] = np.fromiter(map(math.exp, ratios), np.float64, short.size)
    any_match = (stats.matches[:, : options.max_order] > 0).any(axis=1)
    return np.where(any_match & (used > 0), bp * exps, 0.0)


def ar_trial_rows(sums: IntArray, options: BleuOptions) -> tuple[IntArray, BleuOptions]:
    """Statistics and options that score approximate-randomization trials as sacreBLEU 2.6 does.

    sacreBLEU scores a trial from an int64 array and adds add-k's k to its elements in place, so each count
    becomes int(c + k): a fractional k counts as its whole part (0.5 as 0) in the trials, while the real scores
    add k itself.  Here the truncated k is added up front (orders 2 and up, rows with a match, as sacreBLEU) and
    the rows scored without smoothing, which is what sacreBLEU's add-k branch then computes.
    """
    if options.smooth != "add-k":
        return sums, options
    order = options.max_order
    matched: NDArray[np.bool_] = np.asarray((sums[:, 2 : 2 + order] > 0).any(axis=1))[:, None]
    out = sums.copy()
    with np.errstate(invalid="ignore", over="ignore"):
        for block in (slice(3, 2 + order), slice(3 + order, 2 + 2 * order)):
            added = (sums[:, block].astype(np.float64) + options.smooth_amount).astype(np.int64)
            out[:, block] = np.where(matched, added, sums[:, block])
    return out, replace(options, smooth="none", smooth_value=None)


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
    # a chunk bounds both its selection (rows x segments) and its sums (rows x columns): few segments, many columns
    step = max(1, CHUNK_CELLS // max(n_segments, columns.shape[1], 1))
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

    def first(self, n_samples: int) -> Draws:
        """The draws of a run with ``n_samples`` (fewer) from the same seed: the first resamples or trials."""
        resampled, picked = self.resampled[:, :n_samples], self.picked[:n_samples]
        return replace(self, n_samples=n_samples, resampled=resampled, picked=picked)


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
    observed = sacrebleu_scores(totals, options, np.float64)
    rng = np.random.default_rng(seed)
    if test == "bs":
        # sacreBLEU draws these indices for the baseline's interval and again, from the same seed, per system.
        drawn = rng.choice(n_segments, size=(n_samples, n_segments), replace=True)
        report(0.3)
        resampled = _bootstrap_scores(drawn, columns, len(stats), options, report)
        return Draws(test, n_samples, totals, observed, resampled, np.zeros((0, 0, width), dtype=np.int64))
    mask = rng.integers(2, size=(n_samples, n_segments), dtype=bool)
    report(0.3)
    picked = chunked_sums(mask, columns, indices=False).reshape(n_samples, len(stats), width)
    report(0.6)
    return Draws(test, n_samples, totals, observed, np.zeros((0, 0)), picked)


def _bootstrap_scores(
    drawn: NDArray[np.int64], columns: FloatArray, n_systems: int, options: BleuOptions, report: ProgressReporter
) -> FloatArray:
    """Score (0-100) of every resample of every system, ``(systems, samples)``, scored a chunk of resamples at a
    time so that the statistics and the scorer's temporaries never exist for all resamples at once (each row is
    scored on its own, so chunking changes no bit)."""
    n_samples = drawn.shape[0]
    width = columns.shape[1] // n_systems
    step = max(1, SCORE_ROWS // n_systems)
    resampled = np.empty((n_systems, n_samples), dtype=np.float64)
    for start in range(0, n_samples, step):
        sums = chunked_sums(drawn[start : start + step], columns, indices=True)
        rows = sums.reshape(-1, n_systems, width).transpose(1, 0, 2).reshape(-1, width)
        resampled[:, start : start + step] = sacrebleu_scores(rows, options, np.float32).reshape(n_systems, -1)
        report(0.3 + 0.5 * min(start + step, n_samples) / n_samples)
    return resampled


def paired_p_value(draws: Draws, baseline: int, system: int, options: BleuOptions) -> float:
    """p = (#{sampled statistic > observed |difference|} + 1) / (samples + 1), as sacreBLEU (after multeval)."""
    observed = abs(float(draws.observed[baseline]) - float(draws.observed[system]))
    if draws.test == "bs":
        # Paired bootstrap: centre the resampled |differences| (the null hypothesis has mean 0).
        differences = np.abs(draws.resampled[system] - draws.resampled[baseline])
        sampled = differences - differences.mean()
        count = int(np.count_nonzero(sampled > observed))
    else:
        # Approximate randomization: trial a takes the baseline's segment where the mask is True, else the system's.
        # A chunk of trials at a time: the scorer's temporaries stay bounded however many trials there are.
        count = 0
        for start in range(0, draws.n_samples, SCORE_ROWS // 2):
            picked = draws.picked[start : start + SCORE_ROWS // 2]
            shuffled_a = picked[:, baseline] + draws.totals[system] - picked[:, system]
            shuffled_b = draws.totals[baseline] + draws.totals[system] - shuffled_a
            sampled = _trial_differences(np.concatenate([shuffled_a, shuffled_b]), options, observed)
            count += int(np.count_nonzero(sampled > observed))
    return (count + 1) / (draws.n_samples + 1)


#: Relative distance to the observed difference within which an AR trial is rescored in sacreBLEU's scalar
#: arithmetic (NumPy's vectorized log and exp are within a few units in the last place of it, ~1e-15).
NEAR = 1e-9


def _trial_differences(rows: IntArray, options: BleuOptions, observed: float) -> FloatArray:
    """|score(a) - score(b)| of AR trials (``rows``: the a rows, then the b rows) as sacreBLEU compares them.

    Every trial is scored vectorized; the few whose difference lies within :data:`NEAR` of ``observed``, where a
    last-bit difference of NumPy's log or exp could change the comparison, are scored again with sacreBLEU's own
    arithmetic (:func:`sacrebleu_scores`), so the count, and the p-value, are sacreBLEU's.
    """
    rows, options = ar_trial_rows(rows, options)
    half = rows.shape[0] // 2
    scores = percent_scores(rows, options, np.float64)
    sampled = np.abs(scores[:half] - scores[half:])
    if not options.uniform_weights:
        return sampled
    near = np.flatnonzero(np.abs(sampled - observed) <= NEAR * max(1.0, observed, float(scores.max(initial=0.0))))
    if near.size:
        exact = sacrebleu_scores(np.concatenate([rows[:half][near], rows[half:][near]]), options, np.float64)
        sampled[near] = np.abs(exact[: near.size] - exact[near.size :])
    return sampled
