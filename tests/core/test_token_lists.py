"""``token_list_statistics`` (ids from a dictionary pass per chunk, the joint engine) gives what counting each segment
with Counters gives (``plain_token_list_statistics``), on WMT22 token lists and on generated odd tokens."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.stats.token_lists import token_list_statistics
from bleu_core.tools.base import count_corpus, plain_count_corpus
from tests.conftest import Pair, read_plain


def plain_token_list_statistics(hyps: Any, refs: Any, max_order: int) -> SegmentStats:
    """The plain version of :func:`token_list_statistics`: segment by segment, a Counter per order."""
    return plain_count_corpus(hyps, refs, max_order).statistics()


def assert_same(mine: SegmentStats, plain: SegmentStats) -> None:
    for field in ("matches", "totals", "hyp_len", "ref_len"):
        assert np.array_equal(getattr(mine, field), getattr(plain, field)), field


NAN = float("nan")
#: Tokens that are equal across types (1, 1.0, True), strings with spaces or empty, tuples, one NaN object.
TOKENS = st.sampled_from(["a", "b", "a b", "", " ", 1, 1.0, True, 2, ("a",), ("a", 1), None, NAN, "1", b"a"])
SEGMENT = st.lists(TOKENS, max_size=12)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(SEGMENT, st.lists(SEGMENT, min_size=1, max_size=3)), min_size=1, max_size=30),
    st.integers(1, 5),
    st.integers(1, 8),
)
def test_odd_tokens_and_reference_counts(
    corpus: list[tuple[list[Any], list[list[Any]]]], order: int, chunk: int
) -> None:
    hyps = [hyp for hyp, _ in corpus]
    refs = [refs for _, refs in corpus]
    assert_same(token_list_statistics(hyps, refs, order, chunk), plain_token_list_statistics(hyps, refs, order))


def test_tuples_strings_and_generators_of_references() -> None:
    hyps: list[Any] = [("a", "b", "c"), "abc", []]
    refs: list[Any] = [(("a", "b"), ["c"]), ["abd"], [(), ("x",)]]
    assert_same(token_list_statistics(hyps, refs, 4), plain_token_list_statistics(hyps, refs, 4))


@pytest.mark.parametrize("chunk", [4_000, 97])
def test_wmt22_token_lists(pairs: list[Pair], chunk: int) -> None:
    pair = next(p for p in pairs if p.name == "en-de")
    streams = [read_plain(path) for path in pair.references]
    hyps = [line.split() for line in read_plain(pair.systems[0])]
    refs = [[stream[i].split() for stream in streams] for i in range(len(hyps))]
    refs[3] = refs[3][:1]  # one segment with a single reference
    assert_same(token_list_statistics(hyps, refs, 4, chunk), plain_token_list_statistics(hyps, refs, 4))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(SEGMENT, st.lists(SEGMENT, min_size=0, max_size=3)), min_size=60, max_size=90),
    st.integers(1, 5),
)
def test_count_corpus_equals_its_plain_version(corpus: list[tuple[list[Any], list[list[Any]]]], order: int) -> None:
    """The tools' counts from the array engine (64 segments and more) equal clipping with Counters, field by
    field; a segment without references takes the plain way for the whole corpus."""
    hyps = [hyp for hyp, _ in corpus]
    refs = [refs for _, refs in corpus]
    assume(any(refs))  # without any reference there is no closest length to choose, either way
    assert count_corpus(hyps, refs, order) == plain_count_corpus(hyps, refs, order)


def test_wmt22_counts_of_the_tools(pairs: list[Pair]) -> None:
    pair = next(p for p in pairs if p.name == "de-en")
    streams = [read_plain(path) for path in pair.references]
    hyps = [line.split() for line in read_plain(pair.systems[1])]
    refs = [[stream[i].split() for stream in streams] for i in range(len(hyps))]
    assert count_corpus(hyps, refs, 4) == plain_count_corpus(hyps, refs, 4)
