"""AppTest: the Implementations page in Chinese shows no English prose, keeps ?lang=zh in its link, and in English
shows no raw catalog key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.testing.v1 import AppTest

import pages.shared.i18n
from bleu_core.gaps.mistakes import MistakeCheck, common_mistakes
from bleu_core.i18n import catalog
from pages.implementations_page.views import EXAMPLE_CANDIDATE, EXAMPLE_REFERENCES
from pages.shared import state as S
from tests.i18n_check import rendered_labels, untranslated

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "implementations.py")
RAW_KEY = re.compile(r"\b[a-z_]+\.[a-z0-9_\-]+\b")
HOSTILE = "The cat sat on the mat."
#: User data on the page: the words of the example and of the texts typed below, and the uploaded file names.
USER_WORDS = (
    # whole words and their pieces: the 13a tokens the mistakes section quotes split "well-known" at the hyphen
    *{w for line in (EXAMPLE_CANDIDATE, *EXAMPLE_REFERENCES, HOSTILE) for w in re.findall(r"[A-Za-z\-]+", line)},
    *{w for line in (EXAMPLE_CANDIDATE, *EXAMPLE_REFERENCES, HOSTILE) for w in re.findall(r"[A-Za-z]+", line)},
    "hyp",
    "ref",
)
#: Until the write-up mistakes carry catalog messages (bleu_core/gaps/mistakes.py belongs to the Explain
#: page's work), the mistakes section is English in every language; the check skips it only while that is so.
MISTAKES_TRANSLATED = hasattr(MistakeCheck, "title")


def page(language: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The page in ``language`` (the language is fixed for widgets' ``format_func``, which AppTest calls outside
    the script run)."""
    real = pages.shared.i18n.language
    monkeypatch.setattr(pages.shared.i18n, "language", lambda: real() if get_script_run_ctx() else language)
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["lang"] = language
    return at.run()


def labels(at: AppTest) -> list[str]:
    """The rendered labels, Markdown escapes removed (``float\\_info`` is ``float_info``)."""
    texts = [re.sub(r"\\(.)", r"\1", t) for t in rendered_labels(at)]
    if not MISTAKES_TRANSLATED:
        titles = {c.mistake for c in common_mistakes(EXAMPLE_CANDIDATE, list(EXAMPLE_REFERENCES))}
        texts = [t for t in texts if not any(t.startswith(f"- **{title}**") for title in titles)]
    return texts


def raw_keys(texts: list[str]) -> list[str]:
    keys = set(catalog("en"))
    return [value for value in texts for found in RAW_KEY.findall(value) if found in keys]


PAIRS = [("sacrebleu", "nltk"), ("d2l", "hf-evaluate"), ("multi-bleu", "torchmetrics"), ("nltk-legacy", "matlab")]


def every_pair(at: AppTest, mode: str = "sentence") -> list[str]:
    texts = labels(at)
    for first, second in PAIRS:
        at.selectbox(key=S.tool_key("first", mode)).set_value(first)
        at.selectbox(key=S.tool_key("second", mode)).set_value(second).run()
        assert not at.exception
        texts += labels(at)
    at.selectbox(key="im_order").set_value("rules-first").run()
    return texts + labels(at)


def test_chinese_sentence_mode_is_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("zh", monkeypatch)
    assert not at.exception
    assert at.title[0].value == catalog("zh")["implementations.title"]
    texts = every_pair(at)
    at.text_input(key="im_candidate").set_value(HOSTILE)
    at.text_area(key="im_references").set_value("The cat is on the mat.\nthere is a cat on the mat").run()
    texts += every_pair(at)
    assert untranslated(texts, allowed=USER_WORDS) == {}
    assert at.query_params["lang"] in ("zh", ["zh"]), "the page's link keeps the language"
    headers = {c for table in [*at.table, *at.dataframe] for c in table.value.columns}
    assert {"实现", "步骤", "设置", "字段", "参考译文中的最大次数", "r1 中的次数"} <= headers


def test_chinese_corpus_mode_is_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("zh", monkeypatch)
    at.segmented_control(key="im_mode").set_value("corpus").run()
    texts = labels(at)
    hyp = "the cat sat on the mat\nthere is a cat\n"
    ref = "the cat is on the mat\nthere is a cat here\n"
    at.file_uploader(key="im_hypothesis_file").set_value(("hyp.txt", hyp.encode(), "text/plain"))
    at.file_uploader(key="im_reference_files").set_value([("ref.txt", ref.encode(), "text/plain")]).run()
    assert not at.exception
    texts += every_pair(at, "corpus")
    assert untranslated(texts, allowed=USER_WORDS) == {}
    assert at.query_params["lang"] in ("zh", ["zh"])


@pytest.mark.parametrize("language", ["en", "zh"])
def test_no_raw_catalog_key_is_shown(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page(language, monkeypatch)
    assert raw_keys(every_pair(at)) == []
