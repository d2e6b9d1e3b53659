"""The command line's ``--dask SCHEDULER``: count chunks of the input files on a Dask cluster.

The files are read here, a chunk of lines at a time (:mod:`bleu_core.line_source`), and each chunk is
sent to the cluster, where the workers tokenize and count it; only statistics come back (summed per
chunk, or per segment for ``-sl``).  At most a few chunks per worker thread are in flight, so memory
here stays bounded whatever the file size, and results are taken in chunk order, so sentence-level
output keeps the line order.  Reading on the workers would need the files on a filesystem they share
and the line offsets of every chunk in every file; sending the text is simpler and needs neither.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .counting import score_chunk
from .options import BleuOptions
from .statistics import SegmentStats

if TYPE_CHECKING:
    from .cli import StatisticsSink

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


def score_on_cluster(
    address: str,
    chunks: Iterable[tuple[list[list[str]], list[list[str]]]],
    options: BleuOptions,
    sink: StatisticsSink,
) -> None:
    """Send every chunk to the cluster and hand the statistics to ``sink`` in chunk order."""
    client = connect(address)
    try:
        threads = max(1, sum(client.nthreads().values()))
        pending: deque[Any] = deque()
        per_segment = bool(sink.args.sentence_level)
        for systems, streams in chunks:
            pending.append(client.submit(count_chunk, systems, streams, options, per_segment, pure=False))
            if len(pending) >= IN_FLIGHT_PER_THREAD * threads:
                _deliver(pending.popleft(), sink)
        while pending:
            _deliver(pending.popleft(), sink)
    finally:
        client.close()


def _deliver(future: Any, sink: StatisticsSink) -> None:
    for system, stats in enumerate(future.result()):
        sink.add(system, stats)
