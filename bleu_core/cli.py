"""Command line: ``python -m bleu_core REF [REF ...] [-i HYP [HYP ...]]``, modelled on sacreBLEU's."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

from .api import BleuResult, result_from_statistics
from .counting import CHUNK_SEGMENTS, score_chunk
from .line_source import LineSource, aligned_chunks
from .options import SMOOTH_DEFAULTS, TOKENIZERS, BleuOptions, make_options
from .reader import InputFileError
from .scoring import score_statistics
from .statistics import SegmentStats
from .version import __version__

#: Lines read from every file at a time: memory grows with this, not with the files.
CHUNK_LINES = CHUNK_SEGMENTS
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bleu_core",
        formatter_class=_formatter,
        description="Exact BLEU (sacreBLEU-identical) of hypothesis files against reference files.",
    )
    parser.add_argument("refs", nargs="+", metavar="REF", help="reference files, one segment per line")
    parser.add_argument("-i", "--input", nargs="+", metavar="HYP", help="hypothesis files (default: standard input)")
    parser.add_argument("-tok", "--tokenize", choices=TOKENIZERS, default="13a", help="tokenizer (default 13a)")
    parser.add_argument("-lc", "--lowercase", action="store_true", help="lowercase before scoring")
    parser.add_argument(
        "-s", "--smooth-method", choices=list(SMOOTH_DEFAULTS), default="exp", help="smoothing (default exp)"
    )
    parser.add_argument("--smooth-value", type=float, default=None, help="value for floor (0.1) and add-k (1)")
    parser.add_argument("--max-ngram-order", type=int, default=None, help="largest n-gram order (default 4)")
    parser.add_argument("--weights", type=_weights, default=None, help="n-gram weights, e.g. '1,1,1,1' (normalized)")
    parser.add_argument("-e", "--effective-order", action="store_true", help="use effective order (sentence BLEU)")
    parser.add_argument("-f", "--format", choices=("json", "text"), default="json", help="output format (default json)")
    parser.add_argument("-b", "--score-only", action="store_true", help="print only the score")
    parser.add_argument("-w", "--width", type=int, default=1, help="decimals for --score-only and text (default 1)")
    parser.add_argument("-sl", "--sentence-level", action="store_true", help="one score per segment (JSON lines)")
    parser.add_argument(
        "--dask",
        metavar="SCHEDULER",
        default=None,
        help="count on a Dask cluster at this scheduler address (needs the dask extra); files are read here",
    )
    parser.add_argument("-V", "--version", action="version", version=f"bleu_core {__version__}")
    return parser


def _segment_record(index: int, row: SegmentStats, options: BleuOptions) -> dict[str, object]:
    arrays = score_statistics(row, options)
    return {
        "segment": index,
        "score": 100.0 * float(arrays.score[0]),
        "counts": [int(c) for c in row.matches[0]],
        "totals": [int(t) for t in row.totals[0]],
        "precisions": [100.0 * float(p) for p in arrays.precisions[0]],
        "bp": float(arrays.bp[0]),
        "sys_len": int(row.hyp_len[0]),
        "ref_len": int(row.ref_len[0]),
    }


def _print_corpus(name: str, result: BleuResult, args: argparse.Namespace, many: bool) -> None:
    if args.score_only:
        print(f"{result.score_100:.{args.width}f}")
    elif args.format == "text":
        prefix = f"{name}: " if many else ""
        print(f"{prefix}{result.format(args.width)}")
        print(f"{prefix}signature: {result.signature}")
    else:
        record = result.to_dict()
        if many:
            record = {"hypothesis": name, **record}
        print(json.dumps(record, ensure_ascii=False))


def _print_sentences(
    stats: SegmentStats, options: BleuOptions, args: argparse.Namespace, start: int, out: TextIO
) -> None:
    """One line per segment, numbered from ``start + 1``."""
    scores = score_statistics(stats, options)
    for i in range(len(stats)):
        if args.score_only:
            line = f"{100.0 * scores.score[i]:.{args.width}f}"
        elif args.format == "text":
            line = f"{start + i + 1}\tBLEU = {100.0 * scores.score[i]:.{args.width}f}"
        else:
            line = json.dumps(_segment_record(start + i + 1, stats.take(slice(i, i + 1)), options))
        out.write(line + "\n")


class StatisticsSink:
    """Where chunks of statistics go as they are made: summed per hypothesis file, and printed for ``-sl``.

    Only the sums stay in memory.  With ``-sl`` the first hypothesis file's segments are printed at once;
    those of later files are spooled to temporary files and printed after it, keeping the output order.
    """

    def __init__(self, n_systems: int, options: BleuOptions, args: argparse.Namespace) -> None:
        self.options = options
        self.args = args
        self.sums = [SegmentStats.empty(options.max_order) for _ in range(n_systems)]
        self.counts = [0] * n_systems
        self._spools: list[TextIO] = [sys.stdout]
        if args.sentence_level and n_systems > 1:
            import tempfile

            # Closed by close(), after finish() has copied them out.
            self._spools += [tempfile.TemporaryFile("w+", encoding="utf-8") for _ in range(n_systems - 1)]  # noqa: SIM115

    def add(self, system: int, stats: SegmentStats) -> None:
        """Take the next chunk of one system's statistics (per segment with ``-sl``, else any rows)."""
        if self.args.sentence_level:
            _print_sentences(stats, self.options, self.args, self.counts[system], self._spools[system])
            self.counts[system] += len(stats)
        self.sums[system] = self.sums[system].merge(stats)

    def finish(self) -> None:
        """Print the spooled segments of the later hypothesis files, in order."""
        sys.stdout.flush()
        for spool in self._spools[1:]:
            spool.seek(0)
            while block := spool.read(1 << 20):
                sys.stdout.write(block)
            spool.close()

    def close(self) -> None:
        for spool in self._spools[1:]:
            spool.close()


def score_locally(
    chunks: Iterable[tuple[list[list[str]], list[list[str]]]], options: BleuOptions, sink: StatisticsSink
) -> None:
    """Count every chunk in this process; each chunk of references is counted once for every hypothesis file."""
    for hyp_chunks, ref_chunks in chunks:
        for k, stats in enumerate(
            score_chunk(hyp_chunks, ref_chunks, options.tokenize, options.lowercase, options.max_order)
        ):
            sink.add(k, stats)


def _options(args: argparse.Namespace) -> BleuOptions:
    return make_options(
        max_order=args.max_ngram_order,
        weights=args.weights,
        tokenize=args.tokenize,
        lowercase=args.lowercase,
        smooth=args.smooth_method,
        smooth_value=args.smooth_value,
        effective_order=args.effective_order or args.sentence_level,
    )


def _score(args: argparse.Namespace, sources: list[LineSource]) -> None:
    """Read, count and print: files stream through in chunks, only summed statistics stay."""
    options = _options(args)
    refs = [LineSource(path) for path in args.refs]
    sources.extend(refs)
    # Standard input streams too: it is read a block at a time, like the files.
    hyps = [LineSource(path) for path in args.input] if args.input else [LineSource("<stdin>", sys.stdin.buffer)]
    sources.extend(hyps)
    sink = StatisticsSink(len(hyps), options, args)
    try:
        if args.dask:
            from .cluster import score_on_cluster

            files = (list(args.refs), list(args.input)) if args.input else None
            score_on_cluster(args.dask, files, lambda: aligned_chunks(refs, hyps, CLUSTER_CHUNK_LINES), options, sink)
        else:
            score_locally(aligned_chunks(refs, hyps, CHUNK_LINES), options, sink)
        if args.sentence_level:
            sink.finish()
            return
    finally:
        sink.close()
    for hyp, stats in zip(hyps, sink.sums, strict=True):
        _print_corpus(hyp.name, result_from_statistics(stats, options, len(refs)), args, len(hyps) > 1)


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    sources: list[LineSource] = []
    try:
        _score(args, sources)
    except (InputFileError, ValueError, TypeError) as error:
        print(f"bleu_core: error: {error}", file=sys.stderr)
        return 2
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
