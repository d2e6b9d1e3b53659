"""NLTK 3.10's ``SmoothingFunction().method0``-``method7`` (Chen & Cherry 2014 numbering), with NLTK's Python types.

NLTK keeps a precision as an exact ``Fraction`` until a method divides floats; the types matter for the last
bits of the score, so they are kept here too.  Smoothing sees the corpus sums of numerators and denominators,
the corpus hypothesis length, and the LAST segment's hypothesis and references (what ``corpus_bleu`` passes).
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..clipping import clipped_matches
from .base import OriginalToolError

#: NLTK's ``SmoothingFunction`` method names.
NLTK_SMOOTHING_METHODS: tuple[str, ...] = tuple(f"method{i}" for i in range(8))

# A precision as NLTK holds it after smoothing: an exact Fraction, or a float once a method divides floats.
Precision = Fraction | float

#: How each method changes a precision, for the trace's notes.
METHOD_NOTES: dict[int, str] = {n: f"tools.method{n}" for n in range(2, 8)}


@dataclass(frozen=True, slots=True)
class SmoothingInput:
    """What NLTK's smoothing functions receive (``hypothesis``/``references``: the last segment's)."""

    numerators: Sequence[int]
    denominators: Sequence[int]
    references: Sequence[Sequence[str]]
    hypothesis: Sequence[str]
    hyp_len: int  # the corpus hypothesis length
    epsilon: float
    alpha: float
    k: float


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


def check_smoothing_params(epsilon: object, alpha: object, k: object) -> None:
    """``SmoothingFunction``'s epsilon (method1), alpha (method6) and k (methods 4, 7): finite and positive.

    They are then used as given (an int stays an int, as in NLTK, which keeps Fractions exact)."""
    for name, value in (("epsilon", epsilon), ("alpha", alpha), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
            raise TypeError(f"{name} must be a finite number; got {value!r}")
        if float(value) <= 0:
            raise ValueError(f"{name} must be positive; got {value!r}")


def smooth(method: int, given: SmoothingInput) -> list[Precision]:
    """NLTK's ``methodN`` step by step: the p_n that enter the log."""
    numerators, denominators = given.numerators, given.denominators
    p_n: list[Precision] = [Fraction(m, d) for m, d in zip(numerators, denominators, strict=True)]
    if method == 0:
        # No smoothing: a zero precision becomes the smallest float, so log() works (NLTK also warns).
        return [p if m != 0 else sys.float_info.min for p, m in zip(p_n, numerators, strict=True)]
    if method == 1:
        eps = given.epsilon  # add epsilon to zero numerators
        return [(m + eps) / d if m == 0 else p for p, m, d in zip(p_n, numerators, denominators, strict=True)]
    if method == 2:
        # Lin & Och (2004): add one to numerator and denominator of every order but the first.
        pairs = enumerate(zip(numerators, denominators, strict=True))
        return [Fraction(m + 1, d + 1) if i != 0 else p_n[0] for i, (m, d) in pairs]
    if method == 3:
        # NIST geometric: the k-th zero precision becomes 1 / (2^k * denominator).
        incvnt = 1
        for i, (m, d) in enumerate(zip(numerators, denominators, strict=True)):
            if m == 0:
                p_n[i] = 1 / (2**incvnt * d)
                incvnt += 1
        return p_n
    if method == 6:
        return _method6(p_n, given)
    if method in (4, 7):
        p_n = _method4(p_n, given)
        if method == 4:
            return p_n
    return _method5(p_n, given)


def _method4(p_n: list[Precision], given: SmoothingInput) -> list[Precision]:
    """Zero precisions get 1 / (2^i * k / ln(hyp_len)) matches (none when hyp_len <= 1, so they drop out)."""
    incvnt = 1
    for i, (m, d) in enumerate(zip(given.numerators, given.denominators, strict=True)):
        if m == 0 and given.hyp_len > 1:
            numerator = 1 / (2**incvnt * given.k / math.log(given.hyp_len))
            p_n[i] = numerator / d
            incvnt += 1
    return p_n


def _method5(p_n: list[Precision], given: SmoothingInput) -> list[Precision]:
    """Average of orders n-1, n, n+1; the order after the last is always the last segment's 5-gram precision.

    That 5-gram precision divides by at least 1, like every NLTK precision (NLTK's ``max(1, total)``).
    """
    m5, t5 = clipped_matches(given.hypothesis, given.references, 5)
    plus_one = [*p_n, Fraction(m5, max(1, t5))]
    previous: dict[int, Precision] = {-1: p_n[0] + 1}
    for i, p_i in enumerate(plus_one[:-1]):
        p_n[i] = (previous[i - 1] + p_i + plus_one[i + 1]) / 3
        previous[i] = p_n[i]
    return p_n


def _method6(p_n: list[Precision], given: SmoothingInput) -> list[Precision]:
    """Gao & He (2013): interpolate with the prior p_{n-1}^2 / p_{n-2} (needs a non-zero trigram precision)."""
    if len(p_n) < 3:
        raise OriginalToolError("NLTK's method6 needs at least 3 n-gram orders (it raises IndexError on p_n[2])")
    if not p_n[2]:
        raise OriginalToolError(
            "NLTK's method6 fails its assertion 'This smoothing method requires non-zero precision for bigrams' "
            "(it actually checks the trigram precision, which is 0 here)"
        )
    alpha = given.alpha
    for i in range(2, len(p_n)):
        pi0: Precision = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
        ngrams_in_last_hypothesis = max(0, len(given.hypothesis) - i)
        p_n[i] = (given.numerators[i] + alpha * pi0) / (ngrams_in_last_hypothesis + alpha)
    return p_n
