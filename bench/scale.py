"""Scoring at scale: ``python -m bench.scale`` (also run by ``make bench``).

Two tasks on corpora built by repeating the WMT22 de-en test set (one system, references A and B):

* ``dask``: 1M segments in Parquet (written at bench time, 16 partitions); ``bleu_core.scale.dask_bleu.corpus_bleu``
  on a ``distributed.LocalCluster`` of 2 worker processes (1 thread each) reading the partitions, against
  in-process ``bleu_core.corpus_bleu`` on the same rows already in memory.  Same result, wall time ratio.
* ``cli-memory``: the command line (``python -m bleu_core REF1 REF2 -i HYP``) on 100k, 1M and 4M segments:
  peak resident memory of the process (and wall time), and the same result as in process.

The big files go to a temporary folder that is deleted at the end.  The CLI's peak is read with
``getrusage(RUSAGE_CHILDREN)`` in a small launcher process: Linux hands a forked child the high-water
mark of its parent's memory, so the command is started from a small process, not from this large one.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "scale.json"
PAIR, SYSTEM = "de-en", "Online-B"
TARGETS = {"dask_ratio": 0.8, "cli_peak_mb": 150.0}
LAUNCHER = (
    "import resource, subprocess, sys, time\n"
    "start = time.perf_counter()\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True, check=True)\n"
    "wall = time.perf_counter() - start\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "sys.stdout.write(repr((wall, peak, done.stdout.decode())))\n"
)


def data_folder() -> Path:
    """The WMT22 folder (BLEU_WMT22, else ``../shared/data/wmt22`` beside the repository)."""
    return Path(os.environ.get("BLEU_WMT22", ROOT.parent / "shared" / "data" / "wmt22"))


def base_lines() -> tuple[list[str], list[str], list[str]]:
    """One system's hypotheses and both references of WMT22 de-en."""
    folder = data_folder() / PAIR

    def read(name: str) -> list[str]:
        with open(folder / f"generaltest2022.{PAIR}.{name}.en", encoding="utf-8") as handle:
            return [line.rstrip("\n") for line in handle]

    return read(f"hyp.{SYSTEM}"), read("ref.A"), read("ref.B")


def repeated(lines: Sequence[str], segments: int) -> list[str]:
    """``lines`` repeated and cut to ``segments`` lines."""
    return (list(lines) * math.ceil(segments / len(lines)))[:segments]


def write_files(folder: Path, segments: int, base: tuple[list[str], list[str], list[str]]) -> list[Path]:
    """hyp.txt, ref1.txt, ref2.txt of ``segments`` lines each, written a repeat of the test set at a time."""
    paths = [folder / f"{name}-{segments}.txt" for name in ("hyp", "ref1", "ref2")]
    for path, lines in zip(paths, base, strict=True):
        block = "\n".join(lines) + "\n"
        whole, rest = divmod(segments, len(lines))
        with open(path, "w", encoding="utf-8") as handle:
            for _ in range(whole):
                handle.write(block)
            handle.write("".join(line + "\n" for line in lines[:rest]))
    return paths


def repeated_result(base: tuple[list[str], list[str], list[str]], segments: int) -> Any:
    """In-process BLEU of the repeated corpus, from the test set's statistics: whole copies times its sums,
    plus the sums of the rows of the last, partial copy (statistics are a monoid, so this is exact)."""
    import bleu_core

    options = bleu_core.make_options()
    stats, prepared = bleu_core.corpus_statistics(base[0], [base[1], base[2]], options)
    whole, rest = divmod(segments, len(stats))
    matrix = whole * stats.as_matrix().sum(axis=0) + stats.as_matrix()[:rest].sum(axis=0)
    summed = bleu_core.SegmentStats.from_matrix(matrix.reshape(1, -1), options.max_order)
    return bleu_core.result_from_statistics(summed, options, prepared.n_refs)


def bench_cli(folder: Path, sizes: Sequence[int], base: tuple[list[str], list[str], list[str]]) -> list[dict[str, Any]]:
    """Peak RSS and wall time of the command line per corpus size, and its score against in process."""

    rows = []
    for segments in sizes:
        hyp, ref1, ref2 = write_files(folder, segments, base)
        command = [sys.executable, "-m", "bleu_core", str(ref1), str(ref2), "-i", str(hyp)]
        out = subprocess.run([sys.executable, "-c", LAUNCHER, *command], capture_output=True, check=True, cwd=ROOT)
        wall, peak_kb, printed = eval(out.stdout.decode())
        expected = repeated_result(base, segments)
        score = json.loads(printed)["score"]
        rows.append(
            {
                "segments": segments,
                "peak_mb": peak_kb / 1024,
                "wall_s": wall,
                "us_per_segment": 1e6 * wall / segments,
                "score": score,
                "identical": score == expected.score_100,
            }
        )
        print(
            f"cli {segments:>9,} segments: peak {peak_kb / 1024:6.1f} MB, {wall:6.1f} s, "
            f"identical {rows[-1]['identical']}"
        )
        for path in (hyp, ref1, ref2):
            path.unlink()
    return rows


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def user_cluster(workers: int) -> Any:
    """A LocalCluster of ``workers`` single-thread processes, as a user makes one (Dask's own settings: its nanny
    sets MALLOC_TRIM_THRESHOLD_=65536 in every worker, which fixes glibc's thresholds; the engine then counts in
    small chunks, :func:`bleu_core.stats.counting.chunk_segments_default`)."""
    from distributed import LocalCluster

    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)


def _timed_dask(path: Path) -> tuple[float, float, Any]:
    """Wall time of one distributed score, the workers' summed compute time for the counting tasks, the result."""
    import dask.dataframe as dd
    from distributed import get_task_stream

    from bleu_core.scale import dask_bleu as bleu_dask

    with get_task_stream() as stream:
        start = time.perf_counter()
        result = bleu_dask.corpus_bleu(dd.read_parquet(path), "hyp", ["ref1", "ref2"])
        wall = time.perf_counter() - start
    busy = sum(
        part["stop"] - part["start"]
        for task in stream.data
        for part in task["startstops"]
        if part["action"] == "compute"
    )
    return wall, busy, result


def bench_dask(
    folder: Path, segments: int, repeat: int, base: tuple[list[str], list[str], list[str]]
) -> dict[str, Any]:
    """bleu_core.scale.dask_bleu.corpus_bleu on a 2-process LocalCluster reading Parquet, against in-process."""
    import dask.dataframe as dd
    import pandas as pd
    from distributed import Client

    import bleu_core
    from bleu_core.scale import dask_bleu as bleu_dask

    hyps, ref1, ref2 = (repeated(lines, segments) for lines in base)
    path = folder / "corpus.parquet"
    dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref1": ref1, "ref2": ref2}), npartitions=16).to_parquet(path)
    ours: list[float] = []
    busy: list[float] = []
    theirs: list[float] = []
    with user_cluster(2) as cluster, Client(cluster):
        bleu_dask.corpus_bleu(dd.read_parquet(path).head(2000, compute=False))  # imports in the workers
        for _ in range(repeat):
            wall, worked, distributed_result = _timed_dask(path)
            ours.append(wall)
            busy.append(worked)
            start = time.perf_counter()
            local_result = bleu_core.corpus_bleu(hyps, [ref1, ref2])
            theirs.append(time.perf_counter() - start)
            print(f"dask {wall:.2f} s (workers busy {worked:.2f} s), in process {theirs[-1]:.2f} s, {os.getloadavg()}")
    ratio = _median(ours) / _median(theirs)
    return {
        "segments": segments,
        "partitions": 16,
        "workers": 2,
        "dask_s": _median(ours),
        "in_process_s": _median(theirs),
        "ratio": ratio,
        "target": TARGETS["dask_ratio"],
        "met": ratio <= TARGETS["dask_ratio"],
        "in_process_us_per_segment": 1e6 * _median(theirs) / segments,
        "worker_busy_us_per_segment": 1e6 * _median(busy) / segments,
        "parallel_efficiency": _median(busy) / (2 * _median(ours)),
        "load_average": os.getloadavg(),
        "identical": distributed_result == local_result,
        "identical_to_repeated_statistics": local_result == repeated_result(base, segments),
        "score": local_result.score_100,
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__.split("\n")[0])
    parser.add_argument("--segments", type=int, default=1_000_000, help="size of the dask task (default 1M)")
    parser.add_argument("--cli-sizes", default="100000,1000000,4000000", help="CLI corpus sizes, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of the dask task (median)")
    parser.add_argument("--tasks", default="dask,cli-memory", help="tasks to run (dask, cli-memory)")
    parser.add_argument("--output", type=Path, default=RESULTS, help="JSON results")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not (data_folder() / PAIR).is_dir():
        print(f"bench.scale: skipped, WMT22 data not found at {data_folder()} (set BLEU_WMT22)")
        return 0
    base = base_lines()
    tasks = set(args.tasks.split(","))
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bleu-scale-") as temporary:
        folder = Path(temporary)
        if "cli-memory" in tasks:
            sizes = [int(size) for size in args.cli_sizes.split(",")]
            results["cli_memory"] = {"rows": bench_cli(folder, sizes, base), "target_mb": TARGETS["cli_peak_mb"]}
        if "dask" in tasks:
            results["dask"] = bench_dask(folder, args.segments, args.repeat, base)
    print(json.dumps(results, indent=2))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
