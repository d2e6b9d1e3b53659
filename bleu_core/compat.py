"""Other tools' BLEU, re-implemented with their own calling conventions and quirks.

"BLEU" is not one number: tools differ in tokenization, smoothing, the reference
length behind the brevity penalty, what a zero precision does, whether weights
are normalized, and the scale.  Each function here reproduces one tool exactly
(no import of that tool at run time), so a page can show why the same sentence
gets different scores, and :data:`IMPLEMENTATIONS` describes those choices as data.

All n-gram clipping is the same everywhere: a candidate n-gram counts at most
as often as it occurs in the single reference where it occurs most often.

* :func:`nltk_sentence_bleu`, :func:`nltk_corpus_bleu`: NLTK 3.10
  ``nltk.translate.bleu_score`` (token lists; smoothing methods 0-7).
* :func:`nltk_legacy_sentence_bleu`: NLTK 3.2.x, which left zero precisions out.
* :func:`matlab_bleu_evaluation_score`: MATLAB Text Analytics ``bleuEvaluationScore``.
* :func:`sacrebleu_corpus_bleu`, :func:`sacrebleu_sentence_bleu`: sacreBLEU defaults.
* :func:`hf_evaluate_bleu`: Hugging Face ``evaluate.load("bleu")`` (tensorflow/nmt ``compute_bleu``).
* :func:`torchmetrics_bleu`: ``torchmetrics.text.BLEUScore``.
* :func:`multi_bleu_perl`: Moses ``multi-bleu.perl``.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict, overload

import numpy as np

from .api import check_corpus, corpus_bleu, sentence_bleu
from .explain import choose_reference_length
from .options import make_options
from .scoring import score_statistics
from .statistics import SegmentStats
from .tokenizers import tokenize_line

__all__ = [
    "IMPLEMENTATIONS",
    "NLTK_SMOOTHING_METHODS",
    "HfBleuResult",
    "Implementation",
    "OriginalToolError",
    "compare_corpus_implementations",
    "compare_implementations",
    "hf_evaluate_bleu",
    "matlab_bleu_evaluation_score",
    "multi_bleu_perl",
    "nltk_corpus_bleu",
    "nltk_legacy_sentence_bleu",
    "nltk_sentence_bleu",
    "sacrebleu_corpus_bleu",
    "sacrebleu_sentence_bleu",
    "torchmetrics_bleu",
]

Ngram = tuple[str, ...]
#: NLTK's ``SmoothingFunction`` method names, Chen & Cherry (2014) numbering.
NLTK_SMOOTHING_METHODS: tuple[str, ...] = tuple(f"method{i}" for i in range(8))
_NLTK_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
# multi-bleu.perl's my_log(0).
_PERL_LOG_ZERO = -9999999999.0


class OriginalToolError(ValueError):
    """The original tool fails on this input (raises or dies); the message says how.

    :func:`compare_implementations` reports such a tool's score as NaN.
    """


# ---------------------------------------------------------------------------
# Shared counting and validation
# ---------------------------------------------------------------------------


def _ngram_counts(tokens: Sequence[str], n: int) -> Counter[Ngram]:
    return Counter(zip(*(tokens[i:] for i in range(n)), strict=False))  # the shortest slice ends it


def _clipped(candidate: Sequence[str], references: Sequence[Sequence[str]], n: int) -> tuple[int, int]:
    """Clipped n-gram matches of ``candidate`` and its number of n-grams.

    Every tool here clips the same way: min(candidate count, max count in any one reference).
    """
    counts = _ngram_counts(candidate, n)
    if not counts:
        return 0, 0
    ref_counts = [_ngram_counts(ref, n) for ref in references]
    if len(ref_counts) == 1:
        (only,) = ref_counts
        matches = sum(min(count, only[ngram]) for ngram, count in counts.items())
    else:
        matches = sum(min(count, max(rc[ngram] for rc in ref_counts)) for ngram, count in counts.items())
    return matches, len(candidate) - n + 1


def _check_tokens(value: object, name: str) -> list[str]:
    if isinstance(value, str):
        raise TypeError(f"{name} must be a list of tokens, not a str; split it first, e.g. {name}.split()")
    if not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a list of tokens (strings); got {type(value).__name__}")
    tokens = list(value)
    if not all(isinstance(token, str) for token in tokens):
        i, token = next((i, t) for i, t in enumerate(tokens) if not isinstance(t, str))
        raise TypeError(f"{name}[{i}] must be a str token; got {type(token).__name__} {token!r:.40}")
    return tokens


def _check_references(value: object, name: str) -> list[list[str]]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a list of references, each a list of tokens; got {type(value).__name__}")
    if not value:
        raise ValueError(f"{name} is empty; every hypothesis needs at least one reference")
    return [_check_tokens(ref, f"{name}[{k}]") for k, ref in enumerate(value)]


def _check_corpus_tokens(
    hypotheses: object, references: object, hyp_name: str, ref_name: str
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """Per-segment token lists: ``hypotheses[i]`` and its references ``references[i]``."""
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError(f"{hyp_name} must be a list of token lists; got {type(hypotheses).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(f"{ref_name} must be a list (one entry per hypothesis) of lists of token lists")
    if len(hypotheses) != len(references):
        raise ValueError(
            f"{ref_name} has {len(references)} entries but there are {len(hypotheses)} hypotheses; "
            "give one list of references per hypothesis"
        )
    hyps = [_check_tokens(h, f"{hyp_name}[{i}]") for i, h in enumerate(hypotheses)]
    refs = [_check_references(r, f"{ref_name}[{i}]") for i, r in enumerate(references)]
    return hyps, refs


def _check_weight_vector(value: object, name: str) -> tuple[float, ...]:
    """Finite non-negative numbers, at least one; not normalized."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a sequence of numbers, one per n-gram order; got {value!r:.60}")
    if not value:
        raise ValueError(f"{name} must name at least one n-gram order; got an empty sequence")
    out = []
    for n, weight in enumerate(value, start=1):
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise TypeError(f"{name} must hold numbers; got {weight!r:.40} for {n}-grams")
        number = float(weight)
        if not math.isfinite(number):
            raise ValueError(f"{name} must be finite; got {number} for {n}-grams")
        if number < 0:
            raise ValueError(f"{name} must be non-negative; got {number:g} for {n}-grams")
        out.append(number)
    return tuple(out)


def _check_order(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number >= 1; got {value!r}")
    if int(value) < 1:
        raise ValueError(f"{name} must be at least 1; got {value}")
    return int(value)


def _check_flag(value: object, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {value!r}")
    return bool(value)


# ---------------------------------------------------------------------------
# NLTK 3.10
# ---------------------------------------------------------------------------

# A precision as NLTK holds it after smoothing: an exact Fraction, or a float once a method divides floats.
_Precision = Fraction | float


def _nltk_method(smoothing: object) -> int:
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


def _nltk_weight_vectors(weights: object) -> tuple[list[tuple[float, ...]], list[bool]]:
    """Weight vectors and whether each is NLTK's default tuple (for ``auto_reweigh``).

    NLTK tries ``weights[0][0]``: if that works, ``weights`` is a list of weight vectors.
    """
    raw = weights.tolist() if isinstance(weights, np.ndarray) else weights
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise TypeError(f"weights must be a sequence of numbers or a list of such sequences; got {weights!r:.60}")
    if not raw:
        raise ValueError("weights must name at least one n-gram order; got an empty sequence")
    nested = isinstance(raw[0], (Sequence, np.ndarray)) and not isinstance(raw[0], (str, bytes))
    vectors = list(raw) if nested else [raw]
    checked = [_check_weight_vector(v, f"weights[{i}]" if nested else "weights") for i, v in enumerate(vectors)]
    # NLTK compares ``weight == (0.25, 0.25, 0.25, 0.25)``: only that tuple (not a list) is "the default".
    defaults = [isinstance(v, tuple) and v == _NLTK_DEFAULT_WEIGHTS for v in vectors]
    return checked, defaults


def _check_smoothing_params(epsilon: object, alpha: object, k: object) -> None:
    for name, value in (("epsilon", epsilon), ("alpha", alpha), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
            raise TypeError(f"{name} must be a finite number; got {value!r}")
        if float(value) <= 0:
            raise ValueError(f"{name} must be positive; got {value!r}")


def _nltk_smooth(
    method: int,
    numerators: list[int],
    denominators: list[int],
    references: list[list[str]],
    hypothesis: list[str],
    hyp_len: int,
    params: tuple[float, float, float],
) -> list[_Precision]:
    """NLTK's ``SmoothingFunction().methodN`` step by step, with the same Python types.

    ``numerators``/``denominators`` are the raw corpus sums (NLTK reads them from
    unnormalized Fractions); ``references``/``hypothesis`` are the LAST segment's,
    and ``hyp_len`` the corpus hypothesis length, exactly what NLTK's corpus_bleu passes.
    """
    epsilon, alpha, k = params
    p_n: list[_Precision] = [Fraction(m, d) for m, d in zip(numerators, denominators, strict=True)]
    if method == 0:
        # No smoothing: a zero precision becomes the smallest float, so log() works (NLTK also warns).
        return [p if m != 0 else sys.float_info.min for p, m in zip(p_n, numerators, strict=True)]
    if method == 1:
        # Add epsilon to zero numerators.
        return [(m + epsilon) / d if m == 0 else p for p, m, d in zip(p_n, numerators, denominators, strict=True)]
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
        return _nltk_method6(p_n, numerators, hypothesis, alpha)
    if method in (4, 7):
        p_n = _nltk_method4(p_n, numerators, denominators, hyp_len, k)
        if method == 4:
            return p_n
    return _nltk_method5(p_n, references, hypothesis)


def _nltk_method4(
    p_n: list[_Precision], numerators: list[int], denominators: list[int], hyp_len: int, k: float
) -> list[_Precision]:
    """Zero precisions get 1 / (2^i * k / ln(hyp_len)) matches (none when hyp_len <= 1, so they drop out)."""
    incvnt = 1
    for i, (m, d) in enumerate(zip(numerators, denominators, strict=True)):
        if m == 0 and hyp_len > 1:
            numerator = 1 / (2**incvnt * k / math.log(hyp_len))
            p_n[i] = numerator / d
            incvnt += 1
    return p_n


def _nltk_method5(p_n: list[_Precision], references: list[list[str]], hypothesis: list[str]) -> list[_Precision]:
    """Average of orders n-1, n, n+1; the order after the last is always NLTK's 5-gram precision."""
    m5, t5 = _clipped(hypothesis, references, 5)
    plus_one = [*p_n, Fraction(m5, max(1, t5))]
    previous: dict[int, _Precision] = {-1: p_n[0] + 1}
    for i, p_i in enumerate(plus_one[:-1]):
        p_n[i] = (previous[i - 1] + p_i + plus_one[i + 1]) / 3
        previous[i] = p_n[i]
    return p_n


def _nltk_method6(
    p_n: list[_Precision], numerators: list[int], hypothesis: list[str], alpha: float
) -> list[_Precision]:
    """Gao & He (2013): interpolate with the prior p_{n-1}^2 / p_{n-2} (needs a non-zero trigram precision)."""
    if len(p_n) < 3:
        raise OriginalToolError("NLTK's method6 needs at least 3 n-gram orders (it raises IndexError on p_n[2])")
    if not p_n[2]:
        raise OriginalToolError(
            "NLTK's method6 fails its assertion 'This smoothing method requires non-zero precision for bigrams' "
            "(it actually checks the trigram precision, which is 0 here)"
        )
    for i in range(2, len(p_n)):
        pi0: _Precision = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
        ngrams_in_last_hypothesis = max(0, len(hypothesis) - i)
        p_n[i] = (numerators[i] + alpha * pi0) / (ngrams_in_last_hypothesis + alpha)
    return p_n


def _nltk_brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    if hyp_len > closest_ref_len:
        return 1.0
    if hyp_len == 0:
        return 0.0
    return math.exp(1 - closest_ref_len / hyp_len)


def _nltk_scores(
    list_of_references: object,
    hypotheses: object,
    weights: object,
    smoothing: object,
    auto_reweigh: object,
    params: tuple[float, float, float],
) -> list[float]:
    """One score per weight vector."""
    hyps, refs = _check_corpus_tokens(hypotheses, list_of_references, "hypotheses", "list_of_references")
    vectors, defaults = _nltk_weight_vectors(weights)
    method = _nltk_method(smoothing)
    reweigh = _check_flag(auto_reweigh, "auto_reweigh")
    _check_smoothing_params(*params)
    if not hyps:
        raise OriginalToolError("NLTK raises ZeroDivisionError ('Fraction(0, 0)') on an empty corpus")
    max_order = max(len(v) for v in vectors)
    numerators = [0] * max_order
    denominators = [0] * max_order
    hyp_lengths = ref_lengths = 0
    for references, hypothesis in zip(refs, hyps, strict=True):
        for i in range(max_order):
            matches, total = _clipped(hypothesis, references, i + 1)
            numerators[i] += matches
            denominators[i] += max(1, total)  # NLTK: "denominator is minimum 1", per segment
        hyp_lengths += len(hypothesis)
        ref_lengths += choose_reference_length(len(hypothesis), [len(r) for r in references]).chosen_length
    bp = _nltk_brevity_penalty(ref_lengths, hyp_lengths)
    if numerators[0] == 0:
        return [0.0] * len(vectors)
    p_n = _nltk_smooth(method, numerators, denominators, refs[-1], hyps[-1], hyp_lengths, params)
    scores = []
    for weight, default in zip(vectors, defaults, strict=True):
        if reweigh and hyp_lengths < 4 and default:
            weight = (1 / hyp_lengths,) * hyp_lengths
        # zip stops at the shorter: a short weight vector uses the lowest orders only.
        s = math.fsum(w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n, strict=False) if p_i > 0)
        scores.append(bp * math.exp(s))
    return scores


@overload
def nltk_corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    weights: Sequence[float] = ...,
    smoothing: str | int | None = ...,
    auto_reweigh: bool = ...,
    *,
    epsilon: float = ...,
    alpha: float = ...,
    k: float = ...,
) -> float: ...
@overload
def nltk_corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    weights: Sequence[Sequence[float]],
    smoothing: str | int | None = ...,
    auto_reweigh: bool = ...,
    *,
    epsilon: float = ...,
    alpha: float = ...,
    k: float = ...,
) -> list[float] | float: ...
def nltk_corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    weights: Sequence[float] | Sequence[Sequence[float]] = _NLTK_DEFAULT_WEIGHTS,
    smoothing: str | int | None = "method0",
    auto_reweigh: bool = False,
    *,
    epsilon: float = 0.1,
    alpha: float = 5,
    k: float = 5,
) -> float | list[float]:
    """NLTK 3.10 ``corpus_bleu``: ``list_of_references[i]`` are the token lists of hypothesis i's references.

    Reproduced exactly, quirks included:

    * counts are summed over segments, but each segment's denominator is at least 1
      (so a segment shorter than n adds a phantom n-gram);
    * r is the sum of the closest reference lengths (ties to the shorter);
    * weights are used as given, not normalized; a list of two or more weight vectors returns
      a list of scores (a one-element list returns a bare float, as in NLTK);
    * 0 when no unigram matches; otherwise, without smoothing (``method0``) a zero precision
      becomes ``sys.float_info.min``, so the score is tiny (e.g. 1e-155) but not 0;
    * smoothing sees the LAST segment's references and hypothesis (methods 5 and 7 average in
      its 5-gram precision, method 6 divides by its n-gram counts) and the corpus hypothesis
      length (methods 4 and 7), so reordering segments can change a smoothed corpus score;
    * ``auto_reweigh`` only replaces weights equal to the tuple ``(0.25, 0.25, 0.25, 0.25)``,
      and only when the corpus hypothesis length is below 4.

    ``epsilon``, ``alpha`` and ``k`` are ``SmoothingFunction``'s parameters (methods 1, 6 and 4/7).
    Raises :class:`OriginalToolError` where NLTK raises: an empty corpus (ZeroDivisionError)
    and method 6 without a trigram match (AssertionError, or IndexError below 3 orders).
    """
    scores = _nltk_scores(list_of_references, hypotheses, weights, smoothing, auto_reweigh, (epsilon, alpha, k))
    return scores if len(scores) > 1 else scores[0]


@overload
def nltk_sentence_bleu(
    references: Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    weights: Sequence[float] = ...,
    smoothing: str | int | None = ...,
    auto_reweigh: bool = ...,
    *,
    epsilon: float = ...,
    alpha: float = ...,
    k: float = ...,
) -> float: ...
@overload
def nltk_sentence_bleu(
    references: Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    weights: Sequence[Sequence[float]],
    smoothing: str | int | None = ...,
    auto_reweigh: bool = ...,
    *,
    epsilon: float = ...,
    alpha: float = ...,
    k: float = ...,
) -> list[float] | float: ...
def nltk_sentence_bleu(
    references: Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    weights: Sequence[float] | Sequence[Sequence[float]] = _NLTK_DEFAULT_WEIGHTS,
    smoothing: str | int | None = "method0",
    auto_reweigh: bool = False,
    *,
    epsilon: float = 0.1,
    alpha: float = 5,
    k: float = 5,
) -> float | list[float]:
    """NLTK 3.10 ``sentence_bleu``: :func:`nltk_corpus_bleu` of a one-segment corpus (see its quirks)."""
    hyp = _check_tokens(hypothesis, "hypothesis")
    refs = _check_references(references, "references")
    scores = _nltk_scores([refs], [hyp], weights, smoothing, auto_reweigh, (epsilon, alpha, k))
    return scores if len(scores) > 1 else scores[0]


def nltk_legacy_sentence_bleu(
    references: Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    weights: Sequence[float] = _NLTK_DEFAULT_WEIGHTS,
) -> float:
    """Sentence BLEU as NLTK 3.2.x computed it without smoothing: zero precisions were left out.

    s = sum of w_n log p_n over the orders with p_n > 0 only; BLEU = BP * exp(s).
    A missing order thus costs nothing instead of zeroing the score, which is where the
    widely copied 2017 tutorial numbers come from: "this is a test" against
    "this is small test" has p = 3/4, 1/3, 0, 0, giving 0.707107 with weights
    (0.25, 0.25, 0.25, 0.25) and 0.632878 with (0.33, 0.33, 0.33, 0); current NLTK gives
    about 1e-155 for the first.  (NLTK 3.2.x zipped the weights with the non-zero
    precisions only; for one sentence the zero orders are always the highest ones, so
    that equals dropping them with their weights.)  No unigram match gives 0; the
    closest reference length (ties to the shorter) sets r; weights are not normalized.
    """
    hyp = _check_tokens(hypothesis, "hypothesis")
    refs = _check_references(references, "references")
    vector = _check_weight_vector(weights, "weights")
    counts = [_clipped(hyp, refs, n) for n in range(1, len(vector) + 1)]
    if counts[0][0] == 0:
        return 0.0
    precisions = [Fraction(m, max(1, t)) for m, t in counts]
    s = math.fsum(w * math.log(p) for w, p in zip(vector, precisions, strict=True) if p > 0)
    r = choose_reference_length(len(hyp), [len(ref) for ref in refs]).chosen_length
    return _nltk_brevity_penalty(r, len(hyp)) * math.exp(s)


# ---------------------------------------------------------------------------
# MATLAB
# ---------------------------------------------------------------------------


def matlab_bleu_evaluation_score(
    candidate: Sequence[str],
    references: Sequence[Sequence[str]],
    ngram_weights: Sequence[float] = _NLTK_DEFAULT_WEIGHTS,
) -> float:
    """MATLAB ``bleuEvaluationScore(candidate, references, NgramWeights=w)`` on token lists.

    The weights are normalized to sum to one and their number N sets the highest order;
    r is the closest reference length (MathWorks does not document ties: the shorter is
    assumed); no smoothing, so any zero precision with a positive weight gives 0.  The
    score is 0 when the candidate has fewer than N words, and NaN when the candidate
    and every reference are empty.  (MATLAB tokenizes with ``tokenizedDocument``, which
    splits punctuation off words: pass its tokens for identical results.)
    """
    cand = _check_tokens(candidate, "candidate")
    refs = _check_references(references, "references")
    options = make_options(weights=ngram_weights, smooth="none", tokenize="none")
    if not cand and not any(refs):
        return math.nan
    if len(cand) < options.max_order:
        return 0.0
    counts = [_clipped(cand, refs, n) for n in range(1, options.max_order + 1)]
    stats = SegmentStats(
        np.array([[m for m, _ in counts]], dtype=np.int64),
        np.array([[t for _, t in counts]], dtype=np.int64),
        np.array([len(cand)], dtype=np.int64),
        np.array([choose_reference_length(len(cand), [len(r) for r in refs]).chosen_length], dtype=np.int64),
    )
    return float(score_statistics(stats, options).score[0])


# ---------------------------------------------------------------------------
# sacreBLEU
# ---------------------------------------------------------------------------


def sacrebleu_corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> float:
    """``sacrebleu.corpus_bleu(hypotheses, references).score`` (0-100): 13a, exp smoothing, no effective order.

    ``references[k][i]`` is reference k of segment i (sacreBLEU's streams).
    """
    return corpus_bleu(hypotheses, references).score_100


def sacrebleu_sentence_bleu(hypothesis: str, references: Sequence[str]) -> float:
    """``sacrebleu.sentence_bleu(hypothesis, references).score`` (0-100): 13a, exp smoothing, effective order."""
    return sentence_bleu(hypothesis, references).score_100


# ---------------------------------------------------------------------------
# Hugging Face evaluate (tensorflow/nmt compute_bleu)
# ---------------------------------------------------------------------------


class HfBleuResult(TypedDict):
    """The dict ``evaluate.load("bleu").compute(...)`` returns."""

    bleu: float
    precisions: list[float]
    brevity_penalty: float
    length_ratio: float
    translation_length: int
    reference_length: int


def hf_evaluate_bleu(
    predictions: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int = 4,
    smooth: bool = False,
) -> HfBleuResult:
    """Hugging Face ``evaluate`` "bleu", i.e. tensorflow/nmt ``compute_bleu``, on token lists.

    ``references[i]`` are the token lists of prediction i's references.  HF tokenizes
    strings with its copy of sacreBLEU's 13a tokenizer by default; pass
    ``bleu_core.tokenize_line(text)`` for the same tokens.  Differences from the paper:

    * r is the SHORTEST reference of each segment, summed (not the closest);
    * ``smooth=True`` adds 1 to numerator and denominator of EVERY order, unigrams included;
    * without smoothing, any zero precision (or an order with no candidate n-grams) gives 0;
    * BP = exp(1 - 1/ratio) with ratio = c/r when ratio <= 1; ratio and BP are 0 when c or r is 0
      (the guard in current ``evaluate``; older copies raised ZeroDivisionError).
    """
    hyps, refs = _check_corpus_tokens(predictions, references, "predictions", "references")
    order = _check_order(max_order, "max_order")
    smoothed = _check_flag(smooth, "smooth")
    matches_by_order = [0] * order
    possible_matches_by_order = [0] * order
    reference_length = translation_length = 0
    for segment_refs, translation in zip(refs, hyps, strict=True):
        reference_length += min(len(r) for r in segment_refs)
        translation_length += len(translation)
        for i in range(order):
            matches, possible = _clipped(translation, segment_refs, i + 1)
            matches_by_order[i] += matches
            possible_matches_by_order[i] += possible
    precisions = [0.0] * order
    for i in range(order):
        if smoothed:
            precisions[i] = (matches_by_order[i] + 1.0) / (possible_matches_by_order[i] + 1.0)
        elif possible_matches_by_order[i] > 0:
            precisions[i] = float(matches_by_order[i]) / possible_matches_by_order[i]
    geo_mean = math.exp(sum((1.0 / order) * math.log(p) for p in precisions)) if min(precisions) > 0 else 0.0
    if reference_length == 0 or translation_length == 0:
        ratio = bp = 0.0
    else:
        ratio = float(translation_length) / reference_length
        bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return HfBleuResult(
        bleu=geo_mean * bp,
        precisions=precisions,
        brevity_penalty=bp,
        length_ratio=ratio,
        translation_length=translation_length,
        reference_length=reference_length,
    )


# ---------------------------------------------------------------------------
# torchmetrics
# ---------------------------------------------------------------------------


def torchmetrics_bleu(
    preds: Sequence[Sequence[str]],
    target: Sequence[Sequence[Sequence[str]]],
    n_gram: int = 4,
    smooth: bool = False,
    weights: Sequence[float] | None = None,
) -> float:
    """``torchmetrics.functional.text.bleu_score`` on token lists (torchmetrics splits strings on whitespace).

    * r is the closest reference length, ties going to the FIRST listed reference;
    * the score is 0 whenever some order has no clipped match, even with ``smooth=True``;
    * ``smooth=True`` adds 1 to numerator and denominator of orders 2..N only;
    * weights default to 1/N each and are used as given (not normalized); BP = exp(1 - r/c) when c <= r.

    torchmetrics computes in float32 tensors, so its printed values can differ from
    this float64 result in about the 7th significant digit.
    """
    hyps, refs = _check_corpus_tokens(preds, target, "preds", "target")
    order = _check_order(n_gram, "n_gram")
    smoothed = _check_flag(smooth, "smooth")
    if weights is None:
        vector = tuple([1.0 / order] * order)
    else:
        vector = _check_weight_vector(weights, "weights")
        if len(vector) != order:
            raise ValueError(f"List of weights has different weights than `n_gram`: {len(vector)} != {order}")
    numerator = [0] * order
    denominator = [0] * order
    preds_len = target_len = 0
    for pred, targets in zip(hyps, refs, strict=True):
        preds_len += len(pred)
        lengths = [len(t) for t in targets]
        diffs = [abs(len(pred) - length) for length in lengths]
        target_len += lengths[diffs.index(min(diffs))]
        for i in range(order):
            matches, total = _clipped(pred, targets, i + 1)
            numerator[i] += matches
            denominator[i] += total
    if min(numerator) == 0:
        return 0.0
    precisions = [m / d for m, d in zip(numerator, denominator, strict=True)]
    if smoothed:
        precisions[1:] = [(m + 1) / (d + 1) for m, d in zip(numerator[1:], denominator[1:], strict=True)]
    geometric_mean = math.exp(sum(w * math.log(p) for w, p in zip(vector, precisions, strict=True)))
    brevity = 1.0 if preds_len > target_len else math.exp(1 - target_len / preds_len)
    return brevity * geometric_mean


# ---------------------------------------------------------------------------
# Moses multi-bleu.perl
# ---------------------------------------------------------------------------


def multi_bleu_perl(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], *, lowercase: bool = False
) -> float:
    """Moses ``multi-bleu.perl [-lc] ref < hyp`` (0-100) on lines of already tokenized text.

    ``references[k][i]`` is line i of reference file k (None: that file has no line i).
    Tokens are whitespace-separated; r is the closest reference length (ties to the
    shorter); uniform 1/4 weights on orders 1-4; no smoothing: any order without a match
    (or without candidate n-grams, e.g. a 3-word corpus) gives 0, because the script
    takes log 0 as -9999999999.  The script prints BLEU = 0 when r = 0 (returned here as 0)
    and dies with "Illegal division by zero" when every hypothesis is empty
    (:class:`OriginalToolError`).
    """
    hyps, streams = check_corpus(hypotheses, references)
    lower = _check_flag(lowercase, "lowercase")

    def words(line: str) -> list[str]:
        return (line.lower() if lower else line).split()

    correct = [0] * 4
    total = [0] * 4
    length_translation = length_reference = 0
    for i, hypothesis in enumerate(hyps):
        tokens = words(hypothesis)
        refs = [words(ref) for stream in streams if (ref := stream[i]) is not None]
        length_translation += len(tokens)
        length_reference += choose_reference_length(len(tokens), [len(r) for r in refs]).chosen_length
        for n in range(1, 5):
            matches, count = _clipped(tokens, refs, n)
            correct[n - 1] += matches
            total[n - 1] += count
    if length_reference == 0:
        return 0.0
    if length_translation == 0:
        raise OriginalToolError("multi-bleu.perl dies with 'Illegal division by zero' when every hypothesis is empty")
    precisions = [c / t if t else 0.0 for c, t in zip(correct, total, strict=True)]
    brevity_penalty = 1.0
    if length_translation < length_reference:
        brevity_penalty = math.exp(1 - length_reference / length_translation)
    logs = [math.log(p) if p else _PERL_LOG_ZERO for p in precisions]
    bleu = brevity_penalty * math.exp((logs[0] + logs[1] + logs[2] + logs[3]) / 4)
    return 100 * bleu


# ---------------------------------------------------------------------------
# The registry: what each tool does, as data
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Implementation:
    """The choices that make one tool's BLEU differ from another's, in words."""

    key: str
    name: str
    tokenizer: str
    smoothing: str
    ref_length_rule: str  # "closest, ties shorter" | "shortest" | "closest, ties first"
    zero_handling: str
    weights: str
    scale: str  # "0-1" | "0-100"
    description: str
    short_name: str = ""  # for sentences like "NLTK substitutes ..."; the name when empty
    corpus_level: bool = True  # False: the tool (or its re-implementation here) scores single sentences only

    @property
    def label(self) -> str:
        """The short name when there is one."""
        return self.short_name or self.name


IMPLEMENTATIONS: dict[str, Implementation] = {
    impl.key: impl
    for impl in (
        Implementation(
            key="sacrebleu",
            short_name="sacreBLEU",
            name="sacreBLEU sentence_bleu",
            tokenizer="13a (mteval-v13a: punctuation split off words)",
            smoothing="exp: the k-th order without a match counts 1/2^k matches",
            ref_length_rule="closest, ties shorter",
            zero_handling="smoothed; orders longer than the hypothesis are left out (effective order); "
            "0 only without any unigram match",
            weights="uniform 1/4",
            scale="0-100",
            description="The reference implementation for reporting (WMT); bleu_core reproduces it exactly.",
        ),
        Implementation(
            key="nltk",
            short_name="NLTK",
            name="NLTK 3.10 sentence_bleu",
            tokenizer="none: takes token lists (here: whitespace split)",
            smoothing="none (method0)",
            ref_length_rule="closest, ties shorter",
            zero_handling="a zero precision becomes sys.float_info.min (with a warning): the score is tiny, "
            "not 0; exactly 0 only without any unigram match",
            weights="(0.25, 0.25, 0.25, 0.25), used as given (not normalized)",
            scale="0-1",
            description="The default most tutorials call; short sentences without a 4-gram match score ~1e-155.",
        ),
        Implementation(
            key="nltk-method1",
            short_name="NLTK method1",
            name="NLTK 3.10 sentence_bleu, SmoothingFunction().method1",
            tokenizer="none: takes token lists (here: whitespace split)",
            smoothing="method1: a zero numerator becomes epsilon = 0.1",
            ref_length_rule="closest, ties shorter",
            zero_handling="zero precisions become 0.1 / (number of candidate n-grams); 0 without a unigram match",
            weights="(0.25, 0.25, 0.25, 0.25), used as given (not normalized)",
            scale="0-1",
            description="The usual fix for NLTK's zero scores (Chen & Cherry 2014, method 1).",
        ),
        Implementation(
            key="nltk-legacy",
            short_name="NLTK 3.2",
            corpus_level=False,
            name="NLTK 3.2.x sentence_bleu",
            tokenizer="none: takes token lists (here: whitespace split)",
            smoothing="none",
            ref_length_rule="closest, ties shorter",
            zero_handling="orders with zero precision are left out of the sum, weight and all, "
            "so they cost nothing; 0 without a unigram match",
            weights="(0.25, 0.25, 0.25, 0.25), used as given (not normalized)",
            scale="0-1",
            description="Old NLTK behind many copied tutorial outputs (0.707107 for 'this is a test'); "
            "re-implemented here for single sentences only.",
        ),
        Implementation(
            key="matlab",
            short_name="MATLAB",
            corpus_level=False,
            name="MATLAB bleuEvaluationScore",
            tokenizer="tokenizedDocument (here: whitespace split)",
            smoothing="none",
            ref_length_rule="closest, ties shorter",
            zero_handling="any zero precision gives 0; 0 when the candidate has fewer words than weights; "
            "NaN when candidate and references are all empty",
            weights="NgramWeights normalized to sum to 1; their number sets N (default 4 equal)",
            scale="0-1",
            description="Text Analytics Toolbox; scores one candidate document at a time; the tie rule for "
            "reference lengths is undocumented (shorter assumed).",
        ),
        Implementation(
            key="hf-evaluate",
            short_name="HF evaluate",
            name="Hugging Face evaluate 'bleu'",
            tokenizer="13a (HF's copy of sacreBLEU's)",
            smoothing="none (smooth=True adds 1 to every order, unigrams included)",
            ref_length_rule="shortest",
            zero_handling="any zero precision gives 0",
            weights="uniform 1/max_order",
            scale="0-1",
            description="tensorflow/nmt compute_bleu; the shortest reference sets r, so multi-reference "
            "scores get less brevity penalty.",
        ),
        Implementation(
            key="torchmetrics",
            short_name="torchmetrics",
            name="torchmetrics BLEUScore",
            tokenizer="whitespace split",
            smoothing="none (smooth=True adds 1 to orders 2..N)",
            ref_length_rule="closest, ties first",
            zero_handling="any order without a match gives 0, even with smooth=True",
            weights="uniform 1/n_gram (custom weights used as given)",
            scale="0-1",
            description="From torchtext; computed in float32.",
        ),
        Implementation(
            key="multi-bleu",
            short_name="multi-bleu.perl",
            name="Moses multi-bleu.perl",
            tokenizer="whitespace split (expects pre-tokenized text)",
            smoothing="none",
            ref_length_rule="closest, ties shorter",
            zero_handling="any zero precision gives 0 (log 0 taken as -9999999999)",
            weights="uniform 1/4, fixed",
            scale="0-100",
            description="The classic Moses script; scores depend on whatever tokenization was applied before it.",
        ),
    )
}


def _whitespace(candidate: str, references: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    return candidate.split(), [ref.split() for ref in references]


def _score_nltk(candidate: str, references: Sequence[str]) -> float:
    cand, refs = _whitespace(candidate, references)
    return nltk_sentence_bleu(refs, cand)


def _score_nltk_method1(candidate: str, references: Sequence[str]) -> float:
    cand, refs = _whitespace(candidate, references)
    return nltk_sentence_bleu(refs, cand, smoothing="method1")


def _score_nltk_legacy(candidate: str, references: Sequence[str]) -> float:
    cand, refs = _whitespace(candidate, references)
    return nltk_legacy_sentence_bleu(refs, cand)


def _score_matlab(candidate: str, references: Sequence[str]) -> float:
    cand, refs = _whitespace(candidate, references)
    return matlab_bleu_evaluation_score(cand, refs)


def _score_hf(candidate: str, references: Sequence[str]) -> float:
    refs = [tokenize_line(ref, "13a") for ref in references]
    return hf_evaluate_bleu([tokenize_line(candidate, "13a")], [refs])["bleu"]


def _score_torchmetrics(candidate: str, references: Sequence[str]) -> float:
    cand, refs = _whitespace(candidate, references)
    return torchmetrics_bleu([cand], [refs])


def _score_multi_bleu(candidate: str, references: Sequence[str]) -> float:
    return multi_bleu_perl([candidate], [[ref] for ref in references])


_SENTENCE_SCORERS: dict[str, Callable[[str, Sequence[str]], float]] = {
    "sacrebleu": sacrebleu_sentence_bleu,
    "nltk": _score_nltk,
    "nltk-method1": _score_nltk_method1,
    "nltk-legacy": _score_nltk_legacy,
    "matlab": _score_matlab,
    "hf-evaluate": _score_hf,
    "torchmetrics": _score_torchmetrics,
    "multi-bleu": _score_multi_bleu,
}


def check_sentence_input(candidate: object, references: object) -> list[str]:
    """The references of one candidate as a list, or a TypeError/ValueError that says what is wrong."""
    if not isinstance(candidate, str):
        raise TypeError(f"candidate must be a str; got {type(candidate).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError("references must be a list of strings; for one reference pass [reference]")
    if not references:
        raise ValueError("no references given; pass at least one reference string")
    for i, ref in enumerate(references):
        if not isinstance(ref, str):
            raise TypeError(f"references[{i}] must be a str; got {type(ref).__name__}")
    return list(references)


def compare_implementations(candidate: str, references: Sequence[str]) -> list[tuple[Implementation, float, float]]:
    """Every tool's BLEU of one sentence: (implementation, score on its own scale, score in [0, 1]).

    Each tool sees the text the way it is usually fed: sacreBLEU and HF evaluate
    tokenize with 13a themselves; the token-list tools (NLTK, MATLAB, torchmetrics)
    and multi-bleu.perl get whitespace-split tokens.  All use their default settings.
    NaN marks a tool that fails on this input (e.g. multi-bleu.perl on an empty
    candidate) or has no score for it (MATLAB with everything empty).
    """
    check_sentence_input(candidate, references)
    out = []
    for key, implementation in IMPLEMENTATIONS.items():
        try:
            native = float(_SENTENCE_SCORERS[key](candidate, references))
        except OriginalToolError:
            native = math.nan
        unit = native / 100 if implementation.scale == "0-100" else native
        out.append((implementation, native, unit))
    return out


def _segments(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> list[list[str]]:
    """Per-segment reference lists from sacreBLEU's streams (``references[k][i]``), missing ones skipped."""
    return [[ref for stream in references if (ref := stream[i]) is not None] for i in range(len(hypotheses))]


def _corpus_nltk(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], smoothing: str) -> float:
    segments = _segments(hypotheses, references)
    return nltk_corpus_bleu(
        [[ref.split() for ref in refs] for refs in segments], [h.split() for h in hypotheses], smoothing=smoothing
    )


def _corpus_hf(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> float:
    segments = _segments(hypotheses, references)
    tokens = [[tokenize_line(ref, "13a") for ref in refs] for refs in segments]
    return hf_evaluate_bleu([tokenize_line(h, "13a") for h in hypotheses], tokens)["bleu"]


def _corpus_torchmetrics(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> float:
    segments = _segments(hypotheses, references)
    return torchmetrics_bleu([h.split() for h in hypotheses], [[ref.split() for ref in refs] for refs in segments])


_CORPUS_SCORERS: dict[str, Callable[[Sequence[str], Sequence[Sequence[str | None]]], float]] = {
    "sacrebleu": sacrebleu_corpus_bleu,
    "nltk": lambda hyps, refs: _corpus_nltk(hyps, refs, "method0"),
    "nltk-method1": lambda hyps, refs: _corpus_nltk(hyps, refs, "method1"),
    "hf-evaluate": _corpus_hf,
    "torchmetrics": _corpus_torchmetrics,
    "multi-bleu": multi_bleu_perl,
}


def compare_corpus_implementations(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]
) -> list[tuple[Implementation, float, float]]:
    """Every tool's corpus BLEU: (implementation, score on its own scale, score in [0, 1]).

    ``references[k][i]`` is reference k of segment i (sacreBLEU's streams; None: missing).
    Tokens as in :func:`compare_implementations`; sacreBLEU uses its corpus defaults (no
    effective order).  NaN for a tool that fails on the input and for the sentence-only
    tools (``corpus_level`` False: MATLAB's bleuEvaluationScore, the NLTK 3.2 re-implementation).
    """
    hyps, streams = check_corpus(hypotheses, references)
    out = []
    for key, implementation in IMPLEMENTATIONS.items():
        native = math.nan
        if implementation.corpus_level:
            try:
                native = float(_CORPUS_SCORERS[key](hyps, streams))
            except OriginalToolError:
                native = math.nan
        unit = native / 100 if implementation.scale == "0-100" else native
        out.append((implementation, native, unit))
    return out
