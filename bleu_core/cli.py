"""Command line: ``python -m bleu_core REF [REF ...] [-i HYP [HYP ...]]``, modelled on sacreBLEU's."""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Iterator, Sequence
from typing import cast

from .api import BleuResult, result_from_statistics
from .counting import CHUNK_SEGMENTS, score_chunk
from .options import SMOOTH_DEFAULTS, TOKENIZERS, BleuOptions, make_options
from .reader import InputFileError, check_line_counts, decode_lines, detect_encoding, read_lines
from .scoring import score_statistics
from .statistics import SegmentStats
from .version import __version__

#: Lines read from every file at a time: memory grows with this, not with the files.
CHUNK_LINES = CHUNK_SEGMENTS
#: Characters read at a time; whole blocks are split into lines (faster than reading line by line).
BLOCK_CHARACTERS = 1 << 20


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


def _print_sentences(stats: SegmentStats, options: BleuOptions, args: argparse.Namespace) -> None:
    scores = score_statistics(stats, options)
    for i in range(len(stats)):
        if args.score_only:
            print(f"{100.0 * scores.score[i]:.{args.width}f}")
        elif args.format == "text":
            print(f"{i + 1}\tBLEU = {100.0 * scores.score[i]:.{args.width}f}")
        else:
            print(json.dumps(_segment_record(i + 1, stats.take(slice(i, i + 1)), options)))


class _Source:
    """The lines of one input, read a chunk at a time (the whole of standard input at once)."""

    def __init__(self, name: str, lines: list[str] | None = None) -> None:
        self.name = name
        self.count = 0
        self._lines = lines
        self._text: io.TextIOWrapper | None = None
        self._pending: list[str] = []  # lines read but not taken
        self._partial: str | None = ""  # the text after the last line feed read; None at the end of the file
        if lines is None:
            try:
                handle = open(name, "rb")  # noqa: SIM115 - closed by close()
            except OSError:
                read_lines(name)  # raises the reader's error for a missing or unreadable file
                raise
            encoding = detect_encoding(handle.read(4))
            handle.seek(0)
            # Universal newlines turn CRLF and CR into LF, as the reader does.
            self._text = io.TextIOWrapper(handle, encoding=encoding, errors="strict", newline=None)

    def take(self, size: int) -> list[str]:
        """The next ``size`` lines at most (fewer at the end), without line feeds."""
        if self._lines is not None:
            chunk = self._lines[self.count : self.count + size]
        else:
            while len(self._pending) < size and self._partial is not None:
                self._read_block()
            chunk = self._pending[:size]
            del self._pending[:size]
        self.count += len(chunk)
        return chunk

    def _read_block(self) -> None:
        """Split the next block of text into lines; the last, unfinished one waits for the next block."""
        assert self._text is not None and self._partial is not None
        try:
            block = self._text.read(BLOCK_CHARACTERS)
        except UnicodeDecodeError:
            read_lines(self.name)  # the reader names the line and the byte
            raise
        if "\x00" in block:
            read_lines(self.name)
        if not block:  # the end: a last line without a line feed is a segment too
            if self._partial:
                self._pending.append(self._partial)
            self._partial = None
            return
        lines = (self._partial + block).split("\n")
        self._partial = lines.pop()
        self._pending.extend(lines)

    def rest(self) -> int:
        """Count the lines left (to report a length mismatch) and close the file."""
        while self.take(CHUNK_LINES):
            pass
        self.close()
        return self.count

    def close(self) -> None:
        if self._text is not None:
            self._text.close()


def _chunks(refs: list[_Source], hyps: list[_Source]) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
    """Aligned chunks of every hypothesis and reference file; a length mismatch raises the reader's error."""
    while True:
        ref_chunks = [ref.take(CHUNK_LINES) for ref in refs]
        hyp_chunks = [hyp.take(CHUNK_LINES) for hyp in hyps]
        sizes = {len(chunk) for chunk in (*ref_chunks, *hyp_chunks)}
        if len(sizes) > 1:
            # Only the lengths matter to the reader's check: ranges stand in for the lines.
            counts = [(source.name, cast(Sequence[str], range(source.rest()))) for source in (*refs, *hyps)]
            for hyp in counts[len(refs) :]:
                check_line_counts(hyp, counts[: len(refs)])
        if sizes == {0}:
            return
        yield hyp_chunks, ref_chunks


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    sources: list[_Source] = []
    try:
        options = make_options(
            max_order=args.max_ngram_order,
            weights=args.weights,
            tokenize=args.tokenize,
            lowercase=args.lowercase,
            smooth=args.smooth_method,
            smooth_value=args.smooth_value,
            effective_order=args.effective_order or args.sentence_level,
        )
        refs = [_Source(path) for path in args.refs]
        sources.extend(refs)
        if args.input:
            hyps = [_Source(path) for path in args.input]
        else:
            hyps = [_Source("<stdin>", decode_lines(sys.stdin.buffer.read(), "<stdin>"))]
        sources.extend(hyps)
        parts: list[list[SegmentStats]] = [[] for _ in hyps]
        for hyp_chunks, ref_chunks in _chunks(refs, hyps):
            # Each chunk of references is counted once and scores every hypothesis file; only statistics stay.
            for k, stats in enumerate(
                score_chunk(hyp_chunks, ref_chunks, options.tokenize, options.lowercase, options.max_order)
            ):
                parts[k].append(stats)
        for hyp, hyp_parts in zip(hyps, parts, strict=True):
            stats = SegmentStats.concat(hyp_parts, options.max_order)
            if args.sentence_level:
                _print_sentences(stats, options, args)
            else:
                _print_corpus(hyp.name, result_from_statistics(stats, options, len(refs)), args, len(hyps) > 1)
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
