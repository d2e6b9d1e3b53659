"""Paired significance tests and bootstrap confidence intervals, computed from segment statistics.

Reproduces sacreBLEU 2.6 (``--paired-bs``, ``--paired-ar``, ``--confidence``) draw for draw: the
same ``numpy.random.default_rng(seed)`` calls in the same order, the same test statistics, the
p-value ``(count + 1) / (trials + 1)`` and even sacreBLEU's arithmetic precision, so p-values are
identical.  Unlike sacreBLEU, no resample is scored on its own: the corpus statistics of every
resample of every system are one matrix product (how often each resample draws each segment,
times the statistics matrix), and all rows are scored at once with :func:`score_statistics`.

Known differences: sacreBLEU treats seed 0 as "no seed" for the systems of a paired test (we
seed with 0), and in approximate randomization it truncates a fractional add-k value to an
integer in the shuffled trials but not in the real scores (we add the value everywhere).
"""

from __future__ import annotations

import math
import numbers
import statistics
from collections.abc import Callable, Mapping, Sequence, Sized
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from .api import check_corpus
from .counting import prepare_references, segment_statistics
from .options import BleuOptions, make_options
from .scoring import PERCENT, FloatType, score_statistics
from .statistics import SegmentStats

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
Progress = Callable[[float], object]

#: The two paired tests: paired bootstrap resampling and paired approximate randomization.
TESTS: tuple[str, ...] = ("bs", "ar")
#: Resamples (bs) or trials (ar) when ``n_samples`` is None, as sacreBLEU's CLI.
DEFAULT_SAMPLES: dict[str, int] = {"bs": 1000, "ar": 10000}
#: sacreBLEU's default seed (its ``SACREBLEU_SEED`` environment variable; we take an argument).
DEFAULT_SEED = 12345
#: Resample x segment cells per matrix product; bounds the memory of one chunk (~16 MB).
_CHUNK_CELLS = 1 << 21
#: Integers up to this are exact in float32.
_FLOAT32_EXACT = float(1 << 24)


@dataclass(frozen=True, slots=True)
class PairedResult:
    """One system in a paired test; every number is on the 0-1 scale (×100 for sacreBLEU's).

    ``score`` is the corpus BLEU, ``p_value`` the probability of a difference to the baseline at
    least this large by chance (None for the baseline itself); ``mean`` and ``ci`` are the
    bootstrap mean and the half-width of the 95% interval around it (None for ``test="ar"``).
    """

    score: float
    p_value: float | None
    mean: float | None
    ci: float | None


# ---------------------------------------------------------------------------------------------
# Scoring rows the way sacreBLEU does


def _percent_scores(sums: IntArray, options: BleuOptions, precision: FloatType) -> FloatArray:
    """BLEU of each row of summed ``[hyp_len, ref_len, matches..., totals...]`` in sacreBLEU's arithmetic (0-100).

    ``precision`` is float32 for bootstrap resamples (sacreBLEU casts their statistics to float32, and NumPy 2
    keeps float32 when a Python float meets a float32 scalar), float64 for real scores and AR trials.
    """
    stats = SegmentStats.from_matrix(sums, options.max_order)
    return score_statistics(stats, options, precision=precision, scale=PERCENT).score


def _estimate_ci(scores: FloatArray, exact_mean: bool = False) -> tuple[float, float]:
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


# ---------------------------------------------------------------------------------------------
# Progress


class _Reporter:
    """Forwards progress in [start, stop] to the caller's callback: rising, in steps of at least 5%, ending at 1."""

    def __init__(
        self, callback: Progress | None, start: float = 0.0, stop: float = 1.0, last: list[float] | None = None
    ) -> None:
        if callback is not None and not callable(callback):
            raise TypeError(f"progress must be a callable taking a fraction in [0, 1], or None; got {callback!r}")
        self.callback = callback
        self.start = start
        self.stop = stop
        self.last = last if last is not None else [-1.0]  # shared by the parts of one task

    def __call__(self, fraction: float) -> None:
        value = self.start + (self.stop - self.start) * min(max(fraction, 0.0), 1.0)
        if self.callback is not None and (value >= self.last[0] + 0.05 or (value == 1.0 > self.last[0])):
            self.last[0] = value
            self.callback(value)

    def part(self, start: float, stop: float) -> _Reporter:
        """A reporter for a sub-task covering [start, stop] of this one."""
        span = self.stop - self.start
        return _Reporter(self.callback, self.start + span * start, self.start + span * stop, self.last)


# ---------------------------------------------------------------------------------------------
# Resampled statistics as matrix products


def _columns(stats: SegmentStats, order: int) -> FloatArray:
    """Statistics as ``[hyp_len, ref_len, matches_1..order, totals_1..order]`` in float64 (exact for BLAS)."""
    parts = [stats.hyp_len[:, None], stats.ref_len[:, None], stats.matches[:, :order], stats.totals[:, :order]]
    return np.concatenate(parts, axis=1).astype(np.float64)


def _chunked_sums(selection: NDArray[np.int64] | NDArray[np.bool_], columns: FloatArray, indices: bool) -> IntArray:
    """Row r of the result sums ``columns`` over the segments that row r of ``selection`` picks.

    ``indices``: rows of segment indices drawn with replacement (turned into counts per segment);
    otherwise a boolean mask per segment.  Sums of integers are exact in float64 below 2^53 and in
    float32 below 2^24; float32 (twice as fast) is used when no sum can reach 2^24: every entry is a
    non-negative integer, so each partial sum is at most the largest possible total.
    """
    n_rows, n_segments = selection.shape
    largest = float(columns.max(initial=0.0)) * n_segments if indices else float(columns.sum(axis=0).max(initial=0.0))
    if largest < _FLOAT32_EXACT:
        columns = columns.astype(np.float32)
    step = max(1, _CHUNK_CELLS // max(n_segments, 1))
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


@dataclass(frozen=True, slots=True)
class _Draws:
    """What the tests need for every system, computed once: real scores and resampled statistics."""

    test: str
    n_samples: int
    totals: IntArray  # (systems, width) corpus statistics
    observed: FloatArray  # (systems,) score on the 0-100 scale, sacreBLEU's float64 arithmetic
    resampled: FloatArray  # bs: (systems, samples) score of every bootstrap resample, 0-100; ar: empty
    picked: IntArray  # ar: (samples, systems, width) statistics summed where the trial mask is True; bs: empty


def _draw(
    stats: Sequence[SegmentStats], options: BleuOptions, test: str, n_samples: int, seed: int, report: _Reporter
) -> _Draws:
    order = options.max_order
    width = 2 + 2 * order
    n_segments = len(stats[0])
    columns = np.concatenate([_columns(s, order) for s in stats], axis=1)
    totals = np.rint(columns.sum(axis=0)).astype(np.int64).reshape(len(stats), width)
    observed = _percent_scores(totals, options, np.float64)
    rng = np.random.default_rng(seed)
    if test == "bs":
        # sacreBLEU draws these indices for the baseline's interval and again, from the same seed, per system.
        drawn = rng.choice(n_segments, size=(n_samples, n_segments), replace=True)
        report(0.3)
        sums = _chunked_sums(drawn, columns, indices=True)
        report(0.6)
        rows = sums.reshape(n_samples, len(stats), width).transpose(1, 0, 2).reshape(-1, width)
        resampled = _percent_scores(rows, options, np.float32).reshape(len(stats), n_samples)
        report(0.8)
        return _Draws(test, n_samples, totals, observed, resampled, np.zeros((0, 0, width), dtype=np.int64))
    mask = rng.integers(2, size=(n_samples, n_segments), dtype=bool)
    report(0.3)
    picked = _chunked_sums(mask, columns, indices=False).reshape(n_samples, len(stats), width)
    report(0.6)
    return _Draws(test, n_samples, totals, observed, np.zeros((0, 0)), picked)


def _p_value(draws: _Draws, baseline: int, system: int, options: BleuOptions) -> float:
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
        scores = _percent_scores(np.concatenate([shuffled_a, shuffled_b]), options, np.float64)
        sampled = np.abs(scores[: draws.n_samples] - scores[draws.n_samples :])
    count = int(np.count_nonzero(sampled > observed))
    return (count + 1) / (draws.n_samples + 1)


# ---------------------------------------------------------------------------------------------
# Validation


def _check_whole(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number; got {value!r}")
    if int(value) < minimum:
        raise ValueError(f"{name} must be at least {minimum}; got {int(value)}")
    return int(value)


def _check_test(test: object, n_samples: object) -> tuple[str, int]:
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; use 'bs' (paired bootstrap) or 'ar' (approximate randomization)")
    name = str(test)
    samples = DEFAULT_SAMPLES[name] if n_samples is None else _check_whole("n_samples", n_samples, 1)
    return name, samples


def _check_options(options: object) -> BleuOptions:
    if not isinstance(options, BleuOptions):
        raise TypeError(f"options must be BleuOptions (see bleu_core.make_options); got {type(options).__name__}")
    return options


def _check_stats(stats_by_system: object, options: BleuOptions) -> tuple[list[str], list[SegmentStats]]:
    if not isinstance(stats_by_system, Mapping):
        raise TypeError(f"stats_by_system must map system names to SegmentStats; got {type(stats_by_system).__name__}")
    if len(stats_by_system) < 2:
        raise ValueError(f"a paired test needs at least 2 systems; got {len(stats_by_system)}")
    names: list[str] = []
    stats: list[SegmentStats] = []
    for name, value in stats_by_system.items():
        if not isinstance(name, str):
            raise TypeError(f"system names must be str; got {name!r}")
        if not isinstance(value, SegmentStats):
            raise TypeError(f"statistics of system {name!r} must be SegmentStats; got {type(value).__name__}")
        if value.max_order < options.max_order:
            raise ValueError(
                f"statistics of system {name!r} have {value.max_order} n-gram orders but options.max_order is "
                f"{options.max_order}; recompute them with that max_order"
            )
        if stats and len(value) != len(stats[0]):
            raise ValueError(
                f"system {name!r} has {len(value)} segments but {names[0]!r} has {len(stats[0])}; "
                "every system must translate the same segments"
            )
        names.append(name)
        stats.append(value)
    if len(stats[0]) == 0:
        raise ValueError("the systems have no segments; significance needs at least one")
    return names, stats


def _check_baseline(baseline: object, names: list[str]) -> int:
    if baseline is None:
        return 0
    if baseline not in names:
        raise ValueError(f"unknown baseline {baseline!r}; choose one of the systems: {', '.join(map(repr, names))}")
    return names.index(str(baseline))


# ---------------------------------------------------------------------------------------------
# Public functions


def paired_test_from_stats(
    stats_by_system: Mapping[str, SegmentStats],
    options: BleuOptions,
    *,
    baseline: str | None = None,
    test: str = "bs",
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Progress | None = None,
) -> dict[str, PairedResult]:
    """Compare every system with the baseline (default: the first) on precomputed segment statistics.

    ``test="bs"``: paired bootstrap resampling (1000 resamples by default), as ``sacrebleu --paired-bs``;
    ``test="ar"``: paired approximate randomization (10000 trials by default), as ``--paired-ar``.
    Results are keyed by system name, baseline first.
    """
    options = _check_options(options)
    test, samples = _check_test(test, n_samples)
    seed = _check_whole("seed", seed, 0)
    names, stats = _check_stats(stats_by_system, options)
    base = _check_baseline(baseline, names)
    report = _Reporter(progress)
    report(0.0)
    draws = _draw(stats, options, test, samples, seed, report)
    scores = [float(score_statistics(s.summed(), options).score[0]) for s in stats]

    def interval(system: int) -> tuple[float | None, float | None]:
        if test != "bs":
            return None, None
        mean, ci = _estimate_ci(draws.resampled[system])
        return mean / 100.0, ci / 100.0

    results = {names[base]: PairedResult(scores[base], None, *interval(base))}
    others = [i for i in range(len(names)) if i != base]
    for done, system in enumerate(others, start=1):
        p_value = _p_value(draws, base, system, options)
        results[names[system]] = PairedResult(scores[system], p_value, *interval(system))
        report(0.8 + 0.2 * done / len(others))
    return results


def pairwise_p_values(
    stats_by_system: Mapping[str, SegmentStats],
    options: BleuOptions,
    test: str = "bs",
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    *,
    progress: Progress | None = None,
) -> dict[tuple[str, str], float]:
    """p-value of every ordered pair of distinct systems (a heatmap); ``(a, b)`` and ``(b, a)`` are equal.

    ``[(a, b)]`` is the p-value of system b in :func:`paired_test_from_stats` with baseline a; the
    resamples (or trials) are drawn once and shared by all pairs.
    """
    options = _check_options(options)
    test, samples = _check_test(test, n_samples)
    seed = _check_whole("seed", seed, 0)
    names, stats = _check_stats(stats_by_system, options)
    report = _Reporter(progress)
    report(0.0)
    draws = _draw(stats, options, test, samples, seed, report)
    pairs = list(combinations(range(len(names)), 2))
    every = max(1, math.ceil(len(pairs) / 10))
    p_values: dict[tuple[str, str], float] = {}
    for done, (a, b) in enumerate(pairs, start=1):
        p_value = _p_value(draws, a, b, options)
        p_values[names[a], names[b]] = p_value
        p_values[names[b], names[a]] = p_value
        if done % every == 0 or done == len(pairs):
            report(0.8 + 0.2 * done / len(pairs))
    return p_values


def bootstrap_ci_from_stats(
    stats: SegmentStats, options: BleuOptions, n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> tuple[float, float]:
    """Bootstrap mean and 95% half-width (0-1 scale) of one system, as ``sacrebleu --confidence``."""
    options = _check_options(options)
    if not isinstance(stats, SegmentStats):
        raise TypeError(f"stats must be SegmentStats; got {type(stats).__name__}")
    if len(stats) == 0:
        raise ValueError("the system has no segments; a confidence interval needs at least one")
    if stats.max_order < options.max_order:
        raise ValueError(f"stats have {stats.max_order} n-gram orders but options.max_order is {options.max_order}")
    samples = _check_whole("n_samples", n_samples, 1)
    rng = np.random.default_rng(_check_whole("seed", seed, 0))
    drawn = rng.choice(len(stats), size=(samples, len(stats)), replace=True)
    sums = _chunked_sums(drawn, _columns(stats, options.max_order), indices=True)
    mean, ci = _estimate_ci(_percent_scores(sums, options, np.float32), exact_mean=True)
    return mean / 100.0, ci / 100.0


def _system_statistics(
    systems: object, references: object, options: BleuOptions, report: _Reporter
) -> dict[str, SegmentStats]:
    """Validate the systems and compute their statistics against references prepared once."""
    if not isinstance(systems, Mapping):
        raise TypeError(
            f"systems must map system names to lists of hypotheses, e.g. {{'A': hyps_a, 'B': hyps_b}}; "
            f"got {type(systems).__name__}"
        )
    if len(systems) < 2:
        raise ValueError(f"a paired test needs at least 2 systems; got {len(systems)}")
    checked: dict[str, list[str]] = {}
    streams: list[list[str | None]] = []
    for name, hypotheses in systems.items():
        if not isinstance(name, str):
            raise TypeError(f"system names must be str; got {name!r}")
        if checked and isinstance(hypotheses, Sized) and not isinstance(hypotheses, (str, bytes)):
            first, first_hyps = next(iter(checked.items()))
            if len(hypotheses) != len(first_hyps):
                raise ValueError(
                    f"system {name!r} has {len(hypotheses)} lines but {first!r} has {len(first_hyps)}; "
                    "every system must translate the same segments"
                )
        try:
            checked[name], streams = check_corpus(hypotheses, references)
        except (TypeError, ValueError) as error:
            raise type(error)(f"system {name!r}: {error}") from error
    if not streams[0]:
        raise ValueError("the systems have no segments; significance needs at least one")
    prepared = prepare_references(
        streams, tokenize=options.tokenize, lowercase=options.lowercase, max_order=options.max_order
    )
    report(1 / (len(checked) + 1))
    stats: dict[str, SegmentStats] = {}
    for done, (name, hypotheses) in enumerate(checked.items(), start=2):
        stats[name] = segment_statistics(hypotheses, prepared, max_order=options.max_order)
        report(done / (len(checked) + 1))
    return stats


def paired_test(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]],
    *,
    baseline: str | None = None,
    test: str = "bs",
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Progress | None = None,
    max_order: int | None = None,
    weights: Sequence[float] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> dict[str, PairedResult]:
    """Paired significance test of several systems against a baseline (default: the first), from text.

    ``systems`` maps names to hypothesis lists; ``references[k][i]`` is reference k of segment i.
    References are tokenized once; see :func:`paired_test_from_stats` for the tests.
    """
    options = make_options(
        max_order=max_order,
        weights=weights,
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        effective_order=effective_order,
    )
    _check_test(test, n_samples)
    _check_whole("seed", seed, 0)
    report = _Reporter(progress)
    if isinstance(systems, Mapping) and baseline is not None:
        _check_baseline(baseline, [str(name) for name in systems])
    stats = _system_statistics(systems, references, options, report.part(0.0, 0.7))
    return paired_test_from_stats(
        stats,
        options,
        baseline=baseline,
        test=test,
        n_samples=n_samples,
        seed=seed,
        progress=report.part(0.7, 1.0),
    )


def bootstrap_ci(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    *,
    max_order: int | None = None,
    weights: Sequence[float] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> tuple[float, float]:
    """Bootstrap mean and 95% half-width (0-1 scale) of one system's corpus BLEU, as ``sacrebleu --confidence``."""
    options = make_options(
        max_order=max_order,
        weights=weights,
        tokenize=tokenize,
        lowercase=lowercase,
        smooth=smooth,
        smooth_value=smooth_value,
        effective_order=effective_order,
    )
    _check_whole("n_samples", n_samples, 1)
    _check_whole("seed", seed, 0)
    hyps, streams = check_corpus(hypotheses, references)
    if not hyps:
        raise ValueError("no hypotheses given; a confidence interval needs at least one segment")
    prepared = prepare_references(
        streams, tokenize=options.tokenize, lowercase=options.lowercase, max_order=options.max_order
    )
    stats = segment_statistics(hyps, prepared, max_order=options.max_order)
    return bootstrap_ci_from_stats(stats, options, n_samples, seed)
