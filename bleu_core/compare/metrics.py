"""The metrics a paired test can resample: each is a table of per-segment statistics and a score of summed rows.

A metric plugs in with three things (:class:`Metric`): the name sacreBLEU prints (``BLEU``, ``chrF2``,
``chrF2++``), the width of its statistics rows and ``scores(sums, kind)``, the 0-100 score of every row of summed
integer statistics in the arithmetic sacreBLEU uses for that kind of row:

* ``REAL``: a system's corpus score (float64);
* ``RESAMPLE``: a bootstrap resample, whose statistics sacreBLEU casts to float32 before scoring;
* ``TRIAL``: an approximate-randomization trial (int64 statistics, as sacreBLEU shuffles them).

The paired tests (:mod:`bleu_core.compare.paired`) know nothing else about a metric.  :data:`METRICS` names the
metrics the pages and the command line offer; another metric (TER: edits and reference words per segment, the
score their ratio) is one more class and one more entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from bleu_core.compare.resampling import ar_trial_rows, sacrebleu_scores, statistic_columns
from bleu_core.options import BleuOptions, make_options
from bleu_core.stats import chrf
from bleu_core.stats.segment_stats import SegmentStats

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: The kinds of rows a paired test scores (see the module docstring).
REAL, RESAMPLE, TRIAL = "real", "resample", "trial"


class Metric(Protocol):
    """What a paired test needs of a metric."""

    @property
    def name(self) -> str:
        """The name sacreBLEU prints for the metric (a column of its tables, a key of its JSON)."""
        ...

    @property
    def width(self) -> int:
        """Statistics per segment (columns of the table)."""
        ...

    def scores(self, sums: IntArray, kind: str) -> FloatArray:
        """0-100 score of each row of summed statistics; the array's dtype is the one sacreBLEU's scores have."""
        ...


@dataclass(frozen=True, slots=True)
class BleuMetric:
    """BLEU with its options: rows are ``[hyp_len, ref_len, matches..., totals...]`` (:func:`bleu_table`)."""

    options: BleuOptions

    @property
    def name(self) -> str:
        return "BLEU"

    @property
    def width(self) -> int:
        return 2 + 2 * self.options.max_order

    def scores(self, sums: IntArray, kind: str) -> FloatArray:
        if kind == TRIAL:
            rows, options = ar_trial_rows(sums, self.options)
            return sacrebleu_scores(rows, options, np.float64)
        return sacrebleu_scores(sums, self.options, np.float32 if kind == RESAMPLE else np.float64)


def bleu_table(stats: SegmentStats, max_order: int) -> IntArray:
    """BLEU's segment statistics as the integer table :class:`BleuMetric` scores."""
    return np.rint(statistic_columns(stats, max_order)).astype(np.int64)


@dataclass(frozen=True, slots=True)
class ChrfMetric:
    """chrF or chrF++ with its options: rows are :mod:`bleu_core.stats.chrf`'s statistics."""

    options: chrf.ChrfOptions

    @property
    def name(self) -> str:
        return f"chrF{int(self.options.beta)}" + "+" * self.options.word_order

    @property
    def width(self) -> int:
        return self.options.columns

    def scores(self, sums: IntArray, kind: str) -> FloatArray:
        """float64 for real rows and trials; for resamples float32, as sacreBLEU's, unless a resample takes one
        of sacreBLEU's branches that return a Python float (then NumPy makes the whole array float64)."""
        if kind != RESAMPLE:
            return np.asarray(chrf.chrf_scores(sums, self.options), dtype=np.float64)
        scores = chrf.chrf_scores(sums.astype(np.float32), self.options)  # type: ignore[arg-type]
        plain = python_float_rows(sums, self.options)
        if not plain.any():
            return scores
        widened = scores.astype(np.float64)
        widened[plain] = chrf.chrf_scores(sums[plain].astype(np.float64), self.options)
        return widened


def python_float_rows(sums: IntArray, options: chrf.ChrfOptions) -> NDArray[np.bool_]:
    """Rows whose score sacreBLEU computes as a Python float although the statistics are float32.

    Without eps smoothing: a score of 0 (no order with a match, returned as the literal ``0.0``).  With it: rows in
    which every order's F-score is the literal epsilon or a product of epsilons (no match in any order, and no order
    with reference n-grams but no hypothesis n-grams).
    """
    table = sums.reshape(len(sums), options.orders, 3)
    hyp, ref, match = table[..., chrf.HYP], table[..., chrf.REF], table[..., chrf.MATCH]
    if not options.eps_smoothing:
        both = (hyp > 0) & (ref > 0)
        return np.asarray(~((match > 0) & both).any(axis=1))
    return np.asarray(((match == 0) & ~((hyp == 0) & (ref > 0))).all(axis=1))


#: The metrics offered by name, each built from BLEU's options (BLEU) or sacreBLEU's defaults (chrF, chrF++);
#: chrF follows BLEU's lowercase setting, as the Corpus page's chrF does.
METRICS: dict[str, Callable[[BleuOptions], Metric]] = {
    "bleu": BleuMetric,
    "chrf": lambda options: ChrfMetric(chrf.ChrfOptions(lowercase=options.lowercase)),
    "chrf++": lambda options: ChrfMetric(chrf.ChrfOptions(word_order=2, lowercase=options.lowercase)),
}


def metric(name: str, options: BleuOptions | None = None) -> Metric:
    """The metric of that name (a key of :data:`METRICS`)."""
    if name not in METRICS:
        raise ValueError(f"unknown metric {name!r}; use one of {', '.join(METRICS)}")
    return METRICS[name](options if options is not None else make_options())
