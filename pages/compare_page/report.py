"""A self-contained HTML report of a comparison: tables and inline SVG charts, no script, opens offline.

No chart library can render offline here (vl-convert is not installable), so the charts are small SVGs built
below.  Every piece of user text (system names, signature, settings) goes through ``html.escape``.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import pandas as pd

from bleu_core.compare.ranking import Comparison, SystemRank
from bleu_core.i18n import DEFAULT_LANGUAGE, text
from pages.compare_page import metric_views, verdict_views

WIDTH, LABEL_WIDTH, ROW, TOP, BOTTOM = 760, 190, 24, 30, 40
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f")
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1000px; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 14px; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: right; }
th:first-child, td:first-child, td.name { text-align: left; }
code { background: #f4f4f4; padding: 2px 4px; }
svg text { font-family: system-ui, sans-serif; font-size: 12px; }
.better { color: #2e7d32; } .worse { color: #c62828; }
"""


@dataclass(frozen=True)
class Row:
    """One line of an interval chart: a label, a point (optional) and an interval."""

    label: str
    point: float | None
    low: float
    high: float
    color: str
    note: str = ""


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values covering [low, high] with a 1-2-5 step."""
    span = max(high - low, 1e-9)
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [round(first + k * step, 10) for k in range(int((high - first) / step + 1e-9) + 1)]


def _short(text: str, limit: int = 26) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def interval_svg(title: str, rows: Sequence[Row], axis_title: str, reference: float | None = None) -> str:
    """A horizontal interval chart (one row per item) whose axis spans the data with a margin."""
    values = [v for r in rows for v in (r.low, r.high, r.point) if v is not None]
    values += [] if reference is None else [reference]
    low, high = verdict_views.padded_domain(min(values), max(values))
    plot = WIDTH - LABEL_WIDTH - 20
    height = TOP + ROW * len(rows) + BOTTOM

    def x(value: float) -> float:
        return LABEL_WIDTH + (value - low) / (high - low) * plot

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" role="img" '
        f'aria-label="{html.escape(title)}">',
        f'<text x="{LABEL_WIDTH}" y="18" font-weight="bold">{html.escape(title)}</text>',
    ]
    bottom = TOP + ROW * len(rows)
    for tick in nice_ticks(low, high):
        parts.append(
            f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="{TOP}" y2="{bottom}" stroke="#eee"/>'
            f'<text x="{x(tick):.1f}" y="{bottom + 15}" text-anchor="middle">{tick:g}</text>'
        )
    parts.append(
        f'<text x="{LABEL_WIDTH + plot / 2}" y="{bottom + 32}" text-anchor="middle">{html.escape(axis_title)}</text>'
    )
    if reference is not None:
        parts.append(
            f'<line x1="{x(reference):.1f}" x2="{x(reference):.1f}" y1="{TOP}" y2="{bottom}" stroke="#444" '
            'stroke-dasharray="4 3"/>'
        )
    for i, row in enumerate(rows):
        y = TOP + ROW * i + ROW / 2
        label = html.escape(row.label)
        parts.append(
            f'<g><title>{label}</title><text x="{LABEL_WIDTH - 8}" y="{y + 4:.1f}" text-anchor="end">'
            f"{html.escape(_short(row.label))}</text>"
            f'<line x1="{x(row.low):.1f}" x2="{x(row.high):.1f}" y1="{y}" y2="{y}" stroke="{row.color}" '
            'stroke-width="6" stroke-linecap="round" opacity="0.55"/>'
        )
        if row.point is not None:
            parts.append(f'<circle cx="{x(row.point):.1f}" cy="{y}" r="5" fill="{row.color}"/>')
        if row.note:
            parts.append(f'<text x="{x(row.high) + 8:.1f}" y="{y + 4:.1f}">{html.escape(row.note)}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _table(frame: pd.DataFrame, language: str = DEFAULT_LANGUAGE) -> str:
    frame = frame.copy()
    for column, digits in (("BLEU", 2), ("c/r", 3)):
        if column in frame.columns:
            frame[column] = [v if isinstance(v, str) else f"{v:.{digits}f}" for v in frame[column]]
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in verdict_views.headers(frame, language).columns)
    body = []
    for record in frame.itertuples(index=False):
        cells = []
        for column, value in zip(frame.columns, record, strict=True):
            text = "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)
            css = ' class="name"' if column == "system" else ""
            if column == "verdict":
                css = ' class="better"' if "▲" in text else ' class="worse"' if "▼" in text else ""
            cells.append(f"<td{css}>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _paragraphs(markdown: str) -> str:
    """The page's explanation (bold, italics, paragraphs) as HTML, escaped first."""
    out = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        text = html.escape(" ".join(block.split()))
        text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
        text = re.sub(r"\*(.+?)\*", r"<em>\1</em>", text)
        out.append(f"<p>{text}</p>")
    return "\n".join(out)


def _charts(
    frame: pd.DataFrame, ranks: Sequence[SystemRank], comparison: Comparison, language: str = DEFAULT_LANGUAGE
) -> list[str]:
    colors = verdict_views.VERDICT_COLORS
    deltas = [
        Row(str(r.system), r["Δ BLEU"], _or(r["Δ low"], r["Δ BLEU"]), _or(r["Δ high"], r["Δ BLEU"]), colors[r.verdict])
        for r in (frame.iloc[i] for i in range(len(frame)))
        if r.verdict != verdict_views.BASE
    ]
    scores = []
    for name in frame["system"]:
        interval = comparison.intervals[comparison.names.index(name)]
        score = comparison.score(name)
        low, high = (interval[0] - interval[1], interval[0] + interval[1]) if interval else (score, score)
        scores.append(Row(str(name), score, low, high, "#3b6ea8"))
    # approximate randomization has p-values and no interval: its titles promise none
    intervals = comparison.test == "bs"
    delta_key = "verdict.report_chart_delta" if intervals else "fit.report_chart_delta_no_interval"
    return [
        interval_svg(text(delta_key, language, baseline=comparison.baseline), deltas, "Δ BLEU", 0.0),
        interval_svg(
            text("verdict.chart_ci" if intervals else "fit.chart_scores_no_interval", language), scores, "BLEU"
        ),
        _rank_svg(text("verdict.report_chart_ranks", language), ranks, language),
    ]


def _rank_svg(title: str, ranks: Sequence[SystemRank], language: str) -> str:
    """Each system's rank range, coloured by its cluster."""
    rows = [
        Row(r.system, None, r.best - 0.4, r.worst + 0.4, PALETTE[(r.cluster - 1) % len(PALETTE)], r.label)
        for r in ranks
    ]
    return interval_svg(title, rows, text("verdict.axis_rank_range", language))


def _or(value: float | None, fallback: float) -> float:
    return float(fallback if value is None or math.isnan(value) else value)


def build_report(
    frame: pd.DataFrame,
    ranks: Sequence[SystemRank],
    comparison: Comparison,
    *,
    signature: str,
    settings: Mapping[str, str],
    created: datetime,
    explanation: str,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """The whole report as one HTML document (UTF-8, inline CSS and SVG, no external resource)."""
    settings_rows = "".join(
        f"<tr><td class='name'>{html.escape(k)}</td><td class='name'>{html.escape(v)}</td></tr>"
        for k, v in settings.items()
    )
    charts = "\n".join(f"<figure>{svg}</figure>" for svg in _charts(frame, ranks, comparison, language))
    title = html.escape(text("verdict.report_title", language))
    created_line = html.escape(text("verdict.report_created", language, time=created.strftime("%Y-%m-%d %H:%M UTC")))
    return f"""<!DOCTYPE html>
<html lang="{language}"><head><meta charset="utf-8"><title>{title}</title><style>{STYLE}</style></head>
<body>
<h1>{title}</h1>
<p>{created_line}
{html.escape(text("verdict.report_signature", language))} <code>{html.escape(signature)}</code></p>
<table>{settings_rows}</table>
<h2>{html.escape(text("verdict.report_results", language))}</h2>
{_table(verdict_views.display_frame(frame, language), language)}
<h2>{html.escape(text("verdict.ranking", language))}</h2>
{_table(verdict_views.ranks_frame(ranks), language)}
<h2>{html.escape(text("verdict.report_charts", language))}</h2>
{charts}
<h2>{html.escape(text("verdict.report_how_to_read", language))}</h2>
{_paragraphs(explanation)}
</body></html>
"""


def metrics_report(
    frame: pd.DataFrame,
    summaries: Sequence[str],
    disagreements: Sequence[str],
    ranks: Mapping[str, Sequence[SystemRank]],
    *,
    signatures: Mapping[str, str],
    settings: Mapping[str, str],
    created: datetime,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """The verdict in several metrics as one HTML document: each metric's signature, the settings, the table side by
    side, each metric's summary and rank-range chart (``ranks``: each metric's), and the disagreements (sentences
    with raw names and ``**bold**``, escaped here)."""
    shown = frame.copy()
    shown["score"] = [f"{v:.2f}" for v in shown["score"]]
    settings_rows = "".join(
        f"<tr><td class='name'>{html.escape(k)}</td><td class='name'>{html.escape(v)}</td></tr>"
        for k, v in settings.items()
    )
    signature_rows = "".join(
        f"<tr><td class='name'>{html.escape(k)}</td><td><code>{html.escape(v)}</code></td></tr>"
        for k, v in signatures.items()
    )
    metrics = text("verdict.list_separator", language).join(signatures)
    title = html.escape(text("metrics_verdict.report_title", language, metrics=metrics))
    created_line = html.escape(text("verdict.report_created", language, time=created.strftime("%Y-%m-%d %H:%M UTC")))
    summary_text, disagreement_text = _paragraphs("\n\n".join(summaries)), _paragraphs("\n\n".join(disagreements))
    heading = text("verdict.report_chart_ranks", language)
    charts = "\n".join(f"<figure>{_rank_svg(f'{name} — {heading}', r, language)}</figure>" for name, r in ranks.items())
    return f"""<!DOCTYPE html>
<html lang="{language}"><head><meta charset="utf-8"><title>{title}</title><style>{STYLE}</style></head>
<body>
<h1>{title}</h1>
<p>{created_line}</p>
<h2>{html.escape(text("metrics_verdict.report_signatures", language))}</h2>
<table>{signature_rows}</table>
<table>{settings_rows}</table>
<h2>{html.escape(text("verdict.report_results", language))}</h2>
{_table(metric_views.display_frame(shown, language), language)}
<h2>{html.escape(text("metrics_verdict.report_summary", language))}</h2>
{summary_text}
<h2>{html.escape(text("verdict.report_charts", language))}</h2>
{charts}
<h2>{html.escape(text("metrics_verdict.disagreements", language))}</h2>
{disagreement_text}
</body></html>
"""
