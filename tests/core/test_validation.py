"""Bad input raises ValueError or TypeError with a message that says what is wrong; empty strings are valid."""

from __future__ import annotations

import math

import numpy as np
import pytest

import bleu_core
from bleu_core.teach.explain import explain

HYPS = ["the cat sat", "a dog"]
REFS = [["the cat sat down", "a dog barked"]]


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"weights": [0.5, -0.5]}, ValueError, "non-negative"),
        ({"weights": [0, 0, 0, 0]}, ValueError, "positive sum"),
        ({"weights": [math.nan, 1]}, ValueError, "finite"),
        ({"weights": [math.inf, 1]}, ValueError, "finite"),
        ({"weights": []}, ValueError, "at least one"),
        ({"weights": "0.25"}, TypeError, "sequence"),
        ({"weights": [1, 1], "max_order": 3}, ValueError, "max_order is 3"),
        ({"weights": ["a", 1]}, TypeError, "numbers"),
        ({"max_order": 0}, ValueError, "at least 1"),
        ({"max_order": -2}, ValueError, "at least 1"),
        ({"max_order": 2.5}, TypeError, "whole number"),
        ({"max_order": "4"}, TypeError, "whole number"),
        ({"tokenize": "moses"}, ValueError, "unknown tokenizer"),
        ({"smooth": "method1"}, ValueError, "unknown smoothing"),
        ({"smooth": "floor", "smooth_value": -1}, ValueError, ">= 0"),
        ({"smooth": "add-k", "smooth_value": math.nan}, ValueError, ">= 0"),
        ({"lowercase": "yes"}, TypeError, "True or False"),
        ({"max_order": 101}, ValueError, "at most 100"),
        ({"weights": [1] * 101}, ValueError, "at most 100"),
        ({"weights": np.array(1.0)}, TypeError, "sequence of numbers"),
        ({"weights": [10**400, 1]}, ValueError, "too large for a float"),
        ({"smooth": "add-k", "smooth_value": 10**400}, ValueError, "too large for a float"),
        ({"smooth": "floor", "smooth_value": 1.5}, ValueError, "between 0 and 1"),
    ],
)
def test_invalid_options(kwargs: dict, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        bleu_core.corpus_bleu(HYPS, REFS, **kwargs)
    with pytest.raises(error, match=fragment):
        explain(HYPS[0], [REFS[0][0]], **kwargs)


@pytest.mark.parametrize(
    ("hyps", "refs", "error", "fragment"),
    [
        (HYPS, [["only one line"]], ValueError, "has 1 lines but there are 2 hypotheses"),
        (HYPS, [], ValueError, "no references"),
        (HYPS, ["the cat sat down", "a dog barked"], TypeError, "list of streams"),
        ("the cat sat", REFS, TypeError, "single str"),
        ([None, "a"], REFS, TypeError, r"hypotheses\[0\] must be a str"),
        ([1.5, "a"], REFS, TypeError, "float"),
        ([b"bytes", "a"], REFS, TypeError, "decode"),
        (HYPS, [["x", 3]], TypeError, r"references\[0\]\[1\] must be a str"),
        (HYPS, [[None, "x"]], ValueError, "segment 1 has no reference"),
        (HYPS, "ref", TypeError, "single string"),
        (HYPS, 42, TypeError, "list of strings"),
        (set(HYPS), REFS, TypeError, "hypotheses must be a list of strings in segment order; a set"),
        (dict.fromkeys(HYPS), REFS, TypeError, "hypotheses .* a dict has no such order"),
        (HYPS, [frozenset(REFS[0])], TypeError, r"references\[0\] .* a frozenset has no such order"),
    ],
)
def test_invalid_corpus_input(hyps: object, refs: object, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        bleu_core.corpus_bleu(hyps, refs)  # type: ignore[arg-type]


def test_sentence_input_errors() -> None:
    with pytest.raises(TypeError, match="hypothesis must be a str"):
        bleu_core.sentence_bleu(None, ["x"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="single str"):
        bleu_core.sentence_bleu("x", "x y")
    with pytest.raises(ValueError, match="no references"):
        bleu_core.sentence_bleu("x", [])


def test_empty_strings_are_valid() -> None:
    assert bleu_core.sentence_bleu("", [""]).score == 0.0
    assert bleu_core.sentence_bleu("", ["a b"]).bp == 0.0
    assert bleu_core.corpus_bleu([], [[]]).score == 0.0
    result = bleu_core.corpus_bleu(["", "the cat sat on"], [["", "the cat sat on"]])
    assert result.score == 1.0 and result.sys_len == 4


def test_numpy_bools_and_huge_weights_are_accepted() -> None:
    assert bleu_core.corpus_bleu(HYPS, REFS, lowercase=np.bool_(True)).options.lowercase is True
    assert bleu_core.corpus_bleu(HYPS, REFS, weights=[1e308, 1e308]).options.weights == (0.5, 0.5)


def test_weights_are_normalized_and_set_max_order() -> None:
    result = bleu_core.corpus_bleu(HYPS, REFS, weights=[2, 2])
    assert result.options.max_order == 2
    assert result.options.weights == (0.5, 0.5)
    assert bleu_core.corpus_bleu(HYPS, REFS, weights=np.array([1.0, 1.0])).score == result.score


def test_missing_references_are_skipped_like_sacrebleu() -> None:
    result = bleu_core.corpus_bleu(["a b c d", "e f"], [["a b c d", None], [None, "e f"]])
    assert result.score == 1.0
    assert result.n_refs == 1


def test_caller_lists_are_not_mutated() -> None:
    hyps, refs = list(HYPS), [list(REFS[0])]
    bleu_core.corpus_bleu(hyps, refs, smooth="add-k")
    assert hyps == HYPS and refs == REFS
