"""BLEU's rules, each stated once: clipping, the closest reference length, the statistics monoid.

The vectorized engine is a speed trick over :func:`bleu_core.stats.clipping.clip_counts`; these tests hold it
equal to the plain rule, and the rule itself to independent brute-force statements.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_core.sorting import radix_argsort
from bleu_core.stats.clipping import clip_counts, clipped_matches, max_reference_counts
from bleu_core.stats.counting import stream_statistics
from bleu_core.stats.segment_stats import SegmentStats, closest_ref_length, closest_reference
from bleu_core.tokenizers import tokenize_lines

WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "cat"]), max_size=12)


def test_clipping_textbook_the_the_the() -> None:
    """Papineni et al.: 'the the the the the the the' against two references clips to 2/7."""
    candidate = ["the", "the", "the", "the", "the", "the", "the"]
    references = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]]
    clipped = clip_counts(candidate, references, 1)
    assert clipped.ngrams == (("the",),)
    assert clipped.reference_counts == ((2, 1),)
    assert (clipped.matches, clipped.total) == (2, 7)


@pytest.mark.properties
@given(candidate=WORDS, references=st.lists(WORDS, min_size=1, max_size=3), n=st.integers(1, 4))
def test_clipping_equals_brute_force(candidate: list[str], references: list[list[str]], n: int) -> None:
    grams = [tuple(candidate[i : i + n]) for i in range(len(candidate) - n + 1)]
    expected = 0
    for gram in set(grams):
        in_refs = [sum(tuple(r[i : i + n]) == gram for i in range(len(r) - n + 1)) for r in references]
        expected += min(grams.count(gram), max(in_refs))
    clipped = clip_counts(candidate, references, n)
    assert clipped.matches == expected
    assert clipped.total == len(grams)
    assert clipped_matches(candidate, references, n) == (expected, len(grams))
    most = max_reference_counts(references, n)
    assert all(most[g] == m for g, m in zip(clipped.ngrams, clipped.max_reference_counts, strict=True))


@pytest.mark.properties
@given(hyp_len=st.integers(0, 30), lengths=st.lists(st.integers(0, 30), min_size=1, max_size=5))
def test_closest_reference_rule(hyp_len: int, lengths: list[int]) -> None:
    """Closest to c; ties to the shorter; then the first."""
    best = min(range(len(lengths)), key=lambda k: (abs(lengths[k] - hyp_len), lengths[k], k))
    index = closest_reference(np.array([hyp_len]), np.array([lengths]))
    assert int(index[0]) == best
    assert int(closest_ref_length(np.array([hyp_len]), np.array([lengths]))[0]) == lengths[best]


def test_missing_reference_is_never_chosen() -> None:
    assert closest_ref_length(np.array([5, 5]), np.array([[-1, 9], [4, -1]])).tolist() == [9, 4]


def test_engine_equals_plain_clipping() -> None:
    """The vectorized counter gives the plain rule's matches and totals on random text."""
    rng = random.Random(7)
    vocab = ["a", "b", "c", "d", "e", "the", "cat", "sat", "on", "mat", ",", "."]

    def line() -> str:
        return " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 15)))

    hyps = [line() for _ in range(300)]
    streams = [[line() for _ in hyps] for _ in range(3)]
    stats, _ = stream_statistics(hyps, streams, max_order=4)
    hyp_tokens = tokenize_lines(hyps)
    ref_tokens = [tokenize_lines(s) for s in streams]
    for i, tokens in enumerate(hyp_tokens):
        refs = [r[i] for r in ref_tokens]
        expected = [clipped_matches(tokens, refs, n) for n in range(1, 5)]
        assert [(int(m), int(t)) for m, t in zip(stats.matches[i], stats.totals[i], strict=True)] == expected
        assert int(stats.ref_len[i]) == min((abs(len(r) - len(tokens)), len(r)) for r in refs)[1]


def _random_stats(rng: np.random.Generator, rows: int) -> SegmentStats:
    return SegmentStats.from_counts(
        rng.integers(0, 5, size=(rows, 4)), rng.integers(0, 20, size=rows), rng.integers(0, 20, size=(rows, 2))
    )


def test_statistics_form_a_monoid() -> None:
    rng = np.random.default_rng(3)
    a, b, c = (_random_stats(rng, k) for k in (5, 7, 1))
    left = a.merge(b).merge(c)
    right = a.merge(b.merge(c))
    whole = SegmentStats.concat([a, b, c], 4).summed()
    for x in (left, right):
        assert np.array_equal(x.as_matrix(), whole.as_matrix())
    identity = SegmentStats.empty(4)
    assert np.array_equal(a.merge(identity).as_matrix(), a.summed().as_matrix())
    with pytest.raises(ValueError, match="max order"):
        a.merge(SegmentStats.empty(3))


def test_from_counts_totals() -> None:
    stats = SegmentStats.from_counts([[2, 1, 0, 0]], [3], [[4, 2]])
    assert stats.totals.tolist() == [[3, 2, 1, 0]]
    assert stats.ref_len.tolist() == [2]  # 4 and 2 are equally close to 3: the shorter
    assert stats.matches.dtype == np.int64


@pytest.mark.properties
@given(keys=st.lists(st.integers(0, (1 << 40) - 1), max_size=300), repeat=st.integers(1, 3))
def test_radix_sort_equals_plain_sort(keys: list[int], repeat: int) -> None:
    """The radix sort is a speed trick: its order is exactly the stable argsort's (ties included)."""
    array = np.array(keys * repeat, dtype=np.int64)
    assert np.array_equal(radix_argsort(array, 40), np.argsort(array, kind="stable"))  # the plain version
