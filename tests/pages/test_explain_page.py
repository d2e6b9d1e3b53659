"""AppTest: the explain page shows the right fractions, lengths, BP and score, and reacts to its controls."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleu_core.teach.examples import PRESET_BY_KEY, PRESETS, Preset
from bleu_core.teach.explain import Explanation, explain, paper_text
from pages.explain_page import present
from pages.explain_page.link import build_link, preset_values
from pages.shared import views
from tests.i18n_check import rendered_labels, untranslated
from tests.pages.test_present_real import shown_tables

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
    assert any("All weights are 0" in e.value for e in at.sidebar.error)
    assert any("All weights are 0" in e.value for e in at.main.error)  # where the results were
    assert not at.exception


def test_weight_shortcuts() -> None:
    at = page()
    at.number_input(key="ex_k").set_value(2).run()
    next(b for b in at.button if b.label == "k-gram").click().run()  # individual k-gram
    assert [at.slider(key=f"ex_w{n}").value for n in (1, 2, 3)] == [0.0, 1.0, 0.0]
    next(b for b in at.button if b.label == "equal").click().run()  # uniform
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


# --- Chinese interface -------------------------------------------------------------------------------------------


def example_words(preset: Preset) -> set[str]:
    """The example's own words (user data, shown untranslated)."""
    return {
        w for text in (preset.candidate, *preset.references, *preset.terms.values()) for w in re.findall(r"\w+", text)
    }


@pytest.mark.parametrize("key", ["love", "papineni2", "of_the", "clip_bigrams"])
def test_chinese_interface_shows_only_chinese_labels(key: str) -> None:
    at = page({"lang": "zh", "preset": key})
    assert not at.exception
    labels = rendered_labels(at)
    assert "逐步讲解 BLEU" in labels
    assert untranslated(labels, example_words(PRESET_BY_KEY[key])) == {}
    assert at.query_params["lang"] == "zh"


def test_chinese_interface_in_presentation_mode_at_every_step() -> None:
    at = page({"lang": "zh", "preset": "papineni2", "present": "1"})
    total = int(at.slider(key="ex_step").max)
    for step in range(1, total + 1):
        at.slider(key="ex_step").set_value(step).run()
        assert not at.exception
        assert untranslated(rendered_labels(at), example_words(PRESET_BY_KEY["papineni2"])) == {}, step


# --- Presentation mode -------------------------------------------------------------------------------------------


def shown_metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_presentation_hides_the_score_until_the_last_step(preset: Preset) -> None:
    expected = explain_preset(preset)
    at = page({"preset": preset.key, "present": "1"})
    assert not at.exception
    assert shown_metrics(at) == {}
    assert not at.text_input and not at.text_area  # no inputs on the projector
    assert f"{expected.score:.4f}" not in shown_text(at)
    total = int(at.slider(key="ex_step").max)
    assert total == len(present.steps(expected, present.plan(expected, "en"))) >= 7 + expected.options.max_order
    assert at.query_params["step"] == "1" and at.query_params["present"] == "1"
    at.slider(key="ex_step").set_value(total).run()
    # the last step also gives the score on sacreBLEU's 0-100 scale
    assert shown_metrics(at) == {"BLEU (0–1)": f"{expected.score:.4f}", "BLEU ×100": f"{100 * expected.score:.2f}"}
    assert at.query_params["step"] == str(total)


def test_presentation_steps_in_lecture_order_with_buttons() -> None:
    at = page({"preset": "love", "present": "1"})
    captions = []
    for _ in range(int(at.slider(key="ex_step").max)):
        captions.append(at.caption[0].value)
        if "BLEU (0–1)" not in shown_metrics(at):
            at.button[1].click().run()  # next
    names = [c.split(": ", 1)[1] for c in captions]
    assert names == [
        "the sentences",
        "tokens",
        "1-grams, clipped",
        "2-grams, clipped",
        "3-grams, clipped",
        "precisions p_n",
        "reference length r",
        "brevity penalty",
        "the log-sum",
        "the score",
    ]
    at.slider(key="ex_step").set_value(9).run()
    assert "**-0.768**" in shown_text(at)  # log(0.4642), the number the score exponentiates
    at.slider(key="ex_step").set_value(3).run()
    tables = shown_tables(at)
    assert tables[-1][-1][0] == "total" and "p1 = 3/5" in shown_text(at)
    at.button[0].click().run()  # previous
    assert at.query_params["step"] == "2"


def test_presentation_of_own_text_and_leaving_it() -> None:
    at = page({"candidate": "a b c d", "reference": ["a b c e"], "present": "1", "step": "99"})
    assert at.slider(key="ex_step").value == int(at.slider(key="ex_step").max)  # clamped to the last step
    assert "BLEU (0–1)" in shown_metrics(at)
    next(b for b in at.button if b.label == "leave presentation mode").click().run()
    assert at.text_input(key="ex_candidate").value == "a b c d"
    assert "present" not in at.query_params


# --- Links -------------------------------------------------------------------------------------------------------


def test_missing_link_parameters_take_documented_defaults() -> None:
    at = page({"candidate": "the love can always do", "reference": ["love can always find a way"]})
    assert at.slider(key="ex_max_n").value == 4  # not the default example's 3
    assert at.selectbox(key="ex_smooth").value == "none" and at.selectbox(key="ex_tokenize").value == "13a"
    assert not at.checkbox(key="ex_effective").value and not at.checkbox(key="ex_paper").value


def query_of(at: AppTest) -> dict[str, list[str]]:
    return {key: list(value) if isinstance(value, list) else [value] for key, value in at.query_params.items()}


def test_link_round_trip_reproduces_every_setting() -> None:
    at = page()
    at.selectbox(key="ex_preset").set_value("papineni1").run()
    at.slider(key="ex_max_n").set_value(5).run()
    at.slider(key="ex_w2").set_value(0.5).run()
    at.selectbox(key="ex_tokenize").set_value("intl").run()
    at.checkbox(key="ex_lowercase").check().run()
    at.selectbox(key="ex_smooth").set_value("add-k").run()
    at.number_input(key="ex_smooth_value_add-k").set_value(2.5).run()
    at.checkbox(key="ex_effective").check().run()
    at.checkbox(key="ex_paper").check().run()
    at.toggle(key="ex_present").set_value(True).run()
    at.slider(key="ex_step").set_value(4).run()
    link = query_of(at)
    assert link["smooth_value"] == ["2.5"] and link["step"] == ["4"]
    link["lang"] = ["zh"]  # the language switch lives in app.py's sidebar; here it comes with the link

    fresh = page(link)
    assert not fresh.exception
    assert query_of(fresh) == link
    state = fresh.session_state
    assert state["ex_max_n"] == 5 and state["ex_w2"] == 0.5 and state["ex_w1"] == 1.0
    assert state["ex_tokenize"] == "intl" and state["ex_lowercase"] and state["ex_effective"] and state["ex_paper"]
    assert state["ex_smooth"] == "add-k" and state["ex_smooth_value_add-k"] == 2.5
    assert state["ex_present"] and state["ex_step"] == 4 and state["ex_preset"] == "custom"
    assert state["ex_candidate"] == PRESET_BY_KEY["papineni1"].candidate


def test_a_preset_link_keeps_its_lesson() -> None:
    at = page({"preset": "fox_shorter"})
    assert at.info and "0.7515" in at.info[0].value and "0.75147" not in at.info[0].value
    at.text_input(key="ex_candidate").set_value("the quick brown fox").run()
    assert at.selectbox(key="ex_preset").value == "custom" and not at.info
    assert "preset" not in at.query_params


def test_an_edit_survives_the_menus_stale_echo() -> None:
    """On a slow server the browser can send its next edit before it learnt that the menu left the example: the
    message carries the edited texts *and* the old example. The edits stay; a later real choice still loads."""
    at = page()
    example = at.selectbox(key="ex_preset").value
    at.text_area(key="ex_references").set_value("a b c d").run()
    assert at.selectbox(key="ex_preset").value == "custom"
    at.text_input(key="ex_candidate").set_value("a b c")
    at.selectbox(key="ex_preset").set_value(example)  # what the browser still shows
    at.run()
    assert (at.session_state["ex_candidate"], at.session_state["ex_references"]) == ("a b c", "a b c d")
    assert at.selectbox(key="ex_preset").value == "custom"
    at.selectbox(key="ex_preset").set_value(example).run()  # now chosen for real
    assert at.session_state["ex_candidate"] == PRESET_BY_KEY[example].candidate


def test_foreign_link_parameters_are_kept() -> None:
    at = page({"preset": "love", "from": "lecture-3"})
    assert at.query_params["from"] == "lecture-3" and at.query_params["preset"] == "love"


def test_bleu_k_says_what_it_does() -> None:
    at = page()
    at.number_input(key="ex_k").set_value(2).run()
    next(b for b in at.button if b.label == "BLEU-k").click().run()
    assert at.slider(key="ex_max_n").value == 2
    assert any("max n is now 2" in c.value for c in at.caption)


# --- Every printed fraction is arithmetically true ---------------------------------------------------------------

FRACTION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?) = (\d+\.\d+)")
ODD_INPUTS: list[dict[str, str | list[str]]] = [
    {"candidate": "x y z", "reference": ["a b c"], "smooth": "exp"},
    {"candidate": "x y z", "reference": ["a b c"], "smooth": "floor", "smooth_value": "0.2"},
    {"candidate": "a b z q", "reference": ["a b c d"], "smooth": "exp"},
    {"candidate": "a b z q", "reference": ["a b c d"], "smooth": "add-k", "smooth_value": "3"},
    {"candidate": "a", "reference": ["a b c d e"], "effective": "1", "smooth": "exp"},
    {"candidate": "a b", "reference": ["a b"], "max_n": "8"},
]


def printed_fractions(at: AppTest) -> list[tuple[float, float, str]]:
    found = []
    for value in [m.value for m in at.markdown] + [str(x.value) for x in at.info] + [str(w.value) for w in at.warning]:
        found += [(float(a), float(b), x) for a, b, x in FRACTION.findall(value)]
    return found


@pytest.mark.parametrize(
    "query", [{"preset": p.key} for p in PRESETS] + ODD_INPUTS, ids=lambda q: str(q.get("preset", q.get("candidate")))
)
def test_every_printed_fraction_is_true(query: dict[str, str | list[str]]) -> None:
    at = page(query)
    fractions = printed_fractions(at)
    assert fractions
    for a, b, shown in fractions:
        assert b > 0 and abs(a / b - float(shown)) <= 0.5 * 10 ** -len(shown.split(".")[1]) + 1e-12, (a, b, shown)
    present = page({**query, "present": "1", "step": "99"})
    for step in range(1, int(present.slider(key="ex_step").max) + 1):
        present.slider(key="ex_step").set_value(step).run()
        for a, b, shown in printed_fractions(present):
            assert abs(a / b - float(shown)) <= 0.5 * 10 ** -len(shown.split(".")[1]) + 1e-12, (a, b, shown)


def test_no_match_shows_sacrebleus_early_return() -> None:
    at = page({"candidate": "x y z", "reference": ["a b c"], "smooth": "exp"})
    text = shown_text(at)
    assert "returns BLEU = 0 right here" in text and "smoothed" not in text
    assert metric(at, "BLEU (0–1)") == "0.0000"


def test_reference_highlighting_marks_only_counted_occurrences() -> None:
    trace = explain("the the cat", ["the the the the cat"], smooth="none", effective_order=False)
    marks = views.reference_marks(trace, trace.orders[0], 0)
    assert sorted(marks) == [0, 1, 4]  # two of four 'the' are counted, and 'cat'


def test_max_n_8_formula_breaks_into_lines() -> None:
    trace = explain("a b c d e f g h i", ["a b c d e f g h i"], max_order=8, smooth="none", effective_order=False)
    latex = views.score_latex(trace)
    assert latex.count(r"\\") >= 4 and r"\begin{aligned}" in latex


def test_presentation_of_chinese_text_in_chinese() -> None:
    query = {
        "candidate": "猫坐在垫子上。",
        "reference": ["猫坐在了垫子上。"],
        "tokenize": "zh",
        "lang": "zh",
        "present": "1",
    }
    at = page(query)
    total = int(at.slider(key="ex_step").max)
    for step in range(1, total + 1):
        at.slider(key="ex_step").set_value(step).run()
        assert not at.exception
        assert untranslated(rendered_labels(at)) == {}, step
    assert "BLEU（0–1）" in shown_metrics(at)


def test_presentation_without_references_offers_the_way_back() -> None:
    at = page({"candidate": "a b", "reference": ["a b"], "present": "1"})
    at.session_state["ex_references"] = ""
    at.run()
    assert any("at least one reference" in e.value for e in at.error)
    next(b for b in at.button if b.label == "leave presentation mode").click().run()
    assert not at.session_state["ex_present"]


#: 45 distinct words against a reference that holds every other one: 45 unigram rows, more than one screen.
LONG_CANDIDATE = " ".join(f"w{i}" for i in range(45))
LONG_REFERENCE = " ".join(f"w{i}" for i in range(0, 45, 2))


def test_presentation_splits_a_table_longer_than_a_screen_over_steps() -> None:
    at = page({"candidate": LONG_CANDIDATE, "reference": [LONG_REFERENCE], "present": "1", "step": "3"})
    trace = explain(LONG_CANDIDATE, [LONG_REFERENCE])
    assert [len(o.rows) for o in trace.orders] == [45, 44, 43, 42]
    assert int(at.slider(key="ex_step").max) == 7 + 2 * 4  # each table takes two steps
    full = views.order_table(trace.orders[0], 1, compact=True).astype(str)
    parts = []
    for step, name in ((3, "1-grams, clipped (part 1 of 2)"), (4, "1-grams, clipped (part 2 of 2)")):
        at.slider(key="ex_step").set_value(step).run()
        assert at.caption[0].value.endswith(name)
        shown = shown_tables(at)
        assert all(len(table) - 1 <= 13 for table in shown)  # a header and at most 13 rows: a 720 px screen
        parts.append([row for table in shown for row in table[1:]])
        assert ("p1 = 23/45" in shown_text(at)) == (step == 4)  # under the last part, with the totals row
    assert "total" not in [row[0] for row in parts[0]]
    joined = [row for part in parts for row in part]
    assert joined == [list(row) for row in full.itertuples(index=False)]  # every row once, in order, totals last
    at.slider(key="ex_step").set_value(3).run()
    assert any(f"{len(parts[0])} of the 45 1-grams so far" in c.value for c in at.caption)
    at.slider(key="ex_step").set_value(5).run()
    assert at.caption[0].value.endswith("2-grams, clipped (part 1 of 2)")
    short = page({"candidate": LONG_CANDIDATE, "reference": [LONG_REFERENCE], "present": "1", "max_n": "1"})
    short.slider(key="ex_step").set_value(3).run()
    assert short.caption[0].value.endswith("1-grams, clipped (part 1 of 2)")


def test_a_very_long_sentence_is_summarized_with_its_exact_score() -> None:
    """Past LIMITS.walkthrough_tokens the highlights are off and a notice says why; the score stays sacreBLEU's.
    Below it, a long sentence's highlights wait behind a toggle (tests/pages/test_rerun_bounds.py)."""
    words = [f"w{i % 500}" for i in range(3000)]
    at = page()  # typed, not linked: a link this long is refused (LIMITS.link_chars)
    at.text_input(key="ex_candidate").set_value(" ".join(words))
    at.text_area(key="ex_references").set_value(" ".join(words[:2000] + words[:1000])).run()
    assert not at.exception
    assert any("candidate 3,000 tokens" in i.value for i in at.info)
    assert not at.get("html")
    reference = " ".join(words[:2000] + words[:1000])
    expected = sacrebleu.BLEU(max_ngram_order=3, smooth_method="none", effective_order=False)
    assert metric(at, "BLEU (0–1)") == f"{expected.sentence_score(' '.join(words), [reference]).score / 100:.4f}"
    short = page({"candidate": "a b c d", "reference": ["a b c e"]})
    assert not [x for x in short.toggle if x.label.startswith("Highlighted tokens")] and short.get("html")


def test_add_k_above_a_lower_max_n_is_explained() -> None:
    """'the love can always do' at max n = 8: add-k scores 0.6451 (sacreBLEU's number), above max n = 3, because
    the 0/0 orders 6-8 become k/k = 1; the warning says so."""
    at = page({"preset": "love", "max_n": "8"})
    warning = next(w.value for w in at.warning if "Smoothing replaces the zero" in w.value)
    expected = sacrebleu.BLEU(max_ngram_order=8, smooth_method="add-k", effective_order=False)
    score = expected.sentence_score(PRESET_BY_KEY["love"].candidate, list(PRESET_BY_KEY["love"].references)).score
    assert f"add-k → {score / 100:.4f}" in warning
    assert "k/k = 1" in warning and "p6, p7, p8" in warning


def test_settings_other_than_sacrebleus_name_the_difference_and_sacrebleus_score() -> None:
    candidate = "the quick brown fox jumps over the lazy dog near the river bank today"
    references = ["a quick brown fox jumped over the lazy dog by the river bank today", "the fast fox jumps over a dog"]
    at = page({"candidate": candidate, "reference": references, "max_n": "3", "smooth": "none"})
    assert not at.exception
    theirs = sacrebleu.sentence_bleu(candidate, references).score  # max n 4, exp smoothing, effective order
    caption = next(c.value for c in at.caption if "`sentence_bleu` with its defaults" in c.value)
    assert f"scores this sentence {theirs:.2f};" in caption
    assert caption.endswith("the sidebar differs in: max n = 3, smoothing none, effective order off.")
    # with sacreBLEU's sentence defaults there is nothing to say
    same = page({"candidate": candidate, "reference": references, "max_n": "4", "smooth": "exp", "effective": "1"})
    assert not any("`sentence_bleu` with its defaults" in c.value for c in same.caption)
    assert metric(same, "BLEU ×100") == f"{theirs:.2f}"


@pytest.mark.parametrize(("candidate", "chosen", "label"), [("", "bleu", "BLEU ×100"), ("   ", "chrf", "chrF")])
def test_an_empty_candidate_says_so_above_its_true_score(candidate: str, chosen: str, label: str) -> None:
    """A new user cleared the candidate and saw a whole walkthrough of zeros without a word about why."""
    references = ["the cat sat on the mat"]
    at = page({"candidate": candidate, "reference": references, "metric": chosen})
    assert not at.exception
    name = "BLEU" if chosen == "bleu" else "chrF"
    shown = next(i.value for i in at.info)
    assert shown.startswith("The candidate is empty") and f"Until then {name} is 0" in shown
    theirs = (sacrebleu.sentence_bleu if chosen == "bleu" else sacrebleu.sentence_chrf)(candidate, references).score
    assert float(metric(at, label)) == pytest.approx(theirs, abs=1e-9) == 0
    filled = page({"candidate": "the cat", "reference": references, "metric": chosen})
    assert not any(i.value.startswith("The candidate is empty") for i in filled.info)


@pytest.mark.parametrize(("references", "shown"), [(1, "1 reference."), (2, "2 references.")])
def test_the_long_text_notice_counts_its_references_in_words_that_agree(references: int, shown: str) -> None:
    """A 5,000-word paste read "there are 1 references"."""
    candidate = " ".join(f"w{i % 700}" for i in range(1_200))  # past the walkthrough's 1,000 tokens
    at = page()
    at.text_input(key="ex_candidate").set_value(candidate)
    at.text_area(key="ex_references").set_value("\n".join([candidate] * references))
    at.run()
    assert not at.exception
    notice = next(i.value for i in at.info if "longer than the walkthrough shows in full" in i.value)
    assert f"candidate 1,200 tokens, longest reference 1,200 tokens, {shown}" in notice


def test_one_click_sets_sacrebleus_defaults_and_keeps_the_text() -> None:
    """A teacher pasted a real sentence under the example's BLEU-3 without smoothing and took 44.21 for BLEU; the
    caption that names the difference now has a button to sacreBLEU's defaults."""
    candidate = "the quick brown fox jumps over the lazy dog near the river bank today"
    references = ["a quick brown fox jumped over the lazy dog by the river bank today", "the fast fox jumps over a dog"]
    at = page({"candidate": candidate, "reference": references, "max_n": "3", "smooth": "none", "paper": "1"})
    at.button(key="ex_use_defaults").click().run()
    assert not at.exception
    assert at.text_input(key="ex_candidate").value == candidate
    assert metric(at, "BLEU ×100") == f"{sacrebleu.sentence_bleu(candidate, references).score:.2f}"
    assert not any("`sentence_bleu` with its defaults" in c.value for c in at.caption)
    assert not [b for b in at.button if b.key == "ex_use_defaults"]


def test_invisible_characters_are_named_where_they_stop_a_match() -> None:
    """A candidate "Das ist\\x00 ein Test ." showed "ist" red beside a reference "ist", with no word why."""
    at = page()
    at.text_input(key="ex_candidate").set_value("Das ist\x00 ein Test .")
    at.text_area(key="ex_references").set_value("Das ist ein Test .\nDas\u200b ist ein Test .").run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("The candidate has invisible characters (U+0000)") for w in warnings), warnings
    assert any(w.startswith("Reference 2 has invisible characters (U+200B)") for w in warnings), warnings
    assert not any(w.startswith("Reference 1 has") for w in warnings)
    theirs = sacrebleu.BLEU(max_ngram_order=3, smooth_method="none", effective_order=False)
    score = theirs.sentence_score("Das ist\x00 ein Test .", ["Das ist ein Test .", "Das\u200b ist ein Test ."])
    assert metric(at, "BLEU ×100") == f"{score.score:.2f}"
    clean = page({"candidate": "Das ist ein Test .", "reference": ["Das ist ein Test ."]})
    assert not any("invisible characters" in w.value for w in clean.warning)
