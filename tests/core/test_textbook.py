"""The worked examples of classic BLEU walkthroughs, with exact fractions."""

from __future__ import annotations

import math

import pytest
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_core import sentence_bleu
from bleu_core.teach.explain import explain

CAT_REFS = ["the cat is on the mat", "there is a cat on the mat"]
PAPINENI_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]
PAPINENI_1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
PAPINENI_2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
FOX_REF = "the quick brown fox jumped over the lazy dog"
TEXTBOOK = {"smooth": "none", "effective_order": False, "tokenize": "none"}


def fractions(candidate: str, references: list[str], **options: object) -> list[str]:
    return [o.fraction for o in explain(candidate, references, **{**TEXTBOOK, **options}).orders]  # type: ignore[arg-type]


def test_love_can_always_do_three_orders_with_a_length_tie() -> None:
    trace = explain(
        "the love can always do",
        ["love can always find a way", "love makes anything possible"],
        max_order=3,
        weights=[1 / 3, 1 / 3, 1 / 3],
        **TEXTBOOK,  # type: ignore[arg-type]
    )
    assert [o.fraction for o in trace.orders] == ["3/5", "2/4", "1/3"]
    assert [o.precision for o in trace.orders] == [3 / 5, 1 / 2, 1 / 3]
    assert trace.length.reference_lengths == (6, 4)
    assert trace.length.tied_indices == (0, 1)
    assert trace.length.chosen_length == 4
    assert "shorter" in trace.length.reason
    assert trace.bp == 1.0
    assert trace.score == pytest.approx((3 / 5 * 1 / 2 * 1 / 3) ** (1 / 3), rel=1e-12)
    assert round(trace.score, 3) == 0.464


@pytest.mark.parametrize(
    ("candidate", "order", "fraction"),
    [
        ("the the the the the the the", 1, "2/7"),
        ("the cat the cat on the mat", 2, "4/6"),
    ],
)
def test_clipping_against_the_cat_references(candidate: str, order: int, fraction: str) -> None:
    assert fractions(candidate, CAT_REFS)[order - 1] == fraction


def test_the_cat_three_times_counts_cat_on_from_the_second_reference() -> None:
    # The first reference repeats "the cat" so that clipping at 2 is visible; "cat on" is matched by the
    # second reference (tutorials that print 5/8 forget it): the cat 2 + cat the 1 + cat on + on the + the mat.
    refs = ["the cat the cat is on the mat", "there is a cat on the mat"]
    trace = explain("the cat the cat the cat on the mat", refs, **TEXTBOOK)  # type: ignore[arg-type]
    bigrams = trace.orders[1]
    assert bigrams.fraction == "6/8"
    clipped = {row.text: row.clipped for row in bigrams.rows}
    assert clipped == {"the cat": 2, "cat the": 1, "cat on": 1, "on the": 1, "the mat": 1}
    assert {row.text: row.best_reference for row in bigrams.rows}["cat on"] == 1


def test_papineni_candidates() -> None:
    assert fractions(PAPINENI_1, PAPINENI_REFS) == ["17/18", "10/17", "7/16", "4/15"]
    assert fractions(PAPINENI_2, PAPINENI_REFS)[:2] == ["8/14", "1/13"]


def test_papineni_brevity_examples() -> None:
    trace = explain("of the", PAPINENI_REFS, **TEXTBOOK)  # type: ignore[arg-type]
    assert [o.fraction for o in trace.orders[:2]] == ["2/2", "1/1"]
    assert trace.length.chosen_length == 16  # the shortest reference is the closest to c = 2
    assert trace.bp == pytest.approx(math.exp(1 - 16 / 2))
    refs = ["I always do.", "I invariably do.", "I perpetually do."]
    long = explain("I always invariably perpetually do.", refs, **{**TEXTBOOK, "tokenize": "13a"})  # type: ignore[arg-type]
    assert [o.fraction for o in long.orders] == ["6/6", "3/5", "1/4", "0/3"]
    assert long.bp == 1.0
    short = explain("I always do.", refs, **{**TEXTBOOK, "tokenize": "13a"})  # type: ignore[arg-type]
    assert short.score == 1.0


@pytest.mark.parametrize(
    ("candidate", "expected"),
    [
        ("the fast brown fox jumped over the lazy dog", 0.7506238537503395),
        ("the fast brown fox jumped over the sleepy dog", 0.4854917717073234),
        ("the quick brown fox jumped over the", 0.7514772930752859),
        ("the quick brown fox jumped over the lazy dog from space", None),
    ],
)
def test_quick_brown_fox_variations_equal_nltk(candidate: str, expected: float | None) -> None:
    nltk_score = nltk_sentence_bleu([FOX_REF.split()], candidate.split())
    ours = sentence_bleu(candidate, [FOX_REF], **TEXTBOOK)  # type: ignore[arg-type]
    assert ours.score == pytest.approx(nltk_score, rel=1e-12)
    if expected is not None:
        assert ours.score == pytest.approx(expected, rel=1e-12)


def test_matlab_fast_brown_fox_summary() -> None:
    summary = "The fast brown fox jumped over the lazy dog."
    refs = ["The quick brown animal jumped over the lazy dog.", "The quick brown fox jumped over the lazy dog."]
    four = sentence_bleu(summary, refs, weights=[1, 1, 1, 1], smooth="none", effective_order=False)
    two = sentence_bleu(summary, refs, weights=[1, 1], smooth="none", effective_order=False)
    assert four.counts == (9, 7, 6, 5) and four.totals == (10, 9, 8, 7)
    assert round(four.score, 4) == 0.7825
    assert round(two.score, 4) == 0.8367
    assert two.score == pytest.approx(math.sqrt(9 / 10 * 7 / 9), rel=1e-12)


def test_nltk_smoothing_table_equals_real_nltk() -> None:
    from nltk.translate.bleu_score import SmoothingFunction

    from bleu_core.tools.nltk_bleu import nltk_smoothing_scores

    trace = explain("the cat the cat on the mat", CAT_REFS, **TEXTBOOK)  # type: ignore[arg-type]
    scores = nltk_smoothing_scores(trace)
    smoothing = SmoothingFunction()
    refs = [ref.split() for ref in CAT_REFS]
    for i in range(8):
        expected = nltk_sentence_bleu(refs, trace.candidate_tokens, smoothing_function=getattr(smoothing, f"method{i}"))
        assert scores[f"method{i}"] == pytest.approx(expected, rel=1e-12)
