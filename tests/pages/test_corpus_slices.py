"""AppTest: the Corpus page's scores by label.  Each label's BLEU and chrF2 on the page are recomputed here with the
real sacreBLEU on that label's lines alone; bad tags files show a message, not a traceback; both languages."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import sacrebleu
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.testing.v1 import AppTest

import pages.shared.i18n
from bleu_core.i18n import catalog
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS, DEMO_TAGS
from tests.i18n_check import rendered_labels, untranslated

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "corpus.py")
DEMO_REFS = [list(stream) for stream in DEMO_REFERENCES]
HYPS = list(DEMO_SYSTEMS["literal"])
TAGS = ["news", "news", "", "sport", "news", "sport", "", "doc <b>7</b>"]


def page(language: str = "en", monkeypatch: pytest.MonkeyPatch | None = None) -> AppTest:
    if monkeypatch is not None:  # widgets' format_func run outside the script: answer in the page's language
        real = pages.shared.i18n.language
        monkeypatch.setattr(pages.shared.i18n, "language", lambda: real() if get_script_run_ctx() else language)
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["lang"] = language
    return at.run()


def label_table(at: AppTest, column: str = "BLEU − corpus") -> pd.DataFrame | None:
    return next((d.value for d in at.dataframe if column in d.value.columns), None)


def upload_corpus(at: AppTest) -> AppTest:
    at.radio(key="co_mode").set_value("upload").run()
    at.file_uploader(key="co_hyp_file").set_value(("hyp.txt", "\n".join(HYPS).encode(), "text/plain"))
    refs = [(f"ref{k}.txt", "\n".join(stream).encode(), "text/plain") for k, stream in enumerate(DEMO_REFS)]
    at.file_uploader(key="co_ref_files").set_value(refs)
    return at.run()


def expected_rows(tags: list[str], no_label: str = "(no label)") -> dict[str, tuple[int, float, float]]:
    """Per label: segments, BLEU and chrF2 of its lines scored alone by sacreBLEU."""
    rows = {}
    for label in dict.fromkeys(tags):
        index = [i for i, tag in enumerate(tags) if tag == label]
        hyps = [HYPS[i] for i in index]
        refs = [[stream[i] for i in index] for stream in DEMO_REFS]
        name = label or no_label
        rows[name] = (len(index), sacrebleu.corpus_bleu(hyps, refs).score, sacrebleu.corpus_chrf(hyps, refs).score)
    return rows


def assert_table(table: pd.DataFrame, tags: list[str], no_label: str = "(no label)") -> None:
    expected = expected_rows(tags, no_label)
    corpus_bleu = sacrebleu.corpus_bleu(HYPS, DEMO_REFS).score
    corpus_chrf = sacrebleu.corpus_chrf(HYPS, DEMO_REFS).score
    assert table.iloc[:, 0].tolist() == list(expected)
    for row in table.itertuples(index=False):
        segments, bleu, chrf = expected[row[0]]
        assert row[1] == segments
        assert row[2] == pytest.approx(bleu, abs=1e-9)
        assert row[3] == pytest.approx(chrf, abs=1e-9)
        assert row[4] == pytest.approx(bleu - corpus_bleu, abs=1e-9)
        assert row[5] == pytest.approx(chrf - corpus_chrf, abs=1e-9)


def test_without_tags_nothing_is_scored_by_label() -> None:
    at = page()
    assert not at.exception
    assert label_table(at) is None
    assert at.toggle(key="co_tags_example").value is False


def test_example_labels_of_the_demo_give_each_labels_sacrebleu_score() -> None:
    at = page()
    at.toggle(key="co_tags_example").set_value(True).run()
    assert not at.exception
    table = label_table(at)
    assert table is not None
    tags = list(DEMO_TAGS)
    assert_table(table, tags)
    charts = [c for c in at.get("vega_lite_chart") if "BLEU per label" in str(c.proto.spec)]
    assert len(charts) == 1
    assert any("5 labels over 8 segments" in c.value for c in at.caption)


def test_an_uploaded_tags_file_scores_every_label_and_escapes_it() -> None:
    at = upload_corpus(page())
    at.file_uploader(key="co_tags_file").set_value(("tags.txt", "\n".join(TAGS).encode(), "text/plain")).run()
    assert not at.exception
    table = label_table(at)
    assert table is not None
    assert_table(table, TAGS)
    assert "doc <b>7</b>" in table.iloc[:, 0].tolist()  # shown as text by the dataframe
    assert not any("<b>" in m.value for m in at.markdown)


def test_with_ter_on_every_label_has_its_ter_as_sacrebleu_on_its_lines_alone() -> None:
    at = upload_corpus(page())
    at.toggle(key="co_ter").set_value(True).run()
    at.file_uploader(key="co_tags_file").set_value(("tags.txt", "\n".join(TAGS).encode(), "text/plain")).run()
    assert not at.exception
    table = label_table(at, "TER − corpus")
    assert table is not None
    assert_table(table[[c for c in table.columns if not c.startswith("TER")]], TAGS)  # BLEU and chrF as before
    corpus_ter = sacrebleu.corpus_ter(HYPS, DEMO_REFS).score
    for row in table.itertuples(index=False):
        index = [i for i, tag in enumerate(TAGS) if (tag or "(no label)") == row[0]]
        ter = sacrebleu.corpus_ter([HYPS[i] for i in index], [[stream[i] for i in index] for stream in DEMO_REFS])
        assert table.loc[table["label"] == row[0], "TER"].item() == pytest.approx(ter.score, abs=1e-9)
        assert table.loc[table["label"] == row[0], "TER − corpus"].item() == pytest.approx(ter.score - corpus_ter)
    assert any(f", {corpus_ter:.2f} TER)" in c.value for c in at.caption)  # the corpus's TER in the summary
    # off again: the TER columns go, the rest stays
    at.toggle(key="co_ter").set_value(False).run()
    assert label_table(at, "TER") is None and label_table(at) is not None


@pytest.mark.parametrize(
    ("content", "shown"),
    [
        (b"news\nsport\n", "The tags file has 2 lines but the corpus has 8 segments"),
        (b"", "The tags file is empty"),
        (b"\x00\x01binary\x00", "NUL"),
    ],
    ids=["wrong line count", "empty", "binary"],
)
def test_a_bad_tags_file_shows_why_and_no_table(content: bytes, shown: str) -> None:
    at = upload_corpus(page())
    at.file_uploader(key="co_tags_file").set_value(("tags.txt", content, "text/plain")).run()
    assert not at.exception
    assert label_table(at) is None
    assert any(shown in e.value for e in at.error), [e.value for e in at.error]
    assert at.metric[0].value == f"{sacrebleu.corpus_bleu(HYPS, DEMO_REFS).score:.2f}"  # the rest is still there


def test_chinese_scores_by_label_are_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("zh", monkeypatch)
    at.toggle(key="co_tags_example").set_value(True).run()
    assert not at.exception
    zh = catalog("zh")
    table = label_table(at, "BLEU − corpus")
    assert table is not None  # the frame's columns are ids; the page shows them under the catalog's names
    assert_table(table, list(DEMO_TAGS))
    texts = rendered_labels(at)
    assert zh["slices.intro"] in texts and zh["slices.try_example"] in [w.label for w in at.toggle]
    assert untranslated(texts, allowed=(*DEMO_TAGS, *DEMO_SYSTEMS)) == {}
    assert any("8 个句段共有 5 个标签" in c.value for c in at.caption)
    at.toggle(key="co_tags_example").set_value(False).run()
    at = upload_corpus(at)
    at.file_uploader(key="co_tags_file").set_value(("tags.txt", b"a\n", "text/plain")).run()
    assert any("标签文件有 1 行" in e.value for e in at.error)


def test_chinese_table_shows_the_empty_label_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    at = upload_corpus(page("zh", monkeypatch))
    at.file_uploader(key="co_tags_file").set_value(("tags.txt", "\n".join(TAGS).encode(), "text/plain")).run()
    table = label_table(at)
    assert table is not None
    assert_table(table, TAGS, no_label="（无标签）")


def test_with_tags_chrf_and_ter_are_counted_once_for_the_score_the_segments_and_the_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The corpus score, the segment column and the labels share one count of chrF's and of TER's statistics."""
    import pages.shared.cached as cached
    from bleu_core.stats import chrf, ter

    counted: list[str] = []
    for module, name in ((chrf, "chrf_statistics"), (ter, "ter_statistics")):
        real = getattr(module, name)
        counting = lambda *a, _real=real, _name=name: counted.append(_name) or _real(*a)  # noqa: E731
        for where in (module, cached):  # wherever the page may reach it from
            monkeypatch.setattr(where, name, counting)
    cached.chrf_stats_cached.clear()
    cached.ter_stats_cached.clear()
    at = upload_corpus(page())
    at.toggle(key="co_ter").set_value(True).run()
    at.file_uploader(key="co_tags_file").set_value(("tags.txt", "\n".join(TAGS).encode(), "text/plain")).run()
    assert not at.exception
    assert label_table(at, "TER − corpus") is not None
    assert sorted(counted) == ["chrf_statistics", "ter_statistics"]
