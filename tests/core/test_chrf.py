"""chrF and chrF++ (``bleu_core.stats.chrf``, ``sacrebleu_api.CHRF``) against the real sacreBLEU 2.6.

Random texts over many Unicode categories and kinds of whitespace, every option combination, empty lines, several
and missing references: the same statistics, the same score, the same printed text and signature.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics.chrf import CHRF as TheirCHRF

import bleu_core.sacrebleu_api as ours
from bleu_core.stats import chrf as chrf_module
from bleu_core.stats.chrf import (
    ChrfOptions,
    chrf_score,
    chrf_statistics,
    numbered_matches,
    packed_matches,
    split_words,
)
from bleu_core.version import __version__
from tests.conftest import Pair, read_plain

#: Pieces of text: letters that change under lower() (one of them into two code points), marks, CJK, emoji,
#: ASCII punctuation (split off words by chrF++) and other punctuation (not split), digits.
PIECES = [
    *"abcab", "Ab", "ABC", "É", "é", "ß", "ẞ", "İ", "ǅ", "Σ", "ς", "e\u0301", "中", "文", "字", "😀", "👍🏽",
    *"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", "«", "»", "、", "。", "¿", "0", "7", "٣",
    "the", "cat", "sat", "(hi)", "x.", ".x", "--", "…",
]  # fmt: skip
#: Whitespace that str.split() removes, and look-alikes it keeps (zero-width space, word joiner, BOM).
SPACES = [" ", " ", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u2003", "\u3000"]
NOT_SPACES = ["\u200b", "\u2060", "\ufeff"]
ORDERS = [(c, w) for c in range(1, 7) for w in range(3)]
FLAGS = list(itertools.product((False, True), repeat=3))  # lowercase, whitespace, eps_smoothing


def random_text(rng: random.Random) -> str:
    """Words of a few pieces, separated by runs of whitespace; sometimes empty or only whitespace."""
    kind = rng.random()
    if kind < 0.08:
        return ""
    if kind < 0.12:
        return "".join(rng.choices(SPACES, k=rng.randint(1, 3)))
    words = []
    for _ in range(rng.randint(1, 9)):
        word = "".join(rng.choices(PIECES, k=rng.randint(1, 3)))
        if rng.random() < 0.1:
            word += rng.choice(NOT_SPACES)
        words.append(word)
    parts = [rng.choice(SPACES) if rng.random() < 0.3 else ""]
    for word in words:
        parts += [word, rng.choice(SPACES) if rng.random() < 0.4 else " "]
    return "".join(parts[:-1] if rng.random() < 0.5 else parts)


def random_corpus(rng: random.Random, n_segments: int) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses and 1-3 reference streams; with several streams some lines are missing (None), never all."""
    n_refs = rng.randint(1, 3)
    hyps = [random_text(rng) for _ in range(n_segments)]
    streams: list[list[str | None]] = [[random_text(rng) for _ in range(n_segments)] for _ in range(n_refs)]
    for i in range(n_segments):
        for k in range(1, n_refs):
            if rng.random() < 0.15:
                streams[k][i] = None
        if rng.random() < 0.3:  # a reference that shares text with the hypothesis
            streams[0][i] = hyps[i] + rng.choice(["", " ", "x", " the cat."])
    return hyps, streams


def unversioned(text: str) -> str:
    return text.replace(sacrebleu.__version__, "X").replace(__version__, "X")


def same_score(theirs: Any, mine: Any, signatures: tuple[str, str] = ("", "")) -> None:
    assert abs(mine.score - theirs.score) <= 1e-9
    assert mine.score == theirs.score  # in fact to the last bit: the same operations in the same order
    for field in ("char_order", "word_order", "beta", "name"):
        assert getattr(mine, field) == getattr(theirs, field), field
    assert str(mine) == str(theirs) and repr(mine) == repr(theirs)
    for width in (0, 1, 2, 4):
        for score_only in (False, True):
            mine_text = mine.format(width, score_only, unversioned(signatures[1]))
            their_text = theirs.format(width, score_only, unversioned(signatures[0]))
            assert mine_text == their_text
    if signatures[0]:
        mine_json = mine.format(2, False, unversioned(signatures[1]), True)
        assert mine_json == theirs.format(2, False, unversioned(signatures[0]), True)


@pytest.fixture(params=["plain", "vectorized", "numbered"])
def counting(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every way of counting: ``Counter`` objects (few segments), the vectorized one with packed keys (any corpus,
    forced here), and the vectorized one that numbers n-grams (forced by leaving no room for a packed key)."""
    if request.param != "plain":
        monkeypatch.setattr(chrf_module, "VECTOR_MIN_SEGMENTS", 0)
    if request.param == "numbered":
        monkeypatch.setattr(chrf_module, "KEY_BITS", 0)
    return str(request.param)


SETTINGS = [
    {"char_order": c, "word_order": w, "beta": beta, "lowercase": lc, "whitespace": ws, "eps_smoothing": eps}
    for (c, w), beta, (lc, ws, eps) in itertools.product(ORDERS, (1, 2, 3), FLAGS)
]


@pytest.mark.parametrize("chunk", range(8))
def test_every_option_combination_on_random_corpora(chunk: int, counting: str) -> None:
    """432 settings (1/8 per chunk), each on its own random corpus: statistics, corpus and sentence scores."""
    cases = 0
    for index in range(chunk, len(SETTINGS), 8):
        settings = SETTINGS[index]
        rng = random.Random(index)
        hyps, refs = random_corpus(rng, rng.randint(1, 6))
        theirs, mine = TheirCHRF(**settings), ours.CHRF(**settings)
        their_stats = theirs._extract_corpus_statistics(hyps, refs)
        assert mine.statistics(hyps, refs).tolist() == their_stats, settings
        their_score, my_score = theirs.corpus_score(hyps, refs), mine.corpus_score(hyps, refs)
        for short in (False, True):
            assert unversioned(mine.get_signature().format(short)) == unversioned(theirs.get_signature().format(short))
        same_score(their_score, my_score, (str(theirs.get_signature()), str(mine.get_signature())))
        for i, hyp in enumerate(hyps):
            segment_refs = [stream[i] for stream in refs]
            same_score(theirs.sentence_score(hyp, segment_refs), mine.sentence_score(hyp, segment_refs))
            cases += 1
        cases += 1
    assert cases > 100


@pytest.mark.parametrize("seed", range(4))
def test_thousands_of_random_sentences_with_defaults_and_chrf_plus_plus(seed: int) -> None:
    rng = random.Random(1000 + seed)
    metrics = [(TheirCHRF(), ours.CHRF()), (TheirCHRF(word_order=2), ours.CHRF(word_order=2))]
    for _ in range(400):
        hyp = random_text(rng)
        refs = [random_text(rng) for _ in range(rng.randint(1, 4))]
        for theirs, mine in metrics:
            same_score(theirs.sentence_score(hyp, refs), mine.sentence_score(hyp, refs))


EMPTY_CASES: list[tuple[str, list[str | None]]] = [
    ("", [""]),
    ("", ["a b"]),
    ("a b", [""]),
    ("   ", [" \t "]),
    ("", ["", "x"]),
    ("x", ["", "x"]),
    ("x", ["x", ""]),
    ("a", ["b", None, "a"]),
    ("(hi)", ["( hi )", "(hi)"]),
    ("İstanbul", ["istanbul"]),
]


@pytest.mark.parametrize(("hyp", "refs"), EMPTY_CASES)
@pytest.mark.parametrize("settings", [{}, {"word_order": 2}, {"eps_smoothing": True}, {"lowercase": True}])
def test_empty_lines_and_ties_between_references(
    hyp: str, refs: list[str | None], settings: dict[str, Any], counting: str
) -> None:
    theirs, mine = TheirCHRF(**settings), ours.CHRF(**settings)
    same_score(theirs.sentence_score(hyp, refs), mine.sentence_score(hyp, refs))
    streams = [[ref] for ref in refs]
    their_score, my_score = theirs.corpus_score([hyp], streams), mine.corpus_score([hyp], streams)
    same_score(their_score, my_score, (str(theirs.get_signature()), str(mine.get_signature())))


def test_module_functions_and_cached_references() -> None:
    rng = random.Random(7)
    hyps, refs = random_corpus(rng, 30)
    full = [[line if line is not None else "" for line in stream] for stream in refs]
    for remove in (True, False):
        for word_order in (0, 2):
            same_score(
                sacrebleu.corpus_chrf(hyps, full, word_order=word_order, remove_whitespace=remove),
                ours.corpus_chrf(hyps, full, word_order=word_order, remove_whitespace=remove),
            )
            same_score(
                sacrebleu.sentence_chrf(hyps[0], [s[0] for s in full], word_order=word_order, remove_whitespace=remove),
                ours.sentence_chrf(hyps[0], [s[0] for s in full], word_order=word_order, remove_whitespace=remove),
            )
    theirs, mine = TheirCHRF(word_order=2, references=refs), ours.CHRF(word_order=2, references=refs)
    same_score(theirs.corpus_score(hyps, None), mine.corpus_score(hyps, None))
    assert unversioned(str(mine.get_signature())) == unversioned(str(theirs.get_signature()))


def test_corpus_statistics_are_the_sum_of_any_split(counting: str) -> None:
    rng = random.Random(11)
    hyps, refs = random_corpus(rng, 40)
    options = ChrfOptions(word_order=2)
    stats = chrf_statistics(hyps, refs, options)
    halves = [chrf_statistics(hyps[part], [s[part] for s in refs], options) for part in (slice(0, 17), slice(17, 40))]
    assert np.array_equal(stats, np.vstack(halves))
    assert chrf_score(stats, options) == chrf_score(stats.sum(axis=0), options)


def test_words_split_as_sacrebleu_splits_them() -> None:
    rng = random.Random(3)
    for _ in range(500):
        text = random_text(rng)
        assert split_words(text) == TheirCHRF(word_order=2)._remove_punctuation(text)


def test_invalid_settings_and_input_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="at least one n-gram order"):
        ours.CHRF(char_order=0)
    with pytest.raises(ValueError, match="non-negative"):
        ours.CHRF(word_order=-1)
    with pytest.raises(ValueError, match="Number of references unknown"):
        ours.CHRF().get_signature()
    with pytest.raises(ValueError, match="hypotheses"):
        ours.CHRF().corpus_score(["a", "b"], [["a"]])
    with pytest.raises(TypeError):
        ours.CHRF().sentence_score(3, ["a"])  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        ours.CHRF().corpus_score([], [[]])


def test_a_wmt22_pair(pairs: list[Pair]) -> None:
    """Skips (with the reason from the ``pairs`` fixture) when the WMT22 data is absent."""
    pair = next((p for p in pairs if p.name == "de-en"), pairs[0])
    hyps = read_plain(pair.systems[0])
    refs = [read_plain(r) for r in pair.references]
    for settings, n_bootstrap in (({}, 100), ({"word_order": 2}, 1)):
        theirs, mine = TheirCHRF(**settings), ours.CHRF(**settings)
        their_stats = np.asarray(theirs._extract_corpus_statistics(hyps, refs), dtype=np.int64)
        assert np.array_equal(mine.statistics(hyps, refs), their_stats)
        their_score = theirs.corpus_score(hyps, refs, n_bootstrap=n_bootstrap)
        my_score = mine.corpus_score(hyps, refs, n_bootstrap=n_bootstrap)
        same_score(their_score, my_score, (str(theirs.get_signature()), str(mine.get_signature())))


def test_chunks_of_segments_give_the_same_statistics(monkeypatch: pytest.MonkeyPatch, counting: str) -> None:
    rng = random.Random(5)
    hyps, refs = random_corpus(rng, 25)
    options = ChrfOptions(word_order=2, lowercase=True)
    whole = chrf_statistics(hyps, refs, options)
    monkeypatch.setattr(chrf_module, "CHUNK_SEGMENTS", 4)
    assert np.array_equal(chrf_statistics(hyps, refs, options), whole)
    assert whole.tolist() == TheirCHRF(word_order=2, lowercase=True)._extract_corpus_statistics(hyps, refs)


def brute_matches(texts: list[list[int]], pairs: list[tuple[int, int]], order: int) -> list[list[int]]:
    """Per order, per (hypothesis, reference) pair: clipped matches counted with ``Counter`` objects."""

    def grams(units: list[int], n: int) -> Counter[tuple[int, ...]]:
        return Counter(tuple(units[i : i + n]) for i in range(len(units) - n + 1))

    return [[sum((grams(texts[h], n) & grams(texts[r], n)).values()) for h, r in pairs] for n in range(1, order + 1)]


@pytest.mark.parametrize("seed", range(6))
def test_both_vectorized_countings_equal_counters_on_any_ids(seed: int) -> None:
    """The packed keys (with the global ids, and renumbered within pairs when the ids are too wide) and the
    numbered n-grams give the clipped matches that Counter objects give, on random unit ids and pairs."""
    rng = random.Random(seed)
    alphabet = rng.choice([2, 5, 300, 70_000])
    texts = [[rng.randrange(alphabet) for _ in range(rng.choice([0, 1, 2, rng.randint(3, 40)]))] for _ in range(30)]
    pairs = [(rng.randrange(30), rng.randrange(30)) for _ in range(rng.randint(1, 40))]
    ids = np.asarray([unit for text in texts for unit in text], dtype=np.int64)
    lengths = np.asarray([len(text) for text in texts], dtype=np.int64)
    hyp_text, ref_text = (np.asarray(side, dtype=np.int64) for side in zip(*pairs, strict=True))
    order = rng.randint(1, 7)
    expected = brute_matches(texts, pairs, order)
    for bound in (alphabet, 2**40):
        packed = packed_matches(ids, lengths, bound, order, hyp_text, ref_text)
        assert packed is not None and [match.tolist() for match in packed] == expected, bound
    numbered = numbered_matches(ids, lengths, alphabet, order, hyp_text, ref_text)
    assert [match.tolist() for match in numbered] == expected


def test_thousands_of_distinct_characters(counting: str) -> None:
    """CJK text over 6,000 distinct characters: too many for packed keys of the chunk's ids, so they are renumbered
    within each pair; statistics equal sacreBLEU's."""
    rng = random.Random(11)
    hyps = ["".join(chr(0x4E00 + rng.randrange(6000)) for _ in range(rng.randint(0, 60))) for _ in range(40)]
    refs = [[hyp[: len(hyp) // 2] + "".join(chr(0x4E00 + rng.randrange(6000)) for _ in range(9)) for hyp in hyps]]
    for options in (ChrfOptions(), ChrfOptions(char_order=8, word_order=2)):
        theirs = TheirCHRF(char_order=options.char_order, word_order=options.word_order)
        assert chrf_statistics(hyps, refs, options).tolist() == theirs._extract_corpus_statistics(hyps, refs)


ODD_SETTINGS: list[dict[str, Any]] = [
    {"beta": 0},
    {"beta": 1.5},
    {"char_order": 0, "word_order": 2},
    {"char_order": 8, "word_order": 4},
    {"char_order": 0, "word_order": 1, "eps_smoothing": True},
]


@pytest.mark.parametrize("settings", ODD_SETTINGS, ids=str)
def test_settings_outside_the_usual_grid_and_lone_surrogates(settings: dict[str, Any], counting: str) -> None:
    for seed in range(20):
        rng = random.Random(seed)
        hyps, refs = random_corpus(rng, 5)
        hyps = [hyp + "\ud800x" if seed % 3 == 0 else hyp for hyp in hyps]
        same_score(TheirCHRF(**settings).corpus_score(hyps, refs), ours.CHRF(**settings).corpus_score(hyps, refs))
        segment_refs = [stream[0] for stream in refs]
        theirs = TheirCHRF(**settings).sentence_score(hyps[0], segment_refs)
        same_score(theirs, ours.CHRF(**settings).sentence_score(hyps[0], segment_refs))


def test_bootstrap_mean_and_interval_to_the_last_bit(counting: str) -> None:
    """sacreBLEU's resamples are scored in float32; it fails (TypeError in statistics.mean) when a resample scores
    a Python 0.0 among float32 scores, which small random corpora hit: those cases are counted, not compared."""
    compared = failed = 0
    for seed in range(40):
        rng = random.Random(seed)
        hyps, refs = random_corpus(rng, rng.randint(2, 30))
        settings = {"word_order": seed % 3, "eps_smoothing": seed % 2 == 0, "beta": 1 + seed % 3}
        settings["char_order"] = 1 + seed % 6
        theirs, mine = TheirCHRF(**settings), ours.CHRF(**settings)
        try:
            their_score = theirs.corpus_score(hyps, refs, n_bootstrap=100)
        except TypeError:
            failed += 1
            continue
        my_score = mine.corpus_score(hyps, refs, n_bootstrap=100)
        assert (my_score._mean, my_score._ci) == (their_score._mean, their_score._ci)
        same_score(their_score, my_score, (str(theirs.get_signature()), str(mine.get_signature())))
        compared += 1
    assert compared >= 30 and failed < 10


def test_corpus_and_every_segments_score_from_one_count(counting: str) -> None:
    """What the Corpus page shows: the corpus chrF and each segment's, equal to sacreBLEU's corpus_score and
    sentence_score (random corpora with missing references, and lowercased)."""
    rng = random.Random(17)
    for _ in range(30):
        hyps, streams = random_corpus(rng, rng.randint(1, 12))
        lowercase = rng.random() < 0.5
        options = ChrfOptions(lowercase=lowercase)
        corpus, segments = chrf_module.corpus_and_segment_scores(chrf_statistics(hyps, streams, options), options)
        theirs = TheirCHRF(lowercase=lowercase)
        assert corpus == theirs.corpus_score(hyps, streams).score
        for i, hyp in enumerate(hyps):
            refs = [stream[i] for stream in streams if stream[i] is not None]
            if refs:
                assert segments[i] == theirs.sentence_score(hyp, refs).score, (i, hyp, refs)


CORPORA_WITHOUT_A_COMMON_CHARACTER = {
    0: (["b", "b", "b"], [["fedfdh", "edge", "fehdefg"]]),
    2: (["bca", "cad"], [["hfe", "feh"]]),
}


@pytest.mark.parametrize("word_order", list(CORPORA_WITHOUT_A_COMMON_CHARACTER))
def test_eps_smoothed_interval_of_texts_without_a_common_character(word_order: int) -> None:
    """With eps smoothing, a resample whose first orders have n-grams on both sides but no match, and later orders
    n-grams on one side only, scores its first F-scores as Python floats and the rest in float32 (sacreBLEU's
    order of operations): the interval's mean and width equal sacreBLEU's to the last bit.  (Found by a search of
    random corpora of this shape, on which the previous release differed.)"""
    hyps, refs = CORPORA_WITHOUT_A_COMMON_CHARACTER[word_order]
    settings = {"word_order": word_order, "eps_smoothing": True}
    theirs = TheirCHRF(**settings).corpus_score(hyps, refs, n_bootstrap=200)
    mine = ours.CHRF(**settings).corpus_score(hyps, refs, n_bootstrap=200)
    assert (mine._mean, mine._ci) == (theirs._mean, theirs._ci)
