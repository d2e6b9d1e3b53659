"""Lines of segment files read a block at a time, aligned across files: the command line's input.

Only the block being split and the lines not yet taken are held, so reading a file of any size takes
memory in proportion to the chunk asked for, not to the file.  Lines equal the whole-file reader's
(:func:`bleu_core.reader.decode_lines`): same encodings (BOM detection), CRLF and CR turned into LF,
no extra segment for a final newline, and the same errors for undecodable or binary content.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from typing import BinaryIO, NoReturn, cast

from .reader import InputFileError, check_line_counts, decode_lines, detect_encoding, read_lines

#: Characters read at a time; whole blocks are split into lines (faster than reading line by line).
BLOCK_CHARACTERS = 1 << 20


class _Replayed(io.RawIOBase):
    """A binary stream with its first bytes read already (to detect the encoding of standard input)."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        super().__init__()
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._head:
            size = min(len(buffer), len(self._head))
            buffer[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class LineSource:
    """The lines of one file (or binary stream), handed out a chunk at a time."""

    def __init__(self, name: str, stream: BinaryIO | None = None) -> None:
        self.name = name
        self.count = 0  # lines taken so far
        self._pending: list[str] = []  # lines read but not taken
        self._partial: str | None = ""  # the text after the last line feed read; None at the end of the file
        if stream is None:
            try:
                stream = open(name, "rb")  # noqa: SIM115 - closed by close()
            except OSError:
                read_lines(name)  # raises the reader's error for a missing or unreadable file
                raise
            encoding = detect_encoding(stream.read(4))
            stream.seek(0)
            binary: BinaryIO = stream
        else:
            head = stream.read(4)
            encoding = detect_encoding(head)
            binary = cast(BinaryIO, io.BufferedReader(_Replayed(head, stream)))
        # Universal newlines turn CRLF and CR into LF, as the reader does.
        self._text = io.TextIOWrapper(binary, encoding=encoding, errors="strict", newline=None)
        self._seekable = stream.seekable()  # a file the whole-file reader can read again for its error

    def take(self, size: int) -> list[str]:
        """The next ``size`` lines at most (fewer at the end), without line feeds."""
        while len(self._pending) < size and self._partial is not None:
            self._read_block()
        chunk = self._pending[:size]
        del self._pending[:size]
        self.count += len(chunk)
        return chunk

    def _fail(self) -> NoReturn:
        """Raise the whole-file reader's error (it names the line and the byte) for a file that cannot be read."""
        if self._seekable:
            read_lines(self.name)
        line = self.count + len(self._pending) + 1  # a stream cannot be read again: the first line not split
        raise InputFileError(
            self.name,
            f"not valid {self._text.encoding.upper().replace('-SIG', '')} text, or binary content (a NUL byte) "
            "near this line; save the file as UTF-8 text and try again",
            line,
        )

    def _read_block(self) -> None:
        """Split the next block of text into lines; the last, unfinished one waits for the next block."""
        assert self._partial is not None
        try:
            block = self._text.read(BLOCK_CHARACTERS)
        except UnicodeDecodeError:
            self._fail()
            raise
        if "\x00" in block:
            self._fail()
        if not block:  # the end: a last line without a line feed is a segment too
            if self._partial:
                self._pending.append(self._partial)
            self._partial = None
            return
        lines = (self._partial + block).split("\n")
        self._partial = lines.pop()
        self._pending.extend(lines)

    def rest(self, size: int) -> int:
        """Count the lines left (to report a length mismatch) and close the file."""
        while self.take(size):
            pass
        self.close()
        return self.count

    def close(self) -> None:
        self._text.close()


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


__all__ = ["BLOCK_CHARACTERS", "LineSource", "aligned_chunks", "decode_lines"]
