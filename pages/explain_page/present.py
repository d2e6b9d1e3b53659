"""Presentation mode of the Explain page (``?present=1&step=K``): one step per screen, in lecture order.

sentences -> tokens -> one clipped-count table per order -> p_n as fractions -> reference lengths and the tie
rule -> BP -> Σ w_n log p_n as a number -> the score.  The score appears on the last step only.  Large type,
no sidebar, sized for a 1280x720 projector: sentences, tokens and table rows that would not fit one screen go
over several steps ("part k of m"), planned from the width of their text (:func:`plan`).  Tokens and n-grams
are HTML-escaped text, never Markdown (a token ``-`` stays a dash, ``1.`` a number with its dot).  Keyboard:
Right or Page Down is the next step, Left or Page Up the previous one (a presenter's clicker sends the Page keys).
"""

from __future__ import annotations

import html
import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pandas as pd
import streamlit as st

from bleu_core.i18n import Message, text
from bleu_core.options import BleuOptions
from bleu_core.teach.explain import Explanation
from pages.shared import cached, charts, views, walkthrough
from pages.shared.i18n import language, t

#: Keys of the two buttons that only carry the Page Up / Page Down shortcuts (hidden: the arrows' buttons show).
PAGE_UP, PAGE_DOWN = "present_page_up", "present_page_down"

# --- Fitting a screen --------------------------------------------------------------------------------------------
# Sizes in px of the projector and of the type the CSS above sets; the planner estimates text widths from them
# (a little over, so that an estimate errs towards one more step rather than a cut-off screen).  The browser test
# tests/e2e/test_present_keyboard_browser.py checks the result on a real 60-token WMT22 segment.

#: The main area on a 1280x720 screen: 1280 less 2 rem of padding on either side.
WIDTH = 1216
SCREEN = 720
TEXT_PX = 24  # prose, captions and token chips
HEADING_PX = 32
TABLE_PX = 22
#: Height (px) of a line of prose, of a heading, of token chips (line-height 1.9, padding and margin), of a table
#: row (line-height 1.25 and padding): as measured in chromium.
LINE = 38.4
HEADING_LINE = 40
CHIP_LINE = TEXT_PX * 1.9 + 6
ROW = TABLE_PX * 1.25 + 3
#: A table cell's padding and border, left and right; the gap between tables side by side.
CELL = 18
GAP = 24
#: Above the content: the padding, the step caption, the gaps (the heading's lines come on top).  Below it: the
#: gap, the row of buttons and the padding.  Streamlit puts 16 px between elements.  MARGIN absorbs estimates.
ABOVE = 92
BELOW = 16 + 46 + 8
ELEMENT_GAP = 16
MARGIN = 12


def room(heading: str, other: float = 0) -> float:
    """Height left for a step's content under its heading (``heading``: its text) and above the buttons, less
    ``other`` px of what else the step shows."""
    return SCREEN - ABOVE - lines(heading, HEADING_PX) * HEADING_LINE - BELOW - other - MARGIN


#: Fixed CSS (no user text): no sidebar or header, body text >= 22 px, tables and formulas large.
CSS = f"""
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
header[data-testid="stHeader"], .st-key-{PAGE_UP}, .st-key-{PAGE_DOWN} {{ display: none !important; }}
[data-testid="stMainBlockContainer"], .block-container {{
  padding: 1rem 2rem 0.5rem 2rem !important; max-width: 1280px;
}}
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li, .tokens, .ngrams,
[data-testid="stTable"] td, [data-testid="stTable"] th, [data-testid="stCaptionContainer"] {{
  font-size: 24px !important;
}}
[data-testid="stTable"] td, [data-testid="stTable"] th {{ padding: 1px 10px !important; line-height: 1.3 !important; }}
[data-testid="stHeading"] h2 {{
  font-size: {HEADING_PX}px !important; line-height: 1.25 !important; padding: 0.2rem 0 !important;
}}
.tokens {{ line-height: 1.9 !important; }}
.tokens .tok {{ max-width: 100%; overflow-wrap: anywhere; }}
.counts {{ display: flex; gap: {GAP}px; align-items: flex-start; }}
.counts table {{ border-collapse: collapse; font-size: {TABLE_PX}px; line-height: 1.25; }}
.counts th, .counts td {{ border: 1px solid rgba(49, 51, 63, 0.25); padding: 1px 8px; text-align: right;
  white-space: nowrap; }}
.counts th {{ background: rgba(49, 51, 63, 0.06); font-weight: 600; }}
.counts th:first-child {{ text-align: left; }}
.counts td.ngram {{ text-align: left; font-family: "Source Code Pro", monospace; white-space: pre-wrap;
  overflow-wrap: anywhere; }}
.counts tr.total td {{ font-weight: 700; border-top: 2px solid rgba(49, 51, 63, 0.6); }}
.counts tr.total td.ngram {{ font-family: inherit; }}
.katex {{ font-size: 1.5em !important; }}
[data-testid="stMetricValue"], [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p {{
  font-size: 64px !important; line-height: 1.2 !important;
}}
[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"] p {{ font-size: 28px !important; }}
.stButton button p, [data-testid="stWidgetLabel"] p {{ font-size: 22px !important; }}
/* the step number above the slider's thumb sat on the track; the caption says "Step k of N" */
[data-testid="stSliderThumbValue"] {{ display: none !important; }}
</style>
"""


def em(value: str, mono: bool = False) -> float:
    """The width of ``value`` in ems, a little over: a wide East Asian character 1 em, any other 0.6 em in the
    monospace font (Source Code Pro), 0.5 em in the proportional one (Source Sans averages 0.47, 0.4 in bold
    headings)."""
    narrow = 0.6 if mono else 0.5
    return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else narrow for ch in value)


def lines(value: str, px: float, width: float = WIDTH) -> int:
    """Lines that prose ``value`` takes at ``px`` in a block ``width`` wide (word wrap wastes up to a twentieth)."""
    return max(1, math.ceil(em(value) * px * 1.05 / width))


class Chunk(NamedTuple):
    """Part of one sentence on one screen: which sentence (0: the candidate, k: reference k), from and to which
    character (sentences step) or token (tokens step), and whether it continues one begun on an earlier screen."""

    sentence: int
    start: int
    end: int
    continued: bool = False


class Table(NamedTuple):
    """Rows ``start`` to ``end`` (exclusive) of an order's clipped-count table, the totals row being the last."""

    start: int
    end: int


@dataclass(frozen=True)
class Layout:
    """What each screen of the lecture shows where a step needs more than one."""

    sentences: tuple[tuple[Chunk, ...], ...]
    tokens: tuple[tuple[Chunk, ...], ...]
    tables: tuple[tuple[tuple[Table, ...], ...], ...]  # per order, per screen, the tables side by side


def pack(sizes: Sequence[float], room: float) -> list[list[int]]:
    """Consecutive items into screens of at most ``room`` (an item larger than a screen has one of its own)."""
    screens: list[list[int]] = [[]]
    used = 0.0
    for index, size in enumerate(sizes):
        if screens[-1] and used + size > room:
            screens.append([])
            used = 0.0
        screens[-1].append(index)
        used += size
    return screens


def split_units(units: Sequence[float], room: float) -> list[tuple[int, int]]:
    """Ranges of consecutive units (words, chips) whose summed widths stay within ``room`` each."""
    ranges, start, used = [], 0, 0.0
    for index, width in enumerate(units):
        if index > start and used + width > room:
            ranges.append((start, index))
            start, used = index, 0.0
        used += width
    ranges.append((start, len(units)))
    return ranges


def plan_sentences(trace: Explanation, lang: str) -> tuple[tuple[Chunk, ...], ...]:
    """The sentences step: whole sentences while they fit, a sentence longer than a screen in pieces."""
    settings = lines(settings_line(trace.options, lang), TEXT_PX) * LINE + ELEMENT_GAP
    space = room(text("present.sentences", lang), settings)
    label_em = em(text("present.reference", lang, k=9)) + 1
    blocks: list[tuple[Chunk, float]] = []
    for index, sentence in enumerate((trace.candidate, *trace.references)):
        words = sentence.split(" ")
        widths = [(em(word) + 0.25) * TEXT_PX for word in words]
        per_screen = max(1, int((space - ELEMENT_GAP) // LINE)) * WIDTH * 0.9
        offset = 0
        for k, (first, last) in enumerate(split_units(widths, per_screen)):
            piece = " ".join(words[first:last])
            height = flow_lines(widths[first:last], label_em * TEXT_PX) * LINE + ELEMENT_GAP
            start = sentence.index(piece, offset) if piece else offset
            blocks.append((Chunk(index, start, start + len(piece), k > 0), height))
            offset = start + len(piece)
    screens = pack([height for _, height in blocks], space)
    return tuple(tuple(blocks[i][0] for i in screen) for screen in screens)


def chip_width(token: str) -> float:
    return em(token, mono=True) * TEXT_PX + 14  # padding 5 px and margin 2 px on either side


def flow_lines(widths: Sequence[float], first: float) -> int:
    """Lines of words or chips that wrap at the screen's width, after a label ``first`` px wide."""
    count, used = 1, first
    for width in widths:
        if used + width > WIDTH and used > 0:
            count, used = count + 1, 0.0
        used += min(width, WIDTH)
        count += int(width // WIDTH) if width > WIDTH else 0
    return count


def plan_tokens(trace: Explanation, lang: str) -> tuple[tuple[Chunk, ...], ...]:
    """The tokens step: each sentence's chips while they fit, a sentence longer than a screen in pieces."""
    space = room(text("present.tokens", lang, c=9999))
    blocks: list[tuple[Chunk, float]] = []
    for index, tokens in enumerate((trace.candidate_tokens, *trace.reference_tokens)):
        name = text("present.candidate", lang) if index == 0 else views.ref_label(index - 1)
        label = (em(text("present.token_count", lang, label=name, count=len(tokens))) + 1) * TEXT_PX
        widths = [chip_width(token) for token in tokens]
        rows_per_screen = max(1, int((space - ELEMENT_GAP) // CHIP_LINE))
        ranges = [(0, len(tokens))]
        if flow_lines(widths, label) > rows_per_screen:  # a piece of at most a screen's rows
            ranges = split_units(widths, rows_per_screen * WIDTH * 0.85 - label)
        for k, (first, last) in enumerate(ranges):
            height = flow_lines(widths[first:last], label) * CHIP_LINE + ELEMENT_GAP
            blocks.append((Chunk(index, first, last, k > 0), height))
    screens = pack([height for _, height in blocks], space)
    return tuple(tuple(blocks[i][0] for i in screen) for screen in screens)


def count_cells(trace: Explanation, order: int, lang: str) -> pd.DataFrame:
    """An order's clipped-count table as text (short headers), its totals row last."""
    return views.order_table(trace.orders[order - 1], len(trace.references), lang, compact=True).astype(str)


class Widths(NamedTuple):
    """An order's table measured once: its number columns together, the widest n-gram column on a screen, the
    n-gram header, and each row's n-gram width and height (px)."""

    numbers: float
    widest: float
    header: float
    ngrams: tuple[float, ...]
    heights: tuple[float, ...]


def measure(frame: pd.DataFrame) -> Widths:
    numbers = sum(
        max(em(str(column)), *(em(value) for value in frame[column])) * TABLE_PX + CELL for column in frame.columns[1:]
    )
    widest = WIDTH - numbers - CELL  # the n-gram column of a table alone on the screen
    ngrams = tuple(em(value, mono=True) * TABLE_PX for value in frame.iloc[:, 0])
    heights = tuple(math.ceil(max(width, 1) / widest) * (ROW - 3) + 3 for width in ngrams)
    return Widths(numbers, widest, em(str(frame.columns[0])) * TABLE_PX, ngrams, heights)


def table_screens(sizes: Widths, space: float, cap: int) -> list[list[Table]]:
    """Consecutive rows into tables of at most ``cap`` rows within ``space`` px, side by side while the screen is
    wide enough (an n-gram wider than a screen wraps, its row taller)."""
    screens: list[list[Table]] = [[]]
    used, start, count = 0.0, 0, len(sizes.ngrams)
    while start < count:
        end, height, column = start, ROW, sizes.header
        while end < count and end - start < cap and (end == start or height + sizes.heights[end] <= space):
            height += sizes.heights[end]
            column = max(column, sizes.ngrams[end])
            end += 1
        width = min(column, sizes.widest) + CELL + sizes.numbers
        if screens[-1] and used + GAP + width > WIDTH:
            screens.append([])
            used = 0.0
        used += (GAP if screens[-1] else 0) + width
        screens[-1].append(Table(start, end))
        start = end
    return screens


def plan_tables(trace: Explanation, order: int, lang: str) -> tuple[tuple[Table, ...], ...]:
    """An order's table over as few screens as it needs, its rows spread evenly over them (no table of a row or
    two beside full ones)."""
    frame = count_cells(trace, order, lang)
    breakdown = trace.orders[order - 1]
    below = max(
        lines(walkthrough.precision_line(trace, breakdown).replace("**", ""), TEXT_PX),
        lines(text("present.table_continues", lang, shown=9999, rows=9999, n=order), TEXT_PX),
    )
    space = room(text("present.order_title", lang, n=order), ELEMENT_GAP + below * LINE)
    sizes = measure(frame)
    # every row count per table that fits the height: the fewest screens, then the smallest table fullest
    tallest = max(1, int((space - ROW) // ROW))
    options = [table_screens(sizes, space, cap) for cap in range(1, min(tallest, len(frame)) + 1)]
    best = min(options, key=lambda screens: (len(screens), -min(t.end - t.start for s in screens for t in s)))
    return tuple(tuple(screen) for screen in best)


@st.cache_data(max_entries=64, show_spinner=False)
def plan_cached(candidate: str, references: tuple[str, ...], options: BleuOptions, lang: str) -> Layout:
    """The layout of a text's lecture, kept: a long text takes a moment to plan, and every step asks for it."""
    return plan(cached.explain_cached(candidate, references, options), lang)


def plan(trace: Explanation, lang: str) -> Layout:
    return Layout(
        plan_sentences(trace, lang),
        plan_tokens(trace, lang),
        tuple(plan_tables(trace, o.order, lang) for o in trace.orders),
    )


class Step(NamedTuple):
    """One screen of the lecture: its kind, the n-gram order (0 where none applies) and, for a step longer than
    one screen, which part of it (1-based) of how many."""

    kind: str
    order: int = 0
    part: int = 1
    parts: int = 1


def steps(trace: Explanation, layout: Layout | None = None) -> list[Step]:
    """The steps of the lecture in order."""
    layout = layout or plan(trace, language())

    def parted(kind: str, count: int, order: int = 0) -> list[Step]:
        return [Step(kind, order, part, count) for part in range(1, count + 1)]

    tables = [
        step
        for o, screens in zip(trace.orders, layout.tables, strict=True)
        for step in parted("order", len(screens), o.order)
    ]
    return [
        *parted("sentences", len(layout.sentences)),
        *parted("tokens", len(layout.tokens)),
        *tables,
        *(Step(kind) for kind in ("precisions", "lengths", "bp", "logsum", "score")),
    ]


def step_name(step: Step) -> Message:
    if step.kind != "order":
        name = Message(f"present.step_{step.kind}")
        return (
            name
            if step.parts == 1
            else Message("present.more.step_part", {"name": name, "part": step.part, "parts": step.parts})
        )
    if step.parts > 1:
        return Message("present.step_order_part", {"n": step.order, "part": step.part, "parts": step.parts})
    return Message("present.step_order", {"n": step.order})


def settings_line(options: BleuOptions, lang: str) -> str:
    weights = ", ".join(f"{w:.3g}" for w in options.weights)
    return text(
        "present.settings",
        lang,
        max_n=options.max_order,
        weights=weights,
        tokenizer=text(f"settings.tok_{options.tokenize}", lang),
        smoothing=text(f"settings.smooth_{options.smooth.replace('-', '_')}", lang),
    )


def continued(label: str, chunk: Chunk) -> str:
    return t("present.more.continued", label=label) if chunk.continued else label


def show_sentences(trace: Explanation, chunks: Sequence[Chunk]) -> None:
    st.subheader(t("present.sentences"))
    sentences = (trace.candidate, *trace.references)
    for chunk in chunks:
        label = t("present.candidate") if chunk.sentence == 0 else t("present.reference", k=chunk.sentence)
        piece = sentences[chunk.sentence][chunk.start : chunk.end]
        st.markdown(f"**{continued(label, chunk)}:** {views.md_escape(piece)}")
    st.caption(settings_line(trace.options, language()))


def show_tokens(trace: Explanation, chunks: Sequence[Chunk]) -> None:
    """Token chips (HTML-escaped: no Markdown), a sentence longer than a screen over several steps."""
    lang = language()
    st.subheader(t("present.tokens", c=trace.length.candidate_length))
    token_lists = (trace.candidate_tokens, *trace.reference_tokens)
    for chunk in chunks:
        tokens = token_lists[chunk.sentence]
        name = t("present.candidate") if chunk.sentence == 0 else views.ref_label(chunk.sentence - 1)
        label = continued(t("present.token_count", label=name, count=len(tokens)), chunk)
        st.html(views.tokens_html(tokens[chunk.start : chunk.end], None, label, lang))


def counts_html(frame: pd.DataFrame, tables: Sequence[Table], marked: int | None = -1) -> str:
    """Tables side by side, every cell HTML-escaped text: an n-gram is shown as it is, whatever it holds
    (``-``, ``*``, ``#``, ``1.``, ``:smile:``, ``<b>``: st.table would read its cells as Markdown).  Row ``marked``
    is drawn bold under a rule: the totals row (the last, by default), the chosen row, or none (``None``)."""
    header = "".join(f"<th>{html.escape(str(column))}</th>" for column in frame.columns)
    bold = None if marked is None or frame.empty else marked % len(frame)
    parts = []
    for table in tables:
        rows = []
        for index in range(table.start, table.end):
            cells = [str(value) for value in frame.iloc[index]]
            tds = f'<td class="ngram">{html.escape(cells[0])}</td>' + "".join(
                f"<td>{html.escape(cell)}</td>" for cell in cells[1:]
            )
            rows.append(f'<tr class="total">{tds}</tr>' if index == bold else f"<tr>{tds}</tr>")
        parts.append(f"<table><thead><tr>{header}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return f'<div class="counts">{"".join(parts)}</div>'


def show_order(trace: Explanation, step: Step, screens: Sequence[Sequence[Table]]) -> None:
    """One screen of an order's clipped-count table; p_n under its last screen, "continues" under the others."""
    lang = language()
    order = trace.orders[step.order - 1]
    st.subheader(t("present.order_title", n=step.order))
    tables = screens[step.part - 1]
    st.html(counts_html(count_cells(trace, step.order, lang), tables))
    if step.part < step.parts:
        shown = min(tables[-1].end, len(order.rows))
        st.caption(t("present.table_continues", shown=shown, rows=len(order.rows), n=step.order))
    else:
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
    left, right = st.columns(2)
    left.metric(t("explain.metric_bleu"), f"{trace.score:.4f}")
    right.metric(t("explain.metric_bleu100"), f"{trace.score_100:.2f}")  # the number sacreBLEU prints


SHOW: dict[str, Callable[[Explanation], None]] = {
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


def enter(step_key: str) -> None:
    """Entering presentation mode (the toggle) starts the lecture at its first step."""
    st.session_state[step_key] = 1


def leave_button(present_key: str, where: Any = st) -> None:
    where.button(t("present.exit"), on_click=_leave, args=(present_key,))


def navigation(step_key: str, present_key: str, total: int) -> None:
    """Previous / next buttons (keys Left / Right), the step slider and the way out, in one row; two hidden
    buttons carry Page Up / Page Down (a button has one shortcut), which a presenter's clicker sends."""
    ss = st.session_state
    first, last = ss[step_key] <= 1, ss[step_key] >= total
    back = {"on_click": _move, "args": (step_key, -1, total), "disabled": first}
    forward = {"on_click": _move, "args": (step_key, 1, total), "disabled": last}
    cols = st.columns([1.5, 1.5, 3.8, 2])
    # (no tooltips: after a click the pointer rests on the button, and its tooltip covered the projected slide;
    # the keys are in the presentation switch's help)
    cols[0].button(t("present.previous"), shortcut="Left", **back)
    cols[1].button(t("present.next"), shortcut="Right", **forward)
    cols[2].slider(t("present.step"), 1, total, key=step_key, label_visibility="collapsed")
    leave_button(present_key, cols[3])
    cols[3].button(t("present.previous"), key=PAGE_UP, shortcut="PageUp", **back)
    cols[3].button(t("present.next"), key=PAGE_DOWN, shortcut="PageDown", **forward)


def render(candidate: str, references: list[str], options: BleuOptions, step_key: str, present_key: str) -> None:
    """The current step of the walkthrough of ``candidate``; ``step_key`` holds the 1-based step."""
    st.html(CSS)
    try:
        trace = cached.explain_cached(candidate, tuple(references), options)
    except (ValueError, TypeError) as error:
        st.error(t("explain.cannot_score", error=error))
        return
    layout = plan_cached(candidate, tuple(references), options, language())
    lecture = steps(trace, layout)
    ss = st.session_state
    ss[step_key] = min(max(1, int(ss.get(step_key, 1))), len(lecture))
    step = lecture[ss[step_key] - 1]
    st.caption(t("present.step_of", step=ss[step_key], total=len(lecture), name=step_name(step).render(language())))
    if trace.cut is not None:  # past the walkthrough's limits: the steps show a preview and the counts that count
        st.caption(walkthrough.cut_notice(trace))
    if step.kind == "sentences":
        show_sentences(trace, layout.sentences[step.part - 1])
    elif step.kind == "tokens":
        show_tokens(trace, layout.tokens[step.part - 1])
    elif step.kind == "order":
        show_order(trace, step, layout.tables[step.order - 1])
    else:
        SHOW[step.kind](trace)
    navigation(step_key, present_key, len(lecture))
