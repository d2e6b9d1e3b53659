"""AppTest: Compare's "By label" view.  Every number of its table is recomputed here on its own route: each label's
BLEU, chrF2 and TER by sacreBLEU on that label's lines alone, each p-value by sacreBLEU's PairedTest on those lines, and
Holm's correction over labels x systems written out by hand.  Bad tags files show a message; labels are text."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.testing.v1 import AppTest

import pages.shared.i18n
from bleu_core.i18n import catalog
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS, DEMO_TAGS
from pages.shared.views import md_escape
from tests.i18n_check import rendered_labels, untranslated

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "compare.py")
REFS = [list(stream) for stream in DEMO_REFERENCES]
SYSTEMS = {name: list(lines) for name, lines in DEMO_SYSTEMS.items()}
HOSTILE = ["<b>x</b>", "<b>x</b>", "**x**", "**x**", "**x**", "plain", "plain", "plain"]


def page(language: str = "en", monkeypatch: pytest.MonkeyPatch | None = None) -> AppTest:
    if monkeypatch is not None:  # widgets' format_func run outside the script: answer in the page's language
        real = pages.shared.i18n.language
        monkeypatch.setattr(pages.shared.i18n, "language", lambda: real() if get_script_run_ctx() else language)
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.query_params["lang"] = language
    at.run()
    return at.segmented_control(key="cmp_details").set_value("labels").run()


def label_table(at: AppTest) -> pd.DataFrame | None:
    return next((d.value for d in at.dataframe if "corrected" in d.value.columns), None)


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment: the i-th smallest p times (m - i), made non-decreasing, capped at 1."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def expected_rows(
    tags: list[str], baseline: str, test: str, samples: int, lang: str = "en", correction: str = "holm"
) -> list[dict[str, object]]:
    """The table as sacreBLEU computes it on each label's lines, the baseline first; the correction by hand."""
    names = [baseline, *(n for n in SYSTEMS if n != baseline)]
    rows: list[dict[str, object]] = []
    for label in dict.fromkeys(tags):
        index = [i for i, tag in enumerate(tags) if tag == label]
        refs = [[stream[i] for i in index] for stream in REFS]
        hyps = {name: [SYSTEMS[name][i] for i in index] for name in names}
        paired = PairedTest(list(hyps.items()), {"BLEU": BLEU(references=refs)}, None, test, samples)
        _, results = paired()
        p_values = dict(zip(results["System"], (r.p_value for r in results["BLEU"]), strict=True))
        base = BLEU().corpus_score(hyps[baseline], refs).score
        for name in names:
            bleu = BLEU().corpus_score(hyps[name], refs).score
            rows.append(
                {
                    "label": label,
                    "system": name,
                    "segments": len(index),
                    "BLEU": bleu,
                    "chrF2": CHRF().corpus_score(hyps[name], refs).score,
                    "Δ BLEU": None if name == baseline else bleu - base,
                    "p-value": None if name == baseline else p_values[name],
                    "mark": catalog(lang)["slices.compare.baseline"],
                }
            )
    tested = [r for r in rows if r["p-value"] is not None]
    raw = [float(r["p-value"]) for r in tested]  # type: ignore[arg-type]
    adjusted = {"holm": holm(raw), "bonferroni": [min(1.0, len(raw) * p) for p in raw], "none": raw}[correction]
    for row, corrected in zip(tested, adjusted, strict=True):
        row["corrected"] = corrected
        delta = float(row["Δ BLEU"])  # type: ignore[arg-type]
        row["mark"] = "≈" if corrected >= 0.05 or delta == 0 else ("▲" if delta > 0 else "▼")
    return rows


def assert_table(table: pd.DataFrame, expected: list[dict[str, object]]) -> None:
    assert len(table) == len(expected)
    for shown, row in zip(table.to_dict("records"), expected, strict=True):
        assert (shown["label"], shown["system"], shown["segments"]) == (row["label"], row["system"], row["segments"])
        for column in ("BLEU", "chrF2", "Δ BLEU", "p-value", "corrected"):
            if row.get(column) is None:
                assert pd.isna(shown[column]), (column, shown)
            else:
                assert shown[column] == pytest.approx(row[column], abs=1e-9), (column, shown, row)
        assert shown["mark"] == row["mark"]


def heatmaps(at: AppTest) -> list[str]:
    """The heatmap's spec as text (non-ASCII unescaped)."""
    specs = [json.dumps(json.loads(c.proto.spec), ensure_ascii=False) for c in at.get("vega_lite_chart")]
    return [spec for spec in specs if '"cell"' in spec]


def test_without_tags_only_the_upload_and_the_toggle_are_there() -> None:
    at = page()
    assert not at.exception
    assert label_table(at) is None
    assert at.toggle(key="cmp_tags_example").value is False
    assert at.file_uploader(key="cmp_tags_file") is not None


def test_example_labels_match_sacrebleu_per_label_with_holm_over_labels_and_systems() -> None:
    at = page()
    at.toggle(key="cmp_tags_example").set_value(True).run()
    assert not at.exception
    table = label_table(at)
    assert table is not None
    assert_table(table, expected_rows(list(DEMO_TAGS), "careful", "bs", 1000))
    shown = next(d for d in at.dataframe if "corrected" in d.value.columns)
    assert shown.proto.placeholder == "—"  # the baseline's empty cells read "—", not "None"
    assert len(heatmaps(at)) == 1
    assert any("The chart draws 5 of 5 labels" in c.value for c in at.caption)
    assert any("all 10 tests (labels × systems)" in c.value for c in at.caption)


@pytest.mark.parametrize("choice", ["ter", "all"])
def test_with_ter_in_the_metric_choice_every_label_has_each_systems_ter(choice: str) -> None:
    """TER joins the table when the metric choice shows it (its statistics are counted then), each label's TER
    sacreBLEU's on that label's lines alone; with BLEU alone the column is not there."""
    at = page()
    at.toggle(key="cmp_tags_example").set_value(True).run()
    table = label_table(at)
    assert table is not None and "TER" not in table.columns
    at.radio(key="cmp_metric").set_value(choice).run()
    assert not at.exception
    table = label_table(at)
    assert table is not None
    assert_table(table, expected_rows(list(DEMO_TAGS), "careful", "bs", 1000))  # the rest unchanged
    tags = list(DEMO_TAGS)
    for row in table.to_dict("records"):
        index = [i for i, tag in enumerate(tags) if tag == row["label"]]
        hyps = [SYSTEMS[row["system"]][i] for i in index]
        expected = TER().corpus_score(hyps, [[stream[i] for i in index] for stream in REFS]).score
        assert row["TER"] == pytest.approx(expected, abs=1e-9), row


def test_the_verdicts_baseline_and_test_are_followed() -> None:
    at = page()
    at.selectbox(key="cmp_baseline").set_value("literal").run()
    at.radio(key="cmp_test").set_value("ar").run()
    at.number_input(key="cmp_samples_ar").set_value(2000).run()
    at.toggle(key="cmp_tags_example").set_value(True).run()
    assert not at.exception
    table = label_table(at)
    assert table is not None
    assert_table(table, expected_rows(list(DEMO_TAGS), "literal", "ar", 2000))


@pytest.mark.parametrize("correction", ["bonferroni", "none"])
def test_the_verdicts_correction_is_followed(correction: str) -> None:
    at = page()
    at.selectbox(key="cmp_correction").set_value(correction).run()
    at.toggle(key="cmp_tags_example").set_value(True).run()
    assert not at.exception
    table = label_table(at)
    assert table is not None
    assert_table(table, expected_rows(list(DEMO_TAGS), "careful", "bs", 1000, correction=correction))
    name = {"bonferroni": "Bonferroni", "none": "none (raw p-values)"}[correction]
    assert any(f"corrected: {name} over all 10 tests" in c.value for c in at.caption)


def test_hostile_labels_are_text_and_the_file_is_kept() -> None:
    at = page()
    at.file_uploader(key="cmp_tags_file").set_value(("tags.txt", "\n".join(HOSTILE).encode(), "text/plain")).run()
    assert not at.exception
    table = label_table(at)
    assert table is not None
    assert_table(table, expected_rows(HOSTILE, "careful", "bs", 1000))
    assert {"<b>x</b>", "**x**"} <= set(table["label"])
    assert not any("<b>" in m.value or "**x**" in m.value for m in at.markdown)
    spec = heatmaps(at)[0]
    assert "<b>x</b>" in spec and "**x**" in spec  # data for Vega, which draws text
    # Another detail view and back: the uploader is drawn empty, the kept file still labels the corpus.
    at.segmented_control(key="cmp_details").set_value("segments").run()
    at.segmented_control(key="cmp_details").set_value("labels").run()
    assert any(md_escape("tags.txt") in c.value for c in at.caption)
    assert label_table(at) is not None
    at.button(key="cmp_tags_forget").click().run()
    assert label_table(at) is None


@pytest.mark.parametrize(
    ("content", "shown"),
    [
        (b"a\nb\n", "The tags file has 2 lines but the corpus has 8 segments"),
        (b"\x00\x01binary\x00", "NUL"),
    ],
    ids=["wrong line count", "binary"],
)
def test_a_bad_tags_file_shows_why_and_no_table(content: bytes, shown: str) -> None:
    at = page()
    at.file_uploader(key="cmp_tags_file").set_value(("tags.txt", content, "text/plain")).run()
    assert not at.exception
    assert label_table(at) is None
    assert any(shown in e.value for e in at.error), [e.value for e in at.error]


def test_tests_past_the_limit_are_refused_with_a_message_and_the_scores_stay() -> None:
    at = page()
    at.radio(key="cmp_test").set_value("ar").run()
    at.number_input(key="cmp_samples_ar").set_value(100_000).run()
    eight = [f"doc {i}" for i in range(8)]  # 8 labels x 100,000 trials x 3 x 2 = 4.8 million > 3 million
    at.file_uploader(key="cmp_tags_file").set_value(("tags.txt", "\n".join(eight).encode(), "text/plain")).run()
    assert not at.exception
    assert any("Not computed: paired tests on 8 labels" in e.value for e in at.error), [e.value for e in at.error]
    table = label_table(at)
    assert table is not None and table["p-value"].isna().all()
    assert table["BLEU"].notna().all()


def test_chinese_view_is_translated_and_equal(monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("zh", monkeypatch)
    at.toggle(key="cmp_tags_example").set_value(True).run()
    assert not at.exception
    zh = catalog("zh")
    table = label_table(at)
    assert table is not None  # the frame's columns are ids; the page shows them under the catalog's names
    assert_table(table, expected_rows(list(DEMO_TAGS), "careful", "bs", 1000, "zh"))
    texts = rendered_labels(at)
    assert zh["slices.compare.intro"] in texts
    assert zh["slices.try_example"] in [w.label for w in at.toggle]
    assert zh["slices.compare.details"] in at.segmented_control(key="cmp_details").options
    assert untranslated(texts, allowed=(*DEMO_TAGS, *DEMO_SYSTEMS)) == {}
    assert any("8 个句段共有 5 个标签" in c.value for c in at.caption)
    assert "各标签上相对 careful 的 Δ BLEU" in heatmaps(at)[0]
    assert any("蓝色表示该系统在这个标签上胜过基线" in c.value for c in at.caption)
    at.toggle(key="cmp_tags_example").set_value(False).run()
    at.file_uploader(key="cmp_tags_file").set_value(("tags.txt", b"a\n", "text/plain")).run()
    assert any("标签文件有 1 行" in e.value for e in at.error)


def test_too_few_samples_for_the_correction_are_said() -> None:
    at = page()
    at.number_input(key="cmp_samples_bs").set_value(100).run()
    eight = [f"doc {i}" for i in range(8)]  # 8 labels x 2 systems = 16 tests: Holm needs N + 1 > 16 / 0.05
    at.file_uploader(key="cmp_tags_file").set_value(("tags.txt", "\n".join(eight).encode(), "text/plain")).run()
    assert not at.exception
    assert any("With 100 samples" in i.value and "at least 321" in i.value for i in at.info), [i.value for i in at.info]
    table = label_table(at)
    assert table is not None
    assert (table["corrected"].dropna() >= 16 / 101 - 1e-12).all()  # no corrected p-value can pass
    at.number_input(key="cmp_samples_bs").set_value(321).run()
    assert not any("With 321 samples" in i.value for i in at.info)
