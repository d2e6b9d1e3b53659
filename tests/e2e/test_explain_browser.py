"""The explain page in a real browser: a shared link, a slider, an upload, hostile text."""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from bleu_core.teach.explain import explain
from tests.e2e.conftest import IDLE


def wait_for_app(page: Any) -> None:
    page.wait_for_selector('[data-testid="stMetricValue"]', timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(500)


def metric(page: Any, label: str) -> str:
    block = page.locator('[data-testid="stMetric"]').filter(has_text=label)
    return str(block.locator('[data-testid="stMetricValue"]').inner_text()).strip()


def expect_metric(page: Any, label: str, value: str) -> None:
    block = page.locator('[data-testid="stMetric"]').filter(has_text=label)
    expect(block.locator('[data-testid="stMetricValue"]')).to_have_text(value, timeout=30_000)


def test_shared_link_slider_upload_and_hostile_text(server: str, page: Any, tmp_path: Path) -> None:
    query = urllib.parse.urlencode(
        [
            ("candidate", "the cat the cat on the mat"),
            ("reference", "the cat is on the mat"),
            ("reference", "there is a cat on the mat"),
            ("max_n", "2"),
            ("weights", "1,1"),
            ("tokenize", "13a"),
            ("smooth", "none"),
        ]
    )
    page.goto(f"{server}/?{query}")
    wait_for_app(page)
    cat_refs = ["the cat is on the mat", "there is a cat on the mat"]
    expected = explain("the cat the cat on the mat", cat_refs, max_order=2, smooth="none", effective_order=False)
    assert metric(page, "BLEU (0–1)") == f"{expected.score:.4f}"
    assert "p1 = 5/7" in page.inner_text("body")

    # Move the first weight slider to 0: only bigrams count, BLEU = p2 = 4/6.
    thumb = page.locator('[data-testid="stSlider"] input[type="range"][aria-label="w1"]')
    thumb.focus()
    thumb.press("Home")
    expect_metric(page, "BLEU (0–1)", "0.6667")
    page.wait_for_function("() => location.search.includes('weights=0%2C1')", timeout=30_000)

    # Upload a reference file: it replaces the references.
    ref_file = tmp_path / "refs.txt"
    ref_file.write_text("the cat the cat on the mat\n", encoding="utf-8")
    page.get_by_text("…or upload text files").click()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').nth(1).set_input_files(str(ref_file))
    expect_metric(page, "BLEU (0–1)", "1.0000")
    expect_metric(page, "c / r", "7 / 7")

    # Hostile text shows as text: no dialog, no injected element.
    hostile = "<img src=x onerror=alert(1)> <script>alert(2)</script> [link](javascript:alert(3))"
    box = page.get_by_label("Candidate (the system output)")
    box.fill(hostile)
    box.press("Enter")
    page.wait_for_function("() => document.body.innerText.includes('onerror')", timeout=30_000)
    page.wait_for_timeout(1000)
    assert page.dialogs == []
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
    assert page.console_errors == [] or all("favicon" in e for e in page.console_errors)
