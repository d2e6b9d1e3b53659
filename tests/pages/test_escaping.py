"""The one Markdown escape, the echo of rejected values, the CSV formula guard, total link parsing, and fixed
column names in Compare's scatter: plain unit tests and properties (hypothesis), no Streamlit run."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bleu_core.api import corpus_statistics
from bleu_core.corpus.diagnosis import analyze_corpus
from bleu_core.i18n import LANGUAGES, Message
from bleu_core.limits import LIMITS
from bleu_core.options import make_options
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from pages.compare_page import views as compare_views
from pages.explain_page.link import OWN, parse_link, resolve
from pages.implementations_page import views as implementations_views
from pages.shared.state import MAX_ORDER_LIMIT, link_length, parse_implementations_query
from pages.shared.views import WORD_JOINER, csv_safe, echo, frame_csv, md_escape

ROOT = Path(__file__).resolve().parents[2]
#: Punctuation that CommonMark, GFM, remark-math ($) or Streamlit's directives (:red[…]) can give a meaning.
ACTIVE = set("\\`*_{}[]()#+-.!|~<>$:")
ENTITIES = ("&lt;", "&gt;", "&amp;")
#: The autolink literals of GFM, as Streamlit's renderer finds them in text after escapes are resolved
#: (mdast-util-gfm-autolink-literal: ``(https?:\/\/|www(?=\.))`` and ``[-.\w+]+@[-\w]+(\.[-\w]+)+``).
AUTOLINK = re.compile(r"https?://|www(?=\.)|[-.\w+]+@[-\w]+(?:\.[-\w]+)+", re.IGNORECASE | re.ASCII)

#: Any text: every Unicode character, lone surrogates included, and a bias towards what Markdown reads.
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=())) | st.text(
    st.sampled_from([*ACTIVE, "&", "\r", "\n", " ", "a", "1", "w", "@", "/", "h", "t", "p", "s", "²", "٣"])
)


def unescaped(markdown: str) -> list[str]:
    """The Markdown-active characters of ``markdown`` that are not backslash-escaped (or an entity)."""
    found, i = [], 0
    while i < len(markdown):
        char = markdown[i]
        if char == "\\" and i + 1 < len(markdown):
            i += 2
            continue
        if char == "&":
            if not markdown.startswith(ENTITIES, i):
                found.append(char)
        elif char in ACTIVE or char in "\r\n":
            found.append(char)
        i += 1
    return found


def resolved(markdown: str) -> str:
    """The text a CommonMark renderer makes of escaped Markdown (backslash escapes and the three entities)."""
    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


# --- the one Markdown escape -------------------------------------------------------------------------------------


@given(ANY_TEXT)
@example("[Log in again](https://evil.example/login)")
@example("![x](https://evil.example/pixel.png)")
@example("first\r- a list item\r# a heading\r\n1. an ordered item")
@example("$\\href{javascript:alert(1)}{x}$ :red[colour] <img src=x> www.evil.example me@evil.example")
@example("\ud800 lone surrogates \udfff and NUL \x00")
def test_md_escape_leaves_nothing_active(text: str) -> None:
    escaped = md_escape(text)
    assert unescaped(escaped) == []
    assert not AUTOLINK.search(resolved(escaped))
    # and it is the same text: line endings become spaces, word joiners are added, nothing else changes
    flat = re.sub(r"\r\n?|\n", " ", text)
    assert resolved(escaped).replace(WORD_JOINER, "") == flat.replace(WORD_JOINER, "")


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("a\rb", "a b"),
        ("a\r\nb", "a b"),
        ("[x](y)", r"\[x\]\(y\)"),
        ("<b>&", r"&lt;b&gt;&amp;"),
        ("$x$", r"\$x\$"),
        ("- 1. + #", r"\- 1\. \+ \#"),
        ("https://e.x", "https\\:" + WORD_JOINER + "//e\\.x"),
        ("WWW.e.x", "WWW" + WORD_JOINER + "\\.e\\.x"),
        ("a@b.c", "a@" + WORD_JOINER + "b\\.c"),
    ],
)
def test_md_escape_cases(text: str, escaped: str) -> None:
    assert md_escape(text) == escaped


DEFINITION = r"^def (md_\w+|\w*escape\w*)\("


def test_one_markdown_escape_for_every_page() -> None:
    """No page module defines its own Markdown escape: ``md_escape`` in pages/shared/views.py is the only one."""
    assert not hasattr(implementations_views, "md_text")
    definitions = {
        path.relative_to(ROOT).as_posix(): re.findall(
            r"^def (md_\w+|\w*escape\w*)\(", path.read_text(encoding="utf-8"), re.M
        )
        for path in sorted((ROOT / "pages").rglob("*.py"))
    }
    markdown = {name: found for name, found in definitions.items() if any("md" in f for f in found)}
    assert markdown == {"pages/shared/views.py": ["md_escape"]}


# --- the echo of a rejected value --------------------------------------------------------------------------------


@given(ANY_TEXT)
def test_echo_is_short_and_inert(value: str) -> None:
    quoted = echo(value)
    assert unescaped(quoted.params["value"]) == []
    assert resolved(quoted.params["value"]).replace(WORD_JOINER, "") == repr(value[: LIMITS.echo_chars])
    for language in LANGUAGES:
        shown = quoted.render(language)
        assert len(resolved(shown)) <= 12 * LIMITS.echo_chars + 60  # repr writes a character in at most 10


def test_a_megabyte_is_echoed_as_a_preview() -> None:
    shown = echo("[Log in again](https://evil.example/login)" + "x" * 1_000_000).render()
    assert shown.startswith(r"'\[Log in again\]\(https\:")
    assert shown.endswith("… (1,000,042 characters in all)")
    assert len(shown) < 120


# --- CSV: the formula guard --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cell",
    ["=1+1", "+1+cmd|' /C calc'!A0", "-1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "- x", "-x", "+"],
)
def test_csv_cells_that_a_spreadsheet_would_run_get_a_quote(cell: str) -> None:
    assert csv_safe(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-0.5", "+1.25", "-3", "-1e-05", "0.5", "the cat", "a=b", "", "−0.020"])
def test_csv_plain_numbers_and_text_stay(cell: str) -> None:
    assert csv_safe(cell) == cell


def test_frame_csv_guards_text_cells_and_names_not_numbers() -> None:
    frame = pd.DataFrame({"n-gram": ["-1+cmd|x", "ok"], "-1+cmd|y": [-0.5, 2.0], "count": [-3, 4]})
    lines = frame_csv(frame).splitlines()
    assert lines[0] == "n-gram,'-1+cmd|y,count"
    assert lines[1:] == ["'-1+cmd|x,-0.5,-3", "ok,2.0,4"]


# --- links: total parsing ----------------------------------------------------------------------------------------

PARAMETERS = st.sampled_from(sorted(OWN | {"lang", "exercise", "seed"})) | st.text(max_size=12)
VALUES = ANY_TEXT | st.from_regex(r"[0-9²³¹٠-٩ ,.eE+-]{0,30}", fullmatch=True) | st.integers().map(str)
LINKS = st.dictionaries(PARAMETERS, st.lists(VALUES, min_size=1, max_size=3), max_size=8)


def check_problems(problems: list[Message]) -> None:
    """Each problem renders in every language, is short, and quotes a rejected value only through ``echo``."""
    for problem in problems:
        for language in LANGUAGES:
            assert len(problem.render(language)) < 600
        value = problem.params.get("value")
        if value is not None:
            assert isinstance(value, Message) and value.key in ("common.echo", "common.echo_cut")
            assert unescaped(value.params["value"]) == []


@given(LINKS)
@example({"max_n": ["²"]})
@example({"max_n": ["\ud800"], "candidate": ["\udfff"], "preset": ["\x00"]})
@example({"step": ["9" * 5000], "present": ["1"]})
@example({"max_n": ["9" * 5000]})
@example({"weights": ["1e308,1e308"], "smooth_value": ["1" * 400]})
def test_parse_link_is_total(params: dict[str, list[str]]) -> None:
    values, problems = parse_link(params)
    check_problems(problems)
    if "max_order" in values:
        assert 1 <= values["max_order"] <= MAX_ORDER_LIMIT
    if "step" in values:
        assert isinstance(values["step"], int) and values["step"] >= 1
    if "weights" in values:
        assert all(math.isfinite(w) and w >= 0 for w in values["weights"]) and sum(values["weights"]) > 0
    settings = resolve(values)
    assert isinstance(settings["candidate"], str) and isinstance(settings["references"], list)


@pytest.mark.parametrize("raw", ["²", "٣", "9" * 5000, "", " 4", "4.0", "-1", "+2"])
def test_max_n_that_is_not_one_to_eight_in_ascii_digits_is_refused(raw: str) -> None:
    values, problems = parse_link({"max_n": [raw]})
    assert "max_order" not in values
    assert [p.key for p in problems] == ["explain.bad_max_n"]


def test_a_huge_step_is_the_last_step() -> None:
    values, problems = parse_link({"step": ["9" * 5000], "present": ["1"]})
    assert problems == [] and values["step"] >= 10**9


def test_a_link_longer_than_the_limit_is_refused_whole() -> None:
    params = {"candidate": ["a" * LIMITS.link_chars], "max_n": ["2"]}
    values, problems = parse_link(params)
    assert values == {}
    assert [p.key for p in problems] == ["common.link_too_long"]
    shown = problems[0].render()
    assert f"{link_length(params):,} characters" in shown and f"{LIMITS.link_chars:,}" in shown
    # encoded length counts: 1,000 Chinese characters are 9,000 characters of a link
    assert link_length({"candidate": ["中" * 1000]}) == len("candidate=") + 9000
    assert parse_link({"candidate": ["中" * 1000]})[0] == {}
    assert parse_link({"candidate": ["中" * 800]})[0] == {"candidate": "中" * 800}


@given(LINKS)
def test_implementations_link_is_total(params: dict[str, list[str]]) -> None:
    _, problems = parse_implementations_query(params, ["sacrebleu", "nltk"], ["pipeline"])
    for problem in problems:
        assert len(problem) < 600
        assert unescaped(problem.split("got ", 1)[-1]) == [] or "characters long" in problem


def test_implementations_link_echo_is_escaped_and_cut() -> None:
    _, problems = parse_implementations_query({"first": ["[a](https://e.x)" + "y" * 5000]}, ["nltk"], ["pipeline"])
    start = r"'\[a\]\(https\:" + WORD_JOINER + r"//e\.x\)" + "y" * 24 + "'"
    assert problems == [f"first must be one of nltk; got {start}… (5,016 characters in all)"]


# --- Compare: system names never collide with the scatter's columns ----------------------------------------------


@pytest.mark.parametrize(
    "names", [("segment", "difference"), ("difference", "segment"), ("x", "y"), ("first", "second"), ("a.b", "c[0]")]
)
def test_scatter_takes_any_system_names(names: tuple[str, str]) -> None:
    references = [list(stream) for stream in DEMO_REFERENCES]
    outputs = list(DEMO_SYSTEMS.values())[:2]
    options = make_options()
    analyses = {
        name: analyze_corpus(corpus_statistics(lines, references, options)[0], options, len(references))
        for name, lines in zip(names, outputs, strict=True)
    }
    frame = compare_views.scatter_frame({name: 100 * a.sentence for name, a in analyses.items()}, *names)
    assert list(frame.columns) == list(compare_views.SCATTER_COLUMNS)
    assert list(frame["segment"]) == list(range(1, len(outputs[0]) + 1))
    np.testing.assert_allclose(frame["first"] - frame["second"], frame["difference"])
    np.testing.assert_allclose(frame["first"], 100 * analyses[names[0]].sentence)
    chart = compare_views.scatter_chart(frame, *names).to_dict()
    difference = 100 * (analyses[names[0]].sentence - analyses[names[1]].sentence)
    wins, ties, losses = (difference > 1e-9).sum(), (abs(difference) <= 1e-9).sum(), (difference < -1e-9).sum()
    assert compare_views.win_tie_loss(frame) == (wins, ties, losses)
    assert compare_views.win_tie_loss(frame, lower_is_better=True) == (losses, ties, wins)  # TER: lower is better
    assert names[0] in str(chart) and names[1] in str(chart)
