"""A full trace of sentence BLEU for teaching: every count, clip, length and log term.

Unlike the corpus engine, the trace keeps the count of every n-gram in every
reference (the tables of textbook walkthroughs).  Its statistics go through
the same scorer as :func:`bleu_core.corpus_bleu`, so the numbers agree.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Unpack

import numpy as np
from numpy.typing import NDArray

from bleu_core.api import corpus_statistics, sentence_references
from bleu_core.i18n import Message
from bleu_core.limits import LIMITS, Limits
from bleu_core.options import SMOOTH_DEFAULTS, BleuOptions, OptionSettings, options_from
from bleu_core.stats.clipping import clip_counts
from bleu_core.stats.scoring import ScoreArrays, score_statistics
from bleu_core.stats.segment_stats import SegmentStats, closest_reference
from bleu_core.tokenizers import tokenize_lines

Ngram = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NgramRow:
    """One line of a clipped-count table."""

    ngram: Ngram
    candidate_count: int
    reference_counts: tuple[int, ...]
    max_reference_count: int
    clipped: int
    best_reference: int | None  # index of the first reference holding the max count, None if no reference has it

    @property
    def text(self) -> str:
        return " ".join(self.ngram)

    @property
    def clipped_away(self) -> int:
        """Occurrences over the max reference count (the part clipping removes)."""
        return self.candidate_count - self.clipped


@dataclass(frozen=True, slots=True)
class NgramSpan:
    """One occurrence of an n-gram in the candidate and what clipping made of it."""

    start: int
    ngram: Ngram
    status: str  # "matched", "clipped" (over the max reference count) or "unmatched"
    best_reference: int | None


@dataclass(frozen=True, slots=True)
class OrderBreakdown:
    """Clipping for one n-gram order of one segment, and its share of the score."""

    order: int
    rows: tuple[NgramRow, ...]
    spans: tuple[NgramSpan, ...]
    matches: int
    total: int
    smoothed_matches: float  # numerator after smoothing
    smoothed_total: float  # denominator after smoothing
    precision: float  # p_n after smoothing, in [0, 1]
    weight: float  # weight actually applied (0 for orders beyond the effective order)
    log_term: float  # weight * log(precision); -inf when the precision is 0
    smoothed: bool  # smoothing changed this order's fraction

    @property
    def fraction(self) -> str:
        """The unsmoothed precision as textbooks print it, unreduced: ``4/6``."""
        return f"{self.matches}/{self.total}"

    @property
    def raw_precision(self) -> float:
        return self.matches / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class LengthChoice:
    """How the effective reference length r was chosen for the brevity penalty."""

    candidate_length: int
    reference_lengths: tuple[int, ...]
    differences: tuple[int, ...]  # |r - c| per reference
    chosen_index: int
    chosen_length: int
    tied_indices: tuple[int, ...]  # references at the same smallest distance

    @property
    def reason_message(self) -> Message:
        """Why r is what it is, as a message for any language (``explain.reason_*`` in the catalogs)."""
        c, r = self.candidate_length, self.chosen_length
        if len(self.reference_lengths) == 1:
            return Message("explain.reason_one", {"r": r})
        lengths = sorted({self.reference_lengths[i] for i in self.tied_indices})
        if len(lengths) > 1:
            tied = " / ".join(str(length) for length in lengths)
            return Message("explain.reason_tie", {"tied": tied, "c": c, "d": abs(r - c), "r": r})
        return Message("explain.reason_closest", {"c": c, "d": abs(r - c), "r": r})

    @property
    def reason(self) -> str:
        """:attr:`reason_message` in English."""
        return str(self.reason_message)


@dataclass(frozen=True, slots=True)
class Cut:
    """What a summarized walkthrough leaves out (:data:`bleu_core.limits.LIMITS`), with the sizes that caused it.

    The score, BP, lengths and every order's matches and total stay exact; the clipped-count tables keep their
    ``rows_kept`` most frequent n-grams (of ``rows`` distinct ones per order), the token lists their first
    ``tokens_kept`` tokens, the texts a preview of that many tokens, and no occurrence (span) is traced.
    """

    candidate_tokens: int
    reference_tokens: tuple[int, ...]
    references: int
    rows: tuple[int, ...]  # distinct candidate n-grams per order
    tokens_kept: int
    rows_kept: int
    references_kept: int

    @property
    def longest(self) -> int:
        return max(self.candidate_tokens, *self.reference_tokens)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Every intermediate of sentence BLEU for one candidate."""

    candidate: str
    references: tuple[str, ...]
    options: BleuOptions
    candidate_tokens: tuple[str, ...]
    reference_tokens: tuple[tuple[str, ...], ...]
    orders: tuple[OrderBreakdown, ...]
    length: LengthChoice
    bp: float
    log_bp: float
    used_orders: int
    score: float
    no_unigram_match: bool  # sacreBLEU returns 0 outright when nothing matches
    cut: Cut | None = None  # set when the input is past the walkthrough's limits: the detail is summarized

    @property
    def score_100(self) -> float:
        return 100.0 * self.score

    @property
    def score_without_bp(self) -> float:
        """What the score would be with BP = 1."""
        if self.bp > 0:
            return self.score / self.bp
        return math.exp(sum(o.log_term for o in self.orders)) if not self.no_unigram_match else 0.0

    @property
    def log_score(self) -> float:
        return self.log_bp + sum(o.log_term for o in self.orders)

    @property
    def empty_orders(self) -> tuple[int, ...]:
        """Orders the candidate is too short to have (p_n = 0/0; sacreBLEU counts them as 0 without effective order)."""
        return tuple(o.order for o in self.orders if o.total == 0)

    @property
    def zero_orders(self) -> tuple[int, ...]:
        """Orders whose unsmoothed precision is 0 (unsmoothed BLEU is then 0)."""
        return tuple(o.order for o in self.orders if o.total > 0 and o.matches == 0)

    def statistics(self) -> SegmentStats:
        return SegmentStats.from_counts(
            [[o.matches for o in self.orders]], [self.length.candidate_length], [self.length.reference_lengths]
        )


def paper_text(text: str) -> str:
    """Text as Papineni et al. (2002) count it: lower-cased, punctuation removed, single spaces.

    Their worked examples ignore case and punctuation: ``the`` matches ``The`` and ``mat.`` is ``mat``.
    """
    kept = "".join(" " if unicodedata.category(ch).startswith("P") else ch for ch in text.lower())
    return " ".join(kept.split())


def choose_reference_length(candidate_length: int, reference_lengths: Sequence[int]) -> LengthChoice:
    """The closest reference length and why (:func:`statistics.closest_reference` owns the rule)."""
    diffs = tuple(abs(r - candidate_length) for r in reference_lengths)
    chosen = int(closest_reference(np.array([candidate_length]), np.array([reference_lengths], dtype=np.int64))[0])
    tied = tuple(i for i, d in enumerate(diffs) if d == diffs[chosen])
    return LengthChoice(candidate_length, tuple(reference_lengths), diffs, chosen, reference_lengths[chosen], tied)


def _order_table(
    candidate: Sequence[str], references: Sequence[Sequence[str]], n: int
) -> tuple[list[NgramRow], list[NgramSpan]]:
    """The clipped-count table of one order (:func:`clipping.clip_counts`) and what became of each occurrence."""
    clipped = clip_counts(candidate, references, n)
    rows = []
    by_ngram: dict[Ngram, NgramRow] = {}
    for i, ngram in enumerate(clipped.ngrams):
        counts = clipped.reference_counts[i]
        top = clipped.max_reference_counts[i]
        row = NgramRow(
            ngram=ngram,
            candidate_count=clipped.candidate_counts[i],
            reference_counts=counts,
            max_reference_count=top,
            clipped=clipped.clipped[i],
            best_reference=counts.index(top) if top > 0 else None,
        )
        rows.append(row)
        by_ngram[row.ngram] = row
    seen: Counter[Ngram] = Counter()
    spans = []
    for start in range(clipped.total):
        ngram = tuple(candidate[start : start + n])
        seen[ngram] += 1
        row = by_ngram[ngram]
        status = "unmatched" if row.max_reference_count == 0 else "matched" if seen[ngram] <= row.clipped else "clipped"
        spans.append(NgramSpan(start, ngram, status, row.best_reference))
    return rows, spans


def _ngram_keys(sentences: Sequence[NDArray[np.int64]], max_order: int, bound: int) -> list[list[NDArray[np.int64]]]:
    """Integer keys of every n-gram of every sentence (token ids below ``bound``), order by order: equal n-grams,
    equal keys, across sentences. An n-gram's key is the rank of its first n-1 tokens times ``bound`` plus its
    last token; ranks are renumbered densely at each order so that keys stay small."""
    keys = [list(sentences)]
    for n in range(2, max_order + 1):
        raw = [
            previous[: max(len(ids) - n + 1, 0)] * bound + ids[n - 1 :]
            for previous, ids in zip(keys[-1], sentences, strict=True)
        ]
        _, dense = np.unique(np.concatenate(raw), return_inverse=True)
        keys.append(np.split(dense.astype(np.int64), np.cumsum([len(r) for r in raw])[:-1]))
    return keys


def _summary_table(
    candidate: NDArray[np.int64],
    references: Sequence[NDArray[np.int64]],
    tokens: Sequence[str],
    n: int,
    keep: int,
    columns: int,
) -> tuple[list[NgramRow], int]:
    """The ``keep`` most frequent candidate n-grams of order n (ties: first occurrence first) with their clipped
    counts against every reference (the first ``columns`` references' counts kept for the table), and how many
    distinct n-grams the candidate has. ``candidate`` and ``references`` hold n-gram keys (:func:`_ngram_keys`);
    ``tokens`` are the candidate's. Counted with sorted keys: a Python Counter of 200,000 tuples per order and
    reference took seconds."""
    keys, first, counts = np.unique(candidate, return_index=True, return_counts=True)
    chosen = np.lexsort((first, -counts))[:keep]
    top = keys[chosen]
    per_reference = []
    for reference in references:
        found, found_counts = np.unique(reference, return_counts=True)
        if found.shape[0] == 0:
            per_reference.append(np.zeros(top.shape[0], dtype=np.int64))
            continue
        at = np.minimum(np.searchsorted(found, top), found.shape[0] - 1)
        per_reference.append(np.where(found[at] == top, found_counts[at], 0))
    rows = []
    for i, index in enumerate(chosen):
        start = int(first[index])
        count = int(counts[index])
        in_references = tuple(int(c[i]) for c in per_reference)
        most = max(in_references, default=0)
        best = in_references.index(most) if most else None
        ngram = tuple(tokens[start : start + n])
        rows.append(NgramRow(ngram, count, in_references[:columns], most, min(count, most), best))
    return rows, int(keys.shape[0])


def _summarize(
    candidate: str,
    present: list[str],
    tokens: list[list[str]],
    options: BleuOptions,
    limits: Limits,
) -> tuple[list[tuple[list[NgramRow], list[NgramSpan]]], SegmentStats, Cut]:
    """Past the limits: exact statistics from the vectorized engine, the most frequent rows, no spans."""
    cand_tokens, ref_tokens = tokens[0], tokens[1:]
    stats, _ = corpus_statistics([candidate], [[r] for r in present], options)
    vocabulary, inverse = np.unique(np.array([w for sentence in tokens for w in sentence]), return_inverse=True)
    ids = np.split(inverse.astype(np.int64), np.cumsum([len(sentence) for sentence in tokens])[:-1])
    keys = _ngram_keys(ids, options.max_order, max(len(vocabulary), 1))
    summaries = [
        _summary_table(
            keys[n - 1][0], keys[n - 1][1:], cand_tokens, n, limits.summary_rows, limits.walkthrough_references
        )
        for n in range(1, options.max_order + 1)
    ]
    tables: list[tuple[list[NgramRow], list[NgramSpan]]] = [(rows, []) for rows, _ in summaries]
    distinct = tuple(count for _, count in summaries)
    cut = Cut(
        candidate_tokens=len(cand_tokens),
        reference_tokens=tuple(len(r) for r in ref_tokens),
        references=len(ref_tokens),
        rows=distinct,
        tokens_kept=limits.walkthrough_tokens,
        rows_kept=limits.summary_rows,
        references_kept=min(len(ref_tokens), limits.walkthrough_references),
    )
    return tables, stats, cut


def _preview(tokens: Sequence[str], keep: int) -> str:
    return " ".join(tokens[:keep]) + (" …" if len(tokens) > keep else "")


def _breakdowns(
    tables: list[tuple[list[NgramRow], list[NgramSpan]]], stats: SegmentStats, arrays: ScoreArrays
) -> list[OrderBreakdown]:
    """Each order's clipping table with its counts, smoothing and log term, read off the scored statistics."""
    orders = []
    for i, (rows, spans) in enumerate(tables):
        matches, total = int(stats.matches[0, i]), int(stats.totals[0, i])
        orders.append(
            OrderBreakdown(
                order=i + 1,
                rows=tuple(rows),
                spans=tuple(spans),
                matches=matches,
                total=total,
                smoothed_matches=float(arrays.smoothed_matches[0, i]),
                smoothed_total=float(arrays.smoothed_totals[0, i]),
                precision=float(arrays.precisions[0, i]),
                weight=float(arrays.weights[0, i]),
                log_term=float(arrays.log_terms[0, i]),
                smoothed=(float(arrays.smoothed_matches[0, i]), float(arrays.smoothed_totals[0, i]))
                != (float(matches), float(total)),
            )
        )
    return orders


def explain(
    candidate: str,
    references: Sequence[str],
    options: BleuOptions | None = None,
    limits: Limits = LIMITS,
    **settings: Unpack[OptionSettings],
) -> Explanation:
    """Trace sentence BLEU of ``candidate`` against ``references`` (same defaults as :func:`sentence_bleu`).

    Past ``limits.walkthrough_tokens`` tokens in a sentence or ``limits.walkthrough_references`` references the
    trace is summarized (:class:`Cut`): the score, BP, lengths and per-order totals stay exact (the vectorized
    engine), the tables keep their most frequent rows, and the result stays small whatever the input's size.
    """
    options = options_from(options, settings, effective_order=True, caller="explain")
    if not isinstance(candidate, str):
        raise TypeError(f"candidate must be a str; got {type(candidate).__name__}")
    refs = [stream[0] for stream in sentence_references(references)]
    present = [r for r in refs if r is not None]
    tokens = tokenize_lines([candidate, *present], options.tokenize, options.lowercase)
    cand_tokens, ref_tokens = tokens[0], tokens[1:]
    length = choose_reference_length(len(cand_tokens), [len(r) for r in ref_tokens])
    cut = None
    tables: list[tuple[list[NgramRow], list[NgramSpan]]]
    if max(map(len, tokens)) > limits.walkthrough_tokens or len(ref_tokens) > limits.walkthrough_references:
        tables, stats, cut = _summarize(candidate, present, tokens, options, limits)
    else:
        tables = [_order_table(cand_tokens, ref_tokens, n) for n in range(1, options.max_order + 1)]
        stats = SegmentStats.from_counts(
            [[sum(row.clipped for row in rows) for rows, _ in tables]], [len(cand_tokens)], [length.reference_lengths]
        )
    arrays = score_statistics(stats, options)
    orders = _breakdowns(tables, stats, arrays)
    bp = float(arrays.bp[0])
    keep = limits.walkthrough_tokens if cut else None
    shown = ref_tokens[: limits.walkthrough_references] if cut else ref_tokens
    return Explanation(
        candidate=candidate if cut is None else _preview(cand_tokens, limits.walkthrough_tokens),
        references=tuple(present) if cut is None else tuple(_preview(r, limits.walkthrough_tokens) for r in shown),
        options=options,
        candidate_tokens=tuple(cand_tokens[:keep]),
        reference_tokens=tuple(tuple(r[:keep]) for r in shown),
        orders=tuple(orders),
        length=length,
        bp=bp,
        log_bp=math.log(bp) if bp > 0 else -math.inf,
        used_orders=int(arrays.used_orders[0]),
        score=float(arrays.score[0]),
        no_unigram_match=not bool(stats.matches[0].any()),
        cut=cut,
    )


def smoothing_alternatives(explanation: Explanation) -> dict[str, float]:
    """The score under each of sacreBLEU's smoothing methods (default values), other settings unchanged."""
    stats = explanation.statistics()
    out = {}
    base = explanation.options
    for method in SMOOTH_DEFAULTS:
        options = replace(base, smooth=method, smooth_value=None)
        out[method] = float(score_statistics(stats, options).score[0])
    return out
