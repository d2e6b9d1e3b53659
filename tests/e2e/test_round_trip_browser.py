"""Round trips in a real browser: a Corpus segment with a what-if edit goes to Explain and comes back by the
"Back to segment N on Corpus" button with its number and edit; the Implementations page keeps a typed sentence
through corpus mode, whose tool selectors show the corpus functions' names."""

from __future__ import annotations

from typing import Any

import sacrebleu
from playwright.sync_api import expect

from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from tests.e2e.conftest import IDLE
from tests.e2e.test_explain_browser import expect_metric, wait_for_app

HYPS = list(DEMO_SYSTEMS["literal"])
REFS = [list(stream) for stream in DEMO_REFERENCES]
SEGMENT = 3
EDIT = "an edited line with words from " + REFS[0][SEGMENT - 1]


def settle(page: Any) -> None:
    page.wait_for_function(IDLE, timeout=120_000)
    page.wait_for_timeout(300)


def segment_input(page: Any) -> Any:
    return page.locator('[data-testid="stNumberInput"]').filter(has_text="Walk through segment").locator("input")


def editor(page: Any, segment: int) -> Any:
    return (
        page.locator('[data-testid="stTextArea"]')
        .filter(has_text=f"What if segment {segment} read")
        .locator("textarea")
    )


def test_corpus_segment_and_edit_survive_explain_and_the_way_back(server: str, page: Any) -> None:
    page.goto(f"{server}/corpus")
    wait_for_app(page)
    segment_input(page).fill(str(SEGMENT))
    segment_input(page).press("Enter")
    settle(page)
    editor(page, SEGMENT).fill(EDIT)
    editor(page, SEGMENT).press("Control+Enter")
    settle(page)
    edited = list(HYPS)
    edited[SEGMENT - 1] = EDIT
    after = f"{sacrebleu.corpus_bleu(edited, REFS).score:.2f}"
    expect_metric(page, "corpus BLEU after the edit", after)

    page.get_by_role("button", name="Open this segment on Explain").click()
    settle(page)
    expect(page.get_by_label("Candidate (the system output)")).to_have_value(EDIT, timeout=60_000)
    back = page.get_by_role("button", name=f"Back to segment {SEGMENT} on Corpus (with your edit)")
    expect(back).to_be_visible(timeout=60_000)

    back.click()
    settle(page)
    expect(segment_input(page)).to_have_value(str(SEGMENT), timeout=60_000)
    expect(editor(page, SEGMENT)).to_have_value(EDIT)
    expect_metric(page, "corpus BLEU after the edit", after)
    assert page.dialogs == []


def expect_selector(page: Any, label: str, value: str) -> None:
    """The tool selector labelled ``label`` is the only one (the other mode's is gone) and shows ``value``."""
    box = page.get_by_role("combobox", name=label, exact=True)
    expect(box).to_have_count(1, timeout=60_000)
    expect(box).to_have_value(value, timeout=60_000)


def test_implementations_keeps_the_sentence_and_names_tools_by_mode(server: str, page: Any) -> None:
    page.goto(f"{server}/implementations")
    page.wait_for_selector('[data-testid="stTable"]', timeout=60_000)
    settle(page)
    typed = "my own sentence about the bakery"
    box = page.get_by_label("Candidate (the system output)")
    box.fill(typed)
    box.press("Enter")
    settle(page)
    expect_selector(page, "First tool (A)", "sacreBLEU sentence_bleu")

    page.get_by_text("A corpus (files)", exact=True).click()
    settle(page)
    expect(page.locator('[data-testid="stFileUploaderDropzoneInput"]')).to_have_count(2, timeout=60_000)
    expect_selector(page, "First tool (A)", "sacreBLEU corpus_bleu")
    expect_selector(page, "Second tool (B)", "NLTK 3.10 corpus_bleu")

    page.get_by_text("One sentence", exact=True).click()
    settle(page)
    expect(page.get_by_label("Candidate (the system output)")).to_have_value(typed, timeout=60_000)
    expect_selector(page, "First tool (A)", "sacreBLEU sentence_bleu")
