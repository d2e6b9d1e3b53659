"""What-if: replace one segment's hypothesis and rescore the corpus from its statistics.

Corpus BLEU is a function of summed segment statistics, so changing one segment only swaps one row:
the new corpus statistics are the old ones with that row replaced by the new sentence's statistics
(counted by the same engine).  Nothing else is tokenized again; the tests hold the result equal to
scoring the edited corpus from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.api import BleuResult, result_from_statistics
from bleu_core.corpus.diagnosis import sentence_options
from bleu_core.options import BleuOptions
from bleu_core.stats.counting import stream_statistics
from bleu_core.stats.scoring import score_statistics
from bleu_core.stats.segment_stats import SegmentStats


@dataclass(frozen=True, slots=True)
class WhatIf:
    """The corpus before and after one segment's hypothesis is replaced."""

    index: int  # 0-based segment
    before: BleuResult
    after: BleuResult
    segment_before: SegmentStats  # one row
    segment_after: SegmentStats  # one row
    sentence_before: float  # sentence BLEU (effective order), 0-1
    sentence_after: float

    @property
    def delta(self) -> float:
        """Corpus BLEU after minus before, 0-1."""
        return self.after.score - self.before.score


def replace_segment(
    stats: SegmentStats,
    index: int,
    hypothesis: str,
    references: Sequence[str | None],
    options: BleuOptions,
    n_refs: int,
) -> WhatIf:
    """Corpus result with segment ``index``'s hypothesis replaced by ``hypothesis`` (its references unchanged)."""
    if not 0 <= index < len(stats):
        raise ValueError(f"segment index must be from 0 to {len(stats) - 1}; got {index}")
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be a str; got {type(hypothesis).__name__}")
    if all(ref is None for ref in references):
        raise ValueError(f"segment {index + 1} has no reference")
    new_row, _ = stream_statistics(
        [hypothesis],
        [[ref] for ref in references],
        tokenize=options.tokenize,
        lowercase=options.lowercase,
        max_order=stats.max_order,
    )
    old_row = stats.take(np.asarray([index]))
    total = stats.summed()
    after = SegmentStats(
        total.matches - old_row.matches + new_row.matches,
        total.totals - old_row.totals + new_row.totals,
        total.hyp_len - old_row.hyp_len + new_row.hyp_len,
        total.ref_len - old_row.ref_len + new_row.ref_len,
    )
    sentence = sentence_options(options)
    return WhatIf(
        index=index,
        before=result_from_statistics(total, options, n_refs),
        after=result_from_statistics(after, options, n_refs),
        segment_before=old_row,
        segment_after=new_row,
        sentence_before=float(score_statistics(old_row, sentence).score[0]),
        sentence_after=float(score_statistics(new_row, sentence).score[0]),
    )
