"""DataFrame, chart, HTML and text builders for the pages; no Streamlit calls, so tests use them directly.

Every piece of user text that ends up in HTML or Markdown goes through :func:`html.escape` or
:func:`md_escape` here.
"""

from __future__ import annotations

import html
import math
import re

import altair as alt
import pandas as pd

from bleu_core.i18n import Message, text
from bleu_core.limits import LIMITS
from bleu_core.teach.explain import Explanation, OrderBreakdown

#: The tick that marks a smoothed precision on the precision chart.
SMOOTHED_COLOR = "#c77700"
STATUS_COLORS = {"matched": "#1b7f3b", "clipped": "#c77700", "unmatched": "#b3261e"}
#: Punctuation that starts or ends Markdown, GFM, LaTeX ($) or Streamlit (``:red[…]``, directives) syntax.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:])")
#: CommonMark's line endings (a lone CR is one): inside one message they would start blocks (lists, headings).
_LINE_END = re.compile(r"\r\n?|\n")
#: Where GFM turns plain text into a link (autolink literals: ``https://…``, ``www.…``, ``a@b.c``).  Streamlit's
#: renderer finds them in the text after backslashes are resolved, so escaping cannot stop them; an invisible
#: word joiner (U+2060) after the colon of ``://``, between ``www`` and its dot, and after ``@`` does.
_AUTOLINK = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?<=@)", re.IGNORECASE)
WORD_JOINER = "\u2060"


def status_help(status: str, lang: str = "en") -> str:
    """What a colour means, for a tooltip."""
    return text(f"explain.status_{status}", lang) if status in STATUS_COLORS else ""


def md_escape(text: str) -> str:
    """User text (or a name) made inert in Markdown, the one escape for every Markdown element of the pages.

    Line endings (CR, LF, CRLF) become spaces; ``&``, ``<`` and ``>`` become entities; every punctuation mark
    that Markdown, GFM, LaTeX or Streamlit give a meaning is backslashed (so list markers, headings, links,
    images, emphasis, tables, math and colour directives stay text); autolink literals are broken by an invisible
    word joiner.  Quotes stay as they are (an entity such as ``&#x27;`` would have its ``#`` backslashed).
    """
    flat = _AUTOLINK.sub(WORD_JOINER, _LINE_END.sub(" ", text))
    return _MD_SPECIAL.sub(r"\\\1", html.escape(flat, quote=False))


def echo(value: str, limit: int = LIMITS.echo_chars) -> Message:
    """A rejected value as a message quotes it: its first ``limit`` characters in Python's quoting (control
    characters as escapes), Markdown-escaped, and how long it was when cut."""
    shown = md_escape(repr(value[:limit]))
    if len(value) <= limit:
        return Message("common.echo", {"value": shown})
    return Message("common.echo_cut", {"value": shown, "length": len(value)})


def shown_text(line: str, lang: str = "en", limit: int = LIMITS.shown_chars) -> str:
    """A segment's text as a page prints it: whole, or its first ``limit`` characters and how many more there are."""
    if len(line) <= limit:
        return line
    return text("limits.text_cut", lang, text=line[:limit], more=len(line) - limit)


def fmt(value: float, digits: int = 4) -> str:
    """A number for people: -inf as −∞, otherwise rounded."""
    if math.isinf(value):
        return "−∞" if value < 0 else "∞"
    return f"{value:.{digits}f}"


def signed(value: float, digits: int = 3) -> str:
    """A change with its sign (+0.125, −0.020); one that rounds to zero is 0.000, not −0.000."""
    rounded = round(value, digits)
    return f"{0.0:.{digits}f}" if rounded == 0 else f"{rounded:+.{digits}f}"


def ref_label(index: int) -> str:
    return f"r{index + 1}"


def order_table(order: OrderBreakdown, n_refs: int, lang: str = "en", compact: bool = False) -> pd.DataFrame:
    """The textbook clipped-count table of one order, with a totals row (``compact``: short headers)."""
    ngram = text("explain.col_ngram", lang)
    cand = text("present.col_candidate" if compact else "explain.col_candidate", lang)
    refs = [ref_label(k) if compact else text("explain.col_reference", lang, ref=ref_label(k)) for k in range(n_refs)]
    top = text("present.col_max" if compact else "explain.col_max", lang)
    clipped = text("present.col_clipped" if compact else "explain.col_clipped", lang)
    rows = []
    for row in order.rows:
        record: dict[str, object] = {ngram: row.text, cand: row.candidate_count}
        for k, count in enumerate(row.reference_counts):
            record[refs[k]] = count
        record[top] = row.max_reference_count
        record[clipped] = row.clipped
        rows.append(record)
    total: dict[str, object] = {ngram: text("explain.total_row", lang), cand: order.total}
    for k in range(n_refs):
        total[refs[k]] = sum(r.reference_counts[k] for r in order.rows)
    total[top] = sum(r.max_reference_count for r in order.rows)
    total[clipped] = order.matches
    return pd.DataFrame([*rows, total], columns=[ngram, cand, *refs, top, clipped])


def precision_frame(explanation: Explanation) -> pd.DataFrame:
    """One row per order: fraction, precision before and after smoothing, weight and log term."""
    return pd.DataFrame(
        {
            "order": [o.order for o in explanation.orders],
            "n": [str(o.order) for o in explanation.orders],
            "fraction": [o.fraction for o in explanation.orders],
            "p_n (unsmoothed)": [o.raw_precision for o in explanation.orders],
            "p_n (used)": [o.precision for o in explanation.orders],
            "smoothed": [o.smoothed for o in explanation.orders],
            "weight": [o.weight for o in explanation.orders],
            "w·log p": [o.log_term for o in explanation.orders],
        }
    )


#: Characters of a chart title's line (a CJK character counts two): a half-width chart at 1280x720 is about
#: 370 px wide, and Vega cuts a longer title with "…".
TITLE_CHARS = 44
#: The precision chart's y axis ends above 1 so that a fraction over a full bar (43/43) has room under the top edge
#: (at 1.1 the projector's 20 px label touched it).
PRECISION_TOP = 1.2


def _width(text: str) -> int:
    return sum(2 if ord(c) >= 0x2E80 else 1 for c in text)


def _wrap(text: str, limit: int) -> list[str]:
    """Greedy lines of words (a CJK character is a word; closing marks stay with the character before)."""
    words = re.findall(r"[\u2e80-\uffef][，。、；：）」』》]*\s*|[^\s\u2e80-\uffef]+\s*", text)
    lines: list[str] = []
    line = ""
    for word in words:
        if line and _width(line + word.rstrip()) > limit:
            lines.append(line.rstrip())
            line = ""
        line += word
    return [*lines, line.rstrip()]


def _balanced(text: str, limit: int) -> list[str]:
    """:func:`_wrap`'s number of lines, as even as they can be: "… one setting at a" over "time" became
    "From sacreBLEU to NLTK," over "one setting at a time"."""
    lines = _wrap(text, limit)
    for narrower in range(math.ceil(_width(text) / len(lines)), limit) if len(lines) > 1 else ():
        if len(even := _wrap(text, narrower)) == len(lines):
            return even
    return lines


def title_lines(title: str, limit: int = TITLE_CHARS) -> list[str]:
    """``title`` broken into lines of at most ``limit`` characters (Vega-Lite draws a list as lines): before a
    bracketed part first, then between words or CJK characters; a word longer than a line stays whole."""
    lines: list[str] = []
    closing = re.search(r"\s*([(（][^()（）]*[)）])$", title.strip())  # a bracketed ending: "… (red: costs the most)"
    parts = [title.strip()[: closing.start()], closing.group(1)] if closing and closing.start() else [title.strip()]
    for part in parts:
        if lines and _width(lines[-1] + " " + part) <= limit:
            lines[-1] += ("" if part.startswith("（") else " ") + part
        else:
            lines += _balanced(part, limit)
    return [line for line in lines if line]


def chart_title(title: str, note: str = "", limit: int = TITLE_CHARS) -> alt.TitleParams:
    """A chart title that is never cut: its first line as the title, the rest of it and ``note`` as subtitle
    lines (Vega clips the first line of a title given as several lines at the top of the chart)."""
    lines = title_lines(title, limit)
    return alt.TitleParams(
        lines[0] if lines else "", subtitle=[*lines[1:], *(title_lines(note, limit) if note else [])]
    )


def _styled(chart: alt.LayerChart, large: bool) -> alt.LayerChart:
    """Horizontal axis labels always; projector sizes (>= 18 px) in presentation mode."""
    size = 20 if large else 12
    styled = chart.configure_axis(labelAngle=0, labelFontSize=size, titleFontSize=size, labelOverlap=True)
    if large:  # the y title horizontal, above the axis: nothing to read sideways on a projector
        styled = styled.configure_axisY(titleAngle=0, titleAlign="left", titleBaseline="bottom", titleX=-40, titleY=-12)
    return styled.configure_title(fontSize=size + 4)


def precision_chart(explanation: Explanation, lang: str = "en", large: bool = False) -> alt.LayerChart:
    """Bars of the modified precisions p_n per order, labelled with the fraction (p_n = matches / total).

    A bar is as tall as its label says (``0/5`` draws nothing); where smoothing changed an order, an orange tick
    marks the smoothed value the score uses, and the subtitle says so.
    """
    frame = precision_frame(explanation)
    frame["label"] = list(frame["fraction"])
    frame["smoothed value"] = [
        o.precision if o.smoothed and not explanation.no_unigram_match else None for o in explanation.orders
    ]
    order_axis = alt.X("n:N", title=text("explain.chart_order", lang), sort=list(frame["n"]))
    y = alt.Y(
        "p_n (unsmoothed):Q",
        title=text("explain.chart_precision", lang),
        scale=alt.Scale(domain=[0, PRECISION_TOP]),
        axis=alt.Axis(values=[0, 0.2, 0.4, 0.6, 0.8, 1.0]),
    )
    base = alt.Chart(frame).encode(
        x=order_axis,
        y=y,
        tooltip=[
            "n",
            "fraction",
            alt.Tooltip("p_n (unsmoothed):Q", format=".4f"),
            alt.Tooltip("p_n (used):Q", format=".4f"),
            alt.Tooltip("weight:Q", format=".3f"),
        ],
    )
    bars = base.mark_bar(color="#3b6ea8")
    # each fraction above its bar, or above the smoothed tick where there is one
    frame["label height"] = [
        max(p, s or 0.0) for p, s in zip(frame["p_n (unsmoothed)"], frame["smoothed value"], strict=True)
    ]
    labels = base.mark_text(dy=-12 if large else -8, fontSize=20 if large else 11).encode(
        y=alt.Y("label height:Q", scale=alt.Scale(domain=[0, PRECISION_TOP])), text="label:N"
    )
    layers = [bars, labels]
    smoothed = [o for o in explanation.orders if o.smoothed] if not explanation.no_unigram_match else []
    if smoothed:
        ticks = (
            alt.Chart(frame)
            .transform_filter("isValid(datum['smoothed value'])")
            .mark_tick(color=SMOOTHED_COLOR, thickness=3, size=40 if large else 28)
            .encode(
                x=order_axis,
                y=alt.Y("smoothed value:Q", scale=alt.Scale(domain=[0, PRECISION_TOP])),
                tooltip=["n", alt.Tooltip("smoothed value:Q", format=".4f")],
            )
        )
        layers.append(ticks)
    chart: alt.LayerChart = alt.LayerChart(layer=layers).properties(height=360 if large else 260)
    note = text("fit.smoothed_tick", lang, method=explanation.options.smooth) if smoothed else ""
    # on the projector the step's heading names the chart; the smoothing note stays
    title = "" if large else text("explain.chart_precisions", lang)
    if title:
        chart = chart.properties(title=chart_title(title, note))
    elif note:
        chart = chart.properties(title=chart_title(note, limit=2 * TITLE_CHARS))
    return _styled(chart, large)


def contribution_frame(explanation: Explanation) -> pd.DataFrame:
    """The terms that add up to log BLEU: w_n·log p_n per order and log BP (−∞ shown as a floor)."""
    names = [str(o.order) for o in explanation.orders] + ["BP"]
    values = [o.log_term for o in explanation.orders] + [explanation.log_bp]
    return pd.DataFrame({"term": names, "value": values, "shown": [v if math.isfinite(v) else -10.0 for v in values]})


def contribution_chart(explanation: Explanation, lang: str = "en", large: bool = False) -> alt.LayerChart:
    """Bars of w_n·log p_n per order and log BP; −∞ is drawn as a red bar at −10."""
    frame = contribution_frame(explanation)
    frame["is_infinite"] = [not math.isfinite(v) for v in frame["value"]]
    frame["label"] = [fmt(v, 3) for v in frame["value"]]
    base = alt.Chart(frame).encode(
        # an explicit order: with sort=None Vega keeps the order values first appeared in, and a chart updated in
        # place from 3 orders to 4 read "1 2 3 BP 4"
        x=alt.X("term:N", sort=list(frame["term"]), title=text("explain.chart_term", lang)),
        y=alt.Y("shown:Q", title=text("explain.chart_contribution", lang)),
        tooltip=["term", "label"],
    )
    bars = base.mark_bar().encode(
        color=alt.condition("datum.is_infinite", alt.value("#b3261e"), alt.value("#7a5195")),
    )
    labels = base.mark_text(dy=12 if large else 10, color="black", fontSize=18 if large else 11).encode(text="label:N")
    title = text("explain.chart_contributions", lang)
    chart = (bars + labels).properties(height=380 if large else 260, title=chart_title(title))
    return _styled(chart, large)


def length_frame(explanation: Explanation, lang: str = "en") -> pd.DataFrame:
    choice = explanation.length
    return pd.DataFrame(
        {
            text("explain.col_reference_name", lang): [ref_label(i) for i in range(len(choice.reference_lengths))],
            text("explain.col_length", lang): list(choice.reference_lengths),
            text("explain.col_difference", lang): list(choice.differences),
            text("explain.col_chosen", lang): [
                "✔" if i == choice.chosen_index else "" for i in range(len(choice.reference_lengths))
            ],
        }
    )


def bp_latex(explanation: Explanation) -> str:
    c, r = explanation.length.candidate_length, explanation.length.chosen_length
    if c > r:
        return rf"c = {c} > r = {r} \Rightarrow \mathrm{{BP}} = 1"
    if c == 0:
        return r"c = 0 \Rightarrow \mathrm{BP} = 0"
    if c == r:
        return rf"c = r = {c} \Rightarrow \mathrm{{BP}} = e^{{1 - {r}/{c}}} = 1"
    return rf"c = {c} \le r = {r} \Rightarrow \mathrm{{BP}} = e^{{1 - r/c}} = e^{{1 - {r}/{c}}} = {explanation.bp:.4f}"


def used_orders(explanation: Explanation) -> list[OrderBreakdown]:
    """The orders that enter the sum (positive weight)."""
    return [o for o in explanation.orders if o.weight > 0]


def log_sum(explanation: Explanation) -> float:
    """Σ w_n log p_n over the orders used (−∞ when one of them is 0)."""
    return math.fsum(o.log_term for o in used_orders(explanation)) if explanation.used_orders else 0.0


def log_sum_terms(explanation: Explanation) -> str:
    """The sum written out with numbers: ``0.333·(−0.511) + 0.333·(−0.693) + …``."""
    terms = [
        f"{o.weight:.3g}·({fmt(math.log(o.precision) if o.precision > 0 else -math.inf, 3)})"
        for o in used_orders(explanation)
    ]
    return " + ".join(terms) or "0"


def score_latex(explanation: Explanation) -> str:
    """The final formula with every number substituted, broken into lines of three terms (max n = 8 fits)."""
    if explanation.no_unigram_match:
        return r"\mathrm{BLEU} = 0 \quad (p_1 = 0)"
    terms = []
    for o in used_orders(explanation):
        p = rf"\tfrac{{{o.smoothed_matches:g}}}{{{o.smoothed_total:g}}}" if o.smoothed_total else "0"
        terms.append(rf"{o.weight:.3g}\log {p}")
    rows = [" + ".join(terms[i : i + 3]) for i in range(0, len(terms), 3)] or ["0"]
    inner = r" \\ &\quad + ".join(rows)
    return (
        r"\begin{aligned}\mathrm{BLEU} &= \mathrm{BP}\cdot\exp\Big(\sum_n w_n \log p_n\Big) \\ "
        rf"&= {explanation.bp:.4f}\cdot\exp\big( {inner} \big) \\ &= {explanation.score:.4f}\end{{aligned}}"
    )


def tokens_html(tokens: tuple[str, ...], marks: dict[int, str] | None = None, title: str = "", lang: str = "en") -> str:
    """Tokens as escaped chips; ``marks`` colours some positions by status."""
    marks = marks or {}
    chips = []
    for i, token in enumerate(tokens):
        status = marks.get(i)
        color = STATUS_COLORS.get(status or "", "#e8e8e8")
        fg = "white" if status else "#222"
        chips.append(
            f'<span class="tok" title="{html.escape(status_help(status or "", lang), quote=True)}" '
            f'style="background:{color};color:{fg};padding:1px 5px;margin:2px;border-radius:4px;'
            f'display:inline-block;font-family:monospace">{html.escape(token)}</span>'
        )
    label = f"<b>{html.escape(title)}</b> " if title else ""
    empty = f"<i>{html.escape(text('explain.no_tokens', lang))}</i>"
    return f'<div class="tokens" style="line-height:2">{label}{"".join(chips) or empty}</div>'


def ngram_chips_html(order: OrderBreakdown, lang: str = "en") -> str:
    """Each candidate n-gram occurrence coloured by what clipping made of it, with its supplying reference."""
    chips = []
    for span in order.spans:
        color = STATUS_COLORS[span.status]
        source = ""
        if span.best_reference is not None:
            source = " — " + text("explain.max_from", lang, ref=ref_label(span.best_reference))
        tip = html.escape(status_help(span.status, lang) + source, quote=True)
        chips.append(
            f'<span class="ngram {span.status}" title="{tip}" style="border:2px solid {color};color:{color};'
            f'padding:1px 6px;margin:2px;border-radius:6px;display:inline-block;font-family:monospace">'
            f"{html.escape(' '.join(span.ngram))}"
            f"{'<sup>' + ref_label(span.best_reference) + '</sup>' if span.best_reference is not None else ''}"
            "</span>"
        )
    empty = f"<i>{html.escape(text('explain.no_ngrams', lang))}</i>"
    return f'<div class="ngrams" style="line-height:2.2">{"".join(chips) or empty}</div>'


def candidate_marks(order: OrderBreakdown) -> dict[int, str]:
    """Status per candidate token position: a token takes the best status of the n-grams covering it."""
    rank = {"matched": 3, "clipped": 2, "unmatched": 1}
    marks: dict[int, str] = {}
    for span in order.spans:
        for i in range(span.start, span.start + order.order):
            if rank[span.status] > rank.get(marks.get(i, ""), 0):
                marks[i] = span.status
    return marks


def reference_marks(explanation: Explanation, order: OrderBreakdown, k: int) -> dict[int, str]:
    """Positions of reference k covered by the occurrences that the clipped counts use.

    An n-gram clipped to m counts at most m occurrences, so only the first m of reference k are coloured
    (``the`` counted twice is green twice, however often reference k repeats it).
    """
    budget = {row.ngram: row.clipped for row in order.rows if row.clipped > 0}
    tokens = explanation.reference_tokens[k]
    n = order.order
    marks = {}
    for start in range(len(tokens) - n + 1):
        ngram = tuple(tokens[start : start + n])
        if budget.get(ngram, 0) > 0:
            budget[ngram] -= 1
            for i in range(start, start + n):
                marks[i] = "matched"
    return marks


def markdown_report(explanation: Explanation, lang: str = "en") -> str:
    """The whole worked example as Markdown in ``lang`` (user text escaped)."""
    o = explanation.options

    def say(key: str, **params: object) -> str:
        return text(f"explain.report_{key}", lang, **params)

    lines = [f"# {say('title')}", "", f"**{say('candidate')}:** {md_escape(explanation.candidate)}", ""]
    lines += [f"**{say('reference', k=k + 1)}:** {md_escape(ref)}  " for k, ref in enumerate(explanation.references)]
    settings = say(
        "settings",
        max_n=o.max_order,
        weights=", ".join(f"{w:.3g}" for w in o.weights),
        tokenizer=o.tokenize,
        lowercase=int(o.lowercase),
        smoothing=o.smooth,
        effective=int(o.effective_order),
    )
    lines += ["", settings, "", f"## {say('tokens')}", ""]
    lines.append(
        f"- {say('candidate')} ({len(explanation.candidate_tokens)}): "
        f"{md_escape(' '.join(explanation.candidate_tokens))}"
    )
    lines += [
        f"- {ref_label(k)} ({len(tokens)}): {md_escape(' '.join(tokens))}"
        for k, tokens in enumerate(explanation.reference_tokens)
    ]
    for order in explanation.orders:
        table = order_table(order, len(explanation.references), lang)
        heading = text("explain.order_tab", lang, n=order.order)
        value = f" = {fmt(order.raw_precision)}" if order.total else ""  # 0/0 is no number
        lines += ["", f"## {heading}: p{order.order} = {order.fraction}{value}", ""]
        lines.append("| " + " | ".join(table.columns) + " |")
        lines.append("|" + "---|" * len(table.columns))
        for record in table.itertuples(index=False):
            lines.append("| " + " | ".join(md_escape(str(v)) for v in record) + " |")
        if order.smoothed and not explanation.no_unigram_match:
            fraction = f"{order.smoothed_matches:g}/{order.smoothed_total:g}"
            lines.append(
                "\n"
                + text("explain.smoothed_line", lang, method=o.smooth, fraction=fraction, value=fmt(order.precision))
            )
    if explanation.no_unigram_match:
        lines += ["", text("explain.early_return", lang)]
    choice = explanation.length
    lengths = ", ".join(
        f"{ref_label(i)} = {r} (|r − c| = {d})"
        for i, (r, d) in enumerate(zip(choice.reference_lengths, choice.differences, strict=True))
    )
    lines += [
        "",
        f"## {text('explain.brevity', lang)}",
        "",
        say("lengths", c=choice.candidate_length, lengths=lengths),
        "",
        f"{choice.reason_message.render(lang)}. BP = {fmt(explanation.bp)}.",
        "",
        f"## {text('explain.score', lang)}",
        "",
    ]
    if not explanation.no_unigram_match:  # sacreBLEU computes no log terms then
        lines += [
            "log BLEU = " + " + ".join(f"{fmt(x.weight, 3)}·log p{x.order}" for x in explanation.orders) + " + log BP",
            "",
            say("terms", terms=", ".join(fmt(x.log_term) for x in explanation.orders), log_bp=fmt(explanation.log_bp)),
            "",
        ]
    lines += [
        say(
            "final",
            score=f"{explanation.score:.4f}",
            score100=f"{explanation.score_100:.2f}",
            without=f"{explanation.score_without_bp:.4f}",
        ),
        "",
    ]
    return "\n".join(lines)


#: A cell a spreadsheet reads as a plain number; it cannot call anything, so it is written as it is.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
#: First characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value: object) -> object:
    """A text cell that a spreadsheet would read as a formula (it starts with =, +, -, @, a tab or a carriage
    return), with a ``'`` in front; numbers, and text that is only a number (``-0.5``), as they are."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def frame_csv(frame: pd.DataFrame) -> str:
    """CSV of a frame whose text cells (and column names) may hold user text."""
    safe = frame.copy()
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = safe[column].map(csv_safe)
    safe.columns = [csv_safe(column) for column in safe.columns]
    return safe.to_csv(index=False)


def tables_csv(explanation: Explanation, lang: str = "en") -> str:
    """All clipped-count tables in one CSV (an ``order`` column tells them apart)."""
    frames = []
    for order in explanation.orders:
        table = order_table(order, len(explanation.references), lang)
        table.insert(0, "order", order.order)
        frames.append(table)
    return frame_csv(pd.concat(frames, ignore_index=True))
