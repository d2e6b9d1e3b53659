"""``--tags FILE`` on the command line (our extension): every metric's score for every system, label by label.

The tags file holds one label per line, as many lines as the corpus (see :mod:`bleu_core.compare.slices`); an empty
line is the label "(no label)".  The report has one row per label and system, after the whole corpus's rows:
a table (``-f text``, ``-f latex``) or a JSON list of records (``-f json``, the default).  With ``--paired-bs`` or
``--paired-ar`` each label gets sacreBLEU's paired test of BLEU (the first system against each other one, on
that label's segments), and its p-value corrected by Holm's method over every label and system.
Without ``--tags`` nothing here runs, and the output is sacreBLEU's.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence, Sized
from typing import TYPE_CHECKING, Any

from bleu_core.cli.report import Report
from bleu_core.cli.settings import report as report_of
from bleu_core.i18n import text
from bleu_core.options import BleuOptions
from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.text.reader import read_lines

if TYPE_CHECKING:
    from bleu_core.compare.slices import LabelTest, SliceScores
    from bleu_core.stats import chrf
    from bleu_core.stats.ter import FloatArray

#: The correction of the per-label p-values (the Compare verdict's default).
CORRECTION = "holm"
#: The label column's name for the whole corpus in the text table (JSON gives ``null``).
CORPUS_LABEL = "(corpus)"
#: Flags whose output has no per-label form.
UNSUPPORTED = (
    ("sentence_level", "-sl/--sentence-level"),
    ("segment_json", "--segment-json"),
    ("statistics", "--statistics"),
    ("confidence", "--confidence"),
    ("dask", "--dask"),
)


def add_flag(group: Any) -> None:
    """``--tags FILE`` in the group of our extensions (an argparse argument group)."""
    group.add_argument(
        "--tags",
        metavar="FILE",
        default=None,
        help="one label per segment (domain, document id, ...): print every metric's score per label, "
        "and with --paired-bs/--paired-ar each label's p-value, Holm-corrected over labels and systems",
    )


def read(args: argparse.Namespace) -> list[str]:
    """The tags file's lines, read before the corpus (so a missing or binary file fails at once); ``--tags``
    with a flag it cannot report per label is refused first."""
    for attribute, flag in UNSUPPORTED:
        if getattr(args, attribute):
            raise ValueError(f"--tags cannot be combined with {flag}; drop one of them")
    return read_lines(args.tags)


def _metric_name(options: chrf.ChrfOptions) -> str:
    """sacreBLEU's name of the chrF variant: ``chrF2``, ``chrF2++``, ``chrF1+``."""
    return f"chrF{int(options.beta)}" + "+" * options.word_order


def _records(scores: SliceScores, tests: Sequence[LabelTest], chrf_name: str, width: int) -> list[dict[str, object]]:
    """One record per label (the corpus first, label None) and system."""
    p_values = {(test.label, test.system): test for test in tests}
    records: list[dict[str, object]] = []
    for label in (scores.corpus, *scores.labels):
        name = None if label is scores.corpus else label.label
        for k, system in enumerate(scores.systems):
            record: dict[str, object] = {"label": name, "segments": label.segments, "system": system}
            if label.bleu:
                record["BLEU"] = round(label.bleu[k], width)
            if label.chrf:
                record[chrf_name] = round(label.chrf[k], width)
            if label.ter:
                record["TER"] = round(label.ter[k], width)
            if tests and name is not None:
                test = p_values.get((label.label, system))
                record["p_value"] = None if test is None else round(test.p_value, 4)
                record["p_corrected"] = None if test is None else round(test.corrected, 4)
            records.append(record)
    return records


def _table(records: list[dict[str, object]], report: Report, tags: str, notes: str) -> str:
    keys = [key for key in records[0] if key != "label"]
    if any("p_value" in record for record in records):
        keys += [key for key in ("p_value", "p_corrected") if key not in keys]
    columns: dict[str, list[str]] = {"label": []}
    for key in keys:
        columns[key] = []
    for record in records:
        label = record["label"]
        columns["label"].append(CORPUS_LABEL if label is None else str(label) or text("slices.no_label"))
        for key in keys:
            value = record.get(key)
            if value is None:
                columns[key].append("")
            elif isinstance(value, float):
                columns[key].append(f"{value:.4f}" if key.startswith("p_") else f"{value:.{report.width}f}")
            else:
                columns[key].append(str(value))
    headers = {"p_corrected": f"p ({CORRECTION.capitalize()})", "p_value": "p"}
    named = {headers.get(key, key): values for key, values in columns.items()}
    from tabulate import tabulate  # as sacreBLEU's tables (its dependency); cells are already formatted text

    style = "fancy_grid" if report.format == "text" else "latex_booktabs"
    table = tabulate(named, headers="keys", tablefmt=style, colalign=("right",), disable_numparse=True)
    return f"Scores by label of {tags}\n{table}{notes}"


def print_slices(
    args: argparse.Namespace,
    lines: list[str],
    names: list[str],
    bleu_systems: list[SegmentStats],
    options: BleuOptions,
    chrf_parts: tuple[chrf.ChrfOptions, list[chrf.IntArray]] | None,
    ter_systems: list[FloatArray] | None = None,
) -> None:
    """Read the tags file, score every label and print the report (the corpus's line count is known by now)."""
    from bleu_core.compare.slices import read_tags, slice_scores, slice_tests  # only with --tags: a faster start

    report = report_of(args)
    names = [name.removeprefix("Baseline: ") for name in names]  # sacreBLEU's mark of the baseline in its table
    given: list[Sized] = [*bleu_systems, *(chrf_parts[1] if chrf_parts else []), *(ter_systems or [])]
    n_segments = len(given[0]) if given else 0
    try:
        tags = read_tags(lines, n_segments)
    except ValueError as error:  # TagsError, LimitExceeded: said in English here, with the file's name
        raise ValueError(f"{args.tags}: {error}") from None
    bleu = dict(zip(names, bleu_systems, strict=True)) if bleu_systems else None
    chrf_stats = dict(zip(names, chrf_parts[1], strict=True)) if chrf_parts else None
    chrf_options = chrf_parts[0] if chrf_parts else None
    ter_stats = dict(zip(names, ter_systems, strict=True)) if ter_systems else None
    scores = slice_scores(tags, bleu, options if bleu else None, chrf_stats, chrf_options, ter_stats)
    tests: tuple[LabelTest, ...] = ()
    notes = ""
    if report.paired and bleu is not None:
        tests = slice_tests(
            tags, bleu, options, test=report.paired, n_samples=report.paired_n, seed=report.seed, correction=CORRECTION
        )
        kind = "paired bootstrap resampling" if report.paired == "bs" else "paired approximate randomization"
        unit = "resamples" if report.paired == "bs" else "trials"
        notes = (
            f"\n{kind} of BLEU ({report.paired_n} {unit}, seed {report.seed}) of every system against "
            f"{names[0]} on each label's segments; p ({CORRECTION.capitalize()}) is corrected over "
            f"{len(tests)} tests (labels x systems)"
        )
    records = _records(scores, tests, _metric_name(chrf_options) if chrf_options else "chrF", report.width)
    if report.format == "json":
        print(json.dumps(records, indent=4, ensure_ascii=False))
    else:
        print(_table(records, report, args.tags, notes))
