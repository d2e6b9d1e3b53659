"""AppTest: the Compare page in Chinese shows no English prose, and in English no raw catalog key."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.testing.v1 import AppTest

import pages.shared.i18n
from bleu_core import make_options
from bleu_core.compare.ranking import compare_from_stats, rank_systems
from bleu_core.compare.significance import _system_statistics
from bleu_core.corpus.diagnosis import analyze_corpus
from bleu_core.i18n import catalog
from bleu_core.stats.progress import ProgressReporter
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from pages.compare_page import report as compare_report
from pages.compare_page import verdict_views
from tests.i18n_check import rendered_labels, untranslated

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "compare.py")
#: User data on the page: the demo systems' names.
SYSTEM_NAMES = tuple(DEMO_SYSTEMS)
DEMO_REFS = [list(stream) for stream in DEMO_REFERENCES]
RAW_KEY = re.compile(r"\b[a-z_]+\.[a-z0-9_]+\b")


def page(language: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The page in ``language``.

    AppTest calls widgets' ``format_func`` outside the script run, where the session (and so the language) is
    unknown; widgets whose labels call ``t`` lazily (the shared settings' tokenizer names) would then be formatted
    in English and no longer match their options.  Outside the script run the test answers with ``language``;
    inside it the page reads the language from the link as it does for a user.
    """
    real = pages.shared.i18n.language
    monkeypatch.setattr(pages.shared.i18n, "language", lambda: real() if get_script_run_ctx() else language)
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["lang"] = language
    return at.run()


def raw_keys(texts: list[str]) -> list[str]:
    keys = set(catalog("en"))
    return [value for value in texts for found in RAW_KEY.findall(value) if found in keys]


def every_view(at: AppTest) -> list[str]:
    """The labels of the page with each detail view open in turn."""
    texts = rendered_labels(at)
    for view in ("precisions", "characteristic", "labels", "segments"):
        at.segmented_control(key="cmp_details").set_value(view).run()
        assert not at.exception
        texts += rendered_labels(at)
    return texts


def test_chinese_compare_page_is_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("zh", monkeypatch)
    assert not at.exception
    assert at.title[0].value == catalog("zh")["compare.title"]
    assert untranslated(every_view(at), allowed=SYSTEM_NAMES) == {}
    headers = [list(frame.value.columns) for frame in at.dataframe]
    assert any("p 值" in columns and "结论" in columns for columns in headers)


def test_chinese_compare_page_with_upload_mode_and_other_test(monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("zh", monkeypatch)
    at.radio(key="cmp_test").set_value("ar").run()
    at.selectbox(key="cmp_correction").set_value("none").run()
    assert not at.exception
    texts = rendered_labels(at)
    at.radio(key="cmp_mode").set_value("upload").run()
    assert not at.exception
    texts += rendered_labels(at)
    assert untranslated(texts, allowed=SYSTEM_NAMES) == {}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_no_raw_catalog_key_is_shown(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page(language, monkeypatch)
    assert raw_keys(every_view(at)) == []


def test_chinese_report_headings_and_charts() -> None:
    """The downloadable HTML report speaks the page's language (system names and the signature are data)."""
    options = make_options()
    stats = _system_statistics(
        {k: list(v) for k, v in DEMO_SYSTEMS.items()}, DEMO_REFS, options, ProgressReporter(None)
    )
    comparison = compare_from_stats(stats, options, n_samples=200)
    ranks, _ = rank_systems(comparison)
    analyses = {n: analyze_corpus(s, options, 2) for n, s in stats.items()}
    frame = verdict_views.results_frame(analyses, comparison, ranks, 0.05)
    report = compare_report.build_report(
        frame,
        ranks,
        comparison,
        signature="nrefs:2",
        settings={},
        created=datetime.now(UTC),
        explanation=catalog("zh")["significance.explanation"],
        language="zh",
    )
    assert '<html lang="zh">' in report
    shown = re.findall(r"<(?:h1|h2|th|text[^>]*)>([^<]+)<", report)
    assert shown and untranslated(shown, allowed=SYSTEM_NAMES) == {}
