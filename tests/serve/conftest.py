"""Servers for the serving tests: a plain Streamlit app, and ``deploy/serve.py`` (workers behind nginx)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

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


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """``python -m deploy.serve --workers 2`` on free ports; yields the proxy's URL and stops everything after."""
    if not (shutil.which("nginx") or os.access("/usr/sbin/nginx", os.X_OK)):
        pytest.skip("nginx is not installed (make test-slow installs it)")
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
