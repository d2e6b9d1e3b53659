"""Tokenizers identical to sacreBLEU's, run over a whole corpus at once.

``13a``, ``zh``, ``char`` and ``none`` are re-implemented here so that a corpus
is tokenized with a handful of C-level string and numpy operations over the
joined text instead of one Python call per line; the tests prove the output
identical to sacreBLEU's on every WMT22 file and on generated text.  ``intl``
and ``ja-mecab`` use sacreBLEU's own tokenizers line by line (imported lazily).

One implementation has three outputs: :func:`tokenize_lines` gives tokens as
strings, :func:`encode_lines` gives them as integer ids (what n-gram counting
needs) without building a list of tokens per line, and :func:`encode_together`
gives ids to the tokens of several streams straight from their bytes.

Line boundaries are offsets.  The lines of a stream are joined with one space
between them (and one before the first and after the last, as 13a pads every
line), and the positions of those spaces are kept: a token belongs to the line
in which it starts, and the per-line rules (zh's stripped line edges) are masks
at those positions.  No character of the text has a special meaning, so every
text, however many control characters it holds, takes the same path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from importlib import import_module
from itertools import accumulate, chain, count, repeat
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .sorting import radix_argsort, run_changes

IntArray = NDArray[np.int64]
#: UTF-8 bytes or UTF-32 code points of a text.
Units = NDArray[np.unsignedinteger]

# The four substitutions of mteval-v13a (sacreBLEU's TokenizerRegexp), in order: (1) pad single punctuation
# characters; (2) pad a period or comma after a non-digit, ``([^0-9])([\.,])``; (3) pad a period or comma
# before a non-digit, ``([\.,])([^0-9])``; (4) pad a dash after a digit, ``([0-9])(-)``.  Each puts a space
# before and after one character, so all four are done with numpy over the units (bytes or code points) of a
# whole stream.  Rule 1 leaves out the space of its character class, since padding a space changes no token.
_PUNCTUATION = '{|}~[\\]^_`!"#$%&()*+:;<=>?@/'
_PERIOD, _COMMA, _DASH, _ZERO, _NINE = (ord(c) for c in ".,-09")

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
#: The whitespace ``str.split`` splits on, in ASCII and beyond (none lies beyond the BMP; a test checks
#: both against every code point).  The UTF-8 bytes of the wide ones are not single units, so byte streams
#: get ASCII spaces in their place: the rules see both as non-digits, and padding a space changes no token.
_ASCII_SPACES = tuple("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f ")
_WIDE_SPACES = tuple(
    "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
#: The ``char`` tokenizer's ids are code points.
_CODE_POINTS = 0x110000
_NONE = np.zeros(0, dtype=np.int64)


@cache
def _cjk_table() -> NDArray[np.bool_]:
    table = np.zeros(0x10000, dtype=bool)
    for start, stop in _CJK_RANGES:
        table[start : stop + 1] = True
    return table


@cache
def _whitespace_table() -> NDArray[np.bool_]:
    """``str.isspace`` of every BMP code point: the characters str.split() splits on (none lie beyond)."""
    table = np.zeros(0x10000, dtype=bool)
    table[[ord(c) for c in (*_ASCII_SPACES, *_WIDE_SPACES)]] = True
    return table


def is_chinese_char(char: str) -> bool:
    """Whether sacreBLEU's ``zh`` tokenizer pads ``char`` with spaces."""
    point = ord(char)
    return point < 0x10000 and bool(_cjk_table()[point])


def _code_points(text: str) -> NDArray[np.uint32]:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _spaced(units: Units, chosen: NDArray[np.bool_]) -> Units | None:
    """``units`` (code points or bytes) with a space (32) before and after every chosen one; None if none is."""
    where = np.flatnonzero(chosen)
    return _spaced_at(units, chosen, where) if where.shape[0] else None


def _spaced_at(units: Units, chosen: NDArray[np.bool_], where: IntArray) -> Units:
    """:func:`_spaced` given the chosen positions ``where`` (at least one)."""
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


def _text(units: Units) -> str:
    """The text of UTF-8 bytes or of UTF-32 code points."""
    encoding = "utf-8" if units.dtype == np.uint8 else "utf-32-le"
    return units.tobytes().decode(encoding, "surrogatepass")


@cache
def _punctuation_bytes() -> NDArray[np.bool_]:
    """Rule 1 over UTF-8 bytes: the punctuation is ASCII, and an ASCII byte of UTF-8 is a whole character."""
    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in _PUNCTUATION]] = True
    return table


@cache
def _zh_table() -> NDArray[np.bool_]:
    """zh pads Chinese characters, then 13a's punctuation: both put spaces around single characters.

    The table covers the BMP and is False at U+FFFF, so every character beyond the BMP is left alone.
    """
    table = _cjk_table().copy()
    table[[ord(c) for c in _PUNCTUATION]] = True
    return table


@cache
def _ascii_spaces() -> NDArray[np.bool_]:
    """Which of the values 0-255 are ASCII whitespace (as bytes, these are whole characters)."""
    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in _ASCII_SPACES]] = True
    return table


def _is_space(units: Units) -> NDArray[np.bool_]:
    """Which units of a joined stream are whitespace (it holds ASCII spaces in place of wide ones)."""
    if (units < 9).any() or ((units > 13) & (units < 28)).any():  # control characters that are not spaces
        return np.take(_ascii_spaces(), np.minimum(units, 255))
    return units <= 32


# ---------------------------------------------------------------------------------------------
# A stream as one array of units, its line boundaries as offsets


class _Joined(NamedTuple):
    """The lines of a stream as one array of units, and where each line lies in it.

    The lines are joined with one space between them and one before the first and after the last, so no
    token spans two lines.  ``bounds`` holds the positions of those ``len(lines) + 1`` spaces: line ``i``
    is ``units[bounds[i] + 1 : bounds[i + 1]]``.  ``units`` are UTF-8 bytes or UTF-32 code points, with
    wide spaces made ASCII spaces (see :func:`_blanked`).
    """

    units: Units
    bounds: IntArray

    @property
    def text(self) -> str:
        return _text(self.units)


def _joined(lines: Sequence[str], as_bytes: bool) -> _Joined:
    """``lines`` joined by spaces, as UTF-8 bytes or as code points, with the offsets of the spaces."""
    text = f" {' '.join(lines)} "
    bounds = np.zeros(len(lines) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, lines), dtype=np.int64, count=len(lines)) + 1, out=bounds[1:])
    ascii_only = text.isascii()
    if not ascii_only:
        text = _blanked(text)
    if not as_bytes:
        return _Joined(_code_points(text), bounds)
    units = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    if not ascii_only:  # the bounds count characters; a character starts at each byte not 0b10xxxxxx
        bounds = np.flatnonzero((units & 0xC0) != 0x80)[bounds]
    return _Joined(units, bounds)


def _blanked(text: str) -> str:
    """``text`` with every wide space made an ASCII space (one character for one: the offsets hold).

    No rule pads or joins a space of either kind, so the rules choose the same units, and the tokens,
    which str.split() would cut at either kind, are the same; only ASCII whitespace is then left to find.
    """
    for space in _WIDE_SPACES:
        if space in text:
            text = text.replace(space, " ")
    return text


def _padded(joined: _Joined, chosen: NDArray[np.bool_]) -> _Joined:
    """A space before and after every chosen unit; the bounds (spaces, never chosen) move with their units."""
    where = np.flatnonzero(chosen)
    if not where.shape[0]:
        return joined
    units = _spaced_at(joined.units, chosen, where)
    return _Joined(units, joined.bounds + 2 * np.searchsorted(where, joined.bounds))


def _line_edges(joined: _Joined) -> tuple[IntArray, IntArray]:
    """The first and the last non-whitespace unit of every line that has one (where zh's stripped lines end)."""
    solid = np.flatnonzero(~_is_space(joined.units))
    at = np.searchsorted(solid, joined.bounds)  # the bounds are spaces: at[i] is line i's first solid unit
    filled = at[1:] > at[:-1]
    return solid[at[:-1][filled]], solid[at[1:][filled] - 1]


# ---------------------------------------------------------------------------------------------
# The rules of 13a (and zh) as masks over a whole stream


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


def _digit_rules(units: Units, edges: tuple[IntArray, IntArray] | None = None) -> NDArray[np.bool_]:
    """Where rules 2-4 of 13a put a space before and after a unit, over the units of a whole stream.

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


def _rules(joined: _Joined, table: NDArray[np.bool_], edges: tuple[IntArray, IntArray] | None = None) -> _Joined:
    """All four rules at once: a space before and after every unit that ``table`` marks or rules 2-4 choose.

    ``table`` marks rule 1's punctuation (and, in zh, Chinese characters); it is False at its last index.
    """
    units = joined.units
    small = table.shape[0] > int(np.iinfo(units.dtype).max)
    chosen = np.take(table, units if small else np.minimum(units, table.shape[0] - 1))
    chosen |= _digit_rules(units, edges)
    return _padded(joined, chosen)


# ---------------------------------------------------------------------------------------------
# The tokenizers as joined streams

#: The entities Tokenizer13a unescapes, in its order.
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
#: What Tokenizer13a replaces (line breaks aside), by first character.
_REPLACED = (("<", ("<skipped>",)), ("&", tuple(entity for entity, _ in _ENTITIES)))


def _prepared_13a(line: str) -> str:
    """What 13a's rules see of a line, less its padding: BLEU's rstrip, then Tokenizer13a's replacements."""
    line = line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in _ENTITIES:
            line = line.replace(entity, char)
    return line


def _needs_preparing(text: str) -> bool:
    """Whether 13a replaces anything in ``text`` (looked up from each "<" and "&": much faster than ``in``)."""
    if "\n" in text:
        return True
    for first, replaced in _REPLACED:
        at = text.find(first)
        while at >= 0:
            if text.startswith(replaced, at):
                return True
            at = text.find(first, at + 1)
    return False


def _join_13a(lines: Sequence[str]) -> _Joined:
    """sacreBLEU's 13a: drop ``<skipped>``, join ``-\\n`` line breaks, unescape four entities, then the rules.

    Every rule acts on single characters and their neighbours, and each line has a space before and after
    it (as in sacreBLEU), so the rules run once over the UTF-8 bytes of the joined lines.  The replacements
    change the lengths of lines, so they are done line by line, and only for texts that need them; else
    stripping a line's end only drops whitespace, which changes no token.
    """
    if _needs_preparing(" ".join(lines)):
        lines = [_prepared_13a(line) for line in lines]
    return _rules(_joined(lines, as_bytes=True), _punctuation_bytes())


def _join_zh(lines: Sequence[str]) -> _Joined:
    """sacreBLEU's zh: strip the line, pad Chinese characters, then the four 13a rules (no entities, no padding).

    Without 13a's spaces around the line, a period or comma at the start of a line has no character before
    it, and one at the end none after it: the rules get the edges of the lines.
    """
    joined = _joined(lines, as_bytes=False)
    return _rules(joined, _zh_table(), _line_edges(joined))


def _join_none(lines: Sequence[str]) -> _Joined:
    return _joined(lines, as_bytes=True)


_JOIN: dict[str, Callable[[Sequence[str]], _Joined]] = {"13a": _join_13a, "zh": _join_zh, "none": _join_none}


class _Spans(NamedTuple):
    """The tokens of one stream as spans of its units."""

    units: Units
    starts: IntArray  # the first unit of every token
    sizes: IntArray  # units per token
    lengths: IntArray  # tokens per line


def _spans(joined: _Joined) -> _Spans:
    """Where the tokens of a joined stream lie, and how many each line has (those starting inside it)."""
    space = _is_space(joined.units)
    edges = np.flatnonzero(space[1:] != space[:-1]) + 1  # the units begin and end with a space
    starts, ends = edges[0::2], edges[1::2]
    lengths: IntArray = np.diff(np.searchsorted(starts, joined.bounds))
    return _Spans(joined.units, starts, ends - starts, lengths)


def _split(joined: _Joined) -> list[list[str]]:
    """The tokens of every line of a joined stream, as strings."""
    tokens = joined.text.split()
    lengths = _spans(joined).lengths.tolist()
    ends = accumulate(lengths)
    return [tokens[end - n : end] for end, n in zip(ends, lengths, strict=True)]


# ---------------------------------------------------------------------------------------------
# Tokens as ids


class Vocabulary:
    """Token -> id, shared by the streams of one chunk of segments; ids are below ``bound``.

    Ids need not be dense (each stream reserves one id per position and uses the ones of its new
    tokens); the ``char`` tokenizer's ids are code points and leave ``ids`` empty.
    """

    __slots__ = ("bound", "ids", "tokenize")

    def __init__(self, tokenize: str) -> None:
        self.tokenize = tokenize
        self.ids: dict[str, int] = {}
        self.bound = _CODE_POINTS if tokenize == "char" else 0

    def lookup(self, tokens: Iterable[str], size: int, grow: bool) -> IntArray:
        """Ids of the ``size`` ``tokens``; unknown tokens are added when ``grow``, else get -1."""
        if grow:
            start = self.bound
            self.bound += size
            return np.fromiter(map(self.ids.setdefault, tokens, count(start)), dtype=np.int64, count=size)
        return np.fromiter(map(self.ids.get, tokens, repeat(-1)), dtype=np.int64, count=size)

    def tokens(self) -> dict[int, str]:
        """Id -> token."""
        return {i: token for token, i in self.ids.items()}


class Encoded(NamedTuple):
    """Token ids of a stream of lines, flattened, and the number of tokens of each line."""

    ids: IntArray
    lengths: IntArray


def _encode_joined(joined: _Joined, vocab: Vocabulary, grow: bool) -> Encoded:
    """Ids of the tokens of a joined stream (one dictionary pass; see :meth:`Vocabulary.lookup`)."""
    tokens = joined.text.split()
    return Encoded(vocab.lookup(tokens, len(tokens), grow), _spans(joined).lengths)


def _encode_char(lines: Sequence[str]) -> Encoded:
    """Every non-whitespace character is a token; its id is its code point."""
    points = _code_points("".join(lines)).astype(np.int64)
    per_line = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    space = _whitespace_table()[np.minimum(points, 0xFFFF)] & (points < 0x10000)
    if not space.any():
        return Encoded(points, per_line)
    line_of = np.repeat(np.arange(len(lines), dtype=np.int64), per_line)
    lengths = per_line - np.bincount(line_of[space], minlength=len(lines)).astype(np.int64)
    return Encoded(points[~space], lengths)


def _encode_token_lists(token_lists: Sequence[list[str]], vocab: Vocabulary, grow: bool) -> Encoded:
    lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
    return Encoded(vocab.lookup(chain.from_iterable(token_lists), int(lengths.sum()), grow), lengths)


# ---------------------------------------------------------------------------------------------
# Tokens as ids for several streams at once, without token strings


#: Masks keeping the first k bytes of a little-endian 8-byte word, k = 0..8.
_WORD_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX_2 = np.uint64(0xBF58476D1CE4E5B9)
#: Tokens longer than this many bytes are hashed and compared as Python bytes (keeps the word loops short).
_LONG_TOKEN = 256


def _words(data: NDArray[np.uint8]) -> NDArray[np.uint64]:
    """Every 8 consecutive bytes of ``data`` as one little-endian integer (a view; ``data`` ends in 7 zeros)."""
    return np.ndarray((data.shape[0] - 7,), dtype="<u8", buffer=data, strides=(1,))


def _word_hashes(words: NDArray[np.uint64], starts: IntArray, sizes: IntArray) -> NDArray[np.uint64]:
    """A 64-bit hash of each byte span, read 8 bytes at a time."""
    rest = sizes
    hashed = (sizes.astype(np.uint64) * _MIX ^ (words[starts] & _WORD_MASKS[np.minimum(rest, 8)])) * _MIX
    todo = np.flatnonzero(rest > 8)
    offset = 8
    while todo.shape[0]:
        rest = sizes[todo] - offset
        word = words[starts[todo] + offset] & _WORD_MASKS[np.minimum(rest, 8)]
        hashed[todo] = (hashed[todo] ^ word) * _MIX
        todo = todo[rest > 8]
        offset += 8
    hashed ^= hashed >> np.uint64(31)
    hashed *= _MIX_2
    hashed ^= hashed >> np.uint64(29)
    return hashed


def _same_spans(words: NDArray[np.uint64], first: IntArray, second: IntArray, sizes: IntArray) -> bool:
    """Whether the byte spans at ``first`` and ``second`` (both ``sizes`` long) are equal."""
    todo = np.arange(first.shape[0], dtype=np.int64)
    offset = 0
    while todo.shape[0]:
        rest = sizes[todo] - offset
        mask = _WORD_MASKS[np.minimum(rest, 8)]
        if np.any((words[first[todo] + offset] ^ words[second[todo] + offset]) & mask):
            return False
        todo = todo[rest > 8]
        offset += 8
    return True


#: Keys of spans: below this the exact bytes of a span of up to 7 bytes (its size in bits 56-58), from
#: it up the top 59 bits of a longer span's hash.
_HASHED = 1 << 59


def _span_keys(words: NDArray[np.uint64], data: NDArray[np.uint8], starts: IntArray, sizes: IntArray) -> IntArray:
    """Equal spans get equal keys (below 2**60); distinct spans of up to 7 bytes get distinct keys."""
    keys = words[starts] & _WORD_MASKS[np.minimum(sizes, 8)]
    keys |= sizes.astype(np.uint64) << np.uint64(56)
    hashed = np.flatnonzero(sizes > 7)
    if hashed.shape[0]:
        long_spans = sizes[hashed] > _LONG_TOKEN
        if long_spans.any():  # Python hashes (and later compares) very long spans in C, not 8 bytes a step
            values = np.zeros(hashed.shape[0], dtype=np.uint64)
            kept = hashed[~long_spans]
            values[~long_spans] = _word_hashes(words, starts[kept], sizes[kept])
            for i, k in zip(np.flatnonzero(long_spans).tolist(), hashed[long_spans].tolist(), strict=True):
                start = int(starts[k])
                values[i] = hash(data[start : start + int(sizes[k])].tobytes()) & 0xFFFF_FFFF_FFFF_FFFF
        else:
            values = _word_hashes(words, starts[hashed], sizes[hashed])
        keys[hashed] = (values >> np.uint64(5)) | np.uint64(_HASHED)
    return keys.view(np.int64)


def _group_spans(
    words: NDArray[np.uint64], data: NDArray[np.uint8], starts: IntArray, sizes: IntArray
) -> tuple[IntArray, int] | None:
    """Group ids of byte spans (equal spans, equal ids; 0 up to the number of groups), or None on a hash clash."""
    keys = _span_keys(words, data, starts, sizes)
    order = radix_argsort(keys, 60)
    ordered = keys[order]
    change = run_changes(ordered)
    group = np.cumsum(change) - 1
    # A hashed span must equal the first span of its group; the hashed keys sort after all exact ones.
    hashed_from = int(np.searchsorted(ordered, _HASHED))
    other = np.flatnonzero(~change[hashed_from:]) + hashed_from
    if other.shape[0]:
        span = order[other]
        first = order[np.flatnonzero(change)][group[other]]
        if not np.array_equal(sizes[span], sizes[first]):
            return None
        long_pair = sizes[span] > _LONG_TOKEN
        if long_pair.any():
            pairs = zip(
                starts[span[long_pair]].tolist(),
                starts[first[long_pair]].tolist(),
                sizes[span[long_pair]].tolist(),
                strict=True,
            )
            if any(data[a : a + size].tobytes() != data[b : b + size].tobytes() for a, b, size in pairs):
                return None
            span, first = span[~long_pair], first[~long_pair]
        if not _same_spans(words, starts[span], starts[first], sizes[span]):
            return None
    ids = np.empty(starts.shape[0], dtype=np.int64)
    ids[order] = group
    return ids, int(group[-1]) + 1 if group.shape[0] else 0


def encode_together(
    streams: Sequence[Sequence[str]], tokenize: str, lowercase: bool
) -> tuple[list[Encoded], int] | None:
    """Ids of the tokens of several streams, equal for equal tokens, below the number of distinct tokens.

    The same tokens as :func:`encode_lines`, but no token becomes a string: each is a span of its stream's
    units, hashed 8 bytes at a time; the spans are grouped by hash and each is compared, byte for byte,
    with the first of its group.  None for the tokenizers that need strings (``char``, ``intl``,
    ``ja-mecab``...) and when two distinct tokens share a hash: the caller then uses a :class:`Vocabulary`.
    """
    if tokenize not in _JOIN:
        return None
    spans = [_spans(_JOIN[tokenize](_lowered(lines, lowercase))) for lines in streams]
    item = spans[0].units.dtype.itemsize if spans else 1
    offsets = np.cumsum([0] + [s.units.nbytes for s in spans]).tolist()
    data = np.concatenate([*(s.units.view(np.uint8) for s in spans), np.zeros(8, dtype=np.uint8)])
    starts = np.concatenate([s.starts * item + offset for s, offset in zip(spans, offsets, strict=False)] or [_NONE])
    sizes = np.concatenate([s.sizes for s in spans] or [_NONE]) * item
    grouped = _group_spans(_words(data), data, starts, sizes)
    if grouped is None:
        return None
    ids, bound = grouped
    cuts = np.cumsum([0] + [s.starts.shape[0] for s in spans]).tolist()
    return [Encoded(ids[a:b], s.lengths) for s, a, b in zip(spans, cuts, cuts[1:], strict=False)], bound


#: sacreBLEU's public tokenizer class for each name: (module under ``sacrebleu.tokenizers``, class).
_SACREBLEU_CLASSES = {
    "13a": ("tokenizer_13a", "Tokenizer13a"),
    "zh": ("tokenizer_zh", "TokenizerZh"),
    "char": ("tokenizer_char", "TokenizerChar"),
    "none": ("tokenizer_none", "NoneTokenizer"),
    "intl": ("tokenizer_intl", "TokenizerV14International"),
    "ja-mecab": ("tokenizer_ja_mecab", "TokenizerJaMecab"),
}


@cache
def _sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    """sacreBLEU's own tokenizer called ``name``, from its public classes (imported lazily: some are slow)."""
    module_name, class_name = _SACREBLEU_CLASSES[name]
    module = import_module(f"sacrebleu.tokenizers.{module_name}")
    tokenizer: Callable[[str], str] = getattr(module, class_name)()
    return tokenizer


def _line_by_line(name: str, lines: Sequence[str]) -> list[list[str]]:
    tokenizer = _sacrebleu_tokenizer(name)
    return [tokenizer(line.rstrip()).split() for line in lines]


def _lowered(lines: Sequence[str], lowercase: bool) -> Sequence[str]:
    # Line by line: str.lower() is context-sensitive (final sigma), so it is not applied to joined text.
    return [line.lower() for line in lines] if lowercase else lines


def encode_lines(lines: Sequence[str], tokenize: str, lowercase: bool, vocab: Vocabulary, grow: bool = True) -> Encoded:
    """Token ids of every line as sacreBLEU's BLEU tokenizes it (lowercase, rstrip, tokenize, split).

    With ``grow``, new tokens are added to ``vocab``; without, they get id -1 (``char``: ids are code
    points, known or not).
    """
    lines = _lowered(lines, lowercase)
    try:
        if tokenize == "char":
            return _encode_char(lines)
        if tokenize in _JOIN:
            return _encode_joined(_JOIN[tokenize](lines), vocab, grow)
        return _encode_token_lists(_line_by_line(tokenize, lines), vocab, grow)
    except ImportError as error:  # pragma: no cover - depends on optional extras
        raise ValueError(f"tokenizer {tokenize!r} needs an optional package: {error}") from error


def decode(encoded: Encoded, vocab: Vocabulary) -> list[list[str]]:
    """Tokens per line from ids: the inverse of :func:`encode_lines` with ``grow``."""
    if vocab.tokenize == "char":
        words = [chr(i) for i in encoded.ids.tolist()]
    else:
        names = vocab.tokens()
        words = [names[i] for i in encoded.ids.tolist()]
    ends = np.cumsum(encoded.lengths).tolist()
    return [words[end - n : end] for end, n in zip(ends, encoded.lengths.tolist(), strict=True)]


# ---------------------------------------------------------------------------------------------
# Tokens as strings


def tokenize_lines(lines: Sequence[str], tokenize: str = "13a", lowercase: bool = False) -> list[list[str]]:
    """Tokens of each line, as sacreBLEU's BLEU sees them (lowercase, rstrip, tokenize, split)."""
    lines = _lowered(lines, lowercase)
    try:
        if tokenize == "char":
            return [list("".join(line.split())) for line in lines]
        if tokenize in _JOIN:
            return _split(_JOIN[tokenize](lines))
        return _line_by_line(tokenize, lines)
    except ImportError as error:  # pragma: no cover - depends on optional extras
        raise ValueError(f"tokenizer {tokenize!r} needs an optional package: {error}") from error


def tokenize_line(line: str, tokenize: str = "13a", lowercase: bool = False) -> list[str]:
    """Tokens of one line (see :func:`tokenize_lines`)."""
    return tokenize_lines([line], tokenize, lowercase)[0]
