"""Scores by slice: a tags file gives each segment a label (a domain, a document id, any grouping), and every
label gets its segment count, BLEU, chrF and TER, and with several systems a paired test per label.

A label's score is the score of the summed statistics of its segments.  Every segment's statistics depend on that
segment alone (BLEU's clipping and closest reference length, chrF's best reference, TER's edits), so this is
exactly the score of those lines scored on their own, as ``sacrebleu`` would score the subset's files.  With
document ids as labels the per-label scores are document-level scores: nothing more is needed.

The tags file has one label per line, as many lines as the corpus has segments.  A label is its line without the
surrounding whitespace; an empty label is a label like any other (:data:`NO_LABEL`, shown as "(no label)"), so
a file that labels only some segments groups the rest together instead of failing.

Paired tests per label are sacreBLEU's (:func:`bleu_core.compare.significance.paired_test_from_stats` on the
label's segments: the baseline, the first system, against each other one).  Their p-values over every label and
system are one family, corrected as the Compare verdict corrects its pairs
(:func:`bleu_core.compare.ranking.adjusted_p_values`, Holm by default).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Sized
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bleu_core.compare.ranking import adjusted_p_values
from bleu_core.compare.resampling import sacrebleu_scores, statistic_columns
from bleu_core.compare.significance import DEFAULT_SEED, check_test, paired_test_from_stats
from bleu_core.i18n import Message
from bleu_core.limits import LIMITS, LimitExceeded, Limits, check_resamples, resample_scores
from bleu_core.options import BleuOptions
from bleu_core.stats.chrf import ChrfOptions, chrf_scores
from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.stats.ter import FloatArray, ter_score

IntArray = NDArray[np.int64]

#: The label of a blank line of the tags file: a group of its own ("(no label)" on screen).
NO_LABEL = ""


class TagsError(ValueError):
    """A tags file that cannot label this corpus; ``reason`` says why in any language."""

    def __init__(self, reason: Message) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Tags:
    """The label of every segment: ``labels`` in order of first appearance, ``codes[i]`` the index of segment i's."""

    labels: tuple[str, ...]
    codes: IntArray

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    def segments(self, label: int) -> IntArray:
        """The segments (0-based, ascending) of the label at index ``label``."""
        return np.flatnonzero(self.codes == label)

    def counts(self) -> IntArray:
        """Segments per label, in the order of ``labels``."""
        return np.bincount(self.codes, minlength=len(self.labels)).astype(np.int64)


def read_tags(lines: Sequence[str], n_segments: int, limits: Limits = LIMITS) -> Tags:
    """The tags of a corpus of ``n_segments`` from the lines of a tags file (decoded as any upload is).

    Raises :class:`TagsError` for an empty file or a line count other than the corpus's, and
    :class:`~bleu_core.limits.LimitExceeded` past ``limits.slice_labels`` distinct labels.
    """
    if not lines:
        raise TagsError(Message("slices.empty", {"segments": n_segments}))
    if len(lines) != n_segments:
        raise TagsError(Message("slices.line_count", {"lines": len(lines), "segments": n_segments}))
    stripped = [line.strip() for line in lines]
    labels = tuple(dict.fromkeys(stripped))
    if len(labels) > limits.slice_labels:
        raise LimitExceeded(Message("slices.too_many_labels", {"labels": len(labels), "limit": limits.slice_labels}))
    position = {label: i for i, label in enumerate(labels)}
    codes = np.fromiter((position[label] for label in stripped), dtype=np.int64, count=len(stripped))
    return Tags(labels, codes)


@dataclass(frozen=True, slots=True)
class LabelScores:
    """One label (or the whole corpus): its segments and each system's scores on sacreBLEU's 0-100 scale.

    ``bleu``, ``chrf`` and ``ter`` hold one score per system, in the order of :attr:`SliceScores.systems`; each is
    empty when that metric was not asked for.
    """

    label: str
    segments: int
    bleu: tuple[float, ...]
    chrf: tuple[float, ...]
    ter: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class SliceScores:
    """Every label's scores beside the whole corpus's, for one or several systems."""

    systems: tuple[str, ...]
    corpus: LabelScores
    labels: tuple[LabelScores, ...]


def label_sums(columns: NDArray[np.integer], tags: Tags) -> IntArray:
    """Column sums of ``columns`` (segments x statistics, non-negative integers) over each label's segments."""
    table = np.asarray(columns, dtype=np.float64)
    sums = [np.bincount(tags.codes, weights=table[:, j], minlength=len(tags.labels)) for j in range(table.shape[1])]
    return np.rint(np.stack(sums, axis=1)).astype(np.int64)  # sums of integers below 2**53: exact in float64


def bleu_by_label(stats: SegmentStats, tags: Tags, options: BleuOptions) -> tuple[np.ndarray, float]:
    """BLEU (0-100, sacreBLEU's arithmetic to the bit) of each label and of the whole corpus."""
    columns = statistic_columns(stats, options.max_order).astype(np.int64)
    sums = np.concatenate([label_sums(columns, tags), columns.sum(axis=0, keepdims=True)])
    scores = sacrebleu_scores(sums, options, np.float64)
    return scores[:-1], float(scores[-1])


def chrf_by_label(stats: IntArray, tags: Tags, options: ChrfOptions) -> tuple[np.ndarray, float]:
    """chrF (0-100) of each label and of the whole corpus, from per-segment chrF statistics."""
    sums = np.concatenate([label_sums(stats, tags), stats.sum(axis=0, keepdims=True)])
    scores = np.atleast_1d(chrf_scores(sums, options))
    return scores[:-1], float(scores[-1])


def ter_by_label(stats: FloatArray, tags: Tags) -> tuple[np.ndarray, float]:
    """TER (0-100) of each label and of the whole corpus, from per-segment TER statistics: each label's totals
    summed in segment order, as sacreBLEU sums a corpus (so a label's score is the score of its lines alone)."""
    scores = [ter_score(stats[tags.segments(index)]) for index in range(len(tags.labels))]
    return np.asarray(scores, dtype=np.float64), ter_score(stats)


def _check_systems(tags: Tags, metrics: Mapping[str, Mapping[str, Sized]]) -> tuple[str, ...]:
    given = {metric: list(by_system) for metric, by_system in metrics.items() if by_system}
    if not given:
        raise ValueError("give the statistics of at least one system (BLEU, chrF, TER or several)")
    systems = next(iter(given.values()))
    for metric, names in given.items():
        if names != systems:
            raise ValueError(f"the metrics' statistics name different systems: {systems} and {names} ({metric})")
    for by_system in metrics.values():
        for name, stats in by_system.items():
            if len(stats) != len(tags):
                raise ValueError(f"system {name!r} has {len(stats)} segments but the tags label {len(tags)}")
    return tuple(systems)


def slice_scores(
    tags: Tags,
    bleu: Mapping[str, SegmentStats] | None = None,
    options: BleuOptions | None = None,
    chrf: Mapping[str, IntArray] | None = None,
    chrf_options: ChrfOptions | None = None,
    ter: Mapping[str, FloatArray] | None = None,
) -> SliceScores:
    """Every label's BLEU (``bleu`` with ``options``), chrF (``chrf`` with ``chrf_options``) and TER (``ter``:
    :func:`bleu_core.stats.ter.ter_statistics`) for each system."""
    bleu, chrf, ter = dict(bleu or {}), dict(chrf or {}), dict(ter or {})
    if bleu and options is None:
        raise ValueError("BLEU statistics need their options")
    systems = _check_systems(tags, {"BLEU": bleu, "chrF": chrf, "TER": ter})
    bleu_parts = [bleu_by_label(s, tags, options) for s in bleu.values()] if options is not None else []
    chrf_parts = [chrf_by_label(s, tags, chrf_options or ChrfOptions()) for s in chrf.values()]
    ter_parts = [ter_by_label(s, tags) for s in ter.values()]
    counts = tags.counts()
    labels = tuple(
        LabelScores(
            tags.labels[i],
            int(counts[i]),
            *(tuple(float(part[0][i]) for part in parts) for parts in (bleu_parts, chrf_parts, ter_parts)),
        )
        for i in range(len(tags.labels))
    )
    whole = LabelScores(
        "", len(tags), *(tuple(part[1] for part in parts) for parts in (bleu_parts, chrf_parts, ter_parts))
    )
    return SliceScores(systems, whole, labels)


@dataclass(frozen=True, slots=True)
class LabelTest:
    """The paired test of one system against the baseline on one label's segments.

    ``p_value`` is sacreBLEU's on that subset; ``corrected`` is adjusted over every label and system together.
    """

    label: str
    system: str
    p_value: float
    corrected: float


def check_slice_tests(
    tags: Tags, n_systems: int, n_samples: int, max_order: int, test: str = "bs", limits: Limits = LIMITS
) -> None:
    """Refuse, before any draw, paired tests per label past the limits: every label's resamples count against
    ``limits.resample_scores`` together, and the largest label's against ``limits.resample_cells``."""
    scores = len(tags.labels) * resample_scores(n_samples, n_systems, test)
    if scores > limits.resample_scores:
        most = limits.resample_scores // max(1, len(tags.labels) * resample_scores(1, n_systems, test))
        raise LimitExceeded(
            Message(
                "slices.too_many_scores",
                {
                    "labels": len(tags.labels),
                    "samples": n_samples,
                    "systems": n_systems,
                    "scores": scores,
                    "limit": limits.resample_scores,
                    "most": most,
                },
            )
        )
    check_resamples(n_samples, n_systems, int(tags.counts().max()), max_order, test, limits)


def slice_tests(
    tags: Tags,
    stats_by_system: Mapping[str, SegmentStats],
    options: BleuOptions,
    *,
    test: str = "bs",
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    correction: str = "holm",
    limits: Limits = LIMITS,
) -> tuple[LabelTest, ...]:
    """sacreBLEU's paired test (``"bs"`` or ``"ar"``) of the first system against each other one, on each label's
    segments, with the p-values corrected over labels x systems (``correction`` as in the Compare verdict)."""
    test, samples = check_test(test, n_samples)
    adjusted_p_values([], correction)  # an unknown correction fails before any draw
    if len(stats_by_system) < 2:
        raise ValueError(f"a paired test needs at least 2 systems; got {len(stats_by_system)}")
    check_slice_tests(tags, len(stats_by_system), samples, options.max_order, test, limits)
    rows: list[tuple[str, str, float]] = []
    for index, label in enumerate(tags.labels):
        segments = tags.segments(index)
        subset = {name: stats.take(segments) for name, stats in stats_by_system.items()}
        results = paired_test_from_stats(subset, options, test=test, n_samples=samples, seed=seed)
        rows.extend((label, name, r.p_value) for name, r in results.items() if r.p_value is not None)
    corrected = adjusted_p_values([row[2] for row in rows], correction)
    return tuple(LabelTest(*row, p) for row, p in zip(rows, corrected, strict=True))
