"""Segment statistics: clipped n-gram matches for every segment at once.

The data flow is text -> tokens -> integer ids -> integer n-gram keys ->
clipped counts per segment.  References define the n-gram dictionary: an
n-gram of the hypothesis that no reference contains can never match, so it is
only counted in the totals.  All counting is done with numpy sorts and
searches over the whole corpus, never one segment at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat

import numpy as np
from numpy.typing import NDArray

from .tokenizers import tokenize_lines

IntArray = NDArray[np.int64]

#: Segments handled together; bounds memory on very large corpora.
CHUNK_SEGMENTS = 20_000


@dataclass(frozen=True, slots=True)
class SegmentStats:
    """BLEU's sufficient statistics, one row per segment.

    ``matches[i, n-1]`` is the number of clipped n-gram matches of segment i,
    ``totals[i, n-1]`` the number of n-grams in its hypothesis; ``hyp_len`` is
    the hypothesis length in tokens and ``ref_len`` the length of the closest
    reference (ties go to the shorter one).  A corpus score is a function of the
    column sums, so resampling and leave-one-out never re-tokenize.
    """

    matches: IntArray
    totals: IntArray
    hyp_len: IntArray
    ref_len: IntArray

    def __len__(self) -> int:
        return int(self.hyp_len.shape[0])

    @property
    def max_order(self) -> int:
        return int(self.matches.shape[1])

    def summed(self) -> SegmentStats:
        """The corpus statistics: one row holding the column sums."""
        return SegmentStats(
            self.matches.sum(axis=0, keepdims=True),
            self.totals.sum(axis=0, keepdims=True),
            self.hyp_len.sum(keepdims=True),
            self.ref_len.sum(keepdims=True),
        )

    def take(self, index: IntArray | Sequence[int] | slice) -> SegmentStats:
        """The rows at ``index`` (a selection of segments)."""
        return SegmentStats(self.matches[index], self.totals[index], self.hyp_len[index], self.ref_len[index])

    def as_matrix(self) -> IntArray:
        """Rows as ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (sacreBLEU's column order)."""
        return np.concatenate([self.hyp_len[:, None], self.ref_len[:, None], self.matches, self.totals], axis=1).astype(
            np.int64
        )

    @staticmethod
    def from_matrix(matrix: NDArray[np.integer] | NDArray[np.floating], max_order: int) -> SegmentStats:
        """Inverse of :meth:`as_matrix` (accepts summed or resampled rows)."""
        m = np.asarray(matrix)
        return SegmentStats(m[:, 2 : 2 + max_order], m[:, 2 + max_order :], m[:, 0], m[:, 1])

    @staticmethod
    def concat(parts: Sequence[SegmentStats], max_order: int) -> SegmentStats:
        """Stack the rows of several chunks."""
        if not parts:
            empty = np.zeros(0, dtype=np.int64)
            grid = np.zeros((0, max_order), dtype=np.int64)
            return SegmentStats(grid, grid.copy(), empty, empty.copy())
        if len(parts) == 1:
            return parts[0]
        return SegmentStats(
            np.concatenate([p.matches for p in parts]),
            np.concatenate([p.totals for p in parts]),
            np.concatenate([p.hyp_len for p in parts]),
            np.concatenate([p.ref_len for p in parts]),
        )


@dataclass(frozen=True, slots=True)
class _Encoded:
    """Token ids of one stream of segments, flattened."""

    ids: IntArray  # token id per position (-1: not in the reference vocabulary)
    segment: IntArray  # segment index per position
    remaining: IntArray  # tokens left in the segment from this position on (>= 1)
    lengths: IntArray  # tokens per segment


def _encode(token_lists: Sequence[list[str]], vocab: dict[str, int]) -> _Encoded:
    lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
    flat = list(chain.from_iterable(token_lists))
    ids = np.fromiter(map(vocab.get, flat, repeat(-1)), dtype=np.int64, count=len(flat))
    segment = np.repeat(np.arange(len(token_lists), dtype=np.int64), lengths)
    ends = np.cumsum(lengths)
    remaining = np.repeat(ends, lengths) - np.arange(len(flat), dtype=np.int64)
    return _Encoded(ids, segment, remaining, lengths)


def _next_keys(prev: IntArray, enc: _Encoded, n: int, vocab_size: int) -> tuple[IntArray, IntArray]:
    """Positions that start a valid n-gram and their compound key ``(n-1)-gram key * V + last id``.

    Positions whose (n-1)-gram or last token is unknown (-1) are dropped.
    """
    starts = np.flatnonzero(enc.remaining >= n)
    last = enc.ids[starts + (n - 1)]
    head = prev[starts]
    keep = (head >= 0) & (last >= 0)
    starts = starts[keep]
    return starts, head[keep] * vocab_size + last[keep]


def _lookup(table: IntArray, keys: IntArray) -> tuple[IntArray, NDArray[np.bool_]]:
    """Positions of ``keys`` in the sorted ``table`` and whether each key is there."""
    where = np.searchsorted(table, keys)
    inside = where < table.shape[0]
    found = np.zeros(keys.shape[0], dtype=bool)
    found[inside] = table[where[inside]] == keys[inside]
    return where, found


def _max_count_table(streams: Sequence[tuple[IntArray, IntArray]], n_keys: int) -> tuple[IntArray, IntArray]:
    """Sorted ``segment * n_keys + key`` and the max count of that n-gram over references."""
    uniques = [np.unique(seg * n_keys + key, return_counts=True) for seg, key in streams]
    if len(uniques) == 1:
        return uniques[0][0], uniques[0][1].astype(np.int64)
    combined = np.concatenate([u for u, _ in uniques])
    counts = np.concatenate([c for _, c in uniques]).astype(np.int64)
    order = np.argsort(combined, kind="stable")
    combined, counts = combined[order], counts[order]
    if combined.size == 0:
        return combined, counts
    starts = np.flatnonzero(np.r_[True, combined[1:] != combined[:-1]])
    return combined[starts], np.maximum.reduceat(counts, starts)


@dataclass(frozen=True, slots=True)
class _ReferenceChunk:
    """The references of one chunk of segments, ready for clipping."""

    vocab: dict[str, int]
    ngram_keys: tuple[IntArray, ...]  # per order >= 2: sorted compound keys of all reference n-grams
    n_keys: tuple[int, ...]  # number of distinct reference n-grams per order
    clip_keys: tuple[IntArray, ...]  # per order: sorted segment * n_keys + key
    clip_counts: tuple[IntArray, ...]  # per order: max count over references
    lengths: IntArray  # (segments, references); -1 where a reference is missing


def _prepare_chunk(streams: Sequence[Sequence[list[str] | None]], max_order: int) -> _ReferenceChunk:
    n_segments = len(streams[0])
    vocab_keys = dict.fromkeys(chain.from_iterable(chain.from_iterable(s for s in stream if s) for stream in streams))
    vocab = {token: i for i, token in enumerate(vocab_keys)}
    vocab_size = max(len(vocab), 1)
    lengths = np.full((n_segments, len(streams)), -1, dtype=np.int64)
    encoded = []
    for k, stream in enumerate(streams):
        present = [tokens if tokens is not None else [] for tokens in stream]
        enc = _encode(present, vocab)
        lengths[:, k] = np.where([tokens is not None for tokens in stream], enc.lengths, -1)
        encoded.append(enc)
    prev_keys = [enc.ids for enc in encoded]
    ngram_keys: list[IntArray] = []
    n_keys = [vocab_size]
    clip_keys: list[IntArray] = []
    clip_counts: list[IntArray] = []
    table, counts = _max_count_table([(enc.segment, enc.ids) for enc in encoded], vocab_size)
    clip_keys.append(table)
    clip_counts.append(counts)
    for n in range(2, max_order + 1):
        found = [_next_keys(prev, enc, n, vocab_size) for prev, enc in zip(prev_keys, encoded, strict=True)]
        compounds = np.concatenate([c for _, c in found]) if found else np.zeros(0, dtype=np.int64)
        keys, inverse = np.unique(compounds, return_inverse=True)
        ngram_keys.append(keys)
        n_keys.append(max(len(keys), 1))
        pieces = np.split(inverse.astype(np.int64), np.cumsum([len(c) for _, c in found])[:-1])
        streams_n = []
        next_prev = []
        for (starts, _), piece, enc in zip(found, pieces, encoded, strict=True):
            full = np.full(enc.ids.shape[0], -1, dtype=np.int64)
            full[starts] = piece
            next_prev.append(full)
            streams_n.append((enc.segment[starts], piece))
        prev_keys = next_prev
        table, counts = _max_count_table(streams_n, n_keys[-1])
        clip_keys.append(table)
        clip_counts.append(counts)
    return _ReferenceChunk(vocab, tuple(ngram_keys), tuple(n_keys), tuple(clip_keys), tuple(clip_counts), lengths)


def closest_ref_length(hyp_len: IntArray, ref_lengths: IntArray) -> IntArray:
    """Per segment, the reference length closest to the hypothesis length; ties go to the shorter.

    ``ref_lengths`` has one column per reference, -1 marking a missing one.
    """
    if ref_lengths.shape[1] == 1:
        return ref_lengths[:, 0].copy()
    diff = np.abs(hyp_len[:, None] - ref_lengths)
    big = int(ref_lengths.max(initial=0)) + 1
    rank = np.where(ref_lengths < 0, np.iinfo(np.int64).max, diff * big + ref_lengths)
    return np.take_along_axis(ref_lengths, rank.argmin(axis=1)[:, None], axis=1)[:, 0]


def _chunk_statistics(hyp_tokens: Sequence[list[str]], refs: _ReferenceChunk, max_order: int) -> SegmentStats:
    n_segments = len(hyp_tokens)
    enc = _encode(hyp_tokens, refs.vocab)
    vocab_size = refs.n_keys[0]
    matches = np.zeros((n_segments, max_order), dtype=np.int64)
    totals = np.maximum(enc.lengths[:, None] - np.arange(max_order, dtype=np.int64)[None, :], 0)
    keys = enc.ids
    for n in range(1, max_order + 1):
        if n > 1:
            starts, compounds = _next_keys(keys, enc, n, vocab_size)
            where, hit = _lookup(refs.ngram_keys[n - 2], compounds)
            keys = np.full(enc.ids.shape[0], -1, dtype=np.int64)
            keys[starts[hit]] = where[hit]
        known = np.flatnonzero(keys >= 0)
        if known.size == 0:
            continue
        combined, counts = np.unique(enc.segment[known] * refs.n_keys[n - 1] + keys[known], return_counts=True)
        where, hit = _lookup(refs.clip_keys[n - 1], combined)
        clipped = np.minimum(counts[hit], refs.clip_counts[n - 1][where[hit]])
        matches[:, n - 1] = np.bincount(combined[hit] // refs.n_keys[n - 1], weights=clipped, minlength=n_segments)
    ref_len = closest_ref_length(enc.lengths, refs.lengths)
    return SegmentStats(matches, totals, enc.lengths, ref_len)


@dataclass(frozen=True, slots=True)
class PreparedReferences:
    """Tokenized, counted references, reusable for scoring many systems against them."""

    chunks: tuple[_ReferenceChunk, ...]
    n_segments: int
    n_refs: int  # references per segment, or -1 when it varies (some are missing)
    tokenize: str
    lowercase: bool
    max_order: int


def _chunks(n: int, size: int) -> Iterable[slice]:
    for start in range(0, n, size):
        yield slice(start, min(start + size, n))


def prepare_references(
    streams: Sequence[Sequence[str | None]],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    max_order: int = 4,
    chunk_segments: int = CHUNK_SEGMENTS,
) -> PreparedReferences:
    """Tokenize and count reference streams once (``streams[k][i]``: reference k of segment i; None: missing)."""
    n_segments = len(streams[0]) if streams else 0
    chunks = []
    for part in _chunks(n_segments, chunk_segments):
        tokenized: list[list[list[str] | None]] = []
        for stream in streams:
            lines = stream[part]
            present = [line for line in lines if line is not None]
            tokens = iter(tokenize_lines(present, tokenize, lowercase))
            tokenized.append([next(tokens) if line is not None else None for line in lines])
        chunks.append(_prepare_chunk(tokenized, max_order))
    per_segment = np.unique(np.concatenate([(c.lengths >= 0).sum(axis=1) for c in chunks] or [np.zeros(0)]))
    n_refs = int(per_segment[0]) if per_segment.size == 1 else (len(streams) if per_segment.size == 0 else -1)
    return PreparedReferences(tuple(chunks), n_segments, n_refs, tokenize, lowercase, max_order)


def segment_statistics(
    hypotheses: Sequence[str], references: PreparedReferences, *, max_order: int | None = None
) -> SegmentStats:
    """Statistics of every segment of ``hypotheses`` against prepared references.

    ``max_order`` may be lower than the one the references were prepared for.
    """
    order = references.max_order if max_order is None else max_order
    if order > references.max_order:
        raise ValueError(f"references were prepared for max_order {references.max_order}, not {order}")
    parts = []
    start = 0
    for chunk in references.chunks:
        stop = start + int(chunk.lengths.shape[0])
        tokens = tokenize_lines(hypotheses[start:stop], references.tokenize, references.lowercase)
        parts.append(_chunk_statistics(tokens, chunk, order))
        start = stop
    return SegmentStats.concat(parts, order)
