"""AppTest: the Compare page in Chinese shows no English prose, and in English no raw catalog key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import pages.i18n
from bleu_core.examples import DEMO_SYSTEMS
from bleu_core.i18n import catalog
from tests.i18n_check import rendered_labels, untranslated

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "compare.py")
#: User data on the page: the demo systems' names.
SYSTEM_NAMES = tuple(DEMO_SYSTEMS)
RAW_KEY = re.compile(r"\b[a-z_]+\.[a-z0-9_]+\b")


def page(language: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The page in ``language``.

    AppTest calls widgets' ``format_func`` outside the script run, where the session (and so the language) is
    unknown; widgets whose labels call ``t`` lazily (the shared settings' tokenizer names) would then be formatted
    in English and no longer match their options.  The test fixes the language for those calls.
    """
    monkeypatch.setattr(pages.i18n, "language", lambda: language)
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["lang"] = language
    return at.run()


def raw_keys(texts: list[str]) -> list[str]:
    keys = set(catalog("en"))
    return [value for value in texts for found in RAW_KEY.findall(value) if found in keys]


def every_view(at: AppTest) -> list[str]:
    """The labels of the page with each detail view open in turn."""
    texts = rendered_labels(at)
    for view in ("precisions", "characteristic", "segments"):
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
