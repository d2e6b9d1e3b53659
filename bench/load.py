"""Many sessions at once: ``python -m bench.load`` (report) or ``python -m bench.load --sessions 100 --page corpus``.

Each session is a headless tab (``bench.stclient``): the page's HTML, the websocket, one ``rerun_script``,
timed to ``script_finished``. Exceptions shown on the page and dropped connections are counted.

The floor is a one-line Streamlit app (``st.write("hi")``) that this tool starts itself on another port, with
the same config, and measures in the same run: the cost of a Streamlit run on this machine with no app work.
Every time is reported beside its ratio to the floor's (p50 to p50, p95 to p95, at the same concurrency).

Without ``--url`` the tool also starts the app itself (one process, ``streamlit run app.py``); with
``--url http://127.0.0.1:8501`` it measures a running ``make serve``. ``--pids`` (comma-separated, the
supervisor prints them) adds the peak resident memory of those processes; ``--soak 500`` first opens that
many sessions, 25 at a time, so the peak reflects a long class. Results also go to ``bench/results/load.json``.

``--hostile`` measures one careless student against the class (issue targets, bleu_core/limits.py): 30 sessions
run Explain at once alone, then again while one more session pastes a 200,000-token candidate and reference and
keeps rerunning; the others' p95 with it must stay within 1.5x their p95 without it. Then 500 ordinary sessions
open, and the worker's resident memory afterwards must stay under 600 MB. Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.stclient import RunResult, open_and_run

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "load.json"
PAGES = ("explain", "corpus", "compare", "implementations", "home")
FLOOR_APP = 'import streamlit as st\n\nst.write("hi")\n'
#: The Explain page's text boxes (English labels) and the hostile paste's size.
CANDIDATE_LABEL = "Candidate (the system output)"
REFERENCES_LABEL = "References (one per line, any number)"
HOSTILE_TOKENS = 200_000
#: Seconds between the hostile session's reruns after its paste (a person clicking, not a loop).
RERUN_PAUSE = 1.0
#: Targets of the hostile scenario: the others' p95 ratio, and the worker's memory after 500 more sessions.
HOSTILE_P95_RATIO = 1.5
HOSTILE_RSS_MB = 600.0


@dataclass(frozen=True)
class Summary:
    """Runs of one scenario: how many were served, p50/p95 seconds, exceptions and dropped connections."""

    name: str
    sessions: int
    served: int
    p50: float
    p95: float
    exceptions: int
    dropped: int


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (``fraction`` in (0, 1]); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def summarize(name: str, results: Sequence[RunResult]) -> Summary:
    times = [r.seconds for r in results if r.finished]
    return Summary(
        name=name,
        sessions=len(results),
        served=len(times),
        p50=percentile(times, 0.5),
        p95=percentile(times, 0.95),
        exceptions=sum(r.exceptions for r in results),
        dropped=sum(not r.finished for r in results),
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_healthy(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            if response.status == 200:
                return
        time.sleep(0.3)
    raise RuntimeError(f"no healthy Streamlit server at {url} after {timeout:.0f} s")


@contextlib.contextmanager
def streamlit_server(script: Path, extra: Sequence[str] = ()) -> Iterator[tuple[str, int]]:
    """``streamlit run script`` on a free loopback port (config from the repository, then ``extra`` options);
    yields (url, pid)."""
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true", *extra]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url)
        yield url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def at_once(url: str, page: str, sessions: int) -> list[RunResult]:
    """``sessions`` new tabs on ``page`` opened together; each one's first run."""
    pairs = await asyncio.gather(*(open_and_run(url, page) for _ in range(sessions)))
    for session, _ in pairs:
        session.close()
    return [result for _, result in pairs]


async def one_by_one(url: str, page: str, repeats: int) -> list[RunResult]:
    """``repeats`` new tabs on ``page``, one after the other."""
    results = []
    for _ in range(repeats):
        session, result = await open_and_run(url, page)
        session.close()
        results.append(result)
    return results


async def reruns_after_change(url: str, repeats: int) -> list[RunResult]:
    """Explain's rerun after ticking "lowercase", in ``repeats`` tabs one after the other."""
    results = []
    for _ in range(repeats):
        session, first = await open_and_run(url, "explain")
        if first.finished and "lowercase" in session.widgets:
            results.append(await session.run(changes={"lowercase": True}))
        else:
            results.append(RunResult(first.seconds, first.exceptions, False, "no lowercase checkbox"))
        session.close()
    return results


def peak_rss_mb(pids: Sequence[int]) -> dict[int, float]:
    """Peak resident memory (VmHWM) per process, in MB; Linux only."""
    peaks = {}
    for pid in pids:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    peaks[pid] = int(line.split()[1]) / 1024
    return peaks


async def soak(url: str, total: int, page_cycle: Sequence[str] = ("explain", "corpus")) -> int:
    """Open ``total`` sessions, 25 at a time, cycling through pages; returns how many finished."""
    finished = 0
    for start in range(0, total, 25):
        page = page_cycle[(start // 25) % len(page_cycle)]
        results = await at_once(url, page, min(25, total - start))
        finished += sum(r.finished for r in results)
    return finished


def hostile_text(tokens: int = HOSTILE_TOKENS, seed: int = 1) -> str:
    """A long paste: ``tokens`` words from a 5,000-word vocabulary and a few frequent ones."""
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(5000)] + ["the", "a", "of", "cat", "dog"] * 400
    return " ".join(rng.choice(vocabulary) for _ in range(tokens))


async def hostile_session(url: str, stop: asyncio.Event, tokens: int = HOSTILE_TOKENS) -> list[RunResult]:
    """One tab on Explain that pastes ``tokens`` tokens as candidate and reference, then reruns every
    :data:`RERUN_PAUSE` seconds until ``stop``."""
    session, first = await open_and_run(url, "explain")
    results = [first]
    try:
        if not first.finished or CANDIDATE_LABEL not in session.widgets:
            return [*results, RunResult(first.seconds, first.exceptions, False, "no text boxes")]
        paste = {CANDIDATE_LABEL: hostile_text(tokens, 1), REFERENCES_LABEL: hostile_text(tokens, 2)}
        results.append(await session.run(changes=dict(paste)))
        while not stop.is_set():  # then clicks about once a second, as a student reading the page does
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), RERUN_PAUSE)
            if not stop.is_set():
                results.append(await session.run())
    finally:
        session.close()
    return results


def current_rss_mb(pid: int) -> float:
    """Resident memory (VmRSS) of a process now, in MB; NaN where /proc cannot tell."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return math.nan


@dataclass(frozen=True)
class HostileReport:
    """The others' Explain runs without and with the hostile session, its own runs, and the worker's memory."""

    alone: Summary
    beside: Summary
    hostile: Summary
    ratio: float
    rss_mb: float
    soaked: int

    @property
    def passed(self) -> bool:
        return self.ratio <= HOSTILE_P95_RATIO and self.rss_mb <= HOSTILE_RSS_MB and self.beside.dropped == 0


async def measure_hostile(
    url: str, pid: int, others: int = 30, rounds: int = 2, soak_sessions: int = 500
) -> HostileReport:
    """``others`` Explain sessions at once, ``rounds`` times alone and ``rounds`` times beside the hostile one."""
    warm = [(await open_and_run(url, page))[0] for page in ("explain", "corpus")]
    try:
        alone: list[RunResult] = []
        for _ in range(rounds):
            alone += await at_once(url, "explain", others)
        stop = asyncio.Event()
        hostile = asyncio.ensure_future(hostile_session(url, stop))
        await asyncio.sleep(1.0)  # the paste is on its way (its first run holds the worker meanwhile)
        beside: list[RunResult] = []
        for _ in range(rounds):
            beside += await at_once(url, "explain", others)
        stop.set()
        own = await hostile
        soaked = await soak(url, soak_sessions) if soak_sessions else 0
    finally:
        for session in warm:
            session.close()
    await asyncio.sleep(2.0)  # closed sessions are cleaned up
    first, second = summarize("alone", alone), summarize("beside the paste", beside)
    return HostileReport(
        first, second, summarize("the paste", own), second.p95 / first.p95, current_rss_mb(pid), soaked
    )


def hostile_report(result: HostileReport) -> str:
    lines = [f"{'scenario':<24} {'served':>8} {'p50 s':>7} {'p95 s':>7} {'exc':>4} {'drop':>4}"]
    for s in (result.alone, result.beside, result.hostile):
        lines.append(
            f"{s.name:<24} {s.served:>4}/{s.sessions:<3} {s.p50:>7.3f} {s.p95:>7.3f} {s.exceptions:>4} {s.dropped:>4}"
        )
    lines.append(f"others' p95 beside the paste / alone: {result.ratio:.2f} (target <= {HOSTILE_P95_RATIO})")
    lines.append(
        f"worker RSS after {result.soaked} more sessions: {result.rss_mb:.0f} MB (target <= {HOSTILE_RSS_MB:.0f})"
    )
    lines.append("PASS" if result.passed else "FAIL")
    return "\n".join(lines)


def scenarios(sessions: int | None, page: str) -> list[tuple[str, str, int]]:
    """(kind, page, count) to run; ``--sessions`` picks one concurrency scenario, else the full report."""
    if sessions is not None:
        return [("at_once", page, sessions)]
    plan = [("single", name, 3) for name in PAGES] + [("rerun", "explain", 3)]
    return plan + [("at_once", name, count) for count in (25, 100) for name in ("explain", "corpus")]


async def measure(url: str, floor_url: str, plan: list[tuple[str, str, int]]) -> tuple[list[Summary], list[Summary]]:
    """Run each scenario on the floor, then at once on the app, so that both see the same machine load.

    One unmeasured tab per page comes first: a process's first run of a page imports modules and fills caches
    (``make serve`` does the same for each worker before it prints its URL). The first tab of each server stays
    open until the end: Streamlit drops its compiled page scripts whenever its last tab closes, and a class's
    server always has some tab open, so tabs measured one after the other should not pay that compile.
    """
    warm = [(await open_and_run(url, page))[0] for page in PAGES] + [(await open_and_run(floor_url, "explain"))[0]]
    for session in warm[1:-1]:
        session.close()
    app: list[Summary] = []
    floor: list[Summary] = []
    try:
        for kind, page, count in plan:
            for target, summaries in ((floor_url, floor), (url, app)):
                summary = await scenario(target, kind, page, count, floor=target == floor_url)
                summaries.append(Summary(**{**asdict(summary), "name": f"{kind} {page} x{count}"}))
                label = "floor" if target == floor_url else "app  "
                print(f"  {label} {summaries[-1].name:<28} served {summary.served}/{summary.sessions}", flush=True)
    finally:
        warm[0].close()
        warm[-1].close()
    return app, floor


async def scenario(url: str, kind: str, page: str, count: int, floor: bool) -> Summary:
    """One scenario on one server; the floor app has one page (no checkbox), so it runs that page each time."""
    if floor:
        page = "explain"
    if kind == "single" or (kind == "rerun" and floor):
        results = await one_by_one(url, page, count)
    elif kind == "rerun":
        results = await reruns_after_change(url, count)
    else:
        results = await at_once(url, page, count)
    return summarize(f"{kind} {page} x{count}", results)


def report(app: list[Summary], floor: list[Summary], rss: dict[int, float]) -> str:
    lines = [
        f"{'scenario':<28} {'served':>8} {'p50 s':>7} {'p95 s':>7} {'floor p50':>9} {'floor p95':>9} "
        f"{'p50 x':>6} {'p95 x':>6} {'exc':>4} {'drop':>4}"
    ]
    for mine, base in zip(app, floor, strict=True):
        lines.append(
            f"{mine.name:<28} {mine.served:>4}/{mine.sessions:<3} {mine.p50:>7.3f} {mine.p95:>7.3f} "
            f"{base.p50:>9.3f} {base.p95:>9.3f} {mine.p50 / base.p50:>6.2f} {mine.p95 / base.p95:>6.2f} "
            f"{mine.exceptions:>4} {mine.dropped:>4}"
        )
    for pid, peak in sorted(rss.items()):
        lines.append(f"peak RSS of process {pid}: {peak:.0f} MB")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", help="a running app (e.g. make serve's URL); default: start app.py here")
    parser.add_argument("--sessions", type=int, help="one scenario: this many sessions at once on --page")
    parser.add_argument("--page", default="explain", choices=PAGES)
    parser.add_argument("--pids", default="", help="comma-separated server process ids whose peak RSS to report")
    parser.add_argument("--soak", type=int, default=0, help="open this many sessions first (25 at a time)")
    parser.add_argument(
        "--floor-gc",
        action="store_true",
        help="the floor keeps Streamlit's default full garbage collection after each run (the repository's "
        "config turns it off; with it on, the floor is a one-line app as Streamlit ships)",
    )
    parser.add_argument(
        "--hostile",
        action="store_true",
        help="one session pastes 200,000 tokens on Explain while 30 others use it; then 500 sessions (targets checked)",
    )
    args = parser.parse_args(argv)
    if args.hostile:
        return run_hostile(args.url, args.pids, args.soak or 500)
    plan = scenarios(args.sessions, args.page)
    pids = [int(pid) for pid in args.pids.split(",") if pid]
    with contextlib.ExitStack() as stack:
        url = args.url.rstrip("/") if args.url else None
        if url is None:
            url, pid = stack.enter_context(streamlit_server(ROOT / "app.py"))
            pids.append(pid)
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        (folder / "floor.py").write_text(FLOOR_APP)
        extra = ["--runner.postScriptGC", "true"] if args.floor_gc else []
        floor_url, _ = stack.enter_context(streamlit_server(folder / "floor.py", extra))
        print(f"app {url}, floor {floor_url}, {os.cpu_count()} cores", flush=True)
        app, floor = asyncio.run(measure(url, floor_url, plan))
        if args.soak:
            served = asyncio.run(soak(url, args.soak))
            print(f"soak: {served}/{args.soak} sessions finished", flush=True)
        rss = peak_rss_mb(pids)
    text = report(app, floor, rss)
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    record = {"app": [asdict(s) for s in app], "floor": [asdict(s) for s in floor], "peak_rss_mb": rss}
    record.update({"soak": args.soak, "url": args.url or "app.py", "floor_gc": args.floor_gc})
    RESULTS.write_text(json.dumps(record, indent=2))
    failed = any(s.served < s.sessions or s.exceptions for s in app)
    return 1 if failed else 0


def run_hostile(url: str | None, pids: str, soak_sessions: int) -> int:
    """The ``--hostile`` scenario on a running worker (``--url`` with one ``--pids``) or on one started here."""
    with contextlib.ExitStack() as stack:
        if url is None:
            url, pid = stack.enter_context(streamlit_server(ROOT / "app.py"))
        else:
            pid = int(pids.split(",")[0])
        print(f"app {url} (pid {pid}), {os.cpu_count()} cores", flush=True)
        result = asyncio.run(measure_hostile(url.rstrip("/"), pid, soak_sessions=soak_sessions))
    print(hostile_report(result))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    (RESULTS.parent / "load_hostile.json").write_text(json.dumps(asdict(result), indent=2))
    return 0 if result.passed else 1


if __name__ == "__main__":
    sys.exit(main())
