"""What the command line prints, given the statistics of every system: sacreBLEU 2.6's reports, byte for byte.

One system: a score line or a JSON object (with ``--confidence``, the bootstrap mean and interval);
``-sl``: one line per segment; several systems: a table (text, LaTeX) or a JSON list, with a paired
test when asked.  Our extensions (``--statistics``, ``--segment-json``) print full JSON records.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from bleu_core.api import result_from_statistics
from bleu_core.compare.resampling import draw, estimate_ci, paired_p_value
from bleu_core.options import BleuOptions
from bleu_core.sacrebleu_format import (
    Signature,
    bleu_signature,
    bootstrap,
    corpus_score,
    paired_cell,
    paired_explanation,
    paired_json,
    plain_json,
    score_rows,
    signature_block,
    table_text,
)
from bleu_core.sacrebleu_format import estimate_ci as sacrebleu_estimate_ci
from bleu_core.stats.progress import ProgressReporter
from bleu_core.stats.segment_stats import SegmentStats

#: One system's row of a paired test: score, p-value (None for the baseline), bootstrap mean and half-width.
PairedRow = dict[str, float | None]


@dataclass(frozen=True)
class Report:
    """The reporting flags, as sacreBLEU names them."""

    format: str = "json"
    width: int = 1
    score_only: bool = False
    short: bool = False
    confidence_n: int = 0  # 0: no confidence interval
    paired: str = ""  # "bs", "ar" or "" for no test
    paired_n: int = 0
    seed: int = 12345


def _signature(options: BleuOptions, n_refs: int, tok: str, extra: dict[str, object] | None = None) -> Signature:
    return bleu_signature(options, n_refs, tok, extra, extensions=True)


def single_system(stats: SegmentStats, options: BleuOptions, n_refs: int, tok: str, report: Report) -> str:
    """One system's corpus score: ``BLEU|signature = ...`` or sacreBLEU's JSON object."""
    score = corpus_score(stats, options)
    extra: dict[str, object] = {}
    if report.confidence_n > 1:
        sacrebleu_estimate_ci(score, bootstrap(stats, options, report.confidence_n, report.seed))
        extra = {"bs": report.confidence_n, "seed": str(report.seed)}
    is_json = report.format == "json"
    signature = _signature(options, n_refs, tok, extra).format(report.short and not is_json)
    return score.format(report.width, report.score_only, signature, is_json)


def sentences(stats: SegmentStats, options: BleuOptions, n_refs: int, tok: str, report: Report) -> Iterator[str]:
    """``-sl``: one score line per segment (sacreBLEU prints these as text whatever ``-f`` says)."""
    signature = _signature(options, n_refs, tok).format(report.short)
    for score in score_rows(stats, options):
        yield score.format(report.width, report.score_only, signature)


def segment_records(stats: SegmentStats, options: BleuOptions, n_refs: int) -> Iterator[str]:
    """``--segment-json``: one JSON record per segment with every statistic (our extension)."""
    for i in range(len(stats)):
        record = {"segment": i + 1, **result_from_statistics(stats.take(slice(i, i + 1)), options, n_refs).to_dict()}
        yield json.dumps(record, ensure_ascii=False)


def full_record(stats: SegmentStats, options: BleuOptions, n_refs: int, name: str | None) -> str:
    """``--statistics``: one JSON line with every field of the corpus score (our extension)."""
    record = result_from_statistics(stats, options, n_refs).to_dict()
    return json.dumps(record if name is None else {"hypothesis": name, **record}, ensure_ascii=False)


def _table(columns: dict[str, list[str]], signatures: dict[str, str], report: Report, notes: str = "") -> str:
    if report.format == "json":
        raise AssertionError("JSON is printed by the callers")
    return table_text(columns, report.format, report.width) + "\n\n" + notes + signature_block(signatures)


def several_systems(
    names: list[str], stats: list[SegmentStats], options: BleuOptions, n_refs: int, tok: str, report: Report
) -> str:
    """Several systems without a test: a table of scores (or a JSON list of them)."""
    scores = bleu_column(stats, options, n_refs, tok, report)
    return metric_table(names, {"BLEU": scores[0]}, {"BLEU": scores[1]}, report)


def bleu_column(
    stats: list[SegmentStats], options: BleuOptions, n_refs: int, tok: str, report: Report
) -> tuple[list[str], str]:
    """Each system's BLEU as printed in a table, and the signature under it."""
    scores = [corpus_score(s, options).format(report.width, True) for s in stats]
    return scores, _signature(options, n_refs, tok).format(report.short)


def metric_table(names: list[str], columns: dict[str, list[str]], signatures: dict[str, str], report: Report) -> str:
    """Several systems' scores, one column per metric: a table, or sacreBLEU's JSON list of them."""
    if report.format == "json":
        return plain_json(names, columns)
    return _table({"System": names, **columns}, signatures, report)


def paired_systems(
    names: list[str], stats: list[SegmentStats], options: BleuOptions, n_refs: int, tok: str, report: Report
) -> str:
    """A paired test of every system against the first (``--paired-bs`` or ``--paired-ar``)."""
    results, signature = bleu_paired(stats, options, n_refs, tok, report)
    return paired_table(names, {"BLEU": results}, {"BLEU": signature}, report)


def bleu_paired(
    stats: list[SegmentStats], options: BleuOptions, n_refs: int, tok: str, report: Report
) -> tuple[list[PairedRow], str]:
    """BLEU's score, p-value, mean and half-width of every system in a paired test, and its signature."""
    draws = draw(stats, options, report.paired, report.paired_n, report.seed, ProgressReporter(None))
    results: list[PairedRow] = []
    for system in range(len(stats)):
        mean: float | None = None
        ci: float | None = None
        if report.paired == "bs":
            # JSON prints every digit: the resamples again (the same draws), each scored as sacreBLEU does.
            exact = report.format == "json"
            resampled = np.asarray(bootstrap(stats[system], options, report.paired_n, report.seed)) if exact else None
            mean, ci = estimate_ci(draws.resampled[system] if resampled is None else resampled)
        p_value = None if system == 0 else paired_p_value(draws, 0, system, options)
        score = float(np.float64(draws.observed[system]))
        results.append({"score": score, "p_value": p_value, "mean": mean, "ci": ci})
    extra: dict[str, object] = {"seed": str(report.seed), report.paired: report.paired_n}
    return results, _signature(options, n_refs, tok, extra).format(report.short)


def paired_table(
    names: list[str], results: dict[str, list[PairedRow]], signatures: dict[str, str], report: Report
) -> str:
    """sacreBLEU's report of a paired test: a column per metric (in the order given), or its JSON list."""
    if report.format == "json":
        return paired_json(names, results)
    sep = "\n" if report.format == "text" else " "
    columns: dict[str, list[str]] = {"System": names}
    for metric, rows in results.items():
        cells = [paired_cell(r["score"] or 0.0, r["p_value"], r["mean"], r["ci"], report.width, sep) for r in rows]
        columns[f"{metric} (μ ± 95% CI)" if report.paired == "bs" else metric] = cells
    # sacreBLEU names the baseline only when it came from a file ("Baseline: name"), not from standard input.
    baseline = names[0] if names[0].startswith("Baseline:") else ""
    notes = paired_explanation(report.paired, report.paired_n, baseline) + "\n"
    return _table(columns, signatures, report, notes)
