"""Tables and charts of the compare page (no Streamlit calls; system names are user text)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePath

import altair as alt
import numpy as np
import pandas as pd

from bleu_core.compare import ranking
from bleu_core.compare.ranking import segment_outcomes
from bleu_core.corpus.diagnosis import CorpusAnalysis, LengthBucket
from bleu_core.corpus.ngram_lists import NgramContrast
from bleu_core.i18n import DEFAULT_LANGUAGE, text
from pages.shared.views import chart_title

_LATEX_SPECIAL = re.compile(r"([\\&%$#_{}~^])")
_LATEX_REPLACEMENTS = {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """Text that LaTeX prints literally (no command in it can run)."""
    return _LATEX_SPECIAL.sub(lambda m: _LATEX_REPLACEMENTS.get(m.group(1), "\\" + m.group(1)), text)


def results_latex(frame: pd.DataFrame, signature: str) -> str:
    """A booktabs table of the results, every cell escaped."""
    columns = list(frame.columns)
    lines = [
        r"\begin{tabular}{l" + "r" * (len(columns) - 1) + "}",
        r"\toprule",
        " & ".join(latex_escape(str(c)) for c in columns) + r" \\",
        r"\midrule",
    ]
    for record in frame.itertuples(index=False):
        cells = ["" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v) for v in record]
        lines.append(" & ".join(latex_escape(c) for c in cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", f"% {latex_escape(signature)}"]
    return "\n".join(lines) + "\n"


def results_json(frame: pd.DataFrame, signature: str, test: str, n_samples: int, seed: int) -> str:
    records = json.loads(frame.to_json(orient="records", force_ascii=False))
    return json.dumps(
        {"signature": signature, "test": test, "n_samples": n_samples, "seed": seed, "systems": records},
        ensure_ascii=False,
        indent=1,
    )


#: More systems than this and the precision and length-bucket charts become sorted dot plots (one row per
#: system, one colour per order or bucket): grouped bars of ten systems were hair-thin in look-alike colours.
GROUPED_SYSTEMS = 4
#: A legend of system names under the chart, two a row, names in full.
SYSTEM_LEGEND = alt.Legend(orient="bottom", columns=2, labelLimit=0)


def _dot_plot(
    data: pd.DataFrame, value: str, key: str, keys: Sequence[str], systems: Sequence[str], titles: Mapping[str, str]
) -> alt.Chart:
    """One row per system (``systems`` order), a dot per ``key`` coloured along an ordered scale, a grey line
    from the lowest to the highest dot."""
    y = alt.Y("system:N", sort=list(systems), title=None, axis=alt.Axis(labelLimit=180))
    spans = (
        alt.Chart(data).mark_rule(color="#bbbbbb", strokeWidth=2).encode(y=y, x=f"min({value}):Q", x2=f"max({value}):Q")
    )
    dots = (
        alt.Chart(data)
        .mark_circle(size=80, opacity=0.9)
        .encode(
            y=y,
            x=alt.X(f"{value}:Q", title=titles[value]),
            color=alt.Color(
                f"{key}:O",
                sort=list(keys),
                scale=alt.Scale(scheme="viridis"),
                title=titles[key],
                # three a row: six length buckets in one row ran past the chart's edge
                legend=alt.Legend(orient="bottom", labelLimit=0, columns=3),
            ),
            tooltip=[
                alt.Tooltip("system:N", title=titles["system"]),
                f"{key}:O",
                alt.Tooltip(f"{value}:Q", format=".2f"),
            ],
        )
    )
    return (spans + dots).properties(height=alt.Step(24))


def precisions_chart(analyses: Mapping[str, CorpusAnalysis], language: str = DEFAULT_LANGUAGE) -> alt.Chart:
    """n-gram precisions per system: grouped bars for a few systems, a sorted dot plot for many."""
    rows = [
        {"system": name, "order": f"p{n}", "precision": 100 * p}
        for name, a in analyses.items()
        for n, p in enumerate(a.result.precisions, 1)
    ]
    data = pd.DataFrame(rows)
    titles = {
        "precision": text("compare.axis_precision", language),
        "order": text("compare.axis_order", language),
        "system": text("compare.legend_system", language),
    }
    ranked = sorted(analyses, key=lambda name: -analyses[name].result.score)
    title = chart_title(text("compare.chart_precisions", language))
    orders = list(dict.fromkeys(data["order"]))
    return _systems_chart(data, ("precision", "order", None), orders, ranked, list(analyses), titles, title)


def _systems_chart(
    data: pd.DataFrame,
    fields: tuple[str, str, str | None],
    keys: Sequence[str],
    ranked: Sequence[str],
    systems: Sequence[str],
    titles: Mapping[str, str],
    title: alt.TitleParams,
    extra: Sequence[alt.Tooltip] = (),
) -> alt.Chart:
    """A value per system and key (``fields``: the value, the key and the key axis' title): grouped bars for a few
    systems, a dot plot for many (one row per system, in ``ranked`` order).  The bars' tooltips: the system, the
    key, ``extra`` and the value (``titles`` names the fields)."""
    value, key, key_title = fields
    tooltips = [
        alt.Tooltip("system:N", title=titles["system"]),
        alt.Tooltip(f"{key}:N", title=titles[key]),
        *extra,
        alt.Tooltip(f"{value}:Q", title=titles[value], format=".2f"),
    ]
    if len(systems) > GROUPED_SYSTEMS:
        return _dot_plot(data, value, key, keys, ranked, titles).properties(title=title)
    return (
        alt.Chart(data)
        .mark_bar()
        .encode(
            # every key named: angled when they do not fit side by side, never dropped
            x=alt.X(f"{key}:N", sort=list(keys), title=key_title, axis=alt.Axis(labelAngle=0, labelOverlap=False)),
            xOffset=alt.XOffset("system:N", sort=list(systems)),
            y=alt.Y(f"{value}:Q", title=titles[value]),
            color=alt.Color("system:N", sort=list(systems), title=titles["system"], legend=SYSTEM_LEGEND),
            tooltip=tooltips,
        )
        .properties(height=260, title=title)
    )


def buckets_chart(buckets: Mapping[str, Sequence[LengthBucket]], language: str = DEFAULT_LANGUAGE) -> alt.Chart:
    """Corpus BLEU per reference-length bucket and system: grouped bars for a few systems, a dot plot for many
    (systems sorted by their mean over the buckets)."""
    rows = [
        {"system": name, "reference length": b.label, "BLEU": 100 * b.corpus_bleu, "segments": b.segments}
        for name, items in buckets.items()
        for b in items
    ]
    order: list[str] = list(
        dict.fromkeys(str(row["reference length"]) for row in sorted(rows, key=lambda r: _bucket_start(r)))
    )
    data = pd.DataFrame(rows)
    means = data.groupby("system")["BLEU"].mean()
    ranked = sorted(buckets, key=lambda name: -float(means.get(name, 0.0)))
    titles = {
        "BLEU": text("compare.axis_bucket_bleu", language),
        "reference length": text("compare.axis_reference_length", language),
        "system": text("compare.legend_system", language),
    }
    title = chart_title(text("compare.chart_buckets", language))
    fields = ("BLEU", "reference length", titles["reference length"])
    segments = alt.Tooltip("segments:Q", title=text("compare.col_segments", language))
    return _systems_chart(data, fields, order, ranked, list(buckets), titles, title, [segments])


def _bucket_start(row: Mapping[str, object]) -> int:
    return int(str(row["reference length"]).split("–")[0].rstrip("+"))


#: The scatter frame's columns: fixed names, so that no system name (``segment``, ``difference``, ``x``, a name
#: with a dot that Vega-Lite would read as a nested field) can collide with one; the names go into titles only.
SCATTER_COLUMNS = ("segment", "first", "second", "difference")


def scatter_frame(scores: Mapping[str, np.ndarray], a: str, b: str) -> pd.DataFrame:
    """The sentence scores (0-100) of systems ``a`` (column ``first``) and ``b`` (``second``) per segment, and
    a − b."""
    segment, first, second, difference = SCATTER_COLUMNS
    return pd.DataFrame(
        {
            segment: np.arange(1, len(scores[a]) + 1),
            first: scores[a],
            second: scores[b],
            difference: scores[a] - scores[b],
        }
    )


#: Characters of a system name in the scatter's legend (a longer one ends in "…"; the axes carry it whole).
LEGEND_NAME_CHARS = 24


def short_name(name: str, limit: int = LEGEND_NAME_CHARS) -> str:
    """``name`` cut to ``limit`` characters, ending in "…" when cut."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


def better_labels(a: str, b: str, language: str = DEFAULT_LANGUAGE) -> tuple[str, str, str]:
    """The scatter legend's entries: "<a> better", "<b> better", "tie".  System names are shortened; two that
    read the same once shortened (or a name that reads like the tie entry) become "System A" and "System B",
    as the selectors above the chart call them."""
    tie = text("compare.better_tie", language)
    first, second = (text("compare.pair.better", language, name=short_name(name)) for name in (a, b))
    if len({first, second, tie}) < 3:
        first, second = (
            text("compare.pair.better", language, name=text(f"compare.system_{k}", language)) for k in "ab"
        )
    return first, second, tie


def scatter_chart(
    frame: pd.DataFrame,
    a: str,
    b: str,
    language: str = DEFAULT_LANGUAGE,
    metric: str = "BLEU",
    lower_is_better: bool = False,
) -> alt.Chart:
    """The scatter of :func:`scatter_frame` (``a`` and ``b`` name its axes and its legend; ``metric`` its titles;
    with ``lower_is_better``, TER, a point below the diagonal is a segment ``b`` does better)."""
    data = frame.rename(columns={"first": "x", "second": "y"})
    diff = data["difference"].to_numpy()
    top = float(max(data["x"].max(), data["y"].max(), 1.0))
    domain = [0.0, round(top * 1.04, 1)]  # the data's range with a margin, alike on both axes
    first, second, tie = better_labels(a, b, language)
    data["better"] = np.choose(segment_outcomes(-diff if lower_is_better else diff) + 1, [second, tie, first])
    points = (
        alt.Chart(data)
        .mark_circle(size=40, opacity=0.6)
        .encode(
            x=alt.X(
                "x:Q",
                title=text("compare.axis_sentence_score", language, metric=metric, name=a),
                scale=alt.Scale(domain=domain, nice=False),
            ),
            y=alt.Y(
                "y:Q",
                title=text("compare.axis_sentence_score", language, metric=metric, name=b),
                scale=alt.Scale(domain=domain, nice=False),
            ),
            color=alt.Color(
                "better:N",
                title=text("compare.legend_better", language),
                scale=alt.Scale(domain=[first, second, tie], range=["#3b6ea8", "#c77700", "#999999"]),
                legend=alt.Legend(labelLimit=0),  # the labels are short already: none is cut again
            ),
            tooltip=[
                alt.Tooltip("segment:Q", title=text("compare.col_segment", language)),
                alt.Tooltip("x:Q", title=a, format=".2f"),
                alt.Tooltip("y:Q", title=b, format=".2f"),
            ],
        )
        .add_params(alt.selection_point(name="picked", fields=["segment"], on="click"))
    )
    diagonal = alt.Chart(pd.DataFrame({"x": domain, "y": domain})).mark_line(color="#999", strokeDash=[4, 4])
    return (diagonal.encode(x="x:Q", y="y:Q") + points).properties(
        height=380, title=text("compare.chart_scatter", language, metric=metric)
    )


def win_tie_loss(frame: pd.DataFrame, lower_is_better: bool = False) -> tuple[int, int, int]:
    """Wins, ties and losses of the first system over the segments of :func:`scatter_frame` (the core counts)."""
    difference = frame["difference"].to_numpy()
    return ranking.win_tie_loss(-difference if lower_is_better else difference)


def contrast_frame(items: Sequence[NgramContrast], language: str = DEFAULT_LANGUAGE) -> pd.DataFrame:
    return pd.DataFrame(
        {
            text("compare.col_ngram", language): [c.ngram for c in items],
            "n": [c.order for c in items],
            text("compare.col_matches", language): [c.matches for c in items],
            text("compare.col_others", language): [round(c.others, 2) for c in items],
        }
    )


_DELIMITERS = "._- "


def short_names(file_names: Sequence[str]) -> list[str]:
    """Default system names: the file names without the prefix and suffix they all share, then without what the
    files of each family share (the names whose first part, up to a ``.``, ``_`` or space, is the same).

    ``generaltest2022.de-en.hyp.Online-A.en`` and ``…hyp.LT22.en`` become ``Online-A`` and ``LT22``, also beside
    a ``mine.en`` of another family; the cut is made at a ``.``, ``_``, ``-`` or space so that names stay readable.
    With one file, or when the short names would collide or vanish, the file names are kept.
    """
    names = _without_shared_affixes([PurePath(name).name for name in file_names])
    families: dict[str, list[int]] = {}
    for index, name in enumerate(names):
        families.setdefault(re.split(r"[._ ]", name, maxsplit=1)[0], []).append(index)
    shortened = list(names)
    for members in families.values():
        if 1 < len(members) < len(names):
            for index, short in zip(members, _without_shared_affixes([names[i] for i in members]), strict=True):
                shortened[index] = short
    return shortened if len(set(shortened)) == len(shortened) else names


def _without_shared_affixes(names: list[str]) -> list[str]:
    """``names`` without the prefix and suffix they all share (cut at a delimiter); unchanged when they would
    collide or vanish, or for one name."""
    if len(names) < 2:
        return names
    prefix = os.path.commonprefix(names)  # noqa: RUF071 (characters, not path components, are meant)
    suffix = os.path.commonprefix([name[::-1] for name in names])[::-1]  # noqa: RUF071
    cut_start = max((prefix.rfind(d) + 1 for d in "._ "), default=0)
    cut_end = min((suffix.find(d) for d in "._ " if d in suffix), default=len(suffix))
    shortened = [name[cut_start : len(name) - (len(suffix) - cut_end)] for name in names]
    if any(not s.strip(_DELIMITERS) for s in shortened) or len(set(shortened)) < len(shortened):
        return names
    return shortened
