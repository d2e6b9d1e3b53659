"""AppTest: no download button reruns its page.

A rerun first drops the session's references to its downloadable files, and any other session's finished run
then deletes files nobody references: with several users at once, a download that reran the page could fetch a
file that was already gone. Buttons that do not rerun keep their file referenced.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

PAGES = Path(__file__).resolve().parents[2] / "pages"


@pytest.mark.parametrize(
    ("page", "labels"),
    [
        ("explain", ["Download walkthrough (Markdown)", "Download tables (CSV)"]),
        ("corpus", ["Download segments (CSV)", "Download segments (JSON)"]),
        (
            "compare",
            ["Download report (HTML)", "Download table (CSV)", "Download table (JSON)", "Download table (LaTeX)"],
        ),
    ],
)
def test_download_buttons_do_not_rerun_the_page(page: str, labels: list[str]) -> None:
    at = AppTest.from_file(str(PAGES / f"{page}.py"), default_timeout=120).run()
    buttons = at.get("download_button")
    assert [b.proto.label for b in buttons] == labels
    assert [b.proto.label for b in buttons if not b.proto.ignore_rerun] == []
