"""Servers for the serving tests: ``deploy/serve.py`` (workers behind nginx), and nginx alone with its config
from ``deploy/nginx.conf.template`` in front of a stub that records the requests it receives."""

from __future__ import annotations

import http.server
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from deploy.serve import make_nginx_temp, prepare_run, start_nginx

ROOT = Path(__file__).resolve().parents[2]


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free loopback ports."""
    for _ in range(50):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            first = int(sock.getsockname()[1])
        if first + count < 65536 and all(_free(first + k) for k in range(count)):
            return first
    raise RuntimeError(f"no {count} consecutive free ports")


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def need_nginx() -> None:
    if not (shutil.which("nginx") or os.access("/usr/sbin/nginx", os.X_OK)):
        pytest.skip("nginx is not installed (`make nginx` installs it; make test-slow does)")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """``python -m deploy.serve --workers 2`` on free ports; yields the proxy's URL and stops everything after.

    Its run folder is ``tmp_path / "run"``."""
    need_nginx()
    port, worker_port = free_ports(1), free_ports(2)
    command = [sys.executable, "-m", "deploy.serve", "--workers", "2", "--port", str(port)]
    command += ["--worker-port", str(worker_port), "--run-dir", str(tmp_path / "run")]
    output = tmp_path / "serve.out"
    with open(output, "w") as sink:
        process = subprocess.Popen(command, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while "BLEU Explorer on" not in output.read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"deploy.serve did not start:\n{output.read_text()}")
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


@dataclass
class Proxied:
    """nginx as ``make serve`` configures it, in front of a stub worker: its URL, run folder, and the request
    lines the stub received."""

    url: str
    run: Path
    seen: list[str] = field(default_factory=list)


def _stub(seen: list[str]) -> http.server.ThreadingHTTPServer:
    class Stub(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.requestline)
            body = b"stub"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Proxied]:
    """nginx started by ``deploy.serve.start_nginx`` on a free port, its one worker a stub; stopped after."""
    need_nginx()
    seen: list[str] = []
    stub = _stub(seen)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    run, temp, port = prepare_run(tmp_path / "run"), make_nginx_temp(), free_ports(1)
    nginx = start_nginx(run, temp, "127.0.0.1", port, [int(stub.server_address[1])])
    try:
        deadline = time.monotonic() + 10
        while not _listening(port):
            if nginx.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"nginx did not start:\n{(run / 'logs' / 'error.log').read_text()}")
            time.sleep(0.05)
        yield Proxied(f"http://127.0.0.1:{port}", run, seen)
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        stub.shutdown()
        stub.server_close()
        shutil.rmtree(temp, ignore_errors=True)
