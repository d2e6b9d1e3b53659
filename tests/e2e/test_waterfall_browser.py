"""The waterfall in a real browser, opened from a link: the pair, its table and chart; a screenshot is saved."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from playwright.sync_api import expect

from bleu_core.tools import number, trace_implementation
from tests.e2e.conftest import IDLE, SCREENSHOTS

CANDIDATE = "the bakery sold the well-known rye bread by noon"
REFERENCES = ["by noon the corner bakery had sold its famous rye bread", "the bakery was out by noon"]


def test_waterfall_from_a_link(server: str, page: Any) -> None:
    query = urlencode(
        {"candidate": CANDIDATE, "reference": REFERENCES, "first": "sacrebleu", "second": "d2l", "mode": "sentence"},
        doseq=True,
    )
    page.goto(f"{server}/implementations?{query}")
    page.wait_for_selector('[data-testid="stTable"]', timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    heading = page.get_by_text("sacreBLEU → d2l: the gap one setting at a time")
    expect(heading).to_be_visible(timeout=60_000)
    page.wait_for_function("() => document.body.innerText.includes('the first reference only')", timeout=60_000)
    body = page.inner_text("body")
    for key in ("sacrebleu", "d2l"):
        assert number(trace_implementation(key, CANDIDATE, REFERENCES).score) in body
    assert "the first reference only" in body and "0.5, 0.25" in body
    expect(page.locator('[data-testid="stVegaLiteChart"]')).to_have_count(3, timeout=60_000)
    heading.scroll_into_view_if_needed()
    page.wait_for_timeout(1500)  # let Vega draw
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "waterfall.png"), full_page=True)
    section = page.locator('[data-testid="stVegaLiteChart"]').nth(1)
    section.screenshot(path=str(SCREENSHOTS / "waterfall_chart.png"))
    assert "first=sacrebleu" in page.url and "second=d2l" in page.url  # the page keeps its link
    assert [e for e in page.console_errors if not e.startswith("Failed to load resource")] == []
