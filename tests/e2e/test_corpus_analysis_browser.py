"""The Corpus page's analyses in a real browser: upload, follow an n-gram to its segments, edit one segment
(what-if), visit Explain and come back to the same files; screenshots of each step in tests/e2e/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from playwright.sync_api import expect

from tests.conftest import Pair, read_plain
from tests.e2e.conftest import IDLE, SCREENSHOTS
from tests.e2e.test_corpus_browser import upload, view
from tests.e2e.test_explain_browser import expect_metric, wait_for_app

SEGMENTS = 300


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"corpus-{name}.png"), full_page=True)


def test_follow_an_ngram_edit_a_segment_and_come_back(
    server: str, page: Any, pairs: list[Pair], tmp_path: Path
) -> None:
    pair = next((p for p in pairs if p.name == "de-en"), None)
    if pair is None or len(pair.references) < 2:
        pytest.skip("the WMT22 de-en pair with two references is not in the data folder")
    hyps = read_plain(pair.systems[0])[:SEGMENTS]
    refs = [read_plain(p)[:SEGMENTS] for p in pair.references[:2]]
    files = {"system.en": hyps, "ref-A.en": refs[0], "ref-B.en": refs[1]}
    for name, lines in files.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    page.goto(f"{server}/corpus")
    wait_for_app(page)
    page.get_by_text("Upload files").click()
    upload(page, "Hypothesis", str(tmp_path / "system.en"))
    upload(page, "References", [str(tmp_path / "ref-A.en"), str(tmp_path / "ref-B.en")])
    expected = sacrebleu.corpus_bleu(hyps, refs)
    expect_metric(page, "BLEU ×100", f"{expected.score:.2f}")

    view(page, "N-grams")
    follow = page.get_by_text("Follow an n-gram to its segments")
    expect(follow).to_be_visible(timeout=60_000)
    caption = page.get_by_text("segments hold it in the hypothesis or a reference")
    expect(caption).to_be_visible()
    # the system writes don't where the references write don’t: named above the lists
    expect(page.get_by_text("words or marks are written with other characters than the references use")).to_be_visible()
    shot(page, "ngrams")
    occurrences = page.locator('[data-testid="stDataFrame"]').last
    occurrences.scroll_into_view_if_needed()
    expect(occurrences).to_contain_text("⟦")
    SCREENSHOTS.mkdir(exist_ok=True)
    occurrences.screenshot(path=str(SCREENSHOTS / "corpus-ngram-segments.png"))

    view(page, "Segments")
    editor = page.get_by_label("What if segment")
    expect(editor).to_be_visible(timeout=30_000)
    index = int(re.search(r"segment (\d+)", editor.get_attribute("aria-label") or "").group(1)) - 1  # type: ignore[union-attr]
    expect(editor).to_have_value(hyps[index])
    editor.fill(refs[0][index])
    editor.press("Control+Enter")
    page.wait_for_function(IDLE, timeout=60_000)
    edited = list(hyps)
    edited[index] = refs[0][index]
    expect_metric(page, "corpus BLEU after the edit", f"{sacrebleu.corpus_bleu(edited, refs).score:.2f}")
    expect_metric(page, "sentence BLEU after the edit", "100.00")
    page.locator('[data-testid="stMetric"]').filter(has_text="corpus BLEU after the edit").scroll_into_view_if_needed()
    shot(page, "what-if")

    page.get_by_role("link", name="Explain").first.click()
    page.wait_for_function(IDLE, timeout=60_000)
    page.get_by_role("link", name="Corpus").first.click()
    page.wait_for_function(IDLE, timeout=60_000)
    expect_metric(page, "BLEU ×100", f"{expected.score:.2f}")
    expect(page.get_by_text("Loaded earlier in this session")).to_be_visible()
    shot(page, "after-explain")
    assert page.dialogs == []
    assert page.console_errors == []
