"""Tables and charts of corpus-level analyses (no Streamlit calls; user text escaped or left to Streamlit)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from bleu_core import BleuResult
from bleu_core.corpus.diagnosis import CorpusAnalysis, LengthBucket, length_ratios, ratio_bins
from bleu_core.i18n import text
from pages.shared.views import chart_title, fmt, frame_csv

#: Sort choices (ids; the page shows them in the interface language) and the column each sorts by.
SORTS = {
    "sentence_bleu": "sentence BLEU",
    "sentence_chrf": "sentence chrF",
    "sentence_ter": "sentence TER",
    "segment": "segment",
    "loo": "leave-one-out Δ",
    "ratio": "_ratio",
    "hyp_len": "hyp len",
    "ref_len": "ref len",
}


def corpus_precision_frame(result: BleuResult) -> pd.DataFrame:
    """One row per order: clipped matches / candidate n-grams over the whole corpus."""
    return pd.DataFrame(
        {
            "n": [f"{n}-gram" for n in range(1, len(result.counts) + 1)],
            "matches": list(result.counts),
            "total": list(result.totals),
            "p_n": list(result.precisions),
            "fraction": [f"{m:,}/{t:,}" for m, t in zip(result.counts, result.totals, strict=True)],
        }
    )


def corpus_precision_chart(result: BleuResult, lang: str = "en") -> alt.Chart:
    frame = corpus_precision_frame(result)
    frame["label"] = [f"{100 * p:.1f}%" for p in frame["p_n"]]
    base = alt.Chart(frame).encode(
        x=alt.X("n:N", title=text("corpus.chart_order", lang), sort=None),
        y=alt.Y("p_n:Q", title=text("corpus.chart_precision_axis", lang), scale=alt.Scale(domain=[0, 1])),
        tooltip=["n", "fraction", alt.Tooltip("p_n:Q", format=".4f")],
    )
    return (base.mark_bar(color="#3b6ea8") + base.mark_text(dy=-8).encode(text="label:N")).properties(
        height=260, title=chart_title(text("corpus.chart_precision_title", lang))
    )


def terms_frame(analysis: CorpusAnalysis) -> pd.DataFrame:
    """The summands of log BLEU and what each costs in BLEU points (0-100)."""
    score = analysis.result.score_100
    return pd.DataFrame(
        {
            "term": [f"w·log {t.name}" if t.name != "BP" else "log BP" for t in analysis.terms],
            "weight": [t.weight for t in analysis.terms],
            "value": [t.value for t in analysis.terms],
            "BLEU if perfect": [100 * t.bleu_if_perfect for t in analysis.terms],
            "points lost": [100 * t.bleu_if_perfect - score for t in analysis.terms],
        }
    )


def terms_chart(analysis: CorpusAnalysis, lang: str = "en") -> alt.Chart:
    frame = terms_frame(analysis)
    frame["shown"] = [v if math.isfinite(v) else -10.0 for v in frame["value"]]
    frame["label"] = [fmt(v, 3) for v in frame["value"]]
    frame["costliest"] = frame["term"] == frame["term"][int(np.argmin(frame["value"]))]
    base = alt.Chart(frame).encode(
        x=alt.X("term:N", sort=None, title=None),
        y=alt.Y("shown:Q", title=text("corpus.chart_terms_axis", lang)),
        tooltip=["term", "label", alt.Tooltip("points lost:Q", format=".2f")],
    )
    bars = base.mark_bar().encode(color=alt.condition("datum.costliest", alt.value("#b3261e"), alt.value("#7a5195")))
    return (bars + base.mark_text(dy=10).encode(text="label:N")).properties(
        height=260, title=chart_title(text("corpus.chart_terms_title", lang))
    )


#: What a table shows where a number does not exist (an order a segment lacks, a ratio over 0).
MISSING = "—"


def fixed(value: float | None, digits: int) -> str:
    """A number with ``digits`` decimals, or :data:`MISSING` for NaN/None (never "nan" or "None")."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    return f"{value:.{digits}f}"


def segment_frame(
    analysis: CorpusAnalysis,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    source: Sequence[str] | None = None,
    sentence_chrf: Sequence[float] | np.ndarray | None = None,
    sentence_ter: Sequence[float] | np.ndarray | None = None,
) -> pd.DataFrame:
    """Every segment: id, sentence BLEU (0-100), sentence chrF and TER (when computed), its text (source, hypothesis,
    references), lengths, p_n as text with four decimals ("—" for an order the hypothesis is too short to have),
    the leave-one-out effect."""
    stats = analysis.stats
    frame = pd.DataFrame(
        {
            "segment": np.arange(1, len(stats) + 1),
            "sentence BLEU": 100 * analysis.sentence,
        }
    )
    if sentence_chrf is not None:
        frame["sentence chrF"] = np.asarray(sentence_chrf, dtype=float)
    if sentence_ter is not None:
        frame["sentence TER"] = np.asarray(sentence_ter, dtype=float)
    if source is not None:
        frame["source"] = list(source)
    frame["hypothesis"] = list(hypotheses)
    for k, stream in enumerate(references):
        frame[f"reference {k + 1}"] = ["" if line is None else line for line in stream]
    frame["hyp len"] = stats.hyp_len
    frame["ref len"] = stats.ref_len
    ratio = length_ratios(stats)
    frame["c/r"] = [fixed(float(r), 3) for r in ratio]
    frame["_ratio"] = ratio
    for n in range(min(4, analysis.precisions.shape[1])):
        frame[f"p{n + 1}"] = [fixed(float(p), 4) for p in analysis.precisions[:, n]]
    frame["leave-one-out Δ"] = np.round(100 * analysis.leave_one_out, 9) + 0.0  # no "-0.000"
    return frame


#: Columns kept for sorting only, never shown.
HIDDEN = ("_ratio",)


def filter_segments(
    frame: pd.DataFrame,
    score_range: tuple[float, float],
    length_range: tuple[int, int],
    sort: str,
    ascending: bool,
) -> pd.DataFrame:
    """Rows with sentence BLEU and reference length in the ranges, sorted (ties by segment id)."""
    keep = frame["sentence BLEU"].between(*score_range) & frame["ref len"].between(*length_range)
    column = SORTS[sort]
    return frame[keep].sort_values([column, "segment"], ascending=[ascending, True], kind="stable")


def ratio_histogram(frame: pd.DataFrame, lang: str = "en") -> alt.Chart:
    """Segments per 0.1-wide bin of c/r (binned here, so a big corpus sends only the bins to the browser)."""
    edges, counts = ratio_bins(frame["_ratio"].to_numpy(dtype=float))
    data = pd.DataFrame({"from": edges[:-1], "to": edges[1:], "segments": counts})
    return (
        alt.Chart(data)
        .mark_bar(color="#3b6ea8")
        .encode(
            x=alt.X("from:Q", bin="binned", title=text("corpus.chart_ratio_axis", lang)),
            x2="to:Q",
            y=alt.Y("segments:Q", title=text("corpus.col_segments", lang)),
            tooltip=["from", "to", "segments"],
        )
        .properties(height=240, title=chart_title(text("corpus.chart_ratio_title", lang)))
    )


def bucket_frame(buckets: Sequence[LengthBucket]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "reference length": [b.label for b in buckets],
            "segments": [b.segments for b in buckets],
            "mean sentence BLEU": [100 * b.mean_sentence_bleu for b in buckets],
            "corpus BLEU of bucket": [100 * b.corpus_bleu for b in buckets],
            "c/r": [fixed(b.hyp_len / b.ref_len, 3) if b.ref_len else MISSING for b in buckets],
        }
    )


#: Up to this many length buckets their labels stand level under the bars.
BUCKETS_LEVEL = 6


def bucket_chart(buckets: Sequence[LengthBucket], lang: str = "en") -> alt.Chart:
    frame = bucket_frame(buckets).melt(
        id_vars=["reference length", "segments"], value_vars=["mean sentence BLEU", "corpus BLEU of bucket"]
    )
    names = {
        "mean sentence BLEU": text("corpus.col_mean_sentence_bleu", lang),
        "corpus BLEU of bucket": text("corpus.col_bucket_bleu", lang),
    }
    frame["variable"] = frame["variable"].map(names)
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X(
                "reference length:N",
                sort=list(dict.fromkeys(frame["reference length"])),
                title=text("corpus.words_axis_length", lang),
                # every bucket named (Vega drops every other label when they crowd), slanted when many
                axis=alt.Axis(labelAngle=0 if len(buckets) <= BUCKETS_LEVEL else -35, labelOverlap=False),
            ),
            xOffset="variable:N",
            y=alt.Y("value:Q", title="BLEU (0–100)"),
            color=alt.Color("variable:N", title=None, legend=alt.Legend(orient="bottom", labelLimit=0)),
            tooltip=["reference length", "segments", "variable", alt.Tooltip("value:Q", format=".2f")],
        )
        .properties(height=240, title=chart_title(text("corpus.chart_bucket_title", lang)))
    )


def segments_csv(frame: pd.DataFrame) -> str:
    return frame_csv(frame)


def segments_json(analysis: CorpusAnalysis, hypotheses: Sequence[str]) -> str:
    """The corpus result and every segment's statistics, as JSON."""
    stats = analysis.stats
    segments = [
        {
            "segment": i + 1,
            "sentence_bleu": float(100 * analysis.sentence[i]),
            "hyp_len": int(stats.hyp_len[i]),
            "ref_len": int(stats.ref_len[i]),
            "matches": [int(m) for m in stats.matches[i]],
            "totals": [int(t) for t in stats.totals[i]],
            "leave_one_out": float(100 * analysis.leave_one_out[i]),
            "hypothesis": hypotheses[i],
        }
        for i in range(len(stats))
    ]
    result = analysis.result
    payload = {
        "corpus": result.to_dict(),
        "sentence_signature": analysis.sentence_options.signature(result.n_refs, result.signature.rsplit("-", 1)[-1]),
        "segments": segments,
    }
    return json.dumps(payload, ensure_ascii=False, indent=1)


def bp_latex(c: int, r: int, bp: float) -> str:
    """BP with the corpus lengths substituted."""
    if c > r:
        return rf"c = {c:,} > r = {r:,} \Rightarrow \mathrm{{BP}} = 1"
    if c == 0:
        return r"c = 0 \Rightarrow \mathrm{BP} = 0"
    return (
        rf"c = {c:,} \le r = {r:,},\ c/r = {c / r:.4f} \Rightarrow \mathrm{{BP}} = e^{{1 - r/c}} = "
        rf"e^{{1 - {r}/{c}}} = {bp:.4f}"
    )
