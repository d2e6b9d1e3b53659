"""chrF and chrF++ exercises: the student computes, by hand, the character 1-gram statistics, P and R, (for
chrF++) the word 1-gram statistics, and the F-score.

The sentences are an exercise's (:mod:`bleu_core.teach.exercises`); the steps ask, against the reference chrF
chooses (:func:`~bleu_core.teach.chrf_explain.explain_chrf`): the 1-gram matches and the two totals; P1 and R1;
for chrF++ (a trace with word orders), the word 1-gram matches and the two word counts, words as sacreBLEU splits
them (:func:`~bleu_core.stats.chrf.split_words`); then, from the average P and R over all orders as printed (four
decimals), the F-score on sacreBLEU's 0-100 scale.  Answers go
through the BLEU exercises' one rule (:func:`~bleu_core.teach.exercise_checks.judge`: whole numbers exact,
decimals within 0.0001, relative above 1), and a wrong one is matched to the mistake that gives its value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator

from bleu_core.stats.chrf import split_words
from bleu_core.teach.chrf_explain import ChrfExplanation, ChrfOrder, f_beta
from bleu_core.teach.exercise_checks import (
    CHRF_KINDS,
    CHRF_WORD_KINDS,
    Quantity,
    Verdict,
    distinct_mistakes,
    judge,
)

__all__ = [
    "CHRF_MISTAKES",
    "CHRF_WORD_MISTAKES",
    "check_chrf_answer",
    "chrf_exercise_steps",
    "chrf_expected_value",
    "chrf_mistaken_values",
    "given_averages",
    "word_unigrams",
]

#: Every mistake code a chrF step can name (each has a sentence: ``chrf.exercise.mistake_<code>``).
CHRF_MISTAKES = (
    "spaces",
    "not_min",
    "reference_side",
    "distinct",
    "candidate_side",
    "swapped",
    "f1",
    "beta_on_precision",
    "arithmetic",
    "scale",
)
#: Every mistake code the word step of chrF++ can name (each has a sentence: ``chrf.exercise.words.mistake_<code>``).
CHRF_WORD_MISTAKES = (
    "split",
    "not_min",
    "distinct",
    "reference_side",
    "candidate_side",
)


def chrf_exercise_steps(trace: ChrfExplanation) -> tuple[tuple[Quantity, ...], ...]:
    """Character 1-grams: (matches, candidate total, reference total); then (P1, R1); for chrF++ (word orders in
    the trace's options), word 1-grams: (matches, candidate words, reference words); then the F-score."""
    characters = (
        (Quantity("chrf_matches", 1), Quantity("chrf_candidate_total", 1), Quantity("chrf_reference_total", 1)),
        (Quantity("chrf_precision", 1), Quantity("chrf_recall", 1)),
    )
    words = (
        (
            Quantity("chrf_word_matches", 1),
            Quantity("chrf_word_candidate_total", 1),
            Quantity("chrf_word_reference_total", 1),
        ),
    )
    return (*characters, *(words if trace.options.word_order else ()), (Quantity("chrf"),))


def given_averages(trace: ChrfExplanation) -> tuple[float, float]:
    """The average P and R as the F-score step prints them (four decimals): the numbers the student starts from.

    They are the trace's averages over every order both sides have: characters 1-6 and, for chrF++, words 1-2."""
    return round(trace.precision, 4), round(trace.recall, 4)


def _unigrams(text: str, spaces: bool) -> Counter[Hashable]:
    """Character counts of ``text`` (as the trace counts it: lower-cased if its options say so)."""
    return Counter(text if spaces else "".join(text.split()))


def _texts(trace: ChrfExplanation) -> tuple[str, str]:
    hyp, ref = trace.candidate, trace.references[trace.chosen]
    return (hyp.lower(), ref.lower()) if trace.options.lowercase else (hyp, ref)


def word_unigrams(trace: ChrfExplanation) -> ChrfOrder:
    """The trace's word 1-gram order (a chrF++ trace's)."""
    found = next((order for order in trace.orders if order.kind == "word" and order.n == 1), None)
    if found is None:
        raise ValueError("this trace has no word orders; explain it with chrF++'s options (word_order=2)")
    return found


def chrf_expected_value(trace: ChrfExplanation, quantity: Quantity) -> float:
    """The right answer."""
    if quantity.kind in CHRF_WORD_KINDS:
        words = word_unigrams(trace)
        totals = {
            "chrf_word_candidate_total": words.candidate_total,
            "chrf_word_reference_total": words.reference_total,
        }
        return float(totals.get(quantity.kind, words.matches))
    if quantity.kind not in CHRF_KINDS:
        raise ValueError(f"{quantity.kind!r} is a BLEU quantity; check it with bleu_core.teach.exercise_checks")
    if quantity.kind == "chrf":
        return 100 * f_beta(*given_averages(trace), trace.beta)
    order = trace.orders[0]
    values = {
        "chrf_matches": order.matches,
        "chrf_candidate_total": order.candidate_total,
        "chrf_reference_total": order.reference_total,
        "chrf_precision": order.precision or 0.0,
        "chrf_recall": order.recall or 0.0,
    }
    return float(values[quantity.kind])


def _spaced(trace: ChrfExplanation) -> tuple[int, int, int]:
    """(matches, candidate total, reference total) of 1-grams with the spaces counted as characters."""
    hyp, ref = (_unigrams(text, True) for text in _texts(trace))
    return sum((hyp & ref).values()), sum(hyp.values()), sum(ref.values())


def _word_mistakes(trace: ChrfExplanation, kind: str) -> Iterator[tuple[str, float]]:
    """The word step's mistakes: words split at spaces only (punctuation left on), distinct words, no minimum, the
    other side's count."""
    hyp_text, ref_text = _texts(trace)
    hyp, ref = Counter(split_words(hyp_text)), Counter(split_words(ref_text))
    hyp_spaced, ref_spaced = Counter(hyp_text.split()), Counter(ref_text.split())
    words = word_unigrams(trace)
    if kind == "chrf_word_matches":
        yield "split", sum((hyp_spaced & ref_spaced).values())
        yield "not_min", sum(count for word, count in hyp.items() if word in ref)
        yield "distinct", len(hyp & ref)
    elif kind == "chrf_word_candidate_total":
        yield "split", sum(hyp_spaced.values())
        yield "distinct", len(hyp)
        yield "reference_side", words.reference_total
    else:
        yield "split", sum(ref_spaced.values())
        yield "distinct", len(ref)
        yield "candidate_side", words.candidate_total


def _mistakes(trace: ChrfExplanation, kind: str) -> Iterator[tuple[str, float]]:
    if kind in CHRF_WORD_KINDS:
        yield from _word_mistakes(trace, kind)
        return
    hyp, ref = (_unigrams(text, False) for text in _texts(trace))
    order = trace.orders[0]
    matches, hyp_total, ref_total = _spaced(trace)
    if kind == "chrf_matches":
        yield "spaces", matches
        yield "not_min", sum(count for char, count in hyp.items() if char in ref)
        yield "reference_side", sum(count for char, count in ref.items() if char in hyp)
    elif kind == "chrf_candidate_total":
        yield "spaces", hyp_total
        yield "distinct", len(hyp)
        yield "reference_side", order.reference_total
    elif kind == "chrf_reference_total":
        yield "spaces", ref_total
        yield "distinct", len(ref)
        yield "candidate_side", order.candidate_total
    elif kind in ("chrf_precision", "chrf_recall"):
        precision, recall = order.precision or 0.0, order.recall or 0.0
        yield "swapped", recall if kind == "chrf_precision" else precision
        if hyp_total and ref_total:
            yield "spaces", matches / hyp_total if kind == "chrf_precision" else matches / ref_total
    else:
        p, r = given_averages(trace)
        factor = trace.beta**2
        yield "f1", 100 * f_beta(p, r, 1)
        if p + r:
            yield "beta_on_precision", 100 * (1 + factor) * p * r / (p + factor * r)
        yield "arithmetic", 100 * (p + r) / 2
        yield "scale", f_beta(p, r, trace.beta)


def chrf_mistaken_values(trace: ChrfExplanation, quantity: Quantity) -> tuple[tuple[str, float], ...]:
    """(code, value) of every mistake whose value differs from the right one, most likely first."""
    return distinct_mistakes(quantity, chrf_expected_value(trace, quantity), _mistakes(trace, quantity.kind))


def check_chrf_answer(trace: ChrfExplanation, quantity: Quantity, answer: float) -> Verdict:
    """Whether ``answer`` is right and, if not, the mistake it most likely comes from."""
    return judge(quantity, answer, chrf_expected_value(trace, quantity), lambda: chrf_mistaken_values(trace, quantity))
