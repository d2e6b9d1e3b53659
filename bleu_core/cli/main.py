"""Command line: ``python -m bleu_core REF [REF ...] [-i HYP [HYP ...]]``, a drop-in for ``sacrebleu -m bleu``,
``-m chrf``, ``-m ter`` and any of them together (``-m bleu chrf ter``).

Arguments and dispatch live here; the printed forms are in :mod:`.report`, :mod:`.metrics` and :mod:`.sacrebleu_format`.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, cast

from bleu_core.cli import metrics, settings, slices
from bleu_core.cli import report as cli_report
from bleu_core.cli import ter as cli_ter
from bleu_core.cli.settings import FORMATS, SACREBLEU_TOKENIZERS
from bleu_core.options import SMOOTH_DEFAULTS, BleuOptions
from bleu_core.sacrebleu_format import tokenizer_signature
from bleu_core.stats.counting import CHUNK_SEGMENTS, score_chunk
from bleu_core.stats.segment_stats import SegmentStats, StatisticsSink
from bleu_core.text.reader import InputFileError, check_line_counts
from bleu_core.text.sacrebleu_reading import (
    FieldCountError,
    FileLines,
    split_references,
    stdin_systems,
    test_set_references,
)
from bleu_core.version import __version__

if TYPE_CHECKING:  # chrF's and TER's modules are imported when they are asked for
    from bleu_core.stats import chrf, ter

#: Lines read from every file at a time: memory grows with this, not with the files.
CHUNK_LINES = CHUNK_SEGMENTS
#: Bytes read at a time; whole blocks are decoded and split into lines (faster than reading line by line).
BLOCK_BYTES = 1 << 20
#: Lines per task with ``--dask``: larger, so that each task's work outweighs the cluster's overhead per task.
CLUSTER_CHUNK_LINES = 20_000


def _weights(text: str) -> list[float]:
    try:
        return [float(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"weights must be numbers separated by commas or spaces; got {text!r}"
        ) from None


def _terminal_columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it: $COLUMNS, else the terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__
    if stdout is None:
        return 80
    try:
        return os.get_terminal_size(stdout.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):  # no terminal, or a stream without a file
        return 80


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's help formatter, given the width so that argparse does not import shutil to find it.

    argparse makes a formatter for every argument it adds; importing shutil (with bz2 and lzma) took
    about 4 ms of every start of the command.
    """
    return argparse.HelpFormatter(prog, width=_terminal_columns() - 2)


def _add_sacrebleu_flags(parser: argparse.ArgumentParser) -> None:
    """sacreBLEU 2.6's flags for BLEU, with its long and short names and defaults."""
    add = parser.add_argument
    add("--test-set", "-t", default=None, help="a test set sacreBLEU has stored locally (no downloads)")
    add("--language-pair", "-l", dest="langpair", default=None, help="source-target pair; picks the tokenizer")
    add("--input", "-i", nargs="*", default=None, help="hypothesis files (default: standard input, tab-separated)")
    add("refs", nargs="*", default=[], help="reference files; give them before -i")
    add("--num-refs", "-nr", type=int, default=1, help="tab-separated references per line (default 1)")
    add("--encoding", "-e", default="utf-8", help="text encoding of the files (default utf-8)")
    add("--metrics", "-m", nargs="+", choices=metrics.METRICS, default=["bleu"], help="bleu, chrf, ter")
    add("--sentence-level", "-sl", action="store_true", help="a score per segment")
    add("--smooth-method", "-s", choices=list(SMOOTH_DEFAULTS), default="exp", help="smoothing (default exp)")
    add("--smooth-value", "-sv", type=float, default=None, help="value for floor (0.1) and add-k (1)")
    add("--tokenize", "-tok", choices=SACREBLEU_TOKENIZERS, default=None, help="tokenizer (default 13a)")
    add("--lowercase", "-lc", action="store_true", help="lowercase before scoring")
    add("--force", action="store_true", help="accepted for compatibility (we print no tokenization warning)")
    add("--confidence", "-ci", action="store_true", help="bootstrap confidence interval")
    add("--confidence-n", "-cin", type=int, default=1000, help="bootstrap resamples (default 1000)")
    paired = parser.add_mutually_exclusive_group()
    paired.add_argument("--paired-ar", "-par", action="store_true", help="paired approximate randomization")
    paired.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap resampling")
    add("--paired-ar-n", "-parn", type=int, default=10000, help="AR trials (default 10000)")
    add("--paired-bs-n", "-pbsn", type=int, default=1000, help="bootstrap resamples (default 1000)")
    add("--paired-jobs", "-j", type=int, default=1, help="accepted for compatibility (one vectorized pass)")
    add("--quiet", "-q", action="store_true", help="no warnings on standard error")
    add("--short", "-sh", action="store_true", help="short signature")
    add("--score-only", "-b", action="store_true", help="print only the score")
    add("--width", "-w", type=int, default=1, help="decimals (default 1)")
    add("--no-color", "-nc", action="store_true", help="accepted for compatibility (we never print colours)")
    add("--format", "-f", choices=FORMATS, default="json", help="json, text or latex (default json)")
    metrics.add_chrf_flags(parser)
    cli_ter.add_ter_flags(parser)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bleu_core",
        formatter_class=_formatter,
        description="Exact BLEU, chrF and TER, a drop-in for `sacrebleu -m bleu chrf ter` (same flags, same output).",
    )
    _add_sacrebleu_flags(parser)
    ours = parser.add_argument_group("bleu_core extensions")
    ours.add_argument("--max-ngram-order", type=int, default=None, help="largest n-gram order (default 4)")
    ours.add_argument("--weights", type=_weights, default=None, help="n-gram weights, e.g. '1,1,1,1' (normalized)")
    ours.add_argument("--effective-order", action="store_true", help="effective order for corpus scores too")
    ours.add_argument("--statistics", action="store_true", help="one JSON line per system with every statistic")
    ours.add_argument("--segment-json", action="store_true", help="one JSON line per segment with every statistic")
    ours.add_argument(
        "--dask",
        metavar="SCHEDULER",
        default=None,
        help="count on a Dask cluster at this scheduler address (needs the dask extra); same output",
    )
    slices.add_flag(ours)
    parser.add_argument("-V", "--version", action="version", version=f"bleu_core {__version__}")
    return parser


class _Source:
    """The lines of one input, read a chunk at a time, as sacreBLEU reads them (see :mod:`.sacrebleu_reading`).

    ``lines`` given: those (standard input's column); else the file ``name``, streamed in blocks.
    """

    def __init__(self, name: str, encoding: str, lines: list[str] | None = None) -> None:
        self.name = name
        self._lines = lines
        self._count = 0
        self._file = FileLines(name, encoding) if lines is None else None

    @property
    def count(self) -> int:
        """Lines taken so far."""
        return self._file.count if self._file is not None else self._count

    @property
    def notes(self) -> list[str]:
        """Why the reading may surprise (printed as warnings)."""
        return self._file.notes if self._file is not None else []

    def take(self, size: int) -> list[str]:
        """The next ``size`` lines at most (fewer at the end), trailing whitespace stripped as sacreBLEU does."""
        if self._file is not None:
            return self._file.take(size, BLOCK_BYTES)
        assert self._lines is not None
        chunk = self._lines[self._count : self._count + size]
        self._count += len(chunk)
        return chunk

    def rest(self) -> int:
        """Count the lines left (to report a length mismatch) and close the file."""
        while self.take(CHUNK_LINES):
            pass
        self.close()
        return self.count

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _chunks(
    refs: list[_Source], hyps: list[_Source], n_refs: int = 1, size: int = CHUNK_LINES
) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
    """Aligned chunks of every hypothesis and reference file; a length mismatch raises the reader's error.

    With ``n_refs`` > 1 the one reference file holds that many tab-separated references per line.
    """
    while True:
        first_line = refs[0].count + 1
        ref_chunks = [ref.take(size) for ref in refs]
        # sacreBLEU reads the references (and splits their fields) before the hypotheses: their faults come first
        streams = split_references(ref_chunks[0], n_refs, refs[0].name, first_line) if n_refs > 1 else ref_chunks
        hyp_chunks = [hyp.take(size) for hyp in hyps]
        sizes = {len(chunk) for chunk in (*ref_chunks, *hyp_chunks)}
        if len(sizes) > 1:
            while n_refs > 1 and (more := refs[0].take(size)):  # every reference line's fields, then the counts
                split_references(more, n_refs, refs[0].name, refs[0].count - len(more) + 1)
            # Only the lengths matter to the reader's check: ranges stand in for the lines.
            counts = [(source.name, cast(Sequence[str], range(source.rest()))) for source in (*refs, *hyps)]
            for hyp in counts[len(refs) :]:
                check_line_counts(hyp, counts[: len(refs)])
        if sizes == {0}:
            return
        yield hyp_chunks, streams


def _open_sources(args: argparse.Namespace) -> tuple[list[_Source], list[_Source], list[str]]:
    """Reference and hypothesis sources and the systems' names (sacreBLEU's, with the baseline marked)."""
    paired = bool(args.paired_bs or args.paired_ar)
    ref_paths = test_set_references(args.test_set, args.langpair) if args.test_set else args.refs
    refs = [_Source(path, args.encoding) for path in ref_paths]
    if args.input is None:
        columns = stdin_systems(sys.stdin.buffer.read(), args.encoding)
        hyps = [_Source("<stdin>", args.encoding, column) for column in columns]
        names = ["Baseline", *(f"System {i}" for i in range(1, len(columns)))] if paired else None
        names = names or [f"System {i + 1}" for i in range(len(columns))]
        if paired and len(columns) == 1:
            raise ValueError("paired tests need several systems (tab-separated columns or files given to -i)")
    else:
        names = settings.system_names(args.input, paired)
        hyps = [_Source(path, args.encoding) for path in names]
        if paired:
            names = [f"Baseline: {names[0]}", *names[1:]]
    return refs, hyps, names


def _is_regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _needs_segments(args: argparse.Namespace) -> bool:
    return bool(
        args.sentence_level or args.segment_json or args.confidence or args.paired_bs or args.paired_ar or args.tags
    )


def _count(
    args: argparse.Namespace,
    refs: list[_Source],
    hyps: list[_Source],
    options: BleuOptions,
    sink: StatisticsSink,
    chrf_parts: tuple[chrf.ChrfOptions, list[list[chrf.IntArray]]] | None = None,
    ter_parts: tuple[ter.TerOptions, list[list[ter.FloatArray]]] | None = None,
) -> bool:
    """Count every chunk here, or on the Dask cluster of ``--dask``; each chunk of references is counted once
    for every hypothesis file.  Whether the lines were read here (the cluster's workers may read the files)."""
    if args.dask:
        from bleu_core.scale.cluster import score_on_cluster

        plain = args.input and args.num_refs == 1 and not args.test_set and args.encoding.lower() in ("utf-8", "utf8")
        # The workers open the files themselves: only regular files (a FIFO or /dev/stdin is read here, once).
        plain = plain and all(_is_regular(path) for path in (*args.refs, *args.input))
        files = (list(args.refs), list(args.input)) if plain else None
        for path in files[1] if files else ():
            if os.path.getsize(path) == 0:  # the workers read it: the check below cannot see its lines
                raise InputFileError(path, "contains no segments")
        chunks = lambda: _chunks(refs, hyps, args.num_refs, CLUSTER_CHUNK_LINES)  # noqa: E731
        return score_on_cluster(args.dask, files, chunks, options, sink)
    bleu = "bleu" in args.metrics
    for hyp_chunks, ref_chunks in _chunks(refs, hyps, args.num_refs):
        if bleu:
            for k, stats in enumerate(
                score_chunk(hyp_chunks, ref_chunks, options.tokenize, options.lowercase, options.max_order)
            ):
                sink.add(k, stats)
        if chrf_parts is not None:
            from bleu_core.stats import chrf

            chrf_options, parts = chrf_parts
            prepared = chrf.prepare_references(ref_chunks, chrf_options)
            for k, table in enumerate(chrf.systems_statistics(hyp_chunks, prepared, chrf_options)):
                parts[k].append(table)
        if ter_parts is not None:
            from bleu_core.stats import ter

            ter_options, ter_chunks = ter_parts
            ter_refs = ter.prepare_references(ref_chunks, ter_options)
            for k, hyp_chunk in enumerate(hyp_chunks):
                ter_chunks[k].append(ter.segment_statistics(hyp_chunk, ter_refs, ter_options))
    return True


def _print_reports(
    names: list[str], parts: list[list[SegmentStats]], options: BleuOptions, n_refs: int, args: argparse.Namespace
) -> None:
    report = settings.report(args)
    tok = tokenizer_signature(options.tokenize)
    systems = [SegmentStats.concat(hyp_parts, options.max_order) for hyp_parts in parts]
    if args.segment_json:
        for stats in systems:
            print("\n".join(cli_report.segment_records(stats, options, n_refs)))
    elif args.statistics:
        for name, stats in zip(names, systems, strict=True):
            print(cli_report.full_record(stats, options, n_refs, name if len(systems) > 1 else None))
    elif args.sentence_level:
        print("\n".join(cli_report.sentences(systems[0], options, n_refs, tok, report)))
    elif len(systems) == 1:
        print(cli_report.single_system(systems[0], options, n_refs, tok, report))
    elif report.paired:
        print(cli_report.paired_systems(names, systems, options, n_refs, tok, report))
    else:
        print(cli_report.several_systems(names, systems, options, n_refs, tok, report))


def _print_with_others(
    names: list[str],
    parts: list[list[SegmentStats]],
    chrf_parts: tuple[chrf.ChrfOptions, list[list[chrf.IntArray]]] | None,
    ter_parts: tuple[ter.TerOptions, list[list[ter.FloatArray]]] | None,
    options: BleuOptions,
    n_refs: int,
    args: argparse.Namespace,
) -> None:
    """Reports with chrF or TER (alone or beside BLEU): a line per metric for one system, else a column per
    metric, in the order BLEU, chrF, TER."""
    report = settings.report(args)
    chrf_systems = [metrics.concat(chunks, chrf_parts[0]) for chunks in chrf_parts[1]] if chrf_parts else []
    ter_systems = [cli_ter.concat(chunks) for chunks in ter_parts[1]] if ter_parts else []
    bleu = "bleu" in args.metrics
    systems = [SegmentStats.concat(hyp_parts, options.max_order) for hyp_parts in parts] if bleu else []
    tok = tokenizer_signature(options.tokenize) if bleu else ""
    if args.sentence_level:
        if chrf_parts:
            print("\n".join(metrics.sentences(metrics.chrf_printer(chrf_parts[0]), chrf_systems[0], n_refs, report)))
        elif ter_parts:
            print("\n".join(metrics.sentences(cli_ter.printer(ter_parts[0]), ter_systems[0], n_refs, report)))
    elif report.paired:
        results: dict[str, list[cli_report.PairedRow]] = {}
        notes: dict[str, str] = {}
        for metric in metrics.paired_order(args):
            if metric == "bleu":
                results["BLEU"], notes["BLEU"] = cli_report.bleu_paired(systems, options, n_refs, tok, report)
            elif metric == "chrf" and chrf_parts:
                name, rows, notes[name] = metrics.paired(chrf_systems, chrf_parts[0], n_refs, report)
                results[name] = rows
            elif metric == "ter" and ter_parts:
                results["TER"], notes["TER"] = cli_ter.paired(ter_systems, ter_parts[0], n_refs, report)
        print(cli_report.paired_table(names, results, notes, report))
    elif len(names) == 1:
        lines = [cli_report.single_system(systems[0], options, n_refs, tok, report)] if bleu else []
        if chrf_parts:
            lines.append(metrics.single_line(metrics.chrf_printer(chrf_parts[0]), chrf_systems[0], n_refs, report))
        if ter_parts:
            lines.append(metrics.single_line(cli_ter.printer(ter_parts[0]), ter_systems[0], n_refs, report))
        print(metrics.joined_lines(lines, report.format))
    else:
        columns: dict[str, list[str]] = {}
        signatures: dict[str, str] = {}
        if bleu:
            columns["BLEU"], signatures["BLEU"] = cli_report.bleu_column(systems, options, n_refs, tok, report)
        if chrf_parts:
            name, scores, signature = metrics.column(metrics.chrf_printer(chrf_parts[0]), chrf_systems, n_refs, report)
            columns[name], signatures[name] = scores, signature
        if ter_parts:
            name, scores, signature = metrics.column(cli_ter.printer(ter_parts[0]), ter_systems, n_refs, report)
            columns[name], signatures[name] = scores, signature
        print(cli_report.metric_table(names, columns, signatures, report))


def _print_slices(
    lines: list[str],
    names: list[str],
    parts: list[list[SegmentStats]],
    chrf_parts: tuple[chrf.ChrfOptions, list[list[chrf.IntArray]]] | None,
    ter_parts: tuple[ter.TerOptions, list[list[ter.FloatArray]]] | None,
    options: BleuOptions,
    args: argparse.Namespace,
) -> None:
    """``--tags``: every metric's score per label (and paired tests per label), see :mod:`.slices`."""
    bleu = [SegmentStats.concat(p, options.max_order) for p in parts] if "bleu" in args.metrics else []
    chrf_systems = (chrf_parts[0], [metrics.concat(c, chrf_parts[0]) for c in chrf_parts[1]]) if chrf_parts else None
    ter_systems = [cli_ter.concat(chunks) for chunks in ter_parts[1]] if ter_parts else None
    slices.print_slices(args, lines, names, bleu, options, chrf_systems, ter_systems)


def _score(args: argparse.Namespace, sources: list[_Source]) -> None:
    settings.check_combinations(args)
    tag_lines = slices.read(args) if args.tags is not None else None
    use_chrf = "chrf" in args.metrics
    options = settings.options(args) if "bleu" in args.metrics else settings.default_options()
    chrf_options = metrics.chrf_options(args) if use_chrf else None
    refs, hyps, names = _open_sources(args)
    sources.extend(refs + hyps)
    if args.sentence_level and len(hyps) > 1:
        raise ValueError("only one system can be evaluated in sentence-level mode")
    if args.confidence and len(hyps) > 1:
        raise ValueError("use a paired test (--paired-bs or --paired-ar) for several systems")
    sink = StatisticsSink(len(hyps), options.max_order, _needs_segments(args))
    chrf_parts: tuple[chrf.ChrfOptions, list[list[chrf.IntArray]]] | None = None
    if chrf_options is not None:
        chrf_parts = (chrf_options, [[] for _ in hyps])
    ter_parts: tuple[ter.TerOptions, list[list[ter.FloatArray]]] | None = None
    if "ter" in args.metrics:
        ter_parts = (cli_ter.ter_options(args), [[] for _ in hyps])
    read_here = _count(args, refs, hyps, options, sink, chrf_parts, ter_parts)
    for hyp in hyps:
        if read_here and hyp.count == 0:
            raise InputFileError(hyp.name, "contains no segments")
    if not args.quiet:
        for source in sources:
            for note in source.notes:
                print(f"bleu_core: warning: {source.name} {note}", file=sys.stderr)
    n_refs = max(len(refs), args.num_refs)
    if tag_lines is not None:
        _print_slices(tag_lines, names, sink.parts, chrf_parts, ter_parts, options, args)
    elif chrf_parts is not None or ter_parts is not None:
        _print_with_others(names, sink.parts, chrf_parts, ter_parts, options, n_refs, args)
    else:
        _print_reports(names, sink.parts, options, n_refs, args)


def run(argv: Sequence[str] | None = None) -> int:
    """The command line; exit status 0, or 1 for bad input as sacreBLEU (17 for a tab-field mismatch)."""
    args = build_parser().parse_args(argv)
    sources: list[_Source] = []
    try:
        _score(args, sources)
    except FieldCountError as error:
        print(f"bleu_core: error: {error.message}", file=sys.stderr)
        return 17
    except (InputFileError, ValueError, TypeError) as error:
        print(f"bleu_core: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    finally:
        for source in sources:
            source.close()
    return 0


def main() -> None:
    sys.exit(run())
