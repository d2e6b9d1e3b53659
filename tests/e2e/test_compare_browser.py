"""The compare page in a real browser: upload WMT22 systems, change the baseline, open a segment."""

from __future__ import annotations

import io
from typing import Any

import pandas as pd
import pytest
import sacrebleu
from playwright.sync_api import expect
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.significance import PairedTest

from pages.compare_page.views import short_names
from tests.conftest import Pair
from tests.e2e.conftest import IDLE, SCREENSHOTS
from tests.e2e.test_corpus_browser import choose, upload

TABLE = '[data-testid="stDataFrame"]'


def wait_for_table(page: Any) -> None:
    page.wait_for_selector(TABLE, timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)


def download(page: Any, label: str) -> str:
    with page.expect_download() as info:
        page.get_by_role("button", name=label).click()
    return str(open(info.value.path(), encoding="utf-8").read())


def csv_download(page: Any) -> str:
    return download(page, "Download table (CSV)")


def test_upload_systems_change_baseline_and_open_a_segment(server: str, page: Any, pairs: list[Pair]) -> None:
    pair = next((p for p in pairs if len(p.systems) >= 3 and p.tokenize == "13a"), None)
    if pair is None:
        pytest.skip("no WMT22 pair with three systems in the data folder")
    page.goto(f"{server}/compare")
    wait_for_table(page)
    expect(page.get_by_role("heading", name="Compare systems")).to_be_visible()

    page.get_by_text("Upload files").click()
    systems = list(pair.systems)
    upload(page, "System outputs", [str(p) for p in systems])
    upload(page, "References", str(pair.references[0]))
    names = short_names([p.name for p in systems])
    assert names[0] != systems[0].name  # WMT22 names shortened to the system part
    expect(page.get_by_text("Against the baseline")).to_be_visible(timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(1500)  # let the charts draw
    page.screenshot(path=str(SCREENSHOTS / "compare-verdict.png"), full_page=True)
    charts = page.locator('[data-testid="stVegaLiteChart"], [data-testid="stArrowVegaLiteChart"]')
    for i, name in enumerate(("delta", "ci", "ranks", "heatmap")):
        charts.nth(i).scroll_into_view_if_needed()
        expect(charts.nth(i).locator("canvas, svg").first).to_be_visible(timeout=30_000)
        page.wait_for_timeout(500)
        charts.nth(i).screenshot(path=str(SCREENSHOTS / f"compare-chart-{name}.png"))
    report = download(page, "Download report (HTML)")
    for name in names:
        assert name in report
    report_path = SCREENSHOTS / "compare-report.html"
    report_path.write_text(report, encoding="utf-8")
    offline = page.context.new_page()
    offline.route(
        "**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_()
    )
    offline.goto(report_path.as_uri())
    expect(offline.locator("svg")).to_have_count(3)
    assert offline.locator("svg circle").count() >= 2 * len(names) - 1
    offline.screenshot(path=str(SCREENSHOTS / "compare-report.png"), full_page=True)
    offline.close()

    choose(page, "Baseline", names[1])
    expect(page.get_by_text(f"against {names[1]}")).to_be_visible(timeout=60_000)
    refs = [pair.references[0].read_text(encoding="utf-8").splitlines()]
    hyps = {name: p.read_text(encoding="utf-8").splitlines() for name, p in zip(names, systems, strict=True)}
    ordered = [(names[1], hyps[names[1]])] + [(n, h) for n, h in hyps.items() if n != names[1]]
    _, scores = PairedTest(ordered, {"BLEU": BLEU(references=refs)}, None, "bs", 1000)()
    table = pd.read_csv(io.StringIO(csv_download(page))).set_index("system")
    for name, result in zip(scores["System"], scores["BLEU"], strict=True):
        assert table.loc[name, "BLEU"] == pytest.approx(round(result.score, 2), abs=1e-9)
        if result.p_value is not None:
            assert table.loc[name, "p-value"] == pytest.approx(round(result.p_value, 4), abs=1e-9)

    segment = page.get_by_label("Show segment")
    segment.fill("7")
    segment.press("Enter")
    first = names[0]
    expected = sacrebleu.sentence_bleu(hyps[first][6], [refs[0][6]])
    shown = page.locator('[data-testid="stMarkdownContainer"]').filter(has_text=f"{first}: sentence BLEU")
    expect(shown).to_contain_text(f"{expected.score:.2f}", timeout=30_000)
    expect(page.get_by_text(f"reference 1: {refs[0][6]}")).to_be_visible()
    page.locator('[data-testid="stButtonGroup"]').get_by_text("Characteristic n-grams", exact=True).click()
    expect(page.get_by_text("Matched more often than the others")).to_be_visible(timeout=60_000)
    assert page.dialogs == []
    assert page.console_errors == []
