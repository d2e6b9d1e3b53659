"""AppTest: a link reproduces the Implementations page; the waterfall and the pair shown always agree."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from bleu_core.gaps.waterfall import RULES_FIRST, corpus_waterfall, waterfall
from bleu_core.tools import IMPLEMENTATIONS, number, trace_implementation
from pages.shared import state as S
from tests.pages.test_implementations_page import PAGE, table, upload


def page(query: dict[str, str | list[str]] | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    return at.run()


def subheaders(at: AppTest) -> list[str]:
    return [h.value for h in at.subheader]


def waterfall_rows(at: AppTest) -> list[dict[str, str]]:
    return list(table(at, "change").to_dict("records"))


def test_a_link_reproduces_the_page() -> None:
    candidate, references = "the cat sat on the mat .", ["the cat is on the mat .", "a cat sat on a mat"]
    query: dict[str, str | list[str]] = {
        "candidate": candidate,
        "reference": references,
        "first": "torchmetrics",
        "second": "d2l",
        "mode": "sentence",
        "order": "rules-first",
    }
    at = page(query)
    assert not at.exception
    assert at.text_input(key="im_candidate").value == candidate
    assert at.text_area(key="im_references").value == "\n".join(references)
    assert (at.selectbox(key="im_first").value, at.selectbox(key="im_second").value) == ("torchmetrics", "d2l")
    assert at.selectbox(key="im_order").value == "rules-first"
    assert any("torchmetrics → d2l" in h for h in subheaders(at))
    expected = waterfall("torchmetrics", "d2l", candidate, references, RULES_FIRST)
    rows = waterfall_rows(at)
    assert [r["step"] for r in rows] == [r.step for r in expected.rows]
    assert rows[0]["score"] == number(trace_implementation("torchmetrics", candidate, references).score)
    assert rows[-1]["score"] == number(trace_implementation("d2l", candidate, references).score)
    # The page writes its state back: the same link comes out.
    assert at.query_params["first"] == "torchmetrics" and at.query_params["second"] == "d2l"
    assert at.query_params["reference"] == references


def test_choices_go_to_the_link_and_bad_parameters_are_reported() -> None:
    at = page({"first": "nope", "second": "hf-evaluate"})
    assert any("first must be one of" in w.value for w in at.warning)
    assert at.selectbox(key="im_first").value == "sacrebleu"
    fields = table(at, "field")
    hf = fields[fields["tool"] == "HF evaluate"].set_index("field")["value"]
    assert {"length_ratio", "translation_length", "reference_length", "brevity_penalty"} <= set(hf.index)
    assert hf["reference_length"] == "6" and hf["translation_length"] == "9"
    at.selectbox(key="im_second").set_value("multi-bleu").run()
    assert at.query_params["second"] == "multi-bleu"


def test_corpus_mode_always_names_the_pair_it_compares() -> None:
    hyps = ["the cat sat on the mat", "x y z", "it rained all day long"]
    refs = [["the cat sat on the mat", "x y z", "it rained the whole day"]]
    at = page({"first": "sacrebleu", "second": "nltk"})
    at = upload(at, "\n".join(hyps).encode(), ["\n".join(r).encode() for r in refs])
    assert not at.exception
    first, second = at.selectbox(key=S.tool_key("first", "corpus")), at.selectbox(key=S.tool_key("second", "corpus"))
    assert (first.value, second.value) == ("sacrebleu", "nltk")
    assert "corpus_bleu" in second.format_func(second.value)
    heads = subheaders(at)
    assert any("sacreBLEU → NLTK" in h and "whole corpus" in h for h in heads)
    assert not any("sacreBLEU → sacreBLEU" in h for h in heads)
    expected = corpus_waterfall("sacrebleu", "nltk", hyps, refs)
    assert waterfall_rows(at)[-1]["score"] == number(expected.second_score)
    # The segment opens where the pair differs: line 2 ("x y z" has no 4-grams; NLTK divides by max(1, 0)).
    assert at.number_input(key="im_segment").value == 2
    # Back to a sentence and to the corpus again: the pair stays what the selectors show.
    at.segmented_control(key="im_mode").set_value("sentence").run()
    at.segmented_control(key="im_mode").set_value("corpus").run()
    pair = (at.selectbox(key=S.tool_key("first", "corpus")), at.selectbox(key=S.tool_key("second", "corpus")))
    assert (pair[0].value, pair[1].value) == ("sacrebleu", "nltk")
    assert at.query_params["mode"] == "corpus"
    names = {impl.name_for(True) for impl in IMPLEMENTATIONS.values()}
    assert "sacreBLEU corpus_bleu" in names
