"""Integer n-gram keys over token-id streams: the representation the vectorized counter sorts and compares.

A unigram's key is ``segment * bound + token``; an n-gram's key is ``rank * bound + token`` where ``rank`` is
the index of its first n-1 tokens among the (n-1)-grams kept at the order before, so keys stay small and
exact at every order.  Keys are sorted with :func:`sorting.radix_argsort`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from bleu_core.sorting import radix_argsort, run_changes
from bleu_core.tokenizers import Encoded

IntArray = NDArray[np.int64]


def positions(lengths: IntArray) -> tuple[IntArray, IntArray]:
    """Segment of every token position and the tokens left in its segment from there (>= 1)."""
    total = int(lengths.sum())
    segment = np.repeat(np.arange(lengths.shape[0], dtype=np.int64), lengths)
    ends = np.cumsum(lengths)
    remaining = np.repeat(ends, lengths) - np.arange(total, dtype=np.int64)
    return segment, remaining


def extend_ngrams(rank: IntArray, ids: IntArray, remaining: IntArray, n: int, bound: int) -> tuple[IntArray, IntArray]:
    """Positions starting an n-gram whose first n-1 tokens have a ``rank`` (>= 0), and the n-gram keys.

    The n-gram at p also ends with the (n-1)-gram at p+1, so that one must have a rank too (which implies
    that its tokens are known).
    """
    size = ids.shape[0] - n + 1
    if size <= 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    ok = rank[:size] >= 0
    ok &= rank[1 : size + 1] >= 0
    ok &= remaining[:size] >= n
    start = np.flatnonzero(ok)
    return start, rank[start] * bound + ids[start + (n - 1)]


def ngram_keys(
    n: int, rank: IntArray, ids: IntArray, segment: IntArray, remaining: IntArray, bound: int
) -> tuple[IntArray, IntArray]:
    """Positions starting an n-gram worth counting, and its keys: a unigram of a known token (id >= 0) is
    ``segment * bound + token``; longer n-grams extend the ranked (n-1)-grams (:func:`extend_ngrams`)."""
    if n == 1:
        start = np.flatnonzero(ids >= 0)
        return start, segment[start] * bound + ids[start]
    return extend_ngrams(rank, ids, remaining, n, bound)


def sort_keys(key: IntArray) -> tuple[IntArray, IntArray]:
    """The order that sorts ``key`` (stable) and the sorted keys."""
    order = radix_argsort(key, max(int(key.max(initial=0)).bit_length(), 1))
    return order, key[order]


def ranks_at(size: int, at: IntArray, rank: IntArray) -> IntArray:
    """Per token position, the rank of the n-gram starting there (``rank`` at the positions ``at``), else -1:
    what the next order extends (:func:`extend_ngrams`)."""
    ranks = np.full(size, -1, dtype=np.int64)
    ranks[at] = rank
    return ranks


class Stacked(NamedTuple):
    """Several streams' token ids one after another, and per position its segment, its stream and the tokens
    left in its segment from there (which keeps every n-gram inside its segment, and so inside its stream)."""

    ids: IntArray
    segment: IntArray
    remaining: IntArray
    stream: NDArray[np.int32]

    @staticmethod
    def of(encoded: Sequence[Encoded], ids: IntArray) -> Stacked:
        parts = [positions(enc.lengths) for enc in encoded]
        sizes = [enc.ids.shape[0] for enc in encoded]
        stream = np.repeat(np.arange(len(encoded), dtype=np.int32), sizes)
        return Stacked(ids, np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), stream)

    def runs(self, start: IntArray, change: NDArray[np.bool_]) -> tuple[IntArray, IntArray]:
        """For the positions ``start`` sorted into groups (``change`` flags each group's first), the runs of one
        stream inside each group, which the stable sorts keep in stream order: where each begins, its length."""
        runs = np.flatnonzero(run_changes(self.stream[start]) | change)
        return runs, np.diff(np.append(runs, start.shape[0]))
