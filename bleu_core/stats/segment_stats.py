"""Segment statistics: BLEU's sufficient statistics, and the closest-reference-length rule.

Every score in bleu_core is a function of these numbers: per segment, the clipped n-gram matches and the
candidate n-grams of each order, the candidate length c and the chosen reference length r.  Corpus
statistics are their column sums, so they form a monoid (:meth:`SegmentStats.merge`, the empty
statistics as identity): shards of a corpus can be counted anywhere and merged for the identical score.

Every path builds them through :meth:`SegmentStats.from_counts`, which owns two rules:

* totals: a candidate of c tokens has max(c - n + 1, 0) n-grams of order n;
* the reference length: the one closest to c, ties going to the shorter (:func:`closest_reference`).

Two rules of chrF's and TER's statistics live here too: references fit the hypotheses (:func:`check_segments`),
and a resampled corpus's totals (:func:`resampled_totals`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]


def check_segments(n_hypotheses: int, references: Sequence[Sequence[object]]) -> None:
    """Prepared references (per segment, its references) fit the hypotheses: one segment per hypothesis, and at
    least one reference in each; else a ValueError that says which."""
    if n_hypotheses != len(references):
        raise ValueError(
            f"there are {n_hypotheses} hypotheses but the references have {len(references)} segments; "
            "give one reference line per hypothesis"
        )
    for segment, refs in enumerate(references):
        if not refs:
            raise ValueError(f"segment {segment + 1} has no reference; give at least one reference line per segment")


def resampled_totals(stats: NDArray[np.int64] | NDArray[np.float64], n_samples: int, seed: int) -> NDArray[np.float32]:
    """The summed statistics (``n_samples`` x columns) of resampled corpora, drawn as sacreBLEU draws chrF's and
    TER's intervals: segments drawn with ``numpy.random.default_rng(seed)``, rows summed in float32."""
    drawn = np.random.default_rng(seed).choice(len(stats), size=(n_samples, len(stats)), replace=True)
    table = stats.astype(np.float32)
    return np.stack([table[row].sum(axis=0) for row in drawn]).reshape(n_samples, stats.shape[1])


def closest_reference(hyp_len: IntArray, ref_lengths: IntArray, ties: str = "shorter") -> IntArray:
    """Per segment, the index of the reference whose length is closest to the hypothesis length.

    Ties go to the shorter reference (sacreBLEU, NLTK and the paper), then to the first; ``ties="first"`` sends
    them to the first listed (torchmetrics).  ``ref_lengths`` has one column per reference; -1 marks a missing
    one (never chosen unless all are missing).
    """
    lengths = np.asarray(ref_lengths, dtype=np.int64)
    if lengths.shape[1] == 1:
        return np.zeros(lengths.shape[0], dtype=np.int64)
    diff = np.abs(np.asarray(hyp_len, dtype=np.int64)[:, None] - lengths)
    big = int(lengths.max(initial=0)) + 1
    key = diff * big + lengths if ties == "shorter" else diff
    rank = np.where(lengths < 0, np.iinfo(np.int64).max, key)
    index: IntArray = rank.argmin(axis=1).astype(np.int64)
    return index


def closest_ref_length(hyp_len: IntArray, ref_lengths: IntArray) -> IntArray:
    """Per segment, the length of the reference :func:`closest_reference` chooses."""
    lengths = np.asarray(ref_lengths, dtype=np.int64)
    index = closest_reference(hyp_len, lengths)
    chosen: IntArray = np.take_along_axis(lengths, index[:, None], axis=1)[:, 0].copy()
    return chosen


def segment_reference_lengths(
    candidate_lengths: Sequence[int], lengths: Sequence[Sequence[int]], rule: str = "closest"
) -> IntArray:
    """Each segment's r, by a length rule: ``closest`` (ties to the shorter), ``closest-first`` (ties to the first
    listed: torchmetrics) or ``shortest`` (HF evaluate); 0 for a segment without references."""
    width = max((len(segment) for segment in lengths), default=0)
    if width == 0:
        return np.zeros(len(lengths), dtype=np.int64)
    padded = np.full((len(lengths), width), -1, dtype=np.int64)
    for i, segment in enumerate(lengths):
        padded[i, : len(segment)] = segment
    if rule == "shortest":
        chosen: IntArray = np.where(padded < 0, np.iinfo(np.int64).max, padded).min(axis=1)
    else:
        index = closest_reference(
            np.asarray(candidate_lengths, dtype=np.int64), padded, "first" if rule == "closest-first" else "shorter"
        )
        chosen = np.take_along_axis(padded, index[:, None], axis=1)[:, 0]
    return np.where(padded[:, 0] < 0, 0, chosen).astype(np.int64)


def ngram_totals(hyp_len: IntArray, max_order: int) -> IntArray:
    """Candidate n-grams per order: max(c - n + 1, 0), one column per order."""
    lengths = np.asarray(hyp_len, dtype=np.int64)
    totals: IntArray = np.maximum(lengths[:, None] - np.arange(max_order, dtype=np.int64)[None, :], 0)
    return totals


@dataclass(frozen=True, slots=True)
class SegmentStats:
    """BLEU's sufficient statistics, one row per segment (all int64).

    ``matches[i, n-1]`` is the number of clipped n-gram matches of segment i,
    ``totals[i, n-1]`` the number of n-grams in its hypothesis; ``hyp_len`` is
    the hypothesis length in tokens and ``ref_len`` the length of the closest
    reference (ties go to the shorter one).  A corpus score is a function of the
    column sums, so resampling and leave-one-out never re-tokenize.
    """

    matches: IntArray
    totals: IntArray
    hyp_len: IntArray
    ref_len: IntArray

    @staticmethod
    def from_counts(
        matches: IntArray | Sequence[Sequence[int]],
        hyp_len: IntArray | Sequence[int],
        ref_lengths: IntArray | Sequence[Sequence[int]],
    ) -> SegmentStats:
        """Statistics from clipped matches (segments x orders), hypothesis lengths and every reference's length
        (segments x references, -1 where missing): totals and the closest reference length follow the rules."""
        grid = np.asarray(matches, dtype=np.int64).reshape(len(hyp_len), -1)
        lengths = np.asarray(hyp_len, dtype=np.int64)
        references = np.asarray(ref_lengths, dtype=np.int64).reshape(lengths.shape[0], -1)
        return SegmentStats(
            grid, ngram_totals(lengths, grid.shape[1]), lengths, closest_ref_length(lengths, references)
        )

    @staticmethod
    def empty(max_order: int) -> SegmentStats:
        """No segments: the identity of :meth:`merge`."""
        lengths = np.zeros(0, dtype=np.int64)
        grid = np.zeros((0, max_order), dtype=np.int64)
        return SegmentStats(grid, grid.copy(), lengths, lengths.copy())

    def __len__(self) -> int:
        return int(self.hyp_len.shape[0])

    @property
    def max_order(self) -> int:
        return int(self.matches.shape[1])

    def summed(self) -> SegmentStats:
        """The corpus statistics: one row holding the column sums."""
        return SegmentStats(
            self.matches.sum(axis=0, keepdims=True),
            self.totals.sum(axis=0, keepdims=True),
            self.hyp_len.sum(keepdims=True),
            self.ref_len.sum(keepdims=True),
        )

    def merge(self, other: SegmentStats) -> SegmentStats:
        """The corpus statistics of both (one row): associative, with :meth:`empty` as identity."""
        if other.max_order != self.max_order:
            raise ValueError(
                f"cannot merge statistics of max order {self.max_order} with statistics of max order {other.max_order}"
            )
        return SegmentStats.concat([self.summed(), other.summed()], self.max_order).summed()

    def take(self, index: IntArray | Sequence[int] | slice) -> SegmentStats:
        """The rows at ``index`` (a selection of segments)."""
        return SegmentStats(self.matches[index], self.totals[index], self.hyp_len[index], self.ref_len[index])

    def as_matrix(self) -> IntArray:
        """Rows as ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (sacreBLEU's column order)."""
        return np.concatenate([self.hyp_len[:, None], self.ref_len[:, None], self.matches, self.totals], axis=1).astype(
            np.int64
        )

    @staticmethod
    def from_matrix(matrix: NDArray[np.integer] | NDArray[np.floating], max_order: int) -> SegmentStats:
        """Inverse of :meth:`as_matrix` (accepts summed or resampled rows)."""
        m = np.asarray(matrix)
        return SegmentStats(m[:, 2 : 2 + max_order], m[:, 2 + max_order :], m[:, 0], m[:, 1])

    @staticmethod
    def concat(parts: Sequence[SegmentStats], max_order: int) -> SegmentStats:
        """Stack the rows of several chunks."""
        if not parts:
            return SegmentStats.empty(max_order)
        if len(parts) == 1:
            return parts[0]
        return SegmentStats(
            np.concatenate([p.matches for p in parts]),
            np.concatenate([p.totals for p in parts]),
            np.concatenate([p.hyp_len for p in parts]),
            np.concatenate([p.ref_len for p in parts]),
        )


class StatisticsSink:
    """Where chunks of statistics go as they are counted (here or on a cluster), one list per hypothesis file.

    Per-segment statistics are kept only when an output needs them (-sl, --segment-json, --confidence, the
    paired tests); otherwise each chunk is merged into the running sum at once, so memory stays flat whatever
    the number of lines.
    """

    def __init__(self, n_systems: int, max_order: int, per_segment: bool) -> None:
        self.per_segment = per_segment
        self.parts: list[list[SegmentStats]] = [[SegmentStats.empty(max_order)] for _ in range(n_systems)]

    def add(self, system: int, stats: SegmentStats) -> None:
        if self.per_segment:
            self.parts[system].append(stats)
        else:
            self.parts[system] = [self.parts[system][0].merge(stats)]
