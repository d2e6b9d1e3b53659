"""The gap between two BLEU tools as a waterfall: change one setting at a time, score every step.

Tool A's :class:`~bleu_core.gaps.conventions.Conventions` morph into tool B's one field at a time; every row is
scored by the one parametrised scorer (:func:`bleu_core.gaps.conventions.score_counts`), whose value at each
tool's own point is that tool's score.  Each row's change is its score minus the previous row's, so the
changes add up to B's score minus A's (to rounding).  A field that differs but does not move the number on
this input keeps its row with change 0: that, too, is an exact attribution.

The default order (:data:`PIPELINE`) follows the data flow: the text (tokens, case, references), the lengths
(r's rule, the brevity penalty's form), the precisions (denominators, smoothing, empty orders, zeros), their
combination (weights), then corpus or sentences and the scale.  Each intermediate is then "A with B's first
stages", the way a reader follows BLEU from text to number.  :data:`RULES_FIRST` reverses it (B's scoring
rules on A's tokens first).  The steps of a non-additive score depend on the order; the total does not.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bleu_core.gaps.conventions import (
    FIELDS,
    Conventions,
    Corpus,
    conventions_of,
    count,
    description,
    label,
    score_counts,
)
from bleu_core.i18n import Message, joined, message
from bleu_core.tools import (
    IMPLEMENTATIONS,
    Implementation,
    check_sentence_input,
    compare_corpus_implementations,
    corpus_score,
    segment_references,
    trace_implementation,
)
from bleu_core.tools.base import CorpusCounts

__all__ = [
    "ORDERS",
    "PIPELINE",
    "RULES_FIRST",
    "Waterfall",
    "WaterfallStep",
    "corpus_scores_and_waterfalls",
    "corpus_waterfall",
    "first_differing_segment",
    "waterfall",
]

#: The default order: the data flow, text to number.
PIPELINE: tuple[str, ...] = FIELDS
#: The alternative: B's scoring rules first, the tokens last.
RULES_FIRST: tuple[str, ...] = tuple(reversed(FIELDS))
#: Orders by name, for pages and links.
ORDERS: dict[str, tuple[str, ...]] = {"pipeline": PIPELINE, "rules-first": RULES_FIRST}
#: Changes up to this fraction of the score are the rounding of float arithmetic (exp(1 - r/c) against
#: exp(1 - r/c) computed in another order), not a difference of conventions: about 4,500 units in the last place.
ROUNDING = 1e-12


@dataclass(frozen=True, slots=True)
class WaterfallStep:
    """One row: the setting changed (empty for the first row), the score after it, and the change it made."""

    label: Message  # the tool's name for the first row, else the field's label
    field: str  # Conventions field; "" for the first row
    change_of: Message  # "whitespace split → 13a (punctuation split off)"
    score: float  # in [0, 1]
    change: float  # score minus the previous row's score (0 for the first row)

    @property
    def step(self) -> str:
        """The row's label in English ("sacreBLEU", "reference length r")."""
        return str(self.label)

    @property
    def setting(self) -> str:
        """The setting changed, in English."""
        return str(self.change_of)


@dataclass(frozen=True, slots=True)
class Waterfall:
    """Tool A's score to tool B's, one setting at a time; ``reason`` says why there are no rows."""

    first: str
    second: str
    corpus: bool
    order: tuple[str, ...]
    rows: tuple[WaterfallStep, ...]
    first_score: float  # tool A's own score in [0, 1] (its trace; NaN where it has none)
    second_score: float
    no_score: str = ""  # the tool (key) without a score for this input, which leaves no waterfall

    @property
    def reason_message(self) -> Message | None:
        """Why there are no rows, or None."""
        if not self.no_score:
            return None
        return message("waterfall.no_score", tool=IMPLEMENTATIONS[self.no_score].label)

    @property
    def reason(self) -> str:
        """Why there are no rows, in English ("" when there are rows)."""
        return str(self.reason_message or "")

    @property
    def gap(self) -> float:
        """B's score minus A's, in [0, 1] units."""
        return self.second_score - self.first_score

    @property
    def moving(self) -> tuple[WaterfallStep, ...]:
        """The steps that change the number: all but the first row, a change beyond the rounding of the float
        arithmetic (:data:`ROUNDING`, relative to the score), so a formula written another way moves nothing."""
        return tuple(row for row in self.rows[1:] if abs(row.change) > ROUNDING * abs(row.score - row.change / 2))

    @property
    def summary_message(self) -> Message:
        """The gap in one sentence: which settings move the number, and by how much."""
        a, b = IMPLEMENTATIONS[self.first].label, IMPLEMENTATIONS[self.second].label
        if self.reason_message is not None:
            return self.reason_message
        if not self.moving:
            return message("waterfall.same_number", first=a, second=b, score=f"{self.first_score:.4g}")
        parts = [message("waterfall.moving_part", step=row.label, change=f"{row.change:+.4g}") for row in self.moving]
        return message(
            "waterfall.summary",
            first=a,
            second=b,
            first_score=f"{self.first_score:.4g}",
            second_score=f"{self.second_score:.4g}",
            parts=joined(parts, "waterfall.join_comma"),
        )

    @property
    def summary(self) -> str:
        return str(self.summary_message)


def _check_order(order: Sequence[str]) -> tuple[str, ...]:
    if sorted(order) != sorted(FIELDS):
        raise ValueError(f"order must name each setting once: {', '.join(FIELDS)}; got {', '.join(order)}")
    return tuple(order)


def _own_score(key: str, corpus: Corpus, as_corpus: bool, cache: Counts) -> float:
    """The tool's own score in [0, 1]: its sentence trace, its corpus scorer, or the mean of its sentence scores.

    A sentence-only tool's mean over a corpus is read off the shared counts at the tool's own point, not from a
    trace per segment (WMT22 de-en, 1,984 segments: 2.4 s of traces for three tools against 0.1 s); the point's
    sentence score is the trace's (``test_each_tool_sits_at_its_own_point``), and
    ``test_sentence_only_tools_corpus_score_is_the_mean_of_their_traces`` checks the mean against the traces.
    """
    if not as_corpus:
        return trace_implementation(key, corpus.hypotheses[0], corpus.references[0]).score
    if IMPLEMENTATIONS[key].corpus_level:
        streams = [[refs[k] if k < len(refs) else None for refs in corpus.references] for k in range(_width(corpus))]
        return corpus_score(key, list(corpus.hypotheses), streams)
    # A tool has no sentence score (NaN) only on an empty candidate (MATLAB's all-empty segment): those few
    # segments are traced, and one NaN makes the mean NaN, as averaging the traces would.
    empty = [i for i, text in enumerate(corpus.hypotheses) if not text.strip()]
    if any(math.isnan(trace_implementation(key, corpus.hypotheses[i], corpus.references[i]).score) for i in empty):
        return math.nan
    point = conventions_of(key, corpus=True)
    return score_counts(_counts(corpus, point, len(point.weights), cache), point)


def _width(corpus: Corpus) -> int:
    return max((len(refs) for refs in corpus.references), default=0)


Counts = dict[tuple[object, ...], CorpusCounts]


def _counts(corpus: Corpus, point: Conventions, orders: int, cache: Counts) -> CorpusCounts:
    """The counts of ``point``'s tokens, case and references up to at least ``orders``, counted once per input."""
    kind = (point.tokenizer, point.lowercase, point.references)
    counted = [key for key in cache if key[:3] == kind and int(key[3]) >= orders]  # type: ignore[call-overload]
    if counted:
        return cache[counted[0]]
    cache[(*kind, orders)] = count(corpus, point, orders)
    return cache[(*kind, orders)]


def _rows(
    corpus: Corpus, start: Conventions, end: Conventions, order: tuple[str, ...], first_label: str, cache: Counts
) -> tuple[WaterfallStep, ...]:
    """Score ``start``, then each field of ``order`` that differs switched to ``end``'s value.

    ``cache`` keeps the counts of each (tokenizer, case, references, orders), shared by the waterfalls of one input.
    """
    orders = max(len(start.weights), len(end.weights))

    def score(point: Conventions) -> float:
        return score_counts(_counts(corpus, point, orders, cache), point)

    point, previous = start, score(start)
    rows = [
        WaterfallStep(message("waterfall.tool", name=first_label), "", message("waterfall.as_the_tool"), previous, 0.0)
    ]
    for field in order:
        before, after = getattr(point, field), getattr(end, field)
        if before == after:
            continue
        point = replace(point, **{field: after})
        value = score(point)
        setting = message("waterfall.setting", before=description(field, before), after=description(field, after))
        rows.append(WaterfallStep(label(field), field, setting, value, value - previous))
        previous = value
    return tuple(rows)


def _build(
    first: str,
    second: str,
    corpus: Corpus,
    as_corpus: bool,
    order: Sequence[str],
    shared: tuple[Counts, dict[str, float]] | None = None,
) -> Waterfall:
    """The waterfall of one pair; ``shared`` (counts, own scores) lets several pairs of one input reuse work."""
    steps = _check_order(order)
    for key in (first, second):
        if key not in IMPLEMENTATIONS:
            raise ValueError(f"unknown implementation {key!r}; choose one of {', '.join(IMPLEMENTATIONS)}")
    cache, own = shared if shared is not None else ({}, {})
    for key in (first, second):
        if key not in own:
            own[key] = _own_score(key, corpus, as_corpus, cache)
    a, b = own[first], own[second]
    empty = Waterfall(first, second, as_corpus, steps, (), a, b)
    for key, value in ((first, a), (second, b)):
        if math.isnan(value):
            return replace(empty, no_score=key)
    start, end = conventions_of(first, as_corpus), conventions_of(second, as_corpus)
    rows = _rows(corpus, start, end, steps, IMPLEMENTATIONS[first].label, cache)
    return replace(empty, rows=rows)


def waterfall(
    first: str, second: str, candidate: str, references: Sequence[str], order: Sequence[str] = PIPELINE
) -> Waterfall:
    """Sentence BLEU of ``candidate`` from tool ``first`` to tool ``second``, one setting at a time."""
    refs = check_sentence_input(candidate, references)
    return _build(first, second, Corpus((candidate,), (tuple(refs),)), False, order)


def corpus_waterfall(
    first: str,
    second: str,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    order: Sequence[str] = PIPELINE,
    own_scores: Mapping[str, float] | None = None,
) -> Waterfall:
    """Corpus BLEU from tool ``first`` to tool ``second`` (``references[k][i]``: reference k of segment i).

    Sentence-only tools (MATLAB, NLTK 3.2, d2l) score a corpus as the mean of their sentence scores.
    ``own_scores`` (tool key -> its own corpus score in [0, 1], as :func:`corpus_scores_and_waterfalls` found
    them) saves scoring the two tools again.
    """
    shared: tuple[Counts, dict[str, float]] = ({}, dict(own_scores or {}))
    return _build(first, second, _corpus(hypotheses, references), True, order, shared)


def _corpus(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> Corpus:
    segments = segment_references(hypotheses, references)
    if not hypotheses or any(not refs for refs in segments):
        raise ValueError("every segment needs at least one reference; give a non-empty corpus")
    return Corpus(tuple(hypotheses), tuple(tuple(refs) for refs in segments))


def corpus_scores_and_waterfalls(
    first: str,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    order: Sequence[str] = PIPELINE,
) -> tuple[list[tuple[Implementation, float, float]], dict[str, Waterfall]]:
    """Every tool's corpus score (:func:`~bleu_core.tools.compare_corpus_implementations`) and the waterfall from
    ``first`` to each tool, each tool scored once and each tokenization counted once.

    The waterfalls' own scores are the table's (corpus-level tools) or the mean of sentence scores (the others);
    each waterfall's ``second_score`` is that tool's own score, to pass on to :func:`corpus_waterfall`.
    """
    rows = compare_corpus_implementations(hypotheses, references)
    corpus = _corpus(hypotheses, references)
    shared: tuple[Counts, dict[str, float]] = ({}, {impl.key: unit for impl, _, unit in rows if impl.corpus_level})
    return rows, {second: _build(first, second, corpus, True, order, shared) for second in IMPLEMENTATIONS}


def first_differing_segment(
    first: str, second: str, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]
) -> int:
    """The first segment (0-based) whose sentence scores differ between the two tools; 0 when none does."""
    segments = segment_references(hypotheses, references)
    for i, (hypothesis, refs) in enumerate(zip(hypotheses, segments, strict=True)):
        if not refs:
            continue
        a = trace_implementation(first, hypothesis, refs).score
        b = trace_implementation(second, hypothesis, refs).score
        if not (a == b or (math.isnan(a) and math.isnan(b))):
            return i
    return 0
