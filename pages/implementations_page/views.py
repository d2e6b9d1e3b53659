"""Tables, charts and text for the Implementations page; no Streamlit calls, so tests use them directly.

User text reaches Markdown only through :func:`pages.shared.views.md_escape`; tables and charts show it as data.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import altair as alt
import pandas as pd
from pandas.io.formats.style import Styler

from bleu_core.gaps.divergence import Divergence
from bleu_core.gaps.fields import FAILS, PRINTED_LINE, reported_fields
from bleu_core.gaps.mistakes import MistakeCheck
from bleu_core.gaps.waterfall import Waterfall
from bleu_core.i18n import DEFAULT_LANGUAGE, Message, text
from bleu_core.tools import IMPLEMENTATIONS, Implementation, ImplementationTrace, number
from pages.shared.views import chart_title, md_escape

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


def localized(value: object, language: str = DEFAULT_LANGUAGE) -> str:
    """A message in ``language``; any other value as it is (a core that still returns English text)."""
    return value.render(language) if isinstance(value, Message) else str(value)


def tokenizer_name(tokenizer: str, language: str = DEFAULT_LANGUAGE) -> str:
    return text(f"tools.tokenizer_{tokenizer}", language)


def same_score(a: float, b: float) -> bool:
    """Equal in [0, 1] to 1e-9 (relative), NaN equal to NaN."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-300)


def _native(
    value: float, implementation: Implementation, language: str = DEFAULT_LANGUAGE, mean: float | None = None
) -> str:
    """A score as printed; NaN says why: the tool fails, or (``mean`` given) scores sentences only, whose mean
    over the corpus is what its waterfall reaches."""
    if math.isnan(value):
        if mean is not None and not math.isnan(mean):
            return text("implementations.sentence_mean", language, mean=number(mean))
        return text("implementations.fails" if implementation.corpus_level else "implementations.n_a", language)
    return number(value)


def attribution(result: Waterfall | None, language: str = DEFAULT_LANGUAGE) -> tuple[str, str]:
    """(where, setting) for the scores table: the waterfall's steps that move the number, with their changes."""
    if result is None:
        return "—", text("implementations.reference_implementation", language)
    if result.reason_message is not None:
        return "—", result.reason_message.render(language)
    if not result.moving:
        return text("implementations.nowhere", language), text("implementations.same_number", language)
    comma, semicolon = text("implementations.comma", language), text("implementations.semicolon", language)
    where = comma.join(row.label.render(language) for row in result.moving)
    moves = [
        text(
            "implementations.move",
            language,
            step=row.label.render(language),
            setting=row.change_of.render(language),
            change=f"{row.change:+.4g}",
        )
        for row in result.moving
    ]
    return where, semicolon.join(moves)


#: Catalog keys of the column headers (English headers are the data's names, which the tests read).
COLUMN_KEYS = {
    "implementation": "implementations.col_implementation",
    "score (own scale)": "implementations.col_own_scale",
    "scale": "implementations.col_scale",
    "score (0–1)": "implementations.col_unit",
    "differs from sacreBLEU at": "implementations.col_differs_at",
    "the setting behind it": "implementations.col_setting_behind",
    "step": "implementations.col_step",
    "setting": "implementations.col_setting",
    "score": "implementations.col_score",
    "change": "implementations.col_change",
    "mistake": "implementations.col_mistake",
    "written as": "implementations.col_written_as",
    "instead of": "implementations.col_instead_of",
    "correct (sacreBLEU)": "implementations.col_correct",
    "with the mistake": "implementations.col_with_mistake",
    "tool": "implementations.col_tool",
    "field": "implementations.col_field",
    "value": "implementations.col_value",
}


def headers(frame: pd.DataFrame, language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """``frame`` with its column headers in ``language`` (the hidden ``differs`` column keeps its name)."""
    return frame.rename(columns={c: text(k, language) for c, k in COLUMN_KEYS.items() if c in frame.columns})


_COUNT_IN = re.compile(r"count in (r\d+)")
#: The shared clipped-count table's English headers (pages.shared.views.order_table) and this page's keys for them.
_COUNT_HEADERS = {
    "count in candidate": "implementations.col_count_candidate",
    "max over references": "implementations.col_max_references",
    "clipped": "implementations.col_clipped",
}


def count_table(frame: pd.DataFrame, language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """The clipped-count table with its headers and its totals row's name in ``language``."""
    if language == DEFAULT_LANGUAGE:
        return frame
    names = {c: text(k, language) for c, k in _COUNT_HEADERS.items()}
    for column in frame.columns:
        if match := _COUNT_IN.fullmatch(str(column)):
            names[column] = text("implementations.col_count_in", language, ref=match.group(1))
    shown = frame.copy()
    if len(shown) and "n-gram" in shown.columns and shown["n-gram"].iloc[-1] == "total":
        shown.loc[shown.index[-1], "n-gram"] = text("implementations.total", language)
    return shown.rename(columns=names)


def scores_frame(
    rows: Sequence[Row], waterfalls: dict[str, Waterfall], corpus: bool = False, language: str = DEFAULT_LANGUAGE
) -> pd.DataFrame:
    """One row per tool: its score on its own scale and in [0, 1], and the settings that move it away from
    sacreBLEU's number (the steps of ``waterfalls[key]``, sacreBLEU to the tool, with a non-zero change)."""
    by_key = {impl.key: unit for impl, _, unit in rows}
    records = []
    for impl, native, unit in rows:
        steps = waterfalls.get(impl.key)
        where, setting = attribution(steps, language)
        mean = steps.second_score if corpus and steps is not None and not impl.corpus_level else None
        records.append(
            {
                "implementation": impl.name_message(corpus).render(language),
                "score (own scale)": _native(native, impl, language, mean),
                "scale": impl.scale,
                "score (0–1)": _native(unit, impl, language, mean),
                "differs from sacreBLEU at": where,
                "the setting behind it": setting,
                "differs": not same_score(unit, by_key[REFERENCE_KEY]),
            }
        )
    return headers(pd.DataFrame(records), language)


def styled(frame: pd.DataFrame) -> Styler:
    """``frame`` without its ``differs`` column, the rows where it is True highlighted."""
    mask = frame["differs"].to_numpy()
    shown = frame.drop(columns=["differs"])

    def highlight(data: pd.DataFrame) -> pd.DataFrame:
        styles = pd.DataFrame("", index=data.index, columns=data.columns)
        styles.loc[mask, :] = HIGHLIGHT
        return styles

    return shown.style.apply(highlight, axis=None)


def score_chart(rows: Sequence[Row], language: str = DEFAULT_LANGUAGE) -> alt.Chart:
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
        x=alt.X("score:Q", title=text("implementations.axis_unit", language), scale=alt.Scale(domain=[0, 1])),
        tooltip=[
            alt.Tooltip("implementation:N", title=text("implementations.col_implementation", language)),
            alt.Tooltip("label:N", title=text("implementations.col_score", language)),
        ],
    )
    bars = base.mark_bar(color="#3b6ea8")
    labels = base.mark_text(align="left", dx=4).encode(text="label:N")
    return (bars + labels).properties(
        height=30 * max(len(frame), 1) + 20, title=chart_title(text("implementations.chart_scores", language))
    )


def steps_frame(divergence: Divergence, language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """The steps of BLEU for two tools side by side."""
    a, b = divergence.first.implementation.label, divergence.second.implementation.label
    if a == b:
        b = f"{b} (2)"
    frame = pd.DataFrame(
        {
            "step": [s.label.render(language) for s in divergence.steps],
            a: [s.first.render(language) for s in divergence.steps],
            b: [s.second.render(language) for s in divergence.steps],
            "differs": [s.differs for s in divergence.steps],
        }
    )
    return headers(frame, language)


def differences_markdown(divergence: Divergence, language: str = DEFAULT_LANGUAGE) -> str:
    """A bullet per step that differs, user text escaped."""
    lines = [
        f"- **{md_escape(s.label.render(language))}**: {md_escape(localized(s.why, language))}"
        for s in divergence.differing
    ]
    return "\n".join(lines) or text("implementations.no_step_differs", language)


_LOG10_FLOOR = -12.0


def precision_frame(traces: Sequence[ImplementationTrace], language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """log10 of the p_n each tool puts into the log; a kept zero or a tiny substitute is drawn at a floor."""
    records = []
    for trace in traces:
        for o in trace.orders:
            if o.weight == 0:
                label, value = text("implementations.left_out", language), math.nan
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
                    "how": o.note.render(language),
                }
            )
    return pd.DataFrame(records)


def precision_chart(traces: Sequence[ImplementationTrace], language: str = DEFAULT_LANGUAGE) -> alt.Chart:
    """Grouped bars of log10 p_n per order, one colour per tool (floor at 1e-12 for 0 and 2.2e-308)."""
    frame = precision_frame(traces, language).dropna(subset=["log10_p"])
    # the floor (a p_n of 0) on the axis only when a tool has one; else the axis fits the precisions
    floored = bool((frame["log10_p"] <= _LOG10_FLOOR).any()) or frame.empty
    low = _LOG10_FLOOR if floored else min(-1.0, math.floor(float(frame["log10_p"].min())))
    base = alt.Chart(frame).encode(
        x=alt.X("order:N", title=text("implementations.axis_order", language), sort=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("implementation:N", sort=None),
        y=alt.Y("log10_p:Q", title=text("implementations.axis_log_p", language), scale=alt.Scale(domain=[low, 0])),
        color=alt.Color("implementation:N", sort=None, legend=alt.Legend(orient="top", title=None)),
        tooltip=[
            alt.Tooltip("implementation:N", title=text("implementations.col_implementation", language)),
            alt.Tooltip("order:N", title=text("implementations.axis_order", language)),
            alt.Tooltip("fraction:N", title=text("implementations.fraction", language)),
            alt.Tooltip("p_label:N", title="p_n"),
            alt.Tooltip("how:N", title=text("implementations.how", language)),
        ],
    )
    bars = base.mark_bar()
    # each p_n above its bar's top (the zero line), in grey: at the end of a bar going down, in the bar's colour,
    # a label was drawn over its own bar and could not be read
    labels = base.mark_text(dy=-6, fontSize=10).encode(y=alt.datum(0), text="p_label:N", color=alt.value("#444444"))
    return (bars + labels).properties(height=280, title=chart_title(text("implementations.chart_precisions", language)))


def _mistake(check: MistakeCheck, message: str, english: str, language: str) -> str:
    """One of a check's texts in ``language`` where the check carries it as a message, else its English text."""
    return localized(getattr(check, message, getattr(check, english)), language)


def mistakes_frame(checks: Sequence[MistakeCheck], language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "mistake": [_mistake(c, "title", "mistake", language) for c in checks],
            "written as": [_mistake(c, "wrong_rule", "wrong_formula", language) for c in checks],
            "instead of": [_mistake(c, "correct_rule", "correct_formula", language) for c in checks],
            "correct (sacreBLEU)": [f"{c.correct:.4f}" for c in checks],
            "with the mistake": [f"{c.wrong:.4f}" for c in checks],
            "differs": [c.differs for c in checks],
        }
    )
    return headers(frame, language)


def mistakes_markdown(checks: Sequence[MistakeCheck], language: str = DEFAULT_LANGUAGE) -> str:
    return "\n".join(
        f"- **{md_escape(_mistake(c, 'title', 'mistake', language))}**: "
        f"{md_escape(_mistake(c, 'detail', 'explanation', language))}"
        for c in checks
    )


def waterfall_frame(result: Waterfall, language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """The waterfall as a table: step, setting, score in [0, 1], change from the row before."""
    frame = pd.DataFrame(
        {
            "step": [row.label.render(language) for row in result.rows],
            "setting": [row.change_of.render(language) for row in result.rows],
            "score": [number(row.score) for row in result.rows],
            "change": ["" if i == 0 else f"{row.change:+.4g}" for i, row in enumerate(result.rows)],
            "differs": [i > 0 and row.change != 0 for i, row in enumerate(result.rows)],
        }
    )
    return headers(frame, language)


def waterfall_chart(result: Waterfall, language: str = DEFAULT_LANGUAGE) -> alt.Chart:
    """Bars from each row's previous score to its score; the two tools' own scores as full bars from 0."""
    records = []
    last = len(result.rows) - 1
    end_label = IMPLEMENTATIONS[result.second].label
    kinds = {kind: text(f"implementations.kind_{kind}", language) for kind in ("tool", "up", "down", "same")}
    for i, row in enumerate(result.rows):
        whole = i == 0
        records.append(
            {
                "step": f"{i}. {row.label.render(language)}",
                "low": 0.0 if whole else min(row.score, row.score - row.change),
                "high": row.score if whole else max(row.score, row.score - row.change),
                "kind": kinds["tool"]
                if whole
                else kinds["up"]
                if row.change > 0
                else kinds["down"]
                if row.change < 0
                else kinds["same"],
                "label": number(row.score) if whole else f"{row.change:+.3g}",
                "setting": row.change_of.render(language),
            }
        )
    final = result.rows[last].score
    records.append(
        {
            "step": f"{last + 1}. = {end_label}",
            "low": 0.0,
            "high": final,
            "kind": kinds["tool"],
            "label": number(final),
            "setting": text("waterfall.as_the_tool", language),
        }
    )
    frame = pd.DataFrame(records)
    colours = alt.Scale(domain=list(kinds.values()), range=["#3b6ea8", "#4c9a5f", "#c0504d", "#9e9e9e"])
    base = alt.Chart(frame).encode(
        y=alt.Y("step:N", sort=None, title=None, axis=alt.Axis(labelLimit=220, labelOverlap=False)),
        tooltip=[
            alt.Tooltip("step:N", title=text("implementations.col_step", language)),
            alt.Tooltip("setting:N", title=text("implementations.col_setting", language)),
            alt.Tooltip("label:N", title=text("implementations.col_score", language)),
        ],
    )
    bars = base.mark_bar(size=18, minBandSize=2).encode(
        x=alt.X("low:Q", title=text("implementations.axis_unit", language), scale=alt.Scale(domain=[0, 1])),
        x2="high:Q",
        color=alt.Color("kind:N", scale=colours, legend=alt.Legend(orient="top", title=None)),
    )
    # A setting that differs without moving the number: a grey tick at the score it leaves unchanged.
    ticks = base.transform_filter(alt.datum.kind == kinds["same"]).mark_tick(color="#9e9e9e", thickness=2, size=18)
    labels = base.mark_text(align="left", dx=5, fontSize=11).encode(x="high:Q", text="label:N")
    first = IMPLEMENTATIONS[result.first].label
    title = text("implementations.chart_waterfall", language, first=first, second=end_label)
    return (bars + ticks.encode(x="high:Q") + labels).properties(height=alt.Step(30), title=chart_title(title))


def fields_frame(traces: Sequence[ImplementationTrace], language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """Every field each tool reports for this input, one row per (tool, field); the tools' own field names stay."""
    words = {
        PRINTED_LINE: text("implementations.printed_line", language),
        FAILS: text("implementations.fails_no_score", language),
    }
    records = [
        {"tool": trace.implementation.label, "field": words.get(field, field), "value": words.get(value, value)}
        for trace in traces
        for field, value in reported_fields(trace)
    ]
    return headers(pd.DataFrame(records), language)
