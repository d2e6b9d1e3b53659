"""The fast counting engine: clipped n-gram matches for every segment at once, vectorized.

The data flow is text -> token ids -> integer n-gram keys -> clipped counts per
segment.  An n-gram can only match if the (n-1)-gram it starts with did, so each
order looks only at the positions that matched at the order before.  There are
two ways to count:

* references used once (a single score, the CLI with one system) are counted
  together with the hypothesis: only an n-gram that both sides hold matters, so
  both sides are pruned at every order, and token ids come from byte spans
  (:func:`tokenizers.encode_together`) without making a string per token;
* prepared references (many systems, the compare page) count every n-gram of
  the references once, with a :class:`tokenizers.Vocabulary`; each hypothesis
  then looks its n-grams up in them.

N-gram keys are built and sorted in :mod:`bleu_core.stats.ngram_keys`.  The rule counted here is the one of
:func:`clipping.clip_counts`; ``tests/core/test_rules.py`` holds this engine equal to it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from bleu_core.sorting import run_changes, run_starts
from bleu_core.stats.ngram_keys import Stacked, ngram_keys, positions, ranks_at, sort_keys
from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.tokenizers import Encoded, Vocabulary, encode_lines, encode_together

IntArray = NDArray[np.int64]

#: Segments handled together; bounds the working memory on very large corpora.
CHUNK_SEGMENTS = 4_000
#: Segments handled together where glibc's malloc runs with fixed thresholds (:func:`chunk_segments_default`).
SMALL_CHUNK_SEGMENTS = 128
#: Variables whose presence fixes glibc's malloc thresholds (it then stops adapting them to the program).
_FIXED_MALLOC = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")


def chunk_segments_default() -> int:
    """Segments per chunk in this process: :data:`CHUNK_SEGMENTS`, or :data:`SMALL_CHUNK_SEGMENTS` where one of
    glibc's malloc thresholds is fixed by the environment (Dask sets ``MALLOC_TRIM_THRESHOLD_`` in every worker it
    starts).  glibc then maps every block above 128 KiB afresh and unmaps it when freed, so each of the engine's
    temporaries costs a page fault per page; chunks of 128 segments keep them below that size (measured in
    docs/scale.md: 161 against 64 ms a call on WMT22 de-en, 24,700 against 1,900 page faults)."""
    return SMALL_CHUNK_SEGMENTS if any(name in os.environ for name in _FIXED_MALLOC) else CHUNK_SEGMENTS


def _let_malloc_keep_freed_blocks() -> None:
    """Allocate and free one block of just under 32 MiB, once, when the engine is imported.

    glibc's malloc raises its mmap and trim thresholds to the size of each mapped block it frees (up to 32 MiB);
    until then the engine's temporaries went back to the system after every call and faulted in again.  This
    brings malloc at once where a long-running program brings it, with no variable set; nothing is computed
    differently.  Measured on WMT22 de-en corpus BLEU (glibc's defaults, medians of 7): 2,463 page faults and
    46 ms a call without it, 19 and 34 ms with it."""
    np.empty((32 << 20) - 8192, dtype=np.uint8)


_let_malloc_keep_freed_blocks()


# ---------------------------------------------------------------------------------------------
# References


class _ReferenceChunk(NamedTuple):
    """The references of one chunk of segments, counted for clipping."""

    vocab: Vocabulary
    dense: _Dense  # vocabulary id -> id below ``bound``
    bound: int  # ids are below this
    keys: tuple[IntArray, ...]  # per order: sorted distinct keys of the references' n-grams
    max_counts: tuple[IntArray, ...]  # per order: the most times one reference holds that n-gram
    segments: tuple[IntArray, ...]  # per order: the segment of that n-gram
    lengths: IntArray  # (segments, references); -1 where a reference is missing


#: ``char`` maps code points below this with a table (the BMP; the table has -1 at this index).
_TABLE_LIMIT = 0x10000


class _Dense:
    """Consecutive ids for the references' tokens: smaller n-gram keys, fewer radix passes.

    Vocabulary ids skip many numbers (a table maps them); ``char`` ids are code points (the sorted distinct
    code points of the references are searched).  Tokens the references lack get -1.
    """

    __slots__ = ("distinct", "size", "table")

    def __init__(self, vocab: Vocabulary, ids: IntArray) -> None:
        self.table: IntArray | None = None
        self.distinct: IntArray | None = None
        if vocab.tokenize == "char":
            present = np.zeros(vocab.bound, dtype=bool)
            present[ids] = True
            self.distinct = np.flatnonzero(present)
            self.size = int(self.distinct.shape[0])
            if self.size and self.distinct[-1] < _TABLE_LIMIT:  # a table when all code points are small
                self.table = np.full(_TABLE_LIMIT + 1, -1, dtype=np.int64)
                self.table[self.distinct] = np.arange(self.size, dtype=np.int64)
        else:
            self.size = len(vocab.ids)
            self.table = np.full(vocab.bound + 1, -1, dtype=np.int64)  # the extra -1 keeps -1 unknown
            self.table[np.fromiter(vocab.ids.values(), dtype=np.int64, count=self.size)] = np.arange(
                self.size, dtype=np.int64
            )

    def __call__(self, ids: IntArray) -> IntArray:
        if self.table is not None:
            if self.distinct is not None:  # char: code points beyond the table are unknown
                return self.table[np.minimum(ids, _TABLE_LIMIT)]
            return self.table[ids]
        assert self.distinct is not None
        if not self.size:
            return np.full(ids.shape[0], -1, dtype=np.int64)
        where = np.searchsorted(self.distinct, ids)
        np.minimum(where, self.size - 1, out=where)
        return np.where(self.distinct[where] == ids, where, -1)


def _present(streams: Sequence[Sequence[str | None]]) -> list[list[int] | None]:
    """Per stream, the segments whose line is present; None when all are."""
    return [None if None not in lines else [i for i, line in enumerate(lines) if line is not None] for lines in streams]


def _texts(streams: Sequence[Sequence[str | None]], present: list[list[int] | None]) -> list[Sequence[str]]:
    """The present lines of each stream."""
    return [lines if keep is None else [lines[i] for i in keep] for lines, keep in zip(streams, present, strict=True)]  # type: ignore[misc]


def _with_missing(
    encoded: list[Encoded], present: list[list[int] | None], n_segments: int
) -> tuple[list[Encoded], IntArray]:
    """Streams encoded from their present lines, with empty missing lines; the lengths (-1: missing)."""
    lengths = np.full((n_segments, len(encoded)), -1, dtype=np.int64)
    full_streams = []
    for k, (enc, keep) in enumerate(zip(encoded, present, strict=True)):
        if keep is None:
            lengths[:, k] = enc.lengths
            full_streams.append(enc)
        else:
            lengths[keep, k] = enc.lengths
            full = np.zeros(n_segments, dtype=np.int64)
            full[keep] = enc.lengths
            full_streams.append(Encoded(enc.ids, full))
    return full_streams, lengths


def _encode_streams(
    streams: Sequence[Sequence[str | None]], tokenize: str, lowercase: bool, vocab: Vocabulary
) -> tuple[list[Encoded], IntArray]:
    """Ids of every reference stream (a missing line has no tokens), and the lengths (-1: missing)."""
    present = _present(streams)
    encoded = [encode_lines(lines, tokenize, lowercase, vocab) for lines in _texts(streams, present)]
    return _with_missing(encoded, present, len(streams[0]))


def _encode_once(
    hypotheses: Sequence[str], streams: Sequence[Sequence[str | None]], tokenize: str, lowercase: bool
) -> tuple[list[Encoded], IntArray, int]:
    """Dense ids of the hypothesis (first) and of every reference stream, the reference lengths, the id bound.

    Token strings are only made when :func:`encode_together` cannot do without them.
    """
    present = _present(streams)
    texts = _texts(streams, present)
    together = encode_together([hypotheses, *texts], tokenize, lowercase)
    if together is not None:
        (hyp, *refs), bound = together
    else:
        vocab = Vocabulary(tokenize)
        refs = [encode_lines(lines, tokenize, lowercase, vocab) for lines in texts]
        hyp = encode_lines(hypotheses, tokenize, lowercase, vocab, grow=False)
        dense = _Dense(vocab, np.concatenate([enc.ids for enc in refs]))
        hyp, *refs = (Encoded(dense(enc.ids), enc.lengths) for enc in (hyp, *refs))
        bound = dense.size
    refs, lengths = _with_missing(refs, present, len(hypotheses))
    return [hyp, *refs], lengths, max(bound, 1)


def _prepare_chunk(
    streams: Sequence[Sequence[str | None]], tokenize: str, lowercase: bool, max_order: int
) -> _ReferenceChunk:
    vocab = Vocabulary(tokenize)
    encoded, lengths = _encode_streams(streams, tokenize, lowercase, vocab)
    ids = np.concatenate([enc.ids for enc in encoded])
    dense = _Dense(vocab, ids)
    ids = dense(ids)
    bound = max(dense.size, 1)
    stacked = Stacked.of(encoded, ids)
    keys_by_order: list[IntArray] = []
    counts_by_order: list[IntArray] = []
    segments_by_order: list[IntArray] = []
    rank = np.zeros(0, dtype=np.int64)
    for n in range(1, max_order + 1):
        start, key = ngram_keys(n, rank, ids, stacked.segment, stacked.remaining, bound)
        order, ordered = sort_keys(key)
        change = run_changes(ordered)
        first = np.flatnonzero(change)
        if n < max_order:  # the next order extends these n-grams by their rank
            group = np.zeros(ordered.shape[0], dtype=np.int64)
            if ordered.shape[0]:
                group[first[1:]] = 1
                np.cumsum(group, out=group)
            rank = ranks_at(ids.shape[0], start[order], group)
        if len(encoded) == 1:
            counts = np.diff(np.append(first, ordered.shape[0]))
        else:  # the most times one reference holds the n-gram
            runs, run_counts = stacked.runs(start[order], change)
            counts = np.maximum.reduceat(run_counts, np.flatnonzero(change[runs])) if runs.size else run_counts
        keys_by_order.append(ordered[first])
        counts_by_order.append(counts.astype(np.int64))
        segments_by_order.append(stacked.segment[start[order[first]]])
    return _ReferenceChunk(
        vocab, dense, bound, tuple(keys_by_order), tuple(counts_by_order), tuple(segments_by_order), lengths
    )


def _chunk_statistics(hypotheses: Sequence[str], refs: _ReferenceChunk, options: _Options) -> SegmentStats:
    """Clipped matches of every n-gram order for one chunk of hypotheses."""
    tokenize, lowercase, max_order = options
    enc = encode_lines(hypotheses, tokenize, lowercase, refs.vocab, grow=False)
    n_segments = enc.lengths.shape[0]
    bound = refs.bound
    ids = refs.dense(enc.ids)
    segment, remaining = positions(enc.lengths)
    matches = np.zeros((n_segments, max_order), dtype=np.int64)
    rank = np.zeros(0, dtype=np.int64)
    for n in range(1, max_order + 1):
        start, key = ngram_keys(n, rank, ids, segment, remaining, bound)
        table = refs.keys[n - 1]
        if key.shape[0] == 0 or table.shape[0] == 0:
            break
        order, ordered = sort_keys(key)
        first = run_starts(ordered)
        distinct = ordered[first]
        # Look up each distinct n-gram of a segment once; the sorted needles keep the binary search local.
        where = np.searchsorted(table, distinct)
        np.minimum(where, table.shape[0] - 1, out=where)
        hit = table[where] == distinct
        run_counts = np.diff(np.append(first, ordered.shape[0]))
        clipped = np.minimum(run_counts[hit], refs.max_counts[n - 1][where[hit]])
        matches[:, n - 1] = np.bincount(refs.segments[n - 1][where[hit]], weights=clipped, minlength=n_segments)
        if n < max_order:  # the next order extends the n-grams found in the references
            rank = ranks_at(ids.shape[0], start[order], np.repeat(np.where(hit, where, -1), run_counts))
    return SegmentStats.from_counts(matches, enc.lengths, refs.lengths)


def _joint_order(
    n: int, rank: IntArray, stacked: Stacked, bound: int, n_streams: int, n_segments: int, last: bool
) -> tuple[IntArray, IntArray] | None:
    """Clipped matches of order ``n`` per segment, and the ranks that order ``n + 1`` extends (None: no n-gram).

    Each n-gram's count in every stream is one ``bincount`` over (n-gram, stream) pairs; this took a third less
    time than finding the runs of each stream inside the sorted groups (29 ms against 39-44 ms for the 4,000
    segments of one chunk of en-de, a system and two references; the engine's results are unchanged, tested
    in ``tests/core/test_rules.py``).  Each temporary dies as soon as it has served (here and on return): a
    fresh process pays a page fault for every page of its largest working set.
    """
    start, key = ngram_keys(n, rank, stacked.ids, stacked.segment, stacked.remaining, bound)
    if key.shape[0] == 0:
        return None
    order, ordered = sort_keys(key)
    del key
    change = run_changes(ordered)
    del ordered
    at = start[order]  # the position of every sorted n-gram
    del start, order
    group = np.cumsum(change, dtype=np.int64)
    group -= 1  # the n-gram of every sorted position
    n_groups = int(group[-1]) + 1
    pairs = group * n_streams
    pairs += stacked.stream[at]
    counts = np.bincount(pairs, minlength=n_groups * n_streams).reshape(n_groups, n_streams)  # stream 0: hypothesis
    del pairs
    most = counts[:, 1].copy() if n_streams > 1 else np.zeros(n_groups, dtype=np.int64)
    for k in range(2, n_streams):
        np.maximum(most, counts[:, k], out=most)
    clipped = np.minimum(counts[:, 0], most)
    del counts, most
    matches = np.bincount(stacked.segment[at[change]], weights=clipped, minlength=n_segments).astype(np.int64)
    if last:
        return matches, rank
    # The next order extends the n-grams found on both sides.
    found = clipped > 0
    compact = np.where(found, np.cumsum(found) - 1, -1)
    return matches, ranks_at(stacked.ids.shape[0], at, compact[group])


def _joint_statistics(
    hypotheses: Sequence[str], streams: Sequence[Sequence[str | None]], options: _Options
) -> tuple[SegmentStats, IntArray]:
    """Statistics of one chunk whose references are used once, and the references of each segment."""
    tokenize, lowercase, max_order = options
    encoded, ref_lengths, bound = _encode_once(hypotheses, streams, tokenize, lowercase)
    return joint_statistics(encoded, ref_lengths, bound, max_order), (ref_lengths >= 0).sum(axis=1)


def joint_statistics(encoded: Sequence[Encoded], ref_lengths: IntArray, bound: int, max_order: int) -> SegmentStats:
    """Statistics of encoded streams (stream 0 the hypotheses, ids below ``bound``, -1 for a token that can match
    nothing) against references used once (``ref_lengths``: segments x references, -1 where missing).

    Only an n-gram that both the hypothesis and a reference of its segment hold can match, so the
    hypothesis and the references are counted together and each order extends just the n-grams that
    occurred on both sides at the order before (prepared references must count every n-gram).
    """
    hyp = encoded[0]
    n_segments = hyp.lengths.shape[0]
    stacked = Stacked.of(encoded, np.concatenate([enc.ids for enc in encoded]))
    matches = np.zeros((n_segments, max_order), dtype=np.int64)
    rank = np.zeros(0, dtype=np.int64)
    for n in range(1, max_order + 1):
        counted = _joint_order(n, rank, stacked, bound, len(encoded), n_segments, n == max_order)
        if counted is None:
            break
        matches[:, n - 1], rank = counted
    return SegmentStats.from_counts(matches, hyp.lengths, ref_lengths)


_Options = tuple[str, bool, int]


@dataclass(frozen=True, slots=True)
class PreparedReferences:
    """Tokenized, counted references, reusable for scoring many systems against them."""

    chunks: tuple[_ReferenceChunk, ...]
    n_segments: int
    n_refs: int  # references per segment, or -1 when it varies (some are missing)
    tokenize: str
    lowercase: bool
    max_order: int


def _slices(n: int, size: int) -> Iterator[slice]:
    for start in range(0, n, size):
        yield slice(start, min(start + size, n))


def _n_refs(present: Iterable[IntArray], n_streams: int) -> int:
    """References per segment, or -1 when it varies."""
    per_segment = np.unique(np.concatenate([*present, np.zeros(0, dtype=np.int64)]))
    if per_segment.size == 0:
        return n_streams
    return int(per_segment[0]) if per_segment.size == 1 else -1


def prepare_references(
    streams: Sequence[Sequence[str | None]],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    max_order: int = 4,
    chunk_segments: int | None = None,
) -> PreparedReferences:
    """Tokenize and count reference streams once (``streams[k][i]``: reference k of segment i; None: missing);
    ``chunk_segments`` defaults to :func:`chunk_segments_default`."""
    n_segments = len(streams[0]) if streams else 0
    chunks = tuple(
        _prepare_chunk([stream[part] for stream in streams], tokenize, lowercase, max_order)
        for part in _slices(n_segments, chunk_segments or chunk_segments_default())
    )
    n_refs = _n_refs(((c.lengths >= 0).sum(axis=1) for c in chunks), len(streams))
    return PreparedReferences(chunks, n_segments, n_refs, tokenize, lowercase, max_order)


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
    options = (references.tokenize, references.lowercase, order)
    for chunk in references.chunks:
        stop = start + int(chunk.lengths.shape[0])
        parts.append(_chunk_statistics(hypotheses[start:stop], chunk, options))
        start = stop
    return SegmentStats.concat(parts, order)


def stream_statistics(
    hypotheses: Sequence[str],
    streams: Sequence[Sequence[str | None]],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    max_order: int = 4,
    chunk_segments: int | None = None,
) -> tuple[SegmentStats, int]:
    """Statistics of every segment, and the references per segment, one chunk at a time.

    Each chunk's references are counted, used and dropped, so the working memory grows with
    ``chunk_segments`` (default: :func:`chunk_segments_default`), not with the corpus (only the small statistics matrix
    is kept).
    """
    size = chunk_segments or chunk_segments_default()
    return statistics_of_chunks(
        ((hypotheses[part], [stream[part] for stream in streams]) for part in _slices(len(hypotheses), size)),
        tokenize=tokenize,
        lowercase=lowercase,
        max_order=max_order,
        n_streams=len(streams),
    )


def statistics_of_chunks(
    chunks: Iterable[tuple[Sequence[str], Sequence[Sequence[str | None]]]],
    *,
    tokenize: str,
    lowercase: bool,
    max_order: int,
    n_streams: int,
) -> tuple[SegmentStats, int]:
    """Statistics of chunks of (hypotheses, reference streams) as they arrive (files read piece by piece)."""
    parts = []
    present = []
    options = (tokenize, lowercase, max_order)
    for hypotheses, streams in chunks:
        stats, per_segment = _joint_statistics(hypotheses, streams, options)
        parts.append(stats)
        present.append(per_segment)
    return SegmentStats.concat(parts, max_order), _n_refs(present, n_streams)


def score_chunk(
    systems: Sequence[Sequence[str]],
    streams: Sequence[Sequence[str | None]],
    tokenize: str,
    lowercase: bool,
    max_order: int,
) -> list[SegmentStats]:
    """Statistics of one chunk of several systems' hypotheses against the same chunk of references."""
    if len(systems) == 1:  # references used once: counted together with the hypothesis
        return [_joint_statistics(systems[0], streams, (tokenize, lowercase, max_order))[0]]
    refs = _prepare_chunk(streams, tokenize, lowercase, max_order)
    return [_chunk_statistics(hypotheses, refs, (tokenize, lowercase, max_order)) for hypotheses in systems]
