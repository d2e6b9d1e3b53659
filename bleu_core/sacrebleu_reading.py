"""Reading text as ``sacrebleu`` reads it, so that the same bytes give the same number.

sacreBLEU opens files with ``newline="\\n"``: a line ends at a line feed only, and it strips every line's
trailing whitespace (``str.rstrip``), which removes the CR of a CRLF ending.  A UTF-8 byte-order mark is
kept (it becomes part of the first word); a lone CR stays inside its line.  Standard input is read with
universal newlines instead (CR, CRLF and LF all end a line) and split on tabs into systems.
We read the same way, also accept UTF-16/32 with a byte-order mark (sacreBLEU fails on them), and warn
on standard error where this reading is surprising.
"""

from __future__ import annotations

import codecs
import re
from typing import Any

from .reader import InputFileError

_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
#: A carriage return with more text after it on its line (a CR at the end of a line is stripped, as in CRLF).
_INNER_CR = re.compile(r"\r[^\S\n]*\S")
#: Characters that show nothing but change the words: zero-width spaces and joiners, word joiner, BOM inside text.
INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad")


def choose_encoding(head: bytes, requested: str) -> str:
    """The requested codec, except for UTF-16/32 text that starts with its byte-order mark."""
    if requested.lower().replace("_", "-") in ("utf-8", "utf8"):
        for bom, encoding in _WIDE_BOMS:
            if head.startswith(bom):
                return encoding
    return requested


def surprises(block: str, first: bool) -> list[str]:
    """Why a block of text may not score as its author expects (empty when it will)."""
    found = []
    if first and block.startswith("\ufeff"):
        found.append("starts with a byte-order mark, which stays part of the first word (as sacreBLEU reads it)")
    if _INNER_CR.search(block):
        found.append("has a carriage return inside a line; sacreBLEU keeps it in the line, and so do we")
    if not INVISIBLE.isdisjoint(block[1:] if first else block):
        found.append("contains invisible characters (zero-width space, joiner or soft hyphen) inside words")
    return found


def split_references(lines: list[str], n_refs: int, name: str, first_line: int) -> list[list[str]]:
    """``-nr N``: each line holds N tab-separated references; returns N streams."""
    streams: list[list[str]] = [[] for _ in range(n_refs)]
    for offset, line in enumerate(lines):
        fields = line.split("\t", n_refs - 1)
        if len(fields) != n_refs:
            raise FieldCountError(
                f"FATAL: line {first_line + offset}: expected {n_refs} fields, but found {len(fields)}.", name
            )
        for stream, text in zip(streams, fields, strict=True):
            stream.append(text)
    return streams


class FieldCountError(InputFileError):
    """A line with the wrong number of tab-separated fields (sacreBLEU exits with status 17)."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(name, message)
        self.message = message


def stdin_systems(data: bytes, encoding: str) -> list[list[str]]:
    """Systems from standard input: one per tab-separated column, with universal newlines, as sacreBLEU."""
    try:
        text = data.decode(choose_encoding(data[:4], encoding))
    except UnicodeDecodeError as error:
        raise InputFileError("<stdin>", f"not valid {encoding} (byte offset {error.start})") from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    columns = lines[0].rstrip().split("\t")
    systems = [[field] for field in columns]
    for number, line in enumerate(lines[1:], start=2):
        fields = line.rstrip().split("\t")
        if len(fields) != len(systems):
            raise FieldCountError(
                "FATAL: the number of tab-delimited fields in the input stream differ across lines.", f"line {number}"
            )
        for system, field in zip(systems, fields, strict=True):
            system.append(field.rstrip())
    return systems


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
