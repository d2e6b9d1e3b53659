"""TER beside BLEU and chrF on the command line (``-m ter``, ``-m bleu chrf ter``): its options, lines and column.

The statistics come from :mod:`bleu_core.stats.ter`; every printed form is sacreBLEU's own ``TERScore`` and
``TERSignature``, so a TER line is sacreBLEU's by construction.
"""

from __future__ import annotations

import argparse
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
from sacrebleu.metrics.base import Score
from sacrebleu.metrics.ter import TERScore

from bleu_core.cli.metrics import Printer, paired_rows, paired_signature
from bleu_core.cli.report import PairedRow, Report

if TYPE_CHECKING:  # TER's modules are imported when TER is asked for: a BLEU-only command starts lighter
    from bleu_core.stats import ter


def add_ter_flags(parser: argparse.ArgumentParser) -> None:
    """sacreBLEU 2.6's TER flags (all off by default, as Tercom)."""
    group = parser.add_argument_group("TER")
    add = group.add_argument
    add("--ter-case-sensitive", action="store_true", help="keep case (TER lowercases by default)")
    add("--ter-asian-support", action="store_true", help="special treatment of Asian (CJK) characters")
    add("--ter-no-punct", action="store_true", help="remove punctuation")
    add("--ter-normalized", action="store_true", help="basic normalization and tokenization")


def ter_options(args: argparse.Namespace) -> ter.TerOptions:
    from bleu_core.stats import ter

    return ter.TerOptions(args.ter_normalized, args.ter_no_punct, args.ter_asian_support, args.ter_case_sensitive)


def _score(stats: ter.FloatArray) -> TERScore:
    from bleu_core.stats import ter

    edits, ref_length = ter.summed(stats)
    return TERScore(ter.rate(edits, ref_length), edits, ref_length)


def printer(options: ter.TerOptions) -> Printer:
    from bleu_core.compare.metrics import ter_signature
    from bleu_core.stats import ter
    from bleu_core.stats.segment_stats import resampled_totals

    """TER's printed forms (:class:`bleu_core.cli.metrics.Printer`)."""

    def resampled(stats: ter.FloatArray, n: int, seed: int) -> list[Score]:
        totals = resampled_totals(stats, n, seed)
        scores = ter.bootstrap_scores(totals)
        return [TERScore(x, edits, length) for x, (edits, length) in zip(scores, totals, strict=True)]

    return Printer(_score, partial(ter_signature, options), resampled)


def paired(
    systems: list[ter.FloatArray], options: ter.TerOptions, n_refs: int, report: Report
) -> tuple[list[PairedRow], str]:
    """A paired test on TER (:class:`bleu_core.compare.metrics.TerMetric`): each system's row, the signature.

    With 1, 2, 4 or 8 references the sums are exact, as sacreBLEU's; with another count sacreBLEU sums fractions
    of words in float32 in its own order, which is not repeated here, so the test is refused."""
    from bleu_core.compare.metrics import ter_signature, ter_table

    if n_refs & (n_refs - 1):
        raise ValueError(
            f"TER's paired tests take 1, 2, 4 or 8 references here; with {n_refs}, sacreBLEU sums fractions of "
            "words in float32 in an order bleu_core does not repeat"
        )
    tables = [ter_table(stats, n_refs) for stats in systems]
    rows = paired_rows([table for _, table in tables], tables[0][0], report)
    return rows, paired_signature(ter_signature(options, n_refs), report)


def concat(parts: list[ter.FloatArray]) -> ter.FloatArray:
    """One system's statistics from its chunks."""
    return np.concatenate([np.zeros((0, 2), dtype=np.float64), *parts])
