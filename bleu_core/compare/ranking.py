"""A verdict over several systems: differences to a baseline, corrected pairwise significance, rank ranges.

Everything comes from one set of sacreBLEU 2.6 draws (:func:`bleu_core.compare.resampling.draw`), so the p-values
are exactly those of ``sacrebleu --paired-bs`` / ``--paired-ar`` and the interval of a difference uses the
very resamples sacreBLEU scores.  Scores and differences are on sacreBLEU's 0-100 scale.

Rank ranges (as in the WMT findings' human-evaluation tables, e.g. Barrault et al., 2020, "Findings of the
2020 Conference on Machine Translation", and Kocmi et al., 2022, for WMT22): after correcting the pairwise
p-values for multiple comparisons (Holm, 1979, by default), system s is *significantly better* than t when
the corrected p-value of the pair is below alpha and s scores better (higher; lower for TER).  Then

* best rank of s  = 1 + the number of systems significantly better than s;
* worst rank of s = the number of systems that are not significantly worse than s (s itself included),
  i.e. n - the number of systems significantly worse than s.

Clusters follow the same relation: systems are sorted by score and a cluster ends after position k exactly
when every one of the first k systems is significantly better than every system after it.

Deviation from WMT: the findings test human scores pairwise (Wilcoxon rank-sum, p < 0.05, uncorrected); here
the test is sacreBLEU's paired test on BLEU and the p-values are corrected, so the rank ranges are a
statement about BLEU on this test set, not about human preference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import combinations
from typing import Unpack

import numpy as np

from bleu_core.compare.resampling import FloatArray, draw, estimate_ci, paired_p_value
from bleu_core.compare.significance import (
    PairedRequest,
    PairedSettings,
    all_pairs,
    check_baseline,
    check_options,
    check_prefixes,
    check_stats,
    paired_request,
)
from bleu_core.limits import LIMITS, Limits, check_resamples
from bleu_core.options import BleuOptions
from bleu_core.stats.progress import ProgressReporter
from bleu_core.stats.segment_stats import SegmentStats

#: Multiple-comparison corrections: Holm's step-down (default), Bonferroni, or none.
CORRECTIONS: tuple[str, ...] = ("holm", "bonferroni", "none")


@dataclass(frozen=True, slots=True)
class Difference:
    """One system against the baseline, 0-100 scale: ``delta`` = score - baseline's score.

    ``low``/``high`` bound the central 95% of the paired bootstrap differences (None for the baseline and
    for approximate randomization); ``p_value`` is sacreBLEU's (None for the baseline).
    """

    system: str
    delta: float
    low: float | None
    high: float | None
    p_value: float | None


@dataclass(frozen=True, slots=True)
class SystemRank:
    """A system's place: its rank range (best..worst) and the cluster it falls into (1 = top)."""

    system: str
    score: float
    best: int
    worst: int
    cluster: int

    @property
    def label(self) -> str:
        """``"1"`` or ``"2–4"``."""
        return str(self.best) if self.best == self.worst else f"{self.best}–{self.worst}"


@dataclass(frozen=True, slots=True)
class Comparison:
    """Every system against the baseline and against each other, from one set of draws.

    ``intervals[i]`` is sacreBLEU's bootstrap (mean, 95% half-width) of system i (None for ``test="ar"``);
    ``p_values[a, b]`` is the p-value of the pair (symmetric), as :func:`bleu_core.pairwise_p_values`;
    ``higher_is_better`` is False for an error rate (TER), whose best system has the lowest score.
    """

    names: tuple[str, ...]
    scores: tuple[float, ...]
    baseline: str
    test: str
    n_samples: int
    seed: int
    intervals: tuple[tuple[float, float] | None, ...]
    differences: tuple[Difference, ...]
    p_values: Mapping[tuple[str, str], float]
    higher_is_better: bool = True

    def score(self, name: str) -> float:
        return self.scores[self.names.index(name)]

    def split_verdicts(self, corrected: Mapping[tuple[str, str], float], alpha: float) -> tuple[str, ...]:
        """The systems whose 95% interval of Δ and corrected p-value against the baseline point different ways (the
        interval leaves 0 out and p >= ``alpha``, or takes it in and p < ``alpha``): two methods, which can part
        near the boundary.  ``corrected``: :func:`rank_systems`'s p-values."""
        return tuple(
            d.system
            for d in self.differences
            if d.low is not None
            and d.high is not None
            and (d.low > 0 or d.high < 0) != (corrected[self.baseline, d.system] < alpha)
        )

    def advantage(self, name: str, other: str) -> float:
        """How much better ``name`` scores than ``other`` (positive: better, whichever way the metric points)."""
        difference = self.score(name) - self.score(other)
        return difference if self.higher_is_better else -difference


def difference_interval(resampled: Sequence[FloatArray], baseline: int, system: int) -> tuple[float, float]:
    """Central 95% of the paired bootstrap differences (system - baseline), with sacreBLEU's cut points.

    The same resamples draw the same segments for both systems, so their score difference per resample is
    a paired bootstrap sample of the difference; like sacreBLEU's ``estimate_ci`` the interval runs from
    the (n//40)-th smallest to the (n//40)-th largest of the n sorted samples.
    """
    differences = np.sort(resampled[system] - resampled[baseline])
    cut = differences.shape[0] // 40
    return float(differences[cut]), float(differences[differences.shape[0] - cut - 1])


def assemble(
    names: Sequence[str],
    observed: FloatArray,
    resampled: Sequence[FloatArray],
    request: PairedRequest,
    intervals: tuple[tuple[float, float] | None, ...],
    p_values: Mapping[tuple[str, str], float],
    higher_is_better: bool = True,
) -> Comparison:
    """A :class:`Comparison` from one metric's real scores, resampled scores (bootstrap) and pairwise p-values;
    the baseline defaults to the best-scoring system (the lowest score of an error rate)."""
    test = request.test
    base = check_baseline(request.baseline, names)
    if base is None:
        base = int(np.argmax(observed) if higher_is_better else np.argmin(observed))
    differences = []
    for i, name in enumerate(names):
        if i == base:
            differences.append(Difference(name, 0.0, None, None, None))
            continue
        delta = float(observed[i]) - float(observed[base])
        low, high = difference_interval(resampled, base, i) if test == "bs" else (None, None)
        differences.append(Difference(name, delta, low, high, p_values[names[base], name]))
    scores = tuple(float(s) for s in observed)
    return Comparison(
        tuple(names),
        scores,
        names[base],
        test,
        request.samples,
        request.seed,
        intervals,
        tuple(differences),
        dict(p_values),
        higher_is_better,
    )


def compare_from_stats(
    stats_by_system: Mapping[str, SegmentStats],
    options: BleuOptions,
    *,
    limits: Limits = LIMITS,
    **settings: Unpack[PairedSettings],
) -> Comparison:
    """Scores, differences to the baseline (default: the best-scoring system) and all pairwise p-values.

    The resamples (``test="bs"``) or trials (``"ar"``) are drawn once, as sacreBLEU draws them; the p-value
    of system b against baseline a equals ``sacrebleu --paired-{test}`` with a first.  A request of more than
    ``limits.resample_cells`` resamples x systems x segments, or of more than ``limits.resample_scores`` scores,
    raises :class:`bleu_core.limits.LimitExceeded` before anything is drawn.  Other metrics:
    :func:`bleu_core.compare.paired.compare_metric`.
    """
    return compare_from_stats_and_prefixes(stats_by_system, options, (), limits=limits, **settings)[0]


def compare_from_stats_and_prefixes(
    stats_by_system: Mapping[str, SegmentStats],
    options: BleuOptions,
    prefixes: Sequence[int],
    *,
    limits: Limits = LIMITS,
    **settings: Unpack[PairedSettings],
) -> tuple[Comparison, ...]:
    """:func:`compare_from_stats` at ``n_samples``, then at each of ``prefixes`` (fewer samples) from the first
    draws of the same set (see :func:`.significance.check_prefixes`).  The Compare page's table and its ranking,
    which needs more samples for the correction, share one draw this way."""
    options = check_options(options)
    request = paired_request("compare_from_stats", settings)
    test, report = request.test, request.report
    names, stats = check_stats(stats_by_system, options)
    check_prefixes(prefixes, request.samples)
    check_resamples(request.samples, len(names), len(stats[0]), options.max_order, test, limits)
    check_baseline(request.baseline, names)
    report(0.0)
    full = draw(stats, options, test, request.samples, request.seed, report)
    out = []
    for draws in (full, *(full.first(n) for n in prefixes)):
        p_values = all_pairs(names, partial(paired_p_value, draws, options=options), report)
        resampled = list(draws.resampled)
        intervals = tuple(estimate_ci(resampled[i]) if test == "bs" else None for i in range(len(names)))
        at = replace(request, samples=draws.n_samples)
        out.append(assemble(names, draws.observed, resampled, at, intervals, p_values))
        report = ProgressReporter(None)  # the prefixes take a moment: the bar is full already
    return tuple(out)


def adjusted_p_values(raw: Sequence[float], correction: str = "holm") -> list[float]:
    """A family of m p-values adjusted (in their given order), so that "adjusted p < alpha" controls the family-wise
    error rate at alpha.

    Bonferroni: min(1, m p).  Holm (1979), step-down: with the m p-values sorted ascending,
    p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)).  ``"none"`` returns the raw p-values.
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}; use one of {', '.join(CORRECTIONS)}")
    m = len(raw)
    if correction == "none":
        return [float(p) for p in raw]
    if correction == "bonferroni":
        return [min(1.0, m * p) for p in raw]
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=lambda k: raw[k])):
        running = max(running, min(1.0, (m - rank) * raw[index]))
        adjusted[index] = running
    return adjusted


def corrected_p_values(
    p_values: Mapping[tuple[str, str], float], names: Sequence[str], correction: str = "holm"
) -> dict[tuple[str, str], float]:
    """Adjusted p-values of the n(n-1)/2 pairs (symmetric), the pairs one family (:func:`adjusted_p_values`)."""
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}; use one of {', '.join(CORRECTIONS)}")
    pairs = list(combinations(names, 2))
    for a, b in pairs:
        if (a, b) not in p_values:
            raise ValueError(f"no p-value for the pair {a!r}, {b!r}; give every pair of the systems")
    adjusted = adjusted_p_values([float(p_values[pair]) for pair in pairs], correction)
    out: dict[tuple[str, str], float] = {}
    for (a, b), p in zip(pairs, adjusted, strict=True):
        out[a, b] = out[b, a] = p
    return out


def significantly_better(
    corrected: Mapping[tuple[str, str], float],
    scores: Mapping[str, float],
    alpha: float,
    higher_is_better: bool = True,
) -> set[tuple[str, str]]:
    """Pairs (better, worse) whose corrected p-value is below ``alpha`` (ties in score are never significant);
    better is the higher score, or the lower one of an error rate."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1; got {alpha}")
    sign = 1.0 if higher_is_better else -1.0
    return {(a, b) for (a, b), p in corrected.items() if p < alpha and sign * (scores[a] - scores[b]) > 0}


def rank_ranges(
    scores: Mapping[str, float], better: set[tuple[str, str]], higher_is_better: bool = True
) -> tuple[SystemRank, ...]:
    """Rank range and cluster of every system, best score first (definitions in the module docstring)."""
    sign = -1.0 if higher_is_better else 1.0
    ordered = sorted(scores, key=lambda name: sign * scores[name])
    n = len(ordered)
    above = {name: sum((other, name) in better for other in ordered) for name in ordered}
    below = {name: sum((name, other) in better for other in ordered) for name in ordered}
    cluster, clusters = 1, []
    for k in range(n):
        clusters.append(cluster)
        if k + 1 < n and all((a, b) in better for a in ordered[: k + 1] for b in ordered[k + 1 :]):
            cluster += 1
    return tuple(
        SystemRank(name, scores[name], 1 + above[name], n - below[name], c)
        for name, c in zip(ordered, clusters, strict=True)
    )


def ranking_samples(n_systems: int, n_samples: int, alpha: float, correction: str = "holm") -> int:
    """Samples (or trials) the pairwise tests need before any corrected p-value can fall below ``alpha``.

    With N samples no p-value is below 1/(N+1), and Holm's first step (like every Bonferroni step) needs
    m p < alpha over the m = n(n-1)/2 pairs, so N + 1 must exceed m / alpha.  This returns ``n_samples`` or,
    when that is too few, twice that bound rounded up to a thousand (so that a clear difference gets a
    corrected p-value of about alpha / 2).  ``correction="none"`` keeps ``n_samples``.
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}; use one of {', '.join(CORRECTIONS)}")
    pairs = n_systems * (n_systems - 1) // 2
    if correction == "none" or pairs == 0 or (n_samples + 1) * alpha > 2 * pairs:
        return n_samples
    return max(n_samples, -(-int(2 * pairs / alpha) // 1000) * 1000)


def rank_systems(
    comparison: Comparison, alpha: float = 0.05, correction: str = "holm"
) -> tuple[tuple[SystemRank, ...], dict[tuple[str, str], float]]:
    """Rank ranges of a comparison's systems and the corrected p-values they rest on."""
    corrected = corrected_p_values(comparison.p_values, comparison.names, correction)
    scores = dict(zip(comparison.names, comparison.scores, strict=True))
    better = significantly_better(corrected, scores, alpha, comparison.higher_is_better)
    return rank_ranges(scores, better, comparison.higher_is_better), corrected


#: Two sentence scores closer than this (0-100 scale) are a tie: the rounding of float arithmetic, not a difference.
TIE_TOLERANCE = 1e-9


def segment_outcomes(differences: Sequence[float] | np.ndarray) -> np.ndarray:
    """Per segment, from the first system's score minus the second's: 1 where the first is higher, -1 where the
    second is, 0 for a tie (within :data:`TIE_TOLERANCE`)."""
    d = np.asarray(differences, dtype=np.float64)
    outcome: np.ndarray = np.where(d > TIE_TOLERANCE, 1, np.where(d < -TIE_TOLERANCE, -1, 0)).astype(np.int8)
    return outcome


def win_tie_loss(differences: Sequence[float] | np.ndarray) -> tuple[int, int, int]:
    """How many segments the first system wins, ties and loses (:func:`segment_outcomes`)."""
    outcome = segment_outcomes(differences)
    return int((outcome == 1).sum()), int((outcome == 0).sum()), int((outcome == -1).sum())
