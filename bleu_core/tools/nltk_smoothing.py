"""NLTK 3.10's ``SmoothingFunction().method0``-``method7`` (Chen & Cherry 2014 numbering), with NLTK's Python types.

NLTK keeps a precision as an unreduced ``Fraction`` (``2/4`` stays ``2/4``) until a method divides floats, and
Python's fraction arithmetic reads the unreduced numerator and denominator, so the exact objects a method
returns (and the last bits of a score) depend on doing the same operations on the same kinds of objects.  Each
method here is NLTK's, operation for operation, on the precisions it is given: a list is changed in place by
methods 3 to 7, as NLTK's are.  Smoothing sees the corpus hypothesis length and the LAST segment's hypothesis
and references (what ``corpus_bleu`` passes).
"""

from __future__ import annotations

import fractions
import math
import numbers
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bleu_core.stats.clipping import clipped_matches, ngram_counts
from bleu_core.tools.base import OriginalToolError

#: NLTK's ``SmoothingFunction`` method names.
NLTK_SMOOTHING_METHODS: tuple[str, ...] = tuple(f"method{i}" for i in range(8))

# A precision as NLTK holds it after smoothing: an exact Fraction, or a float once a method divides floats.
Precision = fractions.Fraction | float

#: How each method changes a precision, for the trace's notes.
METHOD_NOTES: dict[int, str] = {n: f"tools.method{n}" for n in range(2, 8)}


class Fraction(fractions.Fraction):
    """NLTK's precision m/d, kept as counted: ``numerator`` and ``denominator`` are m and d unreduced.

    On Python 3.11 the fraction itself stays unreduced (as NLTK's does there), so comparisons and arithmetic
    behave as NLTK's (``Fraction(0, 3) == 0`` is False there); from 3.12 it is reduced and only the two
    properties keep the counted pair, again as NLTK's.
    """

    _counted: tuple[int, int]

    def __new__(cls, numerator: int = 0, denominator: int | None = None) -> Fraction:
        base: Any = fractions.Fraction
        try:
            self: Fraction = base.__new__(cls, numerator, denominator, _normalize=False)
        except TypeError:  # Python 3.12 and later have no _normalize
            self = base.__new__(cls, numerator, denominator)
        self._counted = (numerator, denominator)  # type: ignore[assignment]
        return self

    @property
    def numerator(self) -> int:
        return self._counted[0]

    @property
    def denominator(self) -> int:
        return self._counted[1]


@dataclass(frozen=True, slots=True)
class SmoothingInput:
    """What NLTK's smoothing methods receive besides the precisions: the (last segment's) references and
    hypothesis as given, ``hyp_len`` (the corpus hypothesis length; falsy: the hypothesis' own), and the
    ``SmoothingFunction``'s epsilon (method1), alpha (method6) and k (methods 4 and 7), used as given."""

    references: Any
    hypothesis: Any
    hyp_len: Any
    epsilon: Any = 0.1
    alpha: Any = 5
    k: Any = 5


def smoothing_method(smoothing: object) -> int:
    """The method number of ``"method0"``..``"method7"``, an int 0-7, or None (method0)."""
    if smoothing is None:
        return 0
    if isinstance(smoothing, str):
        if smoothing in NLTK_SMOOTHING_METHODS:
            return int(smoothing[-1])
        raise ValueError(f"unknown NLTK smoothing {smoothing!r}; choose one of {', '.join(NLTK_SMOOTHING_METHODS)}")
    if isinstance(smoothing, bool):
        raise TypeError(f"smoothing must be 'method0'..'method7' or an int 0-7; got {smoothing!r}")
    if isinstance(smoothing, numbers.Integral):
        if 0 <= int(smoothing) <= 7:
            return int(smoothing)
        raise ValueError(f"NLTK smoothing methods are numbered 0-7; got {smoothing!r}")
    raise TypeError(f"smoothing must be 'method0'..'method7' or an int 0-7; got {smoothing!r}")


def modified_precision(references: Any, hypothesis: Sequence[Any], n: int) -> Fraction:
    """NLTK's ``modified_precision``: clipped n-gram matches over candidate n-grams (at least 1), unreduced.

    The clipping is :func:`bleu_core.stats.clipping.clipped_matches`; NLTK's own failure is kept: with no references
    it looks the hypothesis' first n-gram up in an empty table (KeyError).
    """
    has_ngrams = len(hypothesis) >= n
    refs = [reference if isinstance(reference, list) else list(reference) for reference in references]
    if has_ngrams and not refs:
        ngram_counts(list(hypothesis), n)  # NLTK counts the hypothesis first: an unhashable token fails there
        raise KeyError(tuple(list(hypothesis)[:n]))
    if not has_ngrams:
        for reference in refs:  # NLTK counts the references' n-grams all the same (unhashable tokens fail)
            if len(reference) >= n:
                ngram_counts(reference, n)
        return Fraction(0, 1)
    hyp = hypothesis if isinstance(hypothesis, list) else list(hypothesis)
    matches, total = clipped_matches(hyp, refs, n)
    return Fraction(matches, max(1, total))


def smooth(method: int, p_n: Any, given: SmoothingInput) -> Any:
    """NLTK's ``methodN`` on the precisions ``p_n``, operation for operation (methods 3-7 change ``p_n``)."""
    if method == 0:
        # No smoothing: a zero precision becomes the smallest float, so log() works (NLTK also warns).
        return [p_i if p_i.numerator != 0 else sys.float_info.min for p_i in p_n]
    if method == 1:
        eps = given.epsilon  # add epsilon to zero numerators
        return [(p_i.numerator + eps) / p_i.denominator if p_i.numerator == 0 else p_i for p_i in p_n]
    if method == 2:
        # Lin & Och (2004): add one to numerator and denominator of every order but the first.
        return [Fraction(p_n[i].numerator + 1, p_n[i].denominator + 1) if i != 0 else p_n[0] for i in range(len(p_n))]
    if method == 3:
        # NIST geometric: the k-th zero precision becomes 1 / (2^k * denominator).
        incvnt = 1
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0:
                p_n[i] = 1 / (2**incvnt * p_i.denominator)
                incvnt += 1
        return p_n
    hyp_len = given.hyp_len if given.hyp_len else len(given.hypothesis)
    if method == 4:
        return _method4(p_n, hyp_len, given.k)
    if method == 5:
        return _method5(p_n, given)
    if method == 6:
        return _method6(p_n, given)
    return _method5(_method4(p_n, hyp_len, given.k), given)


def _method4(p_n: Any, hyp_len: Any, k: Any) -> Any:
    """Zero precisions get 1 / (2^i * k / ln(hyp_len)) matches (none when hyp_len <= 1, so they drop out)."""
    incvnt = 1
    for i, p_i in enumerate(p_n):
        if p_i.numerator == 0 and hyp_len > 1:
            numerator = 1 / (2**incvnt * k / math.log(hyp_len))
            p_n[i] = numerator / p_i.denominator
            incvnt += 1
    return p_n


def _method5(p_n: Any, given: SmoothingInput) -> Any:
    """Average of orders n-1, n, n+1; the order after the last is always the last segment's 5-gram precision."""
    p_n_plus1 = p_n + [modified_precision(given.references, given.hypothesis, 5)]  # noqa: RUF005 (NLTK's `+`)
    previous: dict[int, Any] = {-1: p_n[0] + 1}
    for i, p_i in enumerate(p_n):
        p_n[i] = (previous[i - 1] + p_i + p_n_plus1[i + 1]) / 3
        previous[i] = p_n[i]
    return p_n


def _method6(p_n: Any, given: SmoothingInput) -> Any:
    """Gao & He (2013): interpolate with the prior p_{n-1}^2 / p_{n-2} (needs a non-zero trigram precision)."""
    if len(p_n) < 3:
        raise OriginalToolError("NLTK's method6 needs at least 3 n-gram orders (it raises IndexError on p_n[2])")
    if not p_n[2]:
        raise OriginalToolError(
            "NLTK's method6 fails its assertion 'This smoothing method requires non-zero precision for bigrams' "
            "(it actually checks the trigram precision, which is 0 here)"
        )
    alpha, hypothesis = given.alpha, given.hypothesis
    for i, p_i in enumerate(p_n):
        if i in (0, 1):
            continue
        pi0 = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
        m = p_i.numerator
        ngrams_in_hypothesis = max(0, len(hypothesis) - i)
        p_n[i] = (m + alpha * pi0) / (ngrams_in_hypothesis + alpha)
    return p_n
