"""NLTK 3.10's BLEU API on :mod:`bleu_core.tools.nltk_bleu`: ``from bleu_core.nltk_api import corpus_bleu, ...``.

``sentence_bleu``, ``corpus_bleu`` (one weight tuple or several), ``SmoothingFunction`` (methods 0-7),
``modified_precision``, ``closest_ref_length`` and ``brevity_penalty`` take NLTK's arguments and give its
values bit for bit: the rules live in :mod:`bleu_core.tools.nltk_bleu` (one trace per weight vector) and
:mod:`bleu_core.tools.nltk_smoothing` (NLTK's methods, operation for operation on NLTK's own objects); this module
only translates NLTK's calling conventions and its exceptions.  Tokens may be any hashable values (a str is
read as a sequence of characters, as NLTK does); weights any real numbers; ``smoothing_function`` one of
``SmoothingFunction``'s methods (ours or NLTK's) or any function, called as NLTK calls it.  The few differences
that remain are listed in ``docs/dropin-differences.md``.
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Iterable, Sequence
from itertools import chain
from typing import Any

import numpy as np

from bleu_core.i18n import message
from bleu_core.stats.segment_stats import closest_ref_length as _closest
from bleu_core.stats.token_lists import token_list_statistics
from bleu_core.tools.base import CorpusCounts, CorpusSums, OriginalToolError, count_corpus
from bleu_core.tools.nltk_bleu import DEFAULT_WEIGHTS, nltk_traces
from bleu_core.tools.nltk_bleu import brevity_penalty as _brevity_penalty
from bleu_core.tools.nltk_smoothing import Fraction, SmoothingInput, smooth
from bleu_core.tools.nltk_smoothing import modified_precision as _modified_precision

__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "modified_precision",
    "sentence_bleu",
]


class SmoothingFunction:
    """NLTK's smoothing methods (Chen & Cherry 2014); pass one as ``smoothing_function=...method1``.

    The parameters are used as NLTK uses them, unchecked: a value a method cannot use fails where NLTK's fails.
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def _apply(self, method: int, p_n: Any, references: Any, hypothesis: Any, hyp_len: Any) -> Any:
        given = SmoothingInput(references, hypothesis, hyp_len, self.epsilon, self.alpha, self.k)
        return _native_errors(smooth, method, p_n, given)

    def method0(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        return self._apply(0, p_n, None, None, None)

    def method1(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        return self._apply(1, p_n, None, None, None)

    def method2(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        return self._apply(2, p_n, None, None, None)

    def method3(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        return self._apply(3, p_n, None, None, None)

    def method4(
        self, p_n: Any, references: Any, hypothesis: Any, hyp_len: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        return self._apply(4, p_n, references, hypothesis, hyp_len)

    def method5(
        self, p_n: Any, references: Any, hypothesis: Any, hyp_len: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        return self._apply(5, p_n, references, hypothesis, hyp_len)

    def method6(
        self, p_n: Any, references: Any, hypothesis: Any, hyp_len: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        return self._apply(6, p_n, references, hypothesis, hyp_len)

    def method7(
        self, p_n: Any, references: Any, hypothesis: Any, hyp_len: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        return self._apply(7, p_n, references, hypothesis, hyp_len)


_METHODS = {f"method{i}": i for i in range(8)}
#: The classes whose ``methodN`` are NLTK's own methods: ours, and NLTK's (recognised by name, not imported).
_OWN_CLASSES = {("bleu_core.nltk_api", "SmoothingFunction"), ("nltk.translate.bleu_score", "SmoothingFunction")}


def _smoothing(function: object) -> tuple[int | Any, tuple[Any, Any, Any]]:
    """The method number and (epsilon, alpha, k) of a ``SmoothingFunction`` method (ours or NLTK's own), or a
    caller's own function as it is (called as NLTK calls it)."""
    if not function:
        return 0, (0.1, 5, 5)
    owner = getattr(function, "__self__", None)
    code = getattr(function, "__func__", None)
    name = getattr(code, "__name__", "")
    defined_in = (getattr(code, "__module__", ""), getattr(code, "__qualname__", "").rpartition(".")[0])
    if name in _METHODS and defined_in in _OWN_CLASSES:
        return _METHODS[name], (owner.epsilon, owner.alpha, owner.k)  # type: ignore[union-attr]
    if not callable(function):
        raise TypeError(f"'{type(function).__name__}' object is not callable")
    return function, (0.1, 5, 5)


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
            # ... after counting the segments before it and this hypothesis (an unhashable token fails there first)
            for tokens in chain(hyps[: i + 1], chain.from_iterable(refs[:i])):
                set(tokens)
            if hyps[i]:
                raise KeyError(f"segment {i} has no references to clip its n-grams against")
            raise ValueError(f"min() iterable argument is empty (segment {i} has no references)")
    return refs, hyps


#: Corpora at least this long are counted by the vectorized engine (one pass over all segments).
VECTORIZED_SEGMENTS = 64


def _count(hyps: list[list[Hashable]], refs: list[list[list[Hashable]]], max_order: int) -> CorpusCounts | CorpusSums:
    """Clipped counts of every segment, summed: bleu_core's vectorized engine for long corpora
    (:func:`bleu_core.stats.token_lists.token_list_statistics`), segment by segment for short ones."""
    if len(hyps) < VECTORIZED_SEGMENTS:
        for hyp, references in zip(hyps, refs, strict=True):
            if not hyp:  # NLTK counts the references' words even then: an unhashable one fails (TypeError)
                for reference in references:
                    set(reference)
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
    traces = _native_errors(nltk_traces, refs, hyps, weights, method, bool(auto_reweigh), params, _count, False)
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
    return _modified_precision(references, hypothesis, _order(n))


def _order(n: object) -> int:
    if not isinstance(n, numbers.Integral) or int(n) < 1:
        raise TypeError(f"n must be a whole number >= 1; got {n!r}")
    return int(n)


def closest_ref_length(references: Iterable[Sequence[Hashable]], hyp_len: Any) -> int:
    """The reference length closest to ``hyp_len``, ties to the shorter (ValueError without references).

    The shared rule (:func:`bleu_core.stats.segment_stats.closest_ref_length`) for whole-number lengths; any other
    ``hyp_len`` by NLTK's own expression (``min`` by distance, then length)."""
    lengths = [len(reference) for reference in references]
    if not lengths:
        raise ValueError("min() iterable argument is empty")
    if not isinstance(hyp_len, numbers.Integral):
        return min(lengths, key=lambda length: (abs(length - hyp_len), length))
    return int(_closest(np.asarray([int(hyp_len)]), np.asarray([lengths]))[0])


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """NLTK's BP: 1 when c > r, 0 for an empty hypothesis, else exp(1 - r/c) (the first two as ints, as NLTK)."""
    value = _brevity_penalty(closest_ref_len, hyp_len)
    return int(value) if hyp_len > closest_ref_len or hyp_len == 0 else value
