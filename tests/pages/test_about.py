"""The About page names every way into the app, presentation and exercise mode included (a mode no one can
reach does not exist), and the links open those modes."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

import sacrebleu
from streamlit.testing.v1 import AppTest

from bleu_core.teach.examples import DEFAULT_PRESET

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def about() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/about.py").run()
    assert not at.exception, at.exception
    return at


def test_about_links_to_presentation_and_exercise_mode() -> None:
    links = {link.proto.label: parse_qs(link.proto.query_string) for link in about().get("page_link")}
    assert {"present": ["1"]} in links.values() and {"exercise": ["1"]} in links.values()
    assert any(label.startswith("Exercise mode") for label in links)
    assert any(label.startswith("Presentation mode") for label in links)


def test_the_exercise_link_opens_exercise_mode() -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["exercise"] = "1"
    at.run()
    assert not at.exception, at.exception
    assert "exercise number (seed)" in [box.label for box in at.number_input]


def test_about_compares_bleu_and_chrf_on_the_example() -> None:
    """The example's scores are sacreBLEU's: BLEU and chrF with sacreBLEU's defaults (what it prints), and BLEU
    with the example's own 3-grams (the About page once gave only that one, "as sacreBLEU prints" it)."""
    at = about()
    refs = list(DEFAULT_PRESET.references)
    order = DEFAULT_PRESET.options().get("max_order", 4)
    assert order == 3
    bleu3 = sacrebleu.BLEU(max_ngram_order=order, effective_order=True).sentence_score(DEFAULT_PRESET.candidate, refs)
    bleu = sacrebleu.sentence_bleu(DEFAULT_PRESET.candidate, refs)
    chrf = sacrebleu.sentence_chrf(DEFAULT_PRESET.candidate, refs)
    text = " ".join(m.value for m in at.markdown)
    assert f"BLEU {bleu.score:.2f} (4-grams, exp smoothing; {bleu3.score:.2f} with the 3-grams above)" in text
    assert f"and chrF {chrf.score:.2f}" in text
    assert len(at.table) == 1 and "chrF2" in at.table[0].value.columns
