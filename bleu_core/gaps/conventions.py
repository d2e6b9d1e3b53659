"""Every BLEU tool as a point in one space of conventions, and one scorer over that whole space.

A :class:`~bleu_core.tools.base.Conventions` value (each tool's record holds its own) names each choice a tool
makes (tokens, case, which references, the reference length rule, the brevity penalty's form, denominators,
smoothing, orders without n-grams, zero precisions, weights, corpus or averaged sentences, scale).
:func:`score_conventions` scores any point of the space with
the shared rules (clipping from :mod:`bleu_core.stats.clipping`, totals max(c - n + 1, 0), the closest reference
with ties to the shorter) plus the deviations the tool modules state; at each tool's own point it gives that
tool's score (tested against every tool's trace).  :mod:`bleu_core.gaps.waterfall` walks from one point to another.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from bleu_core.i18n import Message, message
from bleu_core.stats.scoring import scalar_brevity_penalty
from bleu_core.stats.segment_stats import segment_reference_lengths
from bleu_core.tools import IMPLEMENTATIONS
from bleu_core.tools.base import FIELDS, Conventions, CorpusCounts, count_corpus, point_tokens

__all__ = [
    "FIELDS",
    "TOOL_CONVENTIONS",
    "Conventions",
    "Corpus",
    "conventions_of",
    "describe",
    "description",
    "label",
    "score_conventions",
]

#: NLTK method1's epsilon, added to a zero numerator.
EPSILON = 0.1


#: Each registry tool's point, sentence mode (``aggregation`` "mean" marks the sentence-only tools): the
#: ``point`` of its record, where the tool is described.
TOOL_CONVENTIONS: dict[str, Conventions] = {key: tool.point for key, tool in IMPLEMENTATIONS.items()}


def conventions_of(key: str, corpus: bool) -> Conventions:
    """A tool's point: for a corpus sacreBLEU drops effective order (its corpus default); sentence-only tools
    score a corpus as the mean of their sentence scores (as their users average them)."""
    if key not in TOOL_CONVENTIONS:
        raise ValueError(f"unknown implementation {key!r}; choose one of {', '.join(TOOL_CONVENTIONS)}")
    point = TOOL_CONVENTIONS[key]
    if corpus and key == "sacrebleu":
        return Conventions(smoothing="exp", empty_orders="zero", scale="0-100")
    if not corpus and point.aggregation == "mean":
        return Conventions(**{f: getattr(point, f) for f in FIELDS if f != "aggregation"})
    return point


def label(field: str) -> Message:
    """A field's column label (``"reference length r"``), from the ``[waterfall]`` catalog."""
    if field not in FIELDS:
        raise ValueError(f"unknown field {field!r}; choose one of {', '.join(FIELDS)}")
    return message(f"waterfall.field_{field}")


def description(field: str, value: object) -> Message:
    """One field's value in words (``weights`` as the numbers), from the ``[waterfall]`` catalog."""
    if field == "weights" and isinstance(value, tuple):
        return message("waterfall.weights_value", weights=", ".join(f"{w:g}" for w in value))
    code = str(value).lower().replace("-", "_")
    return message(f"waterfall.{field}_{code}", epsilon=EPSILON)


#: Column labels of the fields, in English.
LABELS: dict[str, str] = {field: str(label(field)) for field in FIELDS}


def describe(field: str, value: object) -> str:
    """One field's value in words, in English (:func:`description` for other languages)."""
    return str(description(field, value))


@dataclass(frozen=True, slots=True)
class Corpus:
    """Text to score: ``references[i]`` are segment i's reference strings (one segment for a sentence)."""

    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]


def count(corpus: Corpus, point: Conventions, max_order: int) -> CorpusCounts:
    """Clipped counts under ``point``'s tokens, case and references (the shared clipping rule)."""
    refs = [list(r[:1]) if point.references == "first" else list(r) for r in corpus.references]
    flat = point_tokens([text for segment in refs for text in segment], point)
    ends = list(itertools.accumulate(len(segment) for segment in refs))
    grouped = [flat[end - len(segment) : end] for end, segment in zip(ends, refs, strict=True)]
    return count_corpus(point_tokens(corpus.hypotheses, point), grouped, max_order)


def _precisions(matches: Sequence[int], denominators: Sequence[int], point: Conventions) -> list[float | None]:
    """p_n per order after smoothing; None for an order left out (effective order, d2l's skip)."""
    out: list[float | None] = []
    zeros = 0
    for m, d in zip(matches, denominators, strict=True):
        if d == 0:
            out.append(None if point.empty_orders != "zero" else 0.0)
        elif m > 0:
            out.append(m / d)
        elif point.smoothing == "exp":
            zeros += 1
            out.append(1 / (2**zeros * d))
        elif point.smoothing == "epsilon":
            out.append((m + EPSILON) / d)
        else:
            out.append(0.0)
    return out


def score_sums(matches: Sequence[int], denominators: Sequence[int], c: int, r: int, point: Conventions) -> float:
    """BLEU in [0, 1] of summed counts: BP · exp(Σ w_n log p_n) under ``point``'s rules.

    No unigram match gives 0 under every convention (a longer match implies unigram matches).
    """
    if not matches or matches[0] == 0:
        return 0.0
    precisions = _precisions(matches, denominators, point)
    used = [(w, p) for w, p in zip(point.weights, precisions, strict=True) if p is not None]
    if point.empty_orders == "effective":
        total = math.fsum(w for w, _ in used)
        used = [(w / total, p) for w, p in used] if total > 0 else []
    terms = []
    for w, p in used:
        if w == 0:
            continue
        if p == 0.0:
            if point.zero_precision == "zero":
                return 0.0
            if point.zero_precision == "drop":
                continue
            p = sys.float_info.min
        terms.append(w * math.log(p))
    return scalar_brevity_penalty(c, r, point.brevity) * math.exp(math.fsum(terms))


def score_counts(counts: CorpusCounts, point: Conventions) -> float:
    """BLEU in [0, 1] of counted text: corpus sums, or the mean of the segments' scores.

    Each segment's matches, denominators (floored at 1 where ``point`` says so), c and r, by ``point``'s rules.
    """
    if counts.segments == 0:
        return 0.0
    rs = segment_reference_lengths(counts.candidate_lengths, counts.reference_lengths, point.length_rule).tolist()
    k = len(point.weights)
    floor = 1 if point.denominator == "at-least-1" else 0
    rows = [
        (m[:k], [max(floor, t) for t in d[:k]], c, int(r))
        for m, d, c, r in zip(counts.segment_matches, counts.segment_totals, counts.candidate_lengths, rs, strict=True)
    ]
    if point.aggregation == "mean":
        return math.fsum(score_sums(*row, point) for row in rows) / len(rows)
    matches, denominators, cs, r_all = zip(*rows, strict=True)
    summed = [list(map(sum, zip(*column, strict=True))) for column in (matches, denominators)]
    return score_sums(summed[0], summed[1], sum(cs), sum(r_all), point)


def score_conventions(corpus: Corpus, point: Conventions) -> float:
    """BLEU in [0, 1] of ``corpus`` under the conventions ``point``."""
    return score_counts(count(corpus, point, len(point.weights)), point)
