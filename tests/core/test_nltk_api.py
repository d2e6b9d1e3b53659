"""``bleu_core.nltk_api`` against NLTK 3.10.4: the same values bit for bit (and type), the same exception types."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any

import pytest
from nltk.translate import bleu_score as nltk

import bleu_core.nltk_api as ours
from tests.conftest import Pair, read_plain

WEIGHTS: list[Any] = [
    (0.25, 0.25, 0.25, 0.25),
    (0.5, 0.5),
    [(0.25, 0.25, 0.25, 0.25), (1 / 3, 1 / 3, 1 / 3), (1, 0, 0, 0, 0)],
    (0.1, 0.2, 0.3, 0.4, 0.5),
    [0.25, 0.25, 0.25, 0.25],
    [(0.5, 0.5)],
]


def outcome(module: Any, function: str, *args: Any, method: int | None = None, **kwargs: Any) -> Any:
    """The value a call returns, or the type of the exception it raises."""
    if method is not None:
        kwargs["smoothing_function"] = getattr(module.SmoothingFunction(), f"method{method}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(module, function)(*args, **kwargs)
    except Exception as error:
        return type(error)


def same(theirs: Any, mine: Any) -> bool:
    """Equal values of the same type (any Fraction for a Fraction); NaN equals NaN."""
    if isinstance(theirs, Fraction):
        return isinstance(mine, Fraction) and mine == theirs
    if isinstance(theirs, list):
        return isinstance(mine, list) and len(mine) == len(theirs) and all(map(same, theirs, mine))
    if isinstance(theirs, float) and math.isnan(theirs):
        return isinstance(mine, float) and math.isnan(mine)
    return type(mine) is type(theirs) and mine == theirs


@pytest.fixture(scope="module")
def corpus(pairs: list[Pair]) -> tuple[list[list[list[str]]], list[list[str]]]:
    pair = next(p for p in pairs if p.name == "en-de")
    refs = [read_plain(path) for path in pair.references]
    hyps = [line.split() for line in read_plain(pair.systems[0])][:400]
    return [[stream[i].split() for stream in refs] for i in range(len(hyps))], hyps


@pytest.mark.parametrize("method", range(8))
@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
def test_corpus_and_sentences_every_method(
    corpus: tuple[list[list[list[str]]], list[list[str]]], method: int, weights: Any
) -> None:
    refs, hyps = corpus
    theirs = outcome(nltk, "corpus_bleu", refs, hyps, weights, method=method)
    assert same(theirs, outcome(ours, "corpus_bleu", refs, hyps, weights, method=method))
    for i in range(0, len(hyps), 23):
        theirs = outcome(nltk, "sentence_bleu", refs[i], hyps[i], weights, method=method)
        assert same(theirs, outcome(ours, "sentence_bleu", refs[i], hyps[i], weights, method=method)), i


@pytest.mark.parametrize(
    "args",
    [
        ([[1, 2, 3, 4]], [1, 2, 3]),
        (["abcd", "abd"], "abc"),
        ([[("x",), 1, 2.0]], [("x",), 1.0, 2]),
        ([["a"]], []),
        ([], ["a"]),
        ([], []),
        ([["a", "b"]], ["a", "b"]),
        ([[[1], 2]], [[1], 2]),
    ],
    ids=["ints", "strings-as-characters", "equal-numbers", "empty-hypothesis", "no-references", "nothing", "short",
         "unhashable"],
)  # fmt: skip
@pytest.mark.parametrize("auto_reweigh", [False, True])
def test_odd_inputs(args: tuple[Any, Any], auto_reweigh: bool) -> None:
    for method in (0, 1, 4, 6):
        theirs = outcome(nltk, "sentence_bleu", *args, auto_reweigh=auto_reweigh, method=method)
        assert same(theirs, outcome(ours, "sentence_bleu", *args, auto_reweigh=auto_reweigh, method=method))


def test_a_long_corpus_of_odd_tokens() -> None:
    """Long enough for the vectorized counter: mixed token types, a varying number of references, empty lines."""
    vocabulary: list[Any] = ["a", "b", "a b", "", 1, 1.0, True, 2, ("a",), None, "1"]
    hyps = [[vocabulary[(i * 7 + j * 3) % len(vocabulary)] for j in range(i % 9)] for i in range(150)]
    refs = [
        [[vocabulary[(i * 5 + j * k + k) % len(vocabulary)] for j in range((i + k) % 11)] for k in range(1 + i % 3)]
        for i in range(150)
    ]
    for method in (0, 1, 5, 7):
        theirs = outcome(nltk, "corpus_bleu", refs, hyps, WEIGHTS[2], method=method)
        assert same(theirs, outcome(ours, "corpus_bleu", refs, hyps, WEIGHTS[2], method=method)), method


@pytest.mark.parametrize(
    "args",
    [([], []), ([[["a"]]], [["a"], ["b"]]), ([[["a", "b", "c"]]], [["a", "b", "c"]]), ([[["a"]]], [["b"]])],
    ids=["empty", "length-mismatch", "exact", "no-match"],
)
@pytest.mark.parametrize("method", [0, 6])
def test_corpus_errors_and_zero(args: tuple[Any, Any], method: int) -> None:
    assert same(outcome(nltk, "corpus_bleu", *args, method=method), outcome(ours, "corpus_bleu", *args, method=method))


def test_helpers(corpus: tuple[list[list[list[str]]], list[list[str]]]) -> None:
    refs, hyps = corpus
    for i in range(0, 60, 7):
        for n in range(1, 6):
            theirs, mine = nltk.modified_precision(refs[i], hyps[i], n), ours.modified_precision(refs[i], hyps[i], n)
            assert (mine, mine.numerator, mine.denominator) == (theirs, theirs.numerator, theirs.denominator)
        for length in (0, 5, 17, 40):
            assert ours.closest_ref_length(refs[i], length) == nltk.closest_ref_length(refs[i], length)
    for r, c in [(10, 7), (7, 10), (0, 0), (3, 0), (5, 5)]:
        assert same(nltk.brevity_penalty(r, c), ours.brevity_penalty(r, c))
    assert outcome(ours, "closest_ref_length", [], 3) is outcome(nltk, "closest_ref_length", [], 3)


def test_smoothing_methods_called_directly(corpus: tuple[list[list[list[str]]], list[list[str]]]) -> None:
    refs, hyps = corpus
    for i in (0, 5, 9):
        for method in range(8):
            # Fresh precisions for every call: NLTK's methods 3 to 7 change the list they are given.
            theirs_p = [nltk.modified_precision(refs[i], hyps[i], n) for n in range(1, 5)]
            mine_p = [ours.modified_precision(refs[i], hyps[i], n) for n in range(1, 5)]
            args = (refs[i], hyps[i], len(hyps[i]))
            theirs = outcome(nltk.SmoothingFunction(), f"method{method}", theirs_p, *args)
            mine = outcome(ours.SmoothingFunction(), f"method{method}", mine_p, *args)
            # Equal values; NLTK's unreduced fractions (24713/29952 for 1901/2304) are not always reproduced.
            assert as_floats(theirs) == as_floats(mine) and as_floats(theirs_p) == as_floats(mine_p), method


def as_floats(values: Any) -> Any:
    return [float(v) for v in values] if isinstance(values, list) else values


def test_nltks_own_smoothing_objects_and_custom_callables_are_used_as_nltk_uses_them() -> None:
    refs, hyp = [["the", "cat", "sat"]], ["the", "cat"]
    method = nltk.SmoothingFunction(epsilon=0.3).method1
    assert ours.sentence_bleu(refs, hyp, smoothing_function=method) == nltk.sentence_bleu(
        refs, hyp, smoothing_function=method
    )

    def custom(p_n: list[Any], **kwargs: Any) -> list[Any]:
        return [p if p.numerator else 0.5 / len(kwargs["hypothesis"]) for p in p_n]

    assert ours.sentence_bleu(refs, hyp, smoothing_function=custom) == nltk.sentence_bleu(
        refs, hyp, smoothing_function=custom
    )
