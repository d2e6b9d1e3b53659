"""A stream of lines as one array of units, with its line boundaries as offsets.

The lines are joined with one space between them, and one before the first and after the last (as 13a
pads every line), so no token spans two lines; the positions of those spaces are kept.  A tokenizer
then pads chosen units with spaces over the whole array at once (:func:`padded`, which moves the
offsets along), and a token belongs to the line in which it starts (:func:`spans`).  No character of
the text has a special meaning, so every text, whatever characters it holds, takes this one path.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import accumulate
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]
#: UTF-8 bytes or UTF-32 code points of a text.
Units = NDArray[np.unsignedinteger]

#: The whitespace ``str.split`` splits on, in ASCII and beyond (none lies beyond the BMP; a test checks
#: both against every code point).  The wide ones are made ASCII spaces before a text becomes units
#: (:func:`blanked`): the rules see both as non-digits, and padding a space changes no token.
ASCII_SPACES = tuple("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f ")
WIDE_SPACES = tuple(
    "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


@cache
def whitespace_table() -> NDArray[np.bool_]:
    """``str.isspace`` of every BMP code point: the characters str.split() splits on (none lie beyond)."""
    table = np.zeros(0x10000, dtype=bool)
    table[[ord(c) for c in (*ASCII_SPACES, *WIDE_SPACES)]] = True
    return table


@cache
def _ascii_spaces() -> NDArray[np.bool_]:
    """Which of the values 0-255 are ASCII whitespace (as bytes, these are whole characters)."""
    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in ASCII_SPACES]] = True
    return table


def code_points(text: str) -> NDArray[np.uint32]:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def text_of(units: Units) -> str:
    """The text of UTF-8 bytes or of UTF-32 code points."""
    encoding = "utf-8" if units.dtype == np.uint8 else "utf-32-le"
    return units.tobytes().decode(encoding, "surrogatepass")


def is_space(units: Units) -> NDArray[np.bool_]:
    """Which units of a joined stream are whitespace (it holds ASCII spaces in place of wide ones).

    Speed trick: one comparison, unless the text holds control characters; :func:`plain_is_space` is the
    table lookup it must equal (tested).  Measured gain (``python -m bench.tricks``): 2.3-2.7x on de-en
    ref A (bytes), 1.8-2.1x on en-zh ref A (code points), about 0.15 ms a stream.
    """
    if (units < 9).any() or ((units > 13) & (units < 28)).any():  # control characters that are not spaces
        return np.take(_ascii_spaces(), np.minimum(units, 255))
    return units <= 32


def plain_is_space(units: Units) -> NDArray[np.bool_]:
    """``str.isspace`` of every unit: of every code point, or of every byte (an ASCII byte is a character)."""
    if units.dtype == np.uint8:
        return _ascii_spaces()[units]
    return whitespace_table()[np.minimum(units, 0xFFFF)]  # U+FFFF is no space, nor any code point beyond


class Joined(NamedTuple):
    """The lines of a stream as one array of units, and where each line lies in it.

    ``bounds`` holds the positions of the ``len(lines) + 1`` spaces around the lines: line ``i`` is
    ``units[bounds[i] + 1 : bounds[i + 1]]``.  ``units`` are UTF-8 bytes or UTF-32 code points, with
    wide spaces made ASCII spaces (see :func:`blanked`).
    """

    units: Units
    bounds: IntArray

    @property
    def text(self) -> str:
        return text_of(self.units)


def join(lines: Sequence[str], as_bytes: bool) -> Joined:
    """``lines`` joined by spaces, as UTF-8 bytes or as code points, with the offsets of the spaces.

    Speed trick: 13a and none run over bytes (a quarter of the memory of code points, and short tokens
    fit the 7-byte keys of :mod:`.together`); code points, which zh needs for its character table, are
    the plain version, and both give the same tokens (tested).  Measured gain (``python -m bench.tricks``):
    1.8-1.9x for the ids of de-en's references and one system encoded together; none (1.0x) for the
    tokens alone.
    """
    text = f" {' '.join(lines)} "
    bounds = np.zeros(len(lines) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, lines), dtype=np.int64, count=len(lines)) + 1, out=bounds[1:])
    ascii_only = text.isascii()
    if not ascii_only:
        text = blanked(text)
    if not as_bytes:
        return Joined(code_points(text), bounds)
    units = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    if not ascii_only:  # the bounds count characters; a character starts at each byte not 0b10xxxxxx
        bounds = np.flatnonzero((units & 0xC0) != 0x80)[bounds]
    return Joined(units, bounds)


def blanked(text: str) -> str:
    """``text`` with every wide space made an ASCII space (one character for one: the offsets hold).

    No rule pads or joins a space of either kind, so the rules choose the same units, and the tokens,
    which str.split() would cut at either kind, are the same; only ASCII whitespace is then left to find.
    """
    for space in WIDE_SPACES:
        if space in text:
            text = text.replace(space, " ")
    return text


def spaced(units: Units, chosen: NDArray[np.bool_]) -> Units | None:
    """``units`` (code points or bytes) with a space (32) before and after every chosen one; None if none is.

    Speed trick: a scatter when many units are chosen, a boolean mask when few; :func:`plain_spaced`
    (``np.insert``) is what it must equal (tested).  Measured gain (``python -m bench.tricks``): 1.2-1.3x
    on de-en ref A (13a chooses 2% of the bytes), 3.8-4.5x on en-zh ref A (zh chooses 86% of the code
    points).
    """
    where = np.flatnonzero(chosen)
    return _spaced_at(units, chosen, where) if where.shape[0] else None


def plain_spaced(units: Units, chosen: NDArray[np.bool_]) -> Units | None:
    """:func:`spaced` by ``np.insert``: a space before each chosen unit and before the unit after it."""
    where = np.flatnonzero(chosen)
    return np.insert(units, np.concatenate([where, where + 1]), 32) if where.shape[0] else None


def _spaced_at(units: Units, chosen: NDArray[np.bool_], where: IntArray) -> Units:
    """:func:`spaced` given the chosen positions ``where`` (at least one)."""
    found = where.shape[0]
    out = np.full(units.shape[0] + 2 * found, 32, dtype=units.dtype)
    if 4 * found > units.shape[0]:
        # Many chosen (Chinese text): every unit moves right by two per earlier chosen unit, and by one
        # more if it is chosen itself.
        step = chosen.astype(np.int64)
        out[np.arange(units.shape[0], dtype=np.int64) + 2 * np.cumsum(step) - step] = units
        return out
    # Few chosen: mark the inserted spaces and copy the units into the rest with one boolean mask, which
    # is several times faster than scattering every unit to a computed position.
    before = where + 2 * np.arange(found, dtype=np.int64)
    kept = np.ones(out.shape[0], dtype=bool)
    kept[before] = False
    kept[before + 2] = False
    out[kept] = units
    return out


def padded(joined: Joined, chosen: NDArray[np.bool_]) -> Joined:
    """A space before and after every chosen unit; the bounds (spaces, never chosen) move with their units."""
    where = np.flatnonzero(chosen)
    if not where.shape[0]:
        return joined
    units = _spaced_at(joined.units, chosen, where)
    return Joined(units, joined.bounds + 2 * np.searchsorted(where, joined.bounds))


class Spans(NamedTuple):
    """The tokens of one stream as spans of its units."""

    units: Units
    starts: IntArray  # the first unit of every token
    sizes: IntArray  # units per token
    lengths: IntArray  # tokens per line


def spans(joined: Joined) -> Spans:
    """Where the tokens of a joined stream lie, and how many each line has (those starting inside it)."""
    space = is_space(joined.units)
    edges = np.flatnonzero(space[1:] != space[:-1]) + 1  # the units begin and end with a space
    starts, ends = edges[0::2], edges[1::2]
    lengths: IntArray = np.diff(np.searchsorted(starts, joined.bounds))
    return Spans(joined.units, starts, ends - starts, lengths)


def split(joined: Joined) -> list[list[str]]:
    """The tokens of every line of a joined stream, as strings."""
    tokens = joined.text.split()
    lengths = spans(joined).lengths.tolist()
    return [tokens[end - n : end] for end, n in zip(accumulate(lengths), lengths, strict=True)]
