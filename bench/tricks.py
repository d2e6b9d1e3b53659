"""What each speed trick of the tokenizers gains over its plain version, on WMT22 files: ``python -m bench.tricks``.

Each trick and its plain version (tests/core/test_tricks.py proves they agree) run alternately, on the
same input, ``--repeat`` times; the table shows the median time of each and the median of the paired
ratios plain / trick.  sacreBLEU's tokenizer caches are cleared before each of its runs (cold, as in
``bench.run``).  The gains quoted in the docstrings of ``bleu_core/tokenizers`` come from this script.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.run import clear_sacrebleu_caches, data_root, read_lines
from bleu_core.stats.chrf import char_ids, numbered_matches, packed_matches
from bleu_core.tokenizers import Vocabulary, tokenize_lines
from bleu_core.tokenizers.joined import is_space, join, plain_is_space, plain_spaced, spaced, spans
from bleu_core.tokenizers.rules import chosen_by_rules, punctuation_bytes
from bleu_core.tokenizers.sacrebleu_line import tokenize_lines_by_sacrebleu
from bleu_core.tokenizers.together import group_streams, plain_group_streams
from bleu_core.tokenizers.tok13a import join_13a, needs_preparing, plain_needs_preparing
from bleu_core.tokenizers.vocabulary import plain_lookup
from bleu_core.tokenizers.zh import line_edges, zh_table

Run = Callable[[], Any]


def _nothing() -> None:
    return None


def paired(trick: Run, plain: Run, repeat: int, before_plain: Run) -> tuple[float, float, float]:
    """Median ms of the trick, of the plain version, and median of the paired ratios plain / trick."""
    fast: list[float] = []
    slow: list[float] = []
    for r in range(repeat):
        order = [(fast, trick, _nothing), (slow, plain, before_plain)]
        for times, run, prepare in order if r % 2 == 0 else order[::-1]:
            prepare()
            gc.collect()
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
    ratio = statistics.median(s / f for f, s in zip(fast, slow, strict=True))
    return statistics.median(fast) * 1e3, statistics.median(slow) * 1e3, ratio


def _files(root: Path, pair: str, kind: str) -> list[list[str]]:
    return [read_lines(path) for path in sorted((root / pair).glob(f"generaltest2022.{pair}.{kind}.*"))]


Case = tuple[str, str, Run, Run, Run]


def cases(root: Path) -> list[Case]:
    """(trick, input, the trick, its plain version, what to do before each plain run)."""
    de_en, en_zh, en_ja, zh_en = (_files(root, pair, "ref") for pair in ("de-en", "en-zh", "en-ja", "zh-en"))
    de_en_all = [*de_en, _files(root, "de-en", "hyp")[0]]
    return [
        *_tokenizer_cases(de_en[0], en_zh[0], en_ja[0]),
        *_unit_cases(de_en[0], en_zh[0], zh_en[0]),
        *_id_cases(de_en_all),
        *_chrf_cases(de_en[0], _files(root, "de-en", "hyp")[0], en_zh[0], _files(root, "en-zh", "hyp")[0]),
    ]


def _tokenizer_cases(de_en: list[str], en_zh: list[str], en_ja: list[str]) -> list[Case]:
    out: list[Case] = []
    for name, lines, label in (
        ("13a", de_en, "de-en ref A"),
        ("zh", en_zh, "en-zh ref A"),
        ("char", en_ja, "en-ja ref A"),
    ):
        out.append(
            (
                f"whole-stream {name}",
                label,
                lambda lines=lines, name=name: tokenize_lines(lines, name),
                lambda lines=lines, name=name: tokenize_lines_by_sacrebleu(lines, name),
                clear_sacrebleu_caches,
            )
        )
    out.append(
        (
            "13a over bytes (tokens)",
            "de-en ref A",
            lambda: spans(join_13a(de_en)),
            lambda: spans(join_13a(de_en, as_bytes=False)),
            _nothing,
        )
    )
    return out


def _unit_cases(de_en: list[str], en_zh: list[str], zh_en: list[str]) -> list[Case]:
    out: list[Case] = []
    streams = {"13a": join(de_en, as_bytes=True), "zh": join(en_zh, as_bytes=False)}
    chosen = {
        "13a": chosen_by_rules(streams["13a"].units, punctuation_bytes()),
        "zh": chosen_by_rules(streams["zh"].units, zh_table(), line_edges(streams["zh"])),
    }
    for name, label in (("13a", "de-en ref A, 13a"), ("zh", "en-zh ref A, zh")):
        units, choice = streams[name].units, chosen[name]
        out.append(("is_space", label, lambda u=units: is_space(u), lambda u=units: plain_is_space(u), _nothing))
        out.append(
            (
                "spaced",
                label,
                lambda u=units, c=choice: spaced(u, c),
                lambda u=units, c=choice: plain_spaced(u, c),
                _nothing,
            )
        )
    for lines, label in ((de_en, "de-en ref A"), (zh_en, "zh-en ref A")):
        text = " ".join(lines)
        out.append(
            (
                "needs_preparing",
                label,
                lambda t=text: needs_preparing(t),
                lambda t=text: plain_needs_preparing(t),
                _nothing,
            )
        )
    return out


def _id_cases(streams: list[list[str]]) -> list[Case]:
    found = [spans(join_13a(lines)) for lines in streams]
    tokens = " ".join(streams[0]).split()
    label = "de-en refs + 1 system"
    return [
        (
            "13a over bytes (ids together)",
            label,
            lambda: group_streams([spans(join_13a(lines)) for lines in streams]),
            lambda: group_streams([spans(join_13a(lines, as_bytes=False)) for lines in streams]),
            _nothing,
        ),
        ("group_streams", label, lambda: group_streams(found), lambda: plain_group_streams(found), _nothing),
        (
            "Vocabulary.lookup",
            "de-en ref A tokens",
            lambda: Vocabulary("13a").lookup(tokens, len(tokens), True),
            lambda: plain_lookup(Vocabulary("13a"), tokens, True),
            _nothing,
        ),
    ]


def _chrf_cases(*texts: list[str]) -> list[Case]:
    """chrF's character 1- to 6-gram matches of one system against reference A (spaces removed, as chrF does)."""
    out: list[Case] = []
    for (refs, hyps), label in zip(((texts[0], texts[1]), (texts[2], texts[3])), ("de-en", "en-zh"), strict=True):
        ids, lengths, bound = char_ids(["".join(line.split()) for line in [*hyps, *refs]])
        hyp_text = np.arange(len(hyps))
        ref_text = hyp_text + len(hyps)
        out.append(
            (
                "chrF packed n-gram keys",
                f"{label} ref A + 1 system",
                lambda a=(ids, lengths, bound, 6, hyp_text, ref_text): packed_matches(*a),
                lambda a=(ids, lengths, bound, 6, hyp_text, ref_text): numbered_matches(*a),
                _nothing,
            )
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs of each version (default 15)")
    args = parser.parse_args()
    root = data_root()
    if not (root / "de-en").is_dir():
        print(f"WMT22 data not found at {root}: nothing to measure (set BLEU_WMT22 to its folder).")
        return
    print(f"{'trick':32} | {'input':22} | {'trick ms':>9} | {'plain ms':>9} | gain")
    print(f"{'-' * 32}-+-{'-' * 22}-+-{'-' * 9}-+-{'-' * 9}-+------")
    for trick, label, run, plain, before in cases(root):
        run(), plain()  # warm up: imports, tables
        fast_ms, plain_ms, gain = paired(run, plain, args.repeat, before)
        print(f"{trick:32} | {label:22} | {fast_ms:9.3f} | {plain_ms:9.3f} | {gain:4.1f}x", flush=True)


if __name__ == "__main__":
    main()
