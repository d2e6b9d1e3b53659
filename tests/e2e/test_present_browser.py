"""Presentation mode on a 1280x720 projector, in English and Chinese: every step fits, type is large, no sidebar.

Every step is screenshotted to tests/e2e/screenshots/present-<lang>-<preset>-<step>.png (look at them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from bleu_core.teach.chrf_explain import chrf_options, explain_chrf
from bleu_core.teach.examples import PRESET_BY_KEY, PRESETS, Preset
from bleu_core.teach.explain import Explanation, explain, paper_text
from pages.explain_page import chrf_present, present
from tests.e2e.conftest import IDLE, SCREENSHOTS

#: Sizes measured in the page: the smallest text of the main area, its scroll extent, the sidebar.
MEASURE = r"""() => {
  const main = document.querySelector('[data-testid="stMain"]') || document.scrollingElement;
  const texts = [...document.querySelectorAll(
      '[data-testid="stMainBlockContainer"] [data-testid="stMarkdownContainer"] p, ' +
      '[data-testid="stMainBlockContainer"] [data-testid="stTable"] td, .tokens')]
    .filter(e => e.offsetParent !== null && e.innerText.trim());
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  const chartText = [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')]
    .filter(e => e.textContent.trim());
  return {
    chartFont: Math.min(100, ...chartText.map(e => parseFloat(getComputedStyle(e).fontSize))),
    rotated: chartText.filter(e => /rotate\((?!0\))/.test(e.getAttribute('transform') || '')).length,
    minFont: Math.min(...texts.map(e => parseFloat(getComputedStyle(e).fontSize))),
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: main.scrollHeight,
    sidebarShown: !!sidebar && sidebar.offsetParent !== null && sidebar.getBoundingClientRect().width > 0,
  };
}"""


def preset_trace(preset: Preset) -> Explanation:
    """The preset as the page counts it (a paper-faithful preset without case and punctuation)."""
    candidate, references = preset.candidate, list(preset.references)
    if preset.paper:
        candidate, references = paper_text(candidate), [paper_text(r) for r in references]
    return explain(candidate, references, **preset.options())


def lecture(trace: Explanation, lang: str) -> list[present.Step]:
    """The steps of the page's lecture (a table longer than a screen takes several)."""
    return present.steps(trace, present.plan(trace, lang))


def open_step(page: Any, server: str, query: str, ready: str = "stSlider") -> None:
    page.goto(f"{server}/?{query}")
    page.wait_for_selector(f'[data-testid="stMainBlockContainer"] [data-testid="{ready}"]', timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(800)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", ["love", "papineni1"])
def test_every_step_fits_a_projector(server: str, browser: Any, lang: str, key: str) -> None:
    trace = preset_trace(PRESET_BY_KEY[key])
    total = len(lecture(trace, lang))
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    SCREENSHOTS.mkdir(exist_ok=True)
    try:
        for step in range(1, total + 1):
            open_step(page, server, f"preset={key}&present=1&step={step}&lang={lang}")
            shot = SCREENSHOTS / f"present-{lang}-{key}-{step:02d}.png"
            page.screenshot(path=str(shot))
            size = page.evaluate(MEASURE)
            assert not size["sidebarShown"], step
            assert size["scrollWidth"] <= 1280, (step, size)
            assert size["minFont"] >= 22, (step, size)
            assert size["scrollHeight"] <= 720, (step, size)
            assert size["chartFont"] >= 16 and size["rotated"] == 0, (step, size)
            # the caption says which step; a number over the slider's thumb would sit on its track
            assert page.locator('[data-testid="stSliderThumbValue"]').first.is_hidden(), step
            score = f"{trace.score:.4f}"
            body = page.inner_text('[data-testid="stMainBlockContainer"]')
            assert (score in body) == (step == total), step
    finally:
        context.close()


def test_max_n_8_has_no_horizontal_overflow(server: str, page: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_step(page, server, "preset=papineni1&max_n=8&present=0", ready="stMetricValue")
    page.wait_for_selector(".katex", timeout=30_000)
    page.wait_for_timeout(1500)
    overflow = page.evaluate(
        """() => [...document.querySelectorAll('.katex-display, [data-testid="stVegaLiteChart"]')]
            .filter(e => e.scrollWidth > e.clientWidth + 4 || e.getBoundingClientRect().right > 1280).length"""
    )
    page.screenshot(path=str(Path(SCREENSHOTS) / "explain-max-n-8.png"), full_page=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 1280
    assert overflow == 0


#: make test checks three presets with the longest tables and sentences; make test-slow checks every one.
QUICK = {"papineni1", "matlab4", "clip_bigrams3"}


@pytest.mark.parametrize(
    "preset",
    [p if p.key in QUICK else pytest.param(p, marks=pytest.mark.slow) for p in PRESETS],
    ids=lambda p: p.key,
)
def test_every_preset_fits_in_chinese(server: str, browser: Any, preset: Preset) -> None:
    """The tallest steps (the clipped-count tables) and the first and last of every preset, in Chinese."""
    steps = lecture(preset_trace(preset), "zh")
    tables = [number for number, step in enumerate(steps, 1) if step.kind == "order"]
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        for step in [1, *tables, len(steps)]:
            open_step(page, server, f"preset={preset.key}&present=1&step={step}&lang=zh")
            size = page.evaluate(MEASURE)
            assert size["scrollWidth"] <= 1280 and size["scrollHeight"] <= 720, (step, size)
            assert size["minFont"] >= 22 and not size["sidebarShown"], (step, size)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_table_longer_than_a_screen_fits_over_two_steps(server: str, browser: Any, lang: str) -> None:
    """45 distinct words: the unigram table's 46 rows take two steps, each fitting the projector."""
    candidate = " ".join(f"w{i}" for i in range(45))
    reference = " ".join(f"w{i}" for i in range(0, 45, 2))
    query = urlencode({"candidate": candidate, "reference": reference, "max_n": 2, "present": 1, "lang": lang})
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        for step in (3, 4):
            open_step(page, server, f"{query}&step={step}")
            page.screenshot(path=str(SCREENSHOTS / f"present-{lang}-long-table-{step}.png"))
            size = page.evaluate(MEASURE)
            assert size["scrollWidth"] <= 1280 and size["scrollHeight"] <= 720, (step, size)
            assert size["minFont"] >= 22 and not size["sidebarShown"], (step, size)
    finally:
        context.close()


def chrf_lecture(trace: Any, lang: str) -> list[chrf_present.Step]:
    plan = tuple(chrf_present.plan_order(trace, index, lang) for index in range(len(trace.orders)))
    return chrf_present.steps(trace, plan)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chrf_steps_and_view_fit_1280x720(server: str, browser: Any, lang: str) -> None:
    """chrF++ of the default example: every presentation step fits a projector; the walkthrough is no wider."""
    preset = PRESET_BY_KEY["love"]
    trace = explain_chrf(preset.candidate, list(preset.references), chrf_options("chrf++"))
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    SCREENSHOTS.mkdir(exist_ok=True)
    try:
        for step in range(1, len(chrf_lecture(trace, lang)) + 1):
            open_step(page, server, f"preset=love&metric=chrf%2B%2B&present=1&step={step}&lang={lang}")
            page.screenshot(path=str(SCREENSHOTS / f"present-chrf-{lang}-{step:02d}.png"))
            size = page.evaluate(MEASURE)
            assert not size["sidebarShown"], step
            assert size["scrollWidth"] <= 1280, (step, size)
            assert size["minFont"] >= 22, (step, size)
            assert size["scrollHeight"] <= 720, (step, size)
            assert size["chartFont"] >= 16 and size["rotated"] == 0, (step, size)
        open_step(page, server, f"preset=love&metric=chrf&lang={lang}", ready="stDataFrame")
        page.screenshot(path=str(SCREENSHOTS / f"explain-chrf-{lang}.png"), full_page=True)
        assert page.evaluate(MEASURE)["scrollWidth"] <= 1280
        assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 1
    finally:
        context.close()


LONG_CHRF = {
    "candidate": "猫坐在垫子上看着窗外的小鸟，" * 6 + " internationalization responsibilities " * 4,
    "reference": ["一只猫在垫子上坐着，望着窗外飞过的小鸟。" * 5 + " internationalisation responsibility " * 4],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chrf_steps_of_a_long_mixed_text_fit(server: str, browser: Any, lang: str) -> None:
    """Long Chinese and long English words: the units steps, an order's first step, P and R, and the score fit."""
    trace = explain_chrf(LONG_CHRF["candidate"], LONG_CHRF["reference"], chrf_options("chrf++"))
    lecture = chrf_lecture(trace, lang)
    wanted = [1, 2, 3, next(i for i, s in enumerate(lecture, 1) if s.kind == "order" and s.order == 6)]
    query = urlencode({**LONG_CHRF, "metric": "chrf++", "present": "1", "lang": lang}, doseq=True)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        for step in [*wanted, len(lecture) - 1, len(lecture)]:
            open_step(page, server, f"{query}&step={step}")
            page.screenshot(path=str(SCREENSHOTS / f"present-chrf-long-{lang}-{step:02d}.png"))
            size = page.evaluate(MEASURE)
            assert size["scrollWidth"] <= 1280, (step, size)
            assert size["scrollHeight"] <= 720, (step, size)
            assert size["minFont"] >= 22, (step, size)
    finally:
        context.close()


#: A long news sentence (74 words) and two references: its character tables are cut to the most frequent n-grams,
#: so each order's last part says so under the table.
LONG_NEWS = {
    "candidate": (
        "The committee said on Tuesday that the new rules, which were announced last spring after months of "
        "negotiations between the regional governments and the federal ministry, would come into force at the "
        "beginning of next year, although several business associations have warned that small companies in rural "
        "areas will need more time and financial support to adapt their accounting systems, train their staff and "
        "replace equipment that no longer meets the stricter environmental standards."
    ),
    "reference": [
        "On Tuesday the committee stated that the new regulations, announced last spring after months of talks "
        "between the regional governments and the federal ministry, will take effect at the start of next year, "
        "even though a number of business associations have warned that small firms in rural regions will need "
        "more time and financial help to adjust their accounting systems, train employees and replace equipment "
        "that no longer complies with the tougher environmental standards.",
        "The committee announced on Tuesday that the rules agreed last spring would apply from next year.",
    ],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_last_part_of_every_chrf_order_fits_under_its_cut_note(server: str, browser: Any, lang: str) -> None:
    trace = explain_chrf(LONG_NEWS["candidate"], LONG_NEWS["reference"], chrf_options("chrf"))
    assert any(len(o.rows) < o.rows_total for o in trace.orders)  # the case: tables cut, the note shown
    lecture = chrf_lecture(trace, lang)
    last_parts = [i for i, s in enumerate(lecture, 1) if s.kind == "order" and s.part == s.parts]
    query = urlencode({**LONG_NEWS, "metric": "chrf", "present": "1", "lang": lang}, doseq=True)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        for step in last_parts:
            open_step(page, server, f"{query}&step={step}")
            size = page.evaluate(MEASURE)
            if size["scrollHeight"] > 720:
                page.screenshot(path=str(SCREENSHOTS / f"present-chrf-news-{lang}-{step:02d}.png"))
            assert size["scrollHeight"] <= 720 and size["scrollWidth"] <= 1280, (step, size)
    finally:
        context.close()
