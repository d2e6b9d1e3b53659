"""``make serve`` end to end: 20 tabs through nginx to 2 workers, each tab's state stays on its worker; the longest
accepted link gets through; the logs are private."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import stat
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest

from bench.stclient import Session, open_and_run
from bleu_core.limits import LIMITS
from tests.serve.test_load_client import run_apart

SESSIONS = 20


async def tab(url: str, scramble_route: bool) -> tuple[Session, list[bool], int, bool]:
    """A tab on Explain: first run, an upload, a widget change, then a dropped and resumed websocket.

    Returns the session, whether each run finished without exception, the upload's HTTP status, and whether
    the resumed websocket got the same session back with the changed value still in the page's URL.
    """
    session, first = await open_and_run(url, "explain")
    if scramble_route:  # the control: a route cookie of its own on every request, as if nothing were sticky
        session.cookies["bleu_route"] = uuid.uuid4().hex
    upload = await session.upload("hypotheses.txt", b"the cat sat on the mat\n")
    changed = await session.run(session.query_string, changes={"lowercase": True})
    session_id = session.session_id
    session.close()
    if scramble_route:
        session.cookies["bleu_route"] = uuid.uuid4().hex
    await session.connect(resume=True)
    resumed = await session.run(session.query_string)
    session.close()
    kept = session.session_id == session_id and "lowercase=1" in session.query_string
    runs = [r.finished and r.exceptions == 0 for r in (first, changed, resumed)]
    return session, runs, upload, kept


async def tabs(url: str, scramble_route: bool) -> list[tuple[Session, list[bool], int, bool]]:
    return await asyncio.gather(*(tab(url, scramble_route) for _ in range(SESSIONS)))


@pytest.mark.slow
def test_twenty_tabs_through_the_proxy_keep_their_worker(served: str) -> None:
    sticky = run_apart(tabs(served, scramble_route=False))
    assert all(all(runs) for _, runs, _, _ in sticky), [runs for _, runs, _, _ in sticky]
    assert [upload for _, _, upload, _ in sticky] == [204] * SESSIONS
    assert all(kept for *_, kept in sticky)
    assert len({session.cookies["bleu_route"] for session, *_ in sticky}) == SESSIONS
    # Without the cookie the same requests land on either worker: some uploads and resumes miss the session.
    # (The chance that all 20 land right by luck is 2**-20 for the uploads alone.)
    scrambled = run_apart(tabs(served, scramble_route=True))
    assert any(upload == 400 for _, _, upload, _ in scrambled)
    assert not all(kept for *_, kept in scrambled)


def send_in_packets(port: int, target: str) -> bytes:
    """A GET whose head arrives in pieces of one network packet, as over a network; the status line back."""
    head = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        try:
            for start in range(0, len(head), 1400):
                sock.sendall(head[start : start + 1400])
                time.sleep(0.001)
            return sock.recv(4096).split(b"\r\n", 1)[0]
        except OSError as error:  # the server closed the connection mid-request
            return repr(error).encode()


@pytest.mark.slow
def test_a_running_server_takes_the_longest_link_and_keeps_its_logs_private(served: str, tmp_path: Path) -> None:
    run = tmp_path / "run"
    config = (run / "nginx.conf").read_text()
    name = "candidate="
    link = name + urllib.parse.quote("中" * (LIMITS.link_chars - len(name)))  # 72,000 bytes
    proxy_port = int(served.rsplit(":", 1)[1])
    assert send_in_packets(proxy_port, f"/explain?{link}") == b"HTTP/1.1 200 OK"
    # The control: a worker itself refuses such a head (uvicorn's h11 stops at 16 KB); nginx does not pass it on.
    worker_port = int(re.findall(r"server 127\.0\.0\.1:(\d+)", config)[0])
    assert send_in_packets(worker_port, f"/explain?{link}") != b"HTTP/1.1 200 OK"

    logs = run / "logs"
    assert stat.S_IMODE(logs.stat().st_mode) == 0o700
    files = {path.name: stat.S_IMODE(path.stat().st_mode) for path in logs.iterdir()}
    assert set(files) >= {"access.log", "error.log"} and len(files) == 4  # and the two workers' logs
    assert set(files.values()) == {0o600}
    assert "candidate" not in (logs / "access.log").read_text()
    temp = Path(re.findall(r"client_body_temp_path (\S+)/body;", config)[0])
    assert stat.S_IMODE(temp.stat().st_mode) == (0o711 if os.geteuid() == 0 else 0o700)
    assert not temp.is_relative_to(run)
