"""The Compare page's scatter in a real browser: a clicked point opens its segment once; a typed number stays."""

from __future__ import annotations

from typing import Any

import sacrebleu
from playwright.sync_api import expect

from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from tests.e2e.conftest import IDLE
from tests.e2e.test_corpus_browser import choose

SCATTER = '[data-testid="stVegaLiteChart"]'


def sentence_scores(name: str) -> list[float]:
    """sacreBLEU's sentence BLEU of each demo segment (the scatter's axes, by another route)."""
    refs = [[stream[i] for stream in DEMO_REFERENCES] for i in range(len(DEMO_SYSTEMS[name]))]
    return [sacrebleu.sentence_bleu(h, r).score for h, r in zip(DEMO_SYSTEMS[name], refs, strict=True)]


def most_different(a: str, b: str) -> int:
    """The 1-based segment where the two systems differ most (the first of equals): the list's first row."""
    diffs = [abs(x - y) for x, y in zip(sentence_scores(a), sentence_scores(b), strict=True)]
    return max(range(len(diffs)), key=lambda i: (diffs[i], -i)) + 1


def shown(page: Any) -> int:
    return int(page.get_by_label("Show segment").input_value())


def test_a_clicked_point_opens_its_segment_once_and_a_new_pair_opens_where_they_differ_most(
    server: str, page: Any
) -> None:
    names = list(DEMO_SYSTEMS)
    page.goto(f"{server}/compare")
    page.wait_for_function(IDLE, timeout=60_000)
    chart = page.locator(SCATTER).filter(has_text="Sentence BLEU per segment")
    expect(chart.locator('[aria-roledescription="circle"]').first).to_be_attached(timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    assert shown(page) == most_different(names[0], names[1])

    points = chart.locator('[aria-roledescription="circle"]')
    labels = [points.nth(i).get_attribute("aria-label") or "" for i in range(points.count())]
    assert len(labels) == len(DEMO_SYSTEMS[names[0]])
    target = next(k for k in range(1, len(labels) + 1) if k != shown(page))
    point = points.nth(next(i for i, label in enumerate(labels) if f"segment: {target};" in label))
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.get_by_label("Show segment")).to_have_value(str(target), timeout=30_000)

    typed = next(k for k in range(1, len(labels) + 1) if k != target)
    field = page.get_by_label("Show segment")
    field.fill(str(typed))
    field.press("Enter")
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(1000)
    page.wait_for_function(IDLE, timeout=60_000)
    assert shown(page) == typed  # the chart still holds the old click; it does not undo the typed number

    choose(page, "System B", names[2])
    page.wait_for_function(IDLE, timeout=60_000)
    expect(page.get_by_label("Show segment")).to_have_value(str(most_different(names[0], names[2])), timeout=30_000)
    assert page.console_errors == []
