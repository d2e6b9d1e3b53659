"""Statistics records: per-segment BLEU statistics with the options that made them, stored in Arrow or Parquet.

A record is what a shard of a large corpus leaves behind: its segment statistics (one row per segment,
or one summed row), the :class:`BleuOptions` they were counted with, and the references per segment
(for the signature's ``nrefs``).  Records merge like the statistics themselves (a monoid, the empty
record as identity), but only when they were made with the same options: summing counts made with two
tokenizers would give a number that is no BLEU score at all.

On disk a record is one Arrow table with the int64 columns ``hyp_len, ref_len, matches_1..N,
totals_1..N`` (the order of :meth:`SegmentStats.as_matrix`) and schema metadata holding the format
version, the options (JSON), the references per segment and the signature.  pyarrow is imported only
by the functions that read or write, so ``bleu_core`` itself does not need it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from os import PathLike
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.options import BleuOptions
from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.version import __version__

if TYPE_CHECKING:
    import pyarrow as pa

    from bleu_core.api import BleuResult

#: Version of the stored layout; a reader refuses versions it does not know.
FORMAT_VERSION = 1
#: Schema metadata keys (bytes, as Arrow stores them).
KEY_FORMAT = b"bleu_core.format"
KEY_OPTIONS = b"bleu_core.options"
KEY_N_REFS = b"bleu_core.n_refs"
KEY_SEGMENTS = b"bleu_core.segments"
KEY_SIGNATURE = b"bleu_core.signature"
#: Options that change the counts themselves; the others (smoothing, weights, effective order) only the score.
COUNTING_FIELDS = ("tokenize", "lowercase", "max_order")


def column_names(max_order: int) -> list[str]:
    """The record's columns: ``hyp_len, ref_len, matches_1..N, totals_1..N``."""
    orders = range(1, max_order + 1)
    return ["hyp_len", "ref_len", *(f"matches_{n}" for n in orders), *(f"totals_{n}" for n in orders)]


def merge_n_refs(first: int | None, second: int | None) -> int | None:
    """References per segment of two shards: equal counts stay, different ones vary (-1); None is no segment.

    Associative with None as identity, so shards can merge in any grouping.
    """
    if first is None:
        return second
    if second is None or first == second:
        return first
    return -1


def option_differences(first: BleuOptions, second: BleuOptions, names: Sequence[str] | None = None) -> list[str]:
    """The fields (all, or ``names``) where two options differ, as ``name: a != b``."""
    wanted = [f.name for f in fields(BleuOptions)] if names is None else list(names)
    return [
        f"{name}: {getattr(first, name)!r} != {getattr(second, name)!r}"
        for name in wanted
        if getattr(first, name) != getattr(second, name)
    ]


@dataclass(frozen=True, slots=True)
class StatisticsRecord:
    """Segment statistics with their options; ``n_refs`` is None while there is no segment, -1 if it varies."""

    stats: SegmentStats
    options: BleuOptions
    n_refs: int | None
    segments: int

    @staticmethod
    def of(stats: SegmentStats, options: BleuOptions, n_refs: int | None) -> StatisticsRecord:
        """A record of per-segment statistics (``segments`` is their row count)."""
        if stats.max_order != options.max_order:
            raise ValueError(
                f"statistics have {stats.max_order} n-gram orders but options.max_order is {options.max_order}"
            )
        return StatisticsRecord(stats, options, n_refs if len(stats) else None, len(stats))

    @staticmethod
    def empty(options: BleuOptions) -> StatisticsRecord:
        """No segment: the identity of :meth:`merge` and :meth:`concat`."""
        return StatisticsRecord(SegmentStats.empty(options.max_order), options, None, 0)

    def check_compatible(self, other: StatisticsRecord) -> None:
        """Refuse to combine statistics made with different options, naming every difference."""
        if not isinstance(other, StatisticsRecord):
            raise TypeError(f"can only combine a StatisticsRecord with another; got {type(other).__name__}")
        differences = option_differences(self.options, other.options)
        if differences:
            raise ValueError(
                "cannot combine statistics made with different options (" + "; ".join(differences) + "); "
                "count every shard with the same BleuOptions"
            )

    def merge(self, other: StatisticsRecord) -> StatisticsRecord:
        """The corpus statistics of both as one summed row (associative; :meth:`empty` is the identity)."""
        self.check_compatible(other)
        return StatisticsRecord(
            self.stats.merge(other.stats),
            self.options,
            merge_n_refs(self.n_refs, other.n_refs),
            self.segments + other.segments,
        )

    def concat(self, other: StatisticsRecord) -> StatisticsRecord:
        """Both records' rows, this one's first (keeps per-segment rows for resampling)."""
        self.check_compatible(other)
        return StatisticsRecord(
            SegmentStats.concat([self.stats, other.stats], self.options.max_order),
            self.options,
            merge_n_refs(self.n_refs, other.n_refs),
            self.segments + other.segments,
        )

    def score(self, options: BleuOptions | None = None) -> BleuResult:
        """The corpus BLEU of these statistics.

        ``options`` may change how they are scored (smoothing, weights, effective order) but not how they
        were counted (tokenizer, case, max order): those are refused with the difference named.
        """
        from bleu_core.api import result_from_statistics

        chosen = self.options if options is None else options
        differences = option_differences(self.options, chosen, COUNTING_FIELDS)
        if differences:
            raise ValueError(
                "these statistics were counted with other options (" + "; ".join(differences) + "); "
                "only smoothing, weights and effective order can change when scoring them"
            )
        n_refs = self.n_refs if self.n_refs is not None else 1
        return result_from_statistics(self.stats, chosen, n_refs)


def options_to_json(options: BleuOptions) -> str:
    """Every field of the options as JSON (weights as a list)."""
    return json.dumps(asdict(options), sort_keys=True)


def options_from_json(text: str) -> BleuOptions:
    """Inverse of :func:`options_to_json`; BleuOptions checks the fields are consistent."""
    values: dict[str, Any] = json.loads(text)
    known = {f.name for f in fields(BleuOptions)}
    if set(values) != known:
        raise ValueError(f"stored options have fields {sorted(values)}, expected {sorted(known)}")
    values["weights"] = tuple(float(w) for w in values["weights"])
    return BleuOptions(**values)


def record_metadata(record: StatisticsRecord) -> dict[bytes, bytes]:
    """The schema metadata that makes a table of statistics a record."""
    n_refs = record.n_refs if record.n_refs is not None else 1
    return {
        KEY_FORMAT: str(FORMAT_VERSION).encode(),
        KEY_OPTIONS: options_to_json(record.options).encode(),
        KEY_N_REFS: json.dumps(record.n_refs).encode(),
        KEY_SEGMENTS: str(record.segments).encode(),
        KEY_SIGNATURE: record.options.signature(n_refs, __version__).encode(),
    }


def to_arrow(record: StatisticsRecord) -> pa.Table:
    """The record as an Arrow table: the statistics columns and the metadata."""
    import pyarrow as pa

    matrix = record.stats.as_matrix()
    names = column_names(record.options.max_order)
    arrays = [pa.array(np.ascontiguousarray(matrix[:, k]), type=pa.int64()) for k in range(len(names))]
    return pa.Table.from_arrays(arrays, names=names).replace_schema_metadata(record_metadata(record))


def _metadata_value(metadata: dict[bytes, bytes], key: bytes) -> str:
    if key not in metadata:
        raise ValueError(f"not a bleu_core statistics record: the schema metadata has no {key.decode()!r}")
    return metadata[key].decode()


def from_arrow(table: pa.Table) -> StatisticsRecord:
    """Read a record back from an Arrow table made by :func:`to_arrow` (or a Parquet file of one)."""
    metadata = dict(table.schema.metadata or {})
    version = _metadata_value(metadata, KEY_FORMAT)
    if version != str(FORMAT_VERSION):
        raise ValueError(f"statistics record format {version} is not supported (this bleu_core reads {FORMAT_VERSION})")
    options = options_from_json(_metadata_value(metadata, KEY_OPTIONS))
    names = column_names(options.max_order)
    if table.column_names != names:
        raise ValueError(f"statistics record columns are {table.column_names}, expected {names}")
    matrix = np.column_stack([table.column(name).to_numpy().astype(np.int64) for name in names])
    stats = SegmentStats.from_matrix(matrix.reshape(-1, len(names)), options.max_order)
    n_refs: int | None = json.loads(_metadata_value(metadata, KEY_N_REFS))
    segments = int(_metadata_value(metadata, KEY_SEGMENTS))
    return StatisticsRecord(stats, options, n_refs, segments)


def write_parquet(record: StatisticsRecord, path: str | PathLike[str]) -> None:
    """Write a record to one Parquet file (metadata included)."""
    import pyarrow.parquet as pq

    pq.write_table(to_arrow(record), path)


def read_parquet(path: str | PathLike[str]) -> StatisticsRecord:
    """A record from a Parquet file, or the rows of every ``*.parquet`` file in a folder (in name order).

    Files of one folder must share their options; they are combined with :meth:`StatisticsRecord.concat`.
    """
    import os

    import pyarrow.parquet as pq

    if not os.path.isdir(path):
        return from_arrow(pq.read_table(path))
    names = sorted(name for name in os.listdir(path) if name.endswith(".parquet"))
    if not names:
        raise ValueError(f"{os.fspath(path)} holds no .parquet files")
    records = [from_arrow(pq.read_table(os.path.join(path, name))) for name in names]
    combined = records[0]
    for record in records[1:]:
        combined = combined.concat(record)
    return combined
