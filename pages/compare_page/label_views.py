"""Compare's scores by label: the table (label x system) and the heatmap of BLEU differences from the baseline (no
Streamlit calls; labels and system names are user text, left to the dataframe and to Vega, which render text)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from bleu_core.compare.slices import LabelTest, SliceScores
from bleu_core.i18n import text
from pages.corpus_page.slice_views import shown_label
from pages.shared.views import chart_title

#: Labels the heatmap draws at most: the largest ones (most segments; the tags file's order breaks ties).
CHART_LABELS = 30
#: Height of one row and width of one column of the heatmap, in pixels: room for the difference written in each cell
#: (rows of 16 px were too thin to read or to point at).
ROW_PIXELS, COLUMN_PIXELS = 24, 64
COLUMNS = ("label", "system", "segments", "BLEU", "chrF2", "TER", "Δ BLEU", "p-value", "corrected", "mark")


def mark(delta: float, corrected: float | None, alpha: float) -> str:
    """▲ / ▼: better / worse than the baseline with the corrected p-value below ``alpha``; ≈ otherwise (also for
    no difference at all, which a test on a label of one segment can call significant)."""
    if corrected is None:
        return ""
    if corrected < alpha and delta != 0:
        return "▲" if delta > 0 else "▼"
    return "≈"


def label_frame(
    scores: SliceScores, tests: tuple[LabelTest, ...] | None, alpha: float, lang: str = "en"
) -> pd.DataFrame:
    """One row per label and system, labels in the tags file's order, the baseline (the first system) first.

    The baseline's rows have no Δ and no p-values (their mark says "baseline"); without ``tests`` (refused by
    the limits) no row has p-values.
    """
    found = {(test.label, test.system): test for test in tests or ()}
    baseline = scores.systems[0]
    rows = []
    for label in scores.labels:
        for index, system in enumerate(scores.systems):
            bleu = label.bleu[index]
            delta = bleu - label.bleu[0] if system != baseline else None
            test = found.get((label.label, system))
            rows.append(
                {
                    "label": shown_label(label.label, lang),
                    "system": system,
                    "segments": label.segments,
                    "BLEU": bleu,
                    "chrF2": label.chrf[index] if label.chrf else None,
                    "TER": label.ter[index] if label.ter else None,
                    "Δ BLEU": delta,
                    "p-value": test.p_value if test else None,
                    "corrected": test.corrected if test else None,
                    "mark": text("slices.compare.baseline", lang)
                    if delta is None
                    else (mark(delta, test.corrected, alpha) if test else ""),
                }
            )
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    return frame if scores.corpus.ter else frame.drop(columns="TER")  # TER only when the metric choice shows it


def chart_labels(scores: SliceScores, limit: int = CHART_LABELS) -> list[str]:
    """The labels the chart draws (as shown): the ``limit`` largest, largest first."""
    order = sorted(range(len(scores.labels)), key=lambda i: -scores.labels[i].segments)  # stable: file order on ties
    return [scores.labels[i].label for i in order[:limit]]


def label_chart(scores: SliceScores, frame: pd.DataFrame, alpha: float, lang: str = "en") -> alt.LayerChart:
    """Δ BLEU of each system against the baseline on each label (the largest :data:`CHART_LABELS`), red where it
    loses, blue where it wins, written in each cell; a star marks a difference significant after the correction."""
    shown = [shown_label(label, lang) for label in chart_labels(scores)]
    data = frame[frame["Δ BLEU"].notna() & frame["label"].isin(shown)].copy()
    data["star"] = ["*" if c is not None and not pd.isna(c) and c < alpha else "" for c in data["corrected"]]
    data["Δ"] = [f"{value:+.2f}" for value in data["Δ BLEU"]]
    data["p"] = ["—" if pd.isna(p) else f"{p:.4f}" for p in data["corrected"]]
    extent = max(1.0, float(data["Δ BLEU"].abs().max())) if len(data) else 1.0
    data["cell"] = data["Δ"] + data["star"]
    # white on the darkest cells (a value, not a scale: a second colour scale in the layer drew no chart at all)
    data["ink"] = ["white" if abs(value) > 0.6 * extent else "black" for value in data["Δ BLEU"]]
    systems = list(dict.fromkeys(data["system"]))
    y = alt.Y("label:N", sort=shown, title=None, axis=alt.Axis(labelLimit=220, labelOverlap=False))
    x = alt.X(
        "system:N",
        sort=systems,
        title=None,
        axis=alt.Axis(labelAngle=-40, labelLimit=160, labelOverlap=False, orient="top"),
    )
    cells = (
        alt.Chart(data)
        .mark_rect(stroke="white")
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "Δ BLEU:Q",
                scale=alt.Scale(scheme="redblue", domain=[-extent, extent]),
                title=text("slices.compare.chart_legend", lang),
            ),
            tooltip=[
                alt.Tooltip("label:N", title=text("slices.col_label", lang)),
                alt.Tooltip("system:N", title=text("slices.compare.col_system", lang)),
                alt.Tooltip("segments:Q", title=text("slices.col_segments", lang)),
                alt.Tooltip("Δ:N", title="Δ BLEU"),
                alt.Tooltip("p:N", title=text("slices.compare.col_corrected", lang)),
            ],
        )
    )
    stars = (
        alt.Chart(data)
        .mark_text(fontSize=11)
        .encode(
            x=x,
            y=y,
            text="cell:N",
            color=alt.condition("datum.ink == 'white'", alt.value("white"), alt.value("black")),
            tooltip=cells.encoding.tooltip,
        )
    )
    baseline = scores.systems[0]
    return (cells + stars).properties(
        width=alt.Step(COLUMN_PIXELS),  # steps, not a size: the chart grows with its rows instead of squeezing them
        height=alt.Step(ROW_PIXELS),
        title=chart_title(text("slices.compare.chart_title", lang, baseline=baseline)),
    )
