"""The chrF++ exercise in a real browser, from its link (``metric=chrf%2B%2B``): the character steps' answers
shown, the word step answered with words split at spaces only, its mistake named, then its answer and word table
shown.

Leaves tests/e2e/screenshots/chrf_pp_exercise_words.png for a person to look at.
"""

from __future__ import annotations

import urllib.parse
from collections import Counter
from typing import Any

from playwright.sync_api import expect
from sacrebleu.metrics import CHRF

from bleu_core.i18n import text
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_hostile_and_load import settle

CANDIDATE = "the cat sat (on) the mat."
REFERENCE = "the cat sat on the mat ."


def test_word_step_from_the_link(server: str, page: Any) -> None:
    query = urllib.parse.urlencode(
        {"exercise": "1", "metric": "chrf++", "candidate": CANDIDATE, "reference": REFERENCE}
    )
    assert "metric=chrf%2B%2B" in query
    page.goto(f"{server}/?{query}")
    title = text("exercise.title_chrf", metric="chrF++")  # the exercise names the metric it asks for
    expect(page.get_by_role("heading", name=title)).to_be_visible(timeout=60_000)
    settle(page)
    expect(page.get_by_role("radio", name="chrF++")).to_be_checked()
    for _ in range(2):  # the character 1-grams, then P1 and R1
        page.get_by_role("button", name=text("exercise.reveal")).first.click()
        settle(page)
    heading = text("chrf.exercise.words.step_words", step=3, steps=4)
    expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=30_000)
    words = CHRF(word_order=2)._remove_punctuation  # sacreBLEU's own splitting (2.6.0 pinned)
    hyp, ref = Counter(words(CANDIDATE)), Counter(words(REFERENCE))
    spaced = sum((Counter(CANDIDATE.split()) & Counter(REFERENCE.split())).values())
    form = page.locator('[data-testid="stForm"]').last
    for key, value in (
        ("matches", spaced),
        ("candidate_total", sum(hyp.values())),
        ("reference_total", sum(ref.values())),
    ):
        box = form.get_by_label(text(f"chrf.exercise.words.{key}"))
        box.fill(str(value))
        box.press("Tab")
    form.get_by_role("button", name=text("exercise.check")).click()
    settle(page)
    expect(page.get_by_text("You split at spaces only", exact=False)).to_be_visible(timeout=30_000)
    page.get_by_role("button", name=text("exercise.reveal")).last.click()
    settle(page)
    answer = text("exercise.answer", label=text("chrf.exercise.words.matches"), value=str(sum((hyp & ref).values())))
    expect(page.get_by_text(answer, exact=False)).to_be_visible(timeout=30_000)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "chrf_pp_exercise_words.png"), full_page=True)
    assert "metric=chrf%2B%2B" in page.url
    assert page.console_errors == []
