"""AppTest: presentation mode on a 60-token sentence, exercise mode reached from the Explain page, the copy link.

Presentation mode: every table of every step stays within a projector's rows, the tables of an order hold its
rows once and in order, every token and n-gram is written as it is (escaped HTML, never Markdown: ``-``, ``*``,
``#``, ``1.``, ``:smile:``, ``<b>``), the keys are bound (Right/PageDown, Left/PageUp), and switching the mode on
starts at step 1.  The browser test tests/e2e/test_present_keyboard_browser.py measures a real WMT22 segment.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from bleu_core.i18n import text
from bleu_core.teach.explain import explain
from pages.explain_page import present
from pages.shared import views

PAGES = Path(__file__).resolve().parents[2] / "pages"

#: Markdown, HTML and Streamlit syntax as tokens (the tokenizer "none" splits on spaces only).
ODD = ["-", "*", "#", "+", "1.", ":smile:", "**bold**", "<b>x</b>", "$x$", ">", "|", "[a](b)", "_i_", "`c`"]
WORDS = [
    *("the", "committee", "said", "on", "friday", "that", "its", "report", "would", "be", "published", "next"),
    *("week", "after", "a", "long", "review"),
]
#: 60 tokens: the odd ones spread among words, two references that share parts of it.
CANDIDATE = " ".join((WORDS + ODD + WORDS + ODD)[:60])
REFERENCES = [
    " ".join((ODD[:7] + WORDS + ODD[7:] + WORDS)[:58]),
    " ".join((WORDS[::-1] + ODD + WORDS)[:55]),
]
#: The most body rows one table may have on a 720 px screen (a row is about 30 px; the header, heading, captions
#: and buttons take the rest).
MOST_ROWS = 13


class Tables(HTMLParser):
    """The tables of an ``st.html`` body: per table, its rows as lists of cell texts (header row first)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def shown_tables(at: AppTest) -> list[list[list[str]]]:
    tables = []
    for element in at.html:
        parser = Tables()
        parser.feed(element.value)
        tables += parser.tables
    return tables


def page(query: dict[str, str | list[str]]) -> AppTest:
    at = AppTest.from_file(str(PAGES / "explain.py"), default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def presenting(lang: str = "en", **extra: str) -> AppTest:
    query: dict[str, str | list[str]] = {
        "candidate": CANDIDATE,
        "reference": REFERENCES,
        "tokenize": "none",
        "present": "1",
        "lang": lang,
    }
    return page({**query, **extra})


def test_the_sentence_is_sixty_tokens_with_markdown_in_them() -> None:
    trace = explain(CANDIDATE, REFERENCES, tokenize="none")
    assert len(trace.candidate_tokens) == 60 and set(ODD) <= set(trace.candidate_tokens)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_table_fits_and_holds_every_ngram_once_as_written(lang: str) -> None:
    at = presenting(lang)
    assert not at.exception
    assert at.slider(key="ex_step").value == 1
    trace = explain(CANDIDATE, REFERENCES, tokenize="none", smooth="none", effective_order=False)
    total = int(at.slider(key="ex_step").max)
    assert total > 7 + 4  # the tables took more than a step each
    rows: dict[int, list[list[str]]] = {o.order: [] for o in trace.orders}
    for step in range(1, total + 1):
        at.slider(key="ex_step").set_value(step).run()
        assert not at.exception, step
        tables = shown_tables(at)
        for table in tables:
            assert len(table) - 1 <= MOST_ROWS, (step, len(table))
        order_tables = [table for table in tables if len(table[0]) == 4 + len(REFERENCES)]
        if order_tables:
            assert not at.table, step  # st.table would read its cells as Markdown
            order = int(re.search(r"[:：] ?(\d)-gram", at.caption[0].value).group(1))  # type: ignore[union-attr]
            for table in order_tables:
                rows[order] += table[1:]
    for breakdown in trace.orders:
        expected = views.order_table(breakdown, len(REFERENCES), lang, compact=True).astype(str)
        assert rows[breakdown.order] == [list(row) for row in expected.itertuples(index=False)], breakdown.order
    unigrams = {row[0] for row in rows[1]}
    assert set(ODD) <= unigrams  # '-' a dash, '1.' with its dot, ':smile:' no emoji, '<b>x</b>' as text


def test_tokens_are_escaped_chips_and_sentences_escaped_markdown() -> None:
    at = presenting()
    body = "\n".join(m.value for m in at.markdown)
    assert views.md_escape(CANDIDATE.split(" 1.")[0]) in body  # the sentence, escaped
    at.slider(key="ex_step").set_value(2).run()
    assert at.caption[0].value.startswith("Step 2 of") and "tokens" in at.caption[0].value
    chips = "".join(element.value for element in at.html)
    for token in ODD:
        assert f">{html.escape(token)}</span>" in chips, token


def test_every_order_step_shows_its_precision_on_its_last_part() -> None:
    at = presenting()
    trace = explain(CANDIDATE, REFERENCES, tokenize="none", smooth="none", effective_order=False)
    layout = present.plan(trace, "en")
    steps = present.steps(trace, layout)
    assert int(at.slider(key="ex_step").max) == len(steps)
    for number, step in enumerate(steps, 1):
        if step.kind != "order":
            continue
        at.slider(key="ex_step").set_value(number).run()
        text = "\n".join(m.value for m in at.markdown)
        fraction = trace.orders[step.order - 1].fraction
        assert (f"p{step.order} = {fraction}" in text) == (step.part == step.parts), number
        if step.part < step.parts:
            assert any("continue on the next step" in c.value for c in at.caption), number


def test_buttons_carry_the_arrow_and_page_keys() -> None:
    at = presenting(step="3")
    keys = {button.proto.shortcut: button.label for button in at.button if button.proto.shortcut}
    assert keys == {"left": "◀ previous", "right": "next ▶", "pageup": "◀ previous", "pagedown": "next ▶"}
    next(b for b in at.button if b.proto.shortcut == "pagedown").click().run()
    assert at.slider(key="ex_step").value == 4
    next(b for b in at.button if b.proto.shortcut == "pageup").click().run()
    next(b for b in at.button if b.proto.shortcut == "left").click().run()
    assert at.slider(key="ex_step").value == 2


def test_switching_presentation_on_starts_at_step_one() -> None:
    at = presenting(step="6")
    assert at.slider(key="ex_step").value == 6  # a link names its step
    next(b for b in at.button if b.label == "leave presentation mode").click().run()
    assert not at.session_state["ex_present"]
    at.toggle(key="ex_present").set_value(True).run()
    assert at.slider(key="ex_step").value == 1
    assert at.caption[0].value.startswith("Step 1 of")


# --- Exercise mode from the Explain page ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "open_label", "back_label"), [("en", "exercise mode", "back"), ("zh", "练习模式", "返回")]
)
def test_exercise_mode_is_a_button_away_and_back(lang: str, open_label: str, back_label: str) -> None:
    at = page({"candidate": "a cat sat on the mat", "reference": ["the cat sat on the mat"], "lang": lang})
    entry = next(b for b in at.button if b.label.startswith(open_label))
    entry.click().run()
    assert not at.exception
    assert at.query_params["exercise"] == "1" and at.query_params.get("lang", "en") == lang
    assert at.title[0].value == ("Exercise: compute BLEU by hand" if lang == "en" else "练习：手算 BLEU")
    # the walkthrough's own sentence is the exercise's
    assert at.radio(key="exercise_source").value == "own"
    assert at.text_input(key="exercise_candidate").value == "a cat sat on the mat"
    assert at.text_area(key="exercise_references").value == "the cat sat on the mat"
    assert at.query_params["candidate"] == "a cat sat on the mat"
    at.radio(key="exercise_source").set_value("generated").run()
    at.number_input(key="exercise_seed").set_value(7).run()
    next(b for b in at.button if back_label in b.label).click().run()
    assert not at.exception
    assert "exercise" not in at.query_params
    assert at.text_input(key="ex_candidate").value == "a cat sat on the mat"  # the walkthrough as it was
    assert at.query_params["candidate"] == "a cat sat on the mat"
    next(b for b in at.button if b.label.startswith(open_label)).click().run()
    assert at.number_input(key="exercise_seed").value == 7  # the exercise last shown: the sentence is the same
    assert at.query_params["seed"] == "7"
    next(b for b in at.button if back_label in b.label).click().run()
    at.text_input(key="ex_candidate").input("the cat sat on a mat").run()
    next(b for b in at.button if b.label.startswith(open_label)).click().run()
    assert at.text_input(key="exercise_candidate").value == "the cat sat on a mat"  # a new sentence: its exercise


# --- The copy-link control --------------------------------------------------------------------------------------


def link_query(at: AppTest) -> dict[str, list[str]]:
    """The query of the link in the copy-link control (the one code block of the sidebar's popover)."""
    codes = [code.value for code in at.code if "?" in code.value or code.value == ""]
    assert len(codes) == 1, [code.value for code in at.code]
    return parse_qs(urlsplit(codes[0]).query)


def test_explain_copy_link_is_the_page_link() -> None:
    at = page({"candidate": "a cat sat on the mat", "reference": ["the cat sat on the mat"], "lang": "zh"})
    assert not at.exception
    shared = link_query(at)
    assert shared["candidate"] == ["a cat sat on the mat"] and shared["lang"] == ["zh"]
    at.slider(key="ex_max_n").set_value(2).run()
    assert link_query(at)["max_n"] == ["2"]  # drawn after the page updated its link


@pytest.mark.parametrize("name", ["corpus", "compare", "implementations"])
def test_other_pages_have_the_copy_link(name: str) -> None:
    at = AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=120)
    at.query_params["lang"] = "zh"
    at.run()
    assert not at.exception
    assert link_query(at)["lang"] == ["zh"]
    captions = [c.value for c in at.caption]
    assert "此页面的链接。用框右侧的按钮复制。" in captions
    assert text(f"share.{name}", "zh") in captions  # what the link holds on that page, and what it leaves out
