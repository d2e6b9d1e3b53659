"""Charts that fit a 1280x720 page and draw what their labels say, checked on the Vega-Lite spec (no browser).

tests/e2e/test_pages_fit_browser.py checks the drawn pages; these tests pin the spec properties behind them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bleu_core import make_options
from bleu_core.compare.ranking import compare_from_stats, rank_systems
from bleu_core.compare.significance import _system_statistics
from bleu_core.corpus.diagnosis import analyze_corpus, length_buckets
from bleu_core.gaps.waterfall import waterfall
from bleu_core.i18n import text
from bleu_core.stats.progress import ProgressReporter
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from bleu_core.teach.explain import explain
from bleu_core.tools import trace_implementations
from pages.compare_page import report as compare_report
from pages.compare_page import verdict_views
from pages.compare_page import views as compare_views
from pages.corpus_page import views as corpus_views
from pages.implementations_page import views as implementations_views
from pages.shared import views
from pages.shared.views import TITLE_CHARS, title_lines

LANGUAGES = ("en", "zh")
DEMO_REFS = [list(stream) for stream in DEMO_REFERENCES]


def nodes(spec: Any) -> Iterator[dict[str, Any]]:
    """Every mapping in a spec, depth first."""
    if isinstance(spec, dict):
        yield spec
        for value in spec.values():
            yield from nodes(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from nodes(value)


def width(line: str) -> int:
    return sum(2 if ord(c) >= 0x2E80 else 1 for c in line)


def title_of(spec: dict[str, Any]) -> list[str]:
    title = spec.get("title", [])
    if isinstance(title, dict):
        lines = title.get("text", [])
        subtitle = title.get("subtitle", [])
        lines = [lines] if isinstance(lines, str) else lines
        return [*lines, *([subtitle] if isinstance(subtitle, str) else subtitle)]
    return [title] if isinstance(title, str) else list(title)


def assert_title_fits(spec: dict[str, Any], limit: int = TITLE_CHARS) -> None:
    lines = title_of(spec)
    assert lines, "the chart has a title"
    for line in lines:
        assert width(line) <= limit or " " not in line, f"title line too wide for a half-width chart: {line!r}"


def mark(node: dict[str, Any]) -> str:
    return str(node["mark"]["type"] if isinstance(node["mark"], dict) else node["mark"])


def records(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of the chart's (first) inline dataset."""
    return next(iter(spec["datasets"].values()))


# --- the Explain walkthrough ------------------------------------------------------------------------------------


def test_contribution_axis_has_an_explicit_order_for_every_max_order() -> None:
    """sort=None let a chart updated in place read "1 2 3 BP 4" after a 3-order preset; the order is now named."""
    for max_order in (3, 4, 5):
        trace = explain("the cat sat on the mat today", ["the cat sat on a mat today"], max_order=max_order)
        spec = views.contribution_chart(trace).to_dict()
        expected = [str(n) for n in range(1, max_order + 1)] + ["BP"]
        sorts = [n["encoding"]["x"]["sort"] for n in nodes(spec) if "encoding" in n and "x" in n["encoding"]]
        assert sorts and all(s == expected for s in sorts)
        precision = views.precision_chart(trace).to_dict()
        sorts = [n["encoding"]["x"]["sort"] for n in nodes(precision) if "encoding" in n and "x" in n["encoding"]]
        assert sorts and all(s == expected[:-1] for s in sorts)


@pytest.mark.parametrize("language", LANGUAGES)
def test_zero_matches_draw_zero_and_the_smoothed_value_is_named(language: str) -> None:
    """Labels 0/5, 0/4 stood on bars of the smoothed height; the bars now show the counted fraction."""
    trace = explain("the cat sat on a red mat", ["a dog lay under the old mat"], smooth="exp")
    assert [o.matches for o in trace.orders][1:] == [0, 0, 0] and all(o.smoothed for o in trace.orders[1:])
    spec = views.precision_chart(trace, language).to_dict()
    rows = records(spec)
    bars = next(layer for layer in spec["layer"] if mark(layer) == "bar")
    field = bars["encoding"]["y"]["field"]
    for row in rows:
        matches, total = (int(x) for x in row["label"].split("/"))
        assert math.isclose(row[field], matches / total), row
    ticks = [layer for layer in spec["layer"] if mark(layer) == "tick"]
    assert len(ticks) == 1
    used = {row["n"]: row["smoothed value"] for row in rows if row["smoothed value"] is not None}
    assert used == {str(o.order): pytest.approx(o.precision) for o in trace.orders if o.smoothed}
    note = text("fit.smoothed_tick", language, method="exp")
    assert "".join(spec["title"]["subtitle"]).replace(" ", "") == note.replace(" ", "")
    assert_title_fits(spec)


def test_no_smoothing_no_tick() -> None:
    trace = explain("the cat sat on the mat", ["the cat sat on the mat"])
    spec = views.precision_chart(trace).to_dict()
    assert all(mark(layer) != "tick" for layer in spec["layer"])
    assert not spec["title"].get("subtitle")


# --- Compare ----------------------------------------------------------------------------------------------------


def demo_comparison(test: str) -> tuple[Any, ...]:
    options = make_options()
    stats = _system_statistics(
        {k: list(v) for k, v in DEMO_SYSTEMS.items()}, DEMO_REFS, options, ProgressReporter(None)
    )
    comparison = compare_from_stats(stats, options, test=test, n_samples=200)
    ranks, corrected = rank_systems(comparison)
    analyses = {n: analyze_corpus(s, options, 2) for n, s in stats.items()}
    frame = verdict_views.results_frame(analyses, comparison, ranks, 0.05, corrected)
    return comparison, ranks, analyses, frame, stats, options


@pytest.mark.parametrize("language", LANGUAGES)
def test_delta_legend_is_never_cut(language: str) -> None:
    comparison, _, _, frame, _, _ = demo_comparison("bs")
    spec = verdict_views.delta_chart(frame, comparison.baseline, language).to_dict()
    legends = [n["legend"] for n in nodes(spec) if isinstance(n.get("legend"), dict)]
    assert legends and all(legend["labelLimit"] == 0 and legend["columns"] <= 2 for legend in legends)
    assert_title_fits(spec)


@pytest.mark.parametrize("language", LANGUAGES)
def test_long_system_names_put_the_delta_legend_in_one_column_and_shorten_the_axis_title(language: str) -> None:
    """A 28-character name fills the y axis's 180 px: beside it, in half of a 1280 px page, a second legend column
    and the baseline's whole name under the axis ran past the chart's edge."""
    comparison, _, _, frame, _, _ = demo_comparison("bs")
    short = verdict_views.delta_chart(frame, comparison.baseline, language).to_dict()
    assert {n["legend"]["columns"] for n in nodes(short) if isinstance(n.get("legend"), dict)} == {2}
    long_names = {name: f"{name}-big-ensemble-checkpoint-avg" for name in frame["system"]}
    renamed = frame.assign(system=frame["system"].map(long_names))
    baseline = long_names[comparison.baseline]
    spec = verdict_views.delta_chart(renamed, baseline, language).to_dict()
    assert {n["legend"]["columns"] for n in nodes(spec) if isinstance(n.get("legend"), dict)} == {1}
    titles = {n["title"] for n in nodes(spec) if isinstance(n.get("title"), str) and n["title"].startswith("BLEU −")}
    assert titles == {f"BLEU − {baseline[: verdict_views.LONG_NAME]}…"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_approximate_randomization_promises_no_interval(language: str) -> None:
    """AR mode has p-values and no interval: no chart or report title names one, no chart draws a range."""
    comparison, ranks, _, frame, _, _ = demo_comparison("ar")
    promised = [text("verdict.chart_ci", language), text("verdict.chart_delta", language, metric="BLEU")]
    for spec in (
        verdict_views.delta_chart(frame, comparison.baseline, language).to_dict(),
        verdict_views.ci_chart(frame, comparison, language).to_dict(),
    ):
        title = "".join(title_of(spec))
        assert "95%" not in title and all(title != p.replace(" ", "") for p in promised)
        assert not [n for n in nodes(spec) if "x2" in n.get("encoding", {})], "no interval drawn"
    report = compare_report.build_report(
        frame,
        ranks,
        comparison,
        signature="nrefs:2",
        settings={},
        created=datetime.now(UTC),
        explanation="",
        language=language,
    )
    svgs = report[report.index("<figure>") :]
    assert "95%" not in svgs
    assert text("fit.report_chart_delta_no_interval", language, baseline=comparison.baseline) in report
    # bootstrap mode keeps its intervals and says so
    comparison, ranks, _, frame, _, _ = demo_comparison("bs")
    spec = verdict_views.ci_chart(frame, comparison, language).to_dict()
    assert "".join(title_of(spec)).replace(" ", "") == text("verdict.chart_ci", language).replace(" ", "")
    assert [n for n in nodes(spec) if "x2" in n.get("encoding", {})]


def ten_systems() -> tuple[dict[str, Any], dict[str, Any]]:
    options = make_options()
    base = {k: list(v) for k, v in DEMO_SYSTEMS.items()}
    systems = {}
    for k in range(10):
        source = list(base.values())[k % len(base)]
        # every system different: drop the last word of one more segment each time
        systems[f"system-number-{k:02d}"] = [
            " ".join(line.split()[:-1]) if i < k % 4 else line for i, line in enumerate(source)
        ]
    stats = _system_statistics(systems, DEMO_REFS, options, ProgressReporter(None))
    analyses = {n: analyze_corpus(s, options, 2) for n, s in stats.items()}
    buckets = {n: length_buckets(s, analyses[n].sentence, options) for n, s in stats.items()}
    return analyses, buckets


@pytest.mark.parametrize("language", LANGUAGES)
def test_ten_systems_get_sorted_dot_plots_not_thin_bars(language: str) -> None:
    analyses, buckets = ten_systems()
    for spec in (
        compare_views.precisions_chart(analyses, language).to_dict(),
        compare_views.buckets_chart(buckets, language).to_dict(),
    ):
        assert not [n for n in nodes(spec) if "xOffset" in n.get("encoding", {})], "no grouped bars"
        marks = [mark(n) for n in nodes(spec) if "mark" in n]
        assert "bar" not in marks and "circle" in marks
        y_sorts = [n["encoding"]["y"]["sort"] for n in nodes(spec) if "y" in n.get("encoding", {})]
        assert y_sorts and all(sorted(s) == sorted(analyses) for s in y_sorts)
        colors = [n["encoding"]["color"] for n in nodes(spec) if "color" in n.get("encoding", {})]
        assert colors and all(c["type"] == "ordinal" and c["field"] != "system" for c in colors)
        assert all(c["legend"]["columns"] <= 3 and c["legend"]["labelLimit"] == 0 for c in colors)
        assert_title_fits(spec)
    spec = compare_views.precisions_chart(analyses, language).to_dict()
    order = next(n["encoding"]["y"]["sort"] for n in nodes(spec) if "y" in n.get("encoding", {}))
    scores = [analyses[name].result.score for name in order]
    assert scores == sorted(scores, reverse=True)


def test_few_systems_keep_grouped_bars_with_a_full_legend_below() -> None:
    analyses, buckets = ten_systems()
    few = dict(list(analyses.items())[:3])
    spec = compare_views.precisions_chart(few).to_dict()
    assert mark(spec) == "bar" and spec["encoding"]["xOffset"]["field"] == "system"
    legend = spec["encoding"]["color"]["legend"]
    assert legend["orient"] == "bottom" and legend["labelLimit"] == 0
    spec = compare_views.buckets_chart(dict(list(buckets.items())[:3])).to_dict()
    assert spec["encoding"]["x"]["axis"]["labelOverlap"] is False


# --- Corpus and Implementations ---------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_corpus_titles_wrap_and_every_bucket_is_labelled(language: str) -> None:
    options = make_options()
    systems = {k: list(v) for k, v in DEMO_SYSTEMS.items()}
    stats = next(iter(_system_statistics(systems, DEMO_REFS, options, ProgressReporter(None)).values()))
    analysis = analyze_corpus(stats, options, 2)
    spec = corpus_views.terms_chart(analysis, language).to_dict()
    assert_title_fits(spec)
    assert len(title_of(spec)) >= 2  # the explanation in brackets on a line of its own
    spec = corpus_views.corpus_precision_chart(analysis.result, language).to_dict()
    assert_title_fits(spec)
    buckets = length_buckets(stats, analysis.sentence, options, edges=(2, 4, 6, 8, 10, 12, 14, 16))
    spec = corpus_views.bucket_chart(buckets, language).to_dict()
    assert spec["encoding"]["x"]["axis"]["labelOverlap"] is False
    assert spec["encoding"]["x"]["sort"] == [b.label for b in buckets]
    assert_title_fits(spec)


@pytest.mark.parametrize("language", LANGUAGES)
def test_implementations_titles_fit(language: str) -> None:
    traces = trace_implementations("the cat sat on the mat", ["the cat is on the mat"])
    assert_title_fits(implementations_views.precision_chart(traces[:2], language).to_dict())
    result = waterfall(traces[0].implementation.key, traces[-1].implementation.key, "the cat sat", ["the cat is"])
    assert_title_fits(implementations_views.waterfall_chart(result, language).to_dict())


@pytest.mark.parametrize(
    ("title", "lines"),
    [
        ("short", ["short"]),
        (
            "log BLEU = Σ w_n log p_n + log BP (red: costs the most)",
            ["log BLEU = Σ w_n log p_n + log BP", "(red: costs the most)"],
        ),
        ("对数 BLEU（红色：损失最大）", ["对数 BLEU（红色：损失最大）"]),
        ("From sacreBLEU to NLTK, one setting at a time", ["From sacreBLEU to NLTK,", "one setting at a time"]),
    ],
)
def test_title_lines(title: str, lines: list[str]) -> None:
    assert title_lines(title) == lines


def test_title_lines_keep_every_character_and_fit() -> None:
    for title in (
        "每个工具放进对数里的精确率（按实现分组，越高越好，这是一个很长很长很长的标题）",
        "From sacreBLEU 2.4 (13a) to NLTK sentence_bleu with smoothing method 1, one setting at a time",
    ):
        lines = title_lines(title)
        assert len(lines) >= 2 and all(width(line) <= TITLE_CHARS for line in lines)
        assert "".join(lines).replace(" ", "") == title.replace(" ", "")
        assert not any(line.startswith(("，", "）", "。")) for line in lines)


def test_verdict_and_rank_tables_are_narrow_enough() -> None:
    """At 1280 px the verdict table scrolled sideways past p2 and the rank table past "worst rank" (ten WMT22
    systems): the precisions live in the downloads and the precision chart, the clusters in the rank chart."""
    _, ranks, _, frame, _, _ = demo_comparison("bs")
    shown = verdict_views.display_frame(frame)
    assert not [c for c in shown.columns if c.startswith("p") and c[1:].isdigit()]
    assert {"p1", "p4"} <= set(frame.columns)  # still in the data behind CSV, JSON and LaTeX
    # the page's rank table: "1–3" holds both ranks (a 28-character name pushed "worst rank" out of view)
    assert list(verdict_views.shown_ranks(ranks).columns) == ["rank", "system", "BLEU"]
    assert all(
        row["rank"] == (str(r.best) if r.best == r.worst else f"{r.best}–{r.worst}")
        for row, r in zip(verdict_views.shown_ranks(ranks).to_dict("records"), ranks, strict=True)
    )
    assert list(verdict_views.ranks_frame(ranks).columns)[-2:] == ["best rank", "worst rank"]  # chart and report
    spec = verdict_views.rank_chart(ranks).to_dict()
    colors = [n["encoding"]["color"]["field"] for n in nodes(spec) if "color" in n.get("encoding", {})]
    assert colors == ["cluster"]
