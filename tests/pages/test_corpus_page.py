"""AppTest: the corpus page scores uploaded WMT22 files exactly as sacreBLEU, explains the score, lints the input."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleu_core import corpus_bleu
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from tests.conftest import Pair

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "corpus.py")
DEMO_REFS = [list(stream) for stream in DEMO_REFERENCES]


def page() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=120).run()


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def segment_table(at: AppTest) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "leave-one-out Δ" in d.value.columns)


def plain(markdown: str) -> str:
    """Text of a message whose user-supplied parts were Markdown-escaped."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def diagnosis(at: AppTest) -> str:
    """The relative diagnosis: one bullet per finding."""
    return next(
        m.value for m in at.markdown if any(w in m.value for w in ("smallest factor", "costs the most", "short"))
    )


def upload(at: AppTest, hypothesis: tuple[str, bytes], references: list[tuple[str, bytes]]) -> AppTest:
    at.radio(key="co_mode").set_value("upload").run()
    at.file_uploader[0].set_value((hypothesis[0], hypothesis[1], "text/plain"))
    at.file_uploader[1].set_value([(name, data, "text/plain") for name, data in references])
    return at.run()


def costliest_term(result: sacrebleu.metrics.bleu.BLEUScore) -> str:
    """The most negative summand of log BLEU, from sacreBLEU's own precisions and BP (uniform weights)."""
    terms = {f"p{n + 1}": 0.25 * math.log(p / 100) for n, p in enumerate(result.precisions)}
    terms["BP"] = math.log(result.bp)
    return min(terms, key=terms.__getitem__)


def test_opens_on_the_demo_corpus_with_sacrebleu_score() -> None:
    at = page()
    assert not at.exception
    expected = sacrebleu.corpus_bleu(list(DEMO_SYSTEMS["literal"]), DEMO_REFS)
    assert metric(at, "BLEU ×100") == f"{expected.score:.2f}"
    assert metric(at, "c / r") == f"{expected.sys_len / expected.ref_len:.3f}"
    assert any(
        c.value.startswith(f"c = {expected.sys_len} hypothesis tokens, r = {expected.ref_len}") for c in at.caption
    )
    assert len(segment_table(at)) == len(DEMO_SYSTEMS["literal"])
    assert "- p4 is the smallest factor, as for nearly every system" in diagnosis(at)
    assert any("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp" in c.value for c in at.code)


def test_chrf_beside_bleu_for_the_corpus_and_each_segment() -> None:
    """chrF2 as sacreBLEU's CHRF() computes it, the corpus's and each segment's; the table sorts by it."""
    at = page()
    hyps = list(DEMO_SYSTEMS["literal"])
    assert metric(at, "chrF2") == f"{sacrebleu.corpus_chrf(hyps, DEMO_REFS).score:.2f}"
    table = segment_table(at).sort_values("segment")
    expected = [sacrebleu.sentence_chrf(h, [s[i] for s in DEMO_REFS]).score for i, h in enumerate(hyps)]
    assert table["sentence chrF"].tolist() == pytest.approx(expected, rel=1e-12)
    at.selectbox(key="co_sort").set_value("sentence_chrf").run()
    assert segment_table(at)["sentence chrF"].tolist() == sorted(expected)  # ascending, as the toggle opens


def test_chrf_past_its_segment_limit_is_left_out_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    from bleu_core import limits

    monkeypatch.setattr(limits, "LIMITS", limits.Limits(chrf_segments=len(DEMO_SYSTEMS["literal"]) - 1))
    at = page()
    assert not at.exception
    chrf = next(m for m in at.metric if m.label == "chrF2")
    assert chrf.value == "—" and "7" in chrf.help  # the limit, in the help text
    assert "sentence chrF" not in segment_table(at).columns
    assert metric(at, "BLEU ×100") == f"{sacrebleu.corpus_bleu(list(DEMO_SYSTEMS['literal']), DEMO_REFS).score:.2f}"


def test_terse_demo_is_diagnosed_as_too_short() -> None:
    at = page()
    at.selectbox(key="co_demo").set_value("terse").run()
    expected = sacrebleu.corpus_bleu(list(DEMO_SYSTEMS["terse"]), DEMO_REFS)
    assert costliest_term(expected) == "BP"
    assert metric(at, "BLEU ×100") == f"{expected.score:.2f}"
    text = diagnosis(at)
    assert text.startswith("- The output is short") and f"BP = {expected.bp:.4f}" in text
    assert "costs the most" not in text  # the shortness finding already gives BLEU with BP = 1
    assert any(e.label.startswith("8 of 8 segments are shorter than their reference") for e in at.expander)


def test_weights_and_max_n_sliders_rescore() -> None:
    at = page()
    at.slider(key="bleu_w4").set_value(0.0).run()
    hyps = list(DEMO_SYSTEMS["literal"])
    expected = corpus_bleu(hyps, DEMO_REFS, weights=[1 / 3, 1 / 3, 1 / 3, 0.0])
    assert metric(at, "BLEU ×100") == f"{expected.score_100:.2f}"
    at.slider(key="bleu_max_n").set_value(2).run()
    expected = sacrebleu.BLEU(max_ngram_order=2).corpus_score(hyps, DEMO_REFS)
    assert metric(at, "BLEU ×100") == f"{expected.score:.2f}"
    for n in (1, 2):
        at.slider(key=f"bleu_w{n}").set_value(0.0).run()
    assert not at.exception and not any(m.label == "BLEU ×100" for m in at.metric)
    assert any("All weights are 0" in e.value for e in at.main.error)  # where the score was


def test_segment_walkthrough_equals_sacrebleu_sentence_score() -> None:
    at = page()
    at.selectbox(key="co_sort").set_value("segment").run()
    assert segment_table(at)["segment"].tolist() == list(range(1, 9))
    at.number_input(key="co_segment").set_value(5).run()
    hyp = DEMO_SYSTEMS["literal"][4]
    expected = sacrebleu.sentence_bleu(hyp, [stream[4] for stream in DEMO_REFS])
    shown = next(m.value for m in at.markdown if m.value.startswith("**Segment 5:**"))
    assert f"sentence BLEU **{expected.score:.2f}**" in shown
    table = segment_table(at).set_index("segment")
    assert table.loc[5, "sentence BLEU"] == pytest.approx(expected.score, abs=1e-9)


def test_a_very_long_line_is_printed_cut_and_scored_whole() -> None:
    """A line past ``shown_chars`` is printed up to the limit with a note of how much is left out, the what-if
    editor is off for it (its length said), and the scores use the whole line."""
    from bleu_core.limits import LIMITS

    words = [f"w{i % 997}x{i % 13}" for i in range(6_000)]
    long_hyp, long_ref = " ".join(words), " ".join(words[::-1])
    assert len(long_hyp) > LIMITS.shown_chars
    hyps, refs = ["a short line here", long_hyp], ["a short line there", long_ref]
    at = upload(page(), ("h.txt", "\n".join(hyps).encode()), [("r.txt", "\n".join(refs).encode())])
    at.selectbox(key="co_sort").set_value("segment").run()
    at.number_input(key="co_segment").set_value(2).run()
    assert not at.exception
    texts = [e.value for e in at.text]
    shown = next(v for v in texts if v.startswith("hypothesis: "))
    assert shown.startswith("hypothesis: " + long_hyp[: LIMITS.shown_chars] + " … (")
    assert f"({len(long_hyp) - LIMITS.shown_chars:,} more characters not shown" in shown
    assert all(len(v) < LIMITS.shown_chars + 200 for v in texts)
    assert not any(a.key == "co_edit_1" for a in at.text_area)
    assert any(f"This hypothesis has {len(long_hyp):,} characters" in c.value for c in at.caption)
    assert metric(at, "BLEU ×100") == f"{sacrebleu.corpus_bleu(hyps, [refs]).score:.2f}"


def test_score_filter_keeps_matching_segments() -> None:
    at = page()
    at.slider(key="co_score_range").set_value((30.0, 100.0)).run()
    table = segment_table(at)
    assert len(table) > 0 and (table["sentence BLEU"] >= 30).all()
    assert len(table) < len(DEMO_SYSTEMS["literal"])


def test_paste_mode_and_line_count_mismatch_message() -> None:
    at = page()
    at.radio(key="co_mode").set_value("paste").run()
    at.text_area(key="co_paste_hyp").set_value("a cat sat on the mat\nhello world\n").run()
    at.text_area(key="co_paste_ref0").set_value("the cat sat on the mat\n").run()
    assert not at.exception
    errors = [plain(e.value) for e in at.error]
    assert any("1 line" in e and "2 lines" in e for e in errors), errors
    assert not at.metric


def test_invalid_bytes_name_the_file() -> None:
    at = page()
    at = upload(at, ("system.txt", "caf\xe9\n".encode("latin-1")), [("ref.txt", b"cafe\n")])
    assert not at.exception
    assert any("system.txt" in plain(e.value) and "line 1" in e.value for e in at.error)
    assert not any("Upload the hypothesis" in i.value for i in at.info)  # the file is there; its error says why


def test_linter_flags_tokenized_identical_and_cjk_input() -> None:
    at = page()
    at.radio(key="co_mode").set_value("paste").run()
    at.text_area(key="co_paste_hyp").set_value("the cat sat .\nit is n't here .").run()
    at.text_area(key="co_paste_ref0").set_value("the cat sat .\nit is n't here .").run()
    warnings = " ".join(plain(w.value) for w in at.warning)
    assert "looks already tokenized" in warnings and "identical to the reference" in warnings
    at.text_area(key="co_paste_hyp").set_value("我们今天去公园散步\n天气很好").run()
    at.text_area(key="co_paste_ref0").set_value("我们今天去公园\n今天天气很好").run()
    assert "Use the zh (Chinese) tokenizer" in " ".join(plain(w.value) for w in at.warning)


@pytest.fixture
def pair(pairs: list[Pair]) -> Pair:
    chosen = next((p for p in pairs if p.name == "de-en" and len(p.references) >= 2), None)
    if chosen is None:
        pytest.skip("the WMT22 de-en pair with two references is not in the data folder")
    return chosen


def test_wmt22_upload_matches_sacrebleu(pair: Pair) -> None:
    system = pair.systems[0]
    refs = pair.references[:2]
    at = upload(page(), (system.name, system.read_bytes()), [(r.name, r.read_bytes()) for r in refs])
    assert not at.exception
    hyps = system.read_text(encoding="utf-8").splitlines()
    streams = [r.read_text(encoding="utf-8").splitlines() for r in refs]
    expected = sacrebleu.corpus_bleu(hyps, streams)
    assert metric(at, "BLEU ×100") == f"{expected.score:.2f}"
    assert metric(at, "c / r") == f"{expected.sys_len / expected.ref_len:.3f}"
    lengths = f"c = {expected.sys_len:,} hypothesis tokens, r = {expected.ref_len:,} reference tokens"
    assert any(c.value.startswith(lengths) for c in at.caption)
    table = segment_table(at)
    assert len(table) == len(hyps) and sorted(table["segment"]) == list(range(1, len(hyps) + 1))
    sentence = [sacrebleu.sentence_bleu(hyps[i], [s[i] for s in streams]).score for i in range(0, len(hyps), 97)]
    shown = table.set_index("segment")["sentence BLEU"]
    assert [shown[i + 1] for i in range(0, len(hyps), 97)] == pytest.approx(sentence, abs=1e-9)
    term = costliest_term(expected)
    expected_line = {"p4": "- p4 is the smallest factor", "BP": "- The output is short"}.get(
        term, f"- {term} costs the most"
    )
    assert expected_line in diagnosis(at)

    # A slider move re-scores from the cached statistics (speed is measured by make bench, not asserted here).
    at.slider(key="bleu_w1").set_value(0.5).run()
    assert not at.exception

    # Dropping a line from one reference: an on-page error naming both counts, no exception.
    short = b"\n".join(refs[1].read_bytes().splitlines()[:-1]) + b"\n"
    at = upload(at, (system.name, system.read_bytes()), [(refs[0].name, refs[0].read_bytes()), (refs[1].name, short)])
    assert not at.exception
    message = " ".join(plain(e.value) for e in at.error)
    assert f"{len(hyps) - 1:,} lines" in message and f"{len(hyps):,} lines" in message
    assert not at.metric


def twins_table(at: AppTest) -> pd.DataFrame | None:
    return next((d.value for d in at.dataframe if "characters" in d.value.columns), None)


def test_words_written_with_other_characters_are_named_in_the_ngram_view() -> None:
    at = page()
    at.radio(key="co_view").set_value("ngrams").run()
    assert not at.exception
    assert twins_table(at) is None  # the demo corpus writes its words as its references do
    hyps = "We don't know - yet.\nThey don't care.\n"
    refs = "We don’t know – yet.\nThey don’t care.\n"
    upload(at, ("sys.txt", hyps.encode()), [("ref.txt", refs.encode())])
    at.radio(key="co_view").set_value("ngrams").run()
    assert not at.exception
    table = twins_table(at)
    assert table is not None
    rows = {(r.reference, r.hypothesis): r for r in table.itertuples()}
    assert rows[("don’t", "don't")].lost == 2
    assert rows[("don’t", "don't")].characters == "’ U+2019 → ' U+0027"
    assert rows[("–", "-")].kind == "dash, hyphen or minus"
    notice = next(w.value for w in at.warning if "other characters" in w.value)
    assert notice.startswith("2 words or marks") and "up to 3 unigram matches" in notice


def test_the_tokenizer_box_says_why_ja_mecab_is_not_offered() -> None:
    at = page()
    box = at.selectbox(key="bleu_tokenize")
    assert "ja-mecab" not in box.options and "`ja-mecab` needs the `MeCab` library" in str(box.help)
