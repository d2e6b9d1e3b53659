"""AppTest: links and file names a careless or hostile user sends reach the pages as inert, short text.

A link parameter never raises (``?max_n=²``, a step of 5,000 nines, a seed too large for the seed box); a rejected
value is echoed escaped and cut to a preview (no clickable "Log in again", no remote image, not a megabyte); a link
longer than the limit is refused whole; uploaded file names are escaped on Explain and Implementations; systems
named like the scatter's own columns are compared like any other.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bleu_core.limits import LIMITS
from bleu_core.teach.examples import DEFAULT_PRESET
from tests.pages.test_escaping import AUTOLINK, resolved

PAGES = Path(__file__).resolve().parents[2] / "pages"
EVIL_LINK = "[Log in again](https://evil.example/login)"
EVIL_IMAGE = "![x](https://evil.example/pixel.png)"
EVIL_NAME = f"{EVIL_LINK} {EVIL_IMAGE} <b>x</b>\r- item.txt"


def page(name: str, **query: str | list[str]) -> AppTest:
    at = AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def live_markup(markdown: str) -> list[str]:
    """Links, images, HTML tags, autolinks and line breaks that ``markdown`` would render (not escaped)."""
    bare = re.sub(r"\\.", "", markdown)  # escaped characters are text
    found = re.findall(r"\]\(|!\[|<[a-z/!]|\r|\n", bare)
    return found + AUTOLINK.findall(resolved(markdown))


def messages(at: AppTest) -> list[str]:
    return [str(e.value) for e in [*at.warning, *at.error, *at.info]]


def assert_inert(at: AppTest) -> None:
    assert not at.exception, at.exception
    for shown in messages(at):
        assert live_markup(shown) == [], shown


# --- Explain -----------------------------------------------------------------------------------------------------


def test_max_n_superscript_two_is_a_problem_not_a_crash() -> None:
    at = page("explain", max_n="²")
    assert not at.exception
    assert any("max_n must be a whole number from 1 to 8" in w.value for w in at.warning)


def test_a_step_of_five_thousand_nines_shows_the_last_step() -> None:
    at = page("explain", present="1", step="9" * 5000)
    assert not at.exception
    assert at.session_state["ex_step"] >= 1
    assert not at.warning


def test_rejected_values_carry_no_link_and_no_image() -> None:
    at = page("explain", preset=EVIL_LINK, tokenize=EVIL_IMAGE, smooth=f"x\r- {EVIL_LINK}", weights="<b>1</b>")
    assert_inert(at)
    warnings = " ".join(w.value for w in at.warning)
    assert "Log in again" in warnings and "pixel" in warnings and "&lt;b&gt;" in warnings


def test_a_long_value_is_echoed_as_a_short_preview() -> None:
    value = "x" * (LIMITS.link_chars - 100)
    at = page("explain", tokenize=value)
    assert_inert(at)
    (warning,) = [w.value for w in at.warning]
    assert f"({len(value):,} characters in all)" in warning
    assert len(warning) < 250


def test_a_link_longer_than_the_limit_is_refused_whole() -> None:
    at = page("explain", candidate="a " * LIMITS.link_chars, max_n="2")
    assert_inert(at)
    (warning,) = [w.value for w in at.warning]
    assert f"a page reads links of up to {LIMITS.link_chars:,}" in warning and len(warning) < 300
    assert at.session_state["ex_candidate"] == DEFAULT_PRESET.candidate  # the default example, not the link's
    assert next(m.value for m in at.metric if m.label == "BLEU (0–1)") == "0.4642"


def test_exercise_links_that_cannot_be_seeds() -> None:
    for seed in ("²", "9" * 5000, "9" * 30, EVIL_LINK):
        at = page("explain", exercise="1", seed=seed)
        assert_inert(at)
        assert any("seed must be a whole number from 0 to 999,999,999" in w.value for w in at.warning), seed
    at = page("explain", exercise="1", trap=EVIL_LINK, preset=EVIL_IMAGE)
    assert_inert(at)
    assert len(at.warning) == 2  # the trap and the example


def test_uploaded_file_names_are_escaped_on_explain() -> None:
    at = page("explain")
    at.file_uploader(key="ex_upload_candidate").set_value((EVIL_NAME, b"the cat\nsat on the mat\n", "text/plain"))
    at.run()
    at.file_uploader(key="ex_upload_references").set_value([(EVIL_NAME, b"the cat sat\n", "text/plain")])
    at.run()
    assert_inert(at)
    shown = " ".join(messages(at))
    assert "has 2 lines; using the first" in shown and "lines joined with spaces" in shown
    at.file_uploader(key="ex_upload_references").set_value([(EVIL_NAME, b"\x80\x81 bad\n", "text/plain")])
    at.run()
    assert_inert(at)
    assert at.error


# --- Implementations ---------------------------------------------------------------------------------------------


def test_implementations_link_values_are_escaped() -> None:
    at = page("implementations", first=EVIL_LINK, order=EVIL_IMAGE + "y" * 3000)
    assert_inert(at)
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 2 and all(len(w) < 300 for w in warnings)


def test_uploaded_file_names_are_escaped_on_implementations() -> None:
    at = page("implementations")
    at.segmented_control(key="im_mode").set_value("corpus").run()
    at.file_uploader(key="im_hypothesis_file").set_value((EVIL_NAME, b"", "text/plain"))
    at.file_uploader(key="im_reference_files").set_value([(EVIL_NAME, b"the cat\n", "text/plain")])
    at.run()
    assert_inert(at)
    assert any("no lines (the file is empty)" in e.value for e in at.error)
    at.file_uploader(key="im_hypothesis_file").set_value((EVIL_NAME, b"\x80\x81 bad\n", "text/plain"))
    at.run()
    assert_inert(at)
    assert at.error


# --- Compare -----------------------------------------------------------------------------------------------------


def test_systems_named_like_internal_columns() -> None:
    at = page("compare")
    at.radio(key="cmp_mode").set_value("upload").run()
    outputs = [b"the cat sat on the mat\na dog barked\n", b"a cat sat on a mat\nthe dog barked loudly\n"]
    at.file_uploader(key="cmp_systems").set_value(
        [("segment", outputs[0], "text/plain"), ("difference", outputs[1], "text/plain")]
    )
    at.file_uploader(key="cmp_references").set_value([("ref.txt", b"the cat sat on the mat\nthe dog barked\n", "")])
    at.run()
    assert not at.exception, at.exception
    names = {at.selectbox(key="cmp_a").value, at.selectbox(key="cmp_b").value}
    assert names == {"segment", "difference"}
    differ = next(d.value for d in at.dataframe if "difference" in d.value.columns and "first" in d.value.columns)
    assert sorted(differ["segment"]) == [1, 2]
    at.selectbox(key="cmp_b").set_value("segment").run()
    at.selectbox(key="cmp_a").set_value("difference").run()
    assert not at.exception, at.exception
