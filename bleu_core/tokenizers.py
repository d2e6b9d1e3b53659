"""Tokenizers identical to sacreBLEU's, run over a whole corpus at once.

``13a``, ``zh``, ``char`` and ``none`` are re-implemented here so that a corpus
is tokenized with a handful of C-level string and numpy operations over the
joined text instead of one Python call per line; the tests prove the output
identical to sacreBLEU's on every WMT22 file and on generated text.  ``intl``
and ``ja-mecab`` use sacreBLEU's own tokenizers line by line (imported lazily).

One implementation has two outputs: :func:`tokenize_lines` gives tokens as
strings, :func:`encode_lines` gives them as integer ids (what n-gram counting
needs) without building a list of tokens per line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain, count, repeat

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]

# The four substitutions of mteval-v13a (sacreBLEU's TokenizerRegexp), in order.  The first pads single
# punctuation characters and is done with numpy over the code points; the space in its character class is
# left out, since padding a space with spaces changes no token.
_PUNCTUATION = '{|}~[\\]^_`!"#$%&()*+:;<=>?@/'
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")
_DIGIT_DASH = re.compile(r"[0-9]-")

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
#: Characters that can separate lines, or mark line edges, in a joined text: not whitespace, not
#: punctuation of any rule, not "Chinese", unchanged by lowercasing.  Ones absent from the text are used.
_MARK_CANDIDATES = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a"
#: The separator's id in a stream of one line (which has no separator): an id no token gets.
_NO_SEPARATOR = -2
#: The ``char`` tokenizer's ids are code points.
_CODE_POINTS = 0x110000


@cache
def _cjk_table() -> NDArray[np.bool_]:
    table = np.zeros(0x10000, dtype=bool)
    for start, stop in _CJK_RANGES:
        table[start : stop + 1] = True
    return table


@cache
def _whitespace_table() -> NDArray[np.bool_]:
    """``str.isspace`` of every BMP code point: the characters str.split() splits on (none lie beyond)."""
    return np.array([chr(c).isspace() for c in range(0x10000)], dtype=bool)


def is_chinese_char(char: str) -> bool:
    """Whether sacreBLEU's ``zh`` tokenizer pads ``char`` with spaces."""
    point = ord(char)
    return point < 0x10000 and bool(_cjk_table()[point])


def _code_points(text: str) -> NDArray[np.uint32]:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _spaced(units: NDArray[np.unsignedinteger], chosen: NDArray[np.bool_]) -> NDArray[np.unsignedinteger] | None:
    """``units`` (code points or bytes) with a space (32) before and after every chosen one; None if none is."""
    found = int(np.count_nonzero(chosen))
    if not found:
        return None
    out = np.full(units.shape[0] + 2 * found, 32, dtype=units.dtype)
    if 4 * found > units.shape[0]:
        # Many chosen (Chinese text): every unit moves right by two per earlier chosen unit, and by one
        # more if it is chosen itself.
        step = chosen.astype(np.int64)
        out[np.arange(units.shape[0], dtype=np.int64) + 2 * np.cumsum(step) - step] = units
        return out
    # Few chosen: mark the inserted spaces and copy the units into the rest with one boolean mask, which
    # is several times faster than scattering every unit to a computed position.
    before = np.flatnonzero(chosen) + 2 * np.arange(found, dtype=np.int64)
    kept = np.ones(out.shape[0], dtype=bool)
    kept[before] = False
    kept[before + 2] = False
    out[kept] = units
    return out


def _pad(text: str, padded: NDArray[np.bool_]) -> str:
    """A space before and after every character whose code point is True in ``padded``, vectorized.

    ``padded`` covers the BMP and is False at U+FFFF, so every character beyond the BMP is left alone.
    """
    points = _code_points(text)
    out = _spaced(points, padded[np.minimum(points, 0xFFFF)])
    return text if out is None else out.tobytes().decode("utf-32-le", "surrogatepass")


def _pad_punctuation(text: str) -> str:
    """A space before and after every character of _PUNCTUATION (rule 1 of 13a), vectorized over UTF-8 bytes.

    The punctuation is ASCII, and an ASCII byte of UTF-8 is always a whole character.
    """
    data = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    out = _spaced(data, _punctuation_bytes()[data])
    return text if out is None else out.tobytes().decode("utf-8", "surrogatepass")


@cache
def _punctuation_bytes() -> NDArray[np.bool_]:
    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in _PUNCTUATION]] = True
    return table


@cache
def _zh_table() -> NDArray[np.bool_]:
    """zh pads Chinese characters, then 13a's punctuation: both put spaces around single characters."""
    table = _cjk_table().copy()
    table[[ord(c) for c in _PUNCTUATION]] = True
    return table


def _controls(text: str) -> frozenset[str]:
    """The characters of _MARK_CANDIDATES that occur in ``text``."""
    return frozenset(c for c in _MARK_CANDIDATES if c in text)


def _marks(present: Collection[str], needed: int) -> str:
    """``needed`` characters of _MARK_CANDIDATES that are not in ``present``."""
    found = "".join(c for c in _MARK_CANDIDATES if c not in present)[:needed]
    if len(found) < needed:  # pragma: no cover - texts holding twenty control characters
        raise ValueError("the text uses every control character this tokenizer can use as a line separator")
    return found


# ---------------------------------------------------------------------------------------------
# Rules 2-4 on one chunk


def _digit_rules(chunk: str, bare_start: bool = False, bare_end: bool = False) -> list[str]:
    """Rules 2-4 of 13a on whitespace-separated chunks.

    In 13a every chunk has a space before and after it (sacreBLEU pads the line); in zh the first and
    the last chunk of a stripped line have none (``bare_start``, ``bare_end``), which matters when the
    chunk starts or ends with a period or a comma.
    """
    text = f"{'' if bare_start else ' '}{chunk}{'' if bare_end else ' '}"
    text = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text).split()


# ---------------------------------------------------------------------------------------------
# The text stage: a stream as one padded text


@dataclass(frozen=True, slots=True)
class _Joined:
    """A stream as one text of whitespace-separated chunks, lines separated by the ``separator`` chunk.

    ``edges`` (zh only) are the marks glued to a line's first chunk when it starts with a period or a
    comma and to its last chunk when it ends with one: there sacreBLEU sees no character beside it.
    """

    text: str
    separator: str
    controls: frozenset[str]  # the candidate marks that occur in the lines
    edges: tuple[str, str] | None = None
    rules: bool = True  # whether rules 2-4 apply (not for ``none``)

    def marked(self, fresh: Sequence[str]) -> list[str]:
        """The chunks of ``fresh`` that hold a mark: the separator, and in zh the chunks with an edge mark."""
        if self.edges is None:
            return [self.separator]
        start, end = self.edges
        return [c for c in fresh if c == self.separator or c[0] == start or c[-1] == end]

    def pieces(self, distinct: Iterable[str]) -> dict[str, list[str]]:
        """The tokens of every chunk in ``distinct`` that rules 2-4 (or an edge mark) change.

        Only chunks with a period, a comma or a digit before a dash can change; every other chunk is one
        token as it is.
        """
        if not self.rules:
            return {}
        special = [c for c in distinct if "." in c or "," in c or ("-" in c and _DIGIT_DASH.search(c))]
        pieces: dict[str, list[str]] = {}
        batch = []
        start, end = self.edges or ("", "")
        for chunk in special:
            bare_start, bare_end = chunk[0] == start, chunk[-1] == end
            if bare_start or bare_end:
                pieces[chunk] = _digit_rules(chunk[bare_start : len(chunk) - bare_end], bare_start, bare_end)
                continue
            head = chunk[:-1]
            if head and chunk[-1] in ".," and "." not in head and "," not in head and "-" not in head:
                pieces[chunk] = [head, chunk[-1]]  # the common "word." / "word,": rule 3 splits the mark off
            else:
                batch.append(chunk)
        if batch:
            # The rules never reach across whitespace, so the other chunks go through them together,
            # separated by the separator chunk (which they leave alone).
            tokens = _digit_rules(f" {self.separator} ".join(batch))
            line: list[str] = []
            lists = [line]
            for token in tokens:
                if token == self.separator:
                    line = []
                    lists.append(line)
                else:
                    line.append(token)
            pieces.update(zip(batch, lists, strict=True))
        return pieces


def _join_13a(lines: Sequence[str], avoid: Collection[str] = ()) -> _Joined:
    """sacreBLEU's 13a: drop ``<skipped>``, join ``-\\n`` line breaks, unescape four entities, then the rules.

    Rule 1 (pad punctuation) acts on single characters, so it runs once over the joined text.  Rules 2-4
    (periods, commas and dashes next to digits) never reach across whitespace: every match lies inside one
    whitespace-free chunk plus the space before and after it, and consuming that space cannot change the
    next chunk's matches (rule 2 ends a match on the period or comma, rule 3 starts one there).  So they run
    once per distinct chunk that holds a period, a comma or a digit-dash.
    """
    lines = [line.rstrip() for line in lines]
    controls = _controls("".join(lines))
    separator = _marks(controls | set(avoid), 1)
    if any("\n" in line for line in lines):
        # sacreBLEU removes <skipped> once, before it joins line breaks; do both for these lines here.
        broken = {i for i, line in enumerate(lines) if "\n" in line}
        lines = [
            line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ") if i in broken else line
            for i, line in enumerate(lines)
        ]
        text = f" {separator} ".join(
            line if i in broken else line.replace("<skipped>", "") for i, line in enumerate(lines)
        )
    else:
        text = f" {separator} ".join(lines).replace("<skipped>", "")
    if "&" in text:
        text = text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return _Joined(_pad_punctuation(text), separator, controls)


def _join_zh(lines: Sequence[str], avoid: Collection[str] = ()) -> _Joined:
    """sacreBLEU's zh: strip the line, pad Chinese characters, then the four 13a rules (no entities, no padding).

    Without 13a's spaces around the line, a first chunk starting with a period or a comma, or a last chunk
    ending with one, has no character before or after it.  Such lines get a mark glued to that end, and the
    chunk's pieces are computed without the space on that side.
    """
    lines = [line.strip() for line in lines]
    controls = _controls("".join(lines))
    marks = _marks(controls | set(avoid), 3)
    separator, start, end = marks[0], marks[1], marks[2]
    if any(line[:1] in (".", ",") or line[-1:] in (".", ",") for line in lines):
        lines = [
            f"{start if line[:1] in ('.', ',') else ''}{line}{end if line[-1:] in ('.', ',') else ''}" for line in lines
        ]
    return _Joined(_pad(f" {separator} ".join(lines), _zh_table()), separator, controls, (start, end))


def _join_none(lines: Sequence[str], avoid: Collection[str] = ()) -> _Joined:
    controls = _controls("".join(lines))
    separator = _marks(controls | set(avoid), 1)
    return _Joined(f" {separator} ".join(lines), separator, controls, rules=False)


_Join = Callable[[Sequence[str], Collection[str]], _Joined]
_JOIN: dict[str, _Join] = {"13a": _join_13a, "zh": _join_zh, "none": _join_none}


# ---------------------------------------------------------------------------------------------
# Tokens as ids


class Vocabulary:
    """Token -> id, shared by the streams of one chunk of segments; ids are below ``bound``.

    Ids need not be dense (each stream reserves one id per position and uses the ones of its new
    chunks); the ``char`` tokenizer's ids are code points and leave ``ids`` empty.  A whitespace-free
    chunk of text that rules 2-4 of 13a split into several tokens (``word.``) has an id of its own and an
    entry in ``expansions`` (chunk id -> its tokens' ids), so each distinct chunk is split once per vocabulary.
    ``seen`` holds the control characters of the texts encoded so far, which no later text may use as marks.
    """

    __slots__ = ("_tables", "bound", "expansions", "ids", "seen", "tokenize")

    def __init__(self, tokenize: str) -> None:
        self.tokenize = tokenize
        self.ids: dict[str, int] = {}
        self.bound = _CODE_POINTS if tokenize == "char" else 0
        self.expansions: dict[int, list[int]] = {}
        self.seen: set[str] = set()
        self._tables: _Expansions | None = None

    def tables(self) -> _Expansions:
        """``expansions`` as arrays (kept until the expansions change)."""
        tables = self._tables
        if tables is None:
            tables = self._tables = _Expansions.of(self.expansions)
        return tables

    def changed(self) -> None:
        """Drop the arrays of :meth:`tables` after ``expansions`` changed."""
        self._tables = None

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


@dataclass(frozen=True, slots=True)
class Encoded:
    """Token ids of a stream of lines, flattened, and the number of tokens of each line."""

    ids: IntArray
    lengths: IntArray


def _split_lines(ids: IntArray, n_lines: int, separator: int) -> Encoded:
    """Drop the separator ids; the tokens between two of them are one line."""
    cuts = np.flatnonzero(ids == separator)
    if cuts.shape[0] != n_lines - 1:  # pragma: no cover - the separator does not occur in the text
        raise RuntimeError("line separator found inside a line")
    lengths = np.diff(np.concatenate([[-1], cuts, [ids.shape[0]]])) - 1
    return Encoded(np.delete(ids, cuts) if cuts.size else ids, lengths.astype(np.int64))


@dataclass(frozen=True, slots=True)
class _Expansions:
    """Chunks that stand for several tokens: chunk ids, their numbers of tokens, and the tokens' ids, flat."""

    chunks: IntArray
    counts: IntArray
    pieces: IntArray

    @staticmethod
    def of(expansions: dict[int, list[int]]) -> _Expansions:
        chunks = np.fromiter(expansions, dtype=np.int64, count=len(expansions))
        piece_lists = list(expansions.values())
        counts = np.fromiter(map(len, piece_lists), dtype=np.int64, count=chunks.shape[0])
        pieces = np.fromiter(chain.from_iterable(piece_lists), dtype=np.int64, count=int(counts.sum()))
        return _Expansions(chunks, counts, pieces)

    def plus(self, other: _Expansions) -> _Expansions:
        return _Expansions(
            np.concatenate([self.chunks, other.chunks]),
            np.concatenate([self.counts, other.counts]),
            np.concatenate([self.pieces, other.pieces]),
        )


def _expand(chunk_ids: IntArray, expansions: _Expansions, bound: int) -> IntArray:
    """Replace every chunk of ``expansions`` by its tokens' ids (chunk ids are below ``bound``)."""
    if not expansions.chunks.shape[0]:
        return chunk_ids
    counts = expansions.counts
    offset = np.full(bound, -1, dtype=np.int64)
    offset[expansions.chunks] = np.cumsum(counts) - counts
    table_start = offset[chunk_ids]
    if not (table_start >= 0).any():
        return chunk_ids
    n_pieces = np.ones(bound, dtype=np.int64)
    n_pieces[expansions.chunks] = counts
    per_position = n_pieces[chunk_ids]
    ids = np.repeat(chunk_ids, per_position)
    table_start = np.repeat(table_start, per_position)
    inside = table_start >= 0
    starts = np.cumsum(per_position) - per_position
    within = np.arange(ids.shape[0], dtype=np.int64) - np.repeat(starts, per_position)
    ids[inside] = expansions.pieces[table_start[inside] + within[inside]]
    return ids


def _add_expansions(joined: _Joined, fresh: list[str], vocab: Vocabulary) -> None:
    """Record the tokens of every new chunk that rules 2-4 split, adding those tokens to ``vocab``.

    A token can be a chunk elsewhere and split differently there (``.5`` is one token of ``..5-`` but two
    as a chunk of its own), so new tokens are checked as chunks too, until nothing new appears.
    """
    ids = vocab.ids
    while fresh:
        split = [(chunk, pieces) for chunk, pieces in joined.pieces(fresh).items() if pieces != [chunk]]
        if not split:
            return
        flat = list(chain.from_iterable(pieces for _, pieces in split))
        start = vocab.bound
        found = vocab.lookup(flat, len(flat), True)
        new = np.flatnonzero(found == np.arange(start, start + found.shape[0], dtype=np.int64))
        fresh = [flat[i] for i in new.tolist()]
        piece_ids = found.tolist()
        end = 0
        for chunk, pieces in split:
            end += len(pieces)
            vocab.expansions[ids[chunk]] = piece_ids[end - len(pieces) : end]
        vocab.changed()


def _encode_joined(joined: _Joined, n_lines: int, vocab: Vocabulary) -> Encoded:
    """Ids of the tokens of a joined text, adding new chunks and tokens to ``vocab``.

    One dictionary pass gives every chunk an id (a new chunk gets the id of its position); the new
    chunks are the positions that got their own id, and only those are checked for rules 2-4.  Marks
    (the line separator, zh's edge marks) and the chunks holding them leave the vocabulary afterwards.
    """
    chunks = joined.text.split()
    size = len(chunks)
    ids = vocab.ids
    start = vocab.bound
    chunk_ids = np.fromiter(map(ids.setdefault, chunks, count(start)), dtype=np.int64, count=size)
    vocab.bound += size
    new = np.flatnonzero(chunk_ids == np.arange(start, start + size, dtype=np.int64))
    fresh = [chunks[i] for i in new.tolist()]
    marked = joined.marked(fresh)
    _add_expansions(joined, fresh, vocab)
    separator = ids.get(joined.separator, _NO_SEPARATOR)
    encoded = _split_lines(_expand(chunk_ids, vocab.tables(), vocab.bound), n_lines, separator)
    for chunk in marked:
        vocab.expansions.pop(ids.pop(chunk, -1), None)
    vocab.changed()
    vocab.seen |= joined.controls
    return encoded


def _encode_fixed(joined: _Joined, n_lines: int, vocab: Vocabulary) -> Encoded:
    """Ids of the tokens of a joined text against ``vocab``, which is only read; unknown tokens get -1.

    The chunks the vocabulary lacks get temporary ids above its bound, in a dictionary of their own, so
    that the separator is found and the ones that rules 2-4 split are split; their tokens are looked up.
    """
    chunks = joined.text.split()
    ids = vocab.ids
    chunk_ids = np.fromiter(map(ids.get, chunks, repeat(-1)), dtype=np.int64, count=len(chunks))
    unknown = np.flatnonzero(chunk_ids < 0)
    strangers = [chunks[i] for i in unknown.tolist()]
    base = vocab.bound
    local: dict[str, int] = {}
    chunk_ids[unknown] = np.fromiter(map(local.setdefault, strangers, count(base)), dtype=np.int64, count=unknown.size)
    split = {
        local[chunk]: [ids.get(piece, -1) for piece in pieces]
        for chunk, pieces in joined.pieces(local).items()
        if pieces != [chunk]
    }
    tables = vocab.tables().plus(_Expansions.of(split)) if split else vocab.tables()
    separator = local.get(joined.separator, _NO_SEPARATOR)
    encoded = _split_lines(_expand(chunk_ids, tables, base + len(strangers)), n_lines, separator)
    encoded.ids[encoded.ids >= base] = -1
    return encoded


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


@cache
def _sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    from sacrebleu.metrics.bleu import _get_tokenizer

    tokenizer: Callable[[str], str] = _get_tokenizer(name)()
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
            if not lines:
                return Encoded(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
            encode = _encode_joined if grow else _encode_fixed
            return encode(_JOIN[tokenize](lines, vocab.seen), len(lines), vocab)
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


def _tokens_joined(joined: _Joined) -> list[list[str]]:
    lines = joined.text.split(f" {joined.separator} ")
    pieces = joined.pieces(set(joined.text.split()))
    if not pieces:
        return [line.split() for line in lines]
    return [list(chain.from_iterable(pieces.get(c) or (c,) for c in line.split())) for line in lines]


def tokenize_lines(lines: Sequence[str], tokenize: str = "13a", lowercase: bool = False) -> list[list[str]]:
    """Tokens of each line, as sacreBLEU's BLEU sees them (lowercase, rstrip, tokenize, split)."""
    lines = _lowered(lines, lowercase)
    try:
        if tokenize == "char":
            return [list("".join(line.split())) for line in lines]
        if tokenize in _JOIN:
            return _tokens_joined(_JOIN[tokenize](lines, ())) if lines else []
        return _line_by_line(tokenize, lines)
    except ImportError as error:  # pragma: no cover - depends on optional extras
        raise ValueError(f"tokenizer {tokenize!r} needs an optional package: {error}") from error


def tokenize_line(line: str, tokenize: str = "13a", lowercase: bool = False) -> list[str]:
    """Tokens of one line (see :func:`tokenize_lines`)."""
    return tokenize_lines([line], tokenize, lowercase)[0]
