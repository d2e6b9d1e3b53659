"""The load tool's client against a plain Streamlit server: the messages it builds are the ones a browser's are."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from bench.load import FLOOR_APP, at_once, streamlit_server, summarize

T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run the client on an event loop of its own thread: other tests (the browser's sync API, Streamlit's
    AppTest) may leave an event loop set on the main thread, where asyncio.run refuses to start."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_the_floor_app_runs_for_each_of_three_tabs(tmp_path: Path) -> None:
    script = tmp_path / "floor.py"
    script.write_text(FLOOR_APP)
    with streamlit_server(script) as (url, _):
        summary = summarize("floor", run_apart(at_once(url, "explain", 3)))
    assert (summary.served, summary.exceptions, summary.dropped) == (3, 0, 0)
    assert 0 < summary.p50 <= summary.p95 < 30


def test_an_exception_on_the_page_is_counted(tmp_path: Path) -> None:
    script = tmp_path / "broken.py"
    script.write_text('import streamlit as st\n\nst.write("before")\nraise ValueError("shown")\n')
    with streamlit_server(script) as (url, _):
        summary = summarize("broken", run_apart(at_once(url, "explain", 1)))
    assert summary.exceptions == 1
