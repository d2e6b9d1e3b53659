"""The Corpus page's scores by label in a real browser: the demo's example labels draw the table and the bar chart;
an uploaded tags file with hostile labels shows them as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import IDLE
from tests.e2e.test_corpus_browser import upload
from tests.e2e.test_explain_browser import wait_for_app

HOSTILE = "<img src=x onerror=alert(1)>"


def open_slices(page: Any, server: str) -> Any:
    page.goto(f"{server}/corpus")
    wait_for_app(page)
    page.get_by_text("Scores by label (tags file)").click()
    page.wait_for_function(IDLE, timeout=60_000)
    return page.locator('[data-testid="stExpander"]').filter(has_text="Scores by label (tags file)")


def test_example_labels_draw_the_table_and_the_chart(server: str, page: Any) -> None:
    section = open_slices(page, server)
    section.get_by_text("Try with example labels").click()
    page.wait_for_function(IDLE, timeout=60_000)
    expect(section.get_by_text("5 labels over 8 segments", exact=False)).to_be_visible(timeout=30_000)
    expect(section.locator('[data-testid="stDataFrame"]')).to_be_visible()
    expect(
        section.locator('[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg').first
    ).to_be_visible(timeout=30_000)
    assert page.console_errors == []


def test_hostile_labels_stay_text(server: str, page: Any, tmp_path: Path) -> None:
    tags = tmp_path / "tags.txt"
    tags.write_text("\n".join([HOSTILE, "news", "**bold**", "news", "", HOSTILE, "news", "x"]) + "\n", encoding="utf-8")
    open_slices(page, server)
    upload(page, "Tags file", str(tags))
    section = page.locator('[data-testid="stExpander"]').filter(has_text="Scores by label (tags file)")
    expect(section.get_by_text("5 labels over 8 segments", exact=False)).to_be_visible(timeout=30_000)
    assert page.locator("img[src='x']").count() == 0
    assert page.dialogs == []
    assert page.console_errors == []
