"""AppTest: the Implementations page shows each tool's number (equal to compat and to the real packages)."""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import pandas as pd
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu
from streamlit.testing.v1 import AppTest

from bleu_core.gaps.mistakes import common_mistakes
from bleu_core.tools import IMPLEMENTATIONS, compare_corpus_implementations, compare_implementations, number
from pages.implementations_page.views import EXAMPLE_CANDIDATE, EXAMPLE_REFERENCES, HIGHLIGHT
from pages.shared.views import md_escape
from tests.pages.test_corpus_page import plain

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "implementations.py")


def page() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=60).run()


def table(at: AppTest, column: str) -> pd.DataFrame:
    """The first shown frame with ``column`` (Styler values are unwrapped to their data)."""
    for element in [*at.table, *at.dataframe]:
        frame = element.value
        if column in frame.columns:
            return frame.reset_index(drop=True)
    raise AssertionError(f"no table with column {column!r}")


def scores(at: AppTest, corpus: bool = False) -> dict[str, tuple[str, str]]:
    frame = table(at, "score (0–1)")
    names = {impl.name_for(corpus): key for key, impl in IMPLEMENTATIONS.items()}
    return {names[row["implementation"]]: (row["score (own scale)"], row["score (0–1)"]) for _, row in frame.iterrows()}


def highlighted_rows(at: AppTest, column: str) -> list[int]:
    """Rows of the table with ``column`` that carry the highlight colour (read from the Styler's CSS)."""
    element = next(e for e in at.table if column in e.value.columns)
    css = str(element.proto.arrow_data.styler.styles)
    highlighted = [block for block in css.split("}") if HIGHLIGHT.split(": ")[1] in block]
    return sorted({int(row) for block in highlighted for row in re.findall(r"row(\d+)_col", block)})


def real_nltk(candidate: str, references: list[str], method: int = 0) -> float:
    smoother = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(
            nltk_bleu.sentence_bleu([r.split() for r in references], candidate.split(), smoothing_function=smoother)
        )


def assert_numbers_match(at: AppTest, candidate: str, references: list[str]) -> None:
    shown = scores(at)
    for impl, native, unit in compare_implementations(candidate, references):
        assert shown[impl.key] == (number(native), number(unit)), impl.key
    # The original packages agree with what the page shows.
    assert shown["sacrebleu"][0] == number(sacrebleu.sentence_bleu(candidate, references).score)
    assert shown["nltk"][0] == number(real_nltk(candidate, references))
    assert shown["nltk-method1"][0] == number(real_nltk(candidate, references, 1))


def test_opens_on_the_example_where_tools_disagree() -> None:
    at = page()
    assert not at.exception
    assert at.text_input(key="im_candidate").value == EXAMPLE_CANDIDATE
    assert_numbers_match(at, EXAMPLE_CANDIDATE, list(EXAMPLE_REFERENCES))
    shown = scores(at)
    assert shown["sacrebleu"][:2] == ("13.74", "0.1374")
    assert shown["nltk"][1] == "8.8e-155"
    # Every tool but sacreBLEU itself gives another number here: rows 1-8 are highlighted.
    assert highlighted_rows(at, "score (0–1)") == list(range(1, 9))
    frame = table(at, "differs from sacreBLEU at")
    row = frame[frame["implementation"] == IMPLEMENTATIONS["hf-evaluate"].name].iloc[0]
    # Exact attribution: the waterfall's steps that move the number, with their changes.
    assert row["differs from sacreBLEU at"] == "reference length r, smoothing"
    assert row["the setting behind it"].startswith("reference length r: closest, ties to the shorter → the shortest")
    # The pair view opens on sacreBLEU vs NLTK and names the step with its numbers.
    info = " ".join(i.value for i in at.info)
    assert md_escape("first part ways at the step 'precisions'") in info
    assert md_escape("sacreBLEU uses 1/(2·7) = 0.07143 (exp smoothing) and NLTK substitutes 2.2e-308") in info


def test_common_mistakes_are_computed_numbers() -> None:
    at = page()
    frame = table(at, "with the mistake")
    checks = common_mistakes(EXAMPLE_CANDIDATE, list(EXAMPLE_REFERENCES))
    assert list(frame["with the mistake"]) == [f"{c.wrong:.4f}" for c in checks]
    real = sacrebleu.sentence_bleu(EXAMPLE_CANDIDATE, list(EXAMPLE_REFERENCES)).score / 100
    assert set(frame["correct (sacreBLEU)"]) == {f"{real:.4f}"}
    text = "\n".join(m.value for m in at.markdown)
    assert md_escape("p_1 becomes 8/9 instead of 7/9 ('the' counted twice") in text


def test_editing_the_text_updates_every_number() -> None:
    at = page()
    candidate, references = "the cat sat on the mat.", ["the cat is on the mat.", "there is a cat on the mat."]
    at.text_input(key="im_candidate").set_value(candidate)
    at.text_area(key="im_references").set_value("\n".join(references)).run()
    assert not at.exception
    assert_numbers_match(at, candidate, references)
    # Whitespace tools keep "mat." whole: the pair view now parts ways at the tokens.
    assert md_escape("first part ways at the step 'tokens'") in " ".join(i.value for i in at.info)
    at.button[0].click().run()  # restore the example
    assert at.text_input(key="im_candidate").value == EXAMPLE_CANDIDATE


def test_choosing_a_pair() -> None:
    at = page()
    at.selectbox(key="im_second").set_value("hf-evaluate").run()
    info = " ".join(i.value for i in at.info)
    assert md_escape("at the step 'reference length r'") in info
    steps = table(at, "HF evaluate")
    assert list(steps.columns) == ["step", "sacreBLEU", "HF evaluate"]
    assert steps.set_index("step").loc["reference length r", "HF evaluate"] == "c = 9, r = 6"
    at.selectbox(key="im_first").set_value("hf-evaluate").run()
    assert "agree at every step" in " ".join(i.value for i in at.info)
    assert not at.exception


def test_no_reference_is_an_error_not_a_traceback() -> None:
    at = page()
    at.text_area(key="im_references").set_value("  \n").run()
    assert not at.exception
    assert any("at least one reference" in e.value for e in at.error)


def test_hostile_text_is_escaped() -> None:
    at = page()
    hostile = "<img src=x onerror=alert(1)> [x](javascript:alert(1)) \\href{javascript:alert(1)}{x}"
    at.text_input(key="im_candidate").set_value(hostile + " the bakery").run()
    assert not at.exception
    markdown = [m.value for m in at.markdown] + [i.value for i in at.info]
    assert all("<img" not in block and "](javascript" not in block for block in markdown)
    assert any("&lt;img" in block for block in markdown)
    html_blocks = [str(element.proto.body) for element in at.get("html")]
    assert html_blocks and all("<img" not in block for block in html_blocks)


def upload(at: AppTest, hypothesis: bytes, references: list[bytes]) -> AppTest:
    at.segmented_control(key="im_mode").set_value("corpus").run()
    at.file_uploader(key="im_hypothesis_file").set_value(("hyp.txt", hypothesis, "text/plain"))
    files = [(f"ref{k}.txt", data, "text/plain") for k, data in enumerate(references, start=1)]
    return at.file_uploader(key="im_reference_files").set_value(files).run()


def test_corpus_upload_scores_every_tool() -> None:
    hyps = ["the cat sat on the mat", "it rained all day long"]
    refs = [["the cat is on the mat", "it rained the whole day"], ["a cat sat on the mat", "it rained all day"]]
    at = upload(page(), "\n".join(hyps).encode(), ["\n".join(r).encode("utf-16") for r in refs])
    assert not at.exception
    shown = scores(at, corpus=True)
    for impl, native, _ in compare_corpus_implementations(hyps, refs):
        if math.isnan(native) and not impl.corpus_level:  # sentences only: their mean (tested below)
            assert shown[impl.key][0].startswith("sentences only; the mean of its sentence scores: ")
            continue
        assert shown[impl.key][0] == ("fails" if math.isnan(native) else number(native))
    assert shown["sacrebleu"][0] == number(sacrebleu.corpus_bleu(hyps, refs).score)
    # The pair and mistakes sections explain one segment, chosen by line number.
    at.number_input(key="im_segment").set_value(2).run()
    checks = common_mistakes(hyps[1], [r[1] for r in refs])
    assert list(table(at, "with the mistake")["with the mistake"]) == [f"{c.wrong:.4f}" for c in checks]


def test_bad_files_are_reported_next_to_the_input() -> None:
    at = upload(page(), b"a b c\nd e f\n", [b"a b c\n"])
    assert not at.exception
    errors = " ".join(plain(e.value) for e in at.error)  # file names in errors are Markdown-escaped
    assert "ref1.txt: has 1 lines but the hypothesis hyp.txt has 2" in errors
    at = upload(page(), b"a\x00b\n", [b"a\n"])
    assert not at.exception
    assert any("hyp.txt (line 1)" in plain(e.value) and "NUL" in e.value for e in at.error)
    at = upload(page(), b"ok\n", [b"caf\xe9\n"])
    assert any("ref1.txt (line 1): not valid UTF-8" in plain(e.value) for e in at.error)


def test_a_sentence_only_tool_names_its_mean_instead_of_a_bare_n_a() -> None:
    """In corpus mode MATLAB, NLTK 3.2 and d2l score sentences only: the table says so and gives the mean of
    their sentence scores (recomputed here from each sentence's own trace), not "n/a" beside numeric changes."""
    import math

    from bleu_core.gaps.waterfall import PIPELINE, corpus_scores_and_waterfalls
    from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
    from bleu_core.tools import trace_implementation
    from pages.implementations_page.views import scores_frame

    hyps, streams = list(DEMO_SYSTEMS["literal"]), [list(s) for s in DEMO_REFERENCES]
    rows, waterfalls = corpus_scores_and_waterfalls("sacrebleu", hyps, streams, PIPELINE)
    frame = scores_frame(rows, waterfalls, corpus=True)
    for impl, native, _ in rows:
        cell = frame.loc[frame["implementation"] == impl.name_message(True).render("en"), "score (0–1)"].item()
        if impl.corpus_level:
            assert "mean" not in cell
            continue
        assert math.isnan(native)
        scores = [trace_implementation(impl.key, h, [s[i] for s in streams]).score for i, h in enumerate(hyps)]
        assert cell == f"sentences only; the mean of its sentence scores: {math.fsum(scores) / len(scores):.4g}"


def test_precision_chart_axis_fits_the_precisions_and_labels_stand_apart() -> None:
    from bleu_core.tools import trace_implementations
    from pages.implementations_page.views import precision_chart

    def spec_of(candidate: str, references: list[str]) -> dict:
        traces = trace_implementations(candidate, references)[:2]  # sacreBLEU and NLTK
        return precision_chart(traces).to_dict()

    def parts(spec: dict) -> tuple[list[float], dict]:
        bars, labels = spec["layer"]
        return bars["encoding"]["y"]["scale"]["domain"], labels["encoding"]

    # every order matched: the axis ends at the first whole power of ten below the smallest p_n
    domain, labels = parts(spec_of("the cat sat on the mat today", ["the cat sat on the mat"]))
    precisions = [
        p
        for trace in trace_implementations("the cat sat on the mat today", ["the cat sat on the mat"])[:2]
        for p in (o.precision for o in trace.orders)
    ]
    assert domain == [min(-1.0, math.floor(min(math.log10(p) for p in precisions))), 0]
    # the labels in one grey at the zero line, not each in its own bar's colour over the bar
    assert labels["color"] == {"value": "#444444"} and labels["y"] == {"datum": 0}
    # a p_n of 0 (NLTK's 2.2e-308 without smoothing): the floor is on the axis
    domain, _ = parts(spec_of("a b c x", ["a b c d"]))
    assert domain[0] == -12
