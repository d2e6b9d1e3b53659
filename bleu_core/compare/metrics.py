"""The metrics a paired test can resample: each is a table of per-segment statistics and a score of summed rows.

A metric plugs in with four things (:class:`Metric`): the name sacreBLEU prints (``BLEU``, ``chrF2``,
``chrF2++``, ``TER``), the width of its statistics rows, whether a higher score is better (TER: lower) and
``scores(sums, kind)``, the 0-100 score of every row of summed integer statistics in the arithmetic sacreBLEU uses
for that kind of row:

* ``REAL``: a system's corpus score (float64);
* ``RESAMPLE``: a bootstrap resample, whose statistics sacreBLEU casts to float32 before scoring;
* ``TRIAL``: an approximate-randomization trial (int64 statistics, as sacreBLEU shuffles them).

The paired tests (:mod:`bleu_core.compare.paired`) know nothing else about a metric.  :data:`METRICS` names the
metrics the pages and the command line offer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from sacrebleu.metrics.base import Signature
from sacrebleu.metrics.chrf import CHRFSignature
from sacrebleu.metrics.ter import TERSignature

from bleu_core.compare.resampling import ar_trial_rows, sacrebleu_scores, statistic_columns
from bleu_core.i18n import Message
from bleu_core.limits import LIMITS, Limits, chrf_refused
from bleu_core.options import BleuOptions, make_options
from bleu_core.stats import chrf, ter
from bleu_core.stats.segment_stats import SegmentStats, resampled_totals
from bleu_core.version import __version__

IntArray = NDArray[np.int64]
#: Summed statistics: integers, or resampled sums already added up in float32 (whole numbers either way).
Sums = IntArray | NDArray[np.float32]
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

    @property
    def higher_is_better(self) -> bool:
        """False for an error rate (TER): the lower score is the better one."""
        ...

    def scores(self, sums: IntArray, kind: str) -> FloatArray:
        """0-100 score of each row of summed statistics; the array's dtype is the one sacreBLEU's scores have."""
        ...


@dataclass(frozen=True, slots=True)
class BleuMetric:
    """BLEU with its options: rows are ``[hyp_len, ref_len, matches..., totals...]`` (:func:`bleu_table`)."""

    options: BleuOptions

    higher_is_better = True

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

    higher_is_better = True

    @property
    def name(self) -> str:
        return f"chrF{int(self.options.beta)}" + "+" * self.options.word_order

    @property
    def width(self) -> int:
        return self.options.columns

    def scores(self, sums: Sums, kind: str) -> FloatArray:
        """float64 for real rows and trials; for resamples float32, as sacreBLEU's, unless a resample takes one
        of sacreBLEU's branches that return a Python float (then NumPy makes the whole array float64).  Resampled
        sums may come summed in float32 already (``resampled_totals``)."""
        if kind != RESAMPLE:
            return np.asarray(chrf.chrf_scores(sums.astype(np.int64, copy=False), self.options), dtype=np.float64)
        if self.options.eps_smoothing:
            values, single = eps_smoothed_resamples(sums, self.options)
            return values.astype(np.float32) if single.all() else values
        scores = chrf.chrf_scores(sums.astype(np.float32), self.options)  # type: ignore[arg-type]
        plain = python_float_rows(sums, self.options)
        if not plain.any():
            return scores
        widened = scores.astype(np.float64)
        widened[plain] = chrf.chrf_scores(sums[plain].astype(np.float64), self.options)
        return widened


def chrf_resampled_scores(stats: IntArray, options: chrf.ChrfOptions, n_samples: int, seed: int) -> list[Any]:
    """chrF of the resampled corpora of sacreBLEU's interval (``--confidence``, ``n_bootstrap``), each value of the
    type sacreBLEU's is: ``numpy.float32``, or a Python float where its branches return one."""
    scores = ChrfMetric(options).scores(resampled_totals(stats, n_samples, seed), RESAMPLE)
    return scores.tolist() if scores.dtype == np.float64 else list(scores)


def python_float_rows(sums: Sums, options: chrf.ChrfOptions) -> NDArray[np.bool_]:
    """Rows whose score (without eps smoothing) sacreBLEU computes as a Python float although the statistics are
    float32: a score of 0 (no order with a match, returned as the literal ``0.0``)."""
    table = sums.reshape(len(sums), options.orders, 3)
    hyp, ref, match = table[..., chrf.HYP], table[..., chrf.REF], table[..., chrf.MATCH]
    both = (hyp > 0) & (ref > 0)
    return np.asarray(~((match > 0) & both).any(axis=1))


#: A value of sacreBLEU's scalar arithmetic: its float64 value and whether it is a float32 (else a Python float).
Mixed = tuple[FloatArray, NDArray[np.bool_]]


def _mixed(operation: Callable[[FloatArray, FloatArray], FloatArray], left: Mixed, right: Mixed) -> Mixed:
    """``left <op> right`` as NumPy computes it on scalars: in float32 (the Python float rounded to float32 first)
    if either side is a float32, else in float64."""
    single = left[1] | right[1]
    with np.errstate(all="ignore"):
        wide = operation(left[0], right[0])
        narrow = operation(left[0].astype(np.float32), right[0].astype(np.float32)).astype(np.float64)
    return np.where(single, narrow, wide), single


def eps_smoothed_resamples(sums: Sums, options: chrf.ChrfOptions) -> Mixed:
    """sacreBLEU's eps-smoothed chrF of float32 resampled statistics, to the last bit, row by row.

    Its ``_compute_f_score`` mixes types per order: a precision or recall with no n-grams is the Python float
    1e-16, the others float32; the sum starts as the Python ``0.0`` and stays a Python float until the first
    float32 term.  So a row's orders are scored in float64 or float32 one by one, in sacreBLEU's order of
    operations; each score is returned as a float64 with whether sacreBLEU's is a float32.
    """
    table = sums.reshape(len(sums), options.orders, 3).astype(np.float64)
    hyp, ref, match = table[..., chrf.HYP], table[..., chrf.REF], table[..., chrf.MATCH]
    single = np.ones(hyp.shape, dtype=bool)

    def scalar(value: float) -> Mixed:
        return np.full(hyp.shape, value), ~single

    ratio = _mixed(np.divide, (match, single), (np.where(hyp > 0, hyp, 1.0), single))
    prec: Mixed = (np.where(hyp > 0, ratio[0], chrf.EPSILON), hyp > 0)
    ratio = _mixed(np.divide, (match, single), (np.where(ref > 0, ref, 1.0), single))
    rec: Mixed = (np.where(ref > 0, ratio[0], chrf.EPSILON), ref > 0)
    factor = options.beta**2
    denom = _mixed(np.add, _mixed(np.multiply, scalar(factor), prec), rec)
    f = _mixed(np.divide, _mixed(np.multiply, _mixed(np.multiply, scalar(1 + factor), prec), rec), denom)
    term: Mixed = (np.where(denom[0] > 0, f[0], chrf.EPSILON), np.where(denom[0] > 0, f[1], False))
    python = np.zeros(len(sums), dtype=bool)
    total: Mixed = (np.zeros(len(sums)), python)
    for order in range(options.orders):
        total = _mixed(np.add, total, (term[0][:, order], term[1][:, order]))
    score = _mixed(np.multiply, (np.full(len(sums), 100.0), python), total)
    return _mixed(np.divide, score, (np.full(len(sums), float(options.orders)), python))


@dataclass(frozen=True, slots=True)
class TerMetric:
    """TER, lower is better: rows are ``[edits, average reference words]`` times ``scale`` (:func:`ter_table`).

    A segment's average reference length is a multiple of 1/k for its k references, so with ``scale`` =
    lcm(1..references) every row is whole and resampled sums are exact.  Divided by ``scale`` they are the sums
    sacreBLEU forms whenever its own float sums are exact: always for 1, 2, 4 or 8 references (halves and quarters
    are exact); with 3 references sacreBLEU's float32 sums of thirds round on the way and these do not.
    """

    scale: int = 1
    higher_is_better = False

    @property
    def name(self) -> str:
        return "TER"

    @property
    def width(self) -> int:
        return 2

    def scores(self, sums: IntArray, kind: str) -> FloatArray:
        """100 · edits / length, 100 (any edit) or 0 without reference words; float32 for resamples, as sacreBLEU's,
        unless a resample has no reference words (that score is a Python float there, which widens the array)."""
        edits, length = sums[:, 0] / self.scale, sums[:, 1] / self.scale
        empty = np.where(edits > 0, 100.0, 0.0)
        if kind != RESAMPLE:
            ratio = np.divide(edits, length, out=np.ones_like(edits), where=length > 0)
            return np.where(length > 0, 100 * ratio, empty)
        edits32, length32 = edits.astype(np.float32), length.astype(np.float32)
        ratio32 = np.divide(edits32, length32, out=np.ones_like(edits32), where=length32 > 0)
        scores = np.float32(100) * ratio32
        if (length > 0).all():
            return scores  # type: ignore[return-value]
        return np.where(length > 0, scores.astype(np.float64), empty)


def ter_table(stats: ter.FloatArray, references: int) -> tuple[TerMetric, IntArray]:
    """TER's segment statistics (:func:`bleu_core.stats.ter.ter_statistics`) as the whole-number table
    :class:`TerMetric` scores, with the metric of its scale (``references``: the most references of a segment)."""
    scale = math.lcm(*range(1, max(1, references) + 1))
    return TerMetric(scale), np.rint(np.asarray(stats, dtype=np.float64) * scale).astype(np.int64).reshape(-1, 2)


def ter_statistics_of(table: IntArray, metric: TerMetric) -> FloatArray:
    """:func:`ter_table`'s inverse: each segment's [edits, average reference words] as
    :func:`bleu_core.stats.ter.ter_statistics` gives them (a whole number over the scale divides to the same float
    as the reference words over their count)."""
    return np.asarray(table, dtype=np.float64).reshape(-1, 2) / metric.scale


#: The metrics offered by name, each built from BLEU's options (BLEU) or sacreBLEU's defaults (chrF, chrF++, TER)
#: and the number of reference streams (TER's scale); chrF follows BLEU's lowercase setting, as the Corpus page's
#: chrF does.
METRICS: dict[str, Callable[[BleuOptions, int], Metric]] = {
    "bleu": lambda options, _: BleuMetric(options),
    "chrf": lambda options, _: ChrfMetric(chrf.ChrfOptions(lowercase=options.lowercase)),
    "chrf++": lambda options, _: ChrfMetric(chrf.ChrfOptions(word_order=2, lowercase=options.lowercase)),
    "ter": lambda _, references: ter_table(np.zeros((0, 2)), references)[0],
}


def metric(name: str, options: BleuOptions | None = None, references: int = 1) -> Metric:
    """The metric of that name (a key of :data:`METRICS`); ``references``: reference streams (TER's scale)."""
    if name not in METRICS:
        raise ValueError(f"unknown metric {name!r}; use one of {', '.join(METRICS)}")
    return METRICS[name](options if options is not None else make_options(), references)


def metric_tables(
    name: str,
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions | None = None,
) -> tuple[Metric, dict[str, IntArray]]:
    """chrF, chrF++ or TER by name: the metric and every system's statistics table, the references prepared once
    (BLEU's statistics are :class:`SegmentStats`, tabled by :func:`bleu_table`)."""
    chosen = metric(name, options, len(references))
    if isinstance(chosen, ChrfMetric):
        prepared = chrf.prepare_references(references, chosen.options)
        tables = chrf.systems_statistics(list(systems.values()), prepared, chosen.options)
        return chosen, dict(zip(systems, tables, strict=True))
    if isinstance(chosen, TerMetric):
        ter_options = ter.TerOptions()
        ter_references = ter.prepare_references(references, ter_options)
        return chosen, {
            s: ter_table(ter.segment_statistics(hyps, ter_references, ter_options), len(references))[1]
            for s, hyps in systems.items()
        }
    raise ValueError(f"{name!r} has no statistics table here; BLEU's are SegmentStats (bleu_table)")


def refusals(
    systems: Sequence[Sequence[str]], references: Sequence[Sequence[str | None]], limits: Limits = LIMITS
) -> dict[str, Message]:
    """The metrics beside BLEU that the limits policy refuses for these systems, each with why: chrF and chrF++
    past ``limits.chrf_segments`` segments, TER past its words (:func:`bleu_core.stats.ter.systems_too_long_for_ter`;
    checked only when chrF's limit holds).  An absent name is within the limits."""
    why = chrf_refused(len(systems[0]) if systems else 0, limits)
    if why is not None:
        return dict.fromkeys(("chrf", "chrf++", "ter"), why)
    too_long = ter.systems_too_long_for_ter(systems, references, limits)
    return {} if too_long is None else {"ter": too_long}


def segment_scores(
    name: str, tables: Mapping[str, IntArray], options: BleuOptions | None = None, references: int = 1
) -> dict[str, FloatArray]:
    """Every system's score of each segment alone (sacreBLEU's sentence scores) from its :func:`metric_tables`
    table, on a 0-100 scale; ``references``: the reference streams (TER's scale)."""
    chosen = metric(name, options, references)
    return {system: chosen.scores(table, REAL) for system, table in tables.items()}


def chrf_tables_of(wider: Mapping[str, IntArray], options: chrf.ChrfOptions) -> dict[str, IntArray]:
    """chrF's tables cut from chrF++'s of the same settings: a row holds the character orders first, and their
    statistics do not depend on the word orders, so counting the characters once serves both metrics."""
    return {system: np.ascontiguousarray(table[:, : 3 * options.char_order]) for system, table in wider.items()}


def signature_of(kind: type[Signature], n_refs: int, bootstrap: int | None, seed: int, **fields: object) -> Signature:
    """A metric's sacreBLEU signature (its own class): the references, the bootstrap (if any) and the metric's
    own fields."""
    signature = kind(
        {"num_refs": n_refs, "n_bootstrap": bootstrap, "seed": None if bootstrap is None else str(seed), **fields}
    )
    signature.update("version", __version__)
    return signature


def chrf_signature(options: chrf.ChrfOptions, n_refs: int, bootstrap: int | None = None, seed: int = 0) -> Signature:
    """chrF's or chrF++'s signature, as ``sacrebleu -m chrf`` prints it."""
    names = ("char_order", "word_order", "lowercase", "whitespace", "eps_smoothing")
    return signature_of(CHRFSignature, n_refs, bootstrap, seed, **{name: getattr(options, name) for name in names})


def ter_signature(options: ter.TerOptions, n_refs: int, bootstrap: int | None = None, seed: int = 0) -> Signature:
    """TER's signature, as ``sacrebleu -m ter`` prints it."""
    return signature_of(
        TERSignature,
        n_refs,
        bootstrap,
        seed,
        case_sensitive=options.case_sensitive,
        tokenizer_signature="tercom",
        normalized=options.normalized,
        no_punct=options.no_punct,
        asian_support=options.asian_support,
    )


def metric_signature(name: str, options: BleuOptions, n_refs: int) -> str:
    """The signature of a metric as :data:`METRICS` builds it from BLEU's options (BLEU's: the one its results
    carry, :attr:`bleu_core.api.BleuResult.signature`)."""
    chosen = metric(name, options, n_refs)
    if isinstance(chosen, ChrfMetric):
        signature = chrf_signature(chosen.options, n_refs)
    elif isinstance(chosen, TerMetric):
        signature = ter_signature(ter.TerOptions(), n_refs)
    else:
        return options.signature(n_refs, __version__)
    signature.update("version", f"bleu_core-{__version__}")  # as BLEU's: this tool's version, not sacreBLEU's
    return str(signature)
