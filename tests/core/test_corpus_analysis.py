"""Corpus analyses against independent computations written here with plain Counters and sacreBLEU's tokenizer:
word accuracy by bucket, over-/under-produced n-grams and their segments, what-if, relative diagnosis."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleu_core import corpus_bleu, make_options
from bleu_core.api import corpus_statistics
from bleu_core.corpus.diagnosis import analyze_corpus
from bleu_core.corpus.ngram_lists import ngram_tallies, tallies_from_counts
from bleu_core.corpus.produced_ngrams import NgramFilter, ngram_stats, produced_lists
from bleu_core.corpus.relative import (
    BELOW_OTHERS,
    BELOW_OTHERS_SEVERAL,
    COSTLIEST_EXPECTED,
    DECAY_BREAKS,
    DECAY_REGULAR,
    LOWEST_GAP,
    SHORT,
    relative_diagnosis,
)
from bleu_core.corpus.stopwords import STOPWORDS, guess_language, is_punctuation
from bleu_core.corpus.what_if import replace_segment
from bleu_core.corpus.word_accuracy import (
    FREQUENCY_EDGES,
    SCORE_EDGES,
    frequency_buckets,
    read_frequencies,
    reference_frequencies,
    segment_buckets,
    word_counts,
)
from bleu_core.stats.corpus_ngrams import count_ngrams, ngram_segments, tokenize_corpus
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from tests.conftest import Pair, read_plain

OPTIONS = make_options()
Gram = tuple[str, ...]


@pytest.fixture(scope="module")
def de_en(pairs: list[Pair]) -> tuple[list[str], list[list[str]]]:
    """One WMT22 de-en system with both references (1,984 segments)."""
    pair = next(p for p in pairs if p.name == "de-en")
    return read_plain(pair.systems[0]), [read_plain(p) for p in pair.references]


def plain_counts(tokens: list[str], n: int) -> Counter[Gram]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def independent(hyps: list[str], refs: list[list[str]], n: int) -> list[tuple[Counter[Gram], Counter[Gram]]]:
    """Per segment: hypothesis n-gram counts and the most in any one reference, via sacreBLEU's 13a tokenizer."""
    tok = Tokenizer13a()
    rows = []
    for i, hyp in enumerate(hyps):
        ceiling: Counter[Gram] = Counter()
        for stream in refs:
            ceiling |= plain_counts(tok(stream[i].rstrip()).split(), n)
        rows.append((plain_counts(tok(hyp.rstrip()).split(), n), ceiling))
    return rows


def bucket_of(frequency: int) -> int:
    return sum(frequency >= edge for edge in FREQUENCY_EDGES)


def test_frequency_bucket_f_measure_equals_an_independent_count(de_en: tuple[list[str], list[list[str]]]) -> None:
    hyps, refs = de_en
    counts = count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 1)
    words = word_counts(counts)
    buckets = frequency_buckets(words, reference_frequencies(counts))

    tok = Tokenizer13a()
    frequency: Counter[str] = Counter(t for stream in refs for line in stream for t in tok(line.rstrip()).split())
    hyp_sum, ref_sum, match_sum = Counter[int](), Counter[int](), Counter[int]()
    for hyp_counts, ceiling in independent(hyps, refs, 1):
        for (word,), h in hyp_counts.items():
            hyp_sum[bucket_of(frequency[word])] += h
            match_sum[bucket_of(frequency[word])] += min(h, ceiling[(word,)])
        for (word,), r in ceiling.items():
            ref_sum[bucket_of(frequency[word])] += r
    assert [(b.hypothesis, b.reference, b.matched) for b in buckets] == [
        (hyp_sum[k], ref_sum[k], match_sum[k]) for k in sorted(hyp_sum.keys() | ref_sum.keys())
    ]
    assert buckets[0].low == 0 and buckets[0].reference == 0 and buckets[0].f_measure is None  # unseen words
    for bucket, k in zip(buckets[1:], sorted(hyp_sum.keys() | ref_sum.keys())[1:], strict=True):
        p, r = match_sum[k] / hyp_sum[k], match_sum[k] / ref_sum[k]
        assert bucket.f_measure == pytest.approx(2 * p * r / (p + r), abs=1e-12)
    # Summed over the buckets: BLEU's unigram matches and totals.
    result = sacrebleu.corpus_bleu(hyps, refs)
    assert sum(b.matched for b in buckets) == result.counts[0]
    assert sum(b.hypothesis for b in buckets) == result.totals[0]


def test_segment_buckets_partition_the_words(de_en: tuple[list[str], list[list[str]]]) -> None:
    hyps, refs = de_en
    hyps, refs = hyps[:300], [r[:300] for r in refs]
    counts = count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 1)
    words = word_counts(counts)
    stats, _ = corpus_statistics(hyps, refs, OPTIONS)
    analysis = analyze_corpus(stats, OPTIONS, 2)
    by_score = segment_buckets(words, 100 * analysis.sentence, SCORE_EDGES)
    assert sum(b.matched for b in by_score) == int(stats.matches[:, 0].sum())
    assert sum(b.segments for b in by_score) == sum(1 for i in range(300) if words.segment.tolist().count(i))
    scores = 100 * analysis.sentence
    low = next(b for b in by_score if b.low == 0.0)
    inside = [i for i in range(300) if scores[i] < 10]
    hyp_tokens = sum(len(counts.corpus.hypotheses[i]) for i in inside)
    assert low.hypothesis == hyp_tokens


def test_under_and_over_produced_counts_and_segments(de_en: tuple[list[str], list[list[str]]]) -> None:
    hyps, refs = de_en
    corpus = tokenize_corpus(hyps, refs, "13a", False)
    counts = count_ngrams(corpus, 2)
    stats = {s.ngram: s for s in ngram_stats(counts)}
    missed, over = Counter[Gram](), Counter[Gram]()
    rows = independent(hyps, refs, 2)
    for hyp_counts, ceiling in rows:
        for gram in hyp_counts.keys() | ceiling.keys():
            clipped = min(hyp_counts[gram], ceiling[gram])
            missed[gram] += ceiling[gram] - clipped
            over[gram] += hyp_counts[gram] - clipped
    bigrams = {g: s for g, s in stats.items() if len(g) == 2}
    assert {g: s.missed for g, s in bigrams.items() if s.missed} == +missed
    assert {g: s.over for g, s in bigrams.items() if s.over} == +over

    shown = produced_lists(tuple(stats.values()), NgramFilter(min_order=2, language="en"), top=10)
    assert shown.under and all(len(s.ngram) == 2 for s in shown.under)
    assert not any(all(t.lower() in STOPWORDS["en"] or is_punctuation(t) for t in s.ngram) for s in shown.under)
    # Follow the top under-produced bigram to its segments: the same segments and counts as counted here.
    gram = shown.under[0].ngram
    occurrences = ngram_segments(corpus, gram)
    expected = [i for i, (h, r) in enumerate(rows) if h[gram] or r[gram]]
    assert [o.segment for o in occurrences] == expected
    assert sum(o.missed for o in occurrences) == missed[gram]
    for o in occurrences:
        tokens = corpus.hypotheses[o.segment]
        assert all(tokens[s : s + 2] == gram for s in o.hypothesis_starts)
        assert o.hypothesis_count == rows[o.segment][0][gram]


def test_tallies_from_one_count_equal_the_public_function() -> None:
    hyps, refs = list(DEMO_SYSTEMS["literal"]), [list(r) for r in DEMO_REFERENCES]
    counts = count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 4)
    assert tallies_from_counts(counts) == ngram_tallies(hyps, refs, OPTIONS)


def test_filter_rules() -> None:
    keep = NgramFilter(min_order=1, language="de")
    assert not keep.keeps((",",)) and not keep.keeps(("der",)) and not keep.keeps(("der", ","))
    assert keep.keeps(("Haus",)) and keep.keeps(("der", "Haus"))
    assert not NgramFilter(min_order=2).keeps(("Haus",))
    assert NgramFilter(hide_stopwords=False).keeps(("der",))
    assert guess_language([["der", "Mann", "und", "die", "Frau"]]) == "de"
    assert guess_language([["xyz"]]) is None


def test_salience_prefers_frequent_misses() -> None:
    hyps = ["a b", "a b", "a b"]
    refs = [["a c d", "a c", "a e"]]
    stats = ngram_stats(count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 1))
    lists = produced_lists(stats, NgramFilter(hide_stopwords=False))
    assert [s.ngram for s in lists.under] == [("c",), ("d",), ("e",)]
    assert lists.over[0].ngram == ("b",)
    with pytest.raises(ValueError, match="rank must be one of"):
        produced_lists(stats, rank="size")  # type: ignore[arg-type]


@pytest.mark.parametrize("index", [0, 5, 1983])
def test_what_if_delta_equals_a_recomputation(de_en: tuple[list[str], list[list[str]]], index: int) -> None:
    hyps, refs = de_en
    stats, _ = corpus_statistics(hyps, refs, OPTIONS)
    new = "This is a completely different sentence , with the words of the reference perhaps ."
    change = replace_segment(stats, index, new, [r[index] for r in refs], OPTIONS, 2)
    edited = list(hyps)
    edited[index] = new
    scratch = sacrebleu.corpus_bleu(edited, refs)
    assert change.after.score_100 == pytest.approx(scratch.score, abs=1e-9)
    assert change.delta == pytest.approx((scratch.score - sacrebleu.corpus_bleu(hyps, refs).score) / 100, abs=1e-9)
    assert change.after.counts == tuple(scratch.counts) and change.after.sys_len == scratch.sys_len
    assert change.sentence_after == pytest.approx(
        sacrebleu.sentence_bleu(new, [r[index] for r in refs]).score / 100, abs=1e-9
    )


def test_what_if_with_other_settings_and_bad_index() -> None:
    hyps, refs = list(DEMO_SYSTEMS["literal"]), [list(r) for r in DEMO_REFERENCES]
    options = make_options(tokenize="intl", lowercase=True, smooth="floor", smooth_value=0.1)
    stats, _ = corpus_statistics(hyps, refs, options)
    change = replace_segment(stats, 2, refs[0][2], [r[2] for r in refs], options, 2)
    edited = list(hyps)
    edited[2] = refs[0][2]
    assert change.after == corpus_bleu(edited, refs, options)
    assert change.sentence_after == pytest.approx(1.0)
    with pytest.raises(ValueError, match="segment index"):
        replace_segment(stats, 8, "x", ["y"], options, 2)


def test_relative_diagnosis_against_other_systems(pairs: list[Pair]) -> None:
    pair = next(p for p in pairs if p.name == "de-en")
    refs = [read_plain(pair.references[0])]
    results = {p.name: corpus_bleu(read_plain(p), refs) for p in pair.systems}
    weakest = min(results, key=lambda name: results[name].score)
    stats, _ = corpus_statistics(read_plain(next(p for p in pair.systems if p.name == weakest)), refs, OPTIONS)
    analysis = analyze_corpus(stats, OPTIONS, 1)
    others = {name: r for name, r in results.items() if name != weakest}
    found = relative_diagnosis(analysis, others)
    codes = [f.code for f in found.findings]
    assert (
        (BELOW_OTHERS in codes or BELOW_OTHERS_SEVERAL in codes)
        and LOWEST_GAP in codes
        and DECAY_REGULAR in codes
        and SHORT in codes
    )
    assert COSTLIEST_EXPECTED in codes
    gap = next(f for f in found.findings if f.code == LOWEST_GAP)
    assert gap.bleu_if_typical is not None and gap.bleu_if_typical > analysis.result.score
    p1 = next(c for c in found.comparisons if c.term == "p1")
    assert p1.rank == len(results) and p1.systems == len(results)
    ordered = sorted(r.counts[0] / r.totals[0] for r in others.values())
    middle = len(ordered) // 2
    assert p1.median == pytest.approx(
        ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2, abs=1e-15
    )
    # With p1 at the others' median, BLEU follows from the scorer's own terms.
    expected = math.exp(sum(t.value for t in analysis.terms if t.name != "p1") + 0.25 * math.log(p1.median or 1))
    assert p1.bleu_if_median == pytest.approx(expected)
    with pytest.raises(ValueError, match="other settings"):
        relative_diagnosis(analysis, {"x": corpus_bleu(read_plain(pair.systems[0]), refs, tokenize="intl")})


def test_relative_diagnosis_finds_a_broken_decay() -> None:
    options = make_options()
    stats, _ = corpus_statistics(["a b c d e f g h"], [["a b c d x e f g h"]], options)
    found = relative_diagnosis(analyze_corpus(stats, options, 1))
    breaks = [f for f in found.findings if f.code == DECAY_BREAKS]
    assert breaks and breaks[0].term in ("p3", "p4") and breaks[0].value < (breaks[0].typical or 0)
    assert found.comparisons == () and found.others == 0


def test_read_frequencies() -> None:
    assert read_frequencies(["the 10", "", "The 2"], lowercase=True) == {"the": 12}
    with pytest.raises(ValueError, match="line 2 of the frequency file"):
        read_frequencies(["a 1", "b x"])


def test_reference_frequency_counts_every_stream() -> None:
    corpus = tokenize_corpus(["a"], [["a a"], ["a b"]], "13a", False)
    assert reference_frequencies(count_ngrams(corpus, 1)) == Counter({"a": 3, "b": 1})
    assert replace(OPTIONS).tokenize == "13a"


def test_source_lengths_count_chinese_characters() -> None:
    from bleu_core.corpus.word_accuracy import source_lengths

    assert source_lengths(["Das ist gut.", "我们今天去公园", ""]).tolist() == [4, 7, 0]


corpus_lines = st.lists(
    st.tuples(
        st.text(alphabet="ab c.", max_size=12),
        st.text(alphabet="ab c.", max_size=12),
        st.text(alphabet="ab c.", max_size=12),
    ),
    min_size=1,
    max_size=6,
)


@given(corpus_lines, st.data())
def test_what_if_equals_recomputation_on_random_corpora(lines: list[tuple[str, str, str]], data: st.DataObject) -> None:
    hyps = [h for h, _, _ in lines]
    refs = [[r for _, r, _ in lines], [r for _, _, r in lines]]
    index = data.draw(st.integers(0, len(hyps) - 1))
    new = data.draw(st.text(alphabet="ab c.", max_size=12))
    stats, _ = corpus_statistics(hyps, refs, OPTIONS)
    change = replace_segment(stats, index, new, [r[index] for r in refs], OPTIONS, 2)
    edited = list(hyps)
    edited[index] = new
    assert change.after == corpus_bleu(edited, refs, OPTIONS)


@given(corpus_lines)
def test_word_buckets_sum_to_the_unigram_statistics(lines: list[tuple[str, str, str]]) -> None:
    hyps = [h for h, _, _ in lines]
    refs = [[r for _, r, _ in lines], [r for _, _, r in lines]]
    counts = count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 1)
    buckets = frequency_buckets(word_counts(counts), reference_frequencies(counts))
    result = corpus_bleu(hyps, refs, OPTIONS)
    assert sum(b.matched for b in buckets) == result.counts[0]
    assert sum(b.hypothesis for b in buckets) == result.totals[0]
    assert all(b.matched <= min(b.hypothesis, b.reference) for b in buckets)


def test_length_ratios_and_their_bins_counted_by_hand() -> None:
    from bleu_core.corpus.diagnosis import length_ratios, ratio_bins
    from bleu_core.stats.segment_stats import SegmentStats

    c, r = [3, 10, 7, 0, 40, 5], [4, 10, 0, 6, 5, 9]
    n = len(c)
    stats = SegmentStats(np.zeros((n, 4), np.int64), np.zeros((n, 4), np.int64), np.array(c), np.array(r))
    ratios = length_ratios(stats)
    expected = [ci / ri if ri else None for ci, ri in zip(c, r, strict=True)]
    assert [None if np.isnan(x) else x for x in ratios] == expected
    edges, counts = ratio_bins(ratios)
    by_hand = [0] * 31
    for x in expected:
        if x is not None:
            by_hand[min(int(round(min(x, 3.0) * 10, 9)), 30)] += 1
    assert counts.tolist() == by_hand and edges[0] == 0.0 and edges[-1] == pytest.approx(3.1)
