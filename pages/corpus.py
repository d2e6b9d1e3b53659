"""Corpus: one system's output against its references — why is the score what it is?"""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_core.corpus.diagnosis import CorpusAnalysis, length_buckets
from bleu_core.limits import LIMITS, chrf_refused
from bleu_core.stats.ter import too_long_for_ter
from pages.corpus_page import analysis as corpus_analysis
from pages.corpus_page import inputs as corpus_inputs
from pages.corpus_page import segments as corpus_segments
from pages.corpus_page import slices as corpus_slices
from pages.corpus_page import views as corpus_views
from pages.shared import cached, charts, controls, share, views
from pages.shared import state as S
from pages.shared.i18n import finding_message, language, number_columns, t
from pages.shared.streamlit_private import ensure_app_navigation

LEVELS = {"error": st.error, "warning": st.warning, "info": st.info}
VIEWS = ("segments", "ngrams", "words", "lengths")


def show_findings(names: tuple[str, ...], hyps: list[str], refs: list[list[str]], tokenize: str) -> bool:
    """The input linter's findings; True when the corpus can be scored."""
    findings = cached.lint_cached(cached.corpus_key(hyps, refs), names, hyps, refs, tokenize)
    notes = [f for f in findings if f.level == "info"]
    for finding in findings:
        if finding.level != "info":
            LEVELS[finding.level](views.md_escape(finding_message(finding)))
    if notes:
        with st.expander(t("corpus.notes", count=len(notes))):
            for finding in notes:
                st.info(views.md_escape(finding_message(finding)))
    return not any(f.level == "error" for f in findings)


def ter_scores(corpus: cached.Corpus) -> tuple[float | None, Any]:
    """TER of the corpus and its segments when the user asks for it (a search per segment: slower than the rest)
    and the limits policy allows it; else nothing, with the reason."""
    if not st.toggle(t("corpus.ter_toggle"), key=corpus_inputs.kept_widget("co_ter", False), help=t("corpus.ter_help")):
        S.keep(st.session_state, "co_ter")
        return None, None
    S.keep(st.session_state, "co_ter")
    if (reason := too_long_for_ter(corpus.hypotheses, corpus.references)) is not None:
        st.info(reason.render(language()), icon=":material/info:")
        return None, None
    with st.spinner(t("corpus.ter_counting")):
        return cached.ter_cached(corpus)


def show_score(analysis: CorpusAnalysis, chrf: float | None, ter: float | None) -> None:
    result = analysis.result
    cols = st.columns(5)
    cols[0].metric(t("corpus.metric_bleu"), f"{result.score_100:.2f}", help=t("corpus.metric_bleu_help"))
    if chrf is None:
        cols[1].metric("chrF2", "—", help=t("corpus.chrf_left_out", segments=f"{LIMITS.chrf_segments:,}"))
    else:
        cols[1].metric("chrF2", f"{chrf:.2f}", help=t("corpus.metric_chrf_help"))
    if ter is None:
        cols[2].metric("TER", "—", help=t("corpus.ter_not_asked"))
    else:
        cols[2].metric("TER", f"{ter:.2f}", help=t("corpus.metric_ter_help"))
    cols[3].metric(t("corpus.metric_bp"), f"{result.bp:.4f}")
    # the ratio in the card, the counts below it: "40,310 / 40,899" was cut off in a fifth of a 1280-pixel page
    lengths = {"c": f"{result.sys_len:,}", "r": f"{result.ref_len:,}", "ratio": f"{result.ratio:.3f}"}
    cols[4].metric(t("corpus.metric_lengths"), lengths["ratio"], help=t("corpus.metric_lengths_help", **lengths))
    st.caption(t("corpus.ratio_line", **lengths))
    st.code(f"{result.signature}\n{result.format()}", language=None)
    left, right = st.columns(2)
    charts.show(left, corpus_views.corpus_precision_chart, result, language())
    charts.show(right, corpus_views.terms_chart, analysis, language())
    st.latex(corpus_views.bp_latex(result.sys_len, result.ref_len, result.bp))
    st.dataframe(
        corpus_views.terms_frame(analysis),
        hide_index=True,
        column_config={
            "term": st.column_config.TextColumn(t("corpus.col_term")),
            **number_columns({"weight": "corpus.col_weight", "value": "corpus.col_value"}, "%.4f"),
            "BLEU if perfect": st.column_config.NumberColumn(
                t("corpus.col_bleu_if_perfect"), format="%.2f", help=t("corpus.col_bleu_if_perfect_help")
            ),
            "points lost": st.column_config.NumberColumn(t("corpus.col_points_lost"), format="%.2f"),
        },
    )
    if analysis.short_segments:
        top = analysis.short_segments[:10]
        with st.expander(t("corpus.short_expander", shown=len(top), short=analysis.n_short, total=len(analysis.stats))):
            st.dataframe(
                {
                    "segment": [s.index + 1 for s in top],
                    "hyp len": [s.hyp_len for s in top],
                    "ref len": [s.ref_len for s in top],
                    "missing tokens": [s.shortfall for s in top],
                    "BP if fixed": [f"{s.bp_if_fixed:.4f}" for s in top],
                },
                hide_index=True,
                column_config={
                    **number_columns(
                        {
                            "segment": "corpus.col_segment",
                            "hyp len": "corpus.col_hyp_len",
                            "ref len": "corpus.col_ref_len",
                            "missing tokens": "corpus.col_missing",
                        }
                    ),
                    "BP if fixed": st.column_config.TextColumn(t("corpus.col_bp_if_fixed")),
                },
            )


def show_lengths(analysis: CorpusAnalysis, frame: object) -> None:
    buckets = length_buckets(analysis.stats, analysis.sentence, analysis.result.options)
    left, right = st.columns(2)
    charts.show(left, corpus_views.ratio_histogram, frame, language())
    charts.show(right, corpus_views.bucket_chart, buckets, language())
    st.dataframe(
        corpus_views.bucket_frame(buckets),
        hide_index=True,
        column_config={
            "reference length": st.column_config.TextColumn(t("corpus.words_axis_length")),
            "segments": st.column_config.NumberColumn(t("corpus.col_segments"), format="%d"),
            **number_columns(
                {
                    "mean sentence BLEU": "corpus.col_mean_sentence_bleu",
                    "corpus BLEU of bucket": "corpus.col_bucket_bleu",
                },
                "%.2f",
            ),
            "c/r": st.column_config.TextColumn("c/r"),
        },
    )


def render_page() -> None:
    st.title(t("corpus.title"))
    st.caption(t("corpus.caption"))
    inputs = corpus_inputs.read_inputs()
    settings = controls.bleu_settings()
    if isinstance(inputs, str):
        st.info(t(inputs))
        return
    if settings is None:  # every weight is 0 (the sidebar says so too)
        st.error(t("settings.all_zero"), icon=":material/error:")
        return
    hyps = inputs.hypothesis[1]
    refs = [lines for _, lines in inputs.references]
    if not show_findings(inputs.names, hyps, refs, settings.tokenize):
        return
    streams: list[list[str | None]] = [list(lines) for lines in refs]
    source = inputs.source[1] if inputs.source is not None else None
    if source is not None and len(source) != len(hyps):
        st.warning(t("corpus.source_mismatch", lines=len(source), segments=len(hyps)))
        source = None
    corpus = cached.Corpus(hyps, streams, source)
    with st.spinner(t("corpus.counting")):
        analysis = cached.corpus_analysis_cached(corpus, settings)
    chrf, sentence_chrf = None, None
    if chrf_refused(len(hyps), LIMITS) is None:
        chrf, sentence_chrf = cached.chrf_cached(corpus, settings.lowercase)
    ter, sentence_ter = ter_scores(corpus)
    show_score(analysis, chrf, ter)
    corpus_analysis.show_diagnosis(corpus, settings)
    demo = st.session_state.get("co_mode", corpus_inputs.DEMO) == corpus_inputs.DEMO
    corpus_slices.show_slices(corpus, settings, demo, with_chrf=chrf is not None, with_ter=ter is not None)
    frame = corpus_views.segment_frame(analysis, hyps, streams, source, sentence_chrf, sentence_ter)
    view = st.radio(
        t("corpus.view"),
        VIEWS,
        horizontal=True,
        format_func=corpus_inputs.choices("corpus.view_"),
        key=corpus_inputs.kept_widget("co_view", "segments"),
    )
    S.keep(st.session_state, "co_view")
    if view == "segments":
        corpus_segments.show_segments(corpus, analysis, frame, settings)
    elif view == "ngrams":
        corpus_analysis.show_ngrams(corpus, settings)
    elif view == "words":
        corpus_analysis.show_words(corpus, analysis, settings)
    else:
        show_lengths(analysis, frame)
    cols = st.columns(2)
    shown = frame.drop(columns=list(corpus_views.HIDDEN))
    controls.download_button(
        cols[0], t("corpus.download_csv"), lambda: corpus_views.segments_csv(shown), "bleu-segments.csv", "text/csv"
    )
    controls.download_button(
        cols[1],
        t("corpus.download_json"),
        lambda: corpus_views.segments_json(analysis, hyps),
        "bleu-segments.json",
        "application/json",
    )


def main() -> None:
    """The page: inputs, the score and the chosen view, then the link."""
    ensure_app_navigation()
    link_slot = share.place("corpus")  # the top of the sidebar; filled once the page is drawn
    render_page()
    link_slot.fill()


main()
