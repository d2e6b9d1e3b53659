"""The verdict in chrF, chrF++, TER or all metrics side by side, and where the metrics disagree on the ranking."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

import pandas as pd
import streamlit as st

from bleu_core.compare.metrics import metric
from bleu_core.compare.ranking import rank_systems
from bleu_core.corpus.diagnosis import CorpusAnalysis
from bleu_core.i18n import text
from bleu_core.limits import LIMITS, LimitExceeded
from bleu_core.options import BleuOptions
from pages.compare_page import metric_views, verdict_views
from pages.compare_page import report as compare_report
from pages.compare_page.verdict import (
    TestSettings,
    compare_and_rank,
    correction_name,
    table_caption,
    test_controls,
    test_name,
)
from pages.shared import cached, charts, controls, views
from pages.shared.i18n import language, t

METRIC = "cmp_metric"
COLUMN_SCORE = metric_views.COLUMNS["score"]


def metric_choice() -> str:
    """The metric control: BLEU (the full verdict below), chrF, chrF++, TER or all side by side.  A shared link
    carries it (``?metric=ter``; BLEU, the default, is left out); an unknown value is ignored with a warning."""
    current = language()
    if METRIC not in st.session_state:
        wanted = st.query_params.get("metric", "bleu")
        st.session_state[METRIC] = wanted if wanted in metric_views.CHOICES else "bleu"
        if wanted not in metric_views.CHOICES:
            st.warning(t("metrics_verdict.link_ignored", value=views.md_escape(wanted)))

    def label(choice: str) -> str:
        return text(f"metrics_verdict.metric_{choice.replace('+', 'p')}", current)

    choice = str(
        st.radio(
            t("metrics_verdict.metric"),
            list(metric_views.CHOICES),
            format_func=label,
            key=METRIC,
            horizontal=True,
            help=t("metrics_verdict.metric_help"),
        )
    )
    if choice == "bleu":
        st.query_params.pop("metric", None)
    elif st.query_params.get("metric") != choice:
        st.query_params["metric"] = choice
    return choice


def metric_verdict(
    data: cached.Systems,
    settings: BleuOptions,
    name: str,
    chosen: TestSettings,
    from_chrf_pp: bool = False,
) -> metric_views.MetricVerdict:
    """One metric's comparison at the chosen samples; its ranks from enough samples for the correction (when the
    limits allow, else from the table's samples, with a warning).  ``from_chrf_pp``: chrF's statistics are cut
    from chrF++'s (both shown)."""
    comparison, ranked = compare_and_rank(data, settings, chosen, name, from_chrf_pp)
    ranks, corrected = rank_systems(ranked, chosen.alpha, chosen.correction)
    label = metric(name, settings).name
    return metric_views.MetricVerdict(label, comparison, ranks, corrected, ranked.n_samples)


def render_metrics(
    data: cached.Systems,
    settings: BleuOptions,
    analyses: Mapping[str, CorpusAnalysis],
    choice: str,
) -> None:
    """The chosen metrics' verdict (scores, Δ with its interval, corrected p-values, clusters) and disagreements."""
    chosen = test_controls(analyses)
    refused = cached.refusals_cached(data, LIMITS)
    if "chrf" in refused:  # past chrF's segments nothing beside BLEU is offered
        st.info(refused["chrf"].render(language()))
        return
    shown = metric_views.chosen_metrics(choice)
    left_out: list[str] = []  # said on the page and in the report
    if "ter" in shown and "ter" in refused:
        left_out.append(refused["ter"].render(language()))
        st.info(left_out[-1])
        shown = tuple(name for name in shown if name != "ter")
        if not shown:
            return
    try:
        both = "chrf++" in shown
        verdicts = [metric_verdict(data, settings, name, chosen, both) for name in shown]
        # the disagreements always include BLEU, the page's first metric
        others = [] if "bleu" in shown else [metric_verdict(data, settings, "bleu", chosen)]
    except LimitExceeded as refusal:  # refused before anything was drawn (bleu_core.limits)
        st.error(refusal.reason.render(language()))
        return
    st.markdown("\n".join(f"- {metric_views.summary_line(v, language())}" for v in verdicts))
    if "ter" in shown:
        st.caption(t("metrics_verdict.ter_note"))
    frame = metric_views.metric_frame(verdicts)
    shown_frame = metric_views.display_frame(frame, language())
    formats = {text(COLUMN_SCORE, language()): "%.2f"}
    st.dataframe(
        shown_frame,
        hide_index=True,
        column_config={column: st.column_config.NumberColumn(format=f) for column, f in formats.items()},
        # every row at once (systems x metrics, bounded by the limits), not ten rows in a scrolling box
        height="content",
    )
    # (its table has Δ's interval, not each system's mean ± half-width)
    ranking = max(v.ranking_samples or v.comparison.n_samples for v in verdicts)
    st.caption(table_caption("metrics_verdict.table_caption", chosen, ranking, "verdict.ci_note_delta"))
    split = [
        f"{v.name} {views.md_escape(system)}"
        for v in verdicts
        for system in v.comparison.split_verdicts(v.corrected, chosen.alpha)
    ]
    if split:
        st.caption(t("metrics_verdict.split", systems=t("verdict.list_separator").join(split)))
    for shown_verdict in verdicts:  # a row per metric: how far from the baseline, and the rank ranges
        left, right = st.columns(2)
        deltas = metric_views.delta_frame(shown_verdict, chosen.alpha)
        base = shown_verdict.comparison.baseline
        charts.show(left, verdict_views.delta_chart, deltas, base, language(), shown_verdict.name, width="stretch")
        charts.show(right, verdict_views.rank_chart, shown_verdict.ranks, language(), shown_verdict.name, True)
    sentences = show_disagreements([*others, *verdicts], chosen.alpha)
    signatures = {
        v.name: cached.metric_signature_cached(name, settings, len(data.references))
        for v, name in zip(verdicts, shown, strict=True)
    }
    downloads(verdicts, sentences, frame, chosen, signatures, left_out)


def downloads(
    verdicts: list[metric_views.MetricVerdict],
    disagreements: list[str],
    frame: pd.DataFrame,
    chosen: TestSettings,
    signatures: dict[str, str],
    left_out: list[str],
) -> None:
    """The HTML report (signatures, settings, the table, each metric's summary, the disagreements) and the table as
    CSV; ``disagreements``: the sentences the page shows; ``left_out``: why a chosen metric is not there."""
    report = compare_report.metrics_report(
        frame,
        [*(metric_views.summary_line(v, language(), escape=str) for v in verdicts), *left_out],
        disagreements,
        {v.name: v.ranks for v in verdicts},
        signatures=signatures,
        settings={
            t("verdict.test"): test_name(chosen.test),
            t("verdict.samples"): t(
                "verdict.report_samples",
                samples=chosen.n_samples,
                ranking=max(v.ranking_samples or v.comparison.n_samples for v in verdicts),
            ),
            t("verdict.seed"): str(chosen.seed),
            "α": str(chosen.alpha),
            t("verdict.correction"): correction_name(chosen.correction),
            t("verdict.baseline"): chosen.baseline,
        },
        created=datetime.now(UTC),
        language=language(),
    )
    left, right = st.columns(2)
    controls.download_button(left, t("verdict.download_html"), report, "bleu-compare-metrics.html", "text/html")
    controls.download_button(
        right,
        t("verdict.download_csv"),
        views.frame_csv(metric_views.csv_frame(frame)),
        "bleu-compare-metrics.csv",
        "text/csv",
    )


def show_disagreements(verdicts: list[metric_views.MetricVerdict], alpha: float) -> list[str]:
    """Where the metrics order two systems differently: a sentence for each pair that one metric at least calls
    significant, a count of the others, and every pair in a table.  Returns the sentences (raw names, for the
    report)."""
    st.subheader(t("metrics_verdict.disagreements"))
    found = metric_views.found_disagreements(verdicts, alpha)
    names = t("verdict.list_separator").join(v.name for v in verdicts)
    if not found:
        st.markdown(t("metrics_verdict.agree", metrics=names))
        return [t("metrics_verdict.agree", metrics=names)]
    significant = [d for d in found if d.first_significant or d.second_significant]
    minor = len(found) - len(significant)
    sentences = [metric_views.disagreement_sentence(d, language(), escape=str) for d in significant]
    if significant:
        st.markdown("\n".join(f"- {metric_views.disagreement_sentence(d, language())}" for d in significant))
        if minor:
            sentences.append(
                t(
                    "metrics_verdict.disagreements_minor_one" if minor == 1 else "metrics_verdict.disagreements_minor",
                    count=minor,
                )
            )
    else:
        sentences.append(t("metrics_verdict.disagreements_none_significant", count=minor))
    if len(sentences) > len(significant):
        st.markdown(sentences[-1])
    st.dataframe(metric_views.disagreement_frame(found, language()), hide_index=True)
    st.caption(t("metrics_verdict.disagreements_caption", alpha=alpha))
    return sentences
