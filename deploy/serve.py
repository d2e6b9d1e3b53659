"""``make serve``: N Streamlit processes behind nginx on one URL, with sticky sessions; Ctrl-C stops all.

    python -m deploy.serve --workers 2 --port 8501

Worker k listens on 127.0.0.1:(worker-port + k). nginx's config is written from ``nginx.conf.template``
beside this file into a run folder (temporary unless ``--run-dir``), with the logs and nginx's pid; nginx runs
in the foreground as a child of this script. The URL is printed only when every worker answers
``/_stcore/health``, has run every page once (a process's first run of a page imports and fills its caches:
about a second for Explain, against 0.2 s after), and nginx answers the health route too. A worker that
exits is started again on its port (its sessions are lost; their tabs reconnect and start over); if nginx
exits, everything stops.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from types import FrameType

from bench.stclient import open_and_run

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("explain", "corpus", "compare", "implementations", "home")
TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"


def healthy(url: str) -> bool:
    with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
        return bool(response.status == 200)
    return False


def wait_healthy(urls: list[str], processes: list[subprocess.Popen[bytes]], timeout: float = 90.0) -> None:
    """Until every URL answers its health route; fails early if one of ``processes`` has exited."""
    deadline = time.monotonic() + timeout
    waiting = list(urls)
    while waiting:
        if time.monotonic() > deadline:
            raise RuntimeError(f"not healthy after {timeout:.0f} s: {', '.join(waiting)}")
        if any(process.poll() is not None for process in processes):
            raise RuntimeError("a process exited while starting; see the logs in the run folder")
        waiting = [url for url in waiting if not healthy(url)]
        time.sleep(0.3)


async def warm(urls: list[str]) -> None:
    """Run every page once in each worker, one page at a time per worker, so no visitor pays the first run."""
    for page in PAGES:
        for session, result in await asyncio.gather(*(open_and_run(url, page) for url in urls)):
            session.close()
            if not result.finished or result.exceptions:
                raise RuntimeError(f"warming {page} on {session.base_url}: {result.status}")


def start_worker(port: int, run: Path) -> subprocess.Popen[bytes]:
    log = open(run / f"worker-{port}.log", "ab")  # noqa: SIM115 - the child keeps it; closed with the process
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    return subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def write_nginx_config(run: Path, host: str, port: int, worker_ports: list[int]) -> Path:
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in worker_ports)
    text = TEMPLATE.read_text()
    for name, value in {"@RUN@": str(run), "@HOST@": host, "@PORT@": str(port), "@SERVERS@": servers}.items():
        text = text.replace(name, value)
    (run / "temp").mkdir(exist_ok=True)
    config = run / "nginx.conf"
    config.write_text(text)
    return config


def find_nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if found is None:
        raise SystemExit("nginx not found: `make serve` installs it (apt-get install nginx)")
    return found


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGINT (Ctrl-C) and SIGTERM stop the server."""
    raise KeyboardInterrupt


def serve(workers: int, host: str, port: int, worker_port: int, run: Path) -> int:
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, interrupt)  # also when started in the background, where SIGINT is ignored
    ports = [worker_port + k for k in range(workers)]
    pool = {p: start_worker(p, run) for p in ports}
    nginx: subprocess.Popen[bytes] | None = None
    try:
        worker_urls = [f"http://127.0.0.1:{p}" for p in ports]
        wait_healthy(worker_urls, list(pool.values()))
        asyncio.run(warm(worker_urls))
        config = write_nginx_config(run, host, port, ports)
        nginx_command = [find_nginx(), "-p", str(run), "-c", str(config), "-e", str(run / "error.log")]
        nginx = subprocess.Popen([*nginx_command, "-g", "daemon off;"])
        url = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}"
        wait_healthy([url], [nginx])
        pids = ",".join(str(process.pid) for process in pool.values())
        print(f"BLEU Explorer on {url} ({workers} workers, pids {pids}; logs in {run})", flush=True)
        while nginx.poll() is None:
            time.sleep(0.5)
            for p, process in pool.items():
                if process.poll() is not None:
                    print(f"worker on {p} exited ({process.returncode}); starting it again", file=sys.stderr)
                    pool[p] = start_worker(p, run)
        print(f"nginx exited ({nginx.returncode}); stopping", file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        stop([*([nginx] if nginx else []), *pool.values()])


def main() -> int:
    parser = argparse.ArgumentParser(description="N Streamlit workers behind nginx with sticky sessions.")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--host", default="127.0.0.1", help="address nginx listens on (0.0.0.0 for a classroom)")
    parser.add_argument("--port", type=int, default=8501, help="the one URL's port")
    parser.add_argument("--worker-port", type=int, default=8601, help="first worker's port (loopback only)")
    parser.add_argument("--run-dir", type=Path, help="folder for nginx.conf, logs and pids (default: temporary)")
    args = parser.parse_args()
    if args.workers < 1:
        parser.error(f"--workers must be at least 1; got {args.workers}")
    run = args.run_dir or Path(tempfile.mkdtemp(prefix="bleu-serve-"))
    run.mkdir(parents=True, exist_ok=True)
    run.chmod(0o755)  # nginx's worker runs as an unprivileged user and keeps request bodies in run/temp
    return serve(args.workers, args.host, args.port, args.worker_port, run.resolve())


if __name__ == "__main__":
    sys.exit(main())
