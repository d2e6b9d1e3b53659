"""Every page through app.py, in Chinese: headings, prose, captions and widget labels hold no English beyond
technical terms and the example's own words; the language switch turns the interface back to English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu_core.i18n import catalog
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SOURCE, DEMO_SYSTEMS, PRESETS
from pages.implementations_page.views import EXAMPLE_CANDIDATE, EXAMPLE_REFERENCES
from pages.shared.i18n import LANGUAGE, SWITCH
from tests.i18n_check import rendered_labels, untranslated

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = [
    "pages/explain.py",
    "pages/corpus.py",
    "pages/compare.py",
    "pages/implementations.py",
    "pages/about.py",
]
EXAMPLES = [
    *(line for lines in DEMO_SYSTEMS.values() for line in lines),
    *(line for stream in DEMO_REFERENCES for line in stream),
    *DEMO_SOURCE,
    *(text for preset in PRESETS for text in (preset.candidate, *preset.references)),
    EXAMPLE_CANDIDATE,
    *EXAMPLE_REFERENCES,
]
#: User data the pages show in prose: the examples' words and the demo systems' file names.
USER_WORDS = {w for line in EXAMPLES for w in re.findall(r"[A-Za-z][A-Za-z\-]*|[A-Za-z]+", line)} | set(DEMO_SYSTEMS)


def app_in(language: str, page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["lang"] = language
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("page", PAGES)
def test_every_page_speaks_chinese(page: str) -> None:
    at = app_in("zh", page)
    labels = [re.sub(r"\\(.)", r"\1", text) for text in rendered_labels(at)]  # Markdown escapes removed
    assert labels, "the page rendered nothing to check"
    assert untranslated(labels, allowed=USER_WORDS) == {}
    assert any(re.search(r"[\u4e00-\u9fff]", text) for text in labels)


def test_the_switch_changes_the_language() -> None:
    at = app_in("zh", "pages/about.py")
    assert at.title[0].value == catalog("zh")["app.title"]
    at.session_state[SWITCH] = "en"  # what a click on "English" leaves, before the switch's callback runs
    at.session_state[LANGUAGE] = "en"
    at.run()
    assert at.title[0].value == catalog("en")["app.title"]


@pytest.mark.parametrize("page", PAGES)
def test_switching_language_on_every_page_raises_nothing(page: str) -> None:
    at = app_in("en", page)
    english = [text for text in rendered_labels(at)]
    at.button_group(key=SWITCH).set_value("zh").run()
    assert not at.exception, at.exception
    at.run()
    assert not at.exception, at.exception
    assert rendered_labels(at) != english
    at.button_group(key=SWITCH).set_value("en").run()
    assert not at.exception, at.exception
