"""What every re-implemented tool shares: its description record, the trace it returns, and the counts it starts from.

A tool module computes one :class:`ToolTrace` (every intermediate, with a phrase saying how the tool got it) and
reads its score off that trace.  The counts come from bleu_core's own rules (:func:`count_corpus`):
clipped matches and n-gram totals from :func:`bleu_core.stats.clipping.clipped_matches`, the closest reference
length (ties to the shorter) from :func:`bleu_core.stats.segment_stats.closest_ref_length`.  A tool that deviates
(NLTK's denominators of at least 1, HF's shortest reference, torchmetrics' tie-break) states the deviation
in its own module.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.i18n import Message, message
from bleu_core.stats.clipping import clipped_matches
from bleu_core.stats.scoring import brevity_penalty
from bleu_core.stats.segment_stats import SegmentStats, closest_ref_length
from bleu_core.stats.token_lists import token_list_statistics
from bleu_core.tokenizers import tokenize_each

Tokens = Sequence[str]

#: How a tool chooses r (``Conventions.length_rule``): the closest length with ties to the shorter, with ties to
#: the first listed (torchmetrics), or the shortest (HF evaluate).
CLOSEST, CLOSEST_FIRST, SHORTEST = "closest", "closest-first", "shortest"


class OriginalToolError(ValueError):
    """The original tool fails on this input (raises or dies); the message says how.

    :func:`bleu_core.tools.compare_implementations` reports such a tool's score as NaN.
    """


#: The allowed values of each string field, in the order the pages list them.
CHOICES: dict[str, tuple[str, ...]] = {
    "tokenizer": ("13a", "whitespace", "space"),
    "references": ("all", "first"),
    "length_rule": ("closest", "closest-first", "shortest"),
    "brevity": ("standard", "ratio", "zero-when-r-is-0"),
    "denominator": ("count", "at-least-1"),
    "smoothing": ("none", "exp", "epsilon"),
    "empty_orders": ("zero", "effective", "skip"),
    "zero_precision": ("zero", "float-min", "drop"),
    "aggregation": ("corpus", "mean"),
    "scale": ("0-1", "0-100"),
}


@dataclass(frozen=True, slots=True)
class Conventions:
    """One tool's choices; every field is one setting the waterfall can change on its own."""

    tokenizer: str = "13a"  # 13a | whitespace (str.split()) | space (str.split(' '), d2l)
    lowercase: bool = False
    references: str = "all"  # all | first (d2l takes one reference)
    length_rule: str = "closest"  # closest (ties shorter) | closest-first (torchmetrics) | shortest (HF)
    brevity: str = "standard"  # standard exp(1 - r/c) | ratio (HF: exp(1 - 1/(c/r)), 0 if c or r is 0) | r = 0 gives 0
    denominator: str = "count"  # count | at-least-1 (NLTK: max(1, total) per segment)
    smoothing: str = "none"  # none | exp (sacreBLEU) | epsilon (NLTK method1)
    empty_orders: str = "zero"  # orders without candidate n-grams: zero | effective (renormalize) | skip (d2l)
    zero_precision: str = "zero"  # zero (BLEU 0) | float-min (NLTK) | drop (NLTK 3.2, weight and all)
    weights: tuple[float, ...] = (0.25, 0.25, 0.25, 0.25)
    aggregation: str = "corpus"  # corpus statistics | mean of sentence scores
    scale: str = "0-1"  # the scale the tool prints; scores here are always in [0, 1]

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")
        if not self.weights or any(not math.isfinite(w) or w < 0 for w in self.weights):
            raise ValueError(f"weights must be one or more finite non-negative numbers; got {self.weights!r}")


#: The fields in the order of the data flow: text, references, lengths, precisions, their combination, output.
FIELDS: tuple[str, ...] = (
    "tokenizer",
    "lowercase",
    "references",
    "length_rule",
    "brevity",
    "denominator",
    "smoothing",
    "empty_orders",
    "zero_precision",
    "weights",
    "aggregation",
    "scale",
)


@dataclass(frozen=True, slots=True)
class Implementation:
    """One tool: its names, where its rules live, and its point in the space of conventions (which says, field by
    field, how it differs from the others; the pages put each choice in words from the ``[waterfall]`` catalog)."""

    key: str
    name: str
    point: Conventions  # sentence mode
    source: str  # where the original rules live (package and file)
    short_name: str = ""  # for sentences like "NLTK substitutes ..."; the name when empty
    corpus_level: bool = True  # False: the tool (or its re-implementation here) scores single sentences only
    corpus_name: str = ""  # the corpus function's name where it differs ("sacreBLEU corpus_bleu")

    @property
    def scale(self) -> str:
        """The scale the tool prints: "0-1" or "0-100"."""
        return self.point.scale

    @property
    def label(self) -> str:
        """The short name when there is one."""
        return self.short_name or self.name

    def name_message(self, corpus: bool) -> Message:
        """:meth:`name_for` as a message (a sentence-only tool's corpus name is a phrase)."""
        if corpus and not self.corpus_name and not self.corpus_level:
            return message("tools.mean_over_sentences", name=self.name)
        return message("tools.name", name=self.name_for(corpus))

    def name_for(self, corpus: bool) -> str:
        """The name of the function that gives the score: the corpus function's for a corpus."""
        if not corpus:
            return self.name
        return self.corpus_name or (self.name if self.corpus_level else f"{self.name}, mean over sentences")


@dataclass(frozen=True, slots=True)
class OrderStep:
    """One n-gram order as one tool uses it."""

    order: int
    matches: int
    total: int  # the denominator the tool divides by (NLTK: at least 1 per segment)
    precision: float  # the p_n that enters the log; 0.0 when the tool keeps a zero
    weight: float  # the weight this order gets (0 when the tool leaves it out)
    note: Message  # how the tool got ``precision`` from matches/total, as a verb phrase ("uses 3/8 = 0.375")

    @property
    def fraction(self) -> str:
        return f"{self.matches}/{self.total}"


@dataclass(frozen=True, slots=True)
class ToolTrace:
    """One tool's BLEU of a tokenized corpus (a sentence is a corpus of one segment), every step kept.

    ``failure`` is non-empty where the original tool raises or dies; ``score`` is then NaN and
    :meth:`checked_score` raises :class:`OriginalToolError` with that message.
    """

    orders: tuple[OrderStep, ...]
    candidate_length: int
    reference_length: int
    length_note: Message  # how r was chosen
    bp: float
    rule: Message | None  # the rule that decided the score when it is not BP·exp(Σ w·log p); None otherwise
    score: float  # in [0, 1]; NaN where the tool has no score or fails
    failure: str = ""

    def checked_score(self) -> float:
        """The score, or :class:`OriginalToolError` where the original tool fails."""
        if self.failure:
            raise OriginalToolError(self.failure)
        return self.score


@dataclass(frozen=True, slots=True)
class ImplementationTrace:
    """One tool's sentence BLEU as the pages show it: the tool, its tokens and its :class:`ToolTrace`'s steps."""

    implementation: Implementation
    tokenizer: str  # the tool's point's: "13a", "whitespace" or "space"
    candidate_tokens: tuple[str, ...]
    reference_tokens: tuple[tuple[str, ...], ...]
    orders: tuple[OrderStep, ...]
    candidate_length: int
    reference_length: int
    length_note: Message
    bp: float
    rule: Message | None
    score: float  # in [0, 1]; NaN where the tool has no score or fails

    @staticmethod
    def of(
        implementation: Implementation, candidate: Tokens, references: Sequence[Tokens], steps: ToolTrace
    ) -> ImplementationTrace:
        """The sentence view of ``steps``, computed on ``candidate`` and ``references`` (the tool's tokens)."""
        return ImplementationTrace(
            implementation=implementation,
            tokenizer=implementation.point.tokenizer,
            candidate_tokens=tuple(candidate),
            reference_tokens=tuple(tuple(ref) for ref in references),
            orders=steps.orders,
            candidate_length=steps.candidate_length,
            reference_length=steps.reference_length,
            length_note=steps.length_note,
            bp=steps.bp,
            rule=steps.rule,
            score=steps.score,
        )

    @property
    def native_score(self) -> float:
        """The score on the tool's own scale."""
        return 100 * self.score if self.implementation.scale == "0-100" else self.score

    @property
    def final_rule(self) -> Message:
        return self.rule or message("tools.rule_standard")


@dataclass(frozen=True, slots=True)
class CorpusSums:
    """What a corpus score reads of :class:`CorpusCounts`: the counts summed over segments, and per order the
    segments without n-grams (NLTK's corpus BLEU needs no more).  :meth:`CorpusCounts.sums` sums per-segment
    counts; :meth:`of_statistics` sums an engine's statistics without a tuple per segment."""

    max_order: int
    segments: int
    matches: tuple[int, ...]  # clipped matches per order
    totals: tuple[int, ...]  # candidate n-grams per order
    empty_segments: tuple[int, ...]  # per order, the segments without candidate n-grams of that order
    candidate_length: int  # c
    closest_length: int  # r by the shared rule (ties to the shorter), summed
    only_lengths: tuple[int, ...] = ()  # a one-segment corpus: its reference lengths (for the length note)

    @staticmethod
    def of_statistics(stats: SegmentStats, only_lengths: tuple[int, ...] = ()) -> CorpusSums:
        """The sums of an engine's segment statistics (``only_lengths`` as in the field)."""
        return CorpusSums(
            stats.max_order,
            len(stats),
            tuple(stats.matches.sum(axis=0).tolist()),
            tuple(stats.totals.sum(axis=0).tolist()),
            tuple((stats.totals == 0).sum(axis=0).tolist()),
            int(stats.hyp_len.sum()),
            int(stats.ref_len.sum()),
            only_lengths,
        )

    def length_note(self, rule: str) -> Message:
        """How r was chosen, in words (see :func:`length_note`)."""
        return segments_length_note(rule, self.candidate_length, self.segments, self.only_lengths, self.closest_length)


@dataclass(frozen=True, slots=True)
class CorpusCounts:
    """Clipped counts of a tokenized corpus by bleu_core's rules, per segment and summed, and every reference
    length a tool may need (a tool that deviates from the closest-reference rule starts from those)."""

    max_order: int
    segment_matches: tuple[tuple[int, ...], ...]  # [segment][order - 1], from :func:`clipping.clipped_matches`
    segment_totals: tuple[tuple[int, ...], ...]  # [segment][order - 1]: max(c - n + 1, 0), from the same call
    candidate_lengths: tuple[int, ...]
    reference_lengths: tuple[tuple[int, ...], ...]  # per segment, each reference's length
    closest_length: int  # r by the shared rule (statistics.closest_ref_length: ties to the shorter), summed

    @property
    def segments(self) -> int:
        return len(self.candidate_lengths)

    @property
    def candidate_length(self) -> int:
        """c: the candidate lengths summed."""
        return sum(self.candidate_lengths)

    @property
    def matches(self) -> tuple[int, ...]:
        """Clipped matches per order, summed over segments."""
        return tuple(map(sum, zip(*self.segment_matches, strict=True))) or (0,) * self.max_order

    @property
    def totals(self) -> tuple[int, ...]:
        """Candidate n-grams per order, summed over segments."""
        return tuple(map(sum, zip(*self.segment_totals, strict=True))) or (0,) * self.max_order

    @property
    def empty_segments(self) -> tuple[int, ...]:
        """Per order, the segments without candidate n-grams of that order (NLTK counts a phantom one for each)."""
        return tuple(row.count(0) for row in zip(*self.segment_totals, strict=True)) or (0,) * self.max_order

    def sums(self) -> CorpusSums:
        """The summed counts (what a corpus score reads)."""
        only = self.reference_lengths[0] if self.segments == 1 else ()
        sums = (self.matches, self.totals, self.empty_segments)
        return CorpusSums(self.max_order, self.segments, *sums, self.candidate_length, self.closest_length, only)

    def statistics(self) -> SegmentStats:
        """The segment statistics of bleu_core's engine (:meth:`SegmentStats.from_counts`) for these counts."""
        widest = max((len(row) for row in self.reference_lengths), default=1)
        padded = [[*row, *([-1] * (widest - len(row)))] for row in self.reference_lengths]  # -1: no such reference
        return SegmentStats.from_counts(self.segment_matches, self.candidate_lengths, padded)


#: Below this many segments :func:`count_corpus` clips with Counters (the arrays' set-up costs more).
ARRAY_SEGMENTS = 64


def count_corpus(candidates: Sequence[Tokens], references: Sequence[Sequence[Tokens]], max_order: int) -> CorpusCounts:
    """Clipped matches of orders 1..``max_order`` and lengths of every segment (``references[i]``: segment i's).

    Speed trick and its plain version: a corpus of at least :data:`ARRAY_SEGMENTS` segments, each with a
    reference, is counted by the array engine (:func:`bleu_core.stats.token_lists.token_list_statistics`);
    :func:`plain_count_corpus` clips segment by segment with Counters.  Both give the same counts
    (``tests/core/test_token_lists.py``); the gain is measured by ``bench/corpus_speed.py``'s tools row.
    """
    if len(candidates) < ARRAY_SEGMENTS or not all(references):
        return plain_count_corpus(candidates, references, max_order)
    stats = token_list_statistics(candidates, references, max_order)
    return CorpusCounts(
        max_order,
        tuple(map(tuple, stats.matches.tolist())),
        tuple(map(tuple, stats.totals.tolist())),
        tuple(stats.hyp_len.tolist()),
        tuple(tuple(len(ref) for ref in refs) for refs in references),
        int(stats.ref_len.sum()),
    )


def plain_count_corpus(
    candidates: Sequence[Tokens], references: Sequence[Sequence[Tokens]], max_order: int
) -> CorpusCounts:
    """:func:`count_corpus` segment by segment with :func:`bleu_core.stats.clipping.clipped_matches` (Counters)."""
    orders = range(1, max_order + 1)
    counted = [[clipped_matches(c, refs, n) for n in orders] for c, refs in zip(candidates, references, strict=True)]
    lengths = tuple(tuple(len(ref) for ref in refs) for refs in references)
    hyp_lens = tuple(len(c) for c in candidates)
    closest = 0
    if candidates:
        widest = max(len(row) for row in lengths)
        padded = [[*row, *([-1] * (widest - len(row)))] for row in lengths]  # -1: no such reference
        closest = int(closest_ref_length(np.array(hyp_lens), np.array(padded, dtype=np.int64)).sum())
    return CorpusCounts(
        max_order,
        tuple(tuple(m for m, _ in row) for row in counted),
        tuple(tuple(t for _, t in row) for row in counted),
        hyp_lens,
        lengths,
        closest,
    )


def number(value: float) -> str:
    """A precision or score for a sentence: 4 significant digits, 2 for the tiny ones (2.2e-308)."""
    if math.isnan(value):
        return "NaN"
    if value != 0 and abs(value) < 1e-4:
        return f"{value:.2g}"
    return f"{value:.4g}"


def plain_note(matches: int, total: int) -> Message:
    """The note of an order used as counted: ``uses 3/8 = 0.375``."""
    return message("tools.note_plain", matches=matches, total=total, p=number(matches / total))


def unsmoothed_note(order: int, matches: int, total: int) -> Message:
    """The note of an order in a tool without smoothing, where a zero stays a zero."""
    if total == 0:
        return message("tools.note_no_ngrams", order=order)
    if matches == 0:
        return message("tools.note_keeps_zero", total=total)
    return plain_note(matches, total)


def point_tokens(texts: Sequence[str], point: Conventions) -> list[list[str]]:
    """Each text's tokens under ``point``'s tokenizer and case: 13a, ``str.split()`` or ``str.split(' ')``."""
    if point.tokenizer == "13a":
        return tokenize_each(texts, "13a", point.lowercase)
    lowered = [text.lower() for text in texts] if point.lowercase else texts
    return [text.split(" ") if point.tokenizer == "space" else text.split() for text in lowered]


def sentence_tokens(
    implementation: Implementation, candidate: str, references: Sequence[str]
) -> tuple[list[str], list[list[str]]]:
    """A sentence's tokens as ``implementation`` reads it: its tokenizer and case, its references (all, or the
    first)."""
    point = implementation.point
    chosen = list(references[:1]) if point.references == "first" else list(references)
    cand, *refs = point_tokens([candidate, *chosen], point)
    return cand, refs


def add_one_step(order: int, matches: int, total: int, weight: float, smoothed: bool, note_key: str) -> OrderStep:
    """An order of a tool with add-one smoothing: (matches + 1) / (total + 1) where the tool smooths it (noted
    with the tool's message ``note_key``), else matches / total (0 without n-grams).  Which orders a tool
    smooths is its own rule, decided by the caller."""
    if smoothed:
        p = (matches + 1) / (total + 1)
        return OrderStep(order, matches, total, p, weight, message(note_key, matches=matches, total=total, p=number(p)))
    p = matches / total if total else 0.0
    return OrderStep(order, matches, total, p, weight, unsmoothed_note(order, matches, total))


def first_zero(orders: Sequence[OrderStep]) -> OrderStep | None:
    """The first weighted order whose precision is 0 (it zeroes an unsmoothed score)."""
    return next((o for o in orders if o.precision == 0 and o.weight > 0), None)


def shared_brevity_penalty(candidate_length: int, reference_length: int) -> float:
    """bleu_core's BP (:func:`bleu_core.stats.scoring.brevity_penalty`) of one c and r."""
    return float(brevity_penalty(np.array([candidate_length]), np.array([reference_length]))[0])


def length_note(rule: str, candidate_length: int, lengths: Sequence[Sequence[int]], chosen: int) -> Message:
    """How r was chosen, in words (``lengths``: each segment's reference lengths)."""
    return segments_length_note(rule, candidate_length, len(lengths), lengths[0] if len(lengths) == 1 else (), chosen)


def segments_length_note(rule: str, candidate_length: int, segments: int, only: Sequence[int], chosen: int) -> Message:
    """:func:`length_note` from the number of segments and, for a single segment, its reference lengths ``only``."""
    if segments != 1:
        how = {SHORTEST: "shortest", CLOSEST_FIRST: "closest_first"}.get(rule, "closest")
        return message(f"tools.length_sum_{how}", r=chosen, segments=segments)
    listed = ", ".join(str(length) for length in only)
    if len(only) == 1:
        return message("tools.length_only", r=chosen)
    if rule == SHORTEST:
        return message("tools.length_shortest", r=chosen, lengths=listed)
    tied = sorted({length for length in only if abs(length - candidate_length) == abs(chosen - candidate_length)})
    if len(tied) > 1:  # at most two lengths are equally close: c - d and c + d
        ties = "first" if rule == CLOSEST_FIRST else "shorter"
        return message(f"tools.length_tie_{ties}", r=chosen, low=tied[0], high=tied[-1], c=candidate_length)
    return message("tools.length_closest", r=chosen, c=candidate_length, lengths=listed)
