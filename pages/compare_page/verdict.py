"""The compare page's verdict section: controls, summary, results table, rank ranges, charts, downloads."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import streamlit as st

from bleu_core.compare.ranking import CORRECTIONS, Comparison, SystemRank, rank_systems, ranking_samples
from bleu_core.compare.significance import DEFAULT_SEED
from bleu_core.corpus.diagnosis import CorpusAnalysis
from bleu_core.i18n import text
from bleu_core.limits import LimitExceeded
from bleu_core.options import BleuOptions
from pages.compare_page import report as compare_report
from pages.compare_page import verdict_views
from pages.compare_page import views as compare_views
from pages.shared import cached, charts, controls, views
from pages.shared.i18n import language, noun, t

TESTS = ("bs", "ar")
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
BASELINE = "cmp_baseline"
#: Set once the user picks a baseline: until then it follows the best system under the current settings.
BASELINE_CHOSEN = "cmp_baseline_chosen"


def option_labels(prefix: str) -> Callable[[object], str]:
    """A widget's ``format_func``: option ``x`` shown as the message ``prefix + x`` in this run's language.

    The language is fixed when the widget is drawn (AppTest calls ``format_func`` outside the script run).
    """
    current = language()
    return lambda option: text(f"{prefix}{option}", current)


def test_name(test: str) -> str:
    """ "paired bootstrap resampling" / "approximate randomization" in the interface language."""
    return t(f"significance.test_{test}")


def correction_name(correction: str) -> str:
    return t(f"significance.correction_{correction}")


@dataclass(frozen=True)
class TestSettings:
    baseline: str
    test: str
    n_samples: int
    seed: int
    alpha: float
    correction: str


def best_system(analyses: Mapping[str, CorpusAnalysis]) -> str:
    return max(analyses, key=lambda name: analyses[name].result.score)


def _baseline_chosen() -> None:
    st.session_state[BASELINE_CHOSEN] = True


def test_controls(analyses: Mapping[str, CorpusAnalysis]) -> TestSettings:
    """The baseline (the best BLEU under the current settings until the user picks one; kept while it is one of
    the systems) and the tests."""
    ss = st.session_state
    names = list(analyses)
    if ss.get(BASELINE) not in names:
        ss[BASELINE_CHOSEN] = False
    if not ss.get(BASELINE_CHOSEN):
        ss[BASELINE] = best_system(analyses)
    cols = st.columns([2, 2, 1, 1, 1, 1])
    baseline = cols[0].selectbox(
        t("verdict.baseline"), names, key=BASELINE, help=t("verdict.baseline_help"), on_change=_baseline_chosen
    )
    test = cols[1].radio(
        t("verdict.test"), TESTS, format_func=option_labels("significance.test_"), key="cmp_test", horizontal=True
    )
    n_samples = int(
        cols[2].number_input(
            t("verdict.samples") if test == "bs" else t("verdict.trials"),
            1,
            100_000,
            value=DEFAULT_SAMPLES[test],
            step=100,
            key=f"cmp_samples_{test}",
        )
    )
    seed = int(cols[3].number_input(t("verdict.seed"), 0, 2**31 - 1, value=DEFAULT_SEED, key="cmp_seed"))
    alpha = float(cols[4].selectbox("α", [0.05, 0.01, 0.001], key="cmp_alpha"))
    correction = str(
        cols[5].selectbox(
            t("verdict.correction"),
            list(CORRECTIONS),
            format_func=option_labels("significance.correction_"),
            key="cmp_correction",
        )
    )
    return TestSettings(str(baseline), str(test), n_samples, seed, alpha, correction)


def summary(frame: Any, comparison: Comparison, ranks: tuple[SystemRank, ...], chosen: TestSettings) -> str:
    """One paragraph in plain words: the baseline, how many systems beat it or trail it after the correction (as
    the ranks have it) and taken alone (as sacreBLEU marks them), the top cluster."""
    counts = frame["verdict"].value_counts()
    better, worse = int(counts.get(verdict_views.BETTER, 0)), int(counts.get(verdict_views.WORSE, 0))
    same = int(counts.get(verdict_views.SAME, 0)) + int(counts.get(verdict_views.UNCORRECTED, 0))
    # sacreBLEU's marks from the exact p-values and differences (the frame's are rounded for display: a p-value of
    # 1/1001 shows as 0.0010, and is below α = 0.001)
    raw = [
        verdict_views.verdict(d.p_value, d.delta, chosen.alpha) for d in comparison.differences if d.p_value is not None
    ]
    top = [views.md_escape(r.system) for r in ranks if r.cluster == 1]
    clusters = max(r.cluster for r in ranks)
    pairs = len(ranks) * (len(ranks) - 1) // 2
    base_score = float(frame.loc[frame["system"] == chosen.baseline, "BLEU"].iloc[0])
    return t(
        "verdict.summary" if chosen.correction != "none" else "verdict.summary_uncorrected",
        baseline=views.md_escape(chosen.baseline),
        score=f"{base_score:.2f}",
        better=better,
        worse=worse,
        same=same,
        raw_better=raw.count(verdict_views.BETTER),
        raw_worse=raw.count(verdict_views.WORSE),
        alpha=chosen.alpha,
        test=test_name(chosen.test),
        pairs=f"{pairs:,}",
        pair_noun=noun("verdict.pair", pairs),
        correction=correction_name(chosen.correction),
        clusters=clusters,
        cluster_noun=noun("verdict.cluster", clusters),
        top=t("verdict.list_separator").join(top),
    )


def show_table(frame: Any, signature: str, chosen: TestSettings, ranking: int) -> None:
    st.dataframe(
        verdict_views.headers(verdict_views.display_frame(frame, language()), language()),
        hide_index=True,
        column_config={
            "BLEU": st.column_config.NumberColumn(format="%.2f"),
            "c/r": st.column_config.NumberColumn(format="%.3f"),  # 1.000, not 1
            **{f"p{n}": st.column_config.NumberColumn(format="%.1f") for n in range(1, 5)},
        },
    )
    st.caption(table_caption("verdict.table_caption", chosen, ranking))
    st.code(signature, language=None)


def show_downloads(frame: Any, report: str, signature: str, chosen: TestSettings) -> None:
    cols = st.columns(4)
    controls.download_button(cols[0], t("verdict.download_html"), report, "bleu-compare.html", "text/html")
    controls.download_button(cols[1], t("verdict.download_csv"), views.frame_csv(frame), "bleu-compare.csv", "text/csv")
    controls.download_button(
        cols[2],
        t("verdict.download_json"),
        compare_views.results_json(frame, signature, chosen.test, chosen.n_samples, chosen.seed),
        "bleu-compare.json",
        "application/json",
    )
    controls.download_button(
        cols[3],
        t("verdict.download_latex"),
        compare_views.results_latex(frame, signature),
        "bleu-compare.tex",
        "text/x-tex",
    )


def show_ranks(comparison: Comparison, ranks: tuple[SystemRank, ...], corrected: Any, chosen: TestSettings) -> None:
    st.subheader(t("verdict.ranking"), help=t("significance.rank_help"))
    left, right = st.columns(2)
    left.dataframe(verdict_views.headers(verdict_views.shown_ranks(ranks), language()), hide_index=True)
    left.caption(t("significance.rank_help"))
    charts.show(right, verdict_views.rank_chart, ranks, language(), width="stretch")
    if len(ranks) > 2:
        charts.show(
            st, verdict_views.heatmap, comparison.p_values, corrected, ranks, chosen.alpha, language(), width="content"
        )
        pairs = len(ranks) * (len(ranks) - 1) // 2
        significant = sum(1 for (a, b), p in corrected.items() if a < b and p < chosen.alpha)
        more = (
            ""
            if comparison.n_samples == chosen.n_samples
            else t(
                "verdict.more_samples",
                drawn=comparison.n_samples,
                chosen=chosen.n_samples,
                pairs=pairs,
                threshold=f"{chosen.alpha / pairs:.2g}",
            )
        )
        st.caption(
            t(
                "verdict.pairs_caption",
                significant=significant,
                pairs=pairs,
                correction=correction_name(chosen.correction),
                alpha=chosen.alpha,
                expected=f"{pairs * chosen.alpha:.2g}",  # 45 pairs at 0.001: "0.045", not "0.0"
            )
            + more
        )


def table_caption(message: str, chosen: TestSettings, ranking: int, interval: str = "verdict.ci_note_bs") -> str:
    """The caption under a verdict's table (``message``: its catalog key): the baseline, every test setting and the
    samples the corrected p-values rest on (``ranking``); ``interval``: the note on the table's intervals under the
    bootstrap."""
    return t(
        message,
        ranking=ranking,
        more=t("verdict.ranking_more") if ranking > chosen.n_samples else "",
        baseline=views.md_escape(chosen.baseline),
        test=test_name(chosen.test),
        samples=chosen.n_samples,
        seed=chosen.seed,
        flag=f"--paired-{chosen.test}",
        alpha=chosen.alpha,
        correction=correction_name(chosen.correction),
        ci_note=t(interval) if chosen.test == "bs" else t("verdict.ci_note_ar"),
    )


def compare_and_rank(
    data: cached.Systems,
    settings: BleuOptions,
    chosen: TestSettings,
    name: str = "bleu",
    from_chrf_pp: bool = False,
) -> tuple[Comparison, Comparison]:
    """One metric's comparison at the chosen samples and the one its ranks rest on: from more samples when the
    correction needs them (one draw: the table's are its first), else the same (``name``: BLEU by default; chrF's
    statistics cut from chrF++'s when ``from_chrf_pp``), under a progress bar.  When the limits refuse the
    ranking's samples it rests on the table's, with a warning; a refusal of the table's own raises."""
    needed = ranking_samples(len(data.outputs), chosen.n_samples, chosen.alpha, chosen.correction)
    samples = (needed, chosen.n_samples) if needed != chosen.n_samples else (needed,)
    bar = st.progress(0.0, t("verdict.progress", test=test_name(chosen.test), samples=needed))
    run = partial(cached.metric_comparison_cached, data, settings, name, chosen.baseline, chosen.test)
    progress = lambda done: bar.progress(min(max(float(done), 0.0), 1.0))  # noqa: E731
    try:
        ranked, *table = run(samples, chosen.seed, progress, from_chrf_pp)
        return (table[0] if table else ranked), ranked
    except LimitExceeded as refusal:
        if len(samples) == 1:
            raise
        (comparison,) = run((chosen.n_samples,), chosen.seed, progress, from_chrf_pp)
        note = t("limits.ranking_on_fewer", samples=chosen.n_samples, needed=needed, alpha=chosen.alpha)
        st.warning(refusal.reason.render(language()) + " " + note)
        return comparison, comparison
    finally:
        bar.empty()


def render_verdict(data: cached.Systems, settings: BleuOptions, analyses: Mapping[str, CorpusAnalysis]) -> None:
    """Everything above the detail views: controls, summary, table, explanation, charts, ranking, report."""
    chosen = test_controls(analyses)
    try:
        comparison, ranked = compare_and_rank(data, settings, chosen)
    except LimitExceeded as refusal:  # refused before anything was drawn (bleu_core.limits)
        st.error(refusal.reason.render(language()))
        return
    ranks, corrected = rank_systems(ranked, chosen.alpha, chosen.correction)
    frame = verdict_views.results_frame(analyses, comparison, ranks, chosen.alpha, corrected)
    signature = analyses[chosen.baseline].result.signature
    st.markdown(summary(frame, comparison, ranks, chosen))
    show_table(
        frame, signature, chosen, ranked.n_samples
    )  # the page's width: beside an explanation its columns were cut off
    with st.expander(t("verdict.meaning")):
        st.markdown(t("significance.explanation"))
    left, right = st.columns(2)
    charts.show(left, verdict_views.delta_chart, frame, chosen.baseline, language(), width="stretch")
    charts.show(right, verdict_views.ci_chart, frame, comparison, language(), width="stretch")
    show_ranks(ranked, ranks, corrected, chosen)
    report = compare_report.build_report(
        frame,
        ranks,
        comparison,
        signature=signature,
        settings={
            t("verdict.test"): test_name(chosen.test),
            t("verdict.samples"): t("verdict.report_samples", samples=chosen.n_samples, ranking=ranked.n_samples),
            t("verdict.seed"): str(chosen.seed),
            "α": str(chosen.alpha),
            t("verdict.correction"): correction_name(chosen.correction),
            t("verdict.baseline"): chosen.baseline,
        },
        created=datetime.now(UTC),
        explanation=t("significance.explanation") + "\n" + t("significance.rank_help"),
        language=language(),
    )
    show_downloads(frame, report, signature, chosen)
