"""Other tools' BLEU: differential tests against the real NLTK, documented numbers, hand-checked cases."""

from __future__ import annotations

import math
import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

import bleu_core
from bleu_core import nltk_api
from bleu_core.gaps.conventions import FIELDS, description
from bleu_core.tools import (
    IMPLEMENTATIONS,
    OriginalToolError,
    compare_corpus_implementations,
    compare_implementations,
)
from bleu_core.tools.hf_evaluate import hf_evaluate_bleu
from bleu_core.tools.matlab import matlab_bleu_evaluation_score
from bleu_core.tools.multi_bleu import multi_bleu_perl
from bleu_core.tools.nltk_bleu import DEFAULT_WEIGHTS
from bleu_core.tools.nltk_legacy import nltk_legacy_sentence_bleu
from bleu_core.tools.sacrebleu_bleu import sacrebleu_corpus_bleu, sacrebleu_sentence_bleu
from bleu_core.tools.torchmetrics_bleu import torchmetrics_bleu


def words(text: str) -> list[str]:
    """Whitespace tokens (the examples below are written as text for readability)."""
    return text.split()


# ---------------------------------------------------------------------------
# Differential tests against the real NLTK
# ---------------------------------------------------------------------------

# A four-word vocabulary makes matches, repeats, clipping and length ties common.
tokens = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=8)
references = st.lists(tokens, min_size=1, max_size=3)
# Unnormalized weights of 1-6 orders, zeros included, plus NLTK's default tuple (for auto_reweigh).
weight_vector = st.one_of(
    st.just((0.25, 0.25, 0.25, 0.25)),
    st.lists(st.one_of(st.just(0.0), st.floats(0.0, 2.0)), min_size=1, max_size=6).map(tuple),
)
weights = st.one_of(weight_vector, st.lists(weight_vector, min_size=1, max_size=3))
params = st.fixed_dictionaries(
    {
        "epsilon": st.sampled_from([0.1, 0.01, 0.5, 1.0]),
        "alpha": st.sampled_from([5, 1, 2.5, 10]),
        "k": st.sampled_from([5, 1, 3, 0.5]),
    }
)
# NLTK's own failures (method6 without a trigram match) and nothing else.
NLTK_ERRORS = (AssertionError, IndexError, ZeroDivisionError, ValueError, KeyError)


def run_nltk(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, BaseException | None]:
    """Call NLTK with its warnings silenced; return (result, None) or (None, the exception it raised)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function(*args, **kwargs), None
        except NLTK_ERRORS as error:
            return None, error


def nltk_corpus_bleu(
    list_of_references: Any,
    hypotheses: Any,
    weights: Any = DEFAULT_WEIGHTS,
    smoothing: Any = 0,
    auto_reweigh: bool = False,
    **params: float,
) -> Any:
    """bleu_core's NLTK API (:mod:`bleu_core.nltk_api`) with the smoothing method named by number or "methodN"."""
    return nltk_api.corpus_bleu(list_of_references, hypotheses, weights, _method(smoothing, params), auto_reweigh)


def nltk_sentence_bleu(references: Any, hypothesis: Any, *args: Any, **params: Any) -> Any:
    """:func:`nltk_corpus_bleu` of one segment (what ``nltk_api.sentence_bleu`` is)."""
    return nltk_corpus_bleu([references], [hypothesis], *args, **params)


def _method(smoothing: Any, params: dict[str, float]) -> Any:
    return getattr(nltk_api.SmoothingFunction(**params), f"method{int(str(smoothing).removeprefix('method'))}")


def assert_same(ours: float | list[float], theirs: float | list[float]) -> None:
    if isinstance(theirs, list):
        assert isinstance(ours, list)
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=0.0), (a, b)
    else:
        assert not isinstance(ours, list)
        assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=0.0), (ours, theirs)


def smoothing_function(method: int, p: dict[str, float]) -> Callable[..., Any]:
    chen_cherry = nltk_bleu.SmoothingFunction(epsilon=p["epsilon"], alpha=p["alpha"], k=p["k"])
    return getattr(chen_cherry, f"method{method}")  # type: ignore[no-any-return]


@given(references, tokens, weights, st.integers(0, 7), st.booleans(), params)
def test_sentence_bleu_equals_nltk(
    refs: list[list[str]],
    hyp: list[str],
    w: Any,
    method: int,
    auto_reweigh: bool,
    p: dict[str, float],
) -> None:
    smoother = smoothing_function(method, p)
    theirs, error = run_nltk(
        nltk_bleu.sentence_bleu, refs, hyp, w, smoothing_function=smoother, auto_reweigh=auto_reweigh
    )
    smoothing = method if method % 2 else f"method{method}"  # both spellings
    if error is not None:
        with pytest.raises(type(error)):
            nltk_sentence_bleu(refs, hyp, w, smoothing, auto_reweigh, **p)
        return
    assert_same(nltk_sentence_bleu(refs, hyp, w, smoothing, auto_reweigh, **p), theirs)


@given(st.lists(st.tuples(references, tokens), max_size=4), weights, st.integers(0, 7), st.booleans(), params)
def test_corpus_bleu_equals_nltk(
    corpus: list[tuple[list[list[str]], list[str]]],
    w: Any,
    method: int,
    auto_reweigh: bool,
    p: dict[str, float],
) -> None:
    refs = [r for r, _ in corpus]
    hyps = [h for _, h in corpus]
    smoother = smoothing_function(method, p)
    theirs, error = run_nltk(
        nltk_bleu.corpus_bleu, refs, hyps, w, smoothing_function=smoother, auto_reweigh=auto_reweigh
    )
    if error is not None:
        with pytest.raises(type(error)):
            nltk_corpus_bleu(refs, hyps, w, method, auto_reweigh, **p)
        return
    assert_same(nltk_corpus_bleu(refs, hyps, w, method, auto_reweigh, **p), theirs)


PAPINENI_HYP = words("It is a guide to action which ensures that the military always obeys the commands of the party")
PAPINENI_REFS = [
    words("It is a guide to action that ensures that the military will forever heed Party commands"),
    words(
        "It is the guiding principle which guarantees the military forces always being under the command of the Party"
    ),
    words("It is the practical guide for the army always to heed the directions of the party"),
]


@pytest.mark.parametrize("method", range(8))
def test_nltk_docstring_sentence_and_smoothing_values(method: int) -> None:
    # The example of NLTK's own docstrings: 0.5045... unsmoothed; every method on the same sentence.
    theirs, _ = run_nltk(
        nltk_bleu.sentence_bleu,
        PAPINENI_REFS,
        PAPINENI_HYP,
        smoothing_function=getattr(nltk_bleu.SmoothingFunction(), f"method{method}"),
    )
    ours = nltk_sentence_bleu(PAPINENI_REFS, PAPINENI_HYP, smoothing=f"method{method}")
    assert ours == theirs
    if method == 0:
        assert round(ours, 4) == 0.5046  # NLTK's doctest: 0.5045...


def test_nltk_quirks_are_reproduced() -> None:
    refs = [["a", "b", "c", "d"]]
    # A list of weight vectors returns a list of scores (NLTK's doctest shows BLEU-2, -3, -4 at once).
    many = [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25)]
    assert (
        nltk_sentence_bleu(PAPINENI_REFS, PAPINENI_HYP, many)
        == run_nltk(nltk_bleu.sentence_bleu, PAPINENI_REFS, PAPINENI_HYP, many)[0]
    )
    # No 3- or 4-gram match: method0 puts sys.float_info.min there, so the score is ~1e-154, not 0.
    tiny = nltk_sentence_bleu(refs, ["a", "b", "x", "c"])
    assert 0 < tiny < 1e-150
    # No unigram match: exactly 0 (an int in NLTK).
    assert nltk_sentence_bleu(refs, ["x", "y"]) == 0
    # auto_reweigh: with a 2-word hypothesis the default tuple becomes (1/2, 1/2) ...
    assert nltk_sentence_bleu(refs, ["a", "b"], auto_reweigh=True) == pytest.approx(math.exp(1 - 4 / 2))
    # ... but the same weights as a list are not "the default" (NLTK compares with a tuple).
    listed = nltk_sentence_bleu(refs, ["a", "b"], [0.25, 0.25, 0.25, 0.25], auto_reweigh=True)
    assert listed == run_nltk(nltk_bleu.sentence_bleu, refs, ["a", "b"], [0.25] * 4, auto_reweigh=True)[0]
    assert listed < 1e-150
    # Corpus smoothing looks at the LAST segment (method 5 averages in its 5-gram precision),
    # so reordering the segments changes the corpus score.
    corpus_refs = [[["a", "b", "c", "d", "e", "f"]], [["a", "b"]]]
    corpus_hyps = [["a", "b", "c", "d", "e", "f"], ["a", "c"]]
    forward = nltk_corpus_bleu(corpus_refs, corpus_hyps, smoothing="method5")
    backward = nltk_corpus_bleu(corpus_refs[::-1], corpus_hyps[::-1], smoothing="method5")
    assert forward != backward
    assert (
        forward
        == run_nltk(
            nltk_bleu.corpus_bleu, corpus_refs, corpus_hyps, smoothing_function=nltk_bleu.SmoothingFunction().method5
        )[0]
    )
    assert (
        backward
        == run_nltk(
            nltk_bleu.corpus_bleu,
            corpus_refs[::-1],
            corpus_hyps[::-1],
            smoothing_function=nltk_bleu.SmoothingFunction().method5,
        )[0]
    )


# ---------------------------------------------------------------------------
# NLTK 3.2.x: the tutorial numbers
# ---------------------------------------------------------------------------

TUTORIAL_REF = [["this", "is", "small", "test"]]
TUTORIAL_HYP = ["this", "is", "a", "test"]


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        # p1 = 3/4 (this, is, test), p2 = 1/3 ("this is"), p3 = 0/2, p4 = 0/1; c = r = 4 so BP = 1.
        ((1, 0, 0, 0), 0.750000),  # cumulative 1-gram: exp(log 3/4)
        ((0.5, 0.5, 0, 0), 0.500000),  # cumulative 2-gram: sqrt(3/4 * 1/3) = sqrt(1/4)
        # Cumulative 3-gram in the tutorial uses (0.33, 0.33, 0.33, 0), not 1/3 each:
        # exp(0.33 * (log 3/4 + log 1/3)) = exp(0.33 * log 1/4) = 0.632878 (1/3 each would give 0.629961).
        ((0.33, 0.33, 0.33, 0), 0.632878),
        # Cumulative 4-gram: exp(0.25 * (log 3/4 + log 1/3)) = (1/4)^(1/4) = 0.707107; p3 and p4 are dropped.
        ((0.25, 0.25, 0.25, 0.25), 0.707107),
        # Individual 3- and 4-gram: the only weighted order is dropped, s = 0, score = exp(0) = 1.
        ((0, 0, 1, 0), 1.0),
        ((0, 0, 0, 1), 1.0),
    ],
)
def test_legacy_nltk_tutorial_numbers(weights: tuple[float, ...], expected: float) -> None:
    assert round(nltk_legacy_sentence_bleu(TUTORIAL_REF, TUTORIAL_HYP, weights), 6) == expected


def test_legacy_differs_from_current_nltk_only_through_zero_precisions() -> None:
    current = run_nltk(nltk_bleu.sentence_bleu, TUTORIAL_REF, TUTORIAL_HYP)[0]
    assert current < 1e-150  # today's NLTK: the two zero orders contribute 0.25 * log(2.2e-308) each
    assert nltk_sentence_bleu(TUTORIAL_REF, TUTORIAL_HYP) == current
    # With every precision non-zero, legacy and current agree.
    assert nltk_legacy_sentence_bleu(PAPINENI_REFS, PAPINENI_HYP) == pytest.approx(
        run_nltk(nltk_bleu.sentence_bleu, PAPINENI_REFS, PAPINENI_HYP)[0], rel=1e-12
    )
    assert nltk_legacy_sentence_bleu(TUTORIAL_REF, ["x", "y", "z", "w"]) == 0.0  # no unigram match
    assert nltk_legacy_sentence_bleu(TUTORIAL_REF, []) == 0.0


# ---------------------------------------------------------------------------
# MATLAB bleuEvaluationScore: the documentation example
# ---------------------------------------------------------------------------

MATLAB_CANDIDATE = words("The fast brown fox jumped over the lazy dog .")
MATLAB_REFERENCES = [
    words("The quick brown animal jumped over the lazy dog ."),
    words("The quick brown fox jumped over the lazy dog ."),
]


def test_matlab_documentation_examples() -> None:
    # p1 = 9/10 (all but "fast"), p2 = 7/9, p3 = 6/8, p4 = 5/7 (the n-grams touching "fast" miss);
    # c = r = 10, BP = 1.  BLEU-4 = (9/10 * 7/9 * 6/8 * 5/7)^(1/4) = 0.375^(1/4) = 0.7825;
    # weights [0.5 0.5]: (9/10 * 7/9)^(1/2) = 0.7^(1/2) = 0.8367.
    assert round(matlab_bleu_evaluation_score(MATLAB_CANDIDATE, MATLAB_REFERENCES), 4) == 0.7825
    assert round(matlab_bleu_evaluation_score(MATLAB_CANDIDATE, MATLAB_REFERENCES, [0.5, 0.5]), 4) == 0.8367
    assert matlab_bleu_evaluation_score(MATLAB_CANDIDATE, MATLAB_REFERENCES) == pytest.approx(0.375**0.25, rel=1e-12)


def test_matlab_weights_are_normalized_and_short_candidates_score_zero() -> None:
    default = matlab_bleu_evaluation_score(MATLAB_CANDIDATE, MATLAB_REFERENCES)
    assert matlab_bleu_evaluation_score(MATLAB_CANDIDATE, MATLAB_REFERENCES, [2, 2, 2, 2]) == pytest.approx(default)
    assert matlab_bleu_evaluation_score(MATLAB_CANDIDATE, MATLAB_REFERENCES, [1, 1]) == pytest.approx(0.7**0.5)
    # Fewer words (3) than weights (4): 0, although the candidate equals the reference.
    assert matlab_bleu_evaluation_score(["a", "b", "c"], [["a", "b", "c"]]) == 0.0
    assert matlab_bleu_evaluation_score(["a", "b", "c"], [["a", "b", "c"]], [1, 1, 1]) == 1.0
    assert math.isnan(matlab_bleu_evaluation_score([], [[], []]))
    assert matlab_bleu_evaluation_score([], [["a"]], [1]) == 0.0
    # No smoothing: a zero 4-gram precision zeroes the score.
    assert matlab_bleu_evaluation_score(["a", "b", "x", "c"], [["a", "b", "c", "d"]]) == 0.0
    with pytest.raises(ValueError, match="non-negative"):
        matlab_bleu_evaluation_score(MATLAB_CANDIDATE, MATLAB_REFERENCES, [1, -1])


# ---------------------------------------------------------------------------
# sacreBLEU wrappers: equal to the real sacreBLEU
# ---------------------------------------------------------------------------

SACRE_HYPS = ["The cat sat on the mat.", "It rained, heavily, all day!", "x"]
SACRE_REFS = [
    ["The cat is on the mat.", "It rained heavily all day.", "y z"],
    ["A cat sat on the mat.", "All day it rained, heavily!", "x"],
]


def test_sacrebleu_wrappers_equal_sacrebleu() -> None:
    assert sacrebleu_corpus_bleu(SACRE_HYPS, SACRE_REFS) == pytest.approx(
        sacrebleu.corpus_bleu(SACRE_HYPS, SACRE_REFS).score, abs=1e-9
    )
    for i, hyp in enumerate(SACRE_HYPS):
        refs = [stream[i] for stream in SACRE_REFS]
        assert sacrebleu_sentence_bleu(hyp, refs) == pytest.approx(sacrebleu.sentence_bleu(hyp, refs).score, abs=1e-9)


# ---------------------------------------------------------------------------
# Hugging Face evaluate: hand-checked
# ---------------------------------------------------------------------------


def test_hf_uses_the_shortest_reference() -> None:
    # Prediction a b c d (c = 4); references "a b c d e" (5) and "a b" (2).
    # HF: r = min(5, 2) = 2, ratio = 4/2 = 2 > 1, BP = 1.  Every n-gram of the prediction is in the
    # first reference: 4/4, 3/3, 2/2, 1/1, so BLEU = 1.
    # Closest-length tools pick r = 5 (|5-4| = 1 < |2-4| = 2): BP = exp(1 - 5/4) = exp(-0.25) = 0.7788.
    prediction = ["a", "b", "c", "d"]
    refs = [["a", "b", "c", "d", "e"], ["a", "b"]]
    assert hf_evaluate_bleu([prediction], [refs]) == {
        "bleu": 1.0,
        "precisions": [1.0, 1.0, 1.0, 1.0],
        "brevity_penalty": 1.0,
        "length_ratio": 2.0,
        "translation_length": 4,
        "reference_length": 2,
    }
    assert nltk_sentence_bleu(refs, prediction) == pytest.approx(math.exp(-0.25), rel=1e-12)


def test_hf_brevity_penalty_and_smoothing_every_order() -> None:
    # Prediction a b c (c = 3), reference a b c d e f (r = 6).  Candidate n-grams: 3, 2, 1, 0,
    # all matching.  Unsmoothed: p4 has no candidate 4-gram -> 0.0, so BLEU = 0.
    # ratio = 3/6 = 0.5, BP = exp(1 - 1/0.5) = exp(-1) = 0.367879.
    # smooth=True: (3+1)/(3+1), (2+1)/(2+1), (1+1)/(1+1), (0+1)/(0+1) are all 1, BLEU = BP = exp(-1).
    prediction = ["a", "b", "c"]
    refs = [["a", "b", "c", "d", "e", "f"]]
    plain = hf_evaluate_bleu([prediction], [refs])
    assert plain["bleu"] == 0.0
    assert plain["precisions"] == [1.0, 1.0, 1.0, 0.0]
    assert plain["length_ratio"] == 0.5
    assert plain["brevity_penalty"] == pytest.approx(math.exp(-1), rel=1e-15)
    assert hf_evaluate_bleu([prediction], [refs], smooth=True)["bleu"] == pytest.approx(math.exp(-1), rel=1e-15)
    # Prediction a x, reference a b: p1 = 1/2, p2 = 0/1, no 3- or 4-grams; c = r = 2.
    # smooth=True smooths unigrams too: 2/3, 1/2, 1/1, 1/1 -> (2/3 * 1/2)^(1/4) = (1/3)^(1/4) = 0.759836;
    # ratio = 1 is not > 1, so BP = exp(1 - 1/1) = 1.
    smoothed = hf_evaluate_bleu([["a", "x"]], [[["a", "b"]]], smooth=True)
    assert smoothed["precisions"] == pytest.approx([2 / 3, 1 / 2, 1.0, 1.0], rel=1e-15)
    assert smoothed["bleu"] == pytest.approx((1 / 3) ** 0.25, rel=1e-12)
    # torchmetrics returns 0 for the same pair even when smoothing: the bigram numerator is 0.
    assert torchmetrics_bleu([["a", "x"]], [[["a", "b"]]], smooth=True) == 0.0
    # Empty prediction: current evaluate sets ratio = BP = 0 instead of dividing by zero.
    empty = hf_evaluate_bleu([[]], [[["a"]]])
    assert (empty["bleu"], empty["length_ratio"], empty["brevity_penalty"]) == (0.0, 0.0, 0.0)


def test_hf_documentation_example_with_13a_tokens() -> None:
    # evaluate's docstring: predictions "hello there general kenobi", "foo bar foobar" against
    # ["hello there general kenobi", "hello there!"] and ["foo bar foobar"] -> 1.0.
    # 13a splits "there!" so the second reference has 3 tokens: r = min(4, 3) + 3 = 6 < c = 7, BP = 1;
    # every candidate n-gram matches: 7/7, 5/5, 3/3, 1/1.
    predictions = ["hello there general kenobi", "foo bar foobar"]
    refs = [["hello there general kenobi", "hello there!"], ["foo bar foobar"]]
    result = hf_evaluate_bleu(
        [bleu_core.tokenize_line(p) for p in predictions],
        [[bleu_core.tokenize_line(r) for r in segment] for segment in refs],
    )
    assert result["bleu"] == 1.0
    assert (result["translation_length"], result["reference_length"]) == (7, 6)


# ---------------------------------------------------------------------------
# torchmetrics: hand-checked
# ---------------------------------------------------------------------------


def test_torchmetrics_documentation_example() -> None:
    # torchmetrics' docstring: 'the cat is on the mat' vs ['there is a cat on the mat', 'a cat is on the mat']
    # prints tensor(0.7598).  c = 6; reference lengths 7 and 6 -> r = 6, BP = exp(1 - 6/6) = 1.
    # 1-grams: the x2 (clipped to 1), cat, is, on, mat -> 5/6; 2-grams: cat is, is on, on the, the mat -> 4/5;
    # 3-grams: cat is on, is on the, on the mat -> 3/4; 4-grams: cat is on the, is on the mat -> 2/3.
    # (5/6 * 4/5 * 3/4 * 2/3)^(1/4) = (1/3)^(1/4) = 0.7598.
    pred = words("the cat is on the mat")
    target = [words("there is a cat on the mat"), words("a cat is on the mat")]
    score = torchmetrics_bleu([pred], [target])
    assert round(score, 4) == 0.7598
    assert score == pytest.approx((1 / 3) ** 0.25, rel=1e-12)


def test_torchmetrics_breaks_length_ties_by_order() -> None:
    # Prediction a b c d (c = 4); references of length 5 and 3 are both 1 away.
    # torchmetrics takes the first listed: r = 5, BP = exp(1 - 5/4) = exp(-0.25) = 0.778801;
    # all precisions are 1 (the 5-word reference contains every n-gram).  Listed the other way, r = 3 < c: BP = 1.
    # NLTK and multi-bleu.perl take the shorter (r = 3) whatever the order.
    pred = ["a", "b", "c", "d"]
    long_first = [["a", "b", "c", "d", "e"], ["a", "b", "c"]]
    assert torchmetrics_bleu([pred], [long_first]) == pytest.approx(math.exp(-0.25), rel=1e-12)
    assert torchmetrics_bleu([pred], [long_first[::-1]]) == 1.0
    assert nltk_sentence_bleu(long_first, pred) == 1.0
    assert multi_bleu_perl(["a b c d"], [["a b c d e"], ["a b c"]]) == 100.0


def test_torchmetrics_smoothing_and_weights() -> None:
    # Prediction a b c, reference a b d (c = r = 3, BP = 1), n_gram = 2:
    # p1 = 2/3 (a, b), p2 = 1/2 ("a b").  Unsmoothed: sqrt(2/3 * 1/2) = sqrt(1/3) = 0.577350.
    # smooth=True keeps p1 and makes p2 = (1+1)/(2+1) = 2/3: sqrt(2/3 * 2/3) = 2/3.
    # Weights (1, 1) are not normalized: 2/3 * 1/2 = 1/3 (NLTK agrees; MATLAB normalizes to sqrt(1/3)).
    pred, target = [["a", "b", "c"]], [[["a", "b", "d"]]]
    assert torchmetrics_bleu(pred, target, n_gram=2) == pytest.approx(math.sqrt(1 / 3), rel=1e-12)
    assert torchmetrics_bleu(pred, target, n_gram=2, smooth=True) == pytest.approx(2 / 3, rel=1e-12)
    assert torchmetrics_bleu(pred, target, n_gram=2, weights=[1, 1]) == pytest.approx(1 / 3, rel=1e-12)
    assert nltk_sentence_bleu(target[0], pred[0], (1, 1)) == pytest.approx(1 / 3, rel=1e-12)
    assert matlab_bleu_evaluation_score(pred[0], target[0], [1, 1]) == pytest.approx(math.sqrt(1 / 3), rel=1e-12)
    with pytest.raises(ValueError, match="different weights than `n_gram`"):
        torchmetrics_bleu(pred, target, n_gram=2, weights=[1, 1, 1])


# ---------------------------------------------------------------------------
# multi-bleu.perl: hand-checked
# ---------------------------------------------------------------------------


def test_multi_bleu_perl_sentence() -> None:
    # "the cat sat on the mat" vs "the cat sat on a mat": c = r = 6, BP = 1.
    # 1-grams: the x2 clipped to 1, cat, sat, on, mat -> 5/6; 2-grams: the cat, cat sat, sat on -> 3/5;
    # 3-grams: the cat sat, cat sat on -> 2/4; 4-grams: the cat sat on -> 1/3.
    # 100 * (5/6 * 3/5 * 2/4 * 1/3)^(1/4) = 100 * (1/12)^(1/4) = 53.728497.
    score = multi_bleu_perl(["the cat sat on the mat"], [["the cat sat on a mat"]])
    assert score == pytest.approx(100 * (1 / 12) ** 0.25, rel=1e-12)
    assert round(score, 2) == 53.73
    # Three words have no 4-gram: TOTAL[4] = 0, my_log(0) = -9999999999, BLEU = 0 (sacreBLEU: 100).
    assert multi_bleu_perl(["a b c"], [["a b c"]]) == 0.0
    assert sacrebleu_sentence_bleu("a b c", ["a b c"]) == 100.0


def test_multi_bleu_perl_corpus_brevity_penalty_and_options() -> None:
    # Segments "a b c d" / "a b c d" and "e f" / "e f g h": c = 4 + 2 = 6, r = 4 + 4 = 8.
    # 1-grams 4 + 2 = 6/6, 2-grams 3 + 1 = 4/4, 3-grams 2 + 0 = 2/2, 4-grams 1 + 0 = 1/1: all precisions 1.
    # BP = exp(1 - 8/6) = exp(-1/3) = 0.716531 -> 71.653131.
    score = multi_bleu_perl(["a b c d", "e f"], [["a b c d", "e f g h"]])
    assert score == pytest.approx(100 * math.exp(-1 / 3), rel=1e-12)
    # -lc: "The cat sat on" vs "the cat sat on" scores 0 (the 4-gram misses) unless lowercased.
    assert multi_bleu_perl(["The cat sat on"], [["the cat sat on"]]) == 0.0
    assert multi_bleu_perl(["The cat sat on"], [["the cat sat on"]], lowercase=True) == 100.0
    # A reference file without line i (None) just leaves that segment with fewer references.
    assert multi_bleu_perl(["a b c d", "a b c d"], [["a b c d", None], ["x", "a b c d"]]) == 100.0
    # r = 0: the script prints BLEU = 0; all hypotheses empty: it dies dividing by zero.
    assert multi_bleu_perl(["a b c d"], [[""]]) == 0.0
    with pytest.raises(OriginalToolError, match="Illegal division by zero"):
        multi_bleu_perl([""], [["a b"]])


# ---------------------------------------------------------------------------
# Registry and comparison
# ---------------------------------------------------------------------------


def test_registry_describes_every_implementation_once() -> None:
    """Each tool's record holds its point; every choice of it reads in words in both languages."""
    assert list(IMPLEMENTATIONS) == [impl.key for impl in IMPLEMENTATIONS.values()]
    for impl in IMPLEMENTATIONS.values():
        assert impl.scale == impl.point.scale and impl.scale in {"0-1", "0-100"}
        assert all(isinstance(value, str) and value for value in (impl.name, impl.source))
        for field in FIELDS:
            for lang in ("en", "zh"):
                words = description(field, getattr(impl.point, field)).render(lang)
                assert words and "waterfall." not in words, (impl.key, field, lang)
    assert IMPLEMENTATIONS["hf-evaluate"].point.length_rule == "shortest"
    assert IMPLEMENTATIONS["torchmetrics"].point.length_rule == "closest-first"
    assert IMPLEMENTATIONS["d2l"].point.references == "first"


def test_compare_implementations_on_one_sentence() -> None:
    candidate = "the cat sat on the mat."
    refs = ["the cat is on the mat.", "there is a cat on the mat."]
    rows = compare_implementations(candidate, refs)
    assert [impl.key for impl, _, _ in rows] == list(IMPLEMENTATIONS)
    by_key = {impl.key: (native, unit) for impl, native, unit in rows}
    for impl, native, unit in rows:
        assert unit == (native / 100 if impl.scale == "0-100" else native)
        assert 0.0 <= unit <= 1.0
    assert by_key["sacrebleu"][0] == bleu_core.sentence_bleu(candidate, refs).score_100
    tokens = [bleu_core.tokenize_line(r) for r in refs]
    assert by_key["hf-evaluate"][0] == hf_evaluate_bleu([bleu_core.tokenize_line(candidate)], [tokens])["bleu"]
    assert by_key["nltk"][0] == nltk_sentence_bleu([r.split() for r in refs], candidate.split())
    # The 4-gram precision is 0 here: the unsmoothed tools give 0 (NLTK ~1e-78), sacreBLEU does not.
    assert by_key["multi-bleu"][0] == by_key["torchmetrics"][0] == by_key["matlab"][0] == 0.0
    assert 0 < by_key["nltk"][0] < 1e-70
    assert by_key["sacrebleu"][1] > 0.4


def test_compare_marks_tool_failures_as_nan() -> None:
    rows = {impl.key: native for impl, native, _ in compare_implementations("", ["a b"])}
    assert math.isnan(rows["multi-bleu"])  # the Perl script dies on an all-empty hypothesis file
    assert all(score == 0.0 for key, score in rows.items() if key != "multi-bleu")
    matlab = {impl.key: native for impl, native, _ in compare_implementations("", [""])}["matlab"]
    assert math.isnan(matlab)


def test_registry_labels_and_sentence_only_tools() -> None:
    assert IMPLEMENTATIONS["nltk"].label == "NLTK"
    assert all(impl.label for impl in IMPLEMENTATIONS.values())
    assert [k for k, impl in IMPLEMENTATIONS.items() if not impl.corpus_level] == ["nltk-legacy", "matlab", "d2l"]


CORPUS_HYPS = ["the cat sat on the mat", "a dog barked at the postman", "it rained all day"]
CORPUS_REFS = [
    ["the cat is on the mat", "the dog barked at the postman", "it rained the whole day"],
    ["a cat sat on a mat", "a dog barked loudly at the postman", None],
]


def test_compare_corpus_implementations_equals_the_real_tools() -> None:
    rows = {impl.key: (native, unit) for impl, native, unit in compare_corpus_implementations(CORPUS_HYPS, CORPUS_REFS)}
    assert list(rows) == list(IMPLEMENTATIONS)
    assert rows["sacrebleu"][0] == pytest.approx(sacrebleu.corpus_bleu(CORPUS_HYPS, CORPUS_REFS).score, rel=1e-12)
    segments = [[stream[i].split() for stream in CORPUS_REFS if stream[i] is not None] for i in range(3)]
    hyps = [h.split() for h in CORPUS_HYPS]
    for key, method in (("nltk", 0), ("nltk-method1", 1)):
        smoother = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
        theirs = run_nltk(nltk_bleu.corpus_bleu, segments, hyps, smoothing_function=smoother)[0]
        assert rows[key][0] == pytest.approx(theirs, rel=1e-12)
    assert rows["torchmetrics"][0] == torchmetrics_bleu(hyps, segments)
    assert rows["multi-bleu"][0] == multi_bleu_perl(CORPUS_HYPS, CORPUS_REFS)
    assert rows["multi-bleu"][1] == rows["multi-bleu"][0] / 100
    assert math.isnan(rows["matlab"][0]) and math.isnan(rows["nltk-legacy"][0])  # sentence-only tools
    # An all-empty hypothesis file: multi-bleu.perl dies (NaN), NLTK returns 0.
    empty = {impl.key: native for impl, native, _ in compare_corpus_implementations(["", ""], [["a b", "c"]])}
    assert math.isnan(empty["multi-bleu"]) and empty["nltk"] == 0.0
    with pytest.raises(ValueError, match="lines"):
        compare_corpus_implementations(["a"], [["a", "b"]])


def test_tools_do_not_import_the_original_tools() -> None:
    code = (
        "import sys; from bleu_core import tools; "
        "tools.compare_implementations('the cat sat', ['the cat sat down']); "
        "print(sorted(m for m in ('nltk', 'sacrebleu', 'torch', 'evaluate') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

REF = [["a", "b"]]


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (lambda: hf_evaluate_bleu([["a"]], [REF], max_order=0), ValueError, "at least 1"),
        (lambda: hf_evaluate_bleu([["a"]], [[]]), ValueError, "at least one reference"),
        (lambda: torchmetrics_bleu([["a"]], [REF], n_gram=2.0), TypeError, "whole number"),
        (lambda: matlab_bleu_evaluation_score(["a"], REF, []), ValueError, "at least one"),
        (lambda: multi_bleu_perl(["a"], ["a"]), TypeError, "list of streams"),
        (lambda: compare_implementations("a", "a"), TypeError, "list of strings"),
        (lambda: compare_implementations("a", []), ValueError, "no references"),
    ],
)
def test_invalid_input_is_explained(call: Callable[[], object], error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        call()
