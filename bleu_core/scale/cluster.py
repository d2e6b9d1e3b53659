"""The command line's ``--dask SCHEDULER``: count chunks of the input files on a Dask cluster.

The files are read here, a chunk of lines at a time (as sacreBLEU reads them, :mod:`bleu_core.cli.main`), and each
chunk is sent to the cluster, where the workers tokenize and count it; only statistics come back (summed per
chunk, or per segment for ``-sl``).  At most a few chunks per worker thread are in flight, so memory
here stays bounded whatever the file size, and results are taken in chunk order, so sentence-level
output keeps the line order.  Reading on the workers would need the files on a filesystem they share
and the line offsets of every chunk in every file; sending the text is simpler and needs neither.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from bleu_core.options import BleuOptions
from bleu_core.scale.worker_files import FilePlan, check_lengths, plan_files, ranges, read_lines_at
from bleu_core.stats.counting import chunk_segments_default, score_chunk
from bleu_core.stats.segment_stats import SegmentStats

if TYPE_CHECKING:
    from bleu_core.stats.segment_stats import StatisticsSink

#: Chunks in flight per worker thread: enough to keep every worker busy while the next chunk is read.
IN_FLIGHT_PER_THREAD = 2
#: How long to wait for the scheduler before giving up with an error.
CONNECT_TIMEOUT = "10s"


def count_chunk(
    systems: list[list[str]], streams: list[list[str]], options: BleuOptions, per_segment: bool
) -> list[SegmentStats]:
    """A worker's task: one chunk's statistics for every hypothesis file (summed unless ``per_segment``)."""
    found = score_chunk(systems, streams, options.tokenize, options.lowercase, options.max_order)
    return found if per_segment else [stats.summed() for stats in found]


def connect(address: str) -> Any:
    """A ``distributed.Client`` for the scheduler, with an error that says how to get the extra."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError(
            "--dask needs the dask extra (dask and distributed); install it with pip install 'bleu-explorer[dask]'"
        ) from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as error:
        raise ValueError(f"cannot reach the Dask scheduler at {address!r}: {error}") from None


def count_files(
    first_line: int, spans: list[tuple[str, int, int]], n_refs: int, options: BleuOptions, per_segment: bool
) -> list[SegmentStats]:
    """A worker's task: read the same lines of every file, count them a chunk at a time, return the statistics."""
    texts = [read_lines_at(path, start, stop, first_line) for path, start, stop in spans]
    refs, systems = texts[:n_refs], texts[n_refs:]
    found: list[list[SegmentStats]] = [[] for _ in systems]
    size = chunk_segments_default()  # Dask's workers fix malloc's thresholds: small chunks there
    for at in range(0, len(refs[0]), size):
        part = slice(at, at + size)
        for k, stats in enumerate(
            count_chunk([h[part] for h in systems], [r[part] for r in refs], options, per_segment)
        ):
            found[k].append(stats)
    merged = [SegmentStats.concat(parts, options.max_order) for parts in found]
    return merged if per_segment else [stats.summed() for stats in merged]


def _plans(client: Any, paths: list[str]) -> list[FilePlan] | None:
    """The workers' plan of the files, or None when they cannot open them or a file needs the reader's rules."""
    try:
        return plan_files(client, paths)
    except OSError:  # e.g. no shared filesystem: the workers do not see the files
        return None


def score_on_cluster(
    address: str,
    files: tuple[list[str], list[str]] | None,
    chunks: Callable[[], Iterable[tuple[list[list[str]], list[list[str]]]]],
    options: BleuOptions,
    sink: StatisticsSink,
) -> bool:
    """Count on the cluster and hand the statistics to ``sink`` in order; whether the chunks were read here.

    ``files`` (reference and hypothesis paths) are read by the workers when they can open them and every one
    is plain UTF-8 with LF line ends; otherwise (standard input, CR line ends, UTF-16, no shared filesystem)
    the ``chunks`` read here are sent to them.
    """
    client = connect(address)
    try:
        per_segment = sink.per_segment
        plans = _plans(client, [*files[0], *files[1]]) if files else None
        tasks: Iterator[Callable[[], Any]]
        if plans is None:
            tasks = (
                partial(client.submit, count_chunk, *chunk, options, per_segment, pure=False) for chunk in chunks()
            )
        else:
            n_refs = len(files[0]) if files else 0
            check_lengths(plans, n_refs)
            tasks = (
                partial(client.submit, count_files, line, spans, n_refs, options, per_segment, pure=False)
                for line, spans in ranges(client, plans, n_refs)
            )
        _pipeline(tasks, max(1, sum(client.nthreads().values())), sink)
        return plans is None
    finally:
        client.close()


def _pipeline(tasks: Iterator[Callable[[], Any]], threads: int, sink: StatisticsSink) -> None:
    """Submit tasks with a few per worker thread in flight; deliver their results in submission order."""
    pending: deque[Any] = deque()
    for submit in tasks:
        pending.append(submit())
        if len(pending) >= IN_FLIGHT_PER_THREAD * threads:
            _deliver(pending.popleft(), sink)
    while pending:
        _deliver(pending.popleft(), sink)


def _deliver(future: Any, sink: StatisticsSink) -> None:
    for system, stats in enumerate(future.result()):
        sink.add(system, stats)
