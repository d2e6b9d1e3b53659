"""Compare's "By label" view at 1280x720 with ten WMT22 systems and a tags file of 40 labels: the table and the
heatmap (its 30 largest labels) fit, no text on a chart is cut off, every drawn label is one of the largest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bleu_core.i18n import catalog, text
from pages.compare_page.label_views import CHART_LABELS
from tests.conftest import Pair
from tests.e2e.conftest import IDLE
from tests.e2e.test_corpus_browser import upload
from tests.e2e.test_pages_fit_browser import CHARTS, check, choose_view, open_tab, settle, upload_systems


def tags_file(folder: Path, segments: int) -> tuple[Path, list[str]]:
    """40 labels of unequal sizes (label k takes a share that grows with k), and the 30 largest of them."""
    labels = [f"domain {min(39, int((i / segments) ** 0.5 * 40)):02d}" for i in range(segments)]
    path = folder / "tags.txt"
    path.write_text("\n".join(labels) + "\n", encoding="utf-8")
    sizes = {label: labels.count(label) for label in dict.fromkeys(labels)}
    largest = sorted(sizes, key=lambda label: -sizes[label])[:CHART_LABELS]
    return path, largest


@pytest.mark.parametrize("language", ["en", "zh"])
def test_ten_systems_by_forty_labels_fit_1280x720(
    server: str, browser: Any, request: pytest.FixtureRequest, pairs: list[Pair], language: str, tmp_path: Path
) -> None:
    pair = max((p for p in pairs if p.tokenize == "13a"), key=lambda p: min(len(p.systems), 10), default=None)
    if pair is None or len(pair.systems) < 5:
        pytest.skip("no WMT22 pair with five systems or more in the data folder")
    segments = sum(1 for _ in open(pair.references[0], encoding="utf-8"))  # noqa: SIM115 - read once
    tags, largest = tags_file(tmp_path, segments)
    tab = open_tab(browser, request, 1280, 720)
    tab.goto(f"{server}/compare?lang={language}")
    tab.wait_for_selector('[data-testid="stDataFrame"]', timeout=120_000)
    tab.wait_for_function(IDLE, timeout=120_000)
    upload_systems(tab, pair, language)
    summary = catalog(language)["verdict.summary"].split("**")[0].strip()
    tab.get_by_text(summary).first.wait_for(timeout=300_000)
    choose_view(tab, text("slices.compare.details", language))
    upload(tab, text("slices.upload", language), str(tags))
    caption = text("slices.compare.chart_caption", language, drawn=CHART_LABELS, labels=40, alpha=0.05)
    tab.get_by_text(caption[:12]).first.wait_for(timeout=300_000)
    settle(tab)
    problems = check(tab, f"compare-by-label-{language}-1280x720")
    chart_text = tab.evaluate(
        f"() => [...document.querySelectorAll('{CHARTS}')].flatMap((c) => [...c.querySelectorAll('text')])"
        ".map((t) => t.textContent)"
    )
    domains = {value for value in chart_text if value.startswith("domain ")}
    assert domains == set(largest), "the heatmap draws exactly the 30 largest labels"
    assert problems == [], "\n".join(problems)
    assert tab.console_errors == []
    tab.context.close()
