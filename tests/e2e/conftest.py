"""Real-browser fixtures: one Streamlit server per session, Debian's chromium driven by Playwright.

A failing test leaves a full-page screenshot in tests/e2e/screenshots/.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: True once the page's script has run and no run is in flight: the app root's script state (the status widget
#: is no signal: it appears only after a run has lasted half a second).
IDLE = "() => document.querySelector('[data-testid=\"stApp\"]')?.dataset.testScriptState === 'notRunning'"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: The frontend probes a page URL's own path for these before falling back to the root; the 404s are harmless.
_PROBES = ("/_stcore/health", "/_stcore/host-config")


def record_console_error(tab: Any, message: Any) -> None:
    if message.type == "error" and not str(message.location.get("url", "")).endswith(_PROBES):
        tab.console_errors.append(message.text)


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    port = _free_port()
    log = open(ROOT / ".pytest-streamlit.log", "w")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        process.kill()
        pytest.fail(f"Streamlit did not start; see {log.name}")
    yield url
    process.terminate()
    process.wait(timeout=20)
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"chromium not found at {CHROMIUM}: `make test` installs Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    page = getattr(item, "_page", None)
    if report.when == "call" and report.failed and page is not None:
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{item.name}.png"), full_page=True)


@pytest.fixture
def page(browser: object, request: pytest.FixtureRequest) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 1600})  # type: ignore[attr-defined]
    tab = context.new_page()
    tab.console_errors = []
    tab.dialogs = []
    tab.on("console", lambda message: record_console_error(tab, message))
    tab.on("dialog", lambda dialog: (tab.dialogs.append(dialog.message), dialog.dismiss()))
    request.node._page = tab
    yield tab
    context.close()
