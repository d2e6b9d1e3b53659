"""AppTest: the explain page shows the right fractions, lengths, BP and score, and reacts to its controls."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu_core.examples import PRESET_BY_KEY, PRESETS, Preset
from bleu_core.explain import Explanation, explain, paper_text
from pages.explain_link import build_link, preset_values

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "explain.py")


def page(query: dict[str, str | list[str]] | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    return at.run()


def shown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown) + "\n".join(str(x.value) for x in at.latex)


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def preset_query(preset: Preset) -> dict[str, str | list[str]]:
    """The preset's text and settings written out in full (no ``preset`` parameter)."""
    return build_link({**preset_values(preset), "preset": None})


def explain_preset(preset: Preset) -> Explanation:
    candidate, references = preset.candidate, list(preset.references)
    if preset.paper:
        candidate, references = paper_text(candidate), [paper_text(r) for r in references]
    return explain(candidate, references, **preset.options())


def test_opens_on_the_default_example() -> None:
    at = page()
    assert not at.exception
    assert metric(at, "BLEU (0–1)") == "0.4642"
    assert metric(at, "c / r") == "5 / 4"
    text = shown_text(at)
    assert "p1 = 3/5" in text and "the tie goes to the shorter, r = 4" in text
    assert at.query_params["candidate"] == "the love can always do"


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_each_preset_link_reproduces_its_numbers(preset: Preset) -> None:
    at = page(preset_query(preset))
    assert not at.exception
    expected = explain_preset(preset)
    assert metric(at, "BLEU (0–1)") == f"{expected.score:.4f}"
    assert metric(at, "brevity penalty") == f"{expected.bp:.4f}"
    assert metric(at, "c / r") == f"{expected.length.candidate_length} / {expected.length.chosen_length}"
    text = shown_text(at)
    for order in expected.orders:
        assert f"p{order.order} = {order.fraction}" in text


@pytest.mark.parametrize(
    ("name", "fragment", "score"),
    [
        ("love", "p3 = 1/3", "0.4642"),
        ("clip_the", "p1 = 2/7", None),
        ("clip_paper", "p1 = 2/7", "0.2857"),
        ("clip_bigrams", "p2 = 4/6", None),
        ("clip_bigrams3", "p2 = 6/8", None),
        ("papineni1", "p4 = 4/15", None),
        ("of_the", "p2 = 1/1", "0.0009"),
        ("fox_one", "p1 = 8/9", "0.7506"),
        ("fox_shorter", "p1 = 7/7", "0.7515"),
        ("matlab4", "p4 = 5/7", "0.7825"),
        ("matlab2", "p2 = 7/9", "0.8367"),
    ],
)
def test_textbook_numbers_on_the_page(name: str, fragment: str, score: str | None) -> None:
    preset = PRESET_BY_KEY[name]
    at = page(preset_query(preset))
    assert fragment in shown_text(at)
    if score is not None:
        assert metric(at, "BLEU (0–1)") == score


def test_preset_menu_loads_settings() -> None:
    at = page()
    at.selectbox(key="ex_preset").set_value("matlab2").run()
    assert at.slider(key="ex_max_n").value == 2
    assert metric(at, "BLEU (0–1)") == "0.8367"
    assert at.query_params["preset"] == "matlab2" and at.query_params["max_n"] == "2"


def test_sliders_change_tables_and_score() -> None:
    at = page()
    at.slider(key="ex_max_n").set_value(2).run()
    assert metric(at, "BLEU (0–1)") == f"{(3 / 5 * 2 / 4) ** 0.5:.4f}"
    assert len(at.tabs) == 2
    at.slider(key="ex_w1").set_value(0.0).run()  # only bigrams count now
    assert metric(at, "BLEU (0–1)") == "0.5000"
    assert "w1 = 0.000, w2 = 1.000" in "".join(c.value for c in at.caption)
    at.slider(key="ex_w2").set_value(0.0).run()
    assert any("All weights are 0" in e.value for e in at.error)
    assert not at.exception


def test_weight_shortcuts() -> None:
    at = page()
    at.number_input(key="ex_k").set_value(2).run()
    at.button[2].click().run()  # individual k-gram
    assert [at.slider(key=f"ex_w{n}").value for n in (1, 2, 3)] == [0.0, 1.0, 0.0]
    at.button[0].click().run()  # uniform
    assert [at.slider(key=f"ex_w{n}").value for n in (1, 2, 3)] == [1.0, 1.0, 1.0]


def test_zero_precision_is_explained_with_smoothing_alternatives() -> None:
    preset = PRESET_BY_KEY["papineni2"]
    at = page(preset_query(preset))
    warning = " ".join(w.value for w in at.warning)
    assert "unsmoothed BLEU is 0" in warning and "exp →" in warning and "floor →" in warning
    at.selectbox(key="ex_smooth").set_value("exp").run()
    assert metric(at, "BLEU (0–1)") != "0.0000"


def test_bad_link_parameters_are_reported_not_raised() -> None:
    at = page({"candidate": "a b c", "reference": ["a b c"], "max_n": "99", "weights": "x,y", "tokenize": "moses"})
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert "max_n" in warnings and "weights" in warnings and "tokenize" in warnings


def test_no_reference_is_an_error_message() -> None:
    at = page()
    at.text_area(key="ex_references").set_value("   \n").run()
    assert any("at least one reference" in e.value for e in at.error)
    assert not at.exception


def test_hostile_text_is_escaped_in_html() -> None:
    hostile = "<img src=x onerror=alert(1)> <script>alert(2)</script>"
    at = page({"candidate": hostile, "reference": [hostile], "tokenize": "none"})
    html_blocks = [str(element.proto.body) for element in at.get("html")]
    assert html_blocks and all("<img" not in block and "<script" not in block for block in html_blocks)
    assert any("&lt;img" in block for block in html_blocks)


def test_nltk_smoothing_methods_are_listed() -> None:
    at = page()
    table = at.dataframe[-1].value
    assert list(table["NLTK smoothing"]) == [f"method{i}" for i in range(8)]


def test_chinese_text_under_13a_gets_tokenizer_advice() -> None:
    candidate, reference = "猫坐在垫子上。", "猫坐在了垫子上。"
    at = page({"candidate": candidate, "reference": [reference], "tokenize": "13a"})
    advice = [w.value for w in at.warning if "Chinese/Japanese" in w.value]
    assert len(advice) == 1 and "zh (Chinese) tokenizer" in advice[0]
    at = page({"candidate": candidate, "reference": [reference], "tokenize": "zh"})
    assert not [w.value for w in at.warning if "Chinese/Japanese" in w.value]
    assert not at.exception
