"""NLTK 3.10's BLEU API on :mod:`bleu_core.tools.nltk`: ``from bleu_core.nltk_api import corpus_bleu, ...``.

``sentence_bleu``, ``corpus_bleu`` (one weight tuple or several), ``SmoothingFunction`` (methods 0-7),
``modified_precision``, ``closest_ref_length`` and ``brevity_penalty`` take NLTK's arguments and give its
values bit for bit: the rules live in :mod:`bleu_core.tools.nltk` (one trace per weight vector); this module
only translates NLTK's calling conventions and its exceptions.  Tokens may be any hashable values (a str is
read as a sequence of characters, as NLTK does).  Differences: a custom smoothing callable (not one of
``SmoothingFunction``'s methods) and negative or non-finite weights are refused with TypeError/ValueError.
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction as _Fraction
from typing import Any

import numpy as np

from .i18n import message
from .statistics import closest_ref_length as _closest
from .token_lists import token_list_statistics
from .tools.base import CorpusCounts, CorpusSums, OriginalToolError, count_corpus
from .tools.nltk import DEFAULT_WEIGHTS, _nltk_traces
from .tools.nltk import brevity_penalty as _brevity_penalty
from .tools.nltk_smoothing import SmoothingInput, smooth

__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "modified_precision",
    "sentence_bleu",
]


class Fraction(_Fraction):
    """A precision m/d that remembers m and d as counted (NLTK sums them unreduced across segments)."""

    _counted: tuple[int, int]

    def __new__(cls, numerator: int = 0, denominator: int | None = None) -> Fraction:
        base: Any = _Fraction
        try:  # Python 3.11 can keep the fraction unreduced, so that it compares as NLTK's does
            self: Fraction = base.__new__(cls, numerator, denominator, _normalize=False)
        except TypeError:  # Python 3.12 and later reduce it; the counted pair is kept below
            self = base.__new__(cls, numerator, denominator)
        self._counted = (numerator, 1 if denominator is None else denominator)
        return self

    @property
    def numerator(self) -> int:
        return self._counted[0]

    @property
    def denominator(self) -> int:
        return self._counted[1]


class SmoothingFunction:
    """NLTK's smoothing methods (Chen & Cherry 2014); pass one as ``smoothing_function=...method1``."""

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def _apply(self, method: int, p_n: Sequence[Any], references: Any, hypothesis: Any, hyp_len: Any) -> list[Any]:
        hyp = _tokens(hypothesis, {}) if hypothesis is not None else []
        refs = [_tokens(ref, {}) for ref in references] if references is not None else []
        given = SmoothingInput(
            [p.numerator for p in p_n],
            [p.denominator for p in p_n],
            refs,
            hyp,
            len(hyp) if hyp_len is None else hyp_len,
            self.epsilon,
            self.alpha,
            self.k,
        )
        smoothed: list[Any] = _native_errors(smooth, method, given)
        result = [_as_given(value, p, method) for value, p in zip(smoothed, p_n, strict=True)]
        if method in _IN_PLACE and isinstance(p_n, list):
            p_n[:] = result  # NLTK's methods 3 to 7 change the caller's list and return it
            return p_n
        return result

    def method0(self, p_n: Sequence[Any], references: Any = None, hypothesis: Any = None, hyp_len: Any = None,
                *args: Any, **kwargs: Any) -> list[Any]:  # fmt: skip
        return self._apply(0, p_n, references, hypothesis, hyp_len)

    def method1(self, p_n: Sequence[Any], references: Any = None, hypothesis: Any = None, hyp_len: Any = None,
                *args: Any, **kwargs: Any) -> list[Any]:  # fmt: skip
        return self._apply(1, p_n, references, hypothesis, hyp_len)

    def method2(self, p_n: Sequence[Any], references: Any = None, hypothesis: Any = None, hyp_len: Any = None,
                *args: Any, **kwargs: Any) -> list[Any]:  # fmt: skip
        return self._apply(2, p_n, references, hypothesis, hyp_len)

    def method3(self, p_n: Sequence[Any], references: Any = None, hypothesis: Any = None, hyp_len: Any = None,
                *args: Any, **kwargs: Any) -> list[Any]:  # fmt: skip
        return self._apply(3, p_n, references, hypothesis, hyp_len)

    def method4(self, p_n: Sequence[Any], references: Any, hypothesis: Any, hyp_len: Any = None,
                *args: Any, **kwargs: Any) -> list[Any]:  # fmt: skip
        return self._apply(4, p_n, references, hypothesis, hyp_len)

    def method5(self, p_n: Sequence[Any], references: Any, hypothesis: Any, hyp_len: Any = None,
                *args: Any, **kwargs: Any) -> list[Any]:  # fmt: skip
        return self._apply(5, p_n, references, hypothesis, hyp_len)

    def method6(self, p_n: Sequence[Any], references: Any, hypothesis: Any, hyp_len: Any = None,
                *args: Any, **kwargs: Any) -> list[Any]:  # fmt: skip
        return self._apply(6, p_n, references, hypothesis, hyp_len)

    def method7(self, p_n: Sequence[Any], references: Any, hypothesis: Any, hyp_len: Any = None,
                *args: Any, **kwargs: Any) -> list[Any]:  # fmt: skip
        return self._apply(7, p_n, references, hypothesis, hyp_len)


_METHODS = {f"method{i}": i for i in range(8)}
_IN_PLACE = frozenset({3, 4, 5, 6, 7})


def _as_given(value: Any, given: Any, method: int) -> Any:
    """A smoothed precision as NLTK returns it: the caller's own object when unchanged, else unreduced.

    NLTK's unreduced fractions compare unequal to reduced ones (13/13 != 1/1), so the form matters.
    """
    if not isinstance(value, _Fraction):
        return value
    if value == _Fraction(given.numerator, given.denominator):
        return given
    if method == 2:
        return Fraction(given.numerator + 1, given.denominator + 1)
    return value


def _smoothing(function: object) -> tuple[int, tuple[float, float, float]]:
    """The method number and (epsilon, alpha, k) of a ``SmoothingFunction`` method (ours or NLTK's own)."""
    if not function:
        return 0, (0.1, 5, 5)
    owner = getattr(function, "__self__", None)
    name = getattr(getattr(function, "__func__", None), "__name__", "")
    if name in _METHODS and all(hasattr(owner, key) for key in ("epsilon", "alpha", "k")):
        return _METHODS[name], (owner.epsilon, owner.alpha, owner.k)  # type: ignore[union-attr]
    raise TypeError(
        "smoothing_function must be a method of SmoothingFunction (e.g. SmoothingFunction().method1); "
        f"bleu_core does not run custom smoothing callables; got {function!r:.60}"
    )


_STR = frozenset({str})


def _tokens(sequence: Iterable[Hashable], names: dict[Hashable, str]) -> list[str]:
    """Hashable tokens as strings that are equal exactly when the tokens are (a str token stays itself)."""
    items = list(sequence)
    if set(map(type, items)) <= _STR:
        return items  # type: ignore[return-value]
    out = []
    for token in items:
        if type(token) is str and token not in names:
            names[token] = token
        out.append(names.setdefault(token, f"\x00{len(names)}"))
    return out


def _native_errors(function: Any, *args: Any) -> Any:
    """Call ``function``; where NLTK raises, raise the exception type NLTK raises."""
    try:
        return function(*args)
    except OriginalToolError as error:
        text = str(error)
        if "ZeroDivisionError" in text:
            raise ZeroDivisionError(text) from None
        if "IndexError" in text:
            raise IndexError(text) from None
        if "assertion" in text:
            raise AssertionError(text) from None
        raise


def _corpus(list_of_references: Any, hypotheses: Any) -> tuple[list[list[list[Hashable]]], list[list[Hashable]]]:
    """The corpus as lists; tokens stay as given (counting compares them as NLTK's Counters do)."""
    if len(list_of_references) != len(hypotheses):
        raise AssertionError("The number of hypotheses and their reference(s) should be the same ")
    # Lists are kept, not copied (nothing here changes them); other sequences become lists.
    hyps = [h if type(h) is list else list(h) for h in hypotheses]
    refs = [[r if type(r) is list else list(r) for r in rs] for rs in list_of_references]
    for i, references in enumerate(refs if not all(refs) else ()):
        if not references:  # NLTK fails on the first n-gram it looks up, or else on min() of no lengths
            if hyps[i]:
                raise KeyError(f"segment {i} has no references to clip its n-grams against")
            raise ValueError(f"min() iterable argument is empty (segment {i} has no references)")
    return refs, hyps


#: Corpora at least this long are counted by the vectorized engine (one pass over all segments).
VECTORIZED_SEGMENTS = 64


def _count(hyps: list[list[Hashable]], refs: list[list[list[Hashable]]], max_order: int) -> CorpusCounts | CorpusSums:
    """Clipped counts of every segment, summed: bleu_core's vectorized engine for long corpora
    (:func:`bleu_core.token_lists.token_list_statistics`), segment by segment for short ones."""
    if len(hyps) < VECTORIZED_SEGMENTS:
        return count_corpus(hyps, refs, max_order)  # type: ignore[arg-type]
    return CorpusSums.of_statistics(token_list_statistics(hyps, refs, max_order))


def corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Any = None,
    auto_reweigh: bool = False,
) -> Any:
    """NLTK's ``corpus_bleu``: a float, or a list of floats for a list of weight tuples (0 without unigram match)."""
    refs, hyps = _corpus(list_of_references, hypotheses)
    method, params = _smoothing(smoothing_function)
    traces = _native_errors(_nltk_traces, refs, hyps, weights, method, bool(auto_reweigh), params, _count)
    if traces[0].score == 0 and traces[0].rule == message("tools.rule_no_unigram"):
        scores: list[Any] = [0] * len(traces)  # NLTK returns the int 0 here
    else:
        scores = [_native_errors(trace.checked_score) for trace in traces]
    return scores if len(scores) > 1 else scores[0]


def sentence_bleu(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Any = None,
    auto_reweigh: bool = False,
) -> Any:
    """NLTK's ``sentence_bleu``: ``corpus_bleu`` of a corpus of one segment."""
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


def modified_precision(references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int) -> Fraction:
    """Clipped n-gram matches over candidate n-grams, the denominator at least 1, kept unreduced."""
    names: dict[Hashable, str] = {}
    hyp = _tokens(hypothesis, names)
    refs = [_tokens(ref, names) for ref in references]
    order = _order(n)
    counts = count_corpus([hyp], [refs], order)
    return Fraction(counts.matches[order - 1], max(1, counts.totals[order - 1]))


def _order(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or int(n) < 1:
        raise TypeError(f"n must be a whole number >= 1; got {n!r}")
    return int(n)


def closest_ref_length(references: Iterable[Sequence[Hashable]], hyp_len: int) -> int:
    """The reference length closest to ``hyp_len``, ties to the shorter (ValueError without references)."""
    lengths = [len(reference) for reference in references]
    if not lengths:
        raise ValueError("min() iterable argument is empty")
    return int(_closest(np.asarray([hyp_len]), np.asarray([lengths]))[0])


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """NLTK's BP: 1 when c > r, 0 for an empty hypothesis, else exp(1 - r/c) (the first two as ints, as NLTK)."""
    value = _brevity_penalty(closest_ref_len, hyp_len)
    return int(value) if hyp_len > closest_ref_len or hyp_len == 0 else value
