"""The load tool's client against a plain Streamlit server: the messages it builds are the ones a browser's are."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bench.load import FLOOR_APP, at_once, streamlit_server, summarize


def test_the_floor_app_runs_for_each_of_three_tabs(tmp_path: Path) -> None:
    script = tmp_path / "floor.py"
    script.write_text(FLOOR_APP)
    with streamlit_server(script) as (url, _):
        summary = summarize("floor", asyncio.run(at_once(url, "explain", 3)))
    assert (summary.served, summary.exceptions, summary.dropped) == (3, 0, 0)
    assert 0 < summary.p50 <= summary.p95 < 30


def test_an_exception_on_the_page_is_counted(tmp_path: Path) -> None:
    script = tmp_path / "broken.py"
    script.write_text('import streamlit as st\n\nst.write("before")\nraise ValueError("shown")\n')
    with streamlit_server(script) as (url, _):
        summary = summarize("broken", asyncio.run(at_once(url, "explain", 1)))
    assert summary.exceptions == 1
