"""Presentation mode of the Explain page (``?present=1&step=K``): one step per screen, in lecture order.

sentences -> tokens -> one clipped-count table per order -> p_n as fractions -> reference lengths and the tie
rule -> BP -> Σ w_n log p_n as a number -> the score.  The score appears on the last step only.  Large type,
no sidebar, sized for a 1280x720 projector.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import pandas as pd
import streamlit as st

from bleu_core.explain import Explanation
from bleu_core.i18n import Message
from bleu_core.options import BleuOptions
from pages import cached, charts, controls, views, walkthrough
from pages.i18n import language, t

#: Fixed CSS (no user text): no sidebar or header, body text >= 22 px, tables and formulas large.
CSS = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
header[data-testid="stHeader"] { display: none !important; }
[data-testid="stMainBlockContainer"], .block-container { padding: 1rem 2rem 0.5rem 2rem !important; max-width: 1280px; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li, .tokens, .ngrams,
[data-testid="stTable"] td, [data-testid="stTable"] th, [data-testid="stCaptionContainer"] {
  font-size: 24px !important;
}
[data-testid="stTable"] td, [data-testid="stTable"] th { padding: 1px 10px !important; line-height: 1.3 !important; }
[data-testid="stHeading"] h2 { font-size: 36px !important; padding: 0.2rem 0 !important; }
.katex { font-size: 1.5em !important; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p {
  font-size: 64px !important; line-height: 1.2 !important;
}
[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"] p { font-size: 28px !important; }
.stButton button p, [data-testid="stWidgetLabel"] p { font-size: 22px !important; }
/* the step number above the slider's thumb sat on the track; the caption says "Step k of N" */
[data-testid="stSliderThumbValue"] { display: none !important; }
</style>
"""


#: Table rows (with the header) that fit one screen beside the heading, the p_n line and the buttons.
ROWS_PER_TABLE = 10
#: Tables side by side on one screen; an order with more rows (its totals row included) takes several steps.
TABLES_PER_SCREEN = 3
ROWS_PER_SCREEN = ROWS_PER_TABLE * TABLES_PER_SCREEN


class Step(NamedTuple):
    """One screen of the lecture: its kind, the n-gram order (0 where none applies) and, for a clipped-count
    table longer than one screen, which part of it (1-based) of how many."""

    kind: str
    order: int = 0
    part: int = 1
    parts: int = 1


def steps(trace: Explanation) -> list[Step]:
    """The steps of the lecture in order."""
    tables = []
    for o in trace.orders:
        parts = max(1, math.ceil((len(o.rows) + 1) / ROWS_PER_SCREEN))  # + 1: the totals row
        tables += [Step("order", o.order, part, parts) for part in range(1, parts + 1)]
    return [
        Step("sentences"),
        Step("tokens"),
        *tables,
        *(Step(kind) for kind in ("precisions", "lengths", "bp", "logsum", "score")),
    ]


def step_name(step: Step) -> Message:
    if step.kind != "order":
        return Message(f"present.step_{step.kind}")
    if step.parts > 1:
        return Message("present.step_order_part", {"n": step.order, "part": step.part, "parts": step.parts})
    return Message("present.step_order", {"n": step.order})


def settings_line(options: BleuOptions) -> str:
    weights = ", ".join(f"{w:.3g}" for w in options.weights)
    return t(
        "present.settings",
        max_n=options.max_order,
        weights=weights,
        tokenizer=controls.tokenizer_label(options.tokenize),
        smoothing=controls.smooth_label(options.smooth),
    )


def show_sentences(trace: Explanation) -> None:
    st.subheader(t("present.sentences"))
    st.markdown(f"**{t('present.candidate')}:** {views.md_escape(trace.candidate)}")
    for k, reference in enumerate(trace.references):
        st.markdown(f"**{t('present.reference', k=k + 1)}:** {views.md_escape(reference)}")
    st.caption(settings_line(trace.options))


def show_tokens(trace: Explanation) -> None:
    lang = language()
    st.subheader(t("present.tokens", c=trace.length.candidate_length))
    label = t("present.token_count", label=t("present.candidate"), count=len(trace.candidate_tokens))
    st.html(views.tokens_html(trace.candidate_tokens, None, label, lang))
    for k, tokens in enumerate(trace.reference_tokens):
        label = t("present.token_count", label=views.ref_label(k), count=len(tokens))
        st.html(views.tokens_html(tokens, None, label, lang))


def show_order(trace: Explanation, step: Step) -> None:
    lang = language()
    order = trace.orders[step.order - 1]
    st.subheader(t("present.order_title", n=step.order))
    # st.table: every row at full height, no inner scrolling.  A table is split side by side so that it fits a
    # 720 px screen, and one longer than a screen over several steps (the totals row on the last).
    table = views.order_table(order, len(trace.references), lang, compact=True).astype(str)
    table = table.iloc[(step.part - 1) * ROWS_PER_SCREEN : step.part * ROWS_PER_SCREEN]
    columns = min(TABLES_PER_SCREEN, max(1, math.ceil(len(table) / ROWS_PER_TABLE)))
    size = math.ceil(len(table) / columns)
    for column, start in zip(st.columns(columns), range(0, len(table), size), strict=False):
        column.table(table.iloc[start : start + size].reset_index(drop=True))
    if step.part < step.parts:
        st.caption(t("present.table_continues", shown=step.part * ROWS_PER_SCREEN, rows=len(order.rows), n=step.order))
    st.markdown(walkthrough.precision_line(trace, order))


def show_precisions(trace: Explanation) -> None:
    lang = language()
    st.subheader(t("present.precisions"))
    left, right = st.columns([2, 3])
    with left:
        for order in trace.orders:
            st.markdown(walkthrough.precision_line(trace, order))
        if trace.no_unigram_match:
            st.markdown(t("explain.early_return"))
    # theme None: the spec's own projector sizes (axis text 20 px), not Streamlit's theme
    right.vega_lite_chart(spec=charts.chart_spec(views.precision_chart, trace, lang, True), width="stretch", theme=None)


def show_lengths(trace: Explanation) -> None:
    lang = language()
    st.subheader(t("present.lengths"))
    st.table(views.length_frame(trace, lang).astype(str))
    st.markdown(t("present.lengths_rule"))
    reason = trace.length.reason_message.render(lang)
    st.markdown(t("explain.length_reason", c=trace.length.candidate_length, reason=reason))


def show_bp(trace: Explanation) -> None:
    st.subheader(t("present.bp"))
    st.markdown(t("present.bp_rule"))
    st.latex(views.bp_latex(trace))


def logsum_frame(trace: Explanation) -> pd.DataFrame:
    rows = []
    for o in views.used_orders(trace):
        log_p = math.log(o.precision) if o.precision > 0 else -math.inf
        rows.append(
            {
                "n": str(o.order),
                "w_n": f"{o.weight:.3g}",
                "p_n": f"{o.smoothed_matches:g}/{o.smoothed_total:g}" if o.smoothed else o.fraction,
                "log p_n": views.fmt(log_p, 3),
                "w_n log p_n": views.fmt(o.log_term, 3),
            }
        )
    return pd.DataFrame(rows, columns=["n", "w_n", "p_n", "log p_n", "w_n log p_n"])


def show_logsum(trace: Explanation) -> None:
    st.subheader(t("present.logsum"))
    if trace.no_unigram_match:
        st.markdown(t("explain.early_return"))
        return
    st.table(logsum_frame(trace))
    st.markdown(walkthrough.log_sum_line(trace))


def show_score(trace: Explanation) -> None:
    st.subheader(t("present.score"))
    st.markdown(t("present.score_formula"))
    st.latex(views.score_latex(trace))
    st.metric(t("explain.metric_bleu"), f"{trace.score:.4f}")


SHOW = {
    "sentences": show_sentences,
    "tokens": show_tokens,
    "precisions": show_precisions,
    "lengths": show_lengths,
    "bp": show_bp,
    "logsum": show_logsum,
    "score": show_score,
}


def _move(step_key: str, delta: int, total: int) -> None:
    st.session_state[step_key] = min(max(1, st.session_state[step_key] + delta), total)


def _leave(present_key: str) -> None:
    st.session_state[present_key] = False


def leave_button(present_key: str, where: Any = st) -> None:
    where.button(t("present.exit"), on_click=_leave, args=(present_key,))


def navigation(step_key: str, present_key: str, total: int) -> None:
    """Previous / next buttons, the step slider and the way out, in one row."""
    ss = st.session_state
    cols = st.columns([1.2, 1.2, 4, 2])
    cols[0].button(t("present.previous"), on_click=_move, args=(step_key, -1, total), disabled=ss[step_key] <= 1)
    cols[1].button(t("present.next"), on_click=_move, args=(step_key, 1, total), disabled=ss[step_key] >= total)
    cols[2].slider(t("present.step"), 1, total, key=step_key, label_visibility="collapsed")
    leave_button(present_key, cols[3])


def render(candidate: str, references: list[str], options: BleuOptions, step_key: str, present_key: str) -> None:
    """The current step of the walkthrough of ``candidate``; ``step_key`` holds the 1-based step."""
    st.html(CSS)
    try:
        trace = cached.explain_cached(candidate, tuple(references), options)
    except (ValueError, TypeError) as error:
        st.error(t("explain.cannot_score", error=error))
        return
    plan = steps(trace)
    ss = st.session_state
    ss[step_key] = min(max(1, int(ss.get(step_key, 1))), len(plan))
    step = plan[ss[step_key] - 1]
    st.caption(t("present.step_of", step=ss[step_key], total=len(plan), name=step_name(step).render(language())))
    if step.kind == "order":
        show_order(trace, step)
    else:
        SHOW[step.kind](trace)
    navigation(step_key, present_key, len(plan))
