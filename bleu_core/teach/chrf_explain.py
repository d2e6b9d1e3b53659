"""A full trace of sentence chrF / chrF++ for teaching: the units counted, one n-gram table per order, P and R per
order, their averages, the F-beta formula filled in, and which reference was chosen and why.

The statistics come from the rules of :mod:`bleu_core.stats.chrf` (its counters and its match rule) and the score
from its one scorer, so the walkthrough's score is sacreBLEU's sentence chrF.  The tables keep what sacreBLEU
merges away: each n-gram's count in the candidate and in the chosen reference, candidate n-grams first (in the
order they appear), then those only the reference has.  Averages and the formula are those of the default rule
(no eps smoothing), which is the one the walkthrough explains.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.i18n import Message
from bleu_core.limits import LIMITS, Limits
from bleu_core.stats.chrf import ChrfOptions, chrf_scores, match_row, ngram_counts, split_words

__all__ = ["ChrfExplanation", "ChrfOrder", "ChrfRow", "ReferenceScore", "chrf_options", "explain_chrf", "f_beta"]

#: The metrics the walkthrough explains, by the name the pages use: sacreBLEU's defaults for each.
METRICS = {"chrf": ChrfOptions(), "chrf++": ChrfOptions(word_order=2)}


def chrf_options(metric: str) -> ChrfOptions:
    """The settings of ``"chrf"`` (character 1- to 6-grams, β = 2) or ``"chrf++"`` (and word 1- and 2-grams)."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}; got {metric!r}")
    return METRICS[metric]


def f_beta(precision: float, recall: float, beta: float) -> float:
    """F-beta = (1 + β²) P R / (β² P + R), 0 when P + R = 0 (β > 1 weighs recall more than precision)."""
    factor = beta**2
    if precision + recall == 0:
        return 0.0
    return (1 + factor) * precision * recall / (factor * precision + recall)


@dataclass(frozen=True, slots=True)
class ChrfRow:
    """One n-gram of a table: its count in the candidate and in the chosen reference."""

    text: str  # characters as they are; word n-grams joined by a space
    candidate_count: int
    reference_count: int

    @property
    def matched(self) -> int:
        """min(count in candidate, count in reference): what the n-gram adds to the matches."""
        return min(self.candidate_count, self.reference_count)


@dataclass(frozen=True, slots=True)
class ChrfOrder:
    """One order's statistics against the chosen reference, and its table (at most ``summary_rows`` rows)."""

    kind: str  # "char" or "word"
    n: int
    rows: tuple[ChrfRow, ...]
    rows_total: int  # distinct n-grams of both sides; more than len(rows) when the table is cut
    matches: int
    candidate_total: int  # the statistic: 0 when the reference has no n-gram of this order (sacreBLEU's rule)
    reference_total: int

    @property
    def used(self) -> bool:
        """Both sides have n-grams of this order: the order counts in the averages."""
        return self.candidate_total > 0 and self.reference_total > 0

    @property
    def precision(self) -> float | None:
        """matches / candidate n-grams, None when undefined (no candidate n-gram counted)."""
        return self.matches / self.candidate_total if self.candidate_total else None

    @property
    def recall(self) -> float | None:
        """matches / reference n-grams, None when undefined."""
        return self.matches / self.reference_total if self.reference_total else None

    @property
    def label(self) -> str:
        """``c3`` for character 3-grams, ``w1`` for words."""
        return f"{self.kind[0]}{self.n}"


@dataclass(frozen=True, slots=True)
class ReferenceScore:
    """One reference's sentence chrF (0-100) against the candidate, as the choice of the best one sees it."""

    index: int
    score: float


@dataclass(frozen=True, slots=True)
class ChrfExplanation:
    """Every intermediate of one segment's chrF (β, orders and settings in ``options``)."""

    candidate: str
    references: tuple[str, ...]
    options: ChrfOptions
    candidate_characters: str  # the characters counted (whitespace removed), cut to ``walkthrough_tokens``
    reference_characters: tuple[str, ...]
    candidate_words: tuple[str, ...]  # chrF++'s words (empty for chrF), cut likewise
    reference_words: tuple[tuple[str, ...], ...]
    character_counts: tuple[int, ...]  # characters counted in the candidate, then in each reference (uncut)
    word_counts: tuple[int, ...]  # chrF++'s words likewise (uncut; 0 for chrF)
    reference_scores: tuple[ReferenceScore, ...]
    chosen: int  # index of the reference whose statistics the score uses
    orders: tuple[ChrfOrder, ...]
    precision: float  # average P over the used orders (0 if none)
    recall: float
    score: float  # sentence chrF, 0-100, sacreBLEU's scale
    cut: bool  # the units or a table were cut for display (the numbers are exact)

    @property
    def beta(self) -> float:
        return self.options.beta

    @property
    def used_orders(self) -> tuple[ChrfOrder, ...]:
        return tuple(order for order in self.orders if order.used)

    @property
    def f_score(self) -> float:
        """The F-beta of the averages (0-1): :attr:`score` / 100, written out."""
        return f_beta(self.precision, self.recall, self.beta)

    @property
    def name(self) -> str:
        """chrF, or chrF++ when word n-grams count too."""
        return "chrF++" if self.options.word_order else "chrF"

    def shown_fraction(self, digits: int = 4) -> tuple[float, float, float, float]:
        """P and R rounded to ``digits`` as a page prints them, and the F-beta numerator (1 + β²) P R and denominator
        β² P + R worked from those rounded values: a reader who recomputes a printed step gets the printed number."""
        p, r, factor = round(self.precision, digits), round(self.recall, digits), self.beta**2
        return p, r, (1 + factor) * p * r, factor * p + r

    @property
    def choice_message(self) -> Message:
        """Why this reference (``chrf.choice_*`` in the catalogs)."""
        scores = [r.score for r in self.reference_scores]
        best = f"{self.reference_scores[self.chosen].score:.2f}"
        if len(scores) == 1:
            return Message("chrf.choice_one", {})
        if scores.count(max(scores)) > 1:
            return Message("chrf.choice_tie", {"k": self.chosen + 1, "score": best, "metric": self.name})
        return Message("chrf.choice_best", {"k": self.chosen + 1, "score": best, "metric": self.name})


def _prepared(text: str, options: ChrfOptions) -> str:
    return text.lower() if options.lowercase else text


def _characters(text: str, options: ChrfOptions) -> str:
    return text if options.whitespace else "".join(text.split())


def _shown(gram: Hashable) -> str:
    return " ".join(gram) if isinstance(gram, tuple) else str(gram)


def _order(
    kind: str, n: int, hyp: Counter[Hashable], ref: Counter[Hashable], stats: Sequence[int], limit: int
) -> ChrfOrder:
    """One order's table: candidate n-grams in order of appearance, then the reference's others; past ``limit``
    rows, the n-grams with the largest counts on either side first."""
    grams = [*hyp, *(gram for gram in ref if gram not in hyp)]
    if len(grams) > limit:  # rows are made for the kept n-grams only (a long text has ~10^5 of them)
        largest = heapq.nlargest(limit, range(len(grams)), key=lambda i: hyp.get(grams[i], 0) + ref.get(grams[i], 0))
        kept = [grams[i] for i in sorted(largest)]
    else:
        kept = grams
    rows = tuple(ChrfRow(_shown(g), hyp.get(g, 0), ref.get(g, 0)) for g in kept)
    return ChrfOrder(kind, n, rows, len(grams), stats[2], stats[0], stats[1])


def explain_chrf(
    candidate: str, references: Sequence[str], options: ChrfOptions = METRICS["chrf"], limits: Limits = LIMITS
) -> ChrfExplanation:
    """Sentence chrF of ``candidate`` against ``references`` with every intermediate.

    Each reference is scored (its statistics through :func:`~bleu_core.stats.chrf.chrf_scores`); the first with
    the highest score is kept, as sacreBLEU keeps it.  Tables show at most ``limits.summary_rows`` rows per order,
    the units at most ``limits.walkthrough_tokens``; every number stays exact.
    """
    present = [ref for ref in references if ref.strip()]
    if not present:
        raise ValueError("chrF needs at least one non-empty reference; give a reference line")
    hyp_text = _prepared(candidate, options)
    ref_texts = [_prepared(ref, options) for ref in present]
    hyp = ngram_counts(hyp_text, options)
    refs = [ngram_counts(ref, options) for ref in ref_texts]
    rows = np.asarray([match_row(hyp, ref) for ref in refs], dtype=np.int64)
    scores = np.atleast_1d(chrf_scores(rows, options))
    chosen = int(np.argmax(scores))  # the first of the highest
    row = [int(x) for x in rows[chosen]]
    kinds = [("char", n) for n in range(1, options.char_order + 1)]
    kinds += [("word", n) for n in range(1, options.word_order + 1)]
    limit = limits.summary_rows
    orders = tuple(
        _order(kind, n, hyp[i], refs[chosen][i], (row[3 * i], row[3 * i + 1], row[3 * i + 2]), limit)
        for i, (kind, n) in enumerate(kinds)
    )
    used = [order for order in orders if order.used]
    precision = recall = 0.0
    for order in used:  # summed first order first, as the scorer sums
        precision += order.matches / order.candidate_total
        recall += order.matches / order.reference_total
    if used:
        precision, recall = precision / len(used), recall / len(used)
    keep = limits.walkthrough_tokens
    chars = [_characters(text, options) for text in (hyp_text, *ref_texts)]
    words = [tuple(split_words(text)) if options.word_order else () for text in (hyp_text, *ref_texts)]
    cut = any(len(c) > keep for c in chars) or any(len(w) > keep for w in words)
    return ChrfExplanation(
        candidate=candidate,
        references=tuple(present),
        options=options,
        candidate_characters=chars[0][:keep],
        reference_characters=tuple(c[:keep] for c in chars[1:]),
        candidate_words=words[0][:keep],
        reference_words=tuple(w[:keep] for w in words[1:]),
        character_counts=tuple(len(c) for c in chars),
        word_counts=tuple(map(len, words)),
        reference_scores=tuple(ReferenceScore(i, float(s)) for i, s in enumerate(scores)),
        chosen=chosen,
        orders=orders,
        precision=precision,
        recall=recall,
        score=float(scores[chosen]),
        cut=cut or any(len(o.rows) < o.rows_total for o in orders),
    )
