"""The walkthrough of one candidate against its references, shared by the pages that show one segment."""

from __future__ import annotations

import streamlit as st

from bleu_core.limits import LIMITS
from bleu_core.teach.explain import Explanation, OrderBreakdown
from pages.shared import charts, views
from pages.shared.i18n import language, noun, t


def precision_line(trace: Explanation, order: OrderBreakdown) -> str:
    """``p2 = 1/13 = 0.0769``, then what smoothing made of it; every fraction printed is arithmetically true.

    With no unigram match sacreBLEU returns 0 before smoothing, so no smoothed fraction is shown then.
    """
    if order.total == 0:
        return t("explain.empty_line", n=order.order)
    line = "**" + t(
        "explain.precision_line", n=order.order, fraction=order.fraction, value=views.fmt(order.raw_precision)
    )
    line += "**"
    if order.smoothed and not trace.no_unigram_match:
        fraction = f"{order.smoothed_matches:g}/{order.smoothed_total:g}"
        line += " " + t(
            "explain.smoothed_line", method=trace.options.smooth, fraction=fraction, value=views.fmt(order.precision)
        )
    return line


def log_sum_line(trace: Explanation) -> str:
    """Σ w_n log p_n written out and evaluated (the number the score exponentiates)."""
    total = views.log_sum(trace)
    terms = views.log_sum_terms(trace)
    if total == float("-inf"):
        return t("explain.log_sum_infinite", terms=terms)
    return t("explain.log_sum", terms=terms, value=views.fmt(total, 3))


#: Above this many tokens in a sentence, its highlighted tokens and n-grams are built only when asked for.
LONG_TOKENS = 200
#: Clipped-count tables with more rows than this scroll inside a fixed height (the p_n line gives the totals).
TABLE_ROWS = 60


def cut_notice(trace: Explanation) -> str:
    """What a summarized walkthrough (past :data:`bleu_core.limits.LIMITS`) leaves out, and why."""
    cut = trace.cut
    if cut is None:
        return ""
    return t(
        "limits.walkthrough_cut",
        candidate=cut.candidate_tokens,
        reference=max(cut.reference_tokens, default=0),
        references=cut.references,
        reference_noun=noun("limits.reference", cut.references),
        limit_tokens=cut.tokens_kept,
        limit_references=LIMITS.walkthrough_references,
        rows=cut.rows_kept,
    )


def highlights(trace: Explanation, highlight_key: str) -> None:
    """Tokens with their n-grams highlighted: off past the limits; built on request for a long sentence (a closed
    expander would still build and send them), at once for a short one."""
    lang = language()
    st.subheader(t("explain.tokens"))
    if trace.cut is not None:
        st.caption(t("limits.highlights_off", limit=trace.cut.tokens_kept))
        return
    highlight = st.segmented_control(
        t("explain.highlight"), list(range(1, trace.options.max_order + 1)), key=highlight_key
    )
    order = trace.orders[min(highlight or 1, len(trace.orders)) - 1]
    longest = max(len(tokens) for tokens in (trace.candidate_tokens, *trace.reference_tokens))
    if longest > LONG_TOKENS and not st.toggle(
        t("explain.tokens_long", count=len(trace.candidate_tokens)), key=f"{highlight_key}_long"
    ):
        return
    marks = views.candidate_marks(order)
    st.html(views.tokens_html(trace.candidate_tokens, marks, t("explain.candidate_label"), lang))
    for k, tokens in enumerate(trace.reference_tokens):
        st.html(views.tokens_html(tokens, views.reference_marks(trace, order, k), views.ref_label(k), lang))
    st.html(views.ngram_chips_html(order, lang))
    st.caption(t("explain.legend"))


def render(trace: Explanation, highlight_key: str) -> None:
    """Tokens with highlights, clipped-count tables, precision and log charts, BP panel and the final formula."""
    lang = language()
    if trace.cut is not None:
        st.info(cut_notice(trace))
    highlights(trace, highlight_key)

    st.subheader(t("explain.clipped_counts"))
    tabs = st.tabs([t("explain.order_tab", n=o.order) for o in trace.orders])
    for tab, breakdown in zip(tabs, trace.orders, strict=True):
        with tab:
            st.dataframe(
                views.order_table(breakdown, len(trace.references), lang),
                hide_index=True,
                width="stretch",
                # every row, the totals row included, without scrolling inside; a long text's table scrolls
                height="content" if len(breakdown.rows) <= TABLE_ROWS else 480,
            )
            if trace.cut is not None:
                shown = min(len(breakdown.rows), trace.cut.rows_kept)
                rows = trace.cut.rows[breakdown.order - 1]
                st.caption(t("limits.table_summary", shown=shown, rows=rows, n=breakdown.order))
            st.markdown(precision_line(trace, breakdown))
    if trace.no_unigram_match:
        st.markdown(t("explain.early_return"))

    left, right = st.columns(2)
    charts.show(left, views.precision_chart, trace, lang, width="stretch")
    if trace.no_unigram_match:
        right.caption(t("explain.chart_no_match"))
    else:
        charts.show(right, views.contribution_chart, trace, lang, width="stretch")

    st.subheader(t("explain.brevity"))
    st.dataframe(views.length_frame(trace, lang), hide_index=True)
    st.markdown(
        t("explain.length_reason", c=trace.length.candidate_length, reason=trace.length.reason_message.render(lang))
    )
    st.latex(views.bp_latex(trace))
    st.markdown(t("explain.without_bp", score=f"{trace.score_without_bp:.4f}"))

    st.subheader(t("explain.score"))
    if not trace.no_unigram_match:
        st.markdown(log_sum_line(trace))
    st.latex(views.score_latex(trace))
    st.markdown(t("explain.final", score=f"{trace.score:.4f}", score100=f"{trace.score_100:.2f}"))
