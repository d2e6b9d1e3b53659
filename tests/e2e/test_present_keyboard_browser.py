"""Presentation mode on a real 60-token WMT22 segment (two references) at 1280x720, driven by the keyboard.

Right and Page Down go forward, Left and Page Up back (a presenter's clicker sends the Page keys).  On every
step: the step caption says where we are, every element of the main area lies within the 1280x720 screen (the
buttons included), nothing scrolls, table text is at least 22 px, and the clipped-count tables of each order,
read over all their parts, hold every n-gram of the candidate exactly once, as it is (``-`` is a dash, not a
bullet).  Every step is screenshotted to tests/e2e/screenshots/present-wmt22-<lang>-<step>.png (look at them).
The segment is read from ../shared/data/wmt22 at test time; the test skips when that folder is absent.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import pytest

from bleu_core.teach.explain import explain
from tests.e2e.conftest import IDLE, ROOT, SCREENSHOTS

WMT22 = ROOT.parent / "shared" / "data" / "wmt22" / "de-en"
SYSTEM = "generaltest2022.de-en.hyp.JDExploreAcademy.en"
REFERENCES = ("generaltest2022.de-en.ref.A.en", "generaltest2022.de-en.ref.B.en")
#: A segment of 60 tokens (13a) whose candidate holds the token '-' ("the 90-year-old" written "90 - year-old").
LINE = 376

#: Boxes of the main area's elements, the scroll extent, table cells, and whether Markdown made a list anywhere.
MEASURE = r"""() => {
  const main = document.querySelector('[data-testid="stMain"]') || document.scrollingElement;
  const boxes = [...document.querySelectorAll(
      '[data-testid="stMainBlockContainer"] [data-testid="stElementContainer"]')]
    .filter(e => e.offsetParent !== null && getComputedStyle(e).display !== 'none')
    .map(e => {
      const r = e.getBoundingClientRect();
      return {bottom: r.bottom, right: r.right, text: e.innerText.slice(0, 60)};
    })
    .filter(b => b.bottom > 0);
  const buttons = [...document.querySelectorAll('[data-testid="stMainBlockContainer"] .stButton button')]
    .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect().bottom);
  const cells = [...document.querySelectorAll('.counts td, .counts th')];
  return {
    boxes,
    buttons,
    scrollHeight: main.scrollHeight,
    scrollWidth: document.documentElement.scrollWidth,
    ngrams: [...document.querySelectorAll('.counts tr:not(.total) td.ngram')].map(e => e.textContent),
    tableFont: Math.min(100, ...cells.map(e => parseFloat(getComputedStyle(e).fontSize))),
    lists: document.querySelectorAll('[data-testid="stMainBlockContainer"] li').length,
    caption: document.querySelector('[data-testid="stMainBlockContainer"] [data-testid="stCaptionContainer"]')
      .innerText,
  };
}"""
#: The run is drawn: presentation mode's style hides the sidebar, and its buttons are there.
PRESENTING = """() => {
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  const hidden = !sidebar || sidebar.offsetParent === null || sidebar.getBoundingClientRect().width === 0;
  const buttons = [...document.querySelectorAll('[data-testid="stMainBlockContainer"] .stButton button')]
    .filter(e => e.offsetParent !== null);
  return hidden && buttons.length >= 3 && !document.querySelector('[data-testid="stSkeleton"]');
}"""
CAPTION = {"en": re.compile(r"Step (\d+) of (\d+): (.*)"), "zh": re.compile(r"第 (\d+) 步，共 (\d+) 步：(.*)")}


def segment() -> tuple[str, list[str]]:
    if not WMT22.is_dir():
        pytest.skip(f"the WMT22 files are not here ({WMT22}); they are read at test time, never copied")
    candidate = (WMT22 / SYSTEM).read_text(encoding="utf-8").split("\n")[LINE - 1]
    references = [(WMT22 / name).read_text(encoding="utf-8").split("\n")[LINE - 1] for name in REFERENCES]
    return candidate, references


def wait_for_step(page: Any, lang: str, step: int) -> dict[str, Any]:
    page.wait_for_function(
        """([step, lang]) => {
            const c = document.querySelector('[data-testid="stMainBlockContainer"] [data-testid="stCaptionContainer"]');
            if (!c) return false;
            const m = lang === 'en' ? c.innerText.match(/^Step (\\d+) of/) : c.innerText.match(/^第 (\\d+) 步/);
            return m && Number(m[1]) === step;
        }""",
        arg=[step, lang],
        timeout=60_000,
    )
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_function(PRESENTING, timeout=60_000)
    page.wait_for_timeout(700)  # charts and formulas draw after the run
    return dict(page.evaluate(MEASURE))


def check_fits(size: dict[str, Any], where: str) -> None:
    assert size["scrollWidth"] <= 1280 and size["scrollHeight"] <= 720, (where, size["scrollHeight"])
    outside = [box for box in size["boxes"] if box["bottom"] > 720 or box["right"] > 1280]
    assert not outside, (where, outside)
    assert size["buttons"] and max(size["buttons"]) <= 720, (where, size["buttons"])
    assert size["lists"] == 0, where  # no token became a Markdown list item
    if size["ngrams"]:
        assert size["tableFont"] >= 22, (where, size["tableFont"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_real_segment_fits_every_step_and_follows_the_keyboard(server: str, browser: Any, lang: str) -> None:
    candidate, references = segment()
    trace = explain(candidate, references)
    assert 45 <= len(trace.candidate_tokens) <= 60 and "-" in trace.candidate_tokens
    query = urlencode({"candidate": candidate, "reference": references, "present": 1, "lang": lang}, doseq=True)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    SCREENSHOTS.mkdir(exist_ok=True)
    try:
        page.goto(f"{server}/?{query}", wait_until="domcontentloaded")
        size = wait_for_step(page, lang, 1)
        total = int(CAPTION[lang].match(size["caption"]).group(2))
        assert total > 7 + 4  # the long tables took more than one step each
        shown: dict[int, Counter[str]] = {}
        for step in range(1, total + 1):
            if step > 1:
                page.keyboard.press("ArrowRight" if step % 2 else "PageDown")
                size = wait_for_step(page, lang, step)
            name = CAPTION[lang].match(size["caption"]).group(3)
            page.screenshot(path=str(SCREENSHOTS / f"present-wmt22-{lang}-{step:02d}.png"))
            check_fits(size, f"step {step}: {name}")
            if size["ngrams"]:
                order = len(size["ngrams"][0].split(" "))
                shown.setdefault(order, Counter()).update(size["ngrams"])
        assert f"{trace.score:.4f}" in page.inner_text('[data-testid="stMainBlockContainer"]')
        # every n-gram of every order, once, as it is written (the '-' row among them)
        for breakdown in trace.orders:
            assert shown[breakdown.order] == Counter(row.text for row in breakdown.rows), breakdown.order
        assert shown[1]["-"] == 1
        # at the last step Right does nothing; Left and Page Up go back to step 1
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(800)
        assert CAPTION[lang].match(page.evaluate(MEASURE)["caption"]).group(1) == str(total)
        for step in range(total - 1, 0, -1):
            page.keyboard.press("ArrowLeft" if step % 2 else "PageUp")
            wait_for_step(page, lang, step)
        assert "step=1" in page.url and quote("present") in page.url
    finally:
        context.close()


def test_entering_presentation_mode_starts_at_step_one(server: str, browser: Any) -> None:
    """Leave at step 5, enter again with the sidebar's switch: step 1."""
    candidate, references = segment()
    query = urlencode({"candidate": candidate, "reference": references, "present": 1, "step": 5}, doseq=True)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(f"{server}/?{query}", wait_until="domcontentloaded")
        wait_for_step(page, "en", 5)
        page.get_by_role("button", name="leave presentation mode").click()
        switch = page.locator('[data-testid="stSidebar"] [data-testid="stCheckbox"]').filter(
            has_text="presentation mode"
        )
        switch.wait_for(timeout=60_000)
        page.wait_for_function(IDLE, timeout=60_000)
        switch.click()
        size = wait_for_step(page, "en", 1)
        check_fits(size, "step 1 again")
        page.screenshot(path=str(Path(SCREENSHOTS) / "present-wmt22-reentered.png"))
    finally:
        context.close()


def test_copy_link_and_exercise_mode_from_explain(server: str, browser: Any) -> None:
    """The sidebar's "Copy link" holds the address in the bar; "exercise mode" opens the exercise and comes back."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        query = urlencode({"candidate": "a cat sat on the mat", "reference": "the cat sat on the mat", "max_n": 2})
        page.goto(f"{server}/?{query}", wait_until="domcontentloaded")
        sidebar = page.locator('[data-testid="stSidebar"]')
        sidebar.get_by_text("Copy link").wait_for(timeout=60_000)
        page.wait_for_function(IDLE, timeout=60_000)
        sidebar.get_by_text("Copy link").click()
        code = page.locator('[data-testid="stPopoverBody"] code').first
        code.wait_for(timeout=30_000)
        page.screenshot(path=str(SCREENSHOTS / "explain-copy-link.png"))
        shown = urlsplit(code.inner_text().strip())
        bar = urlsplit(page.url)
        assert (shown.scheme, shown.netloc, shown.path) == (bar.scheme, bar.netloc, bar.path)
        assert parse_qs(shown.query) == parse_qs(bar.query) and parse_qs(shown.query)["max_n"] == ["2"]
        page.keyboard.press("Escape")
        sidebar.get_by_role("button", name="exercise mode: compute BLEU by hand").click()
        page.get_by_role("heading", name="Exercise: compute BLEU by hand").wait_for(timeout=60_000)
        page.wait_for_function(IDLE, timeout=60_000)
        assert "exercise=1" in page.url
        page.screenshot(path=str(SCREENSHOTS / "explain-exercise-mode.png"))
        sidebar.get_by_role("button", name="back to the walkthrough").click()
        page.get_by_role("heading", name="Explain BLEU, step by step").wait_for(timeout=60_000)
        page.wait_for_function(IDLE, timeout=60_000)
        assert "exercise" not in page.url and parse_qs(urlsplit(page.url).query)["max_n"] == ["2"]
    finally:
        context.close()


def test_after_the_slider_the_arrows_still_move_one_step(server: str, browser: Any) -> None:
    """The slider's thumb also answers the arrow keys: with it focused, Right must not move two steps."""
    candidate, references = segment()
    query = urlencode({"candidate": candidate, "reference": references, "present": 1, "step": 4}, doseq=True)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(f"{server}/?{query}", wait_until="domcontentloaded")
        wait_for_step(page, "en", 4)
        page.locator('[data-testid="stMainBlockContainer"] [data-testid="stSlider"] input[type="range"]').focus()
        page.keyboard.press("ArrowRight")
        wait_for_step(page, "en", 5)
        page.wait_for_timeout(1500)
        assert CAPTION["en"].match(page.evaluate(MEASURE)["caption"]).group(1) == "5"
        page.keyboard.press("ArrowLeft")
        wait_for_step(page, "en", 4)
        page.wait_for_timeout(1500)
        assert CAPTION["en"].match(page.evaluate(MEASURE)["caption"]).group(1) == "4"
    finally:
        context.close()
