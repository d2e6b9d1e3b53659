"""The verdict in several metrics (BLEU, chrF, chrF++, TER): one table side by side and the metrics' disagreements.

No Streamlit calls.  The data keeps English column names (for CSV); system names are user text, escaped by the
caller where Markdown renders them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from bleu_core.compare.paired import Disagreement, disagreements
from bleu_core.compare.ranking import Comparison, SystemRank
from bleu_core.i18n import DEFAULT_LANGUAGE, text
from pages.compare_page.verdict_views import corrected_verdict, signed
from pages.shared.views import md_escape

Escape = Callable[[str], str]

#: The choices of the metric control; "all" puts the four side by side.
CHOICES = ("bleu", "chrf", "chrf++", "ter", "all")


def chosen_metrics(choice: str) -> tuple[str, ...]:
    """The metrics (keys of :data:`bleu_core.compare.metrics.METRICS`) a choice shows."""
    return CHOICES[:-1] if choice == "all" else (choice,)


@dataclass(frozen=True)
class MetricVerdict:
    """One metric's verdict: its printed name, the comparison, its rank ranges and corrected p-values."""

    name: str
    comparison: Comparison
    ranks: tuple[SystemRank, ...]
    corrected: Mapping[tuple[str, str], float]
    ranking_samples: int = 0  # the samples the ranks and corrected p-values rest on (0: the comparison's)


def delta_text(delta: float, low: float | None, high: float | None) -> str:
    """``+1.23 [−0.40, +2.95]`` (the interval of the difference; AR has none, and the baseline has no difference)."""
    if low is None or high is None:
        return signed(delta)
    return f"{signed(delta)} [{signed(low)}, {signed(high)}]"


#: Columns of the metrics' table (the data's English names) and the catalog keys of their headers.
COLUMNS = {
    "system": "verdict.col_system",
    "metric": "metrics_verdict.col_metric",
    "score": "metrics_verdict.col_score",
    "Δ (95% CI)": "metrics_verdict.col_delta",
    "p corrected": "metrics_verdict.col_p",
    "cluster": "metrics_verdict.col_cluster",
}


def metric_frame(verdicts: Sequence[MetricVerdict]) -> pd.DataFrame:
    """One row per system and metric, a system's metrics next to each other (systems in the first metric's rank
    order): the score, Δ to the baseline with its 95% interval, the corrected p-value against the baseline (None
    for the baseline) and the cluster.  Long rather than wide: three metrics side by side fit a laptop's screen."""
    order = [rank.system for rank in verdicts[0].ranks]
    rows = []  # Δ also as numbers after the shown columns: the CSV's (a text cell is no number to a spreadsheet)
    for system in order:
        for v in verdicts:
            difference = next(d for d in v.comparison.differences if d.system == system)
            base = v.comparison.baseline
            rows.append(
                {
                    "system": system,
                    "metric": v.name,
                    "score": v.comparison.score(system),
                    "Δ (95% CI)": delta_text(difference.delta, difference.low, difference.high),
                    "p corrected": None if system == base else v.corrected[base, system],
                    "cluster": next(r.cluster for r in v.ranks if r.system == system),
                    "Δ": difference.delta,
                    "Δ low": difference.low,
                    "Δ high": difference.high,
                }
            )
    return pd.DataFrame(rows, columns=[*COLUMNS, "Δ", "Δ low", "Δ high"])


def csv_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """:func:`metric_frame` for the CSV download: numbers only (Δ and its bounds in columns of their own)."""
    return frame.drop(columns="Δ (95% CI)")


def delta_frame(verdict: MetricVerdict, alpha: float) -> pd.DataFrame:
    """One metric's rows for :func:`.verdict_views.delta_chart`: each system's Δ to the baseline (``Δ {name}``)
    with its interval, sacreBLEU's p-value and the verdict on the corrected one (TER's lower score its better)."""
    comparison, base = verdict.comparison, verdict.comparison.baseline
    sign = 1.0 if comparison.higher_is_better else -1.0
    rows = [
        {
            "system": d.system,
            f"Δ {verdict.name}": d.delta,
            "Δ low": d.low,
            "Δ high": d.high,
            "p-value": d.p_value,
            "verdict": corrected_verdict(d.p_value, verdict.corrected.get((base, d.system)), sign * d.delta, alpha),
        }
        for d in comparison.differences
    ]
    return pd.DataFrame(rows, columns=["system", f"Δ {verdict.name}", "Δ low", "Δ high", "p-value", "verdict"])


def display_frame(frame: pd.DataFrame, language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """The frame as people read it: "—" for the baseline's Δ and p-value, p-values to four decimals, headers in
    the interface language (the metric names stay as sacreBLEU prints them)."""
    shown = frame[list(COLUMNS)].copy()
    base = frame["p corrected"].isna()
    shown["Δ (95% CI)"] = ["—" if b else d for d, b in zip(frame["Δ (95% CI)"], base, strict=True)]
    shown["p corrected"] = ["—" if b else f"{p:.4f}" for p, b in zip(frame["p corrected"], base, strict=True)]
    return shown.rename(columns={column: text(key, language) for column, key in COLUMNS.items()})


def summary_line(verdict: MetricVerdict, language: str = DEFAULT_LANGUAGE, escape: Escape = md_escape) -> str:
    """One metric in one sentence: the baseline's score, the clusters and who is in the top one (Markdown; names
    through ``escape``: the page's Markdown escape, or none for the HTML report, which escapes the whole line)."""
    clusters = max(rank.cluster for rank in verdict.ranks)
    top = [escape(rank.system) for rank in verdict.ranks if rank.cluster == 1]
    return text(
        "metrics_verdict.summary",
        language,
        metric=verdict.name,
        baseline=escape(verdict.comparison.baseline),
        score=f"{verdict.comparison.score(verdict.comparison.baseline):.2f}",
        clusters=clusters,
        cluster_noun=text("verdict.cluster_one" if clusters == 1 else "verdict.cluster_many", language),
        top=text("verdict.list_separator", language).join(top),
    )


def found_disagreements(verdicts: Sequence[MetricVerdict], alpha: float) -> tuple[Disagreement, ...]:
    """Pairs of systems two of the metrics order in opposite ways."""
    return disagreements({v.name: (v.comparison, v.corrected) for v in verdicts}, alpha)


def disagreement_sentence(found: Disagreement, language: str = DEFAULT_LANGUAGE, escape: Escape = md_escape) -> str:
    """One disagreement in words: "BLEU ranks A above B (significant); chrF2 ranks B above A (not significant)."
    (Markdown; names as in :func:`summary_line`)"""

    def significance(flag: bool) -> str:
        return text("metrics_verdict.significant" if flag else "metrics_verdict.not_significant", language)

    return text(
        "metrics_verdict.disagree",
        language,
        first=found.first,
        first_top=escape(found.first_prefers),
        first_bottom=escape(found.second_prefers),
        first_significance=significance(found.first_significant),
        second=found.second,
        second_top=escape(found.second_prefers),
        second_bottom=escape(found.first_prefers),
        second_significance=significance(found.second_significant),
    )


def disagreement_frame(found: Sequence[Disagreement], language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    """The disagreements as a table: the two metrics, the order each gives and whether it is significant."""
    rows = [
        {
            text("metrics_verdict.col_metrics", language): f"{d.first} / {d.second}",
            text("metrics_verdict.col_first", language): f"{d.first_prefers} > {d.second_prefers}",
            text("metrics_verdict.col_first_significant", language): d.first_significant,
            text("metrics_verdict.col_second", language): f"{d.second_prefers} > {d.first_prefers}",
            text("metrics_verdict.col_second_significant", language): d.second_significant,
        }
        for d in found
    ]
    return pd.DataFrame(rows)
