"""NLTK 3.10 ``nltk.translate.bleu_score``'s arithmetic on token lists, quirks included.

One computation, :func:`trace_nltk`, follows NLTK step by step; the registry's NLTK entries and the drop-in
:mod:`bleu_core.nltk_api` (the one NLTK API) read their scores off it (:func:`nltk_traces`).  Clipping and the
closest reference length (ties to the shorter) are bleu_core's shared rules; NLTK deviates from them in two
places, stated where they happen:

* each segment's denominator is at least 1 (``max(1, total)``), so a segment shorter than n adds a phantom n-gram;
* BP is 0 for an empty corpus hypothesis even when r is 0 too (bleu_core's rule gives 1 there).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from bleu_core.i18n import Message, message
from bleu_core.stats.scoring import scalar_brevity_penalty
from bleu_core.teach.explain import Explanation
from bleu_core.tools import base
from bleu_core.tools.checks import (
    Streams,
    check_flag,
    check_weight_vector,
    segment_references,
    weight_sequence,
)
from bleu_core.tools.nltk_smoothing import (
    METHOD_NOTES,
    NLTK_SMOOTHING_METHODS,
    Fraction,
    Precision,
    SmoothingInput,
    smooth,
    smoothing_method,
)

__all__ = [
    "IMPLEMENTATIONS",
    "NLTK_SMOOTHING_METHODS",
    "nltk_smoothing_scores",
    "trace_nltk",
]

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
_SOURCE = "nltk/translate/bleu_score.py (NLTK 3.10)"

IMPLEMENTATIONS = (
    base.Implementation(
        key="nltk",
        short_name="NLTK",
        name="NLTK 3.10 sentence_bleu",
        point=base.Conventions(tokenizer="whitespace", denominator="at-least-1", zero_precision="float-min"),
        corpus_name="NLTK 3.10 corpus_bleu",
        source=_SOURCE,
    ),
    base.Implementation(
        key="nltk-method1",
        short_name="NLTK method1",
        name="NLTK 3.10 sentence_bleu, SmoothingFunction().method1",
        point=base.Conventions(
            tokenizer="whitespace", denominator="at-least-1", smoothing="epsilon", zero_precision="float-min"
        ),
        corpus_name="NLTK 3.10 corpus_bleu, SmoothingFunction().method1",
        source=_SOURCE,
    ),
)


def _real_numbers(value: object, name: str) -> tuple[float, ...]:
    """A weight vector as NLTK uses it: any real numbers (negative, infinite and NaN included), at least one."""
    items = weight_sequence(value, name)
    reals = [w for w in items if isinstance(w, numbers.Real)]
    if len(reals) != len(items):
        raise TypeError(f"{name} must hold numbers; got {items!r:.60}")
    return tuple(float(w) for w in reals)


#: Whether a weight vector is NLTK's default for ``auto_reweigh``: yes, no, or None for a NumPy array (NLTK's
#: ``weight == (0.25, 0.25, 0.25, 0.25)`` then has no truth value, and NLTK raises ValueError when it asks).
Default = bool | None


def weight_vectors(weights: object, strict: bool = True) -> tuple[list[tuple[float, ...]], list[Default]]:
    """Weight vectors and whether each is NLTK's default tuple (for ``auto_reweigh``; see :data:`Default`).

    NLTK tries ``weights[0][0]``: if that works, ``weights`` is a list of weight vectors.  ``strict``: weights
    must be finite and non-negative (this module's functions); otherwise any real numbers, as NLTK computes.
    """
    raw = list(weights) if isinstance(weights, np.ndarray) and weights.ndim > 0 else weights
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise TypeError(f"weights must be a sequence of numbers or a list of such sequences; got {weights!r:.60}")
    if not raw:
        raise ValueError("weights must name at least one n-gram order; got an empty sequence")
    nested = isinstance(raw[0], (Sequence, np.ndarray)) and not isinstance(raw[0], (str, bytes))
    vectors = list(raw) if nested else [weights]
    names = [f"weights[{i}]" if nested else "weights" for i in range(len(vectors))]
    check = check_weight_vector if strict else _real_numbers
    checked = [check(v, name) for v, name in zip(vectors, names, strict=True)]
    # NLTK compares ``weight == (0.25, 0.25, 0.25, 0.25)``: only that tuple (not a list) is "the default".
    defaults: list[Default] = [
        None if isinstance(v, np.ndarray) else bool(isinstance(v, tuple) and v == DEFAULT_WEIGHTS) for v in vectors
    ]
    return checked, defaults


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """NLTK's BP: 1 when c > r, else exp(1 - r/c).

    Deviation from :func:`bleu_core.stats.scoring.brevity_penalty`: an empty hypothesis gets 0 even when r = 0.
    """
    return scalar_brevity_penalty(hyp_len, closest_ref_len, "nltk")


def denominators(counts: base.CorpusCounts | base.CorpusSums) -> tuple[list[int], list[int]]:
    """NLTK's denominators per order, and how many segments had none of that order's n-grams.

    NLTK's deviation from the shared totals ("denominator is minimum 1"): each segment's count of candidate
    n-grams is raised to at least 1 (``max(1, total)``) before summing, so each such segment adds a phantom n-gram.
    """
    empty = list(counts.empty_segments)
    return [total + phantoms for total, phantoms in zip(counts.totals, empty, strict=True)], empty


def _floor_note(note: Message, empty_segments: int, segments: int, order: int) -> Message:
    """``note`` and where NLTK's at-least-1 denominator added phantom n-grams (``note`` alone where it did not)."""
    if not empty_segments:
        return note
    if segments == 1:
        return message("tools.note_floor_sentence", note=note, order=order)
    return message("tools.note_floor_corpus", note=note, order=order, empty=empty_segments, segments=segments)


#: A smoothing method: NLTK's number (0-7), or a caller's own function (NLTK calls it the same way).
Smoothing = int | Callable[..., Any]


def _parameter(value: object) -> str:
    """A smoothing parameter as the notes print it (``%g`` for floats; any other number as it prints)."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def _precision_note(method: Smoothing, m: int, d: int, p: Precision, epsilon: object) -> Message:
    """How NLTK got ``p`` from m/d under ``method``, as a verb phrase."""
    if d and float(p) == m / d:  # smoothing left this order as counted
        return base.plain_note(m, d)
    if method == 0:
        return message("tools.note_float_min", p=base.number(float(p)))
    if method == 1:
        return message("tools.note_method1", epsilon=_parameter(epsilon), total=d, p=base.number(float(p)))
    if not isinstance(method, int):
        return message("tools.note_method", p=base.number(float(p)), method=repr(method))
    return message("tools.note_method", p=base.number(float(p)), method=message(METHOD_NOTES[method]))


def _orders(
    counts: base.CorpusSums,
    table: tuple[list[int], list[int]],
    p_n: Sequence[Precision] | None,
    weight: Sequence[float],
    method: Smoothing,
    epsilon: object,
) -> tuple[base.OrderStep, ...]:
    """One step per order (``table``: :func:`denominators`); ``p_n`` None: NLTK stopped before smoothing
    (no unigram match), the raw fractions are shown."""
    steps = []
    divisors, empty = table
    for i, (m, d) in enumerate(zip(counts.matches, divisors, strict=True)):
        w = weight[i] if i < len(weight) else 0.0  # NLTK zips weights and precisions: extra orders get no weight
        if p_n is None:
            p: Precision = Fraction(m, d)
            note = message("tools.note_unused", note=base.plain_note(m, d))
        else:
            p = p_n[i]
            note = _precision_note(method, m, d, p, epsilon)
        steps.append(base.OrderStep(i + 1, m, d, float(p), w, _floor_note(note, empty[i], counts.segments, i + 1)))
    return tuple(steps)


def smoothed_precisions(
    sums: base.CorpusSums,
    last: tuple[Any, Any],
    method: Smoothing = 0,
    params: tuple[Any, Any, Any] = (0.1, 5, 5),
) -> list[Any]:
    """NLTK's p_n after smoothing: the counted fractions (unreduced, as NLTK's), smoothed once as NLTK does.

    ``last`` is the last segment's (hypothesis, references); ``method`` NLTK's number or the caller's own function,
    called as NLTK calls it.  Raises :class:`~bleu_core.tools.base.OriginalToolError` where NLTK's method6 fails,
    and whatever Python raises where NLTK's arithmetic does (a zero k, for instance).
    """
    p_n = [Fraction(m, d) for m, d in zip(sums.matches, denominators(sums)[0], strict=True)]
    if not isinstance(method, int):
        return list(method(p_n, references=last[1], hypothesis=last[0], hyp_len=sums.candidate_length))
    return list(smooth(method, p_n, SmoothingInput(last[1], last[0], sums.candidate_length, *params)))


def trace_nltk(
    counts: base.CorpusCounts | base.CorpusSums,
    last: tuple[Any, Any],
    weight: tuple[float, ...],
    method: Smoothing = 0,
    *,
    default_weights: Default = False,
    auto_reweigh: bool = False,
    params: tuple[Any, Any, Any] = (0.1, 5, 5),
    smoothed: list[Any] | base.OriginalToolError | None = None,
) -> base.ToolTrace:
    """NLTK's corpus BLEU for one weight vector, every step kept.

    ``counts`` has ``len(weight)`` orders or more (NLTK counts up to the longest weight vector); ``last`` is the
    last segment's (hypothesis, references), which smoothing reads; ``params`` are (epsilon, alpha, k);
    ``smoothed``: :func:`smoothed_precisions` (or its failure) when already computed for another weight vector.
    """
    sums = counts if isinstance(counts, base.CorpusSums) else counts.sums()
    c, r = sums.candidate_length, sums.closest_length  # r: the shared closest rule, which NLTK follows
    bp = brevity_penalty(r, c)
    note = sums.length_note(base.CLOSEST)
    numerators, epsilon, table = sums.matches, params[0], denominators(sums)
    if numerators[0] == 0:
        orders = _orders(sums, table, None, weight, method, epsilon)
        return base.ToolTrace(orders, c, r, note, bp, message("tools.rule_no_unigram"), 0.0)
    if smoothed is None:
        try:
            smoothed = smoothed_precisions(sums, last, method, params)
        except base.OriginalToolError as error:
            smoothed = error
    if isinstance(smoothed, base.OriginalToolError):
        orders = _orders(sums, table, None, weight, method, epsilon)
        rule = message("tools.rule_nltk_fails", error=str(smoothed))
        return base.ToolTrace(orders, c, r, note, bp, rule, math.nan, failure=str(smoothed))
    if auto_reweigh and c < 4:
        if default_weights is None:
            raise ValueError(  # NLTK compares a NumPy array with its default tuple
                "The truth value of an array with more than one element is ambiguous (NLTK compares a NumPy array "
                "of weights with (0.25, 0.25, 0.25, 0.25) when auto_reweigh is on); give the weights as a tuple"
            )
        if default_weights:
            weight = (1 / c,) * c  # NLTK re-weighs only its default tuple, and only for corpora under 4 tokens
    orders = _orders(sums, table, smoothed, weight, method, epsilon)
    # NLTK zips the weights with the precisions: orders past the weights are left out (not weighted 0, which an
    # infinite precision would turn into NaN); so are orders whose smoothed precision is not positive.
    s = math.fsum(o.weight * math.log(o.precision) for o in orders[: len(weight)] if o.precision > 0)
    return base.ToolTrace(orders, c, r, note, bp, None, bp * math.exp(s))


def nltk_traces(
    refs: list[list[list[Any]]],
    hyps: list[list[Any]],
    weights: object,
    smoothing: object,
    auto_reweigh: object,
    params: tuple[Any, Any, Any],
    count: Callable[
        [list[list[Any]], list[list[list[Any]]], int], base.CorpusCounts | base.CorpusSums
    ] = base.count_corpus,
    strict: bool = True,
) -> list[base.ToolTrace]:
    """One trace per weight vector of checked token lists, after NLTK's checks of the other arguments.

    ``count`` collects the clipped counts (:func:`~bleu_core.tools.base.count_corpus`; a vectorized counter gives
    the same counts);
    ``smoothing`` is a method name or number, or (not ``strict``) a caller's own function; ``strict``: the weights
    must be finite and non-negative (this module's functions); the drop-in takes any, as NLTK does.
    """
    vectors, defaults = weight_vectors(weights, strict)
    method: Smoothing = smoothing if callable(smoothing) and not strict else smoothing_method(smoothing)
    reweigh = check_flag(auto_reweigh, "auto_reweigh")
    if not hyps:
        raise base.OriginalToolError("NLTK raises ZeroDivisionError ('Fraction(0, 0)') on an empty corpus")
    counts = count(hyps, refs, max(len(v) for v in vectors))
    sums = counts if isinstance(counts, base.CorpusSums) else counts.sums()
    last = (hyps[-1], refs[-1])
    smoothed: list[Any] | base.OriginalToolError | None = None
    if sums.matches[0] != 0:  # NLTK smooths once, after returning 0 without a unigram match
        try:
            smoothed = smoothed_precisions(sums, last, method, params)
        except base.OriginalToolError as error:
            smoothed = error
    return [
        trace_nltk(sums, last, vector, method, default_weights=default, auto_reweigh=reweigh, params=params,
                   smoothed=smoothed)
        for vector, default in zip(vectors, defaults, strict=True)
    ]  # fmt: skip


def nltk_smoothing_scores(explanation: Explanation) -> dict[str, float]:
    """NLTK's sentence_bleu under each of its smoothing methods (method0-7), on the explanation's tokens and weights.

    NLTK's rules differ from sacreBLEU's (see the module docstring); NaN where NLTK itself fails.
    """
    references = [list(tokens) for tokens in explanation.reference_tokens]
    candidate = list(explanation.candidate_tokens)
    out = {}
    for method in NLTK_SMOOTHING_METHODS:
        try:
            traces = nltk_traces([references], [candidate], explanation.options.weights, method, False, (0.1, 5, 5))
            score = traces[0].checked_score()
        except base.OriginalToolError:
            score = math.nan
        out[method] = float(score)
    return out


def sentence_trace(
    implementation: base.Implementation, candidate: str, references: Sequence[str]
) -> base.ImplementationTrace:
    """The registry entry's sentence trace: whitespace tokens, default weights, method0 or method1."""
    cand, refs = base.sentence_tokens(implementation, candidate, references)
    method = 1 if implementation.key == "nltk-method1" else 0
    steps = trace_nltk(base.count_corpus([cand], [refs], 4), (cand, refs), DEFAULT_WEIGHTS, method)
    return base.ImplementationTrace.of(implementation, cand, refs, steps)


def corpus_score(implementation: base.Implementation, hypotheses: Sequence[str], streams: Streams) -> float:
    """The registry entry\'s corpus score of sacreBLEU-style streams: whitespace tokens, default weights."""
    method = "method1" if implementation.key == "nltk-method1" else "method0"
    refs = [[ref.split() for ref in refs] for refs in segment_references(hypotheses, streams)]
    traces = nltk_traces(refs, [h.split() for h in hypotheses], DEFAULT_WEIGHTS, method, False, (0.1, 5, 5))
    return traces[0].checked_score()
