"""The Explain page's chrF / chrF++ walkthrough: the metric switch, the units counted, one n-gram table per order,
P and R per order (table and chart), the averages and the F-beta formula with the numbers filled in.

Builders (frames, chart, LaTeX, lines) call no Streamlit, so tests use them directly; :func:`render` draws them.
Every n-gram and unit is user text: tables go through ``st.dataframe`` (no Markdown), chips through
:func:`pages.shared.views.tokens_html` (HTML-escaped).
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from bleu_core.i18n import text
from bleu_core.limits import LIMITS
from bleu_core.teach.chrf_explain import ChrfExplanation, ChrfOrder
from pages.shared import cached, charts, views
from pages.shared import state as S
from pages.shared.i18n import language, noun, t

#: Colours of P and R on the chart.
PRECISION_COLOR, RECALL_COLOR = "#3b6ea8", "#c77700"


def metric_name(metric: str, lang: str) -> str:
    return text(f"chrf.metric_{metric.replace('+', 'p')}", lang)


def metric_switch() -> str:
    """The visible BLEU / chrF / chrF++ choice at the top of the page; the metric chosen."""
    names = {metric: metric_name(metric, language()) for metric in S.METRICS}
    st.session_state.setdefault(S.METRIC, "bleu")
    st.radio(
        t("chrf.metric"),
        S.METRICS,
        format_func=names.__getitem__,
        key=S.METRIC,
        horizontal=True,
        help=t("chrf.metric_help"),
    )
    return str(st.session_state[S.METRIC])


def order_label(order: ChrfOrder, lang: str) -> str:
    return text(f"chrf.order_{order.kind}", lang, n=order.n)


def number(value: float | None, digits: int = 4) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def order_frame(order: ChrfOrder, lang: str) -> pd.DataFrame:
    """An order's table: n-gram, its count in the candidate and in the chosen reference, matched = min."""
    return pd.DataFrame(
        {
            text("chrf.column_ngram", lang): [row.text for row in order.rows],
            text("chrf.column_candidate", lang): [row.candidate_count for row in order.rows],
            text("chrf.column_reference", lang): [row.reference_count for row in order.rows],
            text("chrf.column_matched", lang): [row.matched for row in order.rows],
        }
    )


def order_line(order: ChrfOrder, lang: str) -> str:
    """``character 1-grams: matches = 5; P = 5/7 = 0.7143; R = 5/6 = 0.8333`` (or why it is not averaged)."""
    label = order_label(order, lang)
    if not order.used:
        return text("chrf.order_unused", lang, label=label)
    return text(
        "chrf.order_line",
        lang,
        label=label,
        m=order.matches,
        c=order.candidate_total,
        r=order.reference_total,
        p=number(order.precision),
        rec=number(order.recall),
    )


def pr_frame(trace: ChrfExplanation, lang: str) -> pd.DataFrame:
    """One row per order: matches, both totals, P, R (as text, 4 decimals), averaged or not."""

    def say(key: str) -> str:
        return text(f"chrf.{key}", lang)

    return pd.DataFrame(
        {
            say("pr_order"): [order_label(o, lang) for o in trace.orders],
            say("pr_matches"): [o.matches for o in trace.orders],
            say("pr_candidate"): [o.candidate_total for o in trace.orders],
            say("pr_reference"): [o.reference_total for o in trace.orders],
            "P": [number(o.precision) for o in trace.orders],
            "R": [number(o.recall) for o in trace.orders],
            say("pr_used"): [say("yes") if o.used else say("no") for o in trace.orders],
        }
    )


def pr_points(trace: ChrfExplanation) -> tuple[tuple[str, float, float], ...]:
    """(order label, P, R) of the orders averaged: what the chart draws (small, so its spec caches cheaply)."""
    return tuple((o.label, o.precision or 0.0, o.recall or 0.0) for o in trace.used_orders)


def pr_chart(points: tuple[tuple[str, float, float], ...], lang: str = "en", large: bool = False) -> alt.Chart:
    """Bars of P and R side by side for each averaged order (``c1`` … ``c6``, ``w1``, ``w2``)."""
    measure = text("chrf.chart_measure", lang)
    frame = pd.DataFrame(
        [(label, name, value) for label, p, r in points for name, value in (("P", p), ("R", r))],
        columns=["order", measure, "value"],
    )
    size = 20 if large else 12
    order_axis = alt.X("order:N", title=text("chrf.chart_order", lang), sort=[p[0] for p in points])
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=order_axis,
            xOffset=alt.XOffset(f"{measure}:N"),
            y=alt.Y("value:Q", title=text("chrf.chart_value", lang), scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(f"{measure}:N", scale=alt.Scale(domain=["P", "R"], range=[PRECISION_COLOR, RECALL_COLOR])),
            tooltip=["order", f"{measure}:N", alt.Tooltip("value:Q", format=".4f")],
        )
        .properties(height=320 if large else 240)
    )
    if not large:
        chart = chart.properties(title=views.chart_title(text("chrf.chart_title", lang)))
    styled = (
        chart.configure_axis(labelAngle=0, labelFontSize=size, titleFontSize=size)
        .configure_legend(labelFontSize=size, titleFontSize=size)
        .configure_title(fontSize=size + 4)
    )
    if large:  # the y title horizontal, above the axis, as on BLEU's projector chart
        styled = styled.configure_axisY(titleAngle=0, titleAlign="left", titleBaseline="bottom", titleX=-40, titleY=-12)
    return styled


def formula_sides(trace: ChrfExplanation) -> list[tuple[str, str]]:
    """The successive sides of F_β = (1+β²)PR / (β²P + R) with β, P and R filled in, ending in its value, each with
    the relation before it (≈ where printed numbers are rounded; each step is worked from the numbers printed)."""
    p, r, numerator, denominator = trace.shown_fraction()
    factor = trace.beta**2
    return [
        ("", r"F_{\beta}"),
        ("=", r"\frac{(1 + \beta^2)\,P\,R}{\beta^2 P + R}"),
        (
            r"\approx",
            rf"\frac{{(1 + {factor:g}) \times {p:.4f} \times {r:.4f}}}{{{factor:g} \times {p:.4f} + {r:.4f}}}",
        ),
        (r"\approx", rf"\frac{{{numerator:.4f}}}{{{denominator:.4f}}}"),
        (r"\approx", f"{trace.f_score:.4f}"),
    ]


def score_latex(trace: ChrfExplanation) -> str:
    return rf"\text{{{trace.name}}} = 100 \times F_{{\beta}} = {trace.score:.4f}"


def formula_latex(trace: ChrfExplanation) -> str:
    """The F-beta formula filled in, on one line (the score goes on the next: both on one are wider than a laptop)."""
    return " ".join(f"{relation} {side}".strip() for relation, side in formula_sides(trace))


def choice_frame(trace: ChrfExplanation, lang: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            text("chrf.choice_column_reference", lang): [str(r.index + 1) for r in trace.reference_scores],
            text("chrf.choice_column_score", lang, metric=trace.name): [
                f"{r.score:.4f}" for r in trace.reference_scores
            ],
        }
    )


def units(trace: ChrfExplanation, lang: str) -> None:
    """The characters (and chrF++'s words) of the candidate and of the chosen reference, as escaped chips."""
    st.subheader(t("chrf.units_header"))
    k = trace.chosen
    pairs = ((t("chrf.candidate"), 0), (t("chrf.reference", k=k + 1), k + 1))
    characters = (trace.candidate_characters, *trace.reference_characters)
    for name, index in pairs:
        n = trace.character_counts[index]
        label = t("chrf.characters", label=name, count=f"{n:,}", noun=noun("chrf.character", n))
        st.html(views.tokens_html(tuple(characters[index]), None, label, lang))
    if trace.options.word_order:
        words = (trace.candidate_words, *trace.reference_words)
        for name, index in pairs:
            n = trace.word_counts[index]
            label = t("chrf.words", label=name, count=f"{n:,}", noun=noun("chrf.word", n))
            st.html(views.tokens_html(words[index], None, label, lang))
    if any(count > len(shown) for count, shown in zip(trace.character_counts, characters, strict=True)):
        st.caption(t("chrf.units_cut", keep=LIMITS.walkthrough_tokens))


def orders(trace: ChrfExplanation, lang: str) -> None:
    st.subheader(t("chrf.orders_header"))
    tabs = st.tabs([o.label for o in trace.orders])
    for tab, order in zip(tabs, trace.orders, strict=True):
        with tab:
            st.dataframe(order_frame(order, lang), hide_index=True)
            if len(order.rows) < order.rows_total:
                st.caption(t("chrf.rows_cut", shown=len(order.rows), rows=order.rows_total))
            st.markdown(order_line(order, lang))


def render(candidate: str, references: list[str], metric: str) -> None:
    """The whole chrF or chrF++ walkthrough of ``candidate`` against ``references``."""
    lang = language()
    try:
        trace = cached.chrf_explain_cached(candidate, tuple(references), metric)
    except (ValueError, TypeError) as error:
        st.error(t("explain.cannot_score", error=error))
        return
    st.info(t("chrf.intro_chrfpp" if metric == "chrf++" else "chrf.intro_chrf"))
    st.markdown(f"**{t('chrf.beta_line')}**")
    st.caption(t("chrf.settings_note"))
    cols = st.columns(4)
    cols[0].metric(metric_name(metric, lang), f"{trace.score:.4f}")
    cols[1].metric(t("chrf.metric_precision"), f"{trace.precision:.4f}")
    cols[2].metric(t("chrf.metric_recall"), f"{trace.recall:.4f}")
    cols[3].metric(t("chrf.metric_reference"), str(trace.chosen + 1))
    if len(trace.references) > 1:
        st.subheader(t("chrf.choice_header"))
        st.dataframe(choice_frame(trace, lang), hide_index=True)
    st.markdown(trace.choice_message.render(lang))
    units(trace, lang)
    orders(trace, lang)
    st.subheader(t("chrf.pr_header"))
    st.dataframe(pr_frame(trace, lang), hide_index=True)  # its seven columns need the page's width at 1280 px
    if trace.used_orders:
        charts.show(st.columns([3, 2])[0], pr_chart, pr_points(trace), lang)
    st.subheader(t("chrf.formula_header"))
    if not trace.used_orders:
        st.markdown(t("chrf.no_orders", metric=trace.name))
    else:
        st.markdown(t("chrf.averages", k=len(trace.used_orders), p=f"{trace.precision:.4f}", r=f"{trace.recall:.4f}"))
        st.latex(formula_latex(trace))
        st.latex(score_latex(trace))
        st.caption(t("chrf.rounding_note"))
    st.markdown(t("chrf.beta_line"))
    st.markdown(t("chrf.score_line", metric=metric_name(metric, lang), score=f"{trace.score:.4f}"))
