"""Reading segment files on Dask workers: the files are cut into byte ranges of equal line ranges.

Used by ``--dask`` when the workers can open the files (a shared filesystem) and every file is plain UTF-8
(without a BOM) with LF line ends: then only line numbers and byte offsets travel, never the text.
Three passes, each a task per byte block of every file:

1. count the line feeds of each block (and look for CR and NUL bytes, which send the command back to
   reading here, where the reader's rules and messages for them live);
2. find the byte offsets of the lines where chunks start (chunk starts follow the first hypothesis file's
   blocks, so a chunk is about one block of text);
3. each chunk task reads the same line range of every file, decodes and splits it, and counts it.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, cast

import numpy as np

from bleu_core.text.reader import InputFileError, check_line_counts

#: Bytes of one block: one task of the first two passes, and about one chunk of text.
BLOCK_BYTES = 4 << 20
_LF = 10


class BlockCount(NamedTuple):
    """Line feeds in one block, and whether it holds a CR or a NUL byte."""

    line_feeds: int
    unusual: bool


class FilePlan(NamedTuple):
    """Where one file's text starts (after a BOM), its size, and the line feeds before each block."""

    path: str  # absolute: the workers open it
    name: str  # as given, for messages
    start: int
    size: int
    feeds_before: list[int]  # cumulative, one more entry than blocks
    lines: int


def _read(path: str, start: int, stop: int) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(start)
        return handle.read(stop - start)


def count_block(path: str, start: int, stop: int) -> BlockCount:
    """Pass 1 (a worker): line feeds in ``[start, stop)`` and whether a CR or NUL byte is there."""
    data = _read(path, start, stop)
    return BlockCount(data.count(b"\n"), b"\r" in data or b"\x00" in data)


def line_offsets(path: str, start: int, stop: int, first_line: int, wanted: Sequence[int]) -> list[int]:
    """Pass 2 (a worker): byte offsets where lines ``wanted`` start; the block begins at line ``first_line``."""
    feeds = np.flatnonzero(np.frombuffer(_read(path, start, stop), dtype=np.uint8) == _LF)
    # Line k (0-based) starts after the k-th line feed of the file; inside this block, after feed k - first_line.
    return [start + int(feeds[line - first_line - 1]) + 1 if line > first_line else start for line in wanted]


def read_lines_at(path: str, start: int, stop: int, first_line: int) -> list[str]:
    """Pass 3 (a worker): the lines in ``[start, stop)``, decoded as UTF-8; an error names the file and line."""
    data = _read(path, start, stop)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = first_line + data[: error.start].count(b"\n") + 1
        byte = data[error.start : error.start + 1].hex().upper()
        raise InputFileError(
            path, f"not valid UTF-8 (byte 0x{byte}); save the file as UTF-8 and try again", line
        ) from None
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n") if data else []


def _blocks(start: int, size: int) -> list[tuple[int, int]]:
    return [(at, min(at + BLOCK_BYTES, size)) for at in range(start, size, BLOCK_BYTES)] or [(start, start)]


def plan_files(client: Any, names: Sequence[str]) -> list[FilePlan] | None:
    """Pass 1 for every file; None when a file is not plain UTF-8 with LF line ends (read it here instead)."""
    paths = [os.path.abspath(name) for name in names]
    starts = []
    for path in paths:
        with open(path, "rb") as handle:
            head = handle.read(4)
        # UTF-16 and UTF-32; and a UTF-8 BOM, which sacreBLEU's reading keeps in the first word (read here)
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF8)):
            return None
        starts.append(3 if head.startswith(codecs.BOM_UTF8) else 0)
    sizes = [os.path.getsize(path) for path in paths]
    blocks = [_blocks(start, size) for start, size in zip(starts, sizes, strict=True)]
    futures = [
        [client.submit(count_block, p, a, b, pure=False) for a, b in bl] for p, bl in zip(paths, blocks, strict=True)
    ]
    plans = []
    for name, path, start, size, found in zip(names, paths, starts, sizes, client.gather(futures), strict=True):
        if any(count.unusual for count in found):
            return None
        feeds = np.concatenate([[0], np.cumsum([count.line_feeds for count in found])]).astype(int).tolist()
        ends_open = size > start and _read(path, size - 1, size) != b"\n"
        plans.append(FilePlan(path, name, start, size, feeds, feeds[-1] + int(ends_open)))
    return plans


def check_lengths(plans: Sequence[FilePlan], n_refs: int) -> None:
    """Every reference file needs as many lines as each hypothesis file (the reader's error otherwise)."""
    counts = [(plan.name, cast(Sequence[str], range(plan.lines))) for plan in plans]
    for hyp in counts[n_refs:]:
        check_line_counts(hyp, counts[:n_refs])


def chunk_starts(plans: Sequence[FilePlan], n_refs: int) -> list[int]:
    """Lines where chunks start: where the first hypothesis file's blocks start (about a block of text each)."""
    lines = plans[n_refs].lines
    return sorted({line for line in plans[n_refs].feeds_before[:-1] if line < lines} | {0}) if lines else []


def plan_offsets(client: Any, plan: FilePlan, starts: Sequence[int]) -> list[int]:
    """Pass 2 for one file: the byte offset of every chunk start, then the end of the text."""
    by_block: dict[int, list[int]] = {}
    for line in starts:
        if line > 0:  # line L starts after the L-th line feed: find the block that holds it
            block = int(np.searchsorted(plan.feeds_before, line, side="left")) - 1
            by_block.setdefault(block, []).append(line)
    blocks = _blocks(plan.start, plan.size)
    futures = {
        block: client.submit(line_offsets, plan.path, *blocks[block], plan.feeds_before[block], wanted, pure=False)
        for block, wanted in by_block.items()
    }
    found = {
        line: offset
        for block, future in futures.items()
        for line, offset in zip(by_block[block], future.result(), strict=True)
    }
    return [plan.start if line == 0 else found[line] for line in starts] + [plan.size]


def ranges(client: Any, plans: Sequence[FilePlan], n_refs: int) -> Iterator[tuple[int, list[tuple[str, int, int]]]]:
    """(first line, [(path, start, stop) of every file]) for each chunk, in order."""
    starts = chunk_starts(plans, n_refs)
    offsets = [plan_offsets(client, plan, starts) for plan in plans]
    for k, line in enumerate(starts):
        yield line, [(plan.path, offsets[f][k], offsets[f][k + 1]) for f, plan in enumerate(plans)]
