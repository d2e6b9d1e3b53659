"""Presentation mode of the chrF / chrF++ walkthrough (``?metric=chrf&present=1&step=K``), in the BLEU lecture's
style (:mod:`pages.explain_page.present`: its CSS, its HTML tables, its buttons and keys).

units counted -> the reference chosen (several references) -> one n-gram table per order -> P and R per order
-> the F-beta formula and the score.  Sized for 1280x720 by fixed bounds rather than measured text: at most
:data:`UNITS_SHOWN` characters (and :data:`WORDS_SHOWN` words) per text on the units step, and at most
:data:`TABLES` tables of :data:`CHAR_ROWS` rows (:data:`WORD_ROWS` for word n-grams, which are wider) per step;
a longer table goes over several steps ("part k of m").
"""

from __future__ import annotations

import math
from typing import NamedTuple

import pandas as pd
import streamlit as st

from bleu_core.i18n import text
from bleu_core.teach.chrf_explain import ChrfExplanation, ChrfOrder
from pages.explain_page import chrf_view, present
from pages.shared import cached, charts, views
from pages.shared.i18n import language, t

UNITS_SHOWN = 90
WORDS_SHOWN = 24
CHAR_ROWS = 8
WORD_ROWS = 5
TABLES = 2
#: An n-gram cell wider than this wraps (two tables side by side fit the 1216 px main area).
CSS = "<style>.counts td.ngram { max-width: 360px; }</style>"


class Step(NamedTuple):
    """One screen: its kind, the order's index (for tables) and which part of how many."""

    kind: str
    order: int = 0
    part: int = 1
    parts: int = 1


def rows_per_step(order: ChrfOrder) -> int:
    return TABLES * (CHAR_ROWS if order.kind == "char" else WORD_ROWS)


def steps(trace: ChrfExplanation) -> list[Step]:
    """The lecture in order; an order's table of r rows (and its totals row) takes ceil((r + 1) / rows) steps."""
    tables = []
    for index, order in enumerate(trace.orders):
        parts = max(1, math.ceil((len(order.rows) + 1) / rows_per_step(order)))
        tables += [Step("order", index, part, parts) for part in range(1, parts + 1)]
    choice = [Step("choice")] if len(trace.references) > 1 else []
    return [Step("units"), *choice, *tables, Step("averages"), Step("score")]


def step_name(trace: ChrfExplanation, step: Step, lang: str) -> str:
    if step.kind != "order":
        return text(f"chrf.present.step_{step.kind}", lang)
    label = chrf_view.order_label(trace.orders[step.order], lang)
    if step.parts > 1:
        return text("chrf.present.step_order_part", lang, label=label, part=step.part, parts=step.parts)
    return text("chrf.present.step_order", lang, label=label)


def table_frame(order: ChrfOrder, lang: str) -> pd.DataFrame:
    """An order's table with short headers and its totals row last (the statistics the score uses)."""

    def say(key: str) -> str:
        return text(f"chrf.present.{key}", lang)

    rows = [(row.text, row.candidate_count, row.reference_count, row.matched) for row in order.rows]
    candidate = order.candidate_total if order.reference_total else sum(row.candidate_count for row in order.rows)
    rows.append(("Σ", candidate, order.reference_total, order.matches))
    columns = ["n-gram", say("column_candidate"), say("column_reference"), say("column_matched")]
    return pd.DataFrame(rows, columns=columns).astype(str)


def show_units(trace: ChrfExplanation, lang: str) -> None:
    st.subheader(t("chrf.present.step_units"))
    k = trace.chosen
    characters = (trace.candidate_characters, *trace.reference_characters)
    words = (trace.candidate_words, *trace.reference_words)
    for name, index in ((t("chrf.candidate"), 0), (t("chrf.reference", k=k + 1), k + 1)):
        label = t("chrf.characters", label=name, count=trace.character_counts[index])
        st.html(views.tokens_html(tuple(characters[index][:UNITS_SHOWN]), None, label, lang))
        if trace.options.word_order:
            label = t("chrf.words", label=name, count=len(words[index]))
            st.html(views.tokens_html(words[index][:WORDS_SHOWN], None, label, lang))
    longest = max(len(characters[0]), len(characters[k + 1]))
    if longest > UNITS_SHOWN or trace.cut:
        st.caption(t("chrf.units_cut", keep=UNITS_SHOWN))
    st.caption(t("chrf.beta_line"))


def show_choice(trace: ChrfExplanation, lang: str) -> None:
    st.subheader(t("chrf.present.step_choice"))
    st.html(present.counts_html(chrf_view.choice_frame(trace, lang), [present.Table(0, len(trace.references))]))
    st.markdown(trace.choice_message.render(lang))


def show_order(trace: ChrfExplanation, step: Step, lang: str) -> None:
    order = trace.orders[step.order]
    st.subheader(step_name(trace, step, lang))
    frame = table_frame(order, lang)
    per_table = rows_per_step(order) // TABLES
    first = (step.part - 1) * rows_per_step(order)
    tables = [
        present.Table(start, min(start + per_table, len(frame)))
        for start in range(first, min(first + rows_per_step(order), len(frame)), per_table)
    ]
    st.html(CSS + present.counts_html(frame, tables))
    if step.part < step.parts:
        st.caption(t("chrf.present.continues", shown=tables[-1].end, rows=len(order.rows)))
    else:
        if len(order.rows) < order.rows_total:
            st.caption(t("chrf.rows_cut", shown=len(order.rows), rows=order.rows_total))
        st.markdown(chrf_view.order_line(order, lang))


def averages_frame(trace: ChrfExplanation, lang: str) -> pd.DataFrame:
    def say(key: str) -> str:
        return text(f"chrf.{key}", lang)

    return pd.DataFrame(
        {
            say("pr_order"): [o.label for o in trace.orders],
            "P": [chrf_view.number(o.precision) for o in trace.orders],
            "R": [chrf_view.number(o.recall) for o in trace.orders],
            say("pr_used"): [say("yes") if o.used else say("no") for o in trace.orders],
        }
    )


def show_averages(trace: ChrfExplanation, lang: str) -> None:
    st.subheader(t("chrf.present.step_averages"))
    left, right = st.columns([2, 3])
    frame = averages_frame(trace, lang)
    left.html(present.counts_html(frame, [present.Table(0, len(frame))]).replace('class="total"', ""))
    if trace.used_orders:
        spec = charts.chart_spec(chrf_view.pr_chart, chrf_view.pr_points(trace), lang, True)
        right.vega_lite_chart(spec=spec, width="stretch", theme=None)
        st.markdown(t("chrf.averages", k=len(trace.used_orders), p=f"{trace.precision:.4f}", r=f"{trace.recall:.4f}"))
    else:
        st.markdown(t("chrf.no_orders"))


def show_score(trace: ChrfExplanation, metric: str, lang: str) -> None:
    st.subheader(t("chrf.present.step_score"))
    st.markdown(f"**{t('chrf.beta_line')}**")
    if trace.used_orders:
        st.latex(formula_lines(trace))
    else:
        st.markdown(t("chrf.no_orders"))
    st.metric(chrf_view.metric_name(metric, lang), f"{trace.score:.4f}")


def formula_lines(trace: ChrfExplanation) -> str:
    """The filled-in formula one side a line (one line is wider than a projector's screen), then the score."""
    first, *rest = chrf_view.formula_sides(trace)
    lines = [f"{first} &= {rest[0]}", *(f"&= {side}" for side in rest[1:])]
    return (
        r"\begin{aligned}"
        + r" \\ ".join([*lines, chrf_view.score_latex(trace).replace(" = ", " &= ", 1)])
        + r"\end{aligned}"
    )


def render(candidate: str, references: list[str], metric: str, step_key: str, present_key: str) -> None:
    """The current step of the chrF lecture; ``step_key`` holds the 1-based step."""
    st.html(present.CSS)
    lang = language()
    try:
        trace = cached.chrf_explain_cached(candidate, tuple(references), metric)
    except (ValueError, TypeError) as error:
        st.error(t("explain.cannot_score", error=error))
        present.leave_button(present_key)
        return
    lecture = steps(trace)
    ss = st.session_state
    ss[step_key] = min(max(1, int(ss.get(step_key, 1))), len(lecture))
    step = lecture[ss[step_key] - 1]
    name = step_name(trace, step, lang)
    st.caption(t("present.step_of", step=ss[step_key], total=len(lecture), name=name))
    if step.kind == "units":
        show_units(trace, lang)
    elif step.kind == "choice":
        show_choice(trace, lang)
    elif step.kind == "order":
        show_order(trace, step, lang)
    elif step.kind == "averages":
        show_averages(trace, lang)
    else:
        show_score(trace, metric, lang)
    present.navigation(step_key, present_key, len(lecture))
