"""A language switch and back in a real browser keeps uploaded files, the input mode and every setting.

A widget's options are shown through its language's labels, so after a switch the browser holds a label of the
other language.  Without ``pages.shared.i18n.carry_widget_values`` (tried with Streamlit 1.67, where a key alone
is a widget's identity) the input mode showed no choice in Chinese, and back in English the tokenizer box held
"13a (sacreBLEU default)" instead of "13a" and the page failed.
"""

from __future__ import annotations

from typing import Any

import pytest
import sacrebleu
from playwright.sync_api import expect

from tests.conftest import Pair
from tests.e2e.conftest import IDLE
from tests.e2e.test_corpus_browser import upload
from tests.e2e.test_explain_browser import expect_metric, wait_for_app


def switch(page: Any, language: str) -> None:
    page.get_by_role("radiogroup", name="Language / 语言").get_by_role("radio", name=language).click()
    page.wait_for_timeout(500)  # the switch's rerun has started
    page.wait_for_function(IDLE, timeout=120_000)


def test_corpus_keeps_files_mode_and_settings_through_a_round_trip(server: str, page: Any, pairs: list[Pair]) -> None:
    pair = next((p for p in pairs if p.tokenize == "13a"), None)
    if pair is None:
        pytest.skip("no WMT22 pair scored with the 13a tokenizer in the data folder")
    system, reference = pair.systems[0], pair.references[0]
    hyps = system.read_text(encoding="utf-8").splitlines()
    refs = reference.read_text(encoding="utf-8").splitlines()
    lowercased = f"{sacrebleu.corpus_bleu(hyps, [refs], lowercase=True).score:.2f}"
    page.goto(f"{server}/corpus")
    wait_for_app(page)
    page.get_by_text("Upload files").click()
    upload(page, "Hypothesis", str(system))
    upload(page, "References", str(reference))
    page.get_by_text("lowercase", exact=True).click()
    expect_metric(page, "BLEU ×100", lowercased)

    switch(page, "中文")
    expect(page.get_by_role("heading", name="语料级 BLEU：分数为什么是这样？")).to_be_visible()
    expect(page.get_by_role("radio", name="上传文件")).to_be_checked()
    expect(page.get_by_role("checkbox", name="转为小写")).to_be_checked()
    expect_metric(page, "BLEU ×100", lowercased)

    switch(page, "English")
    expect(page.get_by_role("heading", name="Corpus BLEU: why is the score what it is?")).to_be_visible()
    expect(page.get_by_role("radio", name="Upload files")).to_be_checked()
    expect(page.get_by_role("checkbox", name="lowercase")).to_be_checked()
    expect(page.get_by_role("combobox", name="tokenizer")).to_have_value("13a (sacreBLEU default)")
    expect_metric(page, "BLEU ×100", lowercased)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.console_errors == []
