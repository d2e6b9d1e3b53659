"""Clipping, the one rule of modified n-gram precision: each candidate n-gram counts at most as often as it
occurs in any single reference.

    Count_clip(g) = min(Count_candidate(g), max_k Count_reference_k(g))

:func:`clip_counts` is the plain, token-level statement of the rule, keeping every reference's count (the
tables of textbook walkthroughs).  The explanation, the re-implemented tools and the n-gram analyses use it;
the vectorized engine (:mod:`bleu_core.stats.counting`) computes the same sums for whole corpora and is tested equal
to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Generic, TypeVar

Token = TypeVar("Token", bound=Hashable)


def ngram_counts(tokens: Sequence[Token], n: int) -> Counter[tuple[Token, ...]]:
    """How often each n-gram of ``tokens`` occurs (in first-occurrence order)."""
    return Counter(zip(*(tokens[i:] for i in range(n)), strict=False))  # the shortest slice ends it


def max_reference_counts(references: Sequence[Sequence[Token]], n: int) -> Counter[tuple[Token, ...]]:
    """For each n-gram, the most times any single reference holds it: what clipping clips to."""
    counts = [ngram_counts(reference, n) for reference in references]
    if len(counts) == 1:
        return counts[0]
    most: Counter[tuple[Token, ...]] = Counter()
    for reference_counts in counts:
        most |= reference_counts
    return most


@dataclass(frozen=True, slots=True)
class ClippedCounts(Generic[Token]):
    """Clipping of one n-gram order of one candidate: a row per distinct candidate n-gram, first-occurrence order."""

    order: int
    ngrams: tuple[tuple[Token, ...], ...]
    candidate_counts: tuple[int, ...]
    reference_counts: tuple[tuple[int, ...], ...]  # [row][reference]
    max_reference_counts: tuple[int, ...]
    clipped: tuple[int, ...]  # min(candidate count, max reference count)
    total: int  # the candidate's n-grams of this order: max(c - n + 1, 0)

    @property
    def matches(self) -> int:
        """The clipped matches: numerator of p_n."""
        return sum(self.clipped)


def clip_counts(candidate: Sequence[Token], references: Sequence[Sequence[Token]], n: int) -> ClippedCounts[Token]:
    """Clip the candidate's n-grams of order ``n`` against ``references`` (lists of tokens)."""
    candidate_counts = ngram_counts(candidate, n)
    per_reference = [ngram_counts(reference, n) for reference in references]
    ngrams = tuple(candidate_counts)
    reference_counts = tuple(tuple(counts[g] for counts in per_reference) for g in ngrams)
    most = tuple(max(counts, default=0) for counts in reference_counts)
    counted = tuple(candidate_counts[g] for g in ngrams)
    return ClippedCounts(
        order=n,
        ngrams=ngrams,
        candidate_counts=counted,
        reference_counts=reference_counts,
        max_reference_counts=most,
        clipped=tuple(min(c, m) for c, m in zip(counted, most, strict=True)),
        total=max(len(candidate) - n + 1, 0),
    )


def clipped_matches(candidate: Sequence[Token], references: Sequence[Sequence[Token]], n: int) -> tuple[int, int]:
    """(clipped matches, candidate n-grams) of order ``n``: the two numbers a score needs, without the table.

    The same rule as :func:`clip_counts` (min of the candidate count and the largest single-reference count),
    looked up for the candidate's n-grams only: the re-implemented tools call this once per segment and order.
    """
    counts = ngram_counts(candidate, n)
    if not counts:
        return 0, 0
    if not references:
        return 0, len(candidate) - n + 1
    # Each reference's count of every candidate n-gram (0 where it has none), in the candidate's order ...
    per_reference = [map(ngram_counts(reference, n).get, counts, repeat(0)) for reference in references]
    # ... their maximum, and the candidate count clipped to it; map keeps the loop in C (this is the hot path).
    most = map(max, *per_reference) if len(per_reference) > 1 else per_reference[0]
    return sum(map(min, counts.values(), most)), len(candidate) - n + 1
