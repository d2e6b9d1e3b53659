"""nginx as ``make serve`` runs it, in front of a stub worker: what a client and the worker see of it."""

from __future__ import annotations

import http.client
import stat
import time
import urllib.parse
from pathlib import Path

import pytest

from bleu_core.limits import LIMITS
from tests.serve.conftest import Proxied

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "frame-ancestors 'self'",
    "X-Frame-Options": "SAMEORIGIN",
    "Referrer-Policy": "no-referrer",
}


def connect(url: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection(urllib.parse.urlsplit(url).netloc, timeout=10)


def get(url: str, target: str) -> http.client.HTTPResponse:
    connection = connect(url)
    connection.request("GET", target)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def longest_link(character: str) -> str:
    """A query string of LIMITS.link_chars characters once decoded, as the browser sends it (percent-encoded)."""
    name = "candidate="
    return name + urllib.parse.quote(character * (LIMITS.link_chars - len(name)))


def test_every_response_carries_the_security_headers_and_no_version(proxied: Proxied) -> None:
    for target in ("/", "/explain?candidate=x", "/_stcore/health", "/static/js/main.js"):
        response = get(proxied.url, target)
        assert response.status == 200
        assert {name: response.getheader(name) for name in HEADERS} == HEADERS, target
        assert response.getheader("Server") == "nginx"


def test_a_link_of_the_longest_accepted_length_gets_through(proxied: Proxied) -> None:
    # 8,000 Chinese characters: 72,000 bytes percent-encoded; outside the BMP (4 bytes of UTF-8): 96,000.
    for character in ("中", "𠀀"):
        link = longest_link(character)
        assert len(urllib.parse.unquote(link)) == LIMITS.link_chars
        assert get(proxied.url, f"/explain?{link}").status == 200
    # The page's HTML is the same whatever the link (the browser reads the link): the worker never gets it.
    assert proxied.seen == ["GET /explain HTTP/1.1"] * 2


def test_streamlit_routes_keep_their_query_strings(proxied: Proxied) -> None:
    assert get(proxied.url, "/_stcore/health?families=a").status == 200
    assert get(proxied.url, "/media/x.csv?title=y").status == 200
    assert proxied.seen == ["GET /_stcore/health?families=a HTTP/1.1", "GET /media/x.csv?title=y HTTP/1.1"]


def test_a_link_past_the_buffers_is_refused_by_nginx(proxied: Proxied) -> None:
    assert get(proxied.url, "/explain?candidate=" + "a" * 140_000).status == 414
    assert proxied.seen == []


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_logs_are_private_and_hold_no_students_text(proxied: Proxied) -> None:
    assert get(proxied.url, "/explain?candidate=" + urllib.parse.quote("my secret essay")).status == 200
    logs = proxied.run / "logs"
    assert mode(logs) == 0o700
    assert {path.name: mode(path) for path in logs.iterdir()} == {"access.log": 0o600, "error.log": 0o600}
    deadline = time.monotonic() + 5
    while "GET /explain " not in (logs / "access.log").read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    access = (logs / "access.log").read_text()
    assert '"GET /explain HTTP/1.1" 200' in access
    assert "secret" not in access and "candidate" not in access


@pytest.mark.slow
def test_requests_past_a_clients_burst_get_429(proxied: Proxied) -> None:
    """One address may send 1,000 requests to Streamlit's routes at once, then 100 a second."""
    connection = connect(proxied.url)
    statuses = []
    start = time.monotonic()
    for _ in range(3000):
        connection.request("GET", "/_stcore/health")
        response = connection.getresponse()
        response.read()
        statuses.append(response.status)
    elapsed = time.monotonic() - start
    connection.close()
    assert statuses[:1000] == [200] * 1000
    assert set(statuses) == {200, 429}
    assert statuses.count(200) <= 1000 + 100 * elapsed + 1
