"""The four regular-expression rules of mteval-v13a (sacreBLEU's ``TokenizerRegexp``) as masks.

In order: (1) pad single punctuation characters; (2) pad a period or comma after a non-digit,
``([^0-9])([\\.,])``; (3) pad a period or comma before a non-digit, ``([\\.,])([^0-9])``; (4) pad a dash
after a digit, ``([0-9])(-)``.  Each puts a space before and after one character, so all four are done
with numpy over the units (bytes or code points) of a whole joined stream.  Rule 1 leaves out the space
of its character class, since padding a space changes no token.  ``13a`` and ``zh`` both end with them.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import NDArray

from bleu_core.tokenizers.joined import IntArray, Joined, Units, padded

PUNCTUATION = '{|}~[\\]^_`!"#$%&()*+:;<=>?@/'
_PERIOD, _COMMA, _DASH, _ZERO, _NINE = (ord(c) for c in ".,-09")


@cache
def punctuation_bytes() -> NDArray[np.bool_]:
    """Rule 1 over UTF-8 bytes: the punctuation is ASCII, and an ASCII byte of UTF-8 is a whole character."""
    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in PUNCTUATION]] = True
    return table


def _is_digit(units: Units) -> NDArray[np.bool_]:
    """``[0-9]`` (ASCII digits only, as in the regular expressions)."""
    return (units >= _ZERO) & (units <= _NINE)


def _in_runs(where: IntArray) -> IntArray:
    """For sorted positions: each one's index inside its run of consecutive positions."""
    starts = np.empty(where.shape[0], dtype=bool)
    starts[:1] = True
    np.not_equal(where[1:], where[:-1] + 1, out=starts[1:])
    first: IntArray = np.flatnonzero(starts)
    run: IntArray = np.cumsum(starts) - 1
    return np.arange(where.shape[0], dtype=np.int64) - first[run]


def _among(values: IntArray, sorted_set: IntArray) -> NDArray[np.bool_]:
    """Which ``values`` occur in the sorted array ``sorted_set``."""
    if not sorted_set.shape[0]:
        return np.zeros(values.shape[0], dtype=bool)
    at = np.minimum(np.searchsorted(sorted_set, values), sorted_set.shape[0] - 1)
    found: NDArray[np.bool_] = sorted_set[at] == values
    return found


def digit_rules(units: Units, edges: tuple[IntArray, IntArray] | None = None) -> NDArray[np.bool_]:
    """Where rules 2-4 put a space before and after a unit, over the units of a whole joined stream.

    The units begin and end with a space.  A regular expression substitution scans left to right and a
    match consumes both of its characters, so:

    * rule 2 pads the first mark (period or comma) of a run if the unit before the run is not a digit,
      then every second mark (a mark is a non-digit, but one that was padded has been consumed);
    * so after rule 2 no two marks are neighbours, and rule 3 pads every mark then followed by a
      non-digit: one that rule 2 padded, or one whose next unit is not a digit;
    * rule 4 pads every dash after a digit.

    Rule 1 and the other rules only put spaces next to non-digits, so no rule changes what the next one
    sees as a digit, and every choice can be read off the original units: one pass of padding does all
    four rules (a unit that two rules pad gets two spaces a side, which changes no token).  zh strips each
    line, so a line's first mark has no unit before it and its last none after it: ``edges`` holds the
    first and last units of the lines, whose outer neighbours count as no unit at all.  The tests compare
    the tokens with sacreBLEU's on generated text.
    """
    chosen = np.zeros(units.shape[0], dtype=bool)
    marks = np.flatnonzero((units == _PERIOD) | (units == _COMMA))
    if marks.shape[0]:
        offset = _in_runs(marks)
        first = marks - offset
        before = ~_is_digit(units[first - 1])
        after = ~_is_digit(units[marks + 1])
        if edges is not None:
            before &= ~_among(first, edges[0])
            after &= ~_among(marks, edges[1])
        chosen[marks[(before ^ (offset % 2 == 1)) | after]] = True
    dashes = np.flatnonzero(units[1:] == _DASH) + 1
    chosen[dashes[_is_digit(units[dashes - 1])]] = True
    return chosen


def chosen_by_rules(
    units: Units, table: NDArray[np.bool_], edges: tuple[IntArray, IntArray] | None = None
) -> NDArray[np.bool_]:
    """The units that get a space before and after: those ``table`` marks or rules 2-4 choose.

    ``table`` marks rule 1's punctuation (and, in zh, Chinese characters); it is False at its last index.
    """
    small = table.shape[0] > int(np.iinfo(units.dtype).max)
    chosen = np.take(table, units if small else np.minimum(units, table.shape[0] - 1))
    chosen |= digit_rules(units, edges)
    return chosen


def apply_rules(joined: Joined, table: NDArray[np.bool_], edges: tuple[IntArray, IntArray] | None = None) -> Joined:
    """All four rules at once over a joined stream (see :func:`chosen_by_rules`)."""
    return padded(joined, chosen_by_rules(joined.units, table, edges))
