"""The corpus page in a real browser: upload a WMT22 system and two references, sort, open a walkthrough."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.conftest import Pair
from tests.e2e.conftest import IDLE
from tests.e2e.test_explain_browser import expect_metric, metric, wait_for_app


def choose(page: Any, label: str, option: str) -> None:
    """Pick ``option`` in the Streamlit selectbox labelled ``label``."""
    box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label).locator("input")
    for attempt in range(3):  # a rerun still in flight can close the list under the click: open it again
        box.click()
        box.fill(option)
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=15_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
    page.wait_for_function(IDLE, timeout=60_000)


def view(page: Any, name: str) -> None:
    """Choose one of the Corpus page's views (a radio: only the chosen view is computed)."""
    page.get_by_role("radiogroup", name="View").get_by_text(name, exact=True).click()
    page.wait_for_function(IDLE, timeout=180_000)


def file_chip(region: Any, name: str, done: bool = False) -> Any:
    """The uploader's entry for ``name``: while uploading its button reads "Cancel upload of …", then "Remove …"."""
    label = rf"Remove {re.escape(name)}" if done else rf"(Remove|Cancel upload of) {re.escape(name)}"
    return region.get_by_role("button", name=re.compile(rf"^{label}$")).first


def upload(page: Any, label: str, files: str | list[str]) -> None:
    """Put files into the uploader labelled ``label`` and wait until each is uploaded and the page has rerun.

    Streamlit sends the upload URLs for chosen files through the session's message queue and empties that queue
    when a script run starts. Files chosen just as the previous upload's rerun starts are then never uploaded
    and the uploader stays empty, so the choice is repeated (at most three times). Chromium fires no change event
    when an input is given the files it already has, so a repeat first empties the input.
    """
    region = page.get_by_role("region", name=label)
    paths = [files] if isinstance(files, str) else files
    box = region.locator('input[type="file"]').first
    for attempt in range(3):
        page.wait_for_function(IDLE, timeout=180_000)
        if attempt:
            box.set_input_files([])
        box.set_input_files(paths)
        try:
            for path in paths:
                file_chip(region, Path(path).name).wait_for(state="attached", timeout=30_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
    for path in paths:
        expect(file_chip(region, Path(path).name, done=True)).to_be_attached(timeout=120_000)
    page.wait_for_timeout(500)  # the rerun that the upload requests has started
    page.wait_for_function(IDLE, timeout=180_000)


def test_demo_then_uploaded_wmt22_files(server: str, page: Any, pairs: list[Pair], tmp_path: Path) -> None:
    pair = next((p for p in pairs if len(p.references) >= 2), None)
    if pair is None:
        pytest.skip("no WMT22 pair with two references in the data folder")
    page.goto(f"{server}/corpus")
    wait_for_app(page)
    assert page.get_by_role("heading", name="Corpus BLEU: why is the score what it is?").is_visible()
    assert metric(page, "BLEU ×100") != ""

    system, refs = pair.systems[0], pair.references[:2]
    page.get_by_text("Upload files").click()
    upload(page, "Hypothesis", str(system))
    upload(page, "References", [str(r) for r in refs])
    hyps = system.read_text(encoding="utf-8").splitlines()
    streams = [r.read_text(encoding="utf-8").splitlines() for r in refs]
    expected = sacrebleu.corpus_bleu(hyps, streams, tokenize=pair.tokenize)
    if pair.tokenize != "13a":
        choose(page, "tokenizer", pair.tokenize)
    expect_metric(page, "BLEU ×100", f"{expected.score:.2f}")
    expect_metric(page, "c / r", f"{expected.sys_len / expected.ref_len:.3f}")
    expect(page.get_by_text(f"c = {expected.sys_len:,} hypothesis tokens, r = {expected.ref_len:,}")).to_be_visible()
    expect(page.get_by_text(f"{len(hyps):,} of {len(hyps):,} segments")).to_be_visible(timeout=30_000)

    # Sort by segment id, descending: the last segment comes first and its walkthrough can be opened.
    choose(page, "sort by", "segment")
    page.get_by_text("ascending", exact=True).click()
    segment = page.get_by_label("Walk through segment")
    segment.fill(str(len(hyps)))
    segment.press("Enter")
    last = len(hyps) - 1
    sentence = sacrebleu.sentence_bleu(hyps[last], [s[last] for s in streams], tokenize=pair.tokenize)
    walkthrough = page.locator('[data-testid="stMarkdownContainer"]').filter(has_text=f"Segment {len(hyps)}:")
    expect(walkthrough).to_contain_text(f"sentence BLEU {sentence.score:.2f}", timeout=30_000)
    expect(page.get_by_role("heading", name="Clipped counts")).to_be_visible()

    view(page, "N-grams")
    expect(page.get_by_text("Under-produced", exact=True)).to_be_visible(timeout=60_000)
    view(page, "Lengths")
    expect(page.locator('[data-testid="stVegaLiteChart"]').last).to_be_visible(timeout=30_000)
    assert page.dialogs == []
    assert page.console_errors == []


def test_mismatched_upload_shows_error_and_hostile_names_stay_text(server: str, page: Any, tmp_path: Path) -> None:
    hyp = tmp_path / "<img src=x onerror=alert(1)>.txt"
    hyp.write_text("one line\nanother line\n", encoding="utf-8")
    ref = tmp_path / "[ref](javascript:alert(2)).txt"
    ref.write_text("one line\n", encoding="utf-8")
    page.goto(f"{server}/corpus")
    wait_for_app(page)
    page.get_by_text("Upload files").click()
    upload(page, "Hypothesis", str(hyp))
    upload(page, "References", str(ref))
    alert = page.locator('[data-testid="stAlertContentError"]').filter(has_text="but the hypothesis")
    expect(alert).to_contain_text("1 line", timeout=30_000)
    expect(alert).to_contain_text("2 lines")
    expect(alert).to_contain_text("<img src=x onerror=alert(1)>.txt")
    assert page.locator('[data-testid="stMetric"]').count() == 0
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
    assert page.dialogs == []
