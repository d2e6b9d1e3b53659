"""Reading text as ``sacrebleu`` reads it, so that the same bytes give the same number.

sacreBLEU opens files with ``newline="\\n"``: a line ends at a line feed only, and it strips every line's
trailing whitespace (``str.rstrip``), which removes the CR of a CRLF ending.  A UTF-8 byte-order mark is
kept (it becomes part of the first word); a lone CR stays inside its line.  Standard input is read with
universal newlines instead (CR, CRLF and LF all end a line) and split on tabs into systems.
We read the same way, also accept UTF-16/32 with a byte-order mark (sacreBLEU fails on them), and warn
on standard error where this reading is surprising.  Unlike sacreBLEU we refuse a NUL character, in a file
and on standard input alike (a binary file, or UTF-16 without a byte-order mark).  Reading takes time linear
in the size of the input, whatever its shape (see :class:`FileLines`).
"""

from __future__ import annotations

import codecs
from operator import itemgetter
from typing import Any

from bleu_core.i18n import message
from bleu_core.text.reader import InputFileError, line_number, nul_error, open_error

_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
#: Characters that show nothing but change the words: zero-width spaces and joiners, word joiner, BOM inside text.
INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad")
#: Why a file may not score as its author expects, in the order the warnings are printed.
NOTE_BOM = "starts with a byte-order mark, which stays part of the first word (as sacreBLEU reads it)"
NOTE_INNER_CR = "has a carriage return inside a line; sacreBLEU keeps it in the line, and so do we"
NOTE_INVISIBLE = "contains invisible characters (zero-width space, joiner or soft hyphen) inside words"
_NOTE_ORDER = (NOTE_BOM, NOTE_INNER_CR, NOTE_INVISIBLE)


def has_invisible(text: str) -> bool:
    """Whether ``text`` holds a character of :data:`INVISIBLE` (one substring search each: C speed, not per char)."""
    return any(character in text for character in INVISIBLE)


def choose_encoding(head: bytes, requested: str) -> str:
    """The requested codec, except for UTF-16/32 text that starts with its byte-order mark."""
    if requested.lower().replace("_", "-") in ("utf-8", "utf8"):
        for bom, encoding in _WIDE_BOMS:
            if head.startswith(bom):
                return encoding
    return requested


def _text_codec(encoding: str, requested: str) -> codecs.CodecInfo:
    """The codec of a text encoding (as ``open`` would accept it); ValueError for an unknown or non-text one."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True) or info.incrementaldecoder is None:
        raise ValueError(f"unknown encoding {requested!r}")
    return info


class FileLines:
    """The lines of one file as sacreBLEU reads them, a block of bytes at a time, in time linear in the size.

    sacreBLEU opens a file with ``newline="\\n"`` (only a line feed ends a line, nothing is translated) and
    right-strips every line.  Here the bytes go through an incremental decoder and each block is split on line
    feeds; a line longer than a block waits as a list of parts and is joined once, and lines are handed out
    from a position in the list of pending lines, so no input (one line of 200 MB, a megabyte of carriage
    returns, a million empty lines) costs more than linear time.  Nothing is seeked: FIFOs, ``/dev/stdin``
    and process substitution read as files do.  NUL characters are refused (see :mod:`.reader`).
    """

    def __init__(self, name: str, encoding: str) -> None:
        self.name = name
        self.count = 0  # lines handed out
        self._found: set[str] = set()
        try:
            self._handle = open(name, "rb")  # noqa: SIM115 - closed by close()
        except OSError as error:
            raise open_error(name, error) from None
        try:
            # 4 bytes, a UTF-32 byte-order mark's length (read() returns fewer only at the end); the first block.
            self._head: bytes = self._handle.read(4)
            self._first: bytes | None = self._head
            self.encoding = choose_encoding(self._head, encoding)
            self._codec = _text_codec(self.encoding, encoding)
        except BaseException:
            self._handle.close()
            raise
        self._decoder = self._codec.incrementaldecoder("strict")
        self._fed = 0  # bytes given to the decoder
        self._parts: list[str] = []  # the line being read (no line feed yet), in pieces
        self._pending: list[str] = []  # whole lines read but not handed out, from self._pos on
        self._pos = 0
        self._done = False
        self._seen_text = False
        self._cr_seen = False
        self._line_ends = 0  # CR, CRLF and LF line ends decoded so far (for messages)
        self._ended_cr = False  # the last block ended with a CR (a CRLF may span two blocks)

    @property
    def notes(self) -> list[str]:
        """Why the reading may surprise (printed as warnings), in a fixed order."""
        return [note for note in _NOTE_ORDER if note in self._found]

    def take(self, size: int, block: int) -> list[str]:
        """The next ``size`` lines at most (fewer at the end), right-stripped; reads blocks of ``block`` bytes."""
        while len(self._pending) - self._pos < size and not self._done:
            self._read_block(block)
        chunk = list(map(str.rstrip, self._pending[self._pos : self._pos + size]))
        self._pos += len(chunk)
        if self._pos * 2 >= len(self._pending):  # drop what was handed out (amortized: each line moves once)
            del self._pending[: self._pos]
            self._pos = 0
        if self._cr_seen and NOTE_INNER_CR not in self._found and "\r" in "\n".join(chunk):
            # A CR left after stripping has text after it on its line (a CRLF's CR is stripped).
            self._found.add(NOTE_INNER_CR)
        self.count += len(chunk)
        return chunk

    def _read_block(self, block: int) -> None:
        if self._first is not None:  # the byte-order-mark probe, topped up to a block
            data = self._first + (self._handle.read(block - len(self._first)) if block > len(self._first) else b"")
            self._first = None
        else:
            data = self._handle.read(block)
        state = self._decoder.getstate()
        try:
            text = self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:
            raise self._decode_error(error, data, state) from None
        self._fed += len(data)
        if "\x00" in text:
            raise nul_error(self.name, self._head, self.encoding, self._line_at(text, text.index("\x00")))
        if text:
            self._notice(text)
            if "\n" in text:
                lines = text.split("\n")
                if self._parts:
                    self._parts.append(lines[0])
                    lines[0] = "".join(self._parts)
                self._parts = [lines.pop()]
                self._pending.extend(lines)
            else:
                self._parts.append(text)
            if "\r" in text or self._ended_cr:
                self._line_ends += text.count("\n") + text.count("\r") - text.count("\r\n")
                self._line_ends -= self._ended_cr and text.startswith("\n")
                self._ended_cr = text.endswith("\r")
            else:
                self._line_ends += text.count("\n")
        if not data:  # the end: a last line without a line feed is a segment too
            last = "".join(self._parts)
            self._parts = []
            if last:
                self._pending.append(last)
            self._done = True

    def _notice(self, text: str) -> None:
        first = not self._seen_text
        self._seen_text = True
        if first and text.startswith("\ufeff"):
            self._found.add(NOTE_BOM)
        if "\r" in text:
            self._cr_seen = True
        if has_invisible(text[1:] if first else text):
            self._found.add(NOTE_INVISIBLE)

    def _line_at(self, text: str, index: int) -> int:
        """The line, as an editor counts them (CR, CRLF and LF end one), of character ``index`` of a new block.

        Messages number lines as the reader of uploads does, so that they point where the user looks.
        """
        before = text[:index]
        return self._line_ends - (self._ended_cr and before.startswith("\n")) + line_number(before)

    def _decode_error(self, error: UnicodeDecodeError, data: bytes, state: tuple[bytes, int]) -> InputFileError:
        """Where the bytes stop being text: the line and the byte offset; a NUL byte in the block wins."""
        buffered = state[0] if isinstance(state[0], bytes) else b""
        valid = min(max(error.start - len(buffered), 0), len(data))
        # In UTF-8 a NUL byte is a NUL character: report binary content before the decoding error it causes.
        nul = data.find(b"\x00") if self.encoding.lower().replace("_", "-") in ("utf-8", "utf8") else -1
        before = self._decode_prefix(data[: nul if nul >= 0 else valid], state)
        if nul >= 0 or "\x00" in before:
            index = before.index("\x00") if "\x00" in before else len(before)
            return nul_error(self.name, self._head, self.encoding, self._line_at(before, index))
        offset = self._fed - len(buffered) + error.start
        byte = error.object[error.start : error.start + 1].hex().upper() if isinstance(error.object, bytes) else ""
        reason = message("errors.not_valid", encoding=self.encoding.upper(), byte=byte, offset=offset)
        return InputFileError(self.name, str(reason), self._line_at(before, len(before)), reason)

    def _decode_prefix(self, data: bytes, state: tuple[bytes, int]) -> str:
        """``data`` decoded from the decoder's ``state``, bad bytes replaced (for messages)."""
        try:
            decoder = self._codec.incrementaldecoder("replace")
            decoder.setstate(state)
            return str(decoder.decode(data))
        except (TypeError, ValueError, UnicodeError):
            return ""

    def close(self) -> None:
        self._handle.close()


def split_references(lines: list[str], n_refs: int, name: str, first_line: int) -> list[list[str]]:
    """``-nr N``: each line holds N tab-separated references; returns N streams.

    Every line is checked before the streams are made, so that their number is bounded by the text read
    (``-nr 1000000000`` fails on the first line instead of allocating a billion lists, as sacreBLEU does).
    """
    rows = []
    for offset, line in enumerate(lines):
        fields = line.split("\t", n_refs - 1)
        if len(fields) != n_refs:
            raise FieldCountError(
                f"FATAL: line {first_line + offset}: expected {n_refs} fields, but found {len(fields)}.", name
            )
        rows.append(fields)
    return [list(map(itemgetter(k), rows)) for k in range(n_refs)] if rows else []


class FieldCountError(InputFileError):
    """A line with the wrong number of tab-separated fields (sacreBLEU exits with status 17)."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(name, message)
        self.message = message


def stdin_systems(data: bytes, encoding: str) -> list[list[str]]:
    """Systems from standard input: one per tab-separated column, with universal newlines, as sacreBLEU."""
    chosen = choose_encoding(data[:4], encoding)
    codec = _text_codec(chosen, encoding)
    if chosen.lower().replace("_", "-") in ("utf-8", "utf8") and b"\x00" in data:
        # The files' rule (sacreBLEU would score it): in UTF-8 a NUL byte is a NUL character, binary input or
        # BOM-less UTF-16; said before any decoding error it causes.
        before = data[: data.index(b"\x00")].decode(chosen, "replace")
        raise nul_error("<stdin>", data[:4], chosen, line_number(before))
    try:
        text = codec.decode(data, "strict")[0]
    except UnicodeDecodeError as error:
        before = data[: error.start].decode(chosen, "replace")
        byte = data[error.start : error.start + 1].hex().upper()
        reason = message("errors.not_valid", encoding=chosen.upper(), byte=byte, offset=error.start)
        raise InputFileError("<stdin>", str(reason), line_number(before), reason) from None
    if "\x00" in text:
        raise nul_error("<stdin>", data[:4], chosen, line_number(text[: text.index("\x00")]))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    if "\t" not in text:  # one system (the usual case): each line stripped, at C speed
        return [list(map(str.rstrip, lines))]
    rows = [line.rstrip().split("\t") for line in lines]
    if len(set(map(len, rows))) > 1:
        number = next(n for n, row in enumerate(rows, start=1) if len(row) != len(rows[0]))
        raise FieldCountError(
            "FATAL: the number of tab-delimited fields in the input stream differ across lines.", f"line {number}"
        )
    # sacreBLEU strips each field of every line but the first (whose fields it places as they are split).
    columns = [list(map(itemgetter(k), rows)) for k in range(len(rows[0]))]
    return [[column[0], *map(str.rstrip, column[1:])] for column in columns]


def test_set_references(test_sets: str, langpair: str | None) -> list[str]:
    """Reference files of sacreBLEU test sets (comma-separated) already stored locally; nothing is downloaded."""
    if langpair is None:
        raise ValueError("a test set (-t) needs a language pair (-l)")
    if "," in test_sets:
        raise ValueError("bleu_core reads one test set at a time; score concatenated test sets with sacrebleu")
    import os

    from sacrebleu.dataset import DATASETS

    if test_sets not in DATASETS:
        raise ValueError(f"unknown test set {test_sets!r} (sacrebleu --list shows the known ones)")
    dataset: Any = DATASETS[test_sets]
    if langpair not in dataset.langpairs:
        raise ValueError(f"test set {test_sets!r} has no language pair {langpair!r}")
    fields = [name for name in dataset.fieldnames(langpair) if name.startswith("ref")]
    paths = [dataset._get_txt_file_path(langpair, name) for name in fields]
    if not paths or not all(os.path.exists(path) for path in paths):
        raise ValueError(
            f"test set {test_sets} ({langpair}) is not stored locally and bleu_core does not download; "
            f"run `sacrebleu -t {test_sets} -l {langpair} --echo ref > /dev/null` once, then try again"
        )
    return [str(path) for path in paths]
