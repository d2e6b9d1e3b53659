"""AppTest through app.py: work survives a visit to another page and comes back where it was.

Corpus → Explain → Corpus keeps the segment and its what-if edit, and Explain offers the way back; the
Implementations page keeps the typed sentence across its modes and names its tools by mode; Compare's
pairwise view opens a new pair on a segment of that pair's list and names the systems in its legend.
"""

from __future__ import annotations

import json

import sacrebleu
from streamlit.testing.v1 import AppTest

from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from pages.compare_page.views import better_labels
from pages.shared import state as S
from tests.pages.test_corpus_state import app_on, metric

HYPS = list(DEMO_SYSTEMS["literal"])
REFS = [list(stream) for stream in DEMO_REFERENCES]


def open_on_explain(at: AppTest) -> AppTest:
    """Click "Open this segment on Explain"; stay on Explain (AppTest's next run would go back to its own page)."""
    at.button(key="co_send_explain").click().run()
    assert not at.exception
    assert at.title[0].value == "Explain BLEU, step by step"  # the button opened Explain
    at.switch_page("pages/explain.py").run()
    assert not at.exception
    return at


def buttons(at: AppTest) -> dict[str, str]:
    """Shown buttons: key -> label."""
    return {b.key: b.label for b in at.button if b.key}


# --- Corpus → Explain → Corpus --------------------------------------------------------------------------------


def corpus_with_edit(segment: int, edit: str) -> AppTest:
    at = app_on("pages/corpus.py")
    at.selectbox(key="co_sort").set_value("segment").run()
    at.number_input(key=S.CORPUS_SEGMENT).set_value(segment).run()
    at.text_area(key=S.edit_key(segment - 1)).set_value(edit).run()
    assert not at.exception
    return at


def test_segment_and_edit_survive_the_round_trip_by_the_way_back() -> None:
    edit = REFS[0][2]  # segment 3 rewritten as its first reference
    at = corpus_with_edit(3, edit)
    edited = list(HYPS)
    edited[2] = edit
    after = f"{sacrebleu.corpus_bleu(edited, REFS).score:.2f}"
    assert metric(at, "corpus BLEU after the edit") == after
    open_on_explain(at)
    assert at.text_input(key=S.CANDIDATE).value == edit  # Explain walks through the edited segment
    assert buttons(at)[S.BACK_TO_CORPUS] == "Back to segment 3 on Corpus (with your edit)"
    at.button(key=S.BACK_TO_CORPUS).click().run()  # the button opens Corpus in this run
    assert not at.exception
    assert at.title[0].value.startswith("Corpus BLEU"), ([i.value for i in at.info], [b.label for b in at.button])
    assert at.number_input(key=S.CORPUS_SEGMENT).value == 3
    at.switch_page("pages/corpus.py").run()
    assert at.radio(key="co_view").value == "segments"
    assert at.number_input(key=S.CORPUS_SEGMENT).value == 3
    assert at.text_area(key=S.edit_key(2)).value == edit
    assert at.selectbox(key="co_sort").value == "segment"
    assert metric(at, "corpus BLEU after the edit") == after
    at.run()  # the next run keeps them too
    assert at.number_input(key=S.CORPUS_SEGMENT).value == 3
    assert at.text_area(key=S.edit_key(2)).value == edit


def test_segment_and_edit_survive_a_visit_by_the_menu() -> None:
    at = corpus_with_edit(2, "the edited second segment")
    at.switch_page("pages/explain.py").run()
    assert S.BACK_TO_CORPUS not in buttons(at)  # Explain was not opened from the segment: no way back
    at.switch_page("pages/corpus.py").run()
    assert not at.exception
    assert at.number_input(key=S.CORPUS_SEGMENT).value == 2
    assert at.text_area(key=S.edit_key(1)).value == "the edited second segment"


def test_way_back_names_an_unedited_segment_and_ends_with_an_example() -> None:
    at = app_on("pages/corpus.py")
    at.selectbox(key="co_sort").set_value("segment").run()
    at.number_input(key=S.CORPUS_SEGMENT).set_value(4).run()
    open_on_explain(at)
    assert buttons(at)[S.BACK_TO_CORPUS] == "Back to segment 4 on Corpus"
    at.text_input(key=S.CANDIDATE).set_value("a sentence typed on Explain").run()
    assert S.BACK_TO_CORPUS in buttons(at)  # still the segment's own text, edited here
    at.selectbox(key=S.PRESET).set_value("love").run()
    assert S.BACK_TO_CORPUS not in buttons(at)  # an example replaced it: nothing to go back to


def test_edits_belong_to_their_corpus() -> None:
    at = corpus_with_edit(2, "an edit of the literal system")
    other = next(name for name in DEMO_SYSTEMS if name != "literal")
    at.selectbox(key="co_demo").set_value(other).run()
    assert at.text_area(key=S.edit_key(1)).value == DEMO_SYSTEMS[other][1]
    at.selectbox(key="co_demo").set_value("literal").run()
    assert at.text_area(key=S.edit_key(1)).value == "an edit of the literal system"


def test_way_back_in_chinese() -> None:
    at = app_on("pages/corpus.py")
    at.sidebar.segmented_control(key="ui_language_switch").set_value("zh").run()
    at.number_input(key=S.CORPUS_SEGMENT).set_value(5).run()
    at.button(key="co_send_explain").click().run()
    at.switch_page("pages/explain.py").run()
    assert not at.exception
    assert buttons(at)[S.BACK_TO_CORPUS] == "返回“语料分析”的第 5 个句段"


# --- Implementations: one sentence ↔ a corpus ---------------------------------------------------------------

TYPED = ("the quick brown fox jumps over the dog", "the quick brown fox jumped over the lazy dog\na fast fox")


def implementations_with_typed_sentence() -> AppTest:
    at = app_on("pages/implementations.py")
    at.text_input(key="im_candidate").set_value(TYPED[0])
    at.text_area(key="im_references").set_value(TYPED[1]).run()
    assert not at.exception
    return at


def assert_typed_sentence_shown(at: AppTest) -> None:
    assert at.text_input(key="im_candidate").value == TYPED[0]
    assert at.text_area(key="im_references").value == TYPED[1]
    assert at.query_params["candidate"] in (TYPED[0], [TYPED[0]])  # the page's link carries it again


def test_typed_sentence_survives_corpus_mode() -> None:
    at = implementations_with_typed_sentence()
    at.segmented_control(key="im_mode").set_value("corpus").run()
    assert not at.exception
    at.run()  # a further run in corpus mode (the sentence's widgets stay undrawn)
    at.segmented_control(key="im_mode").set_value("sentence").run()
    assert not at.exception
    assert_typed_sentence_shown(at)


def test_typed_sentence_and_mode_survive_a_visit_to_another_page() -> None:
    at = implementations_with_typed_sentence()
    at.selectbox(key=S.tool_key("second", "sentence")).set_value("torchmetrics").run()
    at.switch_page("pages/explain.py").run()
    at.switch_page("pages/implementations.py").run()
    assert not at.exception
    assert_typed_sentence_shown(at)
    assert at.selectbox(key=S.tool_key("second", "sentence")).value == "torchmetrics"


def test_tool_selectors_are_named_by_mode_and_keep_the_pair() -> None:
    at = implementations_with_typed_sentence()
    first = at.selectbox(key=S.tool_key("first", "sentence"))
    assert first.format_func("sacrebleu") == "sacreBLEU sentence_bleu"
    at.selectbox(key=S.tool_key("second", "sentence")).set_value("nltk-method1").run()
    at.segmented_control(key="im_mode").set_value("corpus").run()
    # A selector of its own in corpus mode: the browser draws it afresh, with the corpus function's name.
    assert S.tool_key("first", "corpus") != S.tool_key("first", "sentence")
    first, second = (at.selectbox(key=S.tool_key(which, "corpus")) for which in ("first", "second"))
    assert (first.value, second.value) == ("sacrebleu", "nltk-method1")
    assert first.format_func(first.value) == "sacreBLEU corpus_bleu"
    assert second.format_func(second.value) == "NLTK 3.10 corpus_bleu, SmoothingFunction().method1"
    assert not any(key == S.tool_key("first", "sentence") for key in (s.key for s in at.selectbox))
    second.set_value("matlab").run()
    assert at.query_params["second"] in ("matlab", ["matlab"])
    at.segmented_control(key="im_mode").set_value("sentence").run()
    assert at.selectbox(key=S.tool_key("second", "sentence")).value == "matlab"  # chosen in corpus mode, kept


# --- Compare: the pairwise view -------------------------------------------------------------------------------


def sentence_scores(system: str) -> list[float]:
    return [sacrebleu.sentence_bleu(h, [r[i] for r in REFS]).score for i, h in enumerate(DEMO_SYSTEMS[system])]


def differ_most(a: str, b: str) -> list[int]:
    """Segments (1-based) by |sentence BLEU of a − of b|, largest first, ties in segment order."""
    gaps = [abs(x - y) for x, y in zip(sentence_scores(a), sentence_scores(b), strict=True)]
    return sorted(range(1, len(gaps) + 1), key=lambda s: -round(gaps[s - 1], 9))


def scatter_legend(at: AppTest) -> list[str]:
    """The colour domain of the pairwise scatter (its legend's entries)."""
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        for layer in spec.get("layer", []):
            color = layer.get("encoding", {}).get("color", {})
            if "better" in str(color.get("field", "")):
                return list(color["scale"]["domain"])
    raise AssertionError("no scatter with a 'better' legend")


def test_a_new_pair_opens_on_a_segment_of_its_own_list() -> None:
    at = app_on("pages/compare.py")
    assert (at.selectbox(key="cmp_a").value, at.selectbox(key="cmp_b").value) == ("careful", "literal")
    first_list = differ_most("careful", "literal")
    assert at.number_input(key=S.COMPARE_SEGMENT).value == first_list[0]
    new_list = differ_most("careful", "terse")
    elsewhere = next(s for s in first_list if s != new_list[0])
    at.number_input(key=S.COMPARE_SEGMENT).set_value(elsewhere).run()
    assert at.number_input(key=S.COMPARE_SEGMENT).value == elsewhere  # a typed segment stays while the pair does
    at.selectbox(key="cmp_b").set_value("terse").run()
    assert not at.exception
    shown = at.number_input(key=S.COMPARE_SEGMENT).value
    assert shown == new_list[0]
    table = next(d.value for d in at.dataframe if "difference" in d.value.columns)
    assert shown == int(table["segment"].iloc[0])  # the first row of the list beside it
    assert any(f"**terse**: sentence BLEU {sentence_scores('terse')[shown - 1]:.2f}" in m.value for m in at.markdown)
    # other settings make another list too: a typed segment gives way to its first row
    typed = next(s for s in range(1, len(new_list) + 1) if s != shown)
    at.number_input(key=S.COMPARE_SEGMENT).set_value(typed).run()
    at.slider(key=S.settings_key("max_n")).set_value(2).run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "difference" in d.value.columns)
    assert at.number_input(key=S.COMPARE_SEGMENT).value == int(table["segment"].iloc[0])


def test_scatter_legend_names_the_systems() -> None:
    at = app_on("pages/compare.py")
    assert scatter_legend(at) == ["careful better", "literal better", "tie"]
    at.sidebar.segmented_control(key="ui_language_switch").set_value("zh").run()
    assert scatter_legend(at) == ["careful 更好", "literal 更好", "持平"]


def test_legend_shortens_long_names_and_tells_them_apart() -> None:
    long_a = "generaltest2022.de-en.hyp.Online-A.en"
    assert better_labels(long_a, "LT22") == ("generaltest2022.de-en.h… better", "LT22 better", "tie")
    # Names alike in their first characters would read the same: the selectors' names A and B instead.
    assert better_labels(long_a, long_a.replace("Online-A", "Online-B")) == (
        "System A better",
        "System B better",
        "tie",
    )
    assert better_labels("tie", "other")[:2] == ("tie better", "other better")
    assert better_labels("x", "x") == ("System A better", "System B better", "tie")
