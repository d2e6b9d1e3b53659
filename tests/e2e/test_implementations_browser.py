"""The Implementations page in a real browser: the example's numbers, a corpus upload, hostile text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from bleu_core.tools import compare_corpus_implementations, compare_implementations, number
from pages.implementations_page.views import EXAMPLE_CANDIDATE, EXAMPLE_REFERENCES
from tests.e2e.conftest import IDLE
from tests.e2e.test_corpus_browser import upload


def wait_for_page(page: Any) -> None:
    page.wait_for_selector('[data-testid="stTable"]', timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(500)


def score_cells(page: Any, names: list[str]) -> dict[str, list[str]]:
    """Rows of the first table (the scores), by implementation name, once every one of ``names`` is shown.

    On a busy machine the first table read can still be the one of the previous run (or a half-drawn one),
    so the rows are read again until they name every expected tool, for at most a minute.
    """
    out: dict[str, list[str]] = {}
    for _ in range(120):
        rows = page.locator('[data-testid="stTable"]').first.locator("tbody tr")
        out = {}
        for i in range(rows.count()):
            cells = [str(c).strip() for c in rows.nth(i).locator("th, td").all_inner_texts()]
            out[cells[0]] = cells[1:]
        if set(names) <= set(out):
            return out
        page.wait_for_timeout(500)
    raise AssertionError(f"the scores table never named {sorted(set(names) - set(out))}; it showed {sorted(out)}")


def test_example_numbers_corpus_upload_and_hostile_text(server: str, page: Any, tmp_path: Path) -> None:
    page.goto(f"{server}/implementations")
    wait_for_page(page)
    rows = compare_implementations(EXAMPLE_CANDIDATE, list(EXAMPLE_REFERENCES))
    shown = score_cells(page, [impl.name for impl, _, _ in rows])
    for impl, native, unit in rows:
        assert shown[impl.name][:3] == [number(native), impl.scale, number(unit)], impl.key
    body = page.inner_text("body")
    assert "sacreBLEU uses 1/(2·7) = 0.07143 (exp smoothing) and NLTK substitutes 2.2e-308" in body
    assert "p_1 becomes 8/9 instead of 7/9 ('the' counted twice" in body
    assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 2

    # Hostile text shows as text: no dialog, no injected element or link.
    hostile = "<img src=x onerror=alert(1)> [x](javascript:alert(1)) \\href{javascript:alert(1)}{x}"
    box = page.get_by_label("Candidate (the system output)")
    box.fill(hostile + " the bakery")
    box.press("Enter")
    page.wait_for_function("() => document.body.innerText.includes(\"'<img' for the other\")", timeout=60_000)
    page.get_by_text("Tokens and clipped counts").click()
    expect(page.locator(".tok").filter(has_text="onerror=alert(1)>").first).to_be_visible(timeout=60_000)
    expect(page.locator(".tok").filter(has_text="\\href{javascript:alert(1)}{x}").first).to_be_visible()
    page.wait_for_timeout(1000)
    assert page.dialogs == []
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator("a[href^='javascript']").count() == 0

    # A corpus: hypothesis and two reference files; every tool's corpus score is shown.
    hyps = ["the cat sat on the mat", "it rained all day long"]
    refs = [["the cat is on the mat", "it rained the whole day"], ["a cat sat on the mat", "it rained all day"]]
    files = []
    for name, lines in (("hyp.txt", hyps), ("ref1.txt", refs[0]), ("ref2.txt", refs[1])):
        files.append(tmp_path / name)
        files[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    page.get_by_text("A corpus (files)", exact=True).click()
    expect(page.locator('[data-testid="stFileUploaderDropzoneInput"]')).to_have_count(2, timeout=60_000)
    upload(page, "Hypothesis", str(files[0]))
    upload(page, "References", [str(files[1]), str(files[2])])
    expect(page.get_by_text("Corpus scores")).to_be_visible(timeout=60_000)
    wait_for_page(page)
    corpus_rows = compare_corpus_implementations(hyps, refs)
    shown = score_cells(page, [impl.name_for(True) for impl, _, _ in corpus_rows])
    for impl, native, _ in corpus_rows:
        if impl.corpus_level:
            assert shown[impl.name_for(True)][0] == number(native), impl.key
        else:  # sentence-only tools: the mean of their sentence scores (checked in test_implementations_page)
            assert shown[impl.name_for(True)][0].startswith("sentences only; the mean of its sentence scores: ")
    assert page.dialogs == []
    # Loading /implementations directly makes Streamlit probe /implementations/_stcore/* (404) first, and an
    # offline machine cannot fetch the page icon; those are network messages, not script errors.
    assert [e for e in page.console_errors if not e.startswith("Failed to load resource")] == []
