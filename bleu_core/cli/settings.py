"""The command line's settings: sacreBLEU's rules for its flags, turned into options and a report plan."""

from __future__ import annotations

import argparse
import os

from bleu_core.cli.report import Report
from bleu_core.options import TOKENIZERS, BleuOptions, make_options
from bleu_core.sacrebleu_format import LANGUAGE_TOKENIZERS
from bleu_core.text.sacrebleu_reading import FieldCountError

#: Tokenizer names sacreBLEU 2.6 accepts; those we do not run ourselves fail with one clear line.
SACREBLEU_TOKENIZERS = (*TOKENIZERS, "ko-mecab", "spm", "flores101", "flores200", "spBLEU-1K")
FORMATS = ("json", "text", "latex")
#: The most decimals ``-w`` may ask for: a float64 has at most 1074 digits after the point (2**-1074), so more
#: would print only zeros; without a bound ``-w 2000000000`` asks for gigabytes per number.
MAX_WIDTH = 1074
#: The largest ``-s add-k`` value: sacreBLEU computes 100 * (count + k), which overflows to infinity above about
#: 1.8e306 and prints ``"score": Infinity`` (not JSON). Any k up to here gives sacreBLEU's finite number.
MAX_ADD_K = 1e306


def tokenizer(args: argparse.Namespace) -> str:
    """The tokenizer asked for, else the one sacreBLEU picks for the target language of ``-l``, else 13a."""
    target = ""
    if args.langpair:
        if "-" not in args.langpair:
            raise ValueError(f"--language-pair must look like en-de; got {args.langpair!r}")
        target = args.langpair.split("-")[1]
    name = args.tokenize or LANGUAGE_TOKENIZERS.get(target, "13a")
    if name not in TOKENIZERS:
        raise ValueError(
            f"tokenizer {name!r} is not built into bleu_core (it has {', '.join(TOKENIZERS)}); "
            f"score with `sacrebleu -tok {name}` instead"
        )
    return name


def check_values(args: argparse.Namespace) -> None:
    """Flag values sacreBLEU takes without a check, refused here in one line before anything is read.

    ``-nr 0`` or ``-nr -3``: sacreBLEU stops at the reference file's first line ("expected 0 fields") with
    status 17; we say why, with the same status. ``-w -1``: sacreBLEU fails with a traceback (status 1).
    ``-s add-k -sv 1e308``: sacreBLEU prints Infinity (invalid JSON); we refuse k above :data:`MAX_ADD_K`.
    """
    if args.num_refs < 1:
        raise FieldCountError(
            "--num-refs must be 1 or more (the number of tab-separated references on each line of the "
            f"reference file); got {args.num_refs}",
            "--num-refs",
        )
    if not 0 <= args.width <= MAX_WIDTH:
        raise ValueError(f"--width must be a whole number of decimals from 0 to {MAX_WIDTH}; got {args.width}")
    value = args.smooth_value
    # (infinity and NaN are refused with the options' own message)
    if args.smooth_method == "add-k" and value is not None and MAX_ADD_K < value < float("inf"):
        raise ValueError(
            f"--smooth-value for add-k must be at most {MAX_ADD_K:g}: a larger k makes the precisions overflow "
            f"to infinity, and infinity is not a score (nor JSON); got {value:g}"
        )


def check_metrics(args: argparse.Namespace) -> None:
    """The metrics asked for: BLEU, chrF and TER are built in; chrF or TER with what only BLEU has here (statistics
    records, a cluster) are refused."""
    if args.sentence_level and len(args.metrics) > 1:
        raise ValueError("only one metric can be used in sentence-level mode")
    for metric, name in (("chrf", "chrF"), ("ter", "TER")):
        if metric not in args.metrics:
            continue
        for flag, given in (
            ("--statistics", args.statistics),
            ("--segment-json", args.segment_json),
            ("--dask", args.dask),
        ):
            if given:
                raise ValueError(f"{flag} is for -m bleu only in bleu_core; drop it to score {name} (-m {metric})")


def check_combinations(args: argparse.Namespace) -> None:
    """sacreBLEU's rules for flags that cannot go together (each is an error with status 1)."""
    check_values(args)
    check_metrics(args)
    n_inputs = len(args.input) if args.input else 1
    if args.num_refs != 1 and (args.test_set is not None or len(args.refs) > 1):
        raise ValueError("--num-refs reads several tab-separated references from one reference file; give one file")
    if args.test_set is None and not args.refs:
        raise ValueError("no references: give reference files before -i/--input, or a stored test set with -t")
    if args.test_set is not None and args.refs:
        raise ValueError("give either a test set (-t) or reference files, not both")
    if args.sentence_level and (args.confidence or args.paired_bs or args.paired_ar):
        raise ValueError("statistical tests are unavailable in sentence-level mode")
    if args.sentence_level and n_inputs > 1:
        raise ValueError("only one system can be evaluated in sentence-level mode")
    if (args.paired_bs or args.paired_ar) and args.input is not None and n_inputs == 1:
        raise ValueError("paired tests need several systems given to --input (-i)")
    if args.confidence and n_inputs > 1:
        raise ValueError("use a paired test (--paired-bs or --paired-ar) for several systems")


def system_names(inputs: list[str], paired: bool) -> list[str]:
    """Each input once: a repeated name is an error, except the baseline repeated in a paired test (skipped)."""
    names: list[str] = []
    for name in inputs:
        if name in names:
            if paired and name == names[0]:
                continue
            raise ValueError(f"{name!r} already used to name a system; give every system a different file name")
        names.append(name)
    if paired and len(names) < 2:  # the baseline given again is skipped, as sacreBLEU does, and then fails
        raise ValueError(f"{inputs[0]!r} was also given as the baseline; paired tests need several systems (-i)")
    return names


def seed() -> int:
    """The seed of the resamples: sacreBLEU's SACREBLEU_SEED variable when set (the command line owns it)."""
    text = os.environ.get("SACREBLEU_SEED", "12345")
    if not text.isdigit():
        raise ValueError(f"SACREBLEU_SEED must be a whole number >= 0 for bleu_core; got {text!r}")
    return int(text)


def report(args: argparse.Namespace) -> Report:
    fmt = os.environ.get("SACREBLEU_FORMAT", "").lower()
    paired = "bs" if args.paired_bs else "ar" if args.paired_ar else ""
    return Report(
        format=fmt if fmt in FORMATS else args.format,
        width=args.width,
        score_only=args.score_only,
        short=args.short,
        confidence_n=args.confidence_n if args.confidence else 0,
        paired=paired,
        paired_n=(args.paired_bs_n if paired == "bs" else args.paired_ar_n) if paired else 0,
        seed=seed() if (paired or args.confidence) else 12345,
    )


def default_options() -> BleuOptions:
    """BLEU's defaults, for the reading machinery when only chrF is scored (no BLEU flag is checked then)."""
    return make_options()


def options(args: argparse.Namespace) -> BleuOptions:
    return make_options(
        max_order=args.max_ngram_order,
        weights=args.weights,
        tokenize=tokenizer(args),
        lowercase=args.lowercase,
        smooth=args.smooth_method,
        smooth_value=args.smooth_value,
        effective_order=args.effective_order or args.sentence_level,
        floor_above_one=True,  # sacreBLEU scores -s floor -sv 2 (precisions above 100%); so does its drop-in
    )
