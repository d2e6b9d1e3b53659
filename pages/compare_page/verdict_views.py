"""The compare page's verdict: results table, rank ranges and their charts (no Streamlit calls).

System names are user text (they come from file names); Altair escapes them in SVG/canvas, and every
chart's scale is fitted to its data (no fixed 0-100 domain).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

from bleu_core.compare.ranking import Comparison, SystemRank
from bleu_core.corpus.diagnosis import CorpusAnalysis
from bleu_core.i18n import DEFAULT_LANGUAGE, text
from pages.shared.views import chart_title

MINUS = "\u2212"
#: Heatmaps with more systems than this show no text in their cells (tooltips only).
CELL_TEXT_LIMIT = 10
BETTER, WORSE, SAME, BASE = "better", "worse", "not significant", "baseline"
#: Significant taken alone (uncorrected), not after the correction over every pair.
UNCORRECTED = "uncorrected only"
NAMES = alt.Axis(labelLimit=180)
#: Longer system names fill NAMES' 180 px: in half of a 1280 px page a Δ chart's plot is then too narrow for two
#: legend columns ("only uncorrected" was cut at a 28-character name) and for the baseline's name in full.
LONG_NAME = 18
VERDICT_COLORS = {BETTER: "#2e7d32", WORSE: "#c62828", SAME: "#777777", UNCORRECTED: "#b07d00", BASE: "#3b6ea8"}
#: Catalog keys of the column headers people read (the data keeps the English names, for CSV, JSON and LaTeX).
COLUMN_KEYS = {
    "system": "verdict.col_system",
    "rank": "verdict.col_rank",
    "Δ BLEU": "verdict.col_delta",
    "95% CI of Δ": "verdict.col_delta_ci",
    "p-value": "verdict.col_p",
    "p corrected": "verdict.col_p_corrected",
    "verdict": "verdict.col_verdict",
    "95% CI": "verdict.col_ci",
    "cluster": "verdict.col_cluster",
    "best rank": "verdict.col_best_rank",
    "worst rank": "verdict.col_worst_rank",
}
VERDICT_KEYS = {
    BETTER: "verdict.better",
    WORSE: "verdict.worse",
    SAME: "verdict.same",
    UNCORRECTED: "verdict.uncorrected_only",
    BASE: "verdict.base",
}


def signed(value: float, digits: int = 2) -> str:
    """``+0.82`` / ``−9.03`` (a real minus sign), ``0.00`` for zero."""
    text = f"{abs(value):.{digits}f}"
    if text == f"{0:.{digits}f}":
        return text
    return ("+" if value > 0 else MINUS) + text


def verdict(p_value: float | None, delta: float, alpha: float) -> str:
    """Direction of a system against the baseline: better / worse when p < alpha, else no significant difference."""
    if p_value is None:
        return BASE
    if p_value < alpha and delta != 0:
        return BETTER if delta > 0 else WORSE
    return SAME


def corrected_verdict(p_value: float | None, corrected: float | None, delta: float, alpha: float) -> str:
    """The verdict on the p-value corrected over every pair (the one the ranks rest on), and
    :data:`UNCORRECTED` where only the uncorrected ``p_value`` is below ``alpha``."""
    if p_value is None:
        return BASE
    found = verdict(corrected, delta, alpha) if corrected is not None else SAME
    if found == SAME and verdict(p_value, delta, alpha) in (BETTER, WORSE):
        return UNCORRECTED
    return found


def _pair(corrected: Mapping[tuple[str, str], float], a: str, b: str) -> float | None:
    return corrected.get((a, b), corrected.get((b, a)))


def results_frame(
    analyses: Mapping[str, CorpusAnalysis],
    comparison: Comparison,
    ranks: Sequence[SystemRank],
    alpha: float,
    corrected: Mapping[tuple[str, str], float] | None = None,
) -> pd.DataFrame:
    """One row per system, best score first, numbers kept as numbers (for CSV/JSON/LaTeX and the tests).

    ``corrected``: the p-values of every pair after the correction (:func:`bleu_core.compare.ranking.rank_systems`); the
    verdict then rests on the baseline's pair among them, as the ranks do.  Without it, on the uncorrected p-value.
    """
    by_rank = {r.system: r for r in ranks}
    rows = []
    for d in comparison.differences:
        result = analyses[d.system].result
        interval = comparison.intervals[comparison.names.index(d.system)]
        p_corrected = None
        if corrected is not None and d.p_value is not None:
            p_corrected = _pair(corrected, d.system, comparison.baseline)
        row: dict[str, object] = {
            "system": d.system,
            "rank": by_rank[d.system].label,
            "BLEU": round(result.score_100, 2),
            "Δ BLEU": round(d.delta, 2),
            "Δ low": None if d.low is None else round(d.low, 2),
            "Δ high": None if d.high is None else round(d.high, 2),
            "p-value": None if d.p_value is None else round(d.p_value, 4),
            "p corrected": None if p_corrected is None else round(p_corrected, 4),
            "verdict": verdict(d.p_value, d.delta, alpha)
            if corrected is None
            else corrected_verdict(d.p_value, p_corrected, d.delta, alpha),
            "95% CI": "" if interval is None else f"{interval[0]:.2f} ± {interval[1]:.2f}",
            "c/r": round(result.ratio, 3),
        }
        for n, p in enumerate(result.precisions[:4], 1):
            row[f"p{n}"] = round(100 * p, 1)
        rows.append(row)
    frame = pd.DataFrame(rows)
    order = sorted(range(len(frame)), key=lambda i: -comparison.score(str(frame["system"][i])))
    return frame.iloc[order].reset_index(drop=True)


def headers(frame: pd.DataFrame, language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """``frame`` with its column headers in ``language`` (columns without a catalog key keep their name)."""
    return frame.rename(columns={c: text(k, language) for c, k in COLUMN_KEYS.items() if c in frame.columns})


def verdict_label(value: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A verdict code as a short label ("better", "not significant") in ``language``."""
    return text(VERDICT_KEYS[value], language)


def display_frame(frame: pd.DataFrame, language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """The results as people read them: signed differences, their interval, "—" for the baseline's p-value
    (the precisions are in the downloads and the precision chart, so the table fits a 1280 px window).

    The column names stay the data's (English); :func:`headers` translates them for display."""
    shown = frame.copy()
    base = shown["verdict"] == BASE
    shown["Δ BLEU"] = ["—" if b else signed(v) for v, b in zip(frame["Δ BLEU"], base, strict=True)]
    shown["95% CI of Δ"] = [
        "—" if b or pd.isna(lo) else f"[{signed(lo)}, {signed(hi)}]"
        for lo, hi, b in zip(frame["Δ low"], frame["Δ high"], base, strict=True)
    ]
    for column in ("p-value", "p corrected"):
        shown[column] = ["—" if b or pd.isna(p) else f"{p:.4f}" for p, b in zip(frame[column], base, strict=True)]
    shown["verdict"] = [_verdict_text(v, language) for v in frame["verdict"]]
    # p1-p4 stay in the downloads and the precision chart: with them the table scrolled sideways at 1280 px
    columns = ["system", "rank", "BLEU", "Δ BLEU", "95% CI of Δ", "p-value", "p corrected", "verdict", "95% CI", "c/r"]
    return shown[columns]


def _verdict_text(value: str, language: str = DEFAULT_LANGUAGE) -> str:
    mark = {BETTER: "▲ ", WORSE: "▼ ", SAME: "≈ ", UNCORRECTED: "≈ ", BASE: ""}[value]
    star = " *" if value in (BETTER, WORSE) else ""
    return f"{mark}{verdict_label(value, language)}{star}"


def padded_domain(
    low: float, high: float, share: float = 0.08, within: tuple[float, float] | None = None
) -> list[float]:
    """``[low, high]`` widened by ``share`` of its span on each side (at least 0.5 BLEU), kept ``within`` the
    scale's bounds when given (a BLEU of 99.8 needs no axis to 110)."""
    span = max(high - low, 1e-9)
    margin = max(share * span, 0.5)
    domain = [math.floor((low - margin) * 10) / 10, math.ceil((high + margin) * 10) / 10]
    return domain if within is None else [max(domain[0], within[0]), min(domain[1], within[1])]


def ci_chart(frame: pd.DataFrame, comparison: Comparison, language: str = DEFAULT_LANGUAGE) -> alt.Chart:
    """BLEU per system with sacreBLEU's bootstrap 95% interval (mean ± half-width); the axis spans the data."""
    rows = []
    for name in frame["system"]:
        interval = comparison.intervals[comparison.names.index(name)]
        score = comparison.score(name)
        low, high = (interval[0] - interval[1], interval[0] + interval[1]) if interval else (score, score)
        rows.append({"system": name, "BLEU": score, "low": low, "high": high})
    data = pd.DataFrame(rows)
    domain = padded_domain(float(data["low"].min()), float(data["high"].max()), within=(0.0, 100.0))
    x = alt.Scale(domain=domain, zero=False, nice=False)
    base = alt.Chart(data).encode(y=alt.Y("system:N", sort=list(frame["system"]), title=None, axis=NAMES))
    tooltip = [
        alt.Tooltip("system:N", title=text("verdict.col_system", language)),
        alt.Tooltip("BLEU:Q", format=".2f"),
        alt.Tooltip("low:Q", title=text("verdict.low", language), format=".2f"),
        alt.Tooltip("high:Q", title=text("verdict.high", language), format=".2f"),
    ]
    points = base.mark_point(filled=True, size=70, color="#3b6ea8").encode(
        x=alt.X("BLEU:Q", scale=x, title="BLEU"), tooltip=tooltip
    )
    if not any(comparison.intervals):  # approximate randomization: scores only, and the title says so
        return points.properties(height=alt.Step(26), title=chart_title(text("fit.chart_scores_no_interval", language)))
    bars = base.mark_rule(color="#3b6ea8", strokeWidth=2).encode(x=alt.X("low:Q", scale=x, title="BLEU"), x2="high:Q")
    return (bars + points).properties(height=alt.Step(26), title=chart_title(text("verdict.chart_ci", language)))


def delta_chart(
    frame: pd.DataFrame, baseline: str, language: str = DEFAULT_LANGUAGE, metric: str = "BLEU"
) -> alt.Chart:
    """Each system's difference to the baseline with the 95% interval of the difference (paired resamples);
    ``frame``: :func:`results_frame`'s columns, the difference in ``Δ {metric}``."""
    columns = ["system", f"Δ {metric}", "Δ low", "Δ high", "verdict", "p-value"]
    data = frame[frame["system"] != baseline][columns].copy()
    data.columns = pd.Index(["system", "delta", "low", "high", "verdict", "p"])
    has_interval = bool(data["low"].notna().any())  # approximate randomization gives p-values, no interval
    data["low"] = data["low"].fillna(data["delta"])
    data["high"] = data["high"].fillna(data["delta"])
    data["verdict"] = [verdict_label(v, language) for v in data["verdict"]]
    values = [0.0, *data["low"].tolist(), *data["high"].tolist()]
    x = alt.Scale(domain=padded_domain(min(values), max(values)), zero=False, nice=False)
    long_names = max(map(len, data["system"]), default=0) > LONG_NAME
    color = alt.Color(
        "verdict:N",
        scale=alt.Scale(
            domain=[verdict_label(v, language) for v in list(VERDICT_COLORS)[:4]],
            range=list(VERDICT_COLORS.values())[:4],
        ),
        # two labels a row, none cut: four in one row ran out of width at 1280 px ("or…"); one beside long names
        legend=alt.Legend(orient="bottom", title=None, columns=1 if long_names else 2, labelLimit=0),
    )
    base = alt.Chart(data).encode(y=alt.Y("system:N", sort=list(data["system"]), title=None, axis=NAMES), color=color)
    tooltip = [
        alt.Tooltip("system:N", title=text("verdict.col_system", language)),
        alt.Tooltip("delta:Q", title=f"Δ {metric}", format="+.2f"),
        alt.Tooltip("low:Q", title=text("verdict.low", language)),
        alt.Tooltip("high:Q", title=text("verdict.high", language)),
        alt.Tooltip("p:Q", title=text("verdict.col_p", language)),
        alt.Tooltip("verdict:N", title=text("verdict.col_verdict", language)),
    ]
    shown = baseline if len(baseline) <= LONG_NAME + 2 else baseline[:LONG_NAME] + "…"  # in full in the page
    axis_title = f"{metric} − {shown}"
    points = base.mark_point(filled=True, size=70).encode(
        x=alt.X("delta:Q", scale=x, title=axis_title), tooltip=tooltip
    )
    zero = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(color="#444", strokeDash=[4, 3]).encode(x="zero:Q")
    if not has_interval:
        return (zero + points).properties(
            height=alt.Step(26), title=chart_title(text("fit.chart_delta_no_interval", language, metric=metric))
        )
    rules = base.mark_rule(strokeWidth=2).encode(x=alt.X("low:Q", scale=x, title=axis_title), x2="high:Q")
    return (zero + rules + points).properties(
        height=alt.Step(26), title=chart_title(text("verdict.chart_delta", language, metric=metric))
    )


def shown_ranks(ranks: Sequence[SystemRank], metric: str = "BLEU") -> pd.DataFrame:
    """The ranking table of the page: rank ("1–3" holds the best and the worst rank), system and score; with the
    two rank columns a 28-character name pushed "worst rank" out of half of a 1280 px page."""
    return ranks_frame(ranks, metric)[["rank", "system", metric]]


def ranks_frame(ranks: Sequence[SystemRank], metric: str = "BLEU") -> pd.DataFrame:
    """The ranking as a table (``metric``: the scores' column); the clusters are the rank chart's colours (with them
    the table scrolled sideways in half of a 1280 px page)."""
    return pd.DataFrame(
        {
            "rank": [r.label for r in ranks],
            "system": [r.system for r in ranks],
            metric: [round(r.score, 2) for r in ranks],
            "best rank": [r.best for r in ranks],
            "worst rank": [r.worst for r in ranks],
        }
    )


def rank_chart(
    ranks: Sequence[SystemRank], language: str = DEFAULT_LANGUAGE, metric: str = "BLEU", named: bool = False
) -> alt.Chart:
    """A bar from best to worst rank per system (best score on top), coloured by cluster; ``named``: the title
    starts with the metric (charts of several metrics side by side)."""
    data = ranks_frame(ranks, metric)
    data["cluster"] = [r.cluster for r in ranks]
    data["from"] = data["best rank"] - 0.4
    data["to"] = data["worst rank"] + 0.4
    n = len(ranks)
    x = alt.Scale(domain=[0.5, n + 0.5], nice=False, zero=False)
    base = alt.Chart(data).encode(y=alt.Y("system:N", sort=list(data["system"]), title=None, axis=NAMES))
    bars = base.mark_bar(cornerRadius=3, opacity=0.8).encode(
        x=alt.X(
            "from:Q",
            scale=x,
            title=text("verdict.axis_rank_range", language),
            axis=alt.Axis(tickMinStep=1, format="d"),
        ),
        x2="to:Q",
        color=alt.Color(
            "cluster:O",
            title=text("verdict.col_cluster", language),
            scale=alt.Scale(scheme="tableau10"),
            legend=alt.Legend(orient="bottom"),
        ),
        tooltip=[
            alt.Tooltip("system:N", title=text("verdict.col_system", language)),
            alt.Tooltip("rank:N", title=text("verdict.col_rank", language)),
            alt.Tooltip(f"{metric}:Q", format=".2f"),
            alt.Tooltip("cluster:O", title=text("verdict.col_cluster", language)),
        ],
    )
    labels = base.mark_text(align="left", dx=4, fontSize=11).encode(x=alt.X("to:Q", scale=x), text="rank:N")
    heading = text("verdict.chart_ranks", language)
    title = chart_title(f"{metric} — {heading}" if named else heading)  # side by side, the metric leads
    return (bars + labels).properties(height=alt.Step(24), title=title)


def heatmap(
    p_values: Mapping[tuple[str, str], float],
    corrected: Mapping[tuple[str, str], float],
    ranks: Sequence[SystemRank],
    alpha: float,
    language: str = DEFAULT_LANGUAGE,
) -> alt.Chart:
    """Pairwise p-values, systems in rank order; cells significant after the correction are outlined and
    starred; cell text only while it fits (up to :data:`CELL_TEXT_LIMIT` systems), tooltips always."""
    names = [r.system for r in ranks]
    rows = []
    for a in names:
        for b in names:
            if a == b:
                continue
            p, q = p_values[a, b], corrected[a, b]
            star = "*" if q < alpha else ""
            rows.append(
                {"A": a, "B": b, "p": p, "corrected p": q, "significant": bool(star), "label": f"{p:.3f}{star}"}
            )
    frame = pd.DataFrame(rows)
    step = 34 if len(names) <= CELL_TEXT_LIMIT else 22
    base = alt.Chart(frame).encode(
        x=alt.X("B:N", sort=names, title=None, axis=alt.Axis(labelAngle=-50, labelLimit=140, labelOverlap=False)),
        y=alt.Y("A:N", sort=names, title=None, axis=alt.Axis(labelLimit=180, labelOverlap=False)),
    )
    cells = base.mark_rect().encode(
        color=alt.Color(
            "p:Q",
            title=text("verdict.col_p", language),
            scale=alt.Scale(domain=[0, max(0.2, 2 * alpha)], scheme="blues", reverse=True, clamp=True),
        ),
        stroke=alt.condition("datum.significant", alt.value("#111"), alt.value(None)),
        strokeWidth=alt.condition("datum.significant", alt.value(2), alt.value(0)),
        tooltip=[
            "A",
            "B",
            alt.Tooltip("p:Q", title=text("verdict.col_p", language), format=".4f"),
            alt.Tooltip("corrected p:Q", title=text("verdict.corrected_p", language), format=".4f"),
            alt.Tooltip("significant:N", title=text("verdict.significant", language)),
        ],
    )
    labels = (
        base.mark_text(fontSize=10).encode(
            text="label:N", color=alt.condition(f"datum.p < {alpha}", alt.value("white"), alt.value("black"))
        )
        if len(names) <= CELL_TEXT_LIMIT
        else base.transform_filter("datum.significant")
        .mark_text(fontSize=12, color="white")
        .encode(text=alt.value("*"))
    )
    return (cells + labels).properties(
        width=alt.Step(step),
        height=alt.Step(step),
        title=chart_title(text("verdict.chart_heatmap", language)),
    )
