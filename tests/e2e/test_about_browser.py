"""The About page in a real browser: the formula, the worked number, and links that reach every page."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from bleu_core import sentence_bleu
from bleu_core.teach.examples import DEFAULT_PRESET
from tests.e2e.test_hostile_and_load import settle


def test_about_page_links_reach_every_page(server: str, page: Any) -> None:
    page.goto(f"{server}/about")
    settle(page)
    expect(page.get_by_role("heading", name="BLEU Explorer")).to_be_visible(timeout=30_000)
    score = sentence_bleu(DEFAULT_PRESET.candidate, list(DEFAULT_PRESET.references), **DEFAULT_PRESET.options())
    expect(page.get_by_text(f"{score.score:.3f}")).to_be_visible()
    assert page.locator(".katex").count() >= 1
    for label, heading in [
        ("Corpus: why is my score low?", "Corpus BLEU: why is the score what it is?"),
        ("Compare: systems side by side", "Compare systems"),
        ("Implementations: why tools disagree", "Why BLEU differs between tools"),
        ("Explain: one sentence, every step", "Explain BLEU, step by step"),
    ]:
        page.goto(f"{server}/about")
        settle(page)
        page.get_by_role("link", name=label).click()
        expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=60_000)
    assert page.dialogs == []
    assert page.console_errors == []


def test_every_page_has_its_own_address_and_the_bare_one_opens_explain_with_its_query(server: str, page: Any) -> None:
    page.goto(f"{server}/explain?candidate=a+b+c&reference=a+b+d&reference=a+b+c+d")
    settle(page)
    expect(page.get_by_role("heading", name="Explain BLEU, step by step")).to_be_visible(timeout=60_000)
    assert "not found" not in page.inner_text("body").lower()
    page.goto(f"{server}/?candidate=x+y&reference=x+z&reference=x+y+z&lang=zh")
    settle(page)
    expect(page.get_by_role("heading", name="逐步讲解 BLEU")).to_be_visible(timeout=60_000)
    address = urlsplit(page.url)
    query = parse_qs(address.query)
    assert address.path == "/explain" and query["reference"] == ["x z", "x y z"] and query["candidate"] == ["x y"]
    assert "not found" not in page.inner_text("body").lower() and "找不到" not in page.inner_text("body")
