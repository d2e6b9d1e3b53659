"""chrF beside BLEU on the command line (``-m chrf``, ``-m bleu chrf``): its options, lines and table column.

The statistics come from :mod:`bleu_core.stats.chrf`; every printed form is sacreBLEU's own ``CHRFScore`` and
``CHRFSignature``, so a chrF line is sacreBLEU's by construction.  Several metrics for one system print one line
each, in the metrics' sorted order (BLEU, chrF, TER: :mod:`.ter`), aligned on the ``=`` of the text form.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
from sacrebleu.metrics.base import Score, Signature
from sacrebleu.metrics.chrf import CHRFScore

from bleu_core.cli.report import PairedRow, Report

if TYPE_CHECKING:  # chrF's modules are imported when chrF is asked for: a BLEU-only command starts lighter
    from bleu_core.compare.metrics import Metric
    from bleu_core.stats import chrf

#: Metrics the command line scores, in the order their lines and columns are printed.
METRICS = ("bleu", "chrf", "ter")


def metric_names(args: argparse.Namespace) -> list[str]:
    """The metrics asked for with ``-m``, each once, in printing order."""
    return [name for name in METRICS if name in args.metrics]


def paired_order(args: argparse.Namespace) -> list[str]:
    """The metrics of a paired test in the order ``-m`` first names them (sacreBLEU's columns there are not sorted)."""
    return list(dict.fromkeys(name for name in args.metrics if name in METRICS))


def add_chrf_flags(parser: argparse.ArgumentParser) -> None:
    """sacreBLEU 2.6's chrF flags with their defaults (``-lc`` is BLEU's; chrF has ``--chrf-lowercase``)."""
    group = parser.add_argument_group("chrF")
    add = group.add_argument
    add("--chrf-char-order", "-cc", type=int, default=6, help="character n-gram order (default 6)")
    add("--chrf-word-order", "-cw", type=int, default=0, help="word n-gram order (default 0; 2 for chrF++)")
    add("--chrf-beta", type=int, default=2, help="weight of recall against precision (default 2)")
    add("--chrf-whitespace", action="store_true", help="keep whitespace when extracting character n-grams")
    add("--chrf-lowercase", action="store_true", help="lowercase before computing chrF")
    add("--chrf-eps-smoothing", action="store_true", help="chrF++.py's epsilon smoothing instead of effective order")


def chrf_options(args: argparse.Namespace) -> chrf.ChrfOptions:
    from bleu_core.stats import chrf

    return chrf.ChrfOptions(
        args.chrf_char_order,
        args.chrf_word_order,
        args.chrf_beta,
        args.chrf_lowercase,
        args.chrf_whitespace,
        args.chrf_eps_smoothing,
    )


def _score(stats: chrf.IntArray, options: chrf.ChrfOptions) -> CHRFScore:
    from bleu_core.stats import chrf

    return CHRFScore(chrf.chrf_score(stats, options), options.char_order, options.word_order, int(options.beta))


def paired_rows(tables: list[np.ndarray], metric: Metric, report: Report) -> list[PairedRow]:
    """Each system's row of a paired test on any metric (:mod:`bleu_core.compare.paired`), the first the baseline.

    sacreBLEU's resampled chrF and TER scores are float32 (its mean too); JSON prints them as Python floats, where
    sacreBLEU's own JSON fails on float32 (see docs/dropin-differences.md)."""
    from bleu_core.compare.paired import paired_results  # paired tests only: the command's start stays light

    named = {str(i): table for i, table in enumerate(tables)}
    return [
        {"score": score, "p_value": p_value, "mean": mean, "ci": ci}
        for score, p_value, mean, ci in paired_results(named, metric, report.paired, report.paired_n, report.seed)
    ]


def paired_signature(signature: Signature, report: Report) -> str:
    """A metric's signature in a paired test: with the seed and the test's samples."""
    signature.update("seed", str(report.seed))
    signature.update(report.paired, report.paired_n)
    return str(signature.format(report.short))


def paired(
    systems: list[chrf.IntArray], options: chrf.ChrfOptions, n_refs: int, report: Report
) -> tuple[str, list[PairedRow], str]:
    """A paired test on chrF: the column's name, each system's row, the signature."""
    from bleu_core.compare.metrics import ChrfMetric, chrf_signature

    metric = ChrfMetric(options)
    rows = paired_rows(systems, metric, report)
    return metric.name, rows, paired_signature(chrf_signature(options, n_refs), report)


@dataclass(frozen=True, slots=True)
class Printer:
    """How one metric's statistics print: its score object, its signature (references, bootstrap samples, seed) and
    its resampled scores for ``--confidence`` (statistics, samples, seed)."""

    score: Callable[[Any], Score]
    signature: Callable[[int, int | None, int], Signature]
    resampled: Callable[[Any, int, int], list[Score]]


def chrf_printer(options: chrf.ChrfOptions) -> Printer:
    from bleu_core.compare.metrics import chrf_resampled_scores, chrf_signature

    """chrF's printed forms; resampled scores are float32, as sacreBLEU's (their mean and interval too)."""

    def resampled(stats: chrf.IntArray, n: int, seed: int) -> list[Score]:
        scores = chrf_resampled_scores(stats, options, n, seed)
        return [CHRFScore(x, options.char_order, options.word_order, int(options.beta)) for x in scores]

    return Printer(lambda stats: _score(stats, options), partial(chrf_signature, options), resampled)


def single_line(printer: Printer, stats: Any, n_refs: int, report: Report) -> str:
    """One system's corpus score: its score line or JSON object (with ``--confidence``, the bootstrap interval)."""
    score = printer.score(stats)
    bootstrap = None
    if report.confidence_n > 1:
        bootstrap = report.confidence_n
        score.estimate_ci(printer.resampled(stats, bootstrap, report.seed))
    is_json = report.format == "json"
    signature = printer.signature(n_refs, bootstrap, report.seed).format(report.short and not is_json)
    return str(score.format(report.width, report.score_only, signature, is_json))


def sentences(printer: Printer, stats: Any, n_refs: int, report: Report) -> Iterator[str]:
    """``-sl``: one line per segment."""
    signature = printer.signature(n_refs, None, 0).format(report.short)
    for row in stats:
        yield str(printer.score(row).format(report.width, report.score_only, signature))


def column(printer: Printer, systems: list[Any], n_refs: int, report: Report) -> tuple[str, list[str], str]:
    """Several systems: the column's name (``chrF2``, ``chrF2++``, ``TER``), each system's score, the signature."""
    scores = [printer.score(stats) for stats in systems]
    signature = printer.signature(n_refs, None, 0).format(report.short)
    return scores[0].name, [str(score.format(report.width, True)) for score in scores], signature


def joined_lines(lines: list[str], format_name: str) -> str:
    """One system's lines for several metrics: a JSON list, or text lines right-aligned up to their ``=``.

    Lines without ``=`` (``-b``) come first as they are, as sacreBLEU prints them."""
    if format_name == "json":
        return "[\n" + ",\n".join(lines) + "\n]" if len(lines) > 1 else lines[0]
    if len(lines) == 1:
        return lines[0]
    out = [line for line in lines if "=" not in line]
    ends = [line.index("=") - 1 for line in lines if "=" in line]
    if ends:
        width = max(ends)
        out += [f"{line[:end]:>{width}}{line[end:]}" for end, line in zip(ends, lines, strict=False)]
    return "\n".join(out)


def concat(parts: list[chrf.IntArray], options: chrf.ChrfOptions) -> chrf.IntArray:
    """One system's statistics from its chunks."""
    return np.concatenate([np.zeros((0, options.columns), dtype=np.int64), *parts])
