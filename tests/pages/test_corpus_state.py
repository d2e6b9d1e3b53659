"""AppTest through app.py: work on the Corpus page survives page changes, the settings panel is shared, a
segment goes to Explain, what-if rescoring equals sacreBLEU on the edited corpus, and no shown table holds a
null or a "None"/"nan"."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from pages.shared import state as S
from pages.shared.i18n import SWITCH
from tests.i18n_check import rendered_labels, untranslated

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
CORPUS = str(ROOT / "pages" / "corpus.py")
HYPS = list(DEMO_SYSTEMS["literal"])
REFS = [list(stream) for stream in DEMO_REFERENCES]


def text_bytes(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def app_on(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page(page).run()
    assert not at.exception
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def upload_demo_files(at: AppTest) -> AppTest:
    at.radio(key="co_mode").set_value("upload").run()
    at.file_uploader(key="co_hyp_file").set_value(("system.txt", text_bytes(HYPS), "text/plain"))
    at.file_uploader(key="co_ref_files").set_value(
        [(f"ref{k}.txt", text_bytes(stream), "text/plain") for k, stream in enumerate(REFS)]
    )
    return at.run()


def test_uploads_survive_a_visit_to_explain() -> None:
    at = upload_demo_files(app_on("pages/corpus.py"))
    expected = f"{sacrebleu.corpus_bleu(HYPS, REFS).score:.2f}"
    assert metric(at, "BLEU ×100") == expected
    at.switch_page("pages/explain.py").run()
    assert not at.exception
    at.switch_page("pages/corpus.py").run()
    assert not at.exception
    assert at.radio(key="co_mode").value == "upload"
    assert metric(at, "BLEU ×100") == expected
    at.run()  # the next click after coming back: the uploaders are drawn empty, the kept files stay
    assert metric(at, "BLEU ×100") == expected
    assert any("system\\.txt" in c.value and "ref0\\.txt" in c.value for c in at.caption), [c.value for c in at.caption]
    files = at.session_state[S.FILES]
    assert files.hypothesis == ("system.txt", HYPS) and [name for name, _ in files.references] == [
        "ref0.txt",
        "ref1.txt",
    ]
    # Clearing the files is the user's choice, not a page change's.
    at.button(key="co_clear_files").click().run()
    assert not at.metric


def test_settings_chosen_on_corpus_are_in_force_on_compare() -> None:
    at = app_on("pages/corpus.py")
    at.selectbox(key="bleu_tokenize").set_value("intl").run()
    at.checkbox(key="bleu_lowercase").check().run()
    assert any("tok:intl" in c.value and "case:lc" in c.value for c in at.code)
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    assert at.selectbox(key="bleu_tokenize").value == "intl"
    assert at.checkbox(key="bleu_lowercase").value is True
    at.switch_page("pages/corpus.py").run()
    assert at.selectbox(key="bleu_tokenize").value == "intl"


def test_send_a_segment_to_explain() -> None:
    at = app_on("pages/corpus.py")
    at.selectbox(key="co_sort").set_value("segment").run()
    at.number_input(key="co_segment").set_value(4).run()
    at.button(key="co_send_explain").click().run()
    assert not at.exception
    assert at.text_input(key=S.CANDIDATE).value == HYPS[3]
    assert at.text_area(key=S.REFERENCES).value == "\n".join(stream[3] for stream in REFS)
    assert at.checkbox(key=S.EFFECTIVE).value is True


def test_explain_keeps_its_own_text_entry() -> None:
    source = (ROOT / "pages" / "explain.py").read_text(encoding="utf-8")
    # the value the Corpus page writes is the one Explain reads: one constant, no literal of its own
    assert "S.EXPLAIN_CUSTOM" in source and f'"{S.EXPLAIN_CUSTOM}"' not in source


def test_what_if_equals_sacrebleu_on_the_edited_corpus() -> None:
    at = AppTest.from_file(CORPUS, default_timeout=120).run()
    at.selectbox(key="co_sort").set_value("segment").run()
    at.number_input(key="co_segment").set_value(2).run()
    at.text_area(key="co_edit_1").set_value(REFS[0][1]).run()
    assert not at.exception
    edited = list(HYPS)
    edited[1] = REFS[0][1]
    before = sacrebleu.corpus_bleu(HYPS, REFS).score
    after = sacrebleu.corpus_bleu(edited, REFS).score
    shown = next(m for m in at.metric if m.label == "corpus BLEU after the edit")
    assert shown.value == f"{after:.2f}"
    assert shown.delta == f"{after - before:+.3f}"
    at.button(key="co_edit_reset_1").click().run()
    assert at.text_area(key="co_edit_1").value == HYPS[1]
    assert not any(m.label == "corpus BLEU after the edit" for m in at.metric)


def test_follow_an_ngram_to_its_segments() -> None:
    at = AppTest.from_file(CORPUS, default_timeout=120).run()
    at.radio(key="co_view").set_value("ngrams").run()
    chosen = at.selectbox(key="co_follow").value
    table = next(d.value for d in at.dataframe if "hypothesis count" in d.value.columns)
    assert len(table) >= 1
    marked = " ".join(table["hypothesis"]) + " ".join(table["reference 1"])
    assert f"⟦{chosen}⟧" in marked or "⟦" in marked


def shown_problems(at: AppTest) -> list[str]:
    problems = []
    for frame in at.dataframe:
        value = frame.value
        if isinstance(value, pd.DataFrame):
            visible = value.drop(columns=[c for c in value.columns if str(c).startswith("_")])
            if visible.isna().any().any():
                problems.append(f"null in {list(visible.columns)}")
            cells = visible.astype(str)
            if cells.isin(["None", "nan", "NaN"]).any().any():
                problems.append(f"None/nan text in {list(visible.columns)}")
    for element in (*at.markdown, *at.caption, *at.info, *at.warning):
        if any(word in str(element.value).split() for word in ("None", "nan", "NaN")):
            problems.append(str(element.value)[:80])
    return problems


@pytest.mark.parametrize("view", ["segments", "ngrams", "words", "lengths"])
def test_no_nulls_or_none_in_what_the_page_shows(view: str) -> None:
    at = AppTest.from_file(CORPUS, default_timeout=120).run()
    at.radio(key="co_mode").set_value("paste").run()
    at.text_area(key="co_paste_hyp").set_value("the cat\nthe cat sat on the mat .\n\n").run()
    at.text_area(key="co_paste_ref0").set_value("a cat\nthe cat sat on a mat .\n\n").run()
    at.radio(key="co_view").set_value(view).run()
    assert not at.exception
    assert at.metric, [e.value for e in at.error]
    for words in ("frequency", "length", "score") if view == "words" else ("",):
        if words:
            at.radio(key="co_words_by").set_value(words).run()
        assert shown_problems(at) == []
    if view == "segments":
        table = next(d.value for d in at.dataframe if "leave-one-out Δ" in d.value.columns)
        assert table.loc[table["segment"] == 1, "p4"].item() == "—"


@pytest.mark.parametrize("view", ["ngrams", "words", "lengths"])
def test_the_corpus_page_speaks_chinese(view: str) -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["ui_language"] = "zh"
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.radio(key="co_view").set_value(view).run()
    assert not at.exception
    assert untranslated(rendered_labels(at)) == {}


def test_source_is_shown_and_bucketed() -> None:
    at = upload_demo_files(AppTest.from_file(CORPUS, default_timeout=120).run())
    source = [f"Quelle {i} ." for i in range(len(HYPS))]
    at.file_uploader(key="co_src_file").set_value(("source.de", text_bytes(source), "text/plain")).run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "leave-one-out Δ" in d.value.columns)
    assert table.sort_values("segment")["source"].tolist() == source
    assert list(table.columns[:5]) == ["segment", "sentence BLEU", "sentence chrF", "source", "hypothesis"]
    at.radio(key="co_view").set_value("words").run()
    at.radio(key="co_words_by").set_value("source").run()
    buckets = next(d.value for d in at.dataframe if "F-measure" in d.value.columns)
    assert buckets["bucket"].tolist() == ["0–9"] and buckets["count"].tolist() == [len(HYPS)]


def test_other_systems_make_the_diagnosis_relative() -> None:
    at = AppTest.from_file(CORPUS, default_timeout=120).run()
    others = [(f"{name}.txt", text_bytes(list(lines)), "text/plain") for name, lines in DEMO_SYSTEMS.items()]
    at.file_uploader(key="co_other_files_0").set_value(others).run()
    assert not at.exception
    assert any(e.label == f"Other systems on the same test set ({len(DEMO_SYSTEMS)} loaded)" for e in at.expander)
    table = next(d.value for d in at.dataframe if "others' median" in d.value.columns)
    assert table["term"].tolist()[:4] == ["p1", "p2", "p3", "p4"] and table["term"].tolist()[-2:] == ["BP", "c/r"]
    # The demo's own system is among the loaded ones: it ranks among len(DEMO_SYSTEMS) + 1 systems.
    assert all(rank.endswith(f"/ {len(DEMO_SYSTEMS) + 1}") for rank in table["rank"])
    assert not shown_problems(at)
    assert at.session_state[S.SYSTEMS].keys() == {f"{name}.txt" for name in DEMO_SYSTEMS}
    at.button(key="co_other_clear").click().run()
    assert not any("others' median" in d.value.columns for d in at.dataframe)


def pasted_in_chinese(hypotheses: str, reference: str) -> AppTest:
    """The Corpus page through app.py in Chinese, on a pasted hypothesis and reference."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["ui_language"] = "zh"
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.radio(key="co_mode").set_value("paste").run()
    at.text_area(key="co_paste_hyp").set_value(hypotheses).run()
    at.text_area(key="co_paste_ref0").set_value(reference).run()
    return at


def test_linter_findings_speak_chinese() -> None:
    at = pasted_in_chinese("the cat sat .\nit is n't here .", "the cat sat .\nit is n't here .")
    warnings = [w.value for w in at.warning]
    assert any("看起来已经分过词" in w for w in warnings) and any("完全相同" in w for w in warnings), warnings
    assert untranslated(warnings, allowed=["hypothesis", "reference"]) == {}


def compare_with_uploaded_demo() -> AppTest:
    """The Compare page through app.py, the demo systems and references uploaded as files."""
    at = app_on("pages/compare.py")
    at.radio(key="cmp_mode").set_value("upload").run()
    at.file_uploader(key="cmp_systems").set_value(
        [(f"{name}.txt", text_bytes(list(lines)), "text/plain") for name, lines in DEMO_SYSTEMS.items()]
    )
    at.file_uploader(key="cmp_references").set_value(
        [(f"ref{k}.txt", text_bytes(stream), "text/plain") for k, stream in enumerate(REFS)]
    )
    at.run()
    return at


def test_compare_uploads_survive_a_visit_to_corpus_and_feed_its_diagnosis() -> None:
    at = compare_with_uploaded_demo()
    assert not at.exception
    before = [str(df.value.to_dict()) for df in at.dataframe]
    assert set(S.other_systems(at.session_state)) == set(DEMO_SYSTEMS)
    at.switch_page("pages/corpus.py").run()
    assert not at.exception
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    assert at.radio(key="cmp_mode").value == "upload"
    assert any("ref0\\.txt" in c.value for c in at.caption), [c.value for c in at.caption]
    assert [str(df.value.to_dict()) for df in at.dataframe] == before
    at.run()  # and after the next click
    assert [str(df.value.to_dict()) for df in at.dataframe] == before


def test_a_language_switch_keeps_the_files_and_every_setting() -> None:
    at = upload_demo_files(app_on("pages/corpus.py"))
    at.selectbox(key=S.settings_key("smooth")).set_value("none")
    at.checkbox(key=S.settings_key("lowercase")).check().run()
    shown = [m.value for m in at.metric]
    expected = f"{sacrebleu.corpus_bleu(HYPS, REFS, smooth_method='none', lowercase=True).score:.2f}"
    assert expected in shown
    at.button_group(key=SWITCH).set_value("zh").run()
    assert not at.exception
    assert at.title[0].value != "Corpus"  # the page speaks Chinese now
    for _ in range(2):  # the switch's run, and the next one after any click
        assert at.radio(key="co_mode").value == "upload"
        assert at.selectbox(key=S.settings_key("smooth")).value == "none"
        assert at.checkbox(key=S.settings_key("lowercase")).value is True
        assert [m.value for m in at.metric] == shown
        at.run()


def test_a_language_switch_keeps_compare_settings_and_uploads() -> None:
    at = compare_with_uploaded_demo()
    other = next(test for test in at.radio(key="cmp_test").options if test != at.radio(key="cmp_test").value)
    at.radio(key="cmp_test").set_value(other).run()
    chosen = at.radio(key="cmp_test").value
    before = [str(df.value.to_dict()) for df in at.dataframe]
    at.button_group(key=SWITCH).set_value("zh").run()
    assert not at.exception
    for _ in range(2):
        assert at.radio(key="cmp_mode").value == "upload"
        assert at.radio(key="cmp_test").value == chosen
        assert len(at.dataframe) == len(before)
        at.run()


def test_implementations_opens_its_corpus_mode_on_the_files_loaded_on_corpus() -> None:
    at = upload_demo_files(app_on("pages/corpus.py"))
    at.switch_page("pages/implementations.py").run()
    at.segmented_control(key="im_mode").set_value("corpus").run()
    assert not at.exception
    kept = next(c.value for c in at.caption if "loaded earlier in this session" in c.value)
    assert "system\\.txt" in kept and "ref0\\.txt" in kept  # names are Markdown-escaped
    sacre = next(t.value for t in at.table if "sacreBLEU" in " ".join(map(str, t.value.iloc[:, 0])))
    row = sacre[sacre.iloc[:, 0].astype(str).str.contains("sacreBLEU")].iloc[0]
    assert f"{sacrebleu.corpus_bleu(HYPS, REFS).score:.2f}" in " ".join(map(str, row))


def test_files_uploaded_on_implementations_open_the_corpus_page() -> None:
    hyps, refs = ["the cat sat on the mat", "it rained all day"], ["the cat is on the mat", "it rained all day long"]
    at = app_on("pages/implementations.py")
    at.segmented_control(key="im_mode").set_value("corpus").run()
    at.file_uploader(key="im_hypothesis_file").set_value(("mine.txt", text_bytes(hyps), "text/plain"))
    at.file_uploader(key="im_reference_files").set_value([("theirs.txt", text_bytes(refs), "text/plain")])
    at.run()
    assert not at.exception
    at.switch_page("pages/corpus.py").run()
    at.radio(key="co_mode").set_value("upload").run()
    assert not at.exception
    assert metric(at, "BLEU ×100") == f"{sacrebleu.corpus_bleu(hyps, [refs]).score:.2f}"


def test_words_written_two_ways_speak_chinese() -> None:
    at = pasted_in_chinese("We don't know - yet.\nThey don't care.", "We don’t know – yet.\nThey don’t care.")
    at.radio(key="co_view").set_value("ngrams").run()
    assert not at.exception
    notice = next(w.value for w in at.warning if "使用了与参考译文不同的字符" in w.value)
    table = next(d.value for d in at.dataframe if "characters" in d.value.columns)
    assert set(table["kind"]) == {"撇号", "破折号、连字符或减号"}
    assert untranslated([notice, *(c.value for c in at.caption)], allowed=["hypothesis", "reference"]) == {}


def test_other_systems_of_another_length_are_not_counted_as_in_use() -> None:
    at = AppTest.from_file(CORPUS, default_timeout=120).run()
    fitting = ("fits.txt", text_bytes(list(DEMO_SYSTEMS["terse"])), "text/plain")
    longer = ("longer.txt", text_bytes([*DEMO_SYSTEMS["terse"], "one line too many"]), "text/plain")
    at.file_uploader(key="co_other_files_0").set_value([fitting, longer]).run()
    assert not at.exception
    assert any(e.label == "Other systems on the same test set (1 of 2 loaded fit it)" for e in at.expander)
    segments = len(DEMO_SYSTEMS["terse"])
    expected = f"Left out: 1 of the loaded systems, whose number of lines is not this test set's {segments}."
    assert any(w.value == expected for w in at.warning)
