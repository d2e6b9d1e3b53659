"""sacreBLEU's ``zh`` over a whole stream: strip each line, pad Chinese characters, then the four 13a rules."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from numpy.typing import NDArray

from bleu_core.tokenizers.joined import IntArray, Joined, is_space, join
from bleu_core.tokenizers.rules import PUNCTUATION, apply_rules

# sacreBLEU's zh tokenizer pads every "Chinese" character with spaces.  Its test compares one-character
# strings with the bounds of _UCODE_RANGES; two bounds are written with five hex digits after \u, so they
# are two-character strings ("\u2000" + "0" to "\u2a6d" + "6", "\u2f80" + "0" to "\u2fa1" + "d"): the
# ranges are really U+2001-U+2A6D and U+2F81-U+2FA1, and no character beyond the BMP qualifies.  These are
# the resulting inclusive ranges; the tests compare them with sacreBLEU on all 1,114,112 code points.
_CJK_RANGES = (
    (0x3400, 0x4DB5),
    (0x4E00, 0x9FA5),
    (0x9FA6, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),
    (0x2F81, 0x2FA1),
    (0xFF00, 0xFFEF),
    (0x2E80, 0x2EFF),
    (0x3000, 0x303F),
    (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF),
    (0x2FF0, 0x2FFF),
    (0x3100, 0x312F),
    (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
    (0x3200, 0x32FF),
    (0x3300, 0x33FF),
)


@cache
def _cjk_table() -> NDArray[np.bool_]:
    table = np.zeros(0x10000, dtype=bool)
    for start, stop in _CJK_RANGES:
        table[start : stop + 1] = True
    return table


def is_chinese_char(char: str) -> bool:
    """Whether sacreBLEU's ``zh`` tokenizer pads ``char`` with spaces."""
    point = ord(char)
    return point < 0x10000 and bool(_cjk_table()[point])


@cache
def zh_table() -> NDArray[np.bool_]:
    """zh pads Chinese characters, then 13a's punctuation: both put spaces around single characters.

    The table covers the BMP and is False at U+FFFF, so every character beyond the BMP is left alone.
    """
    table = _cjk_table().copy()
    table[[ord(c) for c in PUNCTUATION]] = True
    return table


def line_edges(joined: Joined) -> tuple[IntArray, IntArray]:
    """The first and the last non-whitespace unit of every line that has one (where zh's stripped lines end)."""
    solid = np.flatnonzero(~is_space(joined.units))
    at = np.searchsorted(solid, joined.bounds)  # the bounds are spaces: at[i] is line i's first solid unit
    filled = at[1:] > at[:-1]
    return solid[at[:-1][filled]], solid[at[1:][filled] - 1]


def join_zh(lines: Sequence[str]) -> Joined:
    """sacreBLEU's zh over the code points of the joined lines (no entities, no padding of the line).

    Without 13a's spaces around the line, a period or comma at the start of a line has no character before
    it, and one at the end none after it: the rules get the edges of the lines.
    """
    joined = join(lines, as_bytes=False)
    return apply_rules(joined, zh_table(), line_edges(joined))
