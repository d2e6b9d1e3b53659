"""Paired tests for any metric (:mod:`bleu_core.compare.metrics`): sacreBLEU 2.6's draws, p-values and intervals.

The draws are sacreBLEU's (``numpy.random.default_rng(seed)``: one ``choice`` of segment indices for the
bootstrap, one ``integers`` mask for approximate randomization), shared by every system and every metric as in
``sacrebleu -m bleu chrf --paired-bs``.  Resampled statistics are matrix products (:func:`.resampling.chunked_sums`),
scored a chunk at a time by the metric; each system's resampled scores keep the dtype sacreBLEU's have (float32 for
chrF), because sacreBLEU's mean and the test statistic are computed in that dtype.

:func:`compare_metric` returns the same :class:`bleu_core.compare.ranking.Comparison` as BLEU's
:func:`bleu_core.compare.ranking.compare_from_stats`, so rank ranges, clusters and corrections apply to any metric;
:func:`disagreements` says where two metrics order two systems differently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import combinations, pairwise
from typing import Unpack

import numpy as np

from bleu_core.compare.metrics import REAL, RESAMPLE, TRIAL, FloatArray, IntArray, Metric
from bleu_core.compare.ranking import Comparison, assemble
from bleu_core.compare.resampling import SCORE_ROWS, chunked_sums
from bleu_core.compare.significance import (
    DEFAULT_SEED,
    PairedSettings,
    all_pairs,
    check_baseline,
    check_prefixes,
    check_systems,
    check_test,
    check_whole,
    paired_request,
)
from bleu_core.limits import LIMITS, Limits, check_resamples
from bleu_core.stats.progress import ProgressReporter


@dataclass(frozen=True, slots=True)
class MetricDraws:
    """One metric's draws for every system: corpus statistics, real scores and resampled scores or trial sums."""

    test: str
    n_samples: int
    totals: IntArray  # (systems, width)
    observed: FloatArray  # (systems,) real scores, 0-100
    resampled: tuple[FloatArray, ...]  # bs: each system's resample scores (its own dtype); ar: empty
    picked: IntArray  # ar: (samples, systems, width) statistics summed where the trial mask is True; bs: empty


def check_tables(tables: Mapping[str, IntArray], metric: Metric) -> tuple[list[str], list[IntArray]]:
    """System names and their statistics tables (same segments, the metric's width, integers)."""

    def checked(name: str, table: object) -> IntArray:
        array = np.asarray(table)
        if array.ndim != 2 or array.shape[1] != metric.width or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(
                f"statistics of system {name!r} must be an integer table with {metric.width} columns for "
                f"{metric.name}; got shape {array.shape} of {array.dtype}"
            )
        return array.astype(np.int64)

    return check_systems(tables, "statistics tables", checked)


def draw_metric(
    tables: Sequence[IntArray],
    metric: Metric,
    test: str,
    n_samples: int,
    seed: int,
    report: ProgressReporter,
    prefixes: Sequence[int] = (),
) -> list[MetricDraws]:
    """Draw the resamples (``"bs"``) or trial masks (``"ar"``) once for all systems, as sacreBLEU does: the draws
    of ``n_samples``, then those of each of ``prefixes`` (their first rows, each in the dtype its own run has)."""
    width, n_systems, n_segments = metric.width, len(tables), len(tables[0])
    columns = np.concatenate(tables, axis=1).astype(np.float64)
    totals = np.stack([table.sum(axis=0) for table in tables])
    observed = np.asarray(metric.scores(totals, REAL), dtype=np.float64)
    rng = np.random.default_rng(seed)
    if test == "ar":
        mask = rng.integers(2, size=(n_samples, n_segments), dtype=bool)
        report(0.3)
        picked = chunked_sums(mask, columns, indices=False).reshape(n_samples, n_systems, width)
        report(0.6)
        return [MetricDraws(test, n, totals, observed, (), picked[:n]) for n in (n_samples, *prefixes)]
    drawn = rng.choice(n_segments, size=(n_samples, n_segments), replace=True)
    report(0.3)
    parts: list[list[FloatArray]] = [[] for _ in tables]
    step = max(1, SCORE_ROWS // n_systems)
    # chunks end at each prefix too: a system's scores are float64 when any chunk of them is (NumPy widens
    # sacreBLEU's whole list then), so a prefix takes the dtype of its own chunks only
    bounds = sorted({*range(0, n_samples, step), *prefixes, n_samples})
    for start, stop in pairwise(bounds):
        sums = chunked_sums(drawn[start:stop], columns, indices=True).reshape(-1, n_systems, width)
        for system in range(n_systems):
            parts[system].append(metric.scores(np.ascontiguousarray(sums[:, system]), RESAMPLE))
        report(0.3 + 0.5 * stop / n_samples)
    empty = np.zeros((0, n_systems, width), dtype=np.int64)
    return [
        MetricDraws(test, n, totals, observed, tuple(np.concatenate(p[: bounds.index(n)]) for p in parts), empty)
        for n in (n_samples, *prefixes)
    ]


def metric_p_value(draws: MetricDraws, baseline: int, system: int, metric: Metric) -> float:
    """p = (#{sampled statistic > observed |difference|} + 1) / (samples + 1), as sacreBLEU.

    The comparison is with a Python float, as sacreBLEU's (NumPy then compares in the resamples' dtype).
    """
    observed = abs(float(draws.observed[baseline]) - float(draws.observed[system]))
    if draws.test == "bs":
        differences = np.abs(draws.resampled[system] - draws.resampled[baseline])
        count = int(np.count_nonzero(differences - differences.mean() > observed))
        return (count + 1) / (draws.n_samples + 1)
    count = 0
    step = max(1, SCORE_ROWS // 2)
    for start in range(0, draws.n_samples, step):
        picked = draws.picked[start : start + step]
        shuffled_a = picked[:, baseline] + draws.totals[system] - picked[:, system]
        shuffled_b = draws.totals[baseline] + draws.totals[system] - shuffled_a
        sampled = np.abs(metric.scores(shuffled_a, TRIAL) - metric.scores(shuffled_b, TRIAL))
        count += int(np.count_nonzero(sampled > observed))
    return (count + 1) / (draws.n_samples + 1)


def interval(draws: MetricDraws, system: int) -> tuple[float, float] | None:
    """sacreBLEU's ``estimate_ci`` of a system's resample scores (mean, half-width), in their dtype; None for AR."""
    if draws.test != "bs":
        return None
    ordered = np.sort(draws.resampled[system])
    cut = len(ordered) // 40
    return float(ordered.mean()), float(0.5 * (ordered[len(ordered) - cut - 1] - ordered[cut]))


def paired_results(
    tables: Mapping[str, IntArray], metric: Metric, test: str, n_samples: int, seed: int = DEFAULT_SEED
) -> list[tuple[float, float | None, float | None, float | None]]:
    """``sacrebleu --paired-{test}``'s (score, p-value, mean, half-width) of each system, the first the baseline."""
    test, samples = check_test(test, n_samples)
    names, arrays = check_tables(tables, metric)
    draws = draw_metric(arrays, metric, test, samples, check_whole("seed", seed, 0), ProgressReporter(None))[0]
    out: list[tuple[float, float | None, float | None, float | None]] = []
    for system in range(len(names)):
        p_value = None if system == 0 else metric_p_value(draws, 0, system, metric)
        mean, ci = interval(draws, system) or (None, None)
        out.append((float(draws.observed[system]), p_value, mean, ci))
    return out


def compare_metric(
    tables: Mapping[str, IntArray], metric: Metric, *, limits: Limits = LIMITS, **settings: Unpack[PairedSettings]
) -> Comparison:
    """Scores, differences to the baseline (default: the best system; TER's lowest) and all pairwise p-values of one
    metric.

    As :func:`bleu_core.compare.ranking.compare_from_stats` for BLEU: one set of draws, the p-value of b against
    baseline a equal to ``sacrebleu -m {metric} --paired-{test}`` with a first; a request past ``limits`` raises
    :class:`bleu_core.limits.LimitExceeded` before anything is drawn.
    """
    return compare_metric_and_prefixes(tables, metric, (), limits=limits, **settings)[0]


def compare_metric_and_prefixes(
    tables: Mapping[str, IntArray],
    metric: Metric,
    prefixes: Sequence[int],
    *,
    limits: Limits = LIMITS,
    **settings: Unpack[PairedSettings],
) -> tuple[Comparison, ...]:
    """:func:`compare_metric` at ``n_samples``, then at each of ``prefixes`` from the first draws of the same set
    (:func:`bleu_core.compare.ranking.compare_from_stats_and_prefixes` for BLEU)."""
    request = paired_request("compare_metric", settings)
    test, report = request.test, request.report
    names, arrays = check_tables(tables, metric)
    check_prefixes(prefixes, request.samples)
    check_resamples(request.samples, len(names), len(arrays[0]), test=test, limits=limits, columns=metric.width)
    check_baseline(request.baseline, names)
    report(0.0)
    out = []
    for draws in draw_metric(arrays, metric, test, request.samples, request.seed, report, prefixes):
        p_values = all_pairs(names, partial(metric_p_value, draws, metric=metric), report)
        intervals = tuple(interval(draws, i) for i in range(len(names)))
        at = replace(request, samples=draws.n_samples)
        out.append(assemble(names, draws.observed, draws.resampled, at, intervals, p_values, metric.higher_is_better))
        report = ProgressReporter(None)  # the prefixes take a moment: the bar is full already
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Disagreement:
    """Two metrics order two systems differently: ``first`` puts ``first_prefers`` above the other system, ``second``
    puts ``second_prefers`` above; each with whether its corrected p-value is below alpha."""

    first: str
    second: str
    first_prefers: str
    second_prefers: str
    first_significant: bool
    second_significant: bool


def disagreements(
    verdicts: Mapping[str, tuple[Comparison, Mapping[tuple[str, str], float]]], alpha: float
) -> tuple[Disagreement, ...]:
    """Every pair of systems that two metrics order in opposite ways (a tie orders nothing; TER's lower score is
    its better one).

    ``verdicts`` maps a metric's name to its comparison and corrected p-values (:func:`.ranking.rank_systems`);
    the systems are those of the first comparison, pairs in its order, metrics in the mapping's order.
    """
    metric_names = list(verdicts)
    if not metric_names:
        return ()
    systems = verdicts[metric_names[0]][0].names
    out = []
    for x, y in combinations(systems, 2):
        for m1, m2 in combinations(metric_names, 2):
            (c1, p1), (c2, p2) = verdicts[m1], verdicts[m2]
            d1, d2 = c1.advantage(x, y), c2.advantage(x, y)
            if d1 * d2 < 0:
                out.append(
                    Disagreement(m1, m2, x if d1 > 0 else y, x if d2 > 0 else y, p1[x, y] < alpha, p2[x, y] < alpha)
                )
    return tuple(out)
