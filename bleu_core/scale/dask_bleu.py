"""BLEU of a Dask DataFrame of text: every partition counts its own statistics, and the sums merge.

Needs the dask extra (``pip install 'bleu-explorer[dask]'``).  A corpus score is a function of summed
segment statistics (integers), so partitions are counted wherever the scheduler puts them (a
``distributed.Client``, or Dask's default scheduler), merged in a tree, and scored once: the result
equals :func:`bleu_core.corpus_bleu` on the same rows to the last bit, for any partitioning.

Each row is a segment: one column holds the hypothesis and one column per reference holds its
references (a missing value is a missing reference, as None in sacreBLEU's streams).  Significance
tests resample statistics, never text: the per-segment statistics (80 bytes a segment at max order 4)
are computed on the cluster and gathered, then the in-process tests run on them with the same seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

import numpy as np
import pandas as pd
from dask.base import compute as dask_compute
from dask.delayed import delayed

from bleu_core.api import BleuResult, check_corpus
from bleu_core.compare.significance import (
    DEFAULT_SEED,
    PairedResult,
    PairedSettings,
    bootstrap_ci_from_stats,
    paired_test_from_stats,
)
from bleu_core.options import BleuOptions, OptionSettings, options_from
from bleu_core.scale.records import StatisticsRecord, column_names, write_parquet
from bleu_core.stats.counting import stream_statistics
from bleu_core.stats.scoring import score_statistics
from bleu_core.stats.segment_stats import SegmentStats

#: Partial results merged per task in the reduction tree.
SPLIT_EVERY = 8
#: Extra column of :func:`segment_statistics`: the references present for the segment (for ``nrefs``).
REFERENCES_COLUMN = "references"


def _compute(*collections: Any) -> tuple[Any, ...]:
    """Compute Dask collections together on the current scheduler (a distributed Client if one is set)."""
    return tuple(dask_compute(*collections))  # type: ignore[no-untyped-call]


def _columns(df: Any, hypothesis: str, references: Sequence[str] | str | None) -> tuple[str, list[str]]:
    """The hypothesis column and the reference columns (default: every other column), checked."""
    columns = list(df.columns)
    if hypothesis not in columns:
        raise ValueError(f"no hypothesis column {hypothesis!r}; the columns are {columns}")
    if isinstance(references, str):
        references = [references]
    refs = [c for c in columns if c != hypothesis] if references is None else list(references)
    if not refs:
        raise ValueError("no reference columns: name them with references=[...]")
    unknown = [c for c in refs if c not in columns]
    if unknown:
        raise ValueError(f"no reference column {unknown[0]!r}; the columns are {columns}")
    return hypothesis, refs


def _texts(series: pd.Series) -> list[str | None]:
    """A text column as Python strings, missing values (NA, NaN, None) as None."""
    values: list[str | None] = series.astype(object).where(series.notna(), None).tolist()
    return values


def _partition_statistics(
    part: pd.DataFrame, hypothesis: str, references: list[str], options: BleuOptions, where: str
) -> tuple[SegmentStats, np.ndarray[Any, np.dtype[np.int64]]]:
    """Per-segment statistics of one partition and the references present per segment."""
    try:
        hyps, streams = check_corpus(_texts(part[hypothesis]), [_texts(part[ref]) for ref in references])
    except (TypeError, ValueError) as error:
        raise type(error)(f"{where}: {error}") from None
    stats, _ = stream_statistics(
        hyps, streams, tokenize=options.tokenize, lowercase=options.lowercase, max_order=options.max_order
    )
    present = np.zeros(len(hyps), dtype=np.int64)
    for stream in streams:
        present += np.fromiter((text is not None for text in stream), dtype=np.int64, count=len(hyps))
    return stats, present


def _n_refs(present: np.ndarray[Any, np.dtype[np.int64]]) -> int | None:
    """References per segment of a shard: one count, -1 if it varies, None without segments."""
    counts = np.unique(present)
    if counts.size == 0:
        return None
    return int(counts[0]) if counts.size == 1 else -1


def _partition_record(
    part: pd.DataFrame, hypothesis: str, references: list[str], options: BleuOptions, index: int
) -> StatisticsRecord:
    """A leaf of the reduction: one partition's summed statistics."""
    stats, present = _partition_statistics(part, hypothesis, references, options, f"partition {index}")
    return StatisticsRecord(stats.summed(), options, _n_refs(present), len(stats))


def _merge_records(*records: StatisticsRecord) -> StatisticsRecord:
    """An inner node of the reduction: the sum of its children."""
    merged = records[0]
    for record in records[1:]:
        merged = merged.merge(record)
    return merged


def corpus_statistics(
    df: Any,
    hypothesis: str = "hyp",
    references: Sequence[str] | str | None = None,
    options: BleuOptions | None = None,
    *,
    split_every: int = SPLIT_EVERY,
    **settings: Unpack[OptionSettings],
) -> StatisticsRecord:
    """The summed statistics of every row, counted per partition and merged in a tree of ``split_every``."""
    options = options_from(options, settings, effective_order=False, caller="corpus_statistics")
    hypothesis, refs = _columns(df, hypothesis, references)
    if split_every < 2:
        raise ValueError(f"split_every must be at least 2; got {split_every}")
    parts = df[[hypothesis, *refs]].to_delayed()
    level = [delayed(_partition_record)(part, hypothesis, refs, options, i) for i, part in enumerate(parts)]
    while len(level) > 1:
        level = [delayed(_merge_records)(*level[i : i + split_every]) for i in range(0, len(level), split_every)]
    if not level:
        return StatisticsRecord.empty(options)
    record: StatisticsRecord = level[0].compute()
    return record


def corpus_bleu(
    df: Any,
    hypothesis: str = "hyp",
    references: Sequence[str] | str | None = None,
    options: BleuOptions | None = None,
    *,
    split_every: int = SPLIT_EVERY,
    **settings: Unpack[OptionSettings],
) -> BleuResult:
    """Corpus BLEU of a Dask DataFrame: equal to :func:`bleu_core.corpus_bleu` on its rows, for any partitioning.

    ``references`` names the reference columns (default: every column but the hypothesis).
    """
    options = options_from(options, settings, effective_order=False, caller="corpus_bleu")
    record = corpus_statistics(df, hypothesis, references, options, split_every=split_every)
    if record.n_refs is None:  # no segment: the in-process score names the streams given
        record = StatisticsRecord(record.stats, options, len(_columns(df, hypothesis, references)[1]), 0)
    return record.score()


def _statistics_frame(part: pd.DataFrame, hypothesis: str, references: list[str], options: BleuOptions) -> pd.DataFrame:
    """One partition's per-segment statistics as a frame with the record's columns (and the partition's index)."""
    stats, present = _partition_statistics(part, hypothesis, references, options, "a partition")
    frame = pd.DataFrame(stats.as_matrix(), columns=column_names(options.max_order), index=part.index)
    frame[REFERENCES_COLUMN] = present
    return frame


def segment_statistics(
    df: Any,
    hypothesis: str = "hyp",
    references: Sequence[str] | str | None = None,
    options: BleuOptions | None = None,
    **settings: Unpack[OptionSettings],
) -> Any:
    """A lazy Dask DataFrame of per-segment statistics (same index and partitions as ``df``).

    Columns: ``hyp_len, ref_len, matches_1..N, totals_1..N`` (int64) and ``references``, the references
    present for the segment.  Write it with :func:`write_statistics`, score it with :func:`score_statistics_frame`
    or resample it with :func:`paired_test` and :func:`bootstrap_ci`.
    """
    options = options_from(options, settings, effective_order=False, caller="segment_statistics")
    hypothesis, refs = _columns(df, hypothesis, references)
    names = [*column_names(options.max_order), REFERENCES_COLUMN]
    meta = pd.DataFrame({name: pd.Series(dtype="int64") for name in names})
    return df[[hypothesis, *refs]].map_partitions(_statistics_frame, hypothesis, refs, options, meta=meta)


def _scores(part: pd.DataFrame, hypothesis: str, references: list[str], options: BleuOptions, name: str) -> pd.Series:
    stats, _ = _partition_statistics(part, hypothesis, references, options, "a partition")
    return pd.Series(score_statistics(stats, options).score, index=part.index, name=name, dtype="float64")


def sentence_scores(
    df: Any,
    hypothesis: str = "hyp",
    references: Sequence[str] | str | None = None,
    options: BleuOptions | None = None,
    *,
    name: str = "bleu",
    **settings: Unpack[OptionSettings],
) -> Any:
    """A lazy Dask Series of sentence BLEU (0-1) per row; equals :func:`bleu_core.sentence_scores` on the rows.

    Effective order is on by default, as for sentence scores in process and in sacreBLEU.
    """
    options = options_from(options, settings, effective_order=True, caller="sentence_scores")
    hypothesis, refs = _columns(df, hypothesis, references)
    meta = pd.Series(dtype="float64", name=name)
    return df[[hypothesis, *refs]].map_partitions(_scores, hypothesis, refs, options, name, meta=meta)


def record_of_frame(frame: pd.DataFrame, options: BleuOptions) -> StatisticsRecord:
    """A computed statistics frame (from :func:`segment_statistics`) as a :class:`StatisticsRecord`."""
    names = column_names(options.max_order)
    missing = [c for c in [*names, REFERENCES_COLUMN] if c not in frame.columns]
    if missing:
        raise ValueError(f"not a statistics frame of max order {options.max_order}: no column {missing[0]!r}")
    stats = SegmentStats.from_matrix(frame[names].to_numpy(dtype=np.int64), options.max_order)
    return StatisticsRecord(stats, options, _n_refs(frame[REFERENCES_COLUMN].to_numpy(dtype=np.int64)), len(stats))


def _write_partition(frame: pd.DataFrame, options: BleuOptions, path: str) -> int:
    write_parquet(record_of_frame(frame, options), path)
    return len(frame)


def write_statistics(statistics: Any, folder: str, options: BleuOptions) -> int:
    """Write a :func:`segment_statistics` frame as one Parquet record per partition; returns the segment count.

    Each worker writes its own partitions (``part-00000.parquet``, ...; the folder must be one they can all
    reach); :func:`bleu_core.scale.records.read_parquet` reads the folder back as one record, in partition order.
    """
    import os

    os.makedirs(folder, exist_ok=True)
    tasks = [
        delayed(_write_partition)(part, options, os.path.join(folder, f"part-{i:05d}.parquet"))
        for i, part in enumerate(statistics.to_delayed())
    ]
    return int(sum(_compute(*tasks)))


def _gathered(statistics: Mapping[str, Any], options: BleuOptions) -> dict[str, SegmentStats]:
    """Compute every system's statistics frame together (one pass over shared inputs) and gather them."""
    names = list(statistics)
    frames = _compute(*(statistics[name] for name in names))
    return {name: record_of_frame(frame, options).stats for name, frame in zip(names, frames, strict=True)}


def paired_test(
    statistics: Mapping[str, Any], options: BleuOptions, **settings: Unpack[PairedSettings]
) -> dict[str, PairedResult]:
    """:func:`bleu_core.paired_test_from_stats` on per-segment statistics held in Dask (one frame per system)."""
    return paired_test_from_stats(_gathered(statistics, options), options, **settings)


def bootstrap_ci(
    statistics: Any, options: BleuOptions, n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> tuple[float, float]:
    """:func:`bleu_core.bootstrap_ci_from_stats` on one system's per-segment statistics held in Dask."""
    stats = _gathered({"system": statistics}, options)["system"]
    return bootstrap_ci_from_stats(stats, options, n_samples=n_samples, seed=seed)


def score_statistics_frame(statistics: Any, options: BleuOptions) -> BleuResult:
    """Corpus BLEU of a :func:`segment_statistics` frame (its columns summed on the cluster)."""
    names = column_names(options.max_order)
    column = statistics[REFERENCES_COLUMN]
    sums, fewest, most, rows = _compute(statistics[names].sum(), column.min(), column.max(), column.count())
    matrix = np.asarray(sums.to_numpy(dtype=np.int64)).reshape(1, -1)
    n_refs = None if int(rows) == 0 else int(fewest) if int(fewest) == int(most) else -1
    record = StatisticsRecord(SegmentStats.from_matrix(matrix, options.max_order), options, n_refs, 0)
    return record.score()
