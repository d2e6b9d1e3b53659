"""Hypothesis-generated corpora and text: identical to sacreBLEU in every setting."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

import bleu_core
from bleu_core.stats.counting import prepare_references, segment_statistics, stream_statistics

# Small vocabularies make matches, repeats and ties likely; odd characters exercise the tokenizers.
WORDS = ["the", "cat", "a", "mat", "on", "is", "The", "CAT", "3.5", "1,000", "x-y", "2-3", "&amp;", "&quot;"]
ODD = [*".,;:!?-'\"()[]{}<>/&%$#@^*_~`|+=", "é", "ß", "Σ", "ς", "猫", "の", "\u0301", "\u200b", "\ufeff", "\t"]
word = st.sampled_from(WORDS)
odd_text = st.text(alphabet=st.sampled_from(ODD + list("abc019 ")), max_size=30)
line = st.one_of(st.lists(word, max_size=12).map(" ".join), odd_text)
SETTINGS = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(["13a", "intl", "zh", "char", "none"]),
        "smooth": st.sampled_from(["none", "floor", "add-k", "exp"]),
        "max_order": st.integers(1, 6),
        "effective_order": st.booleans(),
        "lowercase": st.booleans(),
    }
)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    n = draw(st.integers(1, 6))  # sacreBLEU itself fails on an empty corpus
    k = draw(st.integers(1, 3))
    hyps = draw(st.lists(line, min_size=n, max_size=n))
    refs = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(k)]
    return hyps, refs


@given(corpora(), SETTINGS)
def test_corpus_bleu_equals_sacrebleu(corpus: tuple[list[str], list[list[str]]], settings: dict) -> None:
    hyps, refs = corpus
    theirs = BLEU(
        tokenize=settings["tokenize"],
        smooth_method=settings["smooth"],
        max_ngram_order=settings["max_order"],
        effective_order=settings["effective_order"],
        lowercase=settings["lowercase"],
    ).corpus_score(hyps, refs)
    ours = bleu_core.corpus_bleu(hyps, refs, **settings)
    assert abs(ours.score_100 - theirs.score) <= 1e-9
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    if settings["smooth"] != "add-k":
        assert list(ours.counts) == list(theirs.counts)
        assert list(ours.totals) == list(theirs.totals)


@given(st.lists(line, min_size=1, max_size=5), SETTINGS)
def test_sentence_scores_equal_sacrebleu(hyps: list[str], settings: dict) -> None:
    refs = [list(reversed(hyps)), [h[::-1] for h in hyps]]
    metric = BLEU(
        tokenize=settings["tokenize"],
        smooth_method=settings["smooth"],
        max_ngram_order=settings["max_order"],
        effective_order=settings["effective_order"],
        lowercase=settings["lowercase"],
    )
    expected = [metric.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    ours = bleu_core.sentence_scores(hyps, refs, **settings)
    assert [round(100 * o, 9) for o in ours] == pytest.approx(expected, abs=1e-9)


@st.composite
def corpora_with_gaps(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    hyps, refs = draw(corpora())
    gappy: list[list[str | None]] = [list(stream) for stream in refs]
    for stream in gappy[1:]:  # the first stream is complete, so every segment keeps a reference
        for i in draw(st.sets(st.integers(0, len(hyps) - 1))):
            stream[i] = None
    return hyps, gappy


@given(corpora_with_gaps(), SETTINGS)
def test_references_counted_once_or_prepared_give_the_same_statistics(
    corpus: tuple[list[str], list[list[str | None]]], settings: dict
) -> None:
    # A single score counts the references together with the hypothesis; the compare page prepares them.
    hyps, refs = corpus
    options = {"tokenize": settings["tokenize"], "lowercase": settings["lowercase"], "max_order": settings["max_order"]}
    once, n_refs = stream_statistics(hyps, refs, **options)
    prepared = segment_statistics(hyps, prepare_references(refs, **options))
    assert np.array_equal(once.as_matrix(), prepared.as_matrix())
    assert n_refs == prepare_references(refs, **options).n_refs
