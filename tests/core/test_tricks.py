"""Every speed trick of the tokenizers gives what its plain version gives, on WMT22 files and generated odd text.

Trick -> plain version: whole-stream ``tokenize_lines``/``encode_lines`` -> sacreBLEU's tokenizer line by
line; 13a and none over UTF-8 bytes -> over code points; ``is_space`` -> ``plain_is_space``; ``spaced`` ->
``plain_spaced`` (np.insert); ``needs_preparing`` -> ``plain_needs_preparing``; ``group_streams`` ->
``plain_group_streams``; ``Vocabulary.lookup`` -> ``plain_lookup``.  ``python -m bench.tricks`` measures
what each trick gains.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_core.tokenizers import Encoded, Vocabulary, decode, encode_lines, tokenize_lines
from bleu_core.tokenizers.joined import Joined, is_space, plain_is_space, plain_spaced, spaced, spans, split
from bleu_core.tokenizers.none import join_none
from bleu_core.tokenizers.rules import digit_rules
from bleu_core.tokenizers.sacrebleu_line import tokenize_lines_by_sacrebleu
from bleu_core.tokenizers.together import group_streams, plain_group_streams
from bleu_core.tokenizers.tok13a import join_13a, needs_preparing, plain_needs_preparing
from bleu_core.tokenizers.vocabulary import plain_lookup
from bleu_core.tokenizers.zh import join_zh
from tests.conftest import Pair, read_plain
from tests.core.test_tokenizers import lines_strategy, together_lines

WHOLE_STREAM = ["13a", "zh", "char"]
JOINS = {"13a": join_13a, "zh": join_zh, "none": join_none}


def check_tokenizer(lines: list[str], name: str, lowercase: bool = False) -> None:
    plain = tokenize_lines_by_sacrebleu([line.lower() for line in lines] if lowercase else lines, name)
    assert tokenize_lines(lines, name, lowercase) == plain
    vocab = Vocabulary(name)
    assert decode(encode_lines(lines, name, lowercase, vocab), vocab) == plain


def assert_same_partition(found: tuple[list[Encoded], int] | None, plain: tuple[list[Encoded], int]) -> None:
    """Equal ids exactly where the plain ids are equal, the same number of ids, the same tokens per line."""
    assert found is not None
    (fast_streams, fast_bound), (plain_streams, plain_bound) = found, plain
    assert fast_bound == plain_bound
    pairs = set()
    for fast, slow in zip(fast_streams, plain_streams, strict=True):
        assert fast.lengths.tolist() == slow.lengths.tolist()
        pairs |= set(zip(fast.ids.tolist(), slow.ids.tolist(), strict=True))
    assert len({a for a, _ in pairs}) == len({b for _, b in pairs}) == len(pairs)


def check_joined(joined: Joined) -> None:
    """is_space and spaced against their plain versions, on the units of a joined stream."""
    units = joined.units
    assert np.array_equal(is_space(units), plain_is_space(units))
    for chosen in (digit_rules(units), units % 5 == 0, units % 5 != 0):  # the rules' few, some, most
        fast, plain = spaced(units, chosen), plain_spaced(units, chosen)
        assert (fast is None and plain is None) or np.array_equal(fast, plain)


def check_streams(streams: Sequence[list[str]], name: str) -> None:
    """Byte-span grouping against a dict of bytes; 13a and none over bytes against over code points."""
    joined = [JOINS[name](lines) for lines in streams]
    for one in joined:
        check_joined(one)
    found = [spans(one) for one in joined]
    assert_same_partition(group_streams(found), plain_group_streams(found))
    if name != "zh":
        points = [JOINS[name](lines, False) for lines in streams]
        assert [split(one) for one in points] == [split(one) for one in joined]
        assert_same_partition(group_streams([spans(one) for one in points]), plain_group_streams(found))


def check_lookup(lines: list[str]) -> None:
    tokens = " ".join(lines).split()
    half = tokens[: len(tokens) // 2]
    fast, plain = Vocabulary("13a"), Vocabulary("13a")
    found = Encoded(fast.lookup(half, len(half), True), np.array([len(half)]))
    expected = Encoded(plain_lookup(plain, half, True), np.array([len(half)]))
    assert decode(found, fast) == decode(expected, plain)
    unknown_fast = fast.lookup(tokens, len(tokens), False) < 0
    assert np.array_equal(unknown_fast, plain_lookup(plain, tokens, False) < 0)


def test_tricks_on_wmt22(pairs: list[Pair]) -> None:
    for pair in pairs:
        streams = [read_plain(path) for path in (*pair.references, pair.systems[0])]
        for name in WHOLE_STREAM:
            check_tokenizer(streams[0], name)
        for name in JOINS:
            check_streams(streams, name)
        for lines in streams:
            text = " ".join(lines)
            assert needs_preparing(text) == plain_needs_preparing(text)
        check_lookup(streams[0])


@pytest.mark.parametrize("name", WHOLE_STREAM)
@given(lines_strategy, st.booleans())
def test_whole_stream_tokenizers_equal_sacrebleu_line_by_line(name: str, lines: list[str], lowercase: bool) -> None:
    check_tokenizer(lines, name, lowercase)


@pytest.mark.parametrize("name", list(JOINS))
@given(st.lists(together_lines, min_size=1, max_size=4))
def test_stream_tricks_on_generated_text(name: str, streams: list[list[str]]) -> None:
    check_streams(streams, name)


words = st.sampled_from(["<skipped>", "<skip", "ped>", "&quot;", "&amp;", "&lt;", "&gt;", "&", "<", ";", "\n", "a"])


@given(st.lists(st.one_of(words, st.text(max_size=5)), max_size=12).map("".join))
def test_needs_preparing_equals_in(text: str) -> None:
    assert needs_preparing(text) == plain_needs_preparing(text)


@pytest.mark.parametrize(
    "text",
    [
        *("<" * 100, "&" * 100, "<" * 100 + "<skipped>", "&" * 100 + "&gt;", "<skipped>" + "<" * 100),
        *("&lt" * 80 + ";", "x\n", "<" * 64 + "&amp;", "&" * 63 + "&quot;", "&" * 64 + "&quot;", "&" * 65 + "&quot;"),
    ],
)
def test_needs_preparing_past_its_look_ups(text: str) -> None:
    assert needs_preparing(text) == plain_needs_preparing(text)


@given(st.lists(st.text(max_size=12), max_size=30))
def test_lookup_equals_one_token_at_a_time(lines: list[str]) -> None:
    check_lookup(lines)


@given(st.lists(st.integers(0, 300), max_size=200), st.integers(1, 10))
def test_spaced_equals_np_insert_at_every_density(values: list[int], every: int) -> None:
    units = np.array(values, dtype=np.uint32)
    chosen = np.arange(units.shape[0]) % every == 0
    fast, plain = spaced(units, chosen), plain_spaced(units, chosen)
    assert (fast is None and plain is None) or np.array_equal(fast, plain)
