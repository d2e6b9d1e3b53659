"""TER (``bleu_core.stats.ter``, ``sacrebleu_api.TER``) against the real sacreBLEU 2.6.

Edit counts of word sequences over a tiny vocabulary (so that shifts happen), the beam's corners and the
candidate limit; corpus and sentence scores of random texts (punctuation, case, CJK, empty and missing lines)
under every option: the same statistics, the same score, the same printed text and signature; WMT22 samples.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.metrics.ter import TER as TheirTER

import bleu_core.sacrebleu_api as ours
from bleu_core.stats import ter
from bleu_core.stats.ter_edits import MAX_SHIFT_CANDIDATES, Beam, candidates, edits, trace
from bleu_core.version import __version__
from tests.conftest import Pair, read_plain

OPTIONS = [dict(zip(("normalized", "no_punct", "asian_support", "case_sensitive"), flags, strict=True))
           for flags in itertools.product((False, True), repeat=4)]  # fmt: skip
PIECES = ["a", "b", "c", "A", "B", "the", "The", "cat", ".", ",", "!", "?", "(", ")", "&amp;", "&lt;", "'s",
          "中", "文", "字", "。", "、", "，", "ｆ", "-", "1,000", "3.5", "É", "é"]  # fmt: skip


def their_edits(hyp: list[str], ref: list[str]) -> int:
    return int(translation_edit_rate(hyp, ref)[0])


def our_edits(hyp: list[str], ref: list[str], reuse: bool = True) -> int:
    ids: dict[str, int] = {}
    return edits([ids.setdefault(w, len(ids)) for w in hyp], [ids.setdefault(w, len(ids)) for w in ref], reuse)


def random_words(rng: random.Random, vocabulary: int, length: int) -> list[str]:
    return [str(rng.randrange(vocabulary)) for _ in range(length)]


def shuffled_copy(rng: random.Random, words: list[str]) -> list[str]:
    """``words`` with a few blocks moved and a word changed: a hypothesis that shifts repair."""
    out = list(words)
    for _ in range(rng.randint(1, 3)):
        if len(out) > 2:
            start = rng.randrange(len(out) - 1)
            block = out[start : start + rng.randint(1, 4)]
            del out[start : start + len(block)]
            place = rng.randrange(len(out) + 1)
            out[place:place] = block
    if out and rng.random() < 0.5:
        out[rng.randrange(len(out))] = "x"
    return out


@pytest.mark.parametrize("seed", range(6))
def test_edit_counts_of_random_words(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(120):
        vocabulary = rng.randint(1, 5)
        ref = random_words(rng, vocabulary, rng.choice([rng.randint(0, 6), rng.randint(0, 25)]))
        hyp = shuffled_copy(rng, ref) if rng.random() < 0.4 else random_words(rng, vocabulary, rng.randint(0, 25))
        expected = their_edits(hyp, ref)
        assert our_edits(hyp, ref) == our_edits(hyp, ref, reuse=False) == expected, (hyp, ref)


@pytest.mark.parametrize(
    ("hyp", "ref"),
    [(["a"], ["a"]), (["a"], ["b"]), (["a", "b"], ["a", "b"]), (["a", "b"] * 30, ["a", "b"] * 30), (["a"], ["a", "a"])],
)
def test_the_shortcuts_one_word_each_and_no_edit(hyp: list[str], ref: list[str]) -> None:
    """Segments of one word each (most of a Chinese or Japanese test set, which has no spaces) and identical
    segments skip the search: the same counts as sacreBLEU's."""
    assert our_edits(hyp, ref) == their_edits(hyp, ref)


@pytest.mark.parametrize(
    ("n_hyp", "n_ref"),
    [(0, 0), (0, 5), (5, 0), (1, 1), (1, 120), (120, 1), (2, 130), (40, 41), (60, 15), (15, 60)],
)
def test_the_beam_at_extreme_lengths(n_hyp: int, n_ref: int) -> None:
    """Lengths far apart: the beam widens (m / 2n > 25) or leaves most cells out of reach."""
    rng = random.Random(n_hyp * 1000 + n_ref)
    for vocabulary in (2, 4):
        hyp, ref = random_words(rng, vocabulary, n_hyp), random_words(rng, vocabulary, n_ref)
        assert our_edits(hyp, ref) == our_edits(hyp, ref, reuse=False) == their_edits(hyp, ref)


def test_the_candidate_limit() -> None:
    """A long, repetitive pair reaches the 1000-candidate limit in its first round; the edits still agree."""
    rng = random.Random(7)
    ref = random_words(rng, 2, 60)
    hyp = shuffled_copy(rng, ref)
    ids = {"0": 0, "1": 1, "x": 2}
    hyp_ids, ref_ids = [ids[w] for w in hyp], [ids[w] for w in ref]
    positions: dict[int, list[int]] = {}
    for r, word in enumerate(ref_ids):
        positions.setdefault(word, []).append(r)
    current = trace(hyp_ids, ref_ids, Beam.of(len(hyp), len(ref)))
    found, stopped = candidates(hyp_ids, ref_ids, positions, current, MAX_SHIFT_CANDIDATES)
    assert stopped and len(found) >= MAX_SHIFT_CANDIDATES
    assert our_edits(hyp, ref) == their_edits(hyp, ref)


def random_text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.08:
        return ""
    if kind < 0.11:
        return rng.choice([" ", "\t", "  \n"])
    words = rng.choices(PIECES, k=rng.randint(1, 14))
    return "".join(w + rng.choice([" ", " ", " ", "", "  "]) for w in words)


def random_corpus(rng: random.Random, n_segments: int) -> tuple[list[str], list[list[str | None]]]:
    n_refs = rng.randint(1, 3)
    streams: list[list[str | None]] = [[random_text(rng) for _ in range(n_segments)] for _ in range(n_refs)]
    hyps = []
    for i in range(n_segments):
        ref = streams[0][i] or ""
        hyps.append(" ".join(shuffled_copy(rng, ref.split())) if rng.random() < 0.5 else random_text(rng))
        for k in range(1, n_refs):
            if rng.random() < 0.15:
                streams[k][i] = None
    return hyps, streams


def unversioned(text: str) -> str:
    return text.replace(sacrebleu.__version__, "X").replace(__version__, "X")


def same_score(theirs: sacrebleu.metrics.ter.TERScore, mine: sacrebleu.metrics.ter.TERScore) -> None:
    assert abs(mine.score - theirs.score) <= 1e-9
    assert (mine.num_edits, mine.ref_length) == (theirs.num_edits, theirs.ref_length)
    assert str(mine) == str(theirs)
    for width in (0, 1, 4):
        assert mine.format(width) == theirs.format(width)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(k for k, v in o.items() if v) or "default")
def test_corpus_and_sentences_under_every_option(options: dict[str, bool]) -> None:
    rng = random.Random(str(options))
    for _ in range(3):
        hyps, streams = random_corpus(rng, rng.randint(1, 12))
        theirs, mine = TheirTER(**options), ours.TER(**options)
        their_stats = theirs._extract_corpus_statistics(hyps, streams)
        assert mine.statistics(hyps, streams).tolist() == [[float(x) for x in row] for row in their_stats]
        same_score(theirs.corpus_score(hyps, streams), mine.corpus_score(hyps, streams))
        for short in (False, True):
            assert unversioned(mine.get_signature().format(short)) == unversioned(theirs.get_signature().format(short))
        for i, hyp in enumerate(hyps):
            refs = [stream[i] for stream in streams if stream[i] is not None]
            same_score(theirs.sentence_score(hyp, refs), mine.sentence_score(hyp, refs))


def test_module_functions_and_cached_references() -> None:
    rng = random.Random(11)
    hyps, streams = random_corpus(rng, 10)
    refs = [[line if line is not None else "" for line in stream] for stream in streams]
    for options in (OPTIONS[0], OPTIONS[-1], {"normalized": True, "asian_support": True}):
        same_score(sacrebleu.corpus_ter(hyps, refs, **options), ours.corpus_ter(hyps, refs, **options))
        same_score(
            sacrebleu.sentence_ter(hyps[0], [r[0] for r in refs], **options),
            ours.sentence_ter(hyps[0], [r[0] for r in refs], **options),
        )
    cached = ours.TER(references=refs)
    same_score(TheirTER(references=refs).corpus_score(hyps, None), cached.corpus_score(hyps, None))
    with pytest.raises(ValueError, match="evaluate"):
        ours.TER().get_signature()


@pytest.mark.parametrize("n_samples", [2, 50, 300])
def test_bootstrap_interval(n_samples: int) -> None:
    rng = random.Random(n_samples)
    hyps, streams = random_corpus(rng, 25)
    theirs, mine = TheirTER(), ours.TER()
    their_score = theirs.corpus_score(hyps, streams, n_bootstrap=n_samples)
    my_score = mine.corpus_score(hyps, streams, n_bootstrap=n_samples)
    assert my_score.format(6) == their_score.format(6)
    assert (my_score._mean, my_score._ci) == (their_score._mean, their_score._ci)
    assert unversioned(str(mine.get_signature())) == unversioned(str(theirs.get_signature()))


def test_score_rules_from_statistics() -> None:
    """No reference word: 100 with edits, 0 without; else 100 * edits / length (lengths summed in order)."""
    assert ter.ter_score(np.asarray([[0.0, 0.0]])) == 0.0
    assert ter.ter_score(np.asarray([[3.0, 0.0], [0.0, 0.0]])) == 100.0
    stats = np.asarray([[1.0, 0.1], [2.0, 0.2], [0.0, 0.3]])
    assert ter.ter_score(stats) == 100 * (3.0 / ((0.1 + 0.2) + 0.3))
    assert ter.sentence_scores(stats) == [100 * (1 / 0.1), 100 * (2 / 0.2), 0.0]


def _check_pair(pair: Pair, system: int, limit: int | None, sentences: bool, asian: bool = True) -> None:
    """One system's statistics and scores; Chinese and Japanese targets normalized with Asian support (each
    character a word) when ``asian``, else with the defaults (as the WMT organisers scored them)."""
    streams = [read_plain(path)[:limit] for path in pair.references]
    hyps = read_plain(pair.systems[system])[:limit]
    asian = asian and pair.target in ("zh", "ja")
    options = {"normalized": asian, "asian_support": asian}
    theirs, mine = TheirTER(**options), ours.TER(**options)
    their_stats = theirs._extract_corpus_statistics(hyps, streams)
    my_stats = mine.statistics(hyps, streams)
    assert my_stats.tolist() == [[float(x) for x in row] for row in their_stats], pair.name
    same_score(theirs._aggregate_and_compute(their_stats), mine.score_statistics(my_stats))
    if sentences:
        for row, their_row in zip(my_stats, their_stats, strict=True):
            same_score(theirs._compute_score_from_stats(their_row), mine.score_statistics(row))


def test_wmt22_samples(pairs: list[Pair]) -> None:
    """The first 30 segments of one system per pair, against every reference (Chinese and Japanese targets
    with normalization and Asian support)."""
    for pair in pairs:
        _check_pair(pair, 0, 30, sentences=True)


@pytest.mark.slow
def test_every_wmt22_system(pairs: list[Pair]) -> None:
    """Every system of every pair: corpus statistics, corpus score and every sentence score, with the default
    options; and the first system of the Chinese and Japanese targets with Asian support (each character a word,
    which makes sacreBLEU take minutes per system)."""
    for pair in pairs:
        for system in range(len(pair.systems)):
            _check_pair(pair, system, None, sentences=True, asian=False)
        if pair.target in ("zh", "ja"):
            _check_pair(pair, 0, None, sentences=True)
