"""Tables, charts and text for the Implementations page; no Streamlit calls, so tests use them directly.

User text reaches Markdown only through :func:`pages.views.md_escape`; tables and charts show it as data.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence

import altair as alt
import pandas as pd
from pandas.io.formats.style import Styler

from bleu_core.divergence import Divergence
from bleu_core.mistakes import MistakeCheck
from bleu_core.tools import IMPLEMENTATIONS, Implementation, ImplementationTrace, number
from bleu_core.tools.fields import reported_fields
from bleu_core.waterfall import Waterfall

#: The built-in example: a short sentence with no 3- or 4-gram match and two references of different lengths,
#: so smoothing, zero handling and the reference-length rule all change the number.
EXAMPLE_CANDIDATE = "the bakery sold the well-known rye bread by noon"
EXAMPLE_REFERENCES = (
    "by noon the corner bakery had sold its famous rye bread",
    "the bakery was out by noon",
)
REFERENCE_KEY = "sacrebleu"
HIGHLIGHT = "background-color: #fff4d6"
Row = tuple[Implementation, float, float]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>$])")


def md_text(text: str) -> str:
    """User text made inert in Markdown: <, > and & as entities, Markdown and LaTeX punctuation backslashed.

    Quotes stay as they are (an escaped ``&#x27;`` would have its ``#`` backslashed and show literally).
    """
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False)).replace("\n", " ")


def same_score(a: float, b: float) -> bool:
    """Equal in [0, 1] to 1e-9 (relative), NaN equal to NaN."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300)


def _native(value: float, implementation: Implementation) -> str:
    if math.isnan(value):
        return "fails" if implementation.corpus_level else "n/a"
    return number(value)


def attribution(result: Waterfall | None) -> tuple[str, str]:
    """(where, setting) for the scores table: the waterfall's steps that move the number, with their changes."""
    if result is None:
        return "—", "reference implementation"
    if result.reason:
        return "—", result.reason
    if not result.moving:
        return "nowhere", "same number on this input"
    where = ", ".join(row.step for row in result.moving)
    return where, "; ".join(f"{row.step}: {row.setting} ({row.change:+.4g})" for row in result.moving)


def scores_frame(rows: Sequence[Row], waterfalls: dict[str, Waterfall], corpus: bool = False) -> pd.DataFrame:
    """One row per tool: its score on its own scale and in [0, 1], and the settings that move it away from
    sacreBLEU's number (the steps of ``waterfalls[key]``, sacreBLEU to the tool, with a non-zero change)."""
    by_key = {impl.key: unit for impl, _, unit in rows}
    records = []
    for impl, native, unit in rows:
        where, setting = attribution(waterfalls.get(impl.key))
        records.append(
            {
                "implementation": impl.name_for(corpus),
                "score (own scale)": _native(native, impl),
                "scale": impl.scale,
                "score (0–1)": _native(unit, impl),
                "differs from sacreBLEU at": where,
                "the setting behind it": setting,
                "differs": not same_score(unit, by_key[REFERENCE_KEY]),
            }
        )
    return pd.DataFrame(records)


def styled(frame: pd.DataFrame) -> Styler:
    """``frame`` without its ``differs`` column, the rows where it is True highlighted."""
    mask = frame["differs"].to_numpy()
    shown = frame.drop(columns=["differs"])

    def highlight(data: pd.DataFrame) -> pd.DataFrame:
        styles = pd.DataFrame("", index=data.index, columns=data.columns)
        styles.loc[mask, :] = HIGHLIGHT
        return styles

    return shown.style.apply(highlight, axis=None)


def score_chart(rows: Sequence[Row]) -> alt.Chart:
    """Horizontal bars of every tool's score in [0, 1] (tools without a score left out)."""
    frame = pd.DataFrame(
        {
            "implementation": [impl.label for impl, _, _ in rows],
            "score": [unit for _, _, unit in rows],
            "label": [number(unit) for _, _, unit in rows],
        }
    )
    frame = frame[frame["score"].notna()]
    base = alt.Chart(frame).encode(
        y=alt.Y("implementation:N", sort=None, title=None, axis=alt.Axis(labelOverlap=False, labelLimit=200)),
        x=alt.X("score:Q", title="BLEU in [0, 1]", scale=alt.Scale(domain=[0, 1])),
        tooltip=["implementation", "label"],
    )
    bars = base.mark_bar(color="#3b6ea8")
    text = base.mark_text(align="left", dx=4).encode(text="label:N")
    return (bars + text).properties(height=30 * max(len(frame), 1) + 20, title="Every tool's score in [0, 1]")


def steps_frame(divergence: Divergence) -> pd.DataFrame:
    """The steps of BLEU for two tools side by side."""
    a, b = divergence.first.implementation.label, divergence.second.implementation.label
    if a == b:
        b = f"{b} (2)"
    return pd.DataFrame(
        {
            "step": [s.name for s in divergence.steps],
            a: [str(s.first) for s in divergence.steps],
            b: [str(s.second) for s in divergence.steps],
            "differs": [s.differs for s in divergence.steps],
        }
    )


def differences_markdown(divergence: Divergence) -> str:
    """A bullet per step that differs, user text escaped."""
    lines = [f"- **{md_text(s.name)}**: {md_text(s.explanation)}" for s in divergence.differing]
    return "\n".join(lines) or "No step differs."


_LOG10_FLOOR = -12.0


def precision_frame(traces: Sequence[ImplementationTrace]) -> pd.DataFrame:
    """log10 of the p_n each tool puts into the log; a kept zero or a tiny substitute is drawn at a floor."""
    records = []
    for trace in traces:
        for o in trace.orders:
            if o.weight == 0:
                label, value = "left out", math.nan
            elif o.precision == 0:
                label, value = "0", _LOG10_FLOOR
            else:
                label, value = number(o.precision), max(math.log10(o.precision), _LOG10_FLOOR)
            records.append(
                {
                    "implementation": trace.implementation.label,
                    "order": f"p{o.order}",
                    "fraction": o.fraction,
                    "log10_p": value,
                    "p_label": label,
                    "how": str(o.note),
                }
            )
    return pd.DataFrame(records)


def precision_chart(traces: Sequence[ImplementationTrace]) -> alt.Chart:
    """Grouped bars of log10 p_n per order, one colour per tool (floor at 1e-12 for 0 and 2.2e-308)."""
    frame = precision_frame(traces).dropna(subset=["log10_p"])
    base = alt.Chart(frame).encode(
        x=alt.X("order:N", title="order", sort=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("implementation:N", sort=None),
        y=alt.Y("log10_p:Q", title="log10 p_n (−12: 0 or below 1e-12)", scale=alt.Scale(domain=[_LOG10_FLOOR, 0])),
        color=alt.Color("implementation:N", sort=None, legend=alt.Legend(orient="top", title=None)),
        tooltip=["implementation", "order", "fraction", alt.Tooltip("p_label:N", title="p_n"), "how"],
    )
    bars = base.mark_bar()
    text = base.mark_text(dy=-6, fontSize=10).encode(text="p_label:N")
    return (bars + text).properties(height=280, title="The precision each tool puts into the log")


def mistakes_frame(checks: Sequence[MistakeCheck]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "mistake": [c.mistake for c in checks],
            "written as": [c.wrong_formula for c in checks],
            "instead of": [c.correct_formula for c in checks],
            "correct (sacreBLEU)": [f"{c.correct:.4f}" for c in checks],
            "with the mistake": [f"{c.wrong:.4f}" for c in checks],
            "differs": [c.differs for c in checks],
        }
    )


def mistakes_markdown(checks: Sequence[MistakeCheck]) -> str:
    return "\n".join(f"- **{md_text(c.mistake)}**: {md_text(c.explanation)}" for c in checks)


def waterfall_frame(result: Waterfall) -> pd.DataFrame:
    """The waterfall as a table: step, setting, score in [0, 1], change from the row before."""
    return pd.DataFrame(
        {
            "step": [row.step for row in result.rows],
            "setting": [row.setting for row in result.rows],
            "score": [number(row.score) for row in result.rows],
            "change": ["" if i == 0 else f"{row.change:+.4g}" for i, row in enumerate(result.rows)],
            "differs": [i > 0 and row.change != 0 for i, row in enumerate(result.rows)],
        }
    )


def waterfall_chart(result: Waterfall) -> alt.Chart:
    """Bars from each row's previous score to its score; the two tools' own scores as full bars from 0."""
    records = []
    last = len(result.rows) - 1
    end_label = IMPLEMENTATIONS[result.second].label
    for i, row in enumerate(result.rows):
        whole = i == 0
        records.append(
            {
                "step": f"{i}. {row.step}",
                "low": 0.0 if whole else min(row.score, row.score - row.change),
                "high": row.score if whole else max(row.score, row.score - row.change),
                "kind": "tool" if whole else ("up" if row.change > 0 else "down" if row.change < 0 else "no change"),
                "label": number(row.score) if whole else f"{row.change:+.3g}",
                "setting": row.setting,
            }
        )
    final = result.rows[last].score
    records.append(
        {
            "step": f"{last + 1}. = {end_label}",
            "low": 0.0,
            "high": final,
            "kind": "tool",
            "label": number(final),
            "setting": "every setting as the tool has it",
        }
    )
    frame = pd.DataFrame(records)
    colours = alt.Scale(domain=["tool", "up", "down", "no change"], range=["#3b6ea8", "#4c9a5f", "#c0504d", "#9e9e9e"])
    base = alt.Chart(frame).encode(
        y=alt.Y("step:N", sort=None, title=None, axis=alt.Axis(labelLimit=220, labelOverlap=False)),
        tooltip=["step", "setting", "label"],
    )
    bars = base.mark_bar(size=18, minBandSize=2).encode(
        x=alt.X("low:Q", title="BLEU in [0, 1]", scale=alt.Scale(domain=[0, 1])),
        x2="high:Q",
        color=alt.Color("kind:N", scale=colours, legend=alt.Legend(orient="top", title=None)),
    )
    # A setting that differs without moving the number: a grey tick at the score it leaves unchanged.
    ticks = base.transform_filter(alt.datum.kind == "no change").mark_tick(color="#9e9e9e", thickness=2, size=18)
    text = base.mark_text(align="left", dx=5, fontSize=11).encode(x="high:Q", text="label:N")
    first = IMPLEMENTATIONS[result.first].label
    title = f"From {first} to {end_label}, one setting at a time"
    return (bars + ticks.encode(x="high:Q") + text).properties(height=alt.Step(30), title=title)


def fields_frame(traces: Sequence[ImplementationTrace]) -> pd.DataFrame:
    """Every field each tool reports for this input, one row per (tool, field)."""
    records = [
        {"tool": trace.implementation.label, "field": field, "value": value}
        for trace in traces
        for field, value in reported_fields(trace)
    ]
    return pd.DataFrame(records)
