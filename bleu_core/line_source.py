"""Lines of segment files read a block at a time, aligned across files: the command line's input.

Only the block being split and the lines not yet taken are held, so reading a file of any size takes
memory in proportion to the chunk asked for, not to the file.  Lines equal the whole-file reader's
(:func:`bleu_core.reader.decode_lines`): same encodings (BOM detection), CRLF and CR turned into LF,
no extra segment for a final newline, and the same errors for undecodable or binary content.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator, Sequence
from typing import BinaryIO, NoReturn, cast

from .reader import InputFileError, check_line_counts, decode_lines, detect_encoding, line_number, read_lines

#: Bytes read at a time; whole blocks are split into lines (faster than reading line by line).
BLOCK_BYTES = 1 << 20


class LineSource:
    """The lines of one file (or binary stream), handed out a chunk at a time."""

    def __init__(self, name: str, stream: BinaryIO | None = None) -> None:
        self.name = name
        self.count = 0  # lines taken so far
        self._pending: list[str] = []  # lines read but not taken
        self._partial: str | None = ""  # the text after the last line feed read; None at the end of the file
        self._seekable = stream is None  # a file the whole-file reader can read again for its error
        if stream is None:
            try:
                stream = open(name, "rb")  # noqa: SIM115 - closed by close()
            except OSError:
                read_lines(name)  # raises the reader's error for a missing or unreadable file
                raise
        self._stream = stream
        self._head = stream.read(4)  # enough for any byte-order mark; decoded with the first block
        self.encoding = detect_encoding(self._head)
        self._decoder = codecs.getincrementaldecoder(self.encoding)(errors="strict")

    def take(self, size: int) -> list[str]:
        """The next ``size`` lines at most (fewer at the end), without line feeds."""
        while len(self._pending) < size and self._partial is not None:
            self._read_block()
        chunk = self._pending[:size]
        del self._pending[:size]
        self.count += len(chunk)
        return chunk

    def _fail(self, problem: str, before: str) -> NoReturn:
        """Raise the whole-file reader's error for a file; for a stream, the same problem on the line it is on."""
        if self._seekable:
            read_lines(self.name)  # names the line and the byte
        line = self.count + len(self._pending) + line_number((self._partial or "") + before)
        raise InputFileError(self.name, problem, line)

    def _decode(self, data: bytes) -> str:
        """The next piece of text; a CR at its end waits for the next piece (it may be half of a CRLF)."""
        try:
            text: str = self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:
            before = data[: max(error.start, 0)].decode(self.encoding, errors="replace")
            name = self.encoding.upper().replace("-SIG", "")
            self._fail(f"not valid {name}; save the file as UTF-8 and try again", before)
        if "\x00" in text:
            self._fail(
                "contains a NUL byte: this looks like a binary file, not text; give a plain-text file, "
                "one segment per line",
                text[: text.index("\x00")],
            )
        return text

    def _read_block(self) -> None:
        """Split the next block of text into lines; the last, unfinished one waits for the next block."""
        assert self._partial is not None
        data = self._head + self._stream.read(BLOCK_BYTES)
        self._head = b""
        block = self._decode(data)
        if not data:  # the end: a last line without a line end is a segment too
            lines = _lines(self._partial + block)
            last = lines.pop()
            self._pending.extend([*lines, last] if last else lines)
            self._partial = None
            return
        text = self._partial + block
        held = "\r" if text.endswith("\r") else ""  # perhaps the first half of a CRLF: it waits with the line
        lines = _lines(text[: len(text) - len(held)])
        self._partial = lines.pop() + held
        self._pending.extend(lines)

    def rest(self, size: int) -> int:
        """Count the lines left (to report a length mismatch) and close the file."""
        while self.take(size):
            pass
        self.close()
        return self.count

    def close(self) -> None:
        if self._seekable:  # a file this source opened; a stream given to it stays open
            self._stream.close()


def _lines(text: str) -> list[str]:
    """Text split at line feeds, CRLF and lone CR (the last item is what follows the last line end)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def aligned_chunks(
    refs: Sequence[LineSource], hyps: Sequence[LineSource], size: int
) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
    """Aligned chunks of ``size`` lines of every hypothesis and reference file: (hypotheses, references).

    A length mismatch raises the reader's error naming the files and both counts.
    """
    while True:
        ref_chunks = [ref.take(size) for ref in refs]
        hyp_chunks = [hyp.take(size) for hyp in hyps]
        sizes = {len(chunk) for chunk in (*ref_chunks, *hyp_chunks)}
        if len(sizes) > 1:
            # Only the lengths matter to the reader's check: ranges stand in for the lines.
            counts = [(source.name, cast(Sequence[str], range(source.rest(size)))) for source in (*refs, *hyps)]
            for hyp in counts[len(refs) :]:
                check_line_counts(hyp, counts[: len(refs)])
        if sizes == {0}:
            return
        yield hyp_chunks, ref_chunks


__all__ = ["BLOCK_BYTES", "LineSource", "aligned_chunks", "decode_lines"]
