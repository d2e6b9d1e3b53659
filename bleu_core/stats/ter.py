"""TER, translation edit rate (Snover et al. 2006), as sacreBLEU 2.6 computes it: text -> per-segment statistics
-> score.

Statistics are a float64 array with one row per segment and two columns::

    column EDITS        the fewest edits (word edits plus shifts, :mod:`.ter_edits`) over the segment's references
    column REF_LENGTH   the reference length in words, averaged over the segment's references

A corpus TER is 100 · (summed edits) / (summed reference lengths), the lengths summed one segment after another
as sacreBLEU does; with no reference word it is 100 if there is any edit, else 0.  Text is normalized by
sacreBLEU's own ``TercomTokenizer`` (lowercased unless ``case_sensitive``), after trailing whitespace is removed,
and split on whitespace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

from bleu_core.i18n import Message
from bleu_core.limits import LIMITS, Limits
from bleu_core.stats.segment_stats import check_segments
from bleu_core.stats.ter_edits import edits

FloatArray = NDArray[np.float64]

#: The two columns of a statistics row.
EDITS, REF_LENGTH = 0, 1


@dataclass(frozen=True, slots=True)
class TerOptions:
    """Every TER setting (sacreBLEU's defaults reproduce Tercom's: lowercased, no normalization, punctuation kept)."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def tokenizer(self) -> TercomTokenizer:
        """sacreBLEU's Tercom normalizer with these settings."""
        return TercomTokenizer(
            normalized=self.normalized,
            no_punct=self.no_punct,
            asian_support=self.asian_support,
            case_sensitive=self.case_sensitive,
        )


@dataclass(frozen=True, slots=True)
class TerReferences:
    """Reference lines normalized once for many hypotheses: per segment, each present reference's words."""

    words: tuple[tuple[tuple[str, ...], ...], ...]
    n_refs: int  # references per segment, -1 when segments have different numbers (sacreBLEU's ``var``)

    @property
    def n_segments(self) -> int:
        return len(self.words)


def normalized_words(line: str, tokenizer: TercomTokenizer) -> list[str]:
    """The words TER compares: the line without trailing whitespace, normalized, split on whitespace."""
    return str(tokenizer(line.rstrip())).split()


def prepare_references(streams: Sequence[Sequence[str | None]], options: TerOptions) -> TerReferences:
    """Reference streams (one per reference, each with one line per segment; ``None`` = missing) per segment."""
    tokenizer = options.tokenizer()
    words = tuple(
        tuple(tuple(normalized_words(line, tokenizer)) for line in segment if line is not None)
        for segment in zip(*streams, strict=True)
    )
    sizes = {len(segment) for segment in words}
    return TerReferences(words, sizes.pop() if len(sizes) == 1 else -1)


def segment_row(hypothesis: Sequence[str], references: Sequence[Sequence[str]], reuse: bool = True) -> list[float]:
    """One segment's [edits, reference length]: the fewest edits over the references, their average length."""
    ids: dict[str, int] = {}
    hyp = [ids.setdefault(word, len(ids)) for word in hypothesis]
    best = min(edits(hyp, [ids.setdefault(word, len(ids)) for word in ref], reuse) for ref in references)
    return [float(best), sum(len(ref) for ref in references) / len(references)]


def segment_statistics(
    hypotheses: Sequence[str], references: TerReferences, options: TerOptions, reuse: bool = True
) -> FloatArray:
    """The statistics array (segments x 2) of ``hypotheses`` against prepared references."""
    check_segments(len(hypotheses), references.words)
    tokenizer = options.tokenizer()
    rows = [
        segment_row(normalized_words(hyp, tokenizer), refs, reuse)
        for hyp, refs in zip(hypotheses, references.words, strict=True)
    ]
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), 2)


def ter_statistics(
    hypotheses: Sequence[str], streams: Sequence[Sequence[str | None]], options: TerOptions
) -> FloatArray:
    """The statistics array of ``hypotheses`` against reference streams used once."""
    return segment_statistics(hypotheses, prepare_references(streams, options), options)


# ---------------------------------------------------------------------------------------------
# Statistics -> score


def summed(stats: FloatArray) -> tuple[float, float]:
    """Total edits and total reference length of a statistics array (one row, or many summed in order)."""
    table = np.atleast_2d(stats)
    if len(table) == 0:
        return 0.0, 0.0
    return float(table[:, EDITS].sum()), float(np.cumsum(table[:, REF_LENGTH])[-1])


def rate(total_edits: float, ref_length: float) -> float:
    """TER on a 0-100 scale from totals: 100 · edits / length; 100 (any edit) or 0 when the length is 0."""
    if ref_length > 0:
        return 100 * (total_edits / ref_length)
    return 100 * (1.0 if total_edits > 0 else 0.0)


def ter_score(stats: FloatArray) -> float:
    """The TER of summed statistics: a corpus score."""
    return rate(*summed(stats))


def sentence_scores(stats: FloatArray) -> list[float]:
    """Each segment's own TER."""
    return [rate(float(row[EDITS]), float(row[REF_LENGTH])) for row in np.atleast_2d(stats)]


def corpus_and_segment_scores(stats: FloatArray) -> tuple[float, FloatArray]:
    """From one search per segment: the corpus TER and each segment's sentence TER (0-100)."""
    return ter_score(stats), np.asarray(sentence_scores(stats), dtype=np.float64)


def too_long_for_ter(
    hypotheses: Sequence[str], streams: Sequence[Sequence[str | None]], limits: Limits = LIMITS
) -> Message | None:
    """Why a page leaves TER out of this corpus (the limits policy), or None when it may score it."""
    return systems_too_long_for_ter([hypotheses], streams, limits)


def systems_too_long_for_ter(
    systems: Sequence[Sequence[str]], streams: Sequence[Sequence[str | None]], limits: Limits = LIMITS
) -> Message | None:
    """:func:`too_long_for_ter` for several systems scored in one request: their words add up (each reference is
    split once, whatever the number of systems)."""
    longest = [0] * (len(streams[0]) if streams else 0)
    for stream in streams:
        pairs = zip(longest, stream, strict=True)
        longest = [max(most, len(line.split())) if line is not None else most for most, line in pairs]
    words = 0
    for hypotheses in systems:
        for index, hypothesis in enumerate(hypotheses):
            count = len(hypothesis.split())
            if max(count, longest[index] if longest else 0) > limits.ter_segment_words:
                return Message("corpus.ter_line_too_long", {"line": index + 1, "limit": limits.ter_segment_words})
            words += count
    if words > limits.ter_words:
        return Message("corpus.ter_too_many_words", {"words": f"{words:,}", "limit": f"{limits.ter_words:,}"})
    return None


def bootstrap_scores(totals: NDArray[np.float32]) -> list[Any]:
    """The TER of each row of resampled totals (:func:`~bleu_core.stats.segment_stats.resampled_totals`) as
    sacreBLEU computes it: 100 · edits / length in float32 (``numpy.float32`` values).  A sample without
    reference words scores 100 (any edit) or 0: a Python float when every sample is such (as in sacreBLEU), else a
    float32 like the others (sacreBLEU's mean fails on that mix with a TypeError; here the interval is given)."""
    edits, lengths = totals[:, EDITS], totals[:, REF_LENGTH]
    empty = np.where(edits > 0, np.float32(100), np.float32(0))
    if not (lengths > 0).any():
        return [float(score) for score in empty]
    ratio = np.divide(edits, lengths, out=np.ones_like(edits), where=lengths > 0)
    return list(np.where(lengths > 0, np.float32(100) * ratio, empty))
