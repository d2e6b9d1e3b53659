"""``make serve``: N Streamlit processes behind nginx on one URL, with sticky sessions; Ctrl-C stops all.

    python -m deploy.serve --workers 2 --port 8501

Worker k listens on 127.0.0.1:(worker-port + k). nginx's config is written from ``nginx.conf.template``
beside this file into a run folder (temporary unless ``--run-dir``), with nginx's pid and a ``logs`` folder;
nginx runs in the foreground as a child of this script. The script changes the permissions of no folder it
did not create: the logs (the workers' output, nginx's errors and access log) are files of mode 0600 in a
``logs`` folder of mode 0700 that it makes, and the request bodies nginx keeps on disk go to a temporary
folder of its own, removed when serving stops. The URL is printed only when every worker answers
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
from typing import BinaryIO

from bench.stclient import open_and_run

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("explain", "corpus", "compare", "implementations", "about")
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


def make_folder(path: Path, mode: int) -> bool:
    """Create ``path`` with ``mode`` and return True; return False, changing nothing, if it already exists."""
    try:
        path.mkdir(mode=mode)
    except FileExistsError:
        if not path.is_dir():
            raise SystemExit(f"{path} exists and is not a folder") from None
        return False
    path.chmod(mode)  # mkdir's mode passes through the umask; this folder is ours
    return True


def prepare_run(run_dir: Path | None) -> Path:
    """The run folder (nginx's config and pid) with its ``logs`` folder, changing no folder it did not create.

    ``run_dir`` None: a new temporary folder. A folder this makes is 0700; one that exists keeps its mode,
    whatever it is (on a sticky world-writable folder such as /tmp a chmod would drop the sticky bit). The logs
    hold what students typed (it travels in the pages' links), so ``logs`` must be closed to other users: made
    0700 here, or, if an earlier run left one open, refused rather than changed.
    """
    if run_dir is None:
        run = Path(tempfile.mkdtemp(prefix="bleu-serve-"))  # 0700, ours
    else:
        run = run_dir.absolute()
        run.parent.mkdir(parents=True, exist_ok=True)
        make_folder(run, 0o700)
    run = run.resolve()
    logs = run / "logs"
    if not make_folder(logs, 0o700) and logs.stat().st_mode & 0o077:
        mode = logs.stat().st_mode & 0o777
        raise SystemExit(
            f"{logs} is open to other users (mode {mode:o}) and logs hold what students type: make it 0700 "
            "or remove it (this script changes no folder it did not create)"
        )
    return run


def others_can_enter(path: Path) -> bool:
    """Whether every folder from the root down to ``path`` lets other users pass through (o+x)."""
    return all(folder.stat().st_mode & 0o001 for folder in (path, *path.parents))


def make_nginx_temp() -> Path:
    """A new folder for the request bodies nginx keeps on disk (uploads past 16 KB), removed when serving stops.

    nginx started by root runs its worker as an unprivileged user, which must pass through this folder to the
    ones nginx makes inside it (mode 0700, owned by that user): so 0711 then, and 0700 otherwise (the worker is
    this same user). It is a folder of its own, in the system's temporary folder, so that the run folder can be
    anywhere and stay 0700.
    """
    temp = Path(tempfile.mkdtemp(prefix="bleu-nginx-")).resolve()
    if os.geteuid() == 0:
        temp.chmod(0o711)
        if not others_can_enter(temp.parent):
            shutil.rmtree(temp)
            raise SystemExit(
                f"nginx's worker runs as an unprivileged user and could not reach {temp}: every folder down to "
                "it must let others pass through (o+x). Set TMPDIR to such a folder."
            )
    return temp


def open_log(path: Path) -> BinaryIO:
    """``path`` opened for appending, mode 0600 (created so, or narrowed if an older run left it wider)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.fchmod(descriptor, 0o600)
    return os.fdopen(descriptor, "ab")


def start_worker(port: int, run: Path) -> subprocess.Popen[bytes]:
    log = open_log(run / "logs" / f"worker-{port}.log")  # the child keeps it; closed with the process
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    return subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def write_nginx_config(run: Path, temp: Path, host: str, port: int, worker_ports: list[int]) -> Path:
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in worker_ports)
    text = TEMPLATE.read_text()
    names = {"@RUN@": str(run), "@TEMP@": str(temp), "@HOST@": host, "@PORT@": str(port), "@SERVERS@": servers}
    for name, value in names.items():
        text = text.replace(name, value)
    config = run / "nginx.conf"
    config.write_text(text)
    return config


def start_nginx(run: Path, temp: Path, host: str, port: int, worker_ports: list[int]) -> subprocess.Popen[bytes]:
    """nginx in the foreground, its config written into ``run``; its logs are made 0600 first (nginx: 0644)."""
    config = write_nginx_config(run, temp, host, port, worker_ports)
    for name in ("access.log", "error.log"):
        open_log(run / "logs" / name).close()
    command = [find_nginx(), "-p", str(run), "-c", str(config), "-e", str(run / "logs" / "error.log")]
    return subprocess.Popen([*command, "-g", "daemon off;"])


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
    temp: Path | None = None
    try:
        worker_urls = [f"http://127.0.0.1:{p}" for p in ports]
        wait_healthy(worker_urls, list(pool.values()))
        asyncio.run(warm(worker_urls))
        temp = make_nginx_temp()
        nginx = start_nginx(run, temp, host, port, ports)
        url = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}"
        wait_healthy([url], [nginx])
        pids = ",".join(str(process.pid) for process in pool.values())
        print(f"BLEU Explorer on {url} ({workers} workers, pids {pids}; logs in {run / 'logs'})", flush=True)
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
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description="N Streamlit workers behind nginx with sticky sessions.")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--host", default="127.0.0.1", help="address nginx listens on (0.0.0.0 for a classroom)")
    parser.add_argument("--port", type=int, default=8501, help="the one URL's port")
    parser.add_argument("--worker-port", type=int, default=8601, help="first worker's port (loopback only)")
    parser.add_argument(
        "--run-dir",
        type=Path,
        help="folder for nginx.conf, its pid and logs/ (default: temporary; one that exists keeps its mode)",
    )
    args = parser.parse_args()
    if args.workers < 1:
        parser.error(f"--workers must be at least 1; got {args.workers}")
    return serve(args.workers, args.host, args.port, args.worker_port, prepare_run(args.run_dir))


if __name__ == "__main__":
    sys.exit(main())
