"""Every page whole at 1280x720 and 1920x1080, in English and Chinese: nothing wider than its container, no
text cut off, no table of numbers that scrolls sideways; ten WMT22 systems on Compare at 1280x720.

Vega draws its charts on a canvas, where a cut title or legend ends in "…": every string the page draws on a
chart's canvas is recorded (``fillText``); none may carry an ellipsis or run partly past the canvas edge.  Vega
does not draw text wholly outside its canvas at all, so a legend entry pushed out entirely is not seen here
(tests/pages/test_chart_fit.py pins the legend layouts in the specs).  Each page is screenshotted into a
temporary folder (its path is printed) for a person to look at.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from bleu_core.i18n import catalog, text
from pages.compare_page.views import short_names
from tests.conftest import Pair
from tests.e2e.conftest import IDLE, record_console_error
from tests.e2e.test_corpus_browser import upload

SIZES = ((1280, 720), (1920, 1080))
PAGES = ("explain", "corpus", "compare", "implementations", "about")
CHARTS = '[data-testid="stVegaLiteChart"], [data-testid="stArrowVegaLiteChart"]'
#: Headers of columns of sentences: a table with one may scroll sideways.
TEXT_COLUMNS = [text("corpus.col_hypothesis", language) for language in ("en", "zh")]
SHOTS = Path(tempfile.mkdtemp(prefix="bleu-fit-"))

#: Records every string drawn on a canvas (Vega's renderer), before any page script runs.
RECORD_CANVAS_TEXT = """
window.__drawn = [];
window.__clipped = [];
const fill = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
  const shown = String(text);
  window.__drawn.push(shown);
  try {  // text that runs past the canvas edge is cut without an ellipsis: find it from the text's box
    const metrics = this.measureText(shown);
    const width = metrics.width;
    const align = this.textAlign;
    const start = align === 'center' ? x - width / 2 : align === 'right' || align === 'end' ? x - width : x;
    const m = this.getTransform();
    const chart = this.canvas.closest && this.canvas.closest('[data-testid*="VegaLiteChart"]');
    // upright text in a chart (rotated axis titles are left out; tables draw cells past their edge by design)
    if (chart && m.b === 0 && m.c === 0 && shown.trim()) {
      const left = m.a * start + m.e, right = m.a * (start + width) + m.e;
      const top = m.d * (y - metrics.actualBoundingBoxAscent) + m.f;
      const bottom = m.d * (y + metrics.actualBoundingBoxDescent) + m.f;
      if (left < -1 || right > this.canvas.width + 1 || top < -1 || bottom > this.canvas.height + 1) {
        window.__clipped.push(shown);
      }
    }
  } catch (error) {}
  return fill.call(this, text, x, y, ...rest);
};
"""

#: What does not fit, as readable strings: elements past their container or the viewport, tables that scroll
#: sideways, charts wider than their frame, HTML text cut with an ellipsis, canvas text ending in "…".
FIND_MISFITS = """
([CHARTS, TEXT_COLUMNS]) => {
  const problems = [];
  const name = (el) => {
    const id = el.closest('[data-testid]');
    const text = (el.innerText || el.textContent || '').trim().slice(0, 60);
    return `${id ? id.dataset.testid : el.tagName}: ${JSON.stringify(text)}`;
  };
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1) problems.push(`page scrolls sideways (${root.scrollWidth}px)`);
  const main = document.querySelector('[data-testid="stMain"]');
  if (main && main.scrollWidth > main.clientWidth + 1) problems.push(`main area scrolls sideways`);
  for (const box of document.querySelectorAll('[data-testid="stElementContainer"]')) {
    const outer = box.getBoundingClientRect();
    if (outer.width === 0) continue;
    for (const child of box.children) {
      const inner = child.getBoundingClientRect();
      if (inner.width > outer.width + 1 || inner.right > window.innerWidth + 1) {
        const sizes = `${Math.round(inner.width)} > ${Math.round(outer.width)}`;
        problems.push(`wider than its container (${sizes}) ${name(child)}`);
      }
    }
  }
  for (const chart of document.querySelectorAll(CHARTS)) {
    const frame = chart.getBoundingClientRect();
    for (const drawn of chart.querySelectorAll('canvas, svg')) {
      const r = drawn.getBoundingClientRect();
      if (r.width > frame.width + 1) problems.push(`chart wider than its frame (${r.width} > ${frame.width})`);
    }
  }
  for (const scroller of document.querySelectorAll('[data-testid="stDataFrame"] .dvn-scroller')) {
    const table = scroller.closest('[data-testid="stDataFrame"]');
    const headers = [...table.querySelectorAll('th, [role="columnheader"]')].map((h) => h.textContent.trim());
    // a table of sentences (the Corpus segments) scrolls through them by design
    if (scroller.scrollWidth > scroller.clientWidth + 1 && !headers.some((h) => TEXT_COLUMNS.includes(h))) {
      problems.push(`table scrolls sideways (${scroller.scrollWidth}px): ${headers.join(' | ')}`);
    }
  }
  for (const el of (main || document.body).querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      problems.push(`text cut with an ellipsis: ${name(el)}`);
    }
  }
  for (const drawn of window.__drawn || []) {
    if (drawn.includes('…')) problems.push(`chart text cut: ${JSON.stringify(drawn)}`);
  }
  for (const drawn of window.__clipped || []) problems.push(`chart text past its edge: ${JSON.stringify(drawn)}`);
  return [...new Set(problems)];
}
"""


def open_tab(browser: Any, request: pytest.FixtureRequest, width: int, height: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    tab = context.new_page()
    tab.console_errors = []
    tab.on("console", lambda message: record_console_error(tab, message))
    tab.add_init_script(RECORD_CANVAS_TEXT)
    request.node._page = tab
    return tab


def settle(tab: Any) -> None:
    """Wait for the script run, then scroll through the page so every chart is drawn, and back to the top."""
    tab.wait_for_function(IDLE, timeout=180_000)
    tab.wait_for_timeout(1000)
    tab.evaluate(
        """async () => {
          const main = document.querySelector('[data-testid="stMain"]') || document.scrollingElement;
          for (let y = 0; y < main.scrollHeight; y += 400) {
            main.scrollTo(0, y);
            await new Promise((done) => setTimeout(done, 120));
          }
          main.scrollTo(0, 0);
        }"""
    )
    # a chart draws once it has been on screen
    tab.wait_for_function(
        f"() => [...document.querySelectorAll('{CHARTS}')].every((c) => c.querySelector('canvas, svg'))",
        timeout=60_000,
    )
    tab.wait_for_timeout(800)
    tab.wait_for_function(IDLE, timeout=180_000)


def check(tab: Any, shot: str) -> list[str]:
    """The misfits at the tab's size, then a screenshot of the whole page (the main area scrolls inside the
    window, so the window is made as tall as its content for the picture)."""
    problems: list[str] = tab.evaluate(FIND_MISFITS, [CHARTS, TEXT_COLUMNS])
    drawn = tab.evaluate("window.__drawn.length")
    size = tab.viewport_size
    tall = tab.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    tab.set_viewport_size({"width": size["width"], "height": max(size["height"], int(tall))})
    tab.wait_for_timeout(1000)
    tab.screenshot(path=str(SHOTS / f"{shot}.png"))
    tab.set_viewport_size(size)
    print(f"screenshot: {SHOTS / shot}.png ({drawn} strings drawn on canvases)")
    return problems


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", PAGES)
def test_page_fits(
    server: str, browser: Any, request: pytest.FixtureRequest, name: str, language: str, size: tuple[int, int]
) -> None:
    tab = open_tab(browser, request, *size)
    path = "" if name == "explain" else name
    tab.goto(f"{server}/{path}?lang={language}")
    tab.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    tab.wait_for_function(IDLE, timeout=180_000)
    if name != "about":  # every other page opens on an example with charts
        tab.wait_for_selector(CHARTS, state="attached", timeout=120_000)
    settle(tab)
    problems = check(tab, f"{name}-{language}-{size[0]}x{size[1]}")
    assert tab.console_errors == []
    assert problems == [], "\n".join(problems)
    tab.context.close()


def upload_systems(tab: Any, pair: Pair, language: str) -> list[str]:
    tab.get_by_text(text("compare.mode_upload", language)).click()
    systems = [str(p) for p in pair.systems[:10]]
    upload(tab, text("compare.system_files", language), systems)
    upload(tab, text("compare.reference_files", language), [str(r) for r in pair.references[:2]])
    return short_names([Path(p).name for p in systems])


@pytest.mark.parametrize("language", ["en", "zh"])
def test_ten_wmt22_systems_on_compare_fit_1280x720(
    server: str, browser: Any, request: pytest.FixtureRequest, pairs: list[Pair], language: str
) -> None:
    pair = max((p for p in pairs if p.tokenize == "13a"), key=lambda p: min(len(p.systems), 10), default=None)
    if pair is None or len(pair.systems) < 5:
        pytest.skip("no WMT22 pair with five systems or more in the data folder")
    tab = open_tab(browser, request, 1280, 720)
    tab.goto(f"{server}/compare?lang={language}")
    tab.wait_for_selector('[data-testid="stDataFrame"]', timeout=120_000)
    tab.wait_for_function(IDLE, timeout=120_000)
    names = upload_systems(tab, pair, language)
    summary = catalog(language)["verdict.summary"].split("**")[0].strip()  # "Against the baseline"
    tab.get_by_text(summary).first.wait_for(timeout=300_000)
    settle(tab)
    drawn = " ".join(tab.evaluate("window.__drawn"))
    assert all(n in drawn for n in names), "every system is named in the charts"
    problems = check(tab, f"compare-ten-{language}-1280x720")
    # the per-system precisions and length buckets: sorted dot plots for ten systems
    tab.get_by_text(text("compare.details_precisions", language), exact=True).click()
    tab.wait_for_function(IDLE, timeout=300_000)
    settle(tab)
    problems += check(tab, f"compare-ten-precisions-{language}-1280x720")
    assert problems == [], "\n".join(problems)
    tab.context.close()


def choose_view(tab: Any, label: str) -> None:
    """Click a radio or segmented-control option by its label and wait for the rerun."""
    tab.get_by_text(label, exact=True).first.click()
    tab.wait_for_timeout(500)
    tab.wait_for_function(IDLE, timeout=180_000)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_other_views_fit_1280x720(
    server: str, browser: Any, request: pytest.FixtureRequest, pairs: list[Pair], language: str
) -> None:
    """The views a page opens on are not all it has: the Corpus lengths view, Compare's approximate randomization,
    Implementations on a whole corpus (one WMT22 system and its references)."""
    problems: list[str] = []
    tab = open_tab(browser, request, 1280, 720)
    for name, option, shot in (
        ("corpus", "corpus.view_lengths", "corpus-lengths"),
        ("compare", "significance.test_ar", "compare-ar"),
    ):
        tab.goto(f"{server}/{name}?lang={language}")
        tab.wait_for_selector(CHARTS, state="attached", timeout=120_000)
        tab.wait_for_function(IDLE, timeout=180_000)
        choose_view(tab, text(option, language))
        settle(tab)
        problems += check(tab, f"{shot}-{language}-1280x720")

    pair = next((p for p in pairs if p.tokenize == "13a"), None)
    if pair is not None:
        tab.goto(f"{server}/implementations?lang={language}&mode=corpus")
        tab.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
        tab.wait_for_function(IDLE, timeout=180_000)
        upload(tab, text("implementations.hypothesis_file", language), str(pair.systems[0]))
        upload(tab, text("implementations.reference_files", language), [str(r) for r in pair.references[:2]])
        tab.wait_for_selector('[data-testid="stDataFrame"]', timeout=300_000)
        settle(tab)
        problems += check(tab, f"implementations-corpus-{language}-1280x720")
    assert tab.console_errors == []
    assert problems == [], "\n".join(problems)
    tab.context.close()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_compare_metrics_side_by_side_fit_1280x720(
    server: str, browser: Any, request: pytest.FixtureRequest, language: str
) -> None:
    """Compare's verdict in BLEU, chrF and chrF++ side by side, with the metrics' agreement, on the demo."""
    tab = open_tab(browser, request, 1280, 720)
    tab.goto(f"{server}/compare?lang={language}")
    tab.wait_for_selector(CHARTS, state="attached", timeout=120_000)
    tab.wait_for_function(IDLE, timeout=180_000)
    choose_view(tab, text("metrics_verdict.metric_all", language))
    tab.get_by_text(text("metrics_verdict.disagreements", language), exact=True).wait_for(timeout=180_000)
    settle(tab)
    problems = check(tab, f"compare-metrics-{language}-1280x720")
    assert tab.console_errors == []
    assert problems == [], "\n".join(problems)
    tab.context.close()
