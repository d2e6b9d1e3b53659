"""sacreBLEU's ``char``: every character is a token, so (after BLEU's rstrip and split) every non-space one."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleu_core.tokenizers.joined import code_points, whitespace_table
from bleu_core.tokenizers.vocabulary import Encoded


def tokenize_char(lines: Sequence[str]) -> list[list[str]]:
    return [list("".join(line.split())) for line in lines]


def encode_char(lines: Sequence[str]) -> Encoded:
    """Every non-whitespace character is a token; its id is its code point."""
    points = code_points("".join(lines)).astype(np.int64)
    per_line = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    space = whitespace_table()[np.minimum(points, 0xFFFF)] & (points < 0x10000)
    if not space.any():
        return Encoded(points, per_line)
    line_of = np.repeat(np.arange(len(lines), dtype=np.int64), per_line)
    lengths = per_line - np.bincount(line_of[space], minlength=len(lines)).astype(np.int64)
    return Encoded(points[~space], lengths)
