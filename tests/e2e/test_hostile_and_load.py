"""Hostile text on every page (no script runs, nothing is injected); five sessions on the compare page at once."""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from playwright.async_api import async_playwright
from playwright.sync_api import expect

from bleu_core import paired_test
from pages.compare_page.views import short_names
from tests.conftest import Pair
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, IDLE, SCREENSHOTS
from tests.e2e.test_corpus_browser import file_chip, upload

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(2)</script>",
    "[link](javascript:alert(3))",
    "![pic](x onerror=alert(4))",
    r"$\href{javascript:alert(5)}{click}$",
    r"\def\x{alert(6)} \x",
    "<a href='javascript:alert(7)'>a</a>",
    "<iframe srcdoc='<script>alert(8)</script>'>",
]


def settle(page: Any) -> None:
    page.wait_for_timeout(500)
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(500)


def assert_inert(page: Any, shown: bool = True) -> None:
    """No dialog fired and no element was injected; the hostile text is visible as text."""
    settle(page)
    assert page.dialogs == []
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
    assert page.locator("iframe[srcdoc]").count() == 0
    assert page.locator("svg[onload]").count() == 0
    scripts = page.evaluate("() => [...document.scripts].filter(s => s.textContent.includes('alert(')).length")
    assert scripts == 0
    if shown:
        body = page.inner_text("body")
        assert any(text in body for text in HOSTILE), "no hostile string is shown as text"
    assert "Traceback" not in page.inner_text("body")


def type_into(page: Any, label: str, text: str) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Control+Enter" if box.evaluate("e => e.tagName") == "TEXTAREA" else "Enter")


def test_hostile_text_is_inert_on_every_page(server: str, page: Any, tmp_path: Path) -> None:
    text = " ".join(HOSTILE)
    page.goto(server)
    settle(page)
    type_into(page, "Candidate (the system output)", text)
    type_into(page, "References (one per line, any number)", "\n".join(HOSTILE))
    assert_inert(page)

    page.goto(f"{server}/corpus")
    settle(page)
    page.get_by_text("Paste text").click()
    settle(page)
    type_into(page, "Hypothesis (one segment per line)", "\n".join(HOSTILE))
    type_into(page, "Reference 1 (line i translates hypothesis line i)", "\n".join(reversed(HOSTILE)))
    expect(page.locator('[data-testid="stMetric"]').first).to_be_visible(timeout=60_000)
    assert_inert(page)
    for view in ("N-grams", "Word accuracy", "Lengths"):  # the page's views are chosen one at a time
        page.get_by_text(view, exact=True).click()
        settle(page)
        assert_inert(page, shown=False)

    page.goto(f"{server}/compare")
    settle(page)
    page.get_by_text("Upload files").click()
    files = []
    for i, name in enumerate(["<img src=x onerror=alert(1)>", "[a](javascript:alert(3))"]):
        path = tmp_path / f"{i}{name}.txt"
        path.write_text("\n".join(HOSTILE[i:] + HOSTILE[:i]) + "\n", encoding="utf-8")
        files.append(str(path))
    ref = tmp_path / "<svg onload=alert(2)>.txt"
    ref.write_text("\n".join(HOSTILE) + "\n", encoding="utf-8")
    upload(page, "System outputs", files)
    upload(page, "References", str(ref))
    expect(page.get_by_text("Segments where they differ most")).to_be_visible(timeout=60_000)
    assert_inert(page)

    page.goto(f"{server}/implementations")
    settle(page)
    type_into(page, "Candidate (the system output)", text)
    type_into(page, "References (one per line, any number)", "\n".join(HOSTILE))
    assert_inert(page, shown=False)
    assert page.console_errors == []


async def upload_async(tab: Any, label: str, files: list[Path]) -> None:
    """``upload`` for an async tab: choose the files, repeat the choice if the upload never starts, wait for it."""
    region = tab.get_by_role("region", name=label)
    box = region.locator('input[type="file"]').first
    for attempt in range(3):
        await tab.wait_for_function(IDLE, timeout=180_000)
        if attempt:
            await box.set_input_files([])
        await box.set_input_files([str(p) for p in files])
        try:
            for path in files:
                await file_chip(region, path.name).wait_for(state="attached", timeout=30_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
    for path in files:
        await file_chip(region, path.name, done=True).wait_for(state="attached", timeout=120_000)
    await tab.wait_for_timeout(500)
    await tab.wait_for_function(IDLE, timeout=180_000)


async def compare_session(server: str, browser: Any, systems: list[Path], reference: Path) -> pd.DataFrame:
    context = await browser.new_context(viewport={"width": 1280, "height": 1600})
    tab = await context.new_page()
    errors: list[str] = []
    tab.on("dialog", lambda dialog: errors.append(f"dialog {dialog.message}"))
    try:
        await tab.goto(f"{server}/compare")
        await tab.wait_for_selector('[data-testid="stDataFrame"]', timeout=120_000)
        # five first runs at once on a busy machine: the radio is clicked once the session's run is over
        await tab.wait_for_function(IDLE, timeout=180_000)
        await tab.get_by_text("Upload files").click(timeout=120_000)
        await upload_async(tab, "System outputs", systems)
        await upload_async(tab, "References", [reference])
        await tab.get_by_text("Against the baseline").wait_for(timeout=180_000)
        await tab.wait_for_function(IDLE, timeout=180_000)
        async with tab.expect_download(timeout=60_000) as info:
            await tab.get_by_role("button", name="Download table (CSV)").click()
        download = await info.value
        data = Path(await download.path()).read_text(encoding="utf-8")
        assert errors == []
        return pd.read_csv(io.StringIO(data)).set_index("system")
    finally:
        await context.close()


def test_five_sessions_compare_at_once(server: str, pairs: list[Pair]) -> None:
    pair = next((p for p in pairs if len(p.systems) >= 7 and p.tokenize == "13a"), None)
    if pair is None:
        pytest.skip("no WMT22 pair with seven systems in the data folder")
    subsets = [list(pair.systems[i : i + 3]) for i in range(5)]

    async def run() -> list[pd.DataFrame]:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                return await asyncio.gather(
                    *(compare_session(server, browser, subset, pair.references[0]) for subset in subsets)
                )
            finally:
                await browser.close()

    # The sync Playwright fixtures keep an event loop in this thread; the sessions get their own thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        tables = pool.submit(asyncio.run, run()).result()
    refs = [pair.references[0].read_text(encoding="utf-8").splitlines()]
    for subset, table in zip(subsets, tables, strict=True):
        names = short_names([p.name for p in subset])
        systems = {name: p.read_text(encoding="utf-8").splitlines() for name, p in zip(names, subset, strict=True)}
        scores = paired_test(systems, refs, n_samples=1)  # the default baseline is the best-scoring system
        best = max(scores, key=lambda name: scores[name].score)
        expected = paired_test(systems, refs, baseline=best)
        assert list(table.index) == sorted(systems, key=lambda name: -scores[name].score)
        for name, result in expected.items():
            assert table.loc[name, "BLEU"] == pytest.approx(round(result.score * 100, 2), abs=1e-9)
            if result.p_value is not None:
                assert table.loc[name, "p-value"] == pytest.approx(round(result.p_value, 4), abs=1e-9)


def test_a_3000_word_sentence_gives_a_page_of_reasonable_height(server: str, page: Any) -> None:
    """Its highlighted tokens wait behind an expander and its tables scroll: the page stays a few screens tall."""
    words = [f"w{i % 500}" for i in range(3000)]
    page.set_viewport_size({"width": 1366, "height": 800})
    page.goto(f"{server}/")  # typed, not linked: a link this long is refused (LIMITS.link_chars)
    page.wait_for_selector('[data-testid="stMetricValue"]', timeout=60_000)
    settle(page)
    page.get_by_label("References (one per line, any number)").fill(" ".join(words[:2000] + words[:1000]))
    candidate = page.get_by_label("Candidate (the system output)")
    candidate.fill(" ".join(words))
    candidate.press("Enter")
    page.wait_for_function("() => /3,?000 \\/ 3,?000/.test(document.body.innerText)", timeout=180_000)  # c / r
    settle(page)
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.screenshot(path=str(SCREENSHOTS / "explain-3000-words.png"), full_page=True)
    assert height < 8000, height
    assert "Traceback" not in page.inner_text("body")
