"""The walkthrough of one candidate against its references, shared by the pages that show one segment."""

from __future__ import annotations

import streamlit as st

from bleu_core.explain import Explanation
from pages import charts, views


def render(trace: Explanation, highlight_key: str) -> None:
    """Tokens with highlights, clipped-count tables, precision and log charts, BP panel and the final formula."""
    st.subheader("Tokens and n-grams")
    highlight = st.segmented_control(
        "highlight n-grams of order", list(range(1, trace.options.max_order + 1)), key=highlight_key
    )
    order = trace.orders[(highlight or 1) - 1]
    st.html(views.tokens_html(trace.candidate_tokens, views.candidate_marks(order), "candidate"))
    for k, tokens in enumerate(trace.reference_tokens):
        st.html(views.tokens_html(tokens, views.reference_marks(trace, order, k), views.ref_label(k)))
    st.html(views.ngram_chips_html(order))
    st.caption(
        "Green: matched. Orange: clipped away (more than any single reference has). Red: in no reference. "
        "The superscript names the reference that supplies the max count."
    )

    st.subheader("Clipped counts")
    tabs = st.tabs([f"{o.order}-grams" for o in trace.orders])
    for tab, breakdown in zip(tabs, trace.orders, strict=True):
        with tab:
            st.dataframe(views.order_table(breakdown, len(trace.references)), hide_index=True, width="stretch")
            line = f"**p{breakdown.order} = {breakdown.fraction} = {views.fmt(breakdown.raw_precision)}**"
            if breakdown.smoothed:
                line += (
                    f" → smoothed ({trace.options.smooth}): {breakdown.smoothed_matches:g}/"
                    f"{breakdown.smoothed_total:g} = {views.fmt(breakdown.precision)}"
                )
            st.markdown(line)

    left, right = st.columns(2)
    charts.show(left, views.precision_chart, trace, width="stretch")
    charts.show(right, views.contribution_chart, trace, width="stretch")

    st.subheader("Brevity penalty")
    st.dataframe(views.length_frame(trace), hide_index=True)
    st.markdown(f"c = {trace.length.candidate_length}: {trace.length.reason}.")
    st.latex(views.bp_latex(trace))
    st.markdown(f"Without the brevity penalty the score would be **{trace.score_without_bp:.4f}**.")

    st.subheader("Score")
    st.latex(views.score_latex(trace))
    if trace.no_unigram_match:
        st.markdown("No unigram of the candidate is in any reference, so BLEU is 0 whatever the smoothing.")
    st.markdown(f"**BLEU = {trace.score:.4f}** ({trace.score_100:.2f} on the 0–100 scale)")
