"""The Corpus page's scores by label: the table and the bar chart (no Streamlit calls; labels are user text, left
to the dataframe and to Vega, which render text, never markup)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from bleu_core.compare.slices import NO_LABEL, SliceScores
from bleu_core.i18n import text
from pages.shared.views import chart_title

#: Height of one bar of the chart, in pixels.
BAR_PIXELS = 22


def shown_label(label: str, lang: str = "en") -> str:
    """A label as the page shows it: the empty label is "(no label)" in the interface language."""
    return text("slices.no_label", lang) if label == NO_LABEL else label


def slice_frame(scores: SliceScores, lang: str = "en") -> pd.DataFrame:
    """One row per label, in the tags file's order: segments, BLEU, chrF2 (and TER when it was asked for) and their
    differences from the corpus.

    The page's one system is the first of ``scores.systems``; chrF columns are None when chrF was left out.
    """
    with_chrf, with_ter = bool(scores.corpus.chrf), bool(scores.corpus.ter)
    rows = [
        {
            "label": shown_label(label.label, lang),
            "segments": label.segments,
            "BLEU": label.bleu[0],
            "chrF2": label.chrf[0] if with_chrf else None,
            **({"TER": label.ter[0]} if with_ter else {}),
            "BLEU − corpus": label.bleu[0] - scores.corpus.bleu[0],
            "chrF2 − corpus": label.chrf[0] - scores.corpus.chrf[0] if with_chrf else None,
            **({"TER − corpus": label.ter[0] - scores.corpus.ter[0]} if with_ter else {}),
        }
        for label in scores.labels
    ]
    ter = ["TER"] if with_ter else []
    columns = ["label", "segments", "BLEU", "chrF2", *ter, "BLEU − corpus", "chrF2 − corpus"]
    return pd.DataFrame(rows, columns=columns + [f"{name} − corpus" for name in ter])


def slice_chart(scores: SliceScores, lang: str = "en") -> alt.LayerChart:
    """BLEU of each label as a horizontal bar, highest first, with the whole corpus's BLEU as a rule."""
    frame = slice_frame(scores, lang)
    frame["shown"] = [f"{value:.2f}" for value in frame["BLEU"]]
    order = frame.sort_values(["BLEU", "segments"], ascending=[False, False], kind="stable")["label"].tolist()
    bars = (
        alt.Chart(frame)
        .mark_bar(color="#3b6ea8")
        .encode(
            y=alt.Y("label:N", sort=order, title=None),
            x=alt.X("BLEU:Q", title=text("slices.chart_axis", lang), scale=alt.Scale(domain=[0, 100])),
            tooltip=[
                alt.Tooltip("label:N", title=text("slices.col_label", lang)),
                alt.Tooltip("segments:Q", title=text("slices.col_segments", lang)),
                alt.Tooltip("shown:N", title="BLEU"),
            ],
        )
    )
    corpus = scores.corpus.bleu[0]
    rule_frame = pd.DataFrame({"BLEU": [corpus], "note": [text("slices.chart_corpus", lang, score=f"{corpus:.2f}")]})
    rule = alt.Chart(rule_frame).mark_rule(color="#b3261e", strokeDash=[4, 3]).encode(x="BLEU:Q", tooltip=["note:N"])
    height = BAR_PIXELS * len(frame) + 20
    return (bars + rule).properties(height=height, title=chart_title(text("slices.chart_title", lang)))
