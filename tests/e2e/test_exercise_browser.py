"""Exercise mode in a real browser: a generated exercise from its link, one step answered wrong, then right.

Leaves tests/e2e/screenshots/exercise_step1.png and exercise_step1_zh.png (the feedback) for a person to look at;
the Chinese one needs a CJK font (Debian fonts-noto-cjk) to show characters rather than boxes.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from bleu_core.i18n import text
from bleu_core.teach.exercise_checks import exercise_steps, expected_value, mistaken_values
from bleu_core.teach.exercises import generate_exercise
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_hostile_and_load import settle


def fill_step(page: Any, matches: float, total: float, language: str = "en") -> None:
    form = page.locator('[data-testid="stForm"]').first
    for name, value in (
        (text("exercise.matches", language, n=1), matches),
        (text("exercise.total", language, n=1), total),
    ):
        box = form.get_by_label(name)
        box.fill(f"{value:g}")
        box.press("Tab")
    form.get_by_role("button", name=text("exercise.check", language)).click()
    settle(page)


def test_one_step_wrong_then_right(server: str, page: Any) -> None:
    exercise = generate_exercise(3, "repeated_words")
    trace = exercise.explanation()
    matches, total = exercise_steps(trace)[0]
    page.goto(f"{server}/?exercise=1&seed=3&trap=repeated_words")
    expect(page.get_by_role("heading", name=text("exercise.title"))).to_be_visible(timeout=60_000)
    settle(page)
    expect(page.get_by_text(exercise.candidate, exact=True)).to_be_visible()

    fill_step(page, dict(mistaken_values(trace, matches))["not_clipped"], expected_value(trace, total))
    alert = page.get_by_text(text("exercise.mistake_not_clipped"), exact=False)
    expect(alert).to_be_visible(timeout=30_000)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "exercise_step1.png"), full_page=True)

    fill_step(page, expected_value(trace, matches), expected_value(trace, total))
    expect(alert).to_have_count(0, timeout=30_000)
    steps = len(exercise_steps(trace))
    expect(page.get_by_role("heading", name=text("exercise.step_order", step=2, steps=steps, n=2))).to_be_visible()
    assert "seed=3" in page.url and "exercise=1" in page.url
    assert page.console_errors == []


def test_chinese_feedback(server: str, page: Any) -> None:
    trace = generate_exercise(3, "repeated_words").explanation()
    matches, total = exercise_steps(trace)[0]
    page.goto(f"{server}/?exercise=1&seed=3&trap=repeated_words&lang=zh")
    expect(page.get_by_role("heading", name=text("exercise.title", "zh"))).to_be_visible(timeout=60_000)
    settle(page)
    fill_step(page, dict(mistaken_values(trace, matches))["summed_references"], expected_value(trace, total), "zh")
    expect(page.get_by_text(text("exercise.mistake_summed_references", "zh"))).to_be_visible(timeout=30_000)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "exercise_step1_zh.png"), full_page=True)
    assert "lang=zh" in page.url
    assert page.console_errors == []
