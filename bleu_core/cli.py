"""Command line: ``python -m bleu_core REF [REF ...] [-i HYP [HYP ...]]``, modelled on sacreBLEU's."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .api import BleuResult, __version__, result_from_statistics
from .options import SMOOTH_DEFAULTS, TOKENIZERS, BleuOptions, make_options
from .reader import InputFileError, check_line_counts, decode_lines, read_lines
from .scoring import score_statistics
from .statistics import SegmentStats, prepare_references, segment_statistics


def _weights(text: str) -> list[float]:
    try:
        return [float(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"weights must be numbers separated by commas or spaces; got {text!r}"
        ) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bleu_core",
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


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
        refs = [(path, read_lines(path)) for path in args.refs]
        if args.input:
            hyps = [(path, read_lines(path)) for path in args.input]
        else:
            hyps = [("<stdin>", decode_lines(sys.stdin.buffer.read(), "<stdin>"))]
        for hyp in hyps:
            check_line_counts(hyp, refs)
        prepared = prepare_references(
            [lines for _, lines in refs],
            tokenize=options.tokenize,
            lowercase=options.lowercase,
            max_order=options.max_order,
        )
        for name, lines in hyps:
            stats = segment_statistics(lines, prepared)
            if args.sentence_level:
                _print_sentences(stats, options, args)
            else:
                _print_corpus(name, result_from_statistics(stats, options, prepared.n_refs), args, len(hyps) > 1)
    except (InputFileError, ValueError, TypeError) as error:
        print(f"bleu_core: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return 0


def main() -> None:
    sys.exit(run())
