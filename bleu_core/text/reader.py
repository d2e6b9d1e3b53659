"""Reading text files of segments: one segment per line, as the CLI and the page uploaders need.

Accepted: UTF-8 with or without BOM, UTF-16/UTF-32 with BOM; CRLF, CR and LF line
endings; a final newline or none.  Rejected with a message naming the file (and the
line where possible): undecodable bytes, NUL bytes (binary content).
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from os import PathLike

from bleu_core.i18n import Message, message

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


class InputFileError(ValueError):
    """A file cannot be used as segments; the message says which file, where and how to fix it."""

    def __init__(self, name: str, problem: str, line: int | None = None, reason: Message | None = None) -> None:
        self.name = name
        self.problem = problem
        self.line = line
        #: ``problem`` as a catalog message, for interfaces in other languages (None: English only).
        self.reason = reason
        where = f" (line {line})" if line is not None else ""
        super().__init__(f"{name}{where}: {problem}")


def detect_encoding(data: bytes) -> str:
    """The codec for ``data``: by byte-order mark, else UTF-8."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding
    return "utf-8"


def line_number(before: str) -> int:
    """The 1-based line that follows the text ``before`` (CRLF, CR and LF each end a line)."""
    return before.count("\n") + before.count("\r") - before.count("\r\n") + 1


def _line_of(data: bytes, offset: int, encoding: str) -> int:
    """The line holding byte ``offset`` (counted in the decoded text, so UTF-16 counts right)."""
    return line_number(data[:offset].decode(encoding, errors="replace"))


def _nul_problem(data: bytes, encoding: str) -> Message:
    """Why a NUL character is there, and what to do about it."""
    if (encoding == "utf-8" and data[1:2] == b"\x00") or data[:1] == b"\x00":
        return message("errors.nul_utf16")
    return message("errors.nul_binary")


def nul_error(name: str, head: bytes, encoding: str, line: int) -> InputFileError:
    """The refusal of a NUL character at ``line``; ``head`` is the input's first bytes (two are enough)."""
    reason = _nul_problem(head, encoding)
    return InputFileError(name, str(reason), line, reason)


def open_error(name: str, error: OSError) -> InputFileError:
    """Why the file at ``name`` cannot be opened, in the reader's words."""
    if isinstance(error, FileNotFoundError):
        return InputFileError(name, "no such file")
    if isinstance(error, IsADirectoryError):
        return InputFileError(name, "is a directory, not a file")
    return InputFileError(name, f"cannot be read ({error.strerror})")


def decode_lines(data: bytes, name: str = "<input>") -> list[str]:
    """Segments of a file's bytes: decoded, line endings normalized, no extra segment for a final newline."""
    encoding = detect_encoding(data)
    if encoding.startswith("utf-8") and b"\x00" in data:
        # In UTF-8 a NUL byte is a NUL character: report binary content before any decoding error it causes.
        raise nul_error(name, data, encoding, _line_of(data, data.index(b"\x00"), encoding))
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = _line_of(data, error.start, encoding)
        byte = data[error.start : error.start + 1].hex().upper()
        reason = message(
            "errors.not_valid", encoding=encoding.upper().replace("-SIG", ""), byte=byte, offset=error.start
        )
        raise InputFileError(name, str(reason), line, reason) from None
    if "\x00" in text:
        raise nul_error(name, data, encoding, line_number(text[: text.index("\x00")]))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text:
        return []
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def read_lines(path: str | PathLike[str]) -> list[str]:
    """Segments of the file at ``path`` (see :func:`decode_lines`)."""
    name = str(path)
    try:
        with open(path, "rb") as handle:  # open, not pathlib: the CLI starts faster without importing it
            data = handle.read()
    except OSError as error:
        raise open_error(name, error) from None
    return decode_lines(data, name)


def check_line_counts(hypotheses: tuple[str, Sequence[str]], references: Sequence[tuple[str, Sequence[str]]]) -> None:
    """Every reference file needs as many lines as the hypothesis file; say which file and both counts if not."""
    hyp_name, hyp_lines = hypotheses
    for ref_name, ref_lines in references:
        if len(ref_lines) != len(hyp_lines):
            if not hyp_lines:
                problem = f"is empty but reference {ref_name} has {len(ref_lines)} lines; give one line per segment"
                raise InputFileError(hyp_name, problem)
            raise InputFileError(
                ref_name,
                f"has {len(ref_lines)} lines but the hypothesis {hyp_name} has {len(hyp_lines)}; "
                "each line must be the reference of the hypothesis line with the same number",
            )
