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

from bleu_core.explain import Explanation, OrderBreakdown

STATUS_COLORS = {"matched": "#1b7f3b", "clipped": "#c77700", "unmatched": "#b3261e"}
STATUS_HELP = {
    "matched": "matched (counted)",
    "clipped": "clipped away: more occurrences than any single reference has",
    "unmatched": "in no reference",
}
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>$])")


def md_escape(text: str) -> str:
    """User text made inert in Markdown: HTML escaped, Markdown and LaTeX punctuation backslashed."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False)).replace("\n", " ")


def fmt(value: float, digits: int = 4) -> str:
    """A number for people: -inf as −∞, otherwise rounded."""
    if math.isinf(value):
        return "−∞" if value < 0 else "∞"
    return f"{value:.{digits}f}"


def ref_label(index: int) -> str:
    return f"r{index + 1}"


def order_table(order: OrderBreakdown, n_refs: int) -> pd.DataFrame:
    """The textbook clipped-count table of one order, with a totals row."""
    rows = []
    for row in order.rows:
        record: dict[str, object] = {"n-gram": row.text, "count in candidate": row.candidate_count}
        for k, count in enumerate(row.reference_counts):
            record[f"count in {ref_label(k)}"] = count
        record["max over references"] = row.max_reference_count
        record["clipped"] = row.clipped
        rows.append(record)
    total: dict[str, object] = {"n-gram": "total", "count in candidate": order.total}
    for k in range(n_refs):
        total[f"count in {ref_label(k)}"] = sum(r.reference_counts[k] for r in order.rows)
    total["max over references"] = sum(r.max_reference_count for r in order.rows)
    total["clipped"] = order.matches
    columns = ["n-gram", "count in candidate", *[f"count in {ref_label(k)}" for k in range(n_refs)]]
    return pd.DataFrame([*rows, total], columns=[*columns, "max over references", "clipped"])


def precision_frame(explanation: Explanation) -> pd.DataFrame:
    """One row per order: fraction, precision before and after smoothing, weight and log term."""
    return pd.DataFrame(
        {
            "order": [o.order for o in explanation.orders],
            "n": [f"{o.order}-gram" for o in explanation.orders],
            "fraction": [o.fraction for o in explanation.orders],
            "p_n (unsmoothed)": [o.raw_precision for o in explanation.orders],
            "p_n (used)": [o.precision for o in explanation.orders],
            "smoothed": [o.smoothed for o in explanation.orders],
            "weight": [o.weight for o in explanation.orders],
            "w·log p": [o.log_term for o in explanation.orders],
        }
    )


def precision_chart(explanation: Explanation) -> alt.Chart:
    """Bars of p_n per order; the label shows the fraction and the weight."""
    frame = precision_frame(explanation)
    frame["label"] = [f"{f} (w={w:.2f})" for f, w in zip(frame["fraction"], frame["weight"], strict=True)]
    base = alt.Chart(frame).encode(
        x=alt.X("n:N", title="order", sort=None),
        y=alt.Y("p_n (used):Q", title="precision p_n", scale=alt.Scale(domain=[0, 1])),
        tooltip=["n", "fraction", alt.Tooltip("p_n (used):Q", format=".4f"), alt.Tooltip("weight:Q", format=".3f")],
    )
    bars = base.mark_bar(color="#3b6ea8")
    text = base.mark_text(dy=-8).encode(text="label:N")
    return (bars + text).properties(height=260, title="Modified n-gram precisions")


def contribution_frame(explanation: Explanation) -> pd.DataFrame:
    """The terms that add up to log BLEU: w_n·log p_n per order and log BP (−∞ shown as a floor)."""
    names = [f"w{o.order}·log p{o.order}" for o in explanation.orders] + ["log BP"]
    values = [o.log_term for o in explanation.orders] + [explanation.log_bp]
    return pd.DataFrame({"term": names, "value": values, "shown": [v if math.isfinite(v) else -10.0 for v in values]})


def contribution_chart(explanation: Explanation) -> alt.Chart:
    frame = contribution_frame(explanation)
    frame["is_infinite"] = [not math.isfinite(v) for v in frame["value"]]
    frame["label"] = [fmt(v, 3) for v in frame["value"]]
    base = alt.Chart(frame).encode(
        x=alt.X("term:N", sort=None, title=None),
        y=alt.Y("shown:Q", title="contribution to log BLEU"),
        tooltip=["term", "label"],
    )
    bars = base.mark_bar().encode(
        color=alt.condition("datum.is_infinite", alt.value("#b3261e"), alt.value("#7a5195")),
    )
    text = base.mark_text(dy=10, color="black").encode(text="label:N")
    return (bars + text).properties(height=260, title="log BLEU = Σ w_n log p_n + log BP")


def length_frame(explanation: Explanation) -> pd.DataFrame:
    choice = explanation.length
    return pd.DataFrame(
        {
            "reference": [ref_label(i) for i in range(len(choice.reference_lengths))],
            "length r": list(choice.reference_lengths),
            "|r − c|": list(choice.differences),
            "chosen": ["✔" if i == choice.chosen_index else "" for i in range(len(choice.reference_lengths))],
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


def score_latex(explanation: Explanation) -> str:
    """The final formula with every number substituted."""
    terms = []
    for o in explanation.orders:
        if o.weight == 0:
            continue
        p = rf"\tfrac{{{o.smoothed_matches:g}}}{{{o.smoothed_total:g}}}" if o.smoothed_total else "0"
        terms.append(rf"{o.weight:.3g}\log {p}")
    inner = " + ".join(terms) if terms else "0"
    return (
        rf"\mathrm{{BLEU}} = \mathrm{{BP}}\cdot\exp\Big(\sum_n w_n \log p_n\Big) = {explanation.bp:.4f}"
        rf"\cdot\exp\big({inner}\big) = {explanation.score:.4f}"
    )


def tokens_html(tokens: tuple[str, ...], marks: dict[int, str] | None = None, title: str = "") -> str:
    """Tokens as escaped chips; ``marks`` colours some positions by status."""
    marks = marks or {}
    chips = []
    for i, token in enumerate(tokens):
        status = marks.get(i)
        color = STATUS_COLORS.get(status or "", "#e8e8e8")
        fg = "white" if status else "#222"
        chips.append(
            f'<span class="tok" title="{html.escape(STATUS_HELP.get(status or "", ""), quote=True)}" '
            f'style="background:{color};color:{fg};padding:1px 5px;margin:2px;border-radius:4px;'
            f'display:inline-block;font-family:monospace">{html.escape(token)}</span>'
        )
    label = f"<b>{html.escape(title)}</b> " if title else ""
    return f'<div style="line-height:2">{label}{"".join(chips) or "<i>(no tokens)</i>"}</div>'


def ngram_chips_html(order: OrderBreakdown) -> str:
    """Each candidate n-gram occurrence coloured by what clipping made of it, with its supplying reference."""
    chips = []
    for span in order.spans:
        color = STATUS_COLORS[span.status]
        source = f" — max count from {ref_label(span.best_reference)}" if span.best_reference is not None else ""
        tip = html.escape(STATUS_HELP[span.status] + source, quote=True)
        chips.append(
            f'<span class="ngram {span.status}" title="{tip}" style="border:2px solid {color};color:{color};'
            f'padding:1px 6px;margin:2px;border-radius:6px;display:inline-block;font-family:monospace">'
            f"{html.escape(' '.join(span.ngram))}"
            f"{'<sup>' + ref_label(span.best_reference) + '</sup>' if span.best_reference is not None else ''}"
            "</span>"
        )
    return f'<div style="line-height:2.2">{"".join(chips) or "<i>(no n-grams of this order)</i>"}</div>'


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
    """Positions of reference k covered by an n-gram that the candidate matched."""
    matched = {row.ngram for row in order.rows if row.clipped > 0}
    tokens = explanation.reference_tokens[k]
    n = order.order
    marks = {}
    for start in range(len(tokens) - n + 1):
        if tuple(tokens[start : start + n]) in matched:
            for i in range(start, start + n):
                marks[i] = "matched"
    return marks


def markdown_report(explanation: Explanation) -> str:
    """The whole worked example as Markdown (user text escaped)."""
    o = explanation.options
    lines = [
        "# BLEU walkthrough",
        "",
        f"**Candidate:** {md_escape(explanation.candidate)}",
        "",
    ]
    lines += [f"**Reference {k + 1}:** {md_escape(ref)}  " for k, ref in enumerate(explanation.references)]
    lines += [
        "",
        f"Settings: max n = {o.max_order}, weights = {', '.join(f'{w:.3g}' for w in o.weights)}, "
        f"tokenizer = {o.tokenize}, lowercase = {o.lowercase}, smoothing = {o.smooth}, "
        f"effective order = {o.effective_order}.",
        "",
        "## Tokens",
        "",
        f"- candidate ({len(explanation.candidate_tokens)}): {md_escape(' '.join(explanation.candidate_tokens))}",
    ]
    lines += [
        f"- {ref_label(k)} ({len(tokens)}): {md_escape(' '.join(tokens))}"
        for k, tokens in enumerate(explanation.reference_tokens)
    ]
    for order in explanation.orders:
        table = order_table(order, len(explanation.references))
        lines += ["", f"## {order.order}-grams: p{order.order} = {order.fraction} = {fmt(order.raw_precision)}", ""]
        lines.append("| " + " | ".join(table.columns) + " |")
        lines.append("|" + "---|" * len(table.columns))
        for record in table.itertuples(index=False):
            lines.append("| " + " | ".join(md_escape(str(v)) for v in record) + " |")
        if order.smoothed:
            lines.append(
                f"\nSmoothed ({o.smooth}): {order.smoothed_matches:g}/{order.smoothed_total:g} = {fmt(order.precision)}"
            )
    choice = explanation.length
    lines += [
        "",
        "## Brevity penalty",
        "",
        f"c = {choice.candidate_length}; reference lengths: "
        + ", ".join(
            f"{ref_label(i)} = {r} (|r − c| = {d})"
            for i, (r, d) in enumerate(zip(choice.reference_lengths, choice.differences, strict=True))
        ),
        "",
        f"{choice.reason}. BP = {fmt(explanation.bp)}.",
        "",
        "## Score",
        "",
        "log BLEU = " + " + ".join(f"{fmt(x.weight, 3)}·log p{x.order}" for x in explanation.orders) + " + log BP",
        "",
        "terms: "
        + ", ".join(f"{fmt(x.log_term)}" for x in explanation.orders)
        + f", log BP = {fmt(explanation.log_bp)}",
        "",
        f"**BLEU = {explanation.score:.4f}** ({explanation.score_100:.2f} on the 0–100 scale); "
        f"without the brevity penalty: {explanation.score_without_bp:.4f}.",
        "",
    ]
    return "\n".join(lines)


def csv_safe(value: object) -> object:
    """Neutralize spreadsheet formulas in user text (cells starting with =, +, @, a tab, or -word)."""
    if (
        isinstance(value, str)
        and value
        and (
            value[0] in "=+@\t\r"
            or (value[0] == "-" and len(value) > 1 and not value[1].isspace() and not value[1].isdigit())
        )
    ):
        return "'" + value
    return value


def frame_csv(frame: pd.DataFrame) -> str:
    """CSV of a frame whose text cells may hold user text."""
    safe = frame.copy()
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = safe[column].map(csv_safe)
    return safe.to_csv(index=False)


def tables_csv(explanation: Explanation) -> str:
    """All clipped-count tables in one CSV (an ``order`` column tells them apart)."""
    frames = []
    for order in explanation.orders:
        table = order_table(order, len(explanation.references))
        table.insert(0, "order", order.order)
        frames.append(table)
    return frame_csv(pd.concat(frames, ignore_index=True))
