"""Reading hostile files, ours against sacreBLEU's: ``python -m bench.reading`` (``make bench`` runs it).

The shapes of issue 31, each a generated hypothesis file scored against a reference file of as many lines:

* ``cr``: 1 MB of carriage returns.  For sacreBLEU it is one line (only a line feed ends one), empty once
  stripped; before the fix our warning's regex took hours on it;
* ``line-N``: one line of N MB without a line feed (25, 50, 100 and 200 MB by default), a run of ``x``: one
  token, so that the time is the reading, not the scoring.  Before the fix each block was appended to the
  unfinished line (``partial + block``), quadratic in the line's length;
* ``tiny``: two million lines of one character.

Two measurements, medians of ``--repeat`` runs (alternating which side goes first), in CPU seconds (user +
system: on a shared machine other processes stretch wall time, which the JSON output gives as well):

1. the command line end to end: ``python -m bleu_core REF -i HYP -b`` against ``python -m sacrebleu REF -i
   HYP -b``, with the peak memory of each process, and both outputs compared;
2. the reading alone, in this process: :class:`bleu_core.text.sacrebleu_reading.FileLines` against sacreBLEU's
   own loop (``smart_open``, then ``rstrip`` on every line), with a check that both give the same lines.

Targets (issue 31): the command line reads ``cr`` in at most 2 x sacreBLEU's time; ``line-N`` takes time
linear in N (the slowest time per MB at most 1.5 x the fastest, for the command line and for the reading).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MB = 1 << 20
TARGETS = {"cr_cli_ratio": 2.0, "line_linearity": 1.5}
TINY_LINES = 2_000_000


def write_shapes(folder: Path, sizes: Sequence[int], tiny_lines: int) -> dict[str, tuple[Path, Path]]:
    """(reference, hypothesis) for every shape, written in ``folder``."""
    one = folder / "ref-one-line.txt"
    one.write_bytes(b"x\n")
    shapes = {"cr": (one, folder / "cr.txt")}
    shapes["cr"][1].write_bytes(b"\r" * MB)
    for size in sizes:
        path = folder / f"line-{size}.txt"
        with open(path, "wb") as handle:
            for _ in range(size):
                handle.write(b"x" * MB)
        shapes[f"line-{size}"] = (one, path)
    tiny = folder / "tiny.txt"
    tiny.write_bytes(b"a\n" * tiny_lines)
    shapes["tiny"] = (tiny, tiny)
    return shapes


def timed_process(command: Sequence[str]) -> tuple[float, int, str, float]:
    """CPU seconds (user + system), peak resident memory (MB), standard output and wall seconds of one run.

    CPU time, not wall time, is compared: on a shared machine other processes' load stretches wall time.
    Raises when the command fails.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(list(command), cwd=ROOT, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}): {err.read().decode()[-500:]}")
        cpu = usage.ru_utime + usage.ru_stime
        return cpu, usage.ru_maxrss // 1024, out.read().decode(), seconds


def cli_commands(ref: Path, hyp: Path) -> tuple[list[str], list[str]]:
    ours = [sys.executable, "-m", "bleu_core", str(ref), "-i", str(hyp), "-b", "-q"]
    theirs = [sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), "-b", "-q"]
    return ours, theirs


def _warm_up(path: Path) -> None:
    """Import both readers before anything is timed."""
    ours_read(path)
    sacrebleu_read(path)


def ours_read(path: Path) -> list[str]:
    from bleu_core.cli.main import BLOCK_BYTES, CHUNK_LINES
    from bleu_core.text.sacrebleu_reading import FileLines

    source = FileLines(str(path), "utf-8")
    lines: list[str] = []
    try:
        while chunk := source.take(CHUNK_LINES, BLOCK_BYTES):
            lines += chunk
    finally:
        source.close()
    return lines


def sacrebleu_read(path: Path) -> list[str]:
    """sacreBLEU's reading of a system file (``sacrebleu.py``: ``for line in smart_open(...)``)."""
    from sacrebleu import utils

    smart_open: Any = utils.smart_open
    with smart_open(str(path), encoding="utf-8") as handle:
        return [line.rstrip() for line in handle]


def alternate(ours: Callable[[], Any], theirs: Callable[[], Any], repeat: int) -> tuple[list[Any], list[Any]]:
    """Each side's results, ``repeat`` times, alternating which goes first."""
    mine: list[Any] = []
    other: list[Any] = []
    for rep in range(repeat):
        order = ((ours, mine), (theirs, other)) if rep % 2 == 0 else ((theirs, other), (ours, mine))
        for run, results in order:
            results.append(run())
    return mine, other


def _timed_read(read: Callable[[Path], list[str]], path: Path) -> tuple[float, list[str]]:
    """CPU seconds of this process spent reading, and the lines."""
    start = time.process_time()
    lines = read(path)
    return time.process_time() - start, lines


def bench_cli(name: str, ref: Path, hyp: Path, repeat: int) -> dict[str, Any]:
    """The command line on one shape, both sides."""
    ours_cmd, theirs_cmd = cli_commands(ref, hyp)
    ours_runs, theirs_runs = alternate(lambda: timed_process(ours_cmd), lambda: timed_process(theirs_cmd), repeat)
    row = {
        "shape": name,
        "size_mb": round(hyp.stat().st_size / MB, 2),
        "cli_ours_s": statistics.median(r[0] for r in ours_runs),
        "cli_sacrebleu_s": statistics.median(r[0] for r in theirs_runs),
        "cli_ours_wall_s": statistics.median(r[3] for r in ours_runs),
        "cli_sacrebleu_wall_s": statistics.median(r[3] for r in theirs_runs),
        "cli_ours_peak_mb": max(r[1] for r in ours_runs),
        "cli_sacrebleu_peak_mb": max(r[1] for r in theirs_runs),
        "same_output": ours_runs[0][2] == theirs_runs[0][2],
    }
    row["cli_ratio"] = row["cli_ours_s"] / row["cli_sacrebleu_s"]
    return row


def bench_read(row: dict[str, Any], hyp: Path, repeat: int) -> None:
    """The reading alone, in this process, both sides (added to ``row``)."""
    ours_reads, theirs_reads = alternate(
        lambda: _timed_read(ours_read, hyp), lambda: _timed_read(sacrebleu_read, hyp), 1
    )
    row["same_lines"] = ours_reads[0][1] == theirs_reads[0][1]
    del ours_reads, theirs_reads  # let the lines go
    ours, theirs = alternate(
        lambda: _timed_read(ours_read, hyp)[0], lambda: _timed_read(sacrebleu_read, hyp)[0], repeat
    )
    row["read_ours_s"] = statistics.median(ours)
    row["read_sacrebleu_s"] = statistics.median(theirs)
    row["read_ratio"] = row["read_ours_s"] / row["read_sacrebleu_s"]


def linearity(rows: list[dict[str, Any]], key: str, fixed: float = 0.0) -> float:
    """The slowest time per MB over the fastest, among the one-line shapes (1.0: perfectly linear).

    ``fixed``: the time of a run on a one-line file (the command's start), taken off each time first.
    """
    per_mb = [max(row[key] - fixed, 1e-9) / row["size_mb"] for row in rows if row["shape"].startswith("line-")]
    return max(per_mb) / min(per_mb) if len(per_mb) > 1 else 1.0


def summary(rows: list[dict[str, Any]], start_seconds: float) -> dict[str, Any]:
    cr = next(row for row in rows if row["shape"] == "cr")
    checks = {
        "cr_cli_ratio": (cr["cli_ratio"], TARGETS["cr_cli_ratio"]),
        "line_cli_linearity": (linearity(rows, "cli_ours_s", start_seconds), TARGETS["line_linearity"]),
        "line_read_linearity": (linearity(rows, "read_ours_s"), TARGETS["line_linearity"]),
    }
    return {
        name: {"value": round(value, 3), "target": target, "met": value <= target}
        for name, (value, target) in checks.items()
    } | {"identical": all(row["same_output"] and row["same_lines"] for row in rows)}


def print_table(rows: list[dict[str, Any]], checks: dict[str, Any]) -> None:
    header = (
        f"{'shape':<10} {'MB':>7} | {'CLI ours':>9} {'sacreBLEU':>9} {'ratio':>6} {'peak MB':>15} | "
        f"{'read ours':>9} {'sacreBLEU':>9} {'ratio':>6} | same"
    )
    print("CPU seconds (user + system), medians; peak resident memory of the command, ours/sacreBLEU")
    print(header)
    print("-" * len(header))
    for row in rows:
        peaks = f"{row['cli_ours_peak_mb']}/{row['cli_sacrebleu_peak_mb']}"
        print(
            f"{row['shape']:<10} {row['size_mb']:>7.1f} | {row['cli_ours_s']:>8.3f}s {row['cli_sacrebleu_s']:>8.3f}s "
            f"{row['cli_ratio']:>6.2f} {peaks:>15} | {row['read_ours_s']:>8.3f}s {row['read_sacrebleu_s']:>8.3f}s "
            f"{row['read_ratio']:>6.2f} | {'yes' if row['same_output'] and row['same_lines'] else 'NO'}"
        )
    print()
    for name, check in checks.items():
        if name == "identical":
            print(f"identical outputs and lines: {'yes' if check else 'NO'}")
        else:
            print(f"{name}: {check['value']} (target <= {check['target']}) {'met' if check['met'] else 'NOT MET'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="25,50,100,200", help="MB of the one-line files (default 25,50,100,200)")
    parser.add_argument("--tiny-lines", type=int, default=TINY_LINES, help="lines of the many-lines file")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side (the median is reported)")
    parser.add_argument("--output", type=Path, default=None, help="also write the rows and checks as JSON")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",") if size]
    with tempfile.TemporaryDirectory(prefix="bench-reading-") as folder:
        shapes = write_shapes(Path(folder), sizes, args.tiny_lines)
        one = shapes["cr"][0]
        # The command's fixed cost (imports, start): the fastest of a few runs on a one-line file.
        start_seconds = min(timed_process(cli_commands(one, one)[0])[0] for _ in range(max(args.repeat, 3)))
        # Every command first: a child's peak memory counts what it shares with this process before it starts
        # the interpreter, so this process stays small until the commands are done.
        rows = []
        for name, (ref, hyp) in shapes.items():
            rows.append(bench_cli(name, ref, hyp, args.repeat))
            print(f"  {name}: command done", file=sys.stderr, flush=True)
        _warm_up(one)
        for row, (_, hyp) in zip(rows, shapes.values(), strict=True):
            bench_read(row, hyp, args.repeat)
            print(f"  {row['shape']}: reading done", file=sys.stderr, flush=True)
    checks = summary(rows, start_seconds)
    print(f"command start (a one-line file): {start_seconds:.3f} s of CPU, taken off before the linearity check")
    print_table(rows, checks)
    if args.output is not None:
        args.output.write_text(json.dumps({"rows": rows, "checks": checks}, indent=1) + "\n", encoding="utf-8")
    return 0 if checks["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
