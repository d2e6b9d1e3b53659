"""Checking a student's answers to an exercise, and naming the likely mistake behind a wrong one.

An exercise asks, step by step, for the quantities of sentence BLEU that a hand computation writes down: the
clipped count and the total of each order, the chosen reference length r, the brevity penalty and the score.
:func:`check_answer` compares an answer with the right value and, when it is wrong, with the value each known
mistake would produce (computed from the same :class:`~bleu_core.teach.explain.Explanation`); the first mistake whose
value the answer equals is named by a code (``"not_clipped"``), which the pages turn into a sentence.

Tolerances: counts, totals and lengths are whole numbers and must be exact; BP and BLEU are accepted within
``DECIMAL_TOLERANCE`` = 0.0001 of the exact value (four decimals, rounded or cut off).  A wrong answer is matched
to a mistake with the same tolerance, relative above 1 (BLEU in percent: 46.42 for 46.4159 is named); the right
value with one to three decimals only (0.867 for 0.86688) is named as such.  A wrong value may equal the right
one (no clipping changes nothing when no word repeats): such mistakes cannot be told apart and are never named.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from bleu_core.stats.scoring import brevity_penalty, score_statistics
from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.teach.explain import Explanation, OrderBreakdown

__all__ = [
    "DECIMAL_TOLERANCE",
    "FEW_DECIMALS",
    "KINDS",
    "MISTAKES",
    "Quantity",
    "Verdict",
    "check_answer",
    "exercise_steps",
    "expected_value",
    "judge",
    "mistaken_values",
]

#: What a step asks for: the clipped count and total of one order, r, BP, BLEU.
BLEU_KINDS = ("matches", "total", "reference_length", "bp", "bleu")
#: What a chrF step asks for (:mod:`bleu_core.teach.chrf_exercises`): an order's matches and totals, its P and R,
#: the F-score; chrF++ adds the word 1-grams' matches and totals.
CHRF_KINDS = ("chrf_matches", "chrf_candidate_total", "chrf_reference_total", "chrf_precision", "chrf_recall", "chrf")
CHRF_WORD_KINDS = ("chrf_word_matches", "chrf_word_candidate_total", "chrf_word_reference_total")
KINDS = BLEU_KINDS + CHRF_KINDS + CHRF_WORD_KINDS
#: Kinds whose answers are real numbers (checked to four decimals); the rest are whole numbers.
DECIMAL_KINDS = frozenset(("bp", "bleu", "chrf_precision", "chrf_recall", "chrf"))
DECIMAL_TOLERANCE = 1e-4
#: Every mistake whose value :func:`check_answer` computes (each has a sentence in the catalogs:
#: ``exercise.mistake_<code>``); besides these it names :data:`FEW_DECIMALS`.
MISTAKES = (
    "not_clipped",
    "summed_references",
    "added_references",
    "counted_unmatched",
    "all_tokens",
    "reference_total",
    "tie_longer",
    "shortest_reference",
    "candidate_length",
    "inverted_bp",
    "not_capped",
    "no_exp",
    "no_log",
    "arithmetic_mean",
    "no_bp",
    "no_smoothing",
    "percent",
)

#: The right value with one to three decimals only (0.867 for 0.86688): named for BLEU's and chrF's decimals alike.
FEW_DECIMALS = "few_decimals"


@dataclass(frozen=True, slots=True)
class Quantity:
    """One number the student writes down: ``kind`` (one of :data:`KINDS`) and, for counts, the n-gram order."""

    kind: str
    order: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {self.kind!r}")

    @property
    def decimal(self) -> bool:
        """BP, BLEU, chrF's P, R and F are real numbers (checked to four decimals); the rest are whole numbers."""
        return self.kind in DECIMAL_KINDS


@dataclass(frozen=True, slots=True)
class Verdict:
    """An answer checked: right or not, the likely mistake's code (None when right or not recognized)."""

    quantity: Quantity
    answer: float
    expected: float
    correct: bool
    mistake: str | None


def exercise_steps(trace: Explanation) -> tuple[tuple[Quantity, ...], ...]:
    """The steps of the exercise in order: (clipped count, total) of each order, then r, then BP, then BLEU."""
    orders = tuple((Quantity("matches", o.order), Quantity("total", o.order)) for o in trace.orders)
    return (*orders, (Quantity("reference_length"),), (Quantity("bp"),), (Quantity("bleu"),))


def expected_value(trace: Explanation, quantity: Quantity) -> float:
    """The right answer."""
    if quantity.kind not in BLEU_KINDS:
        raise ValueError(f"{quantity.kind!r} is a chrF quantity; check it with bleu_core.teach.chrf_exercises")
    if quantity.kind in ("matches", "total"):
        order = _order(trace, quantity)
        return float(order.matches if quantity.kind == "matches" else order.total)
    if quantity.kind == "reference_length":
        return float(trace.length.chosen_length)
    return trace.bp if quantity.kind == "bp" else trace.score


def _order(trace: Explanation, quantity: Quantity) -> OrderBreakdown:
    if not 1 <= quantity.order <= len(trace.orders):
        raise ValueError(f"order must be between 1 and {len(trace.orders)}; got {quantity.order}")
    return trace.orders[quantity.order - 1]


# --- what each mistake makes of each quantity (one small generator per kind) ---------------------------------

Mistaken = Iterator[tuple[str, float]]


def _unclipped(trace: Explanation) -> list[int]:
    return [sum(row.candidate_count for row in o.rows if row.max_reference_count > 0) for o in trace.orders]


def _summed(trace: Explanation) -> list[int]:
    return [sum(min(row.candidate_count, sum(row.reference_counts)) for row in o.rows) for o in trace.orders]


def _per_reference(trace: Explanation) -> list[int]:
    """Each reference's own clipped matches, added up (the matches in r1, plus those in r2, ...)."""
    return [
        sum(min(row.candidate_count, count) for row in o.rows for count in row.reference_counts) for o in trace.orders
    ]


def _matches(trace: Explanation, n: int) -> Mistaken:
    yield "not_clipped", _unclipped(trace)[n - 1]
    yield "summed_references", _summed(trace)[n - 1]
    yield "added_references", _per_reference(trace)[n - 1]
    yield "counted_unmatched", trace.orders[n - 1].total  # every candidate n-gram, matched or not


def _total(trace: Explanation, n: int) -> Mistaken:
    yield "all_tokens", trace.length.candidate_length
    chosen = trace.reference_tokens[trace.length.chosen_index]
    yield "reference_total", max(len(chosen) - n + 1, 0)


def _wrong_lengths(trace: Explanation) -> Iterator[tuple[str, int]]:
    """r as the two length mistakes choose it: the longer of tied lengths, the shortest reference."""
    length = trace.length
    tied = [length.reference_lengths[i] for i in length.tied_indices]
    yield "tie_longer", max(tied)
    yield "shortest_reference", min(length.reference_lengths)


def _reference_length(trace: Explanation, n: int) -> Mistaken:
    yield from _wrong_lengths(trace)
    yield "candidate_length", trace.length.candidate_length


def _bp_for(c: int, r: int) -> float:
    return float(brevity_penalty(np.array([c]), np.array([r]))[0])


def _bp(trace: Explanation, n: int) -> Mistaken:
    c, r = trace.length.candidate_length, trace.length.chosen_length
    if 0 < c < r:
        yield "inverted_bp", math.exp(1 - c / r)
        yield "no_exp", 1 - r / c
    elif 0 < r < c:
        yield "not_capped", math.exp(1 - r / c)
        yield "inverted_bp", math.exp(1 - c / r)
    for code, wrong_r in _wrong_lengths(trace):
        yield code, _bp_for(c, wrong_r)


def _rescore(
    trace: Explanation, matches: Sequence[int] | None = None, ref_len: int | None = None, smooth: str | None = None
) -> float:
    """The score with other clipped counts, another r or another smoothing, everything else as in ``trace``."""
    stats = SegmentStats(
        np.array([matches if matches is not None else [o.matches for o in trace.orders]], dtype=np.int64),
        np.array([[o.total for o in trace.orders]], dtype=np.int64),
        np.array([trace.length.candidate_length], dtype=np.int64),
        np.array([trace.length.chosen_length if ref_len is None else ref_len], dtype=np.int64),
    )
    options = trace.options if smooth is None else replace(trace.options, smooth=smooth, smooth_value=None)
    return float(score_statistics(stats, options).score[0])


def _bleu(trace: Explanation, n: int) -> Mistaken:
    used = [(o.weight, o.precision) for o in trace.orders if o.weight > 0]
    mean = math.fsum(w * p for w, p in used)
    yield "no_log", trace.bp * math.exp(mean)
    yield "arithmetic_mean", trace.bp * mean
    if math.isfinite(trace.log_score):
        yield "no_exp", trace.log_score
    yield "not_clipped", _rescore(trace, matches=_unclipped(trace))
    for code, wrong_r in _wrong_lengths(trace):
        yield code, _rescore(trace, ref_len=wrong_r)
    yield "no_bp", trace.score_without_bp
    c, r = trace.length.candidate_length, trace.length.chosen_length
    if 0 < c < r:
        yield "inverted_bp", trace.score_without_bp * math.exp(1 - c / r)
    if trace.options.smooth != "none":
        yield "no_smoothing", _rescore(trace, smooth="none")
    yield "percent", 100 * trace.score


RULES: dict[str, Callable[[Explanation, int], Mistaken]] = {
    "matches": _matches,
    "total": _total,
    "reference_length": _reference_length,
    "bp": _bp,
    "bleu": _bleu,
}


def _same(quantity: Quantity, answer: float, value: float) -> bool:
    """Equal as the module's tolerances say; a decimal above 1 (a score in percent) to four significant places."""
    if not (math.isfinite(answer) and math.isfinite(value)):
        return False
    if not quantity.decimal:
        return answer == value
    return abs(answer - value) <= DECIMAL_TOLERANCE * max(1.0, abs(value)) + 1e-12


def mistaken_values(trace: Explanation, quantity: Quantity) -> tuple[tuple[str, float], ...]:
    """(code, value) of every mistake whose value differs from the right one, most likely first."""
    return distinct_mistakes(quantity, expected_value(trace, quantity), RULES[quantity.kind](trace, quantity.order))


def distinct_mistakes(
    quantity: Quantity, right: float, values: Iterator[tuple[str, float]]
) -> tuple[tuple[str, float], ...]:
    """The (code, value) pairs of ``values`` whose value differs from the right one, each code once, in order."""
    seen: set[str] = set()
    out = []
    for code, value in values:
        if code not in seen and not _same(quantity, float(value), right):
            seen.add(code)
            out.append((code, float(value)))
    return tuple(out)


def check_answer(trace: Explanation, quantity: Quantity, answer: float) -> Verdict:
    """Whether ``answer`` is right (see the module's tolerances) and, if not, the mistake it most likely comes from."""
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        raise TypeError(f"answer must be a number; got {answer!r:.40}")
    return judge(quantity, answer, expected_value(trace, quantity), lambda: mistaken_values(trace, quantity))


def judge(
    quantity: Quantity, answer: float, right: float, mistakes: Callable[[], Sequence[tuple[str, float]]]
) -> Verdict:
    """The verdict on ``answer`` given the right value and (asked only when the answer is wrong) the mistakes' values
    most likely first: the one rule of every exercise, BLEU's or chrF's."""
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        raise TypeError(f"answer must be a number; got {answer!r:.40}")
    if _same(quantity, float(answer), right):
        return Verdict(quantity, float(answer), right, True, None)
    mistake = next((code for code, value in mistakes() if _same(quantity, answer, value)), None)
    if mistake is None and quantity.decimal and _fewer_decimals(float(answer), right):
        mistake = FEW_DECIMALS
    return Verdict(quantity, float(answer), right, False, mistake)


def _fewer_decimals(answer: float, right: float) -> bool:
    """``answer`` is ``right`` rounded or cut off to one to three decimals (0.867 for 0.86688), and not 0."""
    if answer == 0 or not math.isfinite(right):
        return False
    return any(abs(answer - cut(right * 10**d) / 10**d) < 1e-9 for d in (1, 2, 3) for cut in (round, math.floor))
