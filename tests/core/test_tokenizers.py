"""The tokenizers give sacreBLEU's tokens exactly, in all three outputs: strings, vocabulary ids, and the ids
of streams encoded together from byte spans (equal ids exactly where sacreBLEU's tokens are equal).

Checked on every WMT22 file (each with 13a, char, none, zh and its own tokenizer), on hypothesis-generated
text with odd punctuation, digits, entities, line breaks, wide spaces, long tokens and CJK, and, for zh, on
every code point.
"""

from __future__ import annotations

from itertools import chain

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

import bleu_core
from bleu_core.tokenizers import (
    Encoded,
    Vocabulary,
    decode,
    encode_lines,
    encode_together,
    is_chinese_char,
    joined,
    together,
)
from tests.conftest import Pair, read_plain

NAMES = ["13a", "char", "none", "zh", "intl"]


def sacrebleu_tokens(lines: list[str], name: str, lowercase: bool = False) -> list[list[str]]:
    sacre = BLEU(tokenize=name).tokenizer  # the tokenizer sacreBLEU's metric scores with
    return [sacre((line.lower() if lowercase else line).rstrip()).split() for line in lines]


def assert_both_outputs(lines: list[str], name: str, lowercase: bool = False) -> None:
    expected = sacrebleu_tokens(lines, name, lowercase)
    assert bleu_core.tokenize_lines(lines, name, lowercase) == expected
    vocab = Vocabulary(name)
    assert decode(encode_lines(lines, name, lowercase, vocab), vocab) == expected


def assert_same_partition(found: tuple[list[Encoded], int] | None, expected: list[list[list[str]]]) -> None:
    """Streams encoded together: equal ids exactly where sacreBLEU's tokens are equal, ids 0 up to ``bound``."""
    assert found is not None
    encoded, bound = found
    id_of: dict[str, int] = {}
    for enc, lines in zip(encoded, expected, strict=True):
        assert enc.lengths.tolist() == [len(tokens) for tokens in lines]
        for token, i in zip(chain.from_iterable(lines), enc.ids.tolist(), strict=True):
            assert id_of.setdefault(token, i) == i
    assert sorted(id_of.values()) == list(range(bound))


@pytest.mark.parametrize(
    "every", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["own-tokenizer", "every-tokenizer"]
)
def test_every_wmt22_file(pairs: list[Pair], every: bool) -> None:
    """make test: each pair's references and systems under 13a and the pair's own tokenizer (about 20 s);
    make test-slow: under every tokenizer (about 50 s)."""
    checked = 0
    for pair in pairs:
        streams = [read_plain(path) for path in (*pair.references, *pair.systems)]
        for name in sorted({"13a", "char", "none", "zh", pair.tokenize} if every else {"13a", pair.tokenize}):
            for lines in streams:
                assert_both_outputs(lines, name)
                checked += 1
            together = encode_together(streams, name, False)
            if name in ("13a", "zh", "none"):  # every file of the pair at once
                assert_same_partition(together, [sacrebleu_tokens(lines, name) for lines in streams])
            else:
                assert together is None
    assert checked > (300 if every else 80)


PIECES = [
    *("the", "The", "cat", "3.5", "1,000", "x-y", "2-3", "-4", "5-", "U.S.", "e.g.", "a.b", ",a", "a,", ".5"),
    *("&amp;", "&quot;", "&lt;", "&gt;", "&amp;quot;", "&", "<skipped>", "<skip", "ped>", "-\n", "\n", "\r"),
    *(".", ",", "..", ",.", "...", "-", "--", "'", '"', "(", ")", "[", "]", "{", "}", "/", "\\", "@", "`", "~"),
    *("中", "国", "。", "，", "「", "」", "．", "Ａ", "１", "—", "“", "”", "…", "☃", "𠀀", "の", "한"),
    *("é", "ß", "Σ", "ς", "İ", "\u0301", "\u200b", "\ufeff", "\u3000", "\u2028", "\x85", "\xa0", "\t", " ", "  "),
]
piece_text = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)
any_text = st.text(max_size=40)
lines_strategy = st.lists(st.one_of(piece_text, any_text), max_size=8)


@pytest.mark.parametrize("name", NAMES)
@given(lines_strategy, st.booleans())
def test_generated_text(name: str, lines: list[str], lowercase: bool) -> None:
    if name == "intl":  # sacreBLEU's own tokenizer, line by line: only the string output is ours
        assert bleu_core.tokenize_lines(lines, name, lowercase) == sacrebleu_tokens(lines, name, lowercase)
    else:
        assert_both_outputs(lines, name, lowercase)


@pytest.mark.parametrize("name", ["13a", "zh", "none"])
@given(lines_strategy)
def test_unknown_tokens_get_minus_one_against_a_fixed_vocabulary(name: str, lines: list[str]) -> None:
    vocab = Vocabulary(name)
    known = encode_lines(lines[: len(lines) // 2], name, False, vocab)
    del known
    words = vocab.tokens()
    fixed = encode_lines(lines, name, False, vocab, grow=False)
    expected = sacrebleu_tokens(lines, name)
    assert fixed.lengths.tolist() == [len(tokens) for tokens in expected]
    flat = [token for tokens in expected for token in tokens]
    assert [words.get(i, None) if i >= 0 else None for i in fixed.ids.tolist()] == [
        token if token in vocab.ids and vocab.ids[token] in words else None for token in flat
    ]


# Rules 2-4 pad periods and commas by the parity of their place in a run, and the unit before or after the
# run decides its ends; all four rules are read off the original text: dense runs of marks, digits, dashes
# and rule-1 punctuation, in lines that start and end with them.
dense_text = st.text(alphabet=".,-09a é中(/", max_size=30)


@pytest.mark.parametrize("name", ["13a", "zh"])
@given(st.lists(dense_text, min_size=1, max_size=6))
def test_runs_of_periods_commas_digits_and_dashes(name: str, lines: list[str]) -> None:
    assert_both_outputs(lines, name)


def test_zh_pads_exactly_sacrebleus_chinese_characters_on_every_code_point() -> None:
    check = TokenizerZh._is_chinese_char
    differing = [c for c in range(0x110000) if is_chinese_char(chr(c)) != check(chr(c))]
    assert differing == []


@pytest.mark.parametrize(
    "text",
    [
        *("a-\nb", "a-<skipped>\nb", "x\n\ny", "end.\n", "1.\n.5", "&amp;quot;", "<SKIPPED>", "a.\x85", "Σ\nΣa"),
        *("ΑΣ", "<skip<skipped>ped>\nx", "<skip<skipped>ped>"),
    ],
)
def test_13a_edge_cases_with_embedded_line_breaks(text: str) -> None:
    for lowercase in (False, True):
        assert_both_outputs([text, "x", text], "13a", lowercase)


@pytest.mark.parametrize(
    "text",
    [".5", "5.", ",a", "a,", ".", ",", " .5 ", "中.5", "5.中", "中.", ".中", "(.5", "5.)", ".5 5.", "。.5", "a .b. c,"],
)
def test_zh_line_edges_see_no_space(text: str) -> None:
    assert_both_outputs([text, text + " x", "x " + text, "", text], "zh")


def test_control_characters_in_the_text_are_ordinary_characters() -> None:
    lines = ["a\x00b. c", "\x01.5\x02", "x\x03,"]
    for name in ("13a", "zh", "none"):
        assert_both_outputs(lines, name)


#: The 22 control characters that once marked line boundaries in joined text (texts holding them all had a
#: path of their own), and every other C0 and C1 control character and DEL.
OLD_MARKS = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a"
CONTROLS = "".join(chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)))


@pytest.mark.parametrize("name", ["13a", "zh", "none"])
@pytest.mark.parametrize("marks", [OLD_MARKS, CONTROLS], ids=["old marks", "all controls"])
def test_texts_holding_every_control_character_take_the_one_path(name: str, marks: str) -> None:
    # Line boundaries are offsets, so control characters are text like any other: texts holding all of them
    # are tokenized, encoded to ids and encoded together like any text, and score like sacreBLEU.
    crowded = [f"a{marks[:11]}b. c,d 5.5", f"中文 x{marks[11:]}y, 1-2 .", ""]
    plain = [f"x{marks[0]} ok. 1,5", f"{marks[3]} {marks[12]}z 中", "a b"]
    references = [["a b. c , d 5.5", f"中文 xy 1 - 2 {marks[4:9]}", "x"]]
    for lines in (crowded, plain):
        assert_both_outputs(lines, name)
    streams = [crowded, *references]
    assert_same_partition(encode_together(streams, name, False), [sacrebleu_tokens(s, name) for s in streams])
    vocab = Vocabulary(name)
    for lines in (crowded, plain, crowded):
        assert decode(encode_lines(lines, name, False, vocab), vocab) == sacrebleu_tokens(lines, name)
    for hyps in (crowded, plain):
        expected = BLEU(tokenize=name).corpus_score(hyps, references)
        found_score = bleu_core.corpus_bleu(hyps, references, tokenize=name).score_100
        assert found_score == pytest.approx(expected.score, abs=1e-9)
        options = bleu_core.make_options(tokenize=name)
        stats, _ = bleu_core.api.corpus_statistics(hyps, references, options)
        assert stats.matches.sum(axis=0).tolist() == expected.counts
        sentence = BLEU(tokenize=name, effective_order=True)
        expected_sentences = [sentence.sentence_score(h, [r]).score for h, r in zip(hyps, references[0], strict=True)]
        found = bleu_core.sentence_scores(hyps, references, tokenize=name)
        assert [100 * x for x in found] == pytest.approx(expected_sentences, abs=1e-9)


@pytest.mark.parametrize("name", ["13a", "zh", "none"])
def test_streams_sharing_a_vocabulary_with_control_characters(name: str) -> None:
    # A literal control character of one stream is an ordinary character of every stream of the vocabulary,
    # and no character the streams do not hold turns up in a token.
    streams = [
        ["\x00.5 x", "\x01.a\x02", ".5 \x00"],
        [".5 y", "a,", ",b .5,", "\x00"],
        ["\x03.5", ".5\x04", "5. 5,"],
    ]
    vocab = Vocabulary(name)
    for lines in streams:
        assert decode(encode_lines(lines, name, False, vocab), vocab) == sacrebleu_tokens(lines, name)
    assert not any(c in token for token in vocab.ids for c in "\x05\x06\x07")


@pytest.mark.parametrize("name", ["13a", "zh", "none"])
@given(st.lists(lines_strategy, min_size=2, max_size=4))
def test_streams_sharing_a_vocabulary_each_give_sacrebleus_tokens(name: str, streams: list[list[str]]) -> None:
    # A token of one stream can be a chunk of another that rules 2-4 split differently (".5" in "..5-").
    vocab = Vocabulary(name)
    for lines in streams:
        assert decode(encode_lines(lines, name, False, vocab), vocab) == sacrebleu_tokens(lines, name)


@pytest.mark.parametrize("found", [0, 1, 4, 80, 100, 104, 360, 400])
def test_spaced_on_both_sides_of_its_density_switch(found: int) -> None:
    # spaced() scatters when more than a quarter of the units (here 100 of 400) are chosen and masks otherwise.
    rng = np.random.default_rng(7)
    units = rng.integers(33, 127, size=400).astype(np.uint8)
    chosen = np.zeros(400, dtype=bool)
    chosen[rng.choice(400, size=found, replace=False)] = True
    expected = b"".join(b" %c " % u if c else bytes([u]) for u, c in zip(units.tolist(), chosen.tolist(), strict=True))
    out = joined.spaced(units, chosen)
    assert (out is None) == (not chosen.any())
    assert (out.tobytes() if out is not None else units.tobytes()) == expected


# Tokens of up to 7 bytes are keys by their bytes; longer ones are hashed 8 bytes at a time and compared
# with the first token of their hash, and ones beyond 256 bytes go through Python's bytes.
long_text = st.builds(
    lambda base, size, tail: base * size + tail,
    st.sampled_from(["a", "ab", "中", "é", "x.", "0,"]),
    st.sampled_from([3, 4, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 256, 257, 300]),
    st.sampled_from(["", "b", "中", " ", "\xa0"]),
)
together_lines = st.lists(st.one_of(piece_text, any_text, long_text), max_size=8)


@pytest.mark.parametrize("name", ["13a", "zh", "none"])
@given(st.lists(together_lines, min_size=1, max_size=4), st.booleans())
def test_streams_encoded_together_match_sacrebleus_tokens(name: str, streams: list[list[str]], lowercase: bool) -> None:
    found = encode_together(streams, name, lowercase)
    assert_same_partition(found, [sacrebleu_tokens(lines, name, lowercase) for lines in streams])


def test_the_space_tables_are_every_whitespace_character() -> None:
    assert tuple(chr(c) for c in range(0x80) if chr(c).isspace()) == joined.ASCII_SPACES
    assert tuple(chr(c) for c in range(0x80, 0x110000) if chr(c).isspace()) == joined.WIDE_SPACES
    expected = np.array([chr(c).isspace() for c in range(0x10000)])
    assert np.array_equal(joined.whitespace_table(), expected)


@pytest.mark.parametrize("space", joined.WIDE_SPACES)
def test_wide_spaces_split_byte_streams_like_str_split(space: str) -> None:
    # str.split splits on these; in UTF-8 they span 2-3 bytes, which the byte streams blank out first.
    lines = [f"a{space}b", f"1{space}.5{space}-", f"{space}x,{space}", f"x{space}{space}", "a b", space]
    streams = [lines, lines[::-1]]
    for name in ("13a", "none"):
        expected = [sacrebleu_tokens(stream, name) for stream in streams]
        assert_same_partition(encode_together(streams, name, False), expected)


def no_word_hashes(words: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    return np.zeros(starts.shape[0], dtype=np.uint64)


@pytest.mark.parametrize(
    ("target", "clash"),
    [("_word_hashes", no_word_hashes), ("hash", lambda data: 0)],
    ids=["tokens of 8-256 bytes", "longer tokens"],
)
def test_a_hash_clash_falls_back_to_the_vocabulary(target: str, clash: object, monkeypatch: pytest.MonkeyPatch) -> None:
    hyps = ["abcdefghij klmnopqrst " + "y" * 300 + " " + "w" * 280, "short words only"]
    refs = [["abcdefghij qrstuvwxyz " + "z" * 300, "short words here"]]
    expected = BLEU(tokenize="13a").corpus_score(hyps, refs).score
    assert encode_together([hyps, *refs], "13a", False) is not None
    monkeypatch.setattr(together, target, clash, raising=False)  # every hash equal: told apart byte for byte
    assert encode_together([hyps, *refs], "13a", False) is None
    assert bleu_core.corpus_bleu(hyps, refs).score_100 == pytest.approx(expected, abs=1e-9)


def test_equal_long_tokens_share_an_id_across_streams() -> None:
    word = "ß" * 200  # 400 bytes: beyond the word loops
    found = encode_together([[f"{word} a", "b"], [f"c {word}"], []], "13a", False)
    assert found is not None
    (first, second, empty), bound = found
    assert first.ids[0] == second.ids[1] and bound == 4
    assert empty.ids.shape[0] == 0 and empty.lengths.shape[0] == 0
