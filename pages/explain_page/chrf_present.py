"""Presentation mode of the chrF / chrF++ walkthrough (``?metric=chrf&present=1&step=K``), in the BLEU lecture's
style (:mod:`pages.explain_page.present`: its CSS, its HTML tables, its buttons and keys).

characters counted (chrF++: then words) -> the reference chosen (several references) -> one n-gram table per order
-> P and R per order -> the F-beta formula and the score.  Sized for 1280x720: the units of each text fill at
most :data:`UNIT_LINES` lines of chips (widths estimated as the BLEU lecture estimates them), the rest is
counted but not shown; an order's table is spread over as few screens as its estimated rows need, tables side by
side while they fit, with the BLEU lecture's planner (:func:`pages.explain_page.present.table_screens`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import pandas as pd
import streamlit as st

from bleu_core.i18n import text
from bleu_core.teach.chrf_explain import ChrfExplanation, ChrfOrder
from pages.explain_page import chrf_view, present
from pages.shared import cached, charts, views
from pages.shared.i18n import language, noun, t

UNIT_LINES = 3
#: Screens of each order's table: per order, per screen, the tables side by side.
Plan = tuple[tuple[tuple[present.Table, ...], ...], ...]


class Step(NamedTuple):
    """One screen: its kind, the order's index (for tables) and which part of how many."""

    kind: str
    order: int = 0
    part: int = 1
    parts: int = 1


def plan_order(trace: ChrfExplanation, index: int, lang: str) -> tuple[tuple[present.Table, ...], ...]:
    """An order's table (and its totals row) over as few screens as fit, its rows spread evenly over them."""
    order = trace.orders[index]
    frame = table_frame(order, lang)
    last = present.lines(chrf_view.order_line(order, lang).replace("**", ""), present.TEXT_PX) * present.LINE
    if len(order.rows) < order.rows_total:  # the last part also says the table is cut (a long sentence's orders)
        cut = text("chrf.rows_cut", lang, shown=len(order.rows), rows=order.rows_total)
        last += present.ELEMENT_GAP + present.lines(cut, present.TEXT_PX) * present.LINE
    others = present.lines(text("chrf.present.continues", lang, shown=9999, rows=9999), present.TEXT_PX) * present.LINE
    heading = text("chrf.present.step_order_part", lang, label=chrf_view.order_label(order, lang), part=99, parts=99)
    space = present.room(heading, present.ELEMENT_GAP + max(last, others))
    sizes = present.measure(frame)
    tallest = max(1, int((space - present.ROW) // present.ROW))
    options = [present.table_screens(sizes, space, cap) for cap in range(1, min(tallest, len(frame)) + 1)]
    best = min(options, key=lambda screens: (len(screens), -min(t.end - t.start for s in screens for t in s)))
    return tuple(tuple(screen) for screen in best)


@st.cache_data(max_entries=64, show_spinner=False)
def plan_cached(candidate: str, references: tuple[str, ...], metric: str, lang: str) -> Plan:
    """Every order's screens, kept: each step of the lecture asks for them."""
    trace = cached.chrf_explain_cached(candidate, references, metric)
    return tuple(plan_order(trace, index, lang) for index in range(len(trace.orders)))


def steps(trace: ChrfExplanation, plan: Plan) -> list[Step]:
    """The lecture in order: the units (chrF++: characters, then words), the reference chosen (several
    references), each order's screens, P and R, the score."""
    tables = [
        Step("order", index, part, len(screens))
        for index, screens in enumerate(plan)
        for part in range(1, len(screens) + 1)
    ]
    choice = [Step("choice")] if len(trace.references) > 1 else []
    units = [Step("units", 0, part, 2) for part in (1, 2)] if trace.options.word_order else [Step("units")]
    return [*units, *choice, *tables, Step("averages"), Step("score")]


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


def fitting(units: Sequence[str], label: str) -> int:
    """How many of ``units`` fit in :data:`UNIT_LINES` lines of chips after ``label`` (bold, on the first line)."""
    lines, used = 1, (present.em(label) + 1) * present.TEXT_PX
    for index, unit in enumerate(units):
        width = present.chip_width(unit)
        if used + width > present.WIDTH and used > 0:
            lines, used = lines + 1, 0.0
        lines += math.ceil(width / present.WIDTH) - 1  # a chip wider than the screen wraps inside itself
        if lines > UNIT_LINES:
            return index
        used += width % present.WIDTH if width > present.WIDTH else width
    return len(units)


def show_units(trace: ChrfExplanation, step: Step, lang: str) -> None:
    """The characters (part 1) or chrF++'s words (part 2) of the candidate and of the chosen reference."""
    st.subheader(t("chrf.present.step_units"))
    k = trace.chosen
    if step.part == 1:
        units: tuple[Sequence[str], ...] = (trace.candidate_characters, *trace.reference_characters)
        counts = [trace.character_counts[0], trace.character_counts[k + 1]]
        key, stem = "chrf.characters", "chrf.character"
    else:
        units = (trace.candidate_words, *trace.reference_words)
        counts = [trace.word_counts[0], trace.word_counts[k + 1]]
        key, stem = "chrf.words", "chrf.word"
    hidden = []
    texts = ((t("chrf.candidate"), 0), (t("chrf.reference", k=k + 1), k + 1))
    for (name, index), count in zip(texts, counts, strict=True):
        label = t(key, label=name, count=f"{count:,}", noun=noun(stem, count))
        keep = fitting(units[index], label)
        hidden.append(keep < count)
        st.html(views.tokens_html(tuple(units[index][:keep]), None, label, lang))
    if any(hidden):
        st.caption(t("chrf.present.units_cut"))
    st.caption(t("chrf.beta_line"))


def show_choice(trace: ChrfExplanation, lang: str) -> None:
    st.subheader(t("chrf.present.step_choice"))
    tables = [present.Table(0, len(trace.references))]
    st.html(present.counts_html(chrf_view.choice_frame(trace, lang), tables, marked=trace.chosen))  # the one used
    st.markdown(trace.choice_message.render(lang))


def show_order(trace: ChrfExplanation, step: Step, screens: Sequence[Sequence[present.Table]], lang: str) -> None:
    order = trace.orders[step.order]
    st.subheader(step_name(trace, step, lang))
    tables = screens[step.part - 1]
    st.html(present.counts_html(table_frame(order, lang), tables))
    if step.part < step.parts:
        st.caption(t("chrf.present.continues", shown=min(tables[-1].end, len(order.rows)), rows=len(order.rows)))
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
    left.html(present.counts_html(frame, [present.Table(0, len(frame))], marked=None))
    if trace.used_orders:
        spec = charts.chart_spec(chrf_view.pr_chart, chrf_view.pr_points(trace), lang, True)
        right.vega_lite_chart(spec=spec, width="stretch", theme=None)
        st.markdown(t("chrf.averages", k=len(trace.used_orders), p=f"{trace.precision:.4f}", r=f"{trace.recall:.4f}"))
    else:
        st.markdown(t("chrf.no_orders", metric=trace.name))


def show_score(trace: ChrfExplanation, metric: str, lang: str) -> None:
    st.subheader(t("chrf.present.step_score"))
    st.markdown(f"**{t('chrf.beta_line')}**")
    if trace.used_orders:
        st.latex(formula_lines(trace))
    else:
        st.markdown(t("chrf.no_orders", metric=trace.name))
    # the rounding note as the score's tooltip: a caption's small print would not read on a projector
    st.metric(chrf_view.metric_name(metric, lang), f"{trace.score:.4f}", help=t("chrf.rounding_note"))


def formula_lines(trace: ChrfExplanation) -> str:
    """The filled-in formula one side a line (one line is wider than a projector's screen), then the score."""
    (_, first), *rest = chrf_view.formula_sides(trace)
    lines = [f"{first} &{rest[0][0]} {rest[0][1]}", *(f"&{relation} {side}" for relation, side in rest[1:])]
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
    plan = plan_cached(candidate, tuple(references), metric, lang)
    lecture = steps(trace, plan)
    ss = st.session_state
    ss[step_key] = min(max(1, int(ss.get(step_key, 1))), len(lecture))
    step = lecture[ss[step_key] - 1]
    name = step_name(trace, step, lang)
    st.caption(t("present.step_of", step=ss[step_key], total=len(lecture), name=name))
    if step.kind == "units":
        show_units(trace, step, lang)
    elif step.kind == "choice":
        show_choice(trace, lang)
    elif step.kind == "order":
        show_order(trace, step, plan[step.order], lang)
    elif step.kind == "averages":
        show_averages(trace, lang)
    else:
        show_score(trace, metric, lang)
    present.navigation(step_key, present_key, len(lecture))
